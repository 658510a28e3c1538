"""Lesson 16's twenty-third fresh read (fixBV): a next_merge that skips whitespace-only pieces, the hint for None on
no pieces in byte_fallback, and what the -1e9 scores of Mistral's file show."""

from __future__ import annotations

import nbformat
import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from tests.lesson16_solutions import LESSON
from tests.lesson16_solutions import hint as _hint
from tests.lesson16_solutions import shown_solution as _shown_solution

# ---- finding 1: a pair whose piece is whitespace only, skipped ---------------------------------------------


def _search(skip):
    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece not in scores or skip(symbols[i], symbols[i + 1], piece):
                continue
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
        return best

    return next_merge


def stripped_empty(symbols, scores):
    """`if not piece.strip(): continue`."""
    return _search(lambda left, right, piece: not piece.strip())(symbols, scores)


def is_space(symbols, scores):
    """`if piece.isspace(): continue`."""
    return _search(lambda left, right, piece: piece.isspace())(symbols, scores)


def two_equal_spaces(symbols, scores):
    """`if symbols[i] == symbols[i + 1] and symbols[i].isspace(): continue`."""
    return _search(lambda left, right, piece: left == right and left.isspace())(symbols, scores)


def test_the_lesson_s_solutions_pass():
    assert check_next_merge(_shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert check_byte_fallback(_shown_solution("a16e0c02", "byte_fallback"), record=False).passed


@pytest.mark.parametrize("answer", [stripped_empty, is_space, two_equal_spaces])
def test_a_skipped_whitespace_piece_is_refused_and_named(answer, capsys):
    assert not check_next_merge(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "whitespace" in hint and "'\\r\\r'" in hint and "like any other" in hint, hint


# ---- finding 2: None for no pieces in byte_fallback ----------------------------------------------------------


def _fallback(piece):
    return [f"<0x{b:02X}>" for b in piece.encode("utf-8")]


def out_or_none(pieces, vocab):
    out = []
    for piece in pieces:
        out += [piece] if piece in vocab else _fallback(piece)
    return out or None


def none_first(pieces, vocab):
    if not pieces:
        return None
    out = []
    for piece in pieces:
        out += [piece] if piece in vocab else _fallback(piece)
    return out


@pytest.mark.parametrize("answer", [out_or_none, none_first])
def test_none_for_no_pieces_is_told_an_empty_list(answer, capsys):
    assert not check_byte_fallback(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "no pieces" in hint and "[]" in hint and "not None" in hint, hint
    assert "some path" not in hint and "for a piece not in vocab" not in hint, hint


# ---- finding 3: the -1e9 scores show the file was not written by the public trainer as released -----------


def _markdown() -> str:
    notebook = nbformat.read(LESSON, as_version=4)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def test_the_lesson_says_what_the_evidence_shows_and_no_more():
    text = " ".join(_markdown().split())
    assert "re-scored after training" not in text
    assert "a model edited after training" not in text
    assert "did not come from the public trainer as released" in text
    assert "or made by another trainer" in text
