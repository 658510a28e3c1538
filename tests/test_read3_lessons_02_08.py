"""A fresh read of lessons 02 and 08: wrong answers a learner writes that the checkers accepted or mis-hinted, and
check cells that failed with a bare NameError after a restart."""

from __future__ import annotations

import math
import re
from pathlib import Path

import nbformat
import pytest
import regex

from bpelab.analysis.compression import bytes_per_token as library_bytes_per_token
from bpelab.exercises.compression import SEARCH, check_bytes_per_token
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.word_frequencies import check_get_word_frequencies

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _report(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().out


# ---- lesson 02, split_words: circled letters listed by hand ---------------------------------------------------

CIRCLED_BY_HAND = r"[\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Join_Control}\u24B6-\u24E9\U0001F150-\U0001F169]"
"""A word class that lists the circled and negative circled letters by hand: it leaves out the other alphabetic
symbols, the squared letters (🄰, U+1F130–U+1F149) and negative squared ones (🅰, U+1F170–U+1F189)."""


def test_the_squared_letters_are_alphabetic_and_word_characters_for_regex():
    for ch in "🄰🅰":
        assert regex.fullmatch(r"\p{Alphabetic}", ch) and regex.fullmatch(r"\w", ch)
        assert not regex.fullmatch(CIRCLED_BY_HAND, ch)


def test_a_class_listing_the_circled_letters_by_hand_is_told_where_it_parts(capsys):
    negated = CIRCLED_BY_HAND.replace("[", "[^", 1)[:-1] + r"\s]"
    wrong = lambda text: regex.findall(f"{CIRCLED_BY_HAND}+|{negated}+", text)  # noqa: E731
    result = check_split_words(wrong, record=False)
    out = _report(capsys)
    assert not result, out
    assert "🄰" in out and "Alphabetic" in out, out


# ---- lesson 02, get_word_frequencies: zero-width characters taken for whitespace ------------------------------


@pytest.mark.parametrize(
    "pattern",
    [r"[\s\u200b\ufeff]+", r"[\s\u200b]+"],
    ids=["zero-width space and BOM", "zero-width space"],
)
def test_splitting_at_a_zero_width_space_is_rejected_and_named(capsys, pattern):
    def get_word_frequencies(text):
        counts = {}
        for word in re.split(pattern, text):
            if word:
                key = tuple(word) + ("</w>",)
                counts[key] = counts.get(key, 0) + 1
        return counts

    result = check_get_word_frequencies(get_word_frequencies, record=False)
    out = _report(capsys)
    assert not result, out
    assert "U+200B" in out.split("hint:", 1)[1] and "text.split()" in out.split("hint:", 1)[1], out


def test_str_split_keeps_a_zero_width_space_inside_a_word():
    """The reference's behaviour, from Python itself: U+200B and U+FEFF are not whitespace for str.split."""
    text = "a\u200bb c\ufeffd"
    assert text.split() == ["a\u200bb", "c\ufeffd"]
    assert not "\u200b".isspace() and not "\ufeff".isspace()


# ---- lesson 08, bytes_per_token: truncation to a whole number --------------------------------------------------


@pytest.mark.parametrize(
    "wrong, said, unsaid",
    [
        (lambda tok, text: int(len(text.encode("utf-8")) / len(tok.encode(text))), "int()", None),
        (lambda tok, text: math.floor(len(text.encode("utf-8")) / len(tok.encode(text))), "math.floor", None),
        (lambda tok, text: len(text.encode("utf-8")) // len(tok.encode(text)), "//", None),
        (lambda tok, text: math.ceil(len(text.encode("utf-8")) / len(tok.encode(text))), "math.ceil", "//"),
    ],
    ids=["int", "floor", "floor division", "ceil"],
)
def test_a_ratio_cut_to_a_whole_number_gets_a_hint_that_fits_what_was_written(capsys, wrong, said, unsaid):
    assert not check_bytes_per_token(wrong, record=False)
    hint = _report(capsys).split("hint:", 1)[1]
    assert said in hint, hint
    if unsaid:
        assert unsaid not in hint, hint


def test_the_ceiling_hint_says_it_rounds_up(capsys):
    check_bytes_per_token(lambda tok, text: math.ceil(len(text.encode("utf-8")) / len(tok.encode(text))), record=False)
    assert "up" in _report(capsys).split("hint:", 1)[1]


# ---- lesson 08, smallest_vocab_size: coarse searches, and a search that ignores its text -----------------------


def _coarse(next_size):  # type: ignore[no-untyped-def]
    """A search that measures only some sizes, from 256 on, and returns the first that reaches the goal."""

    def my_smallest_vocab_size(tokenizer, text, goal):
        largest, size = 256 + len(tokenizer.merges), 256
        while size < largest:
            if library_bytes_per_token(tokenizer.truncated(size), text) >= goal:
                return size
            size = next_size(size)
        return largest

    return my_smallest_vocab_size


TABLE_SIZES = [256, 300, 400, 512, 768, 1_000, 1_500, 2_000, 3_000, 4_000, 5_000, 6_000]


def _next_in_table(size: int) -> int:
    return next((s for s in TABLE_SIZES if s > size), 10**9)


@pytest.mark.parametrize(
    "search",
    [_coarse(lambda s: s + 100), _coarse(lambda s: s * 2), _coarse(_next_in_table)],
    ids=["steps of 100", "doublings", "the curve table's sizes"],
)
def test_a_search_that_tries_only_some_sizes_is_told_so(search):
    result = SEARCH.run(search, record=False)
    assert not result.passed
    hint = result.message.split("hint:", 1)[1]
    assert "does not use its own" not in hint, result.message
    assert "only some sizes" in hint and "every size" in hint, result.message
    got = result.message.split("got:", 1)[1].split()[0]
    assert got in hint, result.message  # the hint speaks of the answer the report shows


def test_a_search_that_measures_the_lessons_text_is_still_told_it_ignores_its_own():
    import bpelab

    held_out = bpelab.read_corpus("english_heldout")

    def my_smallest_vocab_size(tokenizer, text, goal):
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if library_bytes_per_token(tokenizer.truncated(middle), held_out) >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    result = SEARCH.run(my_smallest_vocab_size, record=False)
    assert not result.passed
    assert "it does not use its own `text`" in result.message, result.message


# ---- lesson 08's check cells after a restart ------------------------------------------------------------------


def _cell(notebook: str, cell_id: str) -> str:
    (cell,) = [c for c in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells if c.get("id") == cell_id]
    return str(cell.source)


@pytest.mark.parametrize(
    "check_cell, name, stub",
    [
        ("dd2ebb14", "bytes_per_token", "def bytes_per_token(tokenizer, text):\n    ...\n"),
        ("b6018214", "count_unused", "def count_unused(tokenizer, text):\n    ...\n"),
        ("90a31e01", "my_smallest_vocab_size", "def my_smallest_vocab_size(tokenizer, text, goal):\n    ...\n"),
    ],
)
def test_lesson_08_check_cells_run_after_a_restart_with_only_the_exercise_cell(capsys, check_cell, name, stub):
    """A fresh kernel, the exercise cell run, then its check: no NameError, a message that says what to run."""
    namespace: dict[str, object] = {}
    exec(compile(stub, "<exercise cell>", "exec"), namespace)
    exec(compile(_cell("08_compression_curves.ipynb", check_cell), "<check cell>", "exec"), namespace)
    out = _report(capsys)
    assert "not yet" in out or "english_bpe" in out, out


def test_lesson_08_search_check_without_english_bpe_says_which_cell_to_run(capsys):
    namespace: dict[str, object] = {}
    exec("def my_smallest_vocab_size(tokenizer, text, goal):\n    return 300\n", namespace)
    exec(compile(_cell("08_compression_curves.ipynb", "90a31e01"), "<check cell>", "exec"), namespace)
    out = _report(capsys)
    assert "english_bpe" in out and "section 2" in out, out
