"""Fresh read 10 of lessons 05 and 07 (fixN): a find_parents from characters with a bytes fallback was named as
merging back to the token; decode_words stripping all whitespace (not only spaces) at the end passed; the
token-build title said "1 merges"."""

from __future__ import annotations

import string

import nbformat
import pytest
import regex

from bpelab.exercises.decoding import check_decode_words
from bpelab.exercises.real_tokenizers import check_find_parents
from bpelab.production import load_encoding, mergeable_ranks
from bpelab.token_build import TokenBuilder
from bpelab.widgets.token_build_view import merges_text
from tests.test_read8_fixL import _hint

LESSON_05 = "notebooks/05_encoding_and_decoding.ipynb"
LESSON_07 = "notebooks/07_regex_and_real_tokenizers.ipynb"


def _shown(path: str, name: str):
    """The function a lesson's "Show a solution" cell defines, run as a learner would paste it."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown" and f"def {name}(" in cell.source and "```python" in cell.source:
            namespace: dict = {}
            exec(cell.source.split("```python\n")[1].split("```")[0], namespace)
            return namespace[name]
    raise LookupError(name)


# ---- finding 1: find_parents from characters, bytes only where .decode() fails -----------------------------------


def characters_then_bytes(token, ranks):
    """The reviewer's answer: the token's characters when it decodes, its single bytes only when it does not."""
    try:
        parts = [c.encode("utf-8") for c in token.decode("utf-8")]
    except UnicodeDecodeError:
        parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        ranked = [
            (ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:])) if ranks.get(a + b, limit) < limit
        ]
        if not ranked:
            break
        _, i = min(ranked)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def test_characters_with_a_bytes_fallback_is_named_for_what_it_does(capsys) -> None:
    assert not check_find_parents(characters_then_bytes, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "characters" in hint and "only when .decode() fails" in hint and "merged all the way back" not in hint, hint


# ---- finding 2: decode_words strips a tab or a line break a symbol holds -----------------------------------------


WHITESPACE_STRIPPED = {
    "rstrip(string.whitespace)": lambda s: "".join(s).replace("</w>", " ").rstrip(string.whitespace),
    r"regex \s+$": lambda s: regex.sub(r"\s+$", "", "".join(s).replace("</w>", " ")),
    r"regex \s+\Z": lambda s: regex.sub(r"\s+\Z", "", "".join(s).replace("</w>", " ")),
}


@pytest.mark.parametrize("name", list(WHITESPACE_STRIPPED))
def test_stripping_every_whitespace_at_the_end_is_rejected_and_named(name, capsys) -> None:
    assert not check_decode_words(WHITESPACE_STRIPPED[name], record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "rstrip(' ')" in hint and "tab" in hint, hint


def test_the_lessons_shown_decode_words_still_passes() -> None:
    assert check_decode_words(_shown(LESSON_05, "my_decode_words"), record=False).passed


# ---- finding 6: the token-build title counts "1 merge" -----------------------------------------------------------


def test_a_token_of_one_merge_is_titled_1_merge() -> None:
    builder = TokenBuilder(mergeable_ranks("cl100k_base"))
    one = builder.build(b"in")  # GPT-4's rank 258: 'i' + 'n', one merge (tiktoken holds both as single bytes)
    enc = load_encoding("cl100k_base")
    assert enc.encode_single_token(b"i") < 256 and enc.encode_single_token(b"n") < 256
    assert len(one.steps) == 1 and merges_text(one) == "1 merge"
    two = builder.build(b"ing")  # 'in' + 'g': two merges
    assert len(two.steps) == 2 and merges_text(two) == "2 merges"


# ---- finding 4: parents_of(None), (True), (3.5) name the type, not "write b'None'" -------------------------------


def _lesson_07_parents_of():
    """Lesson 07's parents_of, defined from its cell; the type checks come before any use of GPT-4's tables."""
    cell = next(c for c in nbformat.read(LESSON_07, as_version=4).cells if c.id == "02dd8d36")
    code = cell.source.split("\n", 1)[1].split("rows = []")[0]  # without `cl100k = our_tokenizer(...)` and the table
    namespace: dict = {}
    exec(code, namespace)
    return namespace["parents_of"]


@pytest.mark.parametrize(
    ("typed", "kind"), [(None, "NoneType"), (True, "bool"), (3.5, "float"), ([1], "list"), (list(range(100)), "list")]
)
def test_parents_of_a_value_of_another_type_names_its_type(typed, kind) -> None:
    with pytest.raises(TypeError) as raised:
        _lesson_07_parents_of()(typed)
    message = str(raised.value)
    assert f"is {kind}" in message and "b' hello'" in message and "write b" not in message, message
