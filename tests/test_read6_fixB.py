"""Lesson 16's sixth fresh read: two ``next_merge`` hints that named another bug.

A tie broken by the piece's text (``max`` over tuples ``(score, piece)``) was told it came from a set's hash order,
which changes from run to run; it does not: it fails the same way in every run, set or list. Scores compared as
float32 were told they were compared within a tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

from bpelab.exercises.sentencepiece import check_next_merge


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _first_place(symbols, piece):
    return next(i for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b == piece)


def max_over_a_set(symbols, scores):
    """The reviewer's answer: the best (score, piece) of a set, then that piece's first place."""
    found = {(scores[a + b], a + b) for a, b in zip(symbols, symbols[1:]) if a + b in scores}
    return _first_place(symbols, max(found)[1]) if found else None


def max_over_a_list(symbols, scores):
    found = [(scores[a + b], a + b) for a, b in zip(symbols, symbols[1:]) if a + b in scores]
    return _first_place(symbols, max(found)[1]) if found else None


def min_over_a_set(symbols, scores):
    """min over (-score, piece): of equal scores, the piece first in alphabetical order."""
    found = {(-scores[a + b], a + b) for a, b in zip(symbols, symbols[1:]) if a + b in scores}
    return _first_place(symbols, min(found)[1]) if found else None


def sorted_list_reversed(symbols, scores):
    found = sorted(((scores[a + b], a + b) for a, b in zip(symbols, symbols[1:]) if a + b in scores), reverse=True)
    return _first_place(symbols, found[0][1]) if found else None


@pytest.mark.parametrize("answer", [max_over_a_set, max_over_a_list, min_over_a_set, sorted_list_reversed])
def test_a_tie_broken_by_the_piece_text_is_named_and_not_blamed_on_a_set(answer, capsys):
    assert not check_next_merge(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "PYTHONHASHSEED" not in hint, hint
    assert "as text" in hint and "leftmost" in hint, hint


def test_scores_compared_as_float32_are_named(capsys):
    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (
                best is None or np.float32(scores[piece]) > np.float32(scores[symbols[best] + symbols[best + 1]])
            ):
                best = i
        return best

    with np.errstate(over="ignore"):
        assert not check_next_merge(next_merge, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "float32" in hint and "tolerance" not in hint, hint
