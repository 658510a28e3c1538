"""Read 22 of lesson 08, fixes BN: exercise 3's search (check_smallest_vocab_size) that cleans the text before
measuring it is refused, and its hint names the cleaning; a bytes_per_token that changes its input is told so
first; a right search on a text its tokenizer cannot bring to the goal is not counted as failed."""

from __future__ import annotations

import textwrap
import unicodedata

import pytest

from bpelab.analysis.compression import bytes_per_token as library_bytes_per_token
from bpelab.exercises.compression import (
    _paragraph,
    check_bytes_per_token,
    check_smallest_vocab_size,
)
from bpelab.exercises.samples import PARAGRAPH


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _search(cleaning: str):
    """The lesson's binary search, measuring `text` after the learner's `cleaning` (a line of code)."""
    namespace = {"bytes_per_token": library_bytes_per_token, "unicodedata": unicodedata}
    exec(
        textwrap.dedent(
            f"""
            def my_smallest_vocab_size(tokenizer, text, goal):
                {cleaning}
                low, high = 256, 256 + len(tokenizer.merges)
                while low < high:
                    middle = (low + high) // 2
                    if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
                        high = middle
                    else:
                        low = middle + 1
                return high
            """
        ),
        namespace,
    )
    return namespace["my_smallest_vocab_size"]


CLEANED_SEARCHES = [
    ('text = text.replace("\\r\\n", "\\n")', "\\r\\n"),
    ('text = text.replace("\\r", "")', "\\r"),
    ("text = text.expandtabs(4)", "expandtabs(4)"),
    ("text = text.expandtabs(2)", "expandtabs(2)"),
    ("text = text.expandtabs()", "expandtabs()"),
    ('text = text.replace("\\ufeff", "")', "U+FEFF"),
    ('text = text.replace("\\u200d", "")', "U+200D"),
    ('text = unicodedata.normalize("NFC", text)', "normalize('NFC'"),
    ('text = unicodedata.normalize("NFKC", text)', "normalize('NFKC'"),
    ('text = unicodedata.normalize("NFD", text)', "normalize('NFD'"),
    ('text = unicodedata.normalize("NFKD", text)', "normalize('NFKD'"),
    ("text = text.strip()", "text.strip()"),
    ("text = text.rstrip()", "text.rstrip()"),
    ("text = text.lstrip()", "text.lstrip()"),
    ('text = text.rstrip("\\n")', "text.rstrip('\\n')"),
    ('text = " ".join(text.split())', "' '.join(text.split())"),
    ('text = "\\n".join(line for line in text.split("\\n") if line.strip())', "blank lines"),
    ('text = "\\n".join(line for line in text.splitlines() if line.strip())', "blank lines"),
    ('text = "\\n".join(line.rstrip() for line in text.split("\\n"))', "rstrip() on each line"),
    ("text = text.casefold()", "casefold()"),
]


@pytest.mark.parametrize(("cleaning", "named"), CLEANED_SEARCHES)
def test_a_search_that_cleans_the_text_is_refused_and_told_so(cleaning, named, capsys):
    result = check_smallest_vocab_size(_search(cleaning), _paragraph(), PARAGRAPH, within=0.6, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    hint = _hint(out)
    assert named in hint and "as it is" in hint, hint


def test_a_bytes_per_token_that_clears_the_merges_is_told_it_changed_its_input_first(capsys):
    def bytes_per_token(tokenizer, text):
        tokenizer.merges.clear()
        ids = tokenizer.encode(text)
        return len(text.encode("utf-8")) / len(ids)

    assert not check_bytes_per_token(bytes_per_token, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "changed the tokenizer" in hint and "remember" not in hint, hint


def test_a_bytes_per_token_that_remembers_is_still_told_so(capsys):
    kept: dict = {}

    def bytes_per_token(tokenizer, text):
        if text not in kept:
            kept[text] = len(text.encode("utf-8")) / len(tokenizer.encode(text))
        return kept[text]

    assert not check_bytes_per_token(bytes_per_token, record=False).passed
    assert "remember" in _hint(capsys.readouterr().out)
