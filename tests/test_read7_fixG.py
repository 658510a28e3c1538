"""Lesson 16's seventh fresh read (fixG): wrong answers its checkers accepted, and hints that named another bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from tests.lesson16_solutions import hint as _hint
from tests.lesson16_solutions import shown_solution as _shown_solution


def each_piece_once(pieces, vocab):
    """The reviewer's first answer: a loop over dict.fromkeys(pieces), so a piece that comes again is skipped."""
    out = []
    for piece in dict.fromkeys(pieces):
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def bytes_spelled_once(pieces, vocab):
    """The reviewer's second answer: an unknown piece's bytes written the first time only (a local `seen` set)."""
    out, seen = [], set()
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
        elif piece not in seen:
            seen.add(piece)
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


@pytest.mark.parametrize("answer", [each_piece_once, bytes_spelled_once])
def test_a_piece_that_comes_again_is_written_again(answer, capsys):
    assert not check_byte_fallback(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "comes again" in hint and "every time" in hint, hint


def test_the_lesson_s_byte_fallback_passes():
    assert check_byte_fallback(_shown_solution("a16e0c02", "byte_fallback"), record=False).passed


def test_an_output_list_carried_over_from_call_to_call_is_named(capsys):
    def byte_fallback(pieces, vocab, out=[]):  # noqa: B006 - the mistake under test
        for piece in pieces:
            out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    assert not check_byte_fallback(byte_fallback, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "out=[]" in hint and "ONCE" in hint, hint


def best_score_from_minus_infinity(symbols, scores):
    """The start several hints recommended: a best score of float('-inf'), replaced on a strictly higher score."""
    best, best_score = None, float("-inf")
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > best_score:
            best, best_score = i, scores[piece]
    return best


def test_a_piece_scoring_minus_infinity_still_merges_and_the_minus_infinity_start_is_named(capsys):
    """sentencepiece 0.2.3 and the course's SentencePieceBPE merge a piece scored -inf (a hand-edited model): the
    reference returns 0 for (['a', 'b'], {'ab': -inf}); a best score that starts at -inf never takes it."""
    assert check_next_merge(_shown_solution("a16e0c01", "next_merge"), record=False).passed
    capsys.readouterr()
    assert not check_next_merge(best_score_from_minus_infinity, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "float('-inf')" in hint and "best is None" in hint and "still merges" in hint, hint


def test_no_hint_recommends_starting_from_minus_infinity():
    source = Path(check_next_merge.__code__.co_filename).read_text(encoding="utf-8")
    assert "or from float('-inf')" not in source
    assert "start from None or float('-inf')" not in source
    assert "or a default of float('-inf')" not in source
