"""Lesson 16's checkers against realistic wrong answers found by a fresh read: each is rejected, and its hint names
the mistake it made (not a neighbouring one, such as a tolerance for an ``abs``)."""

from __future__ import annotations

import unicodedata

import pytest
import sentencepiece as spm

from bpelab.exercises.sentencepiece import BYTE_FALLBACK, byte_fallback, check_byte_fallback, check_next_merge
from bpelab.sentencepiece import load_sentencepiece
from bpelab.vocab_files import require_sentencepiece


def hint_of(capsys) -> str:
    printed = capsys.readouterr().out
    return next((line for line in printed.splitlines() if "hint:" in line or "problem:" in line), printed)


# ---- next_merge ---------------------------------------------------------------------------------------------


def nearest_zero(symbols, scores):
    """``min(..., key=abs)``: right while every score is negative."""
    found = [i for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores]
    return min(found, key=lambda i: abs(scores[symbols[i] + symbols[i + 1]])) if found else None


def farthest_from_zero(symbols, scores):
    found = [i for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores]
    return max(found, key=lambda i: abs(scores[symbols[i] + symbols[i + 1]])) if found else None


def last_place_of_each_piece(symbols, scores):
    where = {}
    for i in range(len(symbols) - 1):
        if symbols[i] + symbols[i + 1] in scores:
            where[symbols[i] + symbols[i + 1]] = i
    return where[max(where, key=lambda p: scores[p])] if where else None


def vocabulary_order(symbols, scores):
    joined = [a + b for a, b in zip(symbols, symbols[1:])]
    for piece in sorted(scores, key=scores.get, reverse=True):
        if piece in joined:
            return joined.index(piece)
    return None


def one_short(symbols, scores):
    best = None
    for i in range(len(symbols) - 2):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def right_symbol(symbols, scores):
    best, top = None, None
    for i in range(1, len(symbols)):
        piece = symbols[i - 1] + symbols[i]
        if piece in scores and (best is None or scores[piece] > top):
            best, top = i, scores[piece]
    return best


def two_symbols_are_no_pair(symbols, scores):
    if len(symbols) <= 2:
        return None
    best, top = None, float("-inf")
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > top:
            best, top = i, scores[piece]
    return best


def the_example_only(symbols, scores):
    return 1


def default_score(symbols, scores):
    if len(symbols) < 2:
        return None
    return max(range(len(symbols) - 1), key=lambda i: (scores.get(symbols[i] + symbols[i + 1], float("-inf")), -i))


NEXT_MERGE_LEAKS = [
    (nearest_zero, "abs()"),
    (farthest_from_zero, "abs()"),
    (last_place_of_each_piece, "LAST place"),
    (vocabulary_order, "leftmost PAIR"),
    (one_short, "last pair"),
    (right_symbol, "RIGHT symbol"),
    (two_symbols_are_no_pair, "two symbols make one pair"),
    (the_example_only, "returns 1 whatever"),
    (default_score, "return None when no pair"),
]


@pytest.mark.parametrize(("wrong", "named"), NEXT_MERGE_LEAKS, ids=[w.__name__ for w, _ in NEXT_MERGE_LEAKS])
def test_next_merge_wrong_answers_are_rejected_with_their_own_hint(wrong, named, capsys):
    assert not check_next_merge(wrong, record=False)
    hint = hint_of(capsys)
    assert named in hint, hint
    assert "tolerance" not in hint


def test_nearest_zero_is_right_on_negative_scores_only():
    """Why it took a case with scores of 0 and above to catch it."""
    assert nearest_zero(["a", "b", "c"], {"ab": -4.0, "bc": -2.0}) == 1
    assert nearest_zero(["a", "b", "c"], {"ab": 1.0, "bc": 2.0}) == 0  # the reference: 1


# ---- byte_fallback ------------------------------------------------------------------------------------------


def spelled(keep):
    """A byte_fallback that writes only the bytes for which ``keep(piece, raw)`` holds."""

    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab:
                out.append(piece)
            else:
                out += [f"<0x{b:02X}>" for b in keep(piece)]
        return out

    return byte_fallback


BYTE_FALLBACK_LEAKS = [
    (spelled(lambda p: [b for b in p.encode("utf-8") if b]), "<0x00>"),
    (spelled(lambda p: p.replace("\x00", "").encode("utf-8")), "<0x00>"),
    (spelled(lambda p: p.encode("utf-8").split(b"\x00")[0]), "<0x00> and what follows it"),
    (spelled(lambda p: p.encode("utf-8").rstrip(b"\x00")), "<0x00>"),
    (spelled(lambda p: "".join(c for c in p if c.isprintable() or c == "\n").encode("utf-8")), "<0x00>"),
    (spelled(lambda p: "".join(c for c in p if unicodedata.category(c) != "Cc" or c in "\t\n").encode()), "NUL"),
    (spelled(lambda p: p.strip().encode("utf-8")), "control characters or spaces"),
    (spelled(lambda p: "".join(p.split()).encode("utf-8")), "control characters or spaces"),
    (spelled(lambda p: [b for b in p.encode("utf-8") if b >= 0x20 or b == 0x0A]), "control"),
]
NAMES = ["if b", "replace NUL", "C string", "rstrip NUL", "isprintable", "no Cc", "strip", "split", "below 0x20"]


@pytest.mark.parametrize(("wrong", "named"), BYTE_FALLBACK_LEAKS, ids=NAMES)
def test_byte_fallback_dropping_nul_or_control_bytes_is_rejected_and_named(wrong, named, capsys):
    assert not check_byte_fallback(wrong, record=False)
    hint = hint_of(capsys)
    assert named in hint, hint


def hex_call(pieces, vocab):
    return [out for p in pieces for out in ([p] if p in vocab else [f"<{hex(b)}>" for b in p.encode("utf-8")])]


def hex_call_upper(pieces, vocab):
    return [out for p in pieces for out in ([p] if p in vocab else [f"<{hex(b).upper()}>" for b in p.encode()])]


def first_character(pieces, vocab):
    return [out for p in pieces for out in ([p] if p[0] in vocab else [f"<0x{b:02X}>" for b in p.encode()])]


def each_once(pieces, vocab):
    out = [x for p in pieces for x in ([p] if p in vocab else [f"<0x{b:02X}>" for b in p.encode()])]
    return list(dict.fromkeys(out))


@pytest.mark.parametrize(
    ("wrong", "named"),
    [(hex_call, "hex(b)"), (hex_call_upper, "hex(b).upper()"), (first_character, "piece[0]"), (each_once, "once")],
)
def test_byte_fallback_other_wrong_answers_get_their_own_hint(wrong, named, capsys):
    assert not check_byte_fallback(wrong, record=False)
    hint = hint_of(capsys)
    assert named in hint, hint


def test_the_nul_and_control_cases_are_what_sentencepiece_emits():
    """sentencepiece itself, on Mistral's model: NUL falls back to <0x00> (id 3) inside a text, at its end, alone."""
    model = load_sentencepiece("mistral_v1")
    reference = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    for text in ["a\x00b", "x\x00", "\x00", "\t\x1b"]:
        merged = model.merge_pieces(model.normalize(text))
        assert byte_fallback(merged, set(model.mergeable)) == reference.encode_as_pieces(text), text
    assert reference.piece_to_id("<0x00>") == 3


def test_the_cases_hold_nul_and_control_bytes():
    written = {piece for case in BYTE_FALLBACK.build_cases() for piece in case.expected}
    assert {"<0x00>", "<0x09>", "<0x0D>", "<0x1B>", "<0x7F>", "<0x1F>", "<0x85>"} <= written
