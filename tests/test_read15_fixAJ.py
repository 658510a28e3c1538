"""Lesson 16's fifteenth fresh read (fixAJ): next_merge's hints for scores rounded to whole numbers (round, int,
math.floor, math.ceil) and for a loop over range(len(symbols)); the stopped-early hint names no limit the failing
input is too short to show; byte_fallback's hints for an upper-case x, a decimal byte, NFKC and a return inside the
loop; cell 2's prose on IsValidSentencePiece and its sources."""

from __future__ import annotations

import math
import re

import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from tests.lesson16_solutions import hint

# ---- finding 1: scores rounded to whole numbers -------------------------------------------------------------------


def compared_whole(whole):
    """The shown loop, each score passed through ``whole`` before the comparison (the best's too)."""

    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (
                best is None or whole(scores[piece]) > whole(scores[symbols[best] + symbols[best + 1]])
            ):
                best = i
        return best

    return next_merge


def kept_whole(whole):
    """The best score kept in a variable, both rounded: ``s = round(scores[piece])``; ``if s > best_score``."""

    def next_merge(symbols, scores):
        best, best_score = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores:
                score = whole(scores[piece])
                if best is None or score > best_score:
                    best, best_score = i, score
        return best

    return next_merge


WHOLE = {"round": round, "int": int, "math.floor": math.floor, "math.ceil": math.ceil}


@pytest.mark.parametrize("shape", [compared_whole, kept_whole])
@pytest.mark.parametrize("name", list(WHOLE))
def test_scores_rounded_to_whole_numbers_get_the_rounding_hint(name, shape, capsys):
    assert not check_next_merge(shape(WHOLE[name]), record=False).passed
    out = capsys.readouterr().out
    assert "not rounded" in out  # the case that fails: -1.4 and -1.2
    line = hint(out)
    assert "rounded" in line and "stopped before the end" not in line, line


def test_the_rounding_hint_names_floor_and_ceil(capsys):
    check_next_merge(compared_whole(math.floor), record=False)
    line = hint(capsys.readouterr().out)
    assert "math.floor" in line and "math.ceil" in line, line


def first_pairs_only(limit):
    """A loop capped at ``limit`` positions: the stopped-early hint may name the cap."""

    def next_merge(symbols, scores):
        best = None
        for i in range(min(len(symbols) - 1, limit)):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    return next_merge


def test_the_stopped_early_hint_never_names_a_limit_the_input_cannot_show(capsys):
    """A limit named must explain the failing answer: it stops before the expected position (on ['a', 'b', 'c'],
    whose winner is at 1, only a limit of 1 pair could), never "the first 53 to 65 pairs"."""
    named = 0
    for answer in [compared_whole(math.ceil), first_pairs_only(20), first_pairs_only(1)]:
        check_next_merge(answer, record=False)
        out = capsys.readouterr().out
        line = hint(out)
        limit = re.search(r"limited to the first (\d+)(?: to (\d+))? pairs", line)
        if limit is None:
            continue
        named += 1
        expected = int(re.search(r"expected:\s+(\d+)", out).group(1))
        assert int(limit.group(2) or limit.group(1)) <= expected, out
    assert named == 2  # the caps of 20 and 1 are still named
