"""Lesson 16's twelfth fresh read, second pass (fixX): two wrong tie rules in next_merge passed every check.

Rule A breaks a tie between pieces by where the piece's text first appears in the joined text; rule B by where the
pair's left symbol first appears in the list. Both agree with the reference unless a later tied pair's text (or its
left symbol) also stands earlier. The reviewer's two cases are hand-checked below."""

from __future__ import annotations

import pytest

from bpelab.exercises.sentencepiece import check_next_merge, next_merge
from tests.lesson16_solutions import hint, shown_solution

SPACE = "\u2581"


def tie_by_text_position(symbols, scores):
    """Rule A: among the best-scoring pairs, the one whose piece's text stands first in the joined text."""
    text = "".join(symbols)
    best, best_key = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores:
            key = (-scores[piece], text.index(piece))
            if best_key is None or key < best_key:
                best, best_key = i, key
    return best


def tie_by_left_symbol(symbols, scores):
    """Rule B: among the best-scoring pairs, the one whose left symbol stands first in the list."""
    best, best_key = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores:
            key = (-scores[piece], symbols.index(symbols[i]))
            if best_key is None or key < best_key:
                best, best_key = i, key
    return best


def test_the_reviewers_cases_by_hand():
    """'▁th'+'e' is no piece; 'e'+'▁' = 'e▁' (-1) at 1 and '▁'+'t' = '▁t' (-1) at 2 tie: the leftmost pair, 1.
    Rule A finds the text '▁t' at character 0 (inside '▁th'), before 'e▁' at character 3, so it returns 2."""
    a = ([SPACE + "th", "e", SPACE, "t", "h"], {SPACE + "t": -1.0, "e" + SPACE: -1.0})
    assert next_merge(*a) == 1
    assert tie_by_text_position(*a) == 2
    b = (["a", "x", "b", "a", "c"], {"xb": -1.0, "ac": -1.0})  # 'xb' at 1, 'ac' at 3, tied: 1
    assert next_merge(*b) == 1
    assert tie_by_left_symbol(*b) == 3  # 'a' of 'ac' first stands at 0, before 'x' at 1


def test_tie_by_text_position_fails(capsys):
    assert not check_next_merge(tie_by_text_position, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "TEXT stands first" in line and "leftmost" in line, line


def test_tie_by_left_symbol_fails(capsys):
    assert not check_next_merge(tie_by_left_symbol, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "left symbol stands first" in line and "leftmost" in line, line


def test_the_shown_solution_still_passes():
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed


# ---- finding 3: a threshold written as an expression or a named constant -----------------------------------------

LOW = -1e9 - 1


def threshold_expression(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > -1e9 - 1:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def threshold_module_constant(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > LOW:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def threshold_local_constant(symbols, scores):
    low = -1e9 - 1
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > low:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def threshold_default(symbols, scores, floor=-1e9 - 1):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > floor:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def best_starting_at_an_expression(symbols, scores):
    """Still a best score that starts at a number: its hint must stay."""
    best, best_score = None, -1e9 - 1
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > best_score:
            best, best_score = i, scores[piece]
    return best


@pytest.mark.parametrize(
    "answer", [threshold_expression, threshold_module_constant, threshold_local_constant, threshold_default]
)
def test_a_threshold_however_written_gets_the_threshold_hint(answer, capsys):
    assert not check_next_merge(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "you leave out pieces that score" in line, line
    assert "starts at" not in line, line


def test_a_best_score_starting_at_an_expression_keeps_its_hint(capsys):
    assert not check_next_merge(best_starting_at_an_expression, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "starts at" in line, line
