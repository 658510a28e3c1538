"""Review 17 of lessons 08, 11 and 12 (fixAU): each test was seen failing before its fix."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.compression import check_bytes_per_token, check_count_unused, check_smallest_vocab_size
from bpelab.exercises.samples import PARAGRAPH, made_up_words
from tests.shown_solutions import shown_solution

bytes_per_token = shown_solution("08", "685f61b7", "bytes_per_token")


def _hint(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   hint:"))


def _small_english_bpe() -> BPETokenizer:
    return BPETokenizer().train(PARAGRAPH + made_up_words(), 382, pattern="cl100k")


# ---- finding 1: a bytes_per_token returning the exact Fraction passes exercise 1, so exercise 3 accepts it ----------


def fraction_bytes_per_token(tokenizer, text):
    ids = tokenizer.encode(text)
    return Fraction(len(text.encode("utf-8")), len(ids))


def test_a_fraction_bytes_per_token_passes_exercise_1(capsys):
    assert check_bytes_per_token(fraction_bytes_per_token, record=False).passed, capsys.readouterr().out


def test_the_lesson_s_search_with_a_fraction_bytes_per_token_passes_exercise_3(capsys):
    search = shown_solution("08", "b1601561", "my_smallest_vocab_size", bytes_per_token=fraction_bytes_per_token)
    result = check_smallest_vocab_size(
        search, _small_english_bpe(), PARAGRAPH, production="cl100k_base", within=0.6, record=False
    )
    out = capsys.readouterr().out
    assert result.passed, out
    assert "Fix exercise 1" not in out


def test_a_fraction_helper_is_not_blamed_when_the_search_is_wrong(capsys):
    namespace = {"bytes_per_token": fraction_bytes_per_token}
    exec(
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if bytes_per_token(tokenizer.truncated(middle), text) >= goal - 1e-6:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    result = check_smallest_vocab_size(
        namespace["my_smallest_vocab_size"], _small_english_bpe(), PARAGRAPH, within=0.6, record=False
    )
    out = capsys.readouterr().out
    assert not result.passed
    assert "Fix exercise 1" not in out and "no margin" in _hint(out), out


# ---- finding 4: any margin, however small, is refused ----------------------------------------------------------------


@pytest.mark.parametrize("margin", ["1e-14", "1e-15"])
def test_a_tiny_margin_is_refused(margin, capsys):
    namespace = {"bytes_per_token": bytes_per_token}
    exec(
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        f"        if bytes_per_token(tokenizer.truncated(middle), text) >= goal - {margin}:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    result = check_smallest_vocab_size(
        namespace["my_smallest_vocab_size"], _small_english_bpe(), PARAGRAPH, within=0.6, record=False
    )
    out = capsys.readouterr().out
    assert not result.passed, out
    assert "no rounding and no margin" in _hint(out), out


# ---- finding 2: a text cleaned before it is measured or encoded is refused, and the hint names the cleaning ---------


def _lines(change):
    return lambda text: "\n".join(change(line) for line in text.split("\n"))


CLEANED = {
    "crlf": (lambda t: t.replace("\r\n", "\n"), "\\r\\n"),
    "expandtabs": (lambda t: t.expandtabs(4), "expandtabs"),
    "zwj": (lambda t: t.replace("\u200d", ""), "U+200D"),
    "bom": (lambda t: t.replace("\ufeff", ""), "U+FEFF"),
    "rstrip each line": (_lines(str.rstrip), "each line"),
    "strip each line": (_lines(str.strip), "each line"),
}


@pytest.mark.parametrize("name", list(CLEANED))
def test_bytes_per_token_of_a_cleaned_text_is_refused(name, capsys):
    clean, named = CLEANED[name]

    def cleaned_bytes_per_token(tokenizer, text):
        text = clean(text)
        return len(text.encode("utf-8")) / len(tokenizer.encode(text))

    result = check_bytes_per_token(cleaned_bytes_per_token, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert named in _hint(out) and "as it is" in _hint(out), out


@pytest.mark.parametrize("name", ["crlf", "zwj", "bom", "rstrip each line", "strip each line", "expandtabs"])
def test_count_unused_of_a_cleaned_text_is_refused(name, capsys):
    clean, named = CLEANED[name]

    def cleaned_count_unused(tokenizer, text):
        return len(set(tokenizer.vocab) - set(tokenizer.encode(clean(text))))

    result = check_count_unused(cleaned_count_unused, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert named in _hint(out) and "as it is" in _hint(out), out


# ---- finding 3: empty text raises, as the library does; a number for it is refused ---------------------------------


def test_a_bytes_per_token_returning_0_for_empty_text_is_refused(capsys):
    def guarded(tokenizer, text):
        ids = tokenizer.encode(text)
        return len(text.encode("utf-8")) / len(ids) if ids else 0.0

    result = check_bytes_per_token(guarded, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert "empty" in _hint(out) and "raise" in _hint(out), out


def test_the_shown_solution_and_the_library_raise_for_empty_text():
    from bpelab.analysis.compression import bytes_per_token as library

    for fn in (bytes_per_token, library):
        with pytest.raises((ValueError, ZeroDivisionError)):
            fn(BPETokenizer(), "")


# ---- finding 6: lesson 12's check cells import their checker and say when the function is not defined yet ---------


@pytest.mark.parametrize(
    ("cell_id", "checker", "name"),
    [
        ("682405aa", "check_pair_count_changes", "pair_count_changes"),
        ("5fa44982", "check_merge_lowest_rank", "merge_lowest_rank"),
    ],
)
def test_lesson_12_check_cells_run_alone(cell_id, checker, name, capsys):
    import nbformat

    from tests.shown_solutions import lesson_path

    cell = next(c for c in nbformat.read(lesson_path("12"), as_version=4).cells if c.id == cell_id)
    exec(cell.source, {})  # a fresh kernel: nothing defined before this cell
    out = capsys.readouterr().out
    assert f"{name} is not defined yet: run the exercise cell above (def {name} ...) first, then this one." in out
    assert f"from bpelab.exercises.speed import {checker}" in cell.source
