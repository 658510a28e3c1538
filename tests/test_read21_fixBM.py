"""Read 21 of lessons 00-04 (fixBM): the findings fixed, each held by a test."""

from __future__ import annotations

from bpelab.exercises import check_merge_pair
from tests.shown_solutions import shown_solution

# ---- finding 1: merge_pair returns word_freq itself when no word contains the pair ----------------------------------


def _merge_symbols():
    return shown_solution("04", "cell-12", "my_merge_symbols")


def test_merge_pair_returning_its_input_when_nothing_changes_fails():
    merge_symbols = _merge_symbols()

    def my_merge_pair(word_freq, pair):
        if not any(pair in zip(word, word[1:]) for word in word_freq):
            return word_freq  # nothing to merge: hand back the table as it is
        new = {}
        for word, count in word_freq.items():
            merged = merge_symbols(word, pair)
            new[merged] = new.get(merged, 0) + count
        return new

    result = check_merge_pair(my_merge_pair, record=False)
    assert not result.passed
    assert "word_freq itself" in result.message
    assert "new dict even when" in result.message


def test_merge_pair_shown_solution_still_passes():
    merge_symbols = _merge_symbols()
    fn = shown_solution("04", "cell-18", "my_merge_pair", merge_symbols=merge_symbols)
    assert check_merge_pair(fn, record=False).passed
