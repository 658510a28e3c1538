"""Lesson 03's most_frequent_pairs checker: tied pairs at the top, first seen first."""

from __future__ import annotations

import pytest

from bpelab.exercises.ties import MOST_FREQUENT_PAIRS, check_most_frequent_pairs, most_frequent_pairs
from bpelab.words import best_pair, count_pairs, get_word_frequencies


def test_reference_on_hand_checked_examples():
    # low x5, lower x2, newest x3, widest x2: l+o and o+w both occur 5 + 2 = 7 times.
    classic = count_pairs(get_word_frequencies("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2))
    assert most_frequent_pairs(classic) == [("l", "o"), ("o", "w")]
    # step, pest, pets: s+t (step, pest) and p+e (pest, pets) both occur twice, s+t first.
    assert most_frequent_pairs(count_pairs(get_word_frequencies("step pest pets"))) == [("s", "t"), ("p", "e")]
    assert most_frequent_pairs({}) == []


@pytest.mark.parametrize("text", ["step pest pets", "low lower newest widest", "the cat sat on the mat", "abab baba"])
def test_the_tie_rules_pick_from_the_tied_pairs(text):
    """best_pair is an independent implementation of the same idea: its answers must be among the tied pairs."""
    pair_counts = count_pairs(get_word_frequencies(text))
    tied = most_frequent_pairs(pair_counts)
    assert tied[0] == best_pair(pair_counts, "first")
    assert min(tied) == best_pair(pair_counts, "lexicographic")


def test_a_correct_function_passes(capsys):
    def learner(pair_counts):
        best = max(pair_counts.values(), default=None)
        return [pair for pair in pair_counts if pair_counts[pair] == best]

    assert check_most_frequent_pairs(learner)
    total = len(MOST_FREQUENT_PAIRS.build_cases())
    assert f"✅ most_frequent_pairs: all {total} checks passed." in capsys.readouterr().out


def test_the_stub_is_not_yet(capsys):
    def most_frequent_pairs(pair_counts):
        # your code here
        ...

    assert check_most_frequent_pairs(most_frequent_pairs).status == "not yet"


def _top(pc):
    return max(pc.values())


def _no_empty_guard(pc):
    top = max(pc.values())  # raises on an empty dict
    return [p for p in pc if pc[p] == top]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (_no_empty_guard, "return [] when pair_counts is empty"),
        (lambda pc: max(pc, key=pc.get) if pc else [], "you returned one pair"),
        (lambda pc: _top(pc) if pc else 0, "you returned the highest count itself"),
        (lambda pc: {p: c for p, c in pc.items() if c == _top(pc)}, "without their counts"),
        # issue 9 item 26: (pair, count) items, as most_common() or items() give them
        (lambda pc: [(p, c) for p, c in pc.items() if c == _top(pc)] if pc else [], "without their counts"),
        (lambda pc: sorted(p for p in pc if pc[p] == _top(pc)), "the right pairs, but sorted"),
        (lambda pc: sorted(pc, key=pc.get, reverse=True), "keep only those whose count equals the highest"),
        (lambda pc: [p for p in pc if pc[p] == min(pc.values())], "use max, not min"),
    ],
)
def test_typical_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_most_frequent_pairs(wrong)
    report = capsys.readouterr().out
    assert not result
    assert hint in report, report
