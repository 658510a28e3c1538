"""Lesson 16's thirteenth fresh read (fixY): byte_fallback answers that spell a known piece as bytes when its
characters look unusual, next_merge hints that named the tie rule for a skipped '▁' pair, a format character that no
merge case joined, and the stepper's refusal of a lone surrogate at the wrong position."""

from __future__ import annotations

import pytest

from bpelab.exercises.sentencepiece import (
    BYTE_FALLBACK,
    byte_fallback,
    check_byte_fallback,
    check_next_merge,
    next_merge,
)
from bpelab.exercises.sentencepiece_states import MISTRAL_TEXTS, real_fallback_cases
from bpelab.sentencepiece import load_sentencepiece, require_sentencepiece
from tests.lesson16_solutions import hint, shown_solution

SPACE = "\u2581"


# ---- finding 1: a known piece spelled as bytes because of its characters ------------------------------------------


def kept_if_printable(pieces, vocab):
    out = []
    for piece in pieces:
        if piece in vocab and piece.isprintable():
            out.append(piece)
        else:
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def kept_unless_space(pieces, vocab):
    out = []
    for piece in pieces:
        if piece in vocab and not piece.isspace():
            out.append(piece)
        else:
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def kept_if_in_the_bmp(pieces, vocab):
    out = []
    for piece in pieces:
        if piece in vocab and all(ord(c) <= 0xFFFF for c in piece):
            out.append(piece)
        else:
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


@pytest.mark.parametrize(
    ("answer", "named"),
    [(kept_if_printable, "isprintable"), (kept_unless_space, "isspace"), (kept_if_in_the_bmp, "BMP")],
)
def test_a_known_piece_spelled_as_bytes_is_refused_with_its_hint(answer, named, capsys):
    assert not check_byte_fallback(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "kept whole, whatever its characters" in line and named in line, line


def test_the_real_cases_are_sentencepieces_own_encoding():
    """Each real case's expected pieces are what sentencepiece 0.2.3 shows for its text, and the reference agrees."""
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    cases = real_fallback_cases()
    assert len(cases) >= 5
    for text, case in cases:
        assert sp.encode_as_pieces(text) == case.expected, text
        assert byte_fallback(*case.args) == case.expected
    held = {p for _, case in cases for p in case.args[1]}
    for piece in ["\r", "\x0b", "\x0c", "\x1b", "\x7f", "\x1c", "\x1f", "\xa0", "\u3000", "\u200b", "\u200d", "😂"]:
        assert piece in held, repr(piece)


def test_the_shown_solution_still_passes():
    assert check_byte_fallback(shown_solution("a16e0c02", "byte_fallback"), record=False).passed


# ---- finding 2: the tiny vocabularies' notes say so -------------------------------------------------------------


def test_the_notes_of_tiny_vocabularies_say_mistral_holds_those_pieces():
    notes = [case.note for case in BYTE_FALLBACK.cases() if case.note]
    control = next(n for n in notes if n.startswith("control characters"))
    nbsp = next(n for n in notes if n.startswith("U+0085"))
    family = next(n for n in notes if n.startswith("a family emoji"))
    for note in (control, nbsp, family):
        assert "in this case's vocabulary" in note and "Mistral" in note, note


def test_the_ids_the_hints_and_notes_name_are_mistrals():
    mistral = load_sentencepiece("mistral_v1")
    for piece, piece_id in [("\r", 28801), ("\xa0", 29000), ("😂", 29196), ("\u200d", 29274)]:
        assert mistral.piece_to_id[piece] == piece_id
    for piece in ["\x0b", "\x0c", "\x1b", "\x7f", "\x1c", "\x1f", "\x85", "\u3000", "\u200b"]:
        assert piece in mistral.piece_to_id, repr(piece)
    assert "\t" not in mistral.piece_to_id
