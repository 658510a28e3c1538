"""Lesson 16's eighth fresh read (fixL): wrong answers its checkers accepted, and hints that named another bug."""

from __future__ import annotations

import itertools

import nbformat
import numpy as np
import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge, next_merge
from tests.lesson16_solutions import LESSON
from tests.lesson16_solutions import hint as _hint
from tests.lesson16_solutions import shown_solution as _shown_solution

SPACE = "\u2581"
MINUS_INF = float("-inf")


def test_the_lesson_s_solutions_pass():
    assert check_next_merge(_shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert check_byte_fallback(_shown_solution("a16e0c02", "byte_fallback"), record=False).passed


# ---- finding 1: a max whose key gives a missing piece float('-inf') ----------------------------------------


def max_then_membership(symbols, scores):
    """The reviewer's first answer: the max with a default of -inf, then None when that pair is no piece."""
    if len(symbols) < 2:
        return None
    i = max(range(len(symbols) - 1), key=lambda i: scores.get(symbols[i] + symbols[i + 1], MINUS_INF))
    return i if symbols[i] + symbols[i + 1] in scores else None


def any_guard_then_max(symbols, scores):
    """The reviewer's second answer: None when no pair is a piece, else the max with a default of -inf."""
    if not any(a + b in scores for a, b in zip(symbols, symbols[1:])):
        return None
    return max(range(len(symbols) - 1), key=lambda i: scores.get(symbols[i] + symbols[i + 1], MINUS_INF))


def argmax_with_guard(symbols, scores):
    """The reviewer's third answer: np.argmax over the same scores."""
    if not any(a + b in scores for a, b in zip(symbols, symbols[1:])):
        return None
    return int(np.argmax([scores.get(a + b, MINUS_INF) for a, b in zip(symbols, symbols[1:])]))


def test_the_reference_merges_a_minus_infinity_piece_right_of_a_non_piece():
    """Hand-checked: 'xa' is no piece, 'ab' is one (scoring -inf), so the merge is at 1."""
    assert next_merge(["x", "a", "b"], {"ab": MINUS_INF}) == 1


@pytest.mark.parametrize("answer", [max_then_membership, any_guard_then_max, argmax_with_guard])
def test_a_default_of_minus_infinity_is_rejected_and_named(answer, capsys):
    assert not check_next_merge(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "float('-inf')" in hint and "ties" in hint and "piece in scores" in hint, hint


# ---- finding 2: the piece's text found with str.find ----------------------------------------------------------


def found_with_str_find(symbols, scores):
    """The right piece, located by "".join(symbols).find(piece) and that character offset turned into a symbol."""
    found = [symbols[i] + symbols[i + 1] for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores]
    if not found:
        return None
    best = found[0]
    for piece in found:
        if scores[piece] > scores[best]:
            best = piece
    offset = "".join(symbols).find(best)
    start = 0
    for k, symbol in enumerate(symbols):
        if start + len(symbol) > offset:
            return k
        start += len(symbol)
    return None


def test_the_first_place_of_the_piece_s_text_is_rejected_and_named(capsys):
    assert next_merge(["ab", "c", "a", "b"], {"ab": -1.0}) == 2
    assert not check_next_merge(found_with_str_find, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "find" in hint and "PAIR" in hint, hint


# ---- finding 3: a piece that comes twice in a row -----------------------------------------------------------


def _right(pieces, vocab):
    out = []
    for piece in pieces:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def grouped_pieces(pieces, vocab):
    """The reviewer's first answer: `for piece, _ in itertools.groupby(pieces)`."""
    return _right([piece for piece, _ in itertools.groupby(pieces)], vocab)


def unknown_after_itself_skipped(pieces, vocab):
    """The reviewer's second answer: an unknown piece equal to the one before it is skipped."""
    out, previous = [], None
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
        elif piece != previous:
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        previous = piece
    return out


def output_repeat_dropped(pieces, vocab):
    """The reviewer's third answer: an output item equal to the one before it is dropped."""
    out: list = []
    for item in _right(pieces, vocab):
        if not out or out[-1] != item:
            out.append(item)
    return out


@pytest.mark.parametrize("answer", [grouped_pieces, unknown_after_itself_skipped, output_repeat_dropped])
def test_a_piece_twice_in_a_row_is_written_twice(answer, capsys):
    assert not check_byte_fallback(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "twice in a row" in hint and "every time" in hint, hint


# ---- finding 4: ids instead of pieces ---------------------------------------------------------------------------


def ids_of_bytes(pieces, vocab):
    """Each byte as its id in the lesson's model (byte + 3), the known pieces as they are."""
    out: list = []
    for piece in pieces:
        out += [piece] if piece in vocab else [b + 3 for b in piece.encode("utf-8")]
    return out


def test_ids_are_named_as_ids(capsys):
    assert not check_byte_fallback(ids_of_bytes, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "byte + 3" in hint and "'<0xC3>'" in hint and "'<0xC6>'" not in hint, hint


# ---- finding 5: the position as a str ---------------------------------------------------------------------------


def test_a_position_as_a_str_is_named_by_its_type(capsys):
    def as_text(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return None if best is None else str(best)

    assert not check_next_merge(as_text, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "str" in hint and "str(i)" in hint and "not the pair or piece" not in hint, hint


# ---- finding 6: cells that failed when the cell before was skipped ---------------------------------------------


@pytest.mark.parametrize(
    ("cell_id", "name", "given"),
    [("a16e001ed", "rules", {}), ("a16e0027", "language_names", {"SentencePieceBPE": object})],
)
def test_a_cell_says_what_to_run_when_the_cell_before_was_skipped(cell_id, name, given, capsys):
    """Cell 40 ran a whole SentencePieceTrainer training before a NameError on `rules`; cell 51 raised NameError on
    `language_names`: each now checks first and says which cell to run."""
    cell = next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id)
    namespace: dict[str, object] = dict(given)
    exec(cell.source, namespace)  # no NameError, and nothing long run
    assert f"{name} is not defined yet" in capsys.readouterr().out
