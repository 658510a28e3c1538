"""The tenth fresh read of lessons 00, 02, 03 and 04 (fixQ): a wrong answer the lesson 03 checker accepted, hints
that named another bug, and two cells that broke when run out of order."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import nbformat
import pytest

from bpelab.corpora import read_corpus
from bpelab.exercises.pair_merging import check_merge_pair, check_merge_symbols
from bpelab.exercises.ties import check_most_frequent_pairs
from bpelab.exercises.word_frequencies import check_get_word_frequencies
from bpelab.words import END_OF_WORD, best_pair, count_pairs, get_word_frequencies, merge_pair
from tests.mutation.shown import NOTEBOOKS, SHOWN


def _hint(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.strip().startswith("hint:"))


def _shown(exercise: str) -> Any:
    """The lesson's shown solution of ``exercise``, built as its cell would build it."""
    shown = next(s for s in SHOWN if s.parts[0][1] == exercise)
    return shown.build(shown.source())[shown.parts[0][0]]


# ---- lesson 03, most_frequent_pairs: `count is top` -----------------------------------------------


def most_frequent_by_identity(pair_counts):
    """The reviewer's answer: `is` where `==` belongs, right only while the counts are small ints Python shares."""
    if not pair_counts:
        return []
    top = max(pair_counts.values())
    return [p for p, c in pair_counts.items() if c is top]


def test_the_tie_at_611_is_real_and_the_identity_answer_drops_one_of_it() -> None:
    """Step 22 of train_bpe(read_corpus('english_train'), 150): two pairs tie at 611; `is` keeps only the first."""
    word_freq = get_word_frequencies(read_corpus("english_train"))
    for _ in range(21):
        word_freq = merge_pair(word_freq, best_pair(count_pairs(word_freq)))
    counts = count_pairs(word_freq)
    assert max(counts.values()) == 611
    assert [p for p, c in counts.items() if c == 611] == [("f", END_OF_WORD), ("r", "e")]
    assert most_frequent_by_identity(counts) == [("f", END_OF_WORD)]


def test_comparing_counts_with_is_is_rejected_and_named(capsys) -> None:
    assert not check_most_frequent_pairs(most_frequent_by_identity, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "`is`" in hint and "==" in hint and "256" in hint, hint


def test_the_lessons_most_frequent_pairs_still_passes() -> None:
    assert check_most_frequent_pairs(_shown("most_frequent_pairs"), record=False).passed


# ---- lesson 04, merge_symbols and merge_pair: a padded string replace ----------------------------------


def padded_replace(symbols, pair):
    """The reviewer's answer: a string replace with a space on each side of the pair; two matches side by side share
    one space, so the second is missed."""
    padded = " " + " ".join(symbols) + " "
    return tuple(padded.replace(" " + " ".join(pair) + " ", " " + "".join(pair) + " ").split())


def padded_replace_corpus(word_freq, pair):
    merged: dict = {}
    for word, count in word_freq.items():
        new = padded_replace(word, pair)
        merged[new] = merged.get(new, 0) + count
    return merged


def first_only(symbols, pair):
    for i in range(len(symbols) - 1):
        if (symbols[i], symbols[i + 1]) == pair:
            return symbols[:i] + (pair[0] + pair[1],) + symbols[i + 2 :]
    return symbols


def first_only_corpus(word_freq, pair):
    merged: dict = {}
    for word, count in word_freq.items():
        new = first_only(word, pair)
        merged[new] = merged.get(new, 0) + count
    return merged


def test_the_padded_replace_merges_separate_matches_but_not_side_by_side_ones() -> None:
    assert padded_replace(("a", "b", "x", "a", "b", "</w>"), ("a", "b")) == ("ab", "x", "ab", "</w>")
    assert padded_replace(("a", "a", "a", "a", "</w>"), ("a", "a")) == ("aa", "a", "a", "</w>")


@pytest.mark.parametrize(
    ("checker", "answer"), [(check_merge_symbols, padded_replace), (check_merge_pair, padded_replace_corpus)]
)
def test_a_padded_replace_is_told_about_matches_side_by_side(checker, answer, capsys) -> None:
    assert not checker(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "side by side" in hint and "space" in hint and "first occurrence" not in hint, hint


@pytest.mark.parametrize(
    ("checker", "answer"), [(check_merge_symbols, first_only), (check_merge_pair, first_only_corpus)]
)
def test_merging_only_the_first_match_is_still_told_so(checker, answer, capsys) -> None:
    assert not checker(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "only the first occurrence" in hint, hint


@pytest.mark.parametrize("exercise", ["merge_symbols", "merge_pair"])
def test_the_lessons_merges_still_pass(exercise) -> None:
    checker = check_merge_symbols if exercise == "merge_symbols" else check_merge_pair
    assert checker(_shown(exercise), record=False).passed


# ---- lesson 02, get_word_frequencies: split at the space character only ------------------------------


def _counted(words):
    counts: dict = {}
    for word in words:
        key = (*word, END_OF_WORD)
        counts[key] = counts.get(key, 0) + 1
    return counts


def split_on_space_skipping_empties(text):
    return _counted(w for w in text.split(" ") if w)


def split_on_space(text):
    return _counted(text.split(" "))


def lines_then_spaces(text):
    return _counted(w for line in text.splitlines() for w in line.split(" ") if w)


@pytest.mark.parametrize("answer", [split_on_space_skipping_empties, split_on_space, lines_then_spaces])
def test_splitting_at_the_space_only_is_named_not_a_list_written_by_hand(answer, capsys) -> None:
    assert not check_get_word_frequencies(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "split(' ')" in hint and "by hand" not in hint and "text.split()" in hint, hint


def test_the_lessons_get_word_frequencies_still_passes() -> None:
    assert check_get_word_frequencies(_shown("get_word_frequencies"), record=False).passed


# ---- lessons 00 and 02: cells run out of order ---------------------------------------------------


def _run(notebook: str, cell_ids: list[str]) -> dict[str, Any]:
    """Run the code cells ``cell_ids`` of ``notebook``, in that order, in one fresh namespace (output silenced)."""
    cells = {cell.get("id"): cell for cell in nbformat.read(NOTEBOOKS / notebook, as_version=4).cells}
    namespace: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell_id in cell_ids:
            exec(compile(cells[cell_id].source, f"<{notebook} {cell_id}>", "exec"), namespace)
    return namespace


def test_lesson_00s_buggy_example_runs_without_the_warm_up_cell() -> None:
    """Cell 21 (the deliberately buggy count_characters) run right after the exercise cell, skipping cell 18."""
    _run("00_start_here.ipynb", ["ef3619ff", "83e3482d"])


@pytest.mark.slow
def test_lesson_02s_word_class_comparison_runs_twice() -> None:
    """Cell 28 (re's \\w against regex's) run twice after cell 26, which it reads."""
    first = nbformat.read(NOTEBOOKS / "02_from_text_to_symbols.ipynb", as_version=4).cells[1].get("id")
    _run("02_from_text_to_symbols.ipynb", [first, "d3f4a5b6", "e4a5b6c9", "e4a5b6c9"])
