"""Lesson 16's ninth fresh read (fixM): lookups of a changed pair or piece that the checkers accepted."""

from __future__ import annotations

import unicodedata

import pytest

from bpelab.exercises.sentencepiece import byte_fallback, check_byte_fallback, check_next_merge, next_merge
from tests.test_read8_fixL import _hint  # the lesson's shown solutions, read as read 8 reads them

SPACE = "\u2581"


# ---- finding 1: next_merge looks up a changed pair ---------------------------------------------------------------


def _looking_up(change, only_when_missing: bool = False):
    """A next_merge that looks up change(pair) (always, or only when the pair itself is missing), keyed by change
    of the vocabulary too when asked."""

    def wrong(symbols, scores):
        best, best_score = None, 0.0
        for i in range(len(symbols) - 1):
            pair = symbols[i] + symbols[i + 1]
            key = pair if only_when_missing and pair in scores else change(pair)
            if key in scores and (best is None or scores[key] > best_score):
                best, best_score = i, scores[key]
        return best

    return wrong


def lower_cased(symbols, scores):
    """The reviewer's answer: `low = {k.lower(): v ...}`, and pair.lower() looked up in it."""
    low = {k.lower(): v for k, v in scores.items()}
    best, best_score = None, 0.0
    for i in range(len(symbols) - 1):
        pair = (symbols[i] + symbols[i + 1]).lower()
        if pair in low and (best is None or low[pair] > best_score):
            best, best_score = i, low[pair]
    return best


CHANGED = {
    "lower": (lower_cased, "lower"),
    "NFC": (_looking_up(lambda p: unicodedata.normalize("NFC", p)), "normaliz"),
    "NFKC": (_looking_up(lambda p: unicodedata.normalize("NFKC", p)), "normaliz"),
    "space added": (_looking_up(lambda p: SPACE + p, only_when_missing=True), "'▁'"),
    "strip": (_looking_up(str.strip, only_when_missing=True), "strip"),
    "rstrip space": (_looking_up(lambda p: p.rstrip(SPACE), only_when_missing=True), "strip"),
}


@pytest.mark.parametrize(
    ("symbols", "scores"),
    [
        (["T", "h", "e"], {"th": -1.0, "he": -2.0}),
        (["e", "\u0301", "x"], {"\u00e9": -1.0, "\u0301x": -2.0}),
        (["t", "h", "e"], {SPACE + "th": -1.0, "he": -2.0}),
        (["a", "\n", "b"], {"a": -1.0, "\nb": -2.0}),
        (["a", SPACE, "b"], {"a": -1.0, SPACE + "b": -2.0}),
    ],
)
def test_the_reference_looks_up_the_pair_as_it_is(symbols, scores):
    """Hand-checked: the pair at 0 ('Th', 'e' + U+0301, 'th', 'a\\n', 'a▁') is no key of scores; the pair at 1 is."""
    assert symbols[0] + symbols[1] not in scores and symbols[1] + symbols[2] in scores
    assert next_merge(symbols, scores) == 1


@pytest.mark.parametrize("name", list(CHANGED))
def test_a_changed_pair_looked_up_is_rejected_and_named(name, capsys):
    answer, word = CHANGED[name]
    assert not check_next_merge(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert word in hint and "as it is" in hint, hint


# ---- finding 2: byte_fallback keeps a piece whose '▁' form is in the vocabulary ---------------------------------


def _also_with_space(before: bool):
    def wrong(pieces, vocab):
        out = []
        for piece in pieces:
            spaced = SPACE + piece if before else piece + SPACE
            if piece in vocab or spaced in vocab:
                out.append(piece)
            else:
                out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    return wrong


def test_the_reference_spells_a_piece_whose_spaced_form_is_the_piece():
    """Hand-checked: 't' 'h' 'e' are bytes 74 68 65, 'o' 'f' are 6F 66 (ASCII)."""
    assert byte_fallback(["the"], {SPACE + "the"}) == ["<0x74>", "<0x68>", "<0x65>"]
    assert byte_fallback(["of"], {"of" + SPACE}) == ["<0x6F>", "<0x66>"]


@pytest.mark.parametrize("before", [True, False])
def test_a_piece_kept_because_of_its_spaced_form_is_rejected_and_named(before, capsys):
    assert not check_byte_fallback(_also_with_space(before), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "'▁'" in hint and "piece in vocab" in hint, hint
