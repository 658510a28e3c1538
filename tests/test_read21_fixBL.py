"""Read 21 of lesson 16 (fixBL): byte_fallback's checker gets a long real case (lesson 09's Amharic story through
Mistral 7B v0.1), so that an answer cut after some first pieces or items, or a recursive one, is refused with a hint
that names it; and the prose that said "no cut" and "-1,000,000,000" without scope or source is scoped and sourced."""

from __future__ import annotations

import sys

import nbformat

from bpelab.exercises.sentencepiece import BYTE_FALLBACK, byte_fallback, check_byte_fallback
from tests.lesson16_solutions import LESSON, hint, shown_solution


def first_eight(pieces, vocab):
    out = []
    for piece in pieces[:8]:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def first_ten(pieces, vocab):
    out = []
    for piece in pieces[:10]:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def stops_at_32(pieces, vocab):
    out = []
    for piece in pieces:
        if len(out) >= 32:
            break
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def recursive(pieces, vocab):
    if not pieces:
        return []
    piece = pieces[0]
    head = [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return head + recursive(pieces[1:], vocab)


def test_the_long_case_is_last_and_long():
    cases = BYTE_FALLBACK.build_cases()
    pieces, vocab = cases[-1].args
    assert len(cases) == 46
    assert len(pieces) >= 1_500
    unknown = [i for i, p in enumerate(pieces) if p not in vocab]
    assert unknown[0] < 10 and unknown[-1] > len(pieces) - 10  # fallback along the whole length
    assert byte_fallback(pieces, vocab) == cases[-1].expected


def test_the_shown_solution_passes(capsys):
    assert check_byte_fallback(shown_solution("a16e0c02", "byte_fallback"), record=False).passed


def test_a_cut_after_some_first_pieces_is_refused_and_named(capsys):
    for wrong in (first_eight, first_ten):
        assert not check_byte_fallback(wrong, record=False).passed
        line = hint(capsys.readouterr().out)
        assert "only the first" in line and "pieces" in line, line


def test_a_stop_after_32_items_is_refused_and_named(capsys):
    assert not check_byte_fallback(stops_at_32, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "only the first" in line, line


def test_a_recursive_answer_is_refused_with_the_depth(capsys):
    assert sys.getrecursionlimit() < 2_000
    assert not check_byte_fallback(recursive, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "RecursionError" in line and "calls itself once for each piece" in line, line


def _cell(index: int) -> str:
    return nbformat.read(LESSON, as_version=4).cells[index].source


def test_no_cut_is_scoped_to_words_and_user_defined_pieces():
    row = next(line for line in _cell(2).splitlines() if line.startswith("| before merging"))
    assert "no cut into words" in row and "user-defined pieces" in row and "v3" in row, row
    first = _cell(60).split("\n- ")[1]
    assert "no cut into words" in first and "user-defined pieces" in first and "v3" in first, first


def test_the_minus_a_billion_scores_are_sourced():
    text = _cell(21)
    assert "lines 444–446" in text and "did not come from the public trainer as released" in text  # read 23
    assert "their ids:" in _cell(20)
    assert "only a hand-edited model" not in text
    assert "is not what the public trainer as released writes: section 2" in _cell(2)
