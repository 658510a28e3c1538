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


# ---- finding 3: a skipped '▁' pair named, not the tie rule ---------------------------------------------------


def prefix_pair_skipped(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        if i == 0 and symbols[0] == SPACE:
            continue
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def space_never_joins_a_longer_symbol(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        if symbols[i] == SPACE and len(symbols[i + 1]) > 1:
            continue
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        (prefix_pair_skipped, "skips the first pair when it starts with a lone '▁'"),
        (space_never_joins_a_longer_symbol, "never joins a lone '▁' to a symbol of more than one character"),
    ],
)
def test_a_skipped_space_pair_is_named_not_the_tie_rule(answer, named, capsys):
    assert not check_next_merge(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert named in line and "the tie rule is not at fault" in line, line


def rightmost_of_ties(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] >= scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_a_tie_broken_rightmost_keeps_the_tie_hint(capsys):
    assert not check_next_merge(rightmost_of_ties, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "leftmost" in line and "not at fault" not in line, line


# ---- finding 4: a format character in a winning pair -------------------------------------------------------------


def never_joins_a_format_character(symbols, scores):
    import unicodedata

    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if any(unicodedata.category(c) == "Cf" for c in piece):
            continue
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_mistral_merges_a_format_character_in_some_state():
    import unicodedata

    from bpelab.exercises.sentencepiece_states import real_encoding_cases

    text = next(t for t in MISTRAL_TEXTS if "\u200b" in t)
    mistral = load_sentencepiece("mistral_v1")
    assert f"{SPACE}\u200b" in mistral.encode_as_pieces(text)
    assert mistral.piece_to_id[f"{SPACE}\u200b"] == 15758
    winners = [
        case.args[0][case.expected] + case.args[0][case.expected + 1]
        for case in real_encoding_cases()
        if case.expected is not None
    ]
    assert any(unicodedata.category(c) == "Cf" for piece in winners for c in piece)


def test_never_joining_a_format_character_is_refused_with_its_hint(capsys):
    assert not check_next_merge(never_joins_a_format_character, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "format character (category Cf" in line and "15758" in line, line


def test_the_shown_next_merge_still_passes():
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert next_merge([SPACE, SPACE, SPACE], {SPACE * 2: -1e9}) == 0


# ---- finding 7: a lone surrogate refused at its position in the learner's text -------------------------------


@pytest.mark.parametrize(("text", "at"), [("a\ud800b", 1), ("\udc00", 0), ("The robot \ud83e sat", 10)])
def test_the_stepper_names_a_lone_surrogates_position_in_the_text(text, at):
    from bpelab.analysis.sentencepiece_replay import replay_sentencepiece

    with pytest.raises(ValueError, match=f"at position {at}, a lone surrogate"):
        replay_sentencepiece(load_sentencepiece("mistral_v1"), text)
