"""Lesson 16's tenth fresh read (fixP): next_merge answers that filter pieces by their score, named as another bug."""

from __future__ import annotations

import math

import pytest

from bpelab.exercises.sentencepiece import check_next_merge, next_merge
from tests.test_read8_fixL import _hint, _shown_solution  # the lesson's shown solutions, read as read 8 reads them

# ---- finding 1: a filter on the score, on top of `piece in scores` --------------------------------------------


def at_most_zero(symbols, scores):
    """The reviewer's first answer: merged pieces score 0 or less, so only those are kept (`<= 0`)."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] <= 0:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def below_zero(symbols, scores):
    """The reviewer's second answer: only negative scores kept (`< 0`), which -0.0 and 0.0 fail."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] < 0:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def finite_only(symbols, scores):
    """The reviewer's third answer: a score that is not finite (an -inf of a hand-edited model) left out."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        score = scores.get(piece)
        if score is not None and math.isfinite(score):
            if best is None or score > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def above_minus_infinity(symbols, scores):
    """The same filter written as a comparison: `scores[piece] > -math.inf`."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > -math.inf:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def test_the_reference_merges_pieces_of_any_score():
    """Hand-checked: 3 beats 1, -0.0 beats -1, and an -inf piece merges when it is the only one."""
    assert next_merge(["a", "b", "c"], {"ab": 3.0, "bc": 1.0}) == 0
    assert next_merge(["a", "b", "c"], {"ab": -0.0, "bc": -1.0}) == 0
    assert next_merge(["x", "a", "b"], {"ab": -math.inf}) == 1


def test_the_shown_solution_still_passes():
    assert check_next_merge(_shown_solution("a16e0c01", "next_merge"), record=False).passed


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (at_most_zero, ["above 0", "<= 0", "piece in scores"]),
        (below_zero, ["0 or more", "< 0", "-0.0", "piece in scores"]),
        (finite_only, ["not finite", "math.isfinite", "-inf", "piece in scores"]),
        (above_minus_infinity, ["-inf", "piece in scores"]),
    ],
)
def test_a_filter_on_the_score_is_rejected_and_named(answer, words, capsys):
    assert not check_next_merge(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert all(word in hint for word in words), hint
    assert "starts at" not in hint, hint  # these answers start from the first piece found, not from a number
