"""Lesson 16, a fresh review's findings (fixBA): check_next_merge's cases of a best pair at the end with '▁' on its
right, a right but quadratic answer on its long case, hints for skipped pairs of equal symbols and for the ±0 order
of sentencepiece 0.2.2 on; check_byte_fallback's hints for a known piece written once and for the lesson's output
hard-coded; and cell 2's citation of the sentencepiece README."""

from __future__ import annotations

import math
import time

import nbformat
import pytest

from bpelab.exercises.sentencepiece import NEXT_MERGE, check_byte_fallback, check_next_merge
from bpelab.sentencepiece import load_sentencepiece, require_sentencepiece
from tests.lesson16_solutions import LESSON, hint

SPACE = "\u2581"


def cell(cell_id: str) -> str:
    return next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id).source


def flat(text: str) -> str:
    return " ".join(text.split())


def _scan(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


# Finding 1: an answer that drops a trailing '▁' passed every check.


def next_merge_dropping_a_trailing_space(symbols, scores):
    if symbols and symbols[-1] == "▁":
        symbols = symbols[:-1]
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_a_dropped_trailing_space_is_refused_and_named(capsys):
    assert not check_next_merge(next_merge_dropping_a_trailing_space, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "'▁'" in said and "last" in said and "dropped" in said, said


@pytest.mark.parametrize(("text", "ending"), [("hi  ", ["▁hi", "▁▁"]), ("x = 1   ", ["1", "▁▁▁"])])
def test_mistral_cases_end_in_a_merge_of_spaces_as_sentencepiece_encodes_them(text, ending):
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    assert sp.encode_as_pieces(text)[-2:] == ending
    cases = [c for c in NEXT_MERGE.build_cases() if f"encoding {text!r}" in c.note]
    assert any(c.args[0][-1] == SPACE and c.expected == len(c.args[0]) - 2 for c in cases), [c.args[0] for c in cases]
    assert load_sentencepiece("mistral_v1").encode_as_pieces(text) == sp.encode_as_pieces(text)


# Finding 2: a right quadratic answer was refused on the case of 2,400 symbols (now 1,200), with a hint about while loops.


def next_merge_rebuilding_the_pairs(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        pairs = []
        for j in range(len(symbols) - 1):
            pairs.append(symbols[j] + symbols[j + 1])
        piece = pairs[i]
        if piece in scores and (best is None or scores[piece] > scores[pairs[best]]):
            best = i
    return best


def next_merge_rebuilding_the_pairs_in_a_comprehension(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        pairs = [symbols[j] + symbols[j + 1] for j in range(len(symbols) - 1)]
        if pairs[i] in scores and (best is None or scores[pairs[i]] > scores[pairs[best]]):
            best = i
    return best


@pytest.mark.parametrize(
    "answer", [next_merge_rebuilding_the_pairs, next_merge_rebuilding_the_pairs_in_a_comprehension]
)
def test_a_right_quadratic_answer_passes(answer, capsys):
    assert check_next_merge(answer, record=False).passed, capsys.readouterr().out


def pairs_of(symbols):
    pairs = []
    for k in range(len(symbols) - 1):
        pairs.append(symbols[k] + symbols[k + 1])
    return pairs


def next_merge_cubic(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        if pairs_of(symbols)[i] not in scores:
            continue
        beaten = False
        for j in range(len(symbols) - 1):
            other = pairs_of(symbols)[j]
            if other in scores and scores[other] > scores[pairs_of(symbols)[i]]:
                beaten = True
        if not beaten and best is None:
            best = i
    return best


def test_a_cubic_answer_is_refused_with_a_hint_naming_work_repeated_for_every_i(capsys):
    assert not check_next_merge(next_merge_cubic, record=False).passed
    out = capsys.readouterr().out
    said = hint(out)
    assert "for every i" in said and "once" in said and "while" in said, said
    assert "more than 4,000,000 lines" in out or "after 20 seconds" in out, out


# Finding 3: skipping a pair of two equal symbols was called stopping early, after 34 s.


def _skipping_equal(keep_spaces: bool):
    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            if symbols[i] == symbols[i + 1] and not (keep_spaces and symbols[i] == "▁"):
                continue
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    return next_merge


@pytest.mark.parametrize("keep_spaces", [True, False])
def test_skipping_a_pair_of_equal_symbols_is_named_quickly(keep_spaces, capsys):
    started = time.perf_counter()
    assert not check_next_merge(_skipping_equal(keep_spaces), record=False).passed
    said = hint(capsys.readouterr().out)
    assert "equal symbols" in said and "'aa'" in said, said
    assert "stopped before the end" not in said
    assert time.perf_counter() - started < 10


# Finding 4: +0.0 above -0.0 (sentencepiece 0.2.2 on) got a hint printing -0.0 as 0.


def next_merge_plus_zero_above_minus_zero(symbols, scores):
    best, key = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores:
            this = (scores[piece], math.copysign(1.0, scores[piece]))
            if best is None or this > key:
                best, key = i, this
    return best


def test_the_plus_zero_order_is_named_with_minus_zero_printed(capsys):
    assert not check_next_merge(next_merge_plus_zero_above_minus_zero, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "-0.0" in said and "+0.0" in said and "==" in said and "0.2.2" in said, said


# Finding 5: check_byte_fallback's generic hint for a known piece written once and for the lesson's output.


def test_a_known_piece_written_once_is_named(capsys):
    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab:
                if piece not in out:
                    out.append(piece)
            else:
                out.extend(f"<0x{b:02X}>" for b in piece.encode("utf-8"))
        return out

    assert not check_byte_fallback(byte_fallback, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "not in out" in said and "known piece" in said, said


def test_the_lessons_output_hard_coded_is_named(capsys):
    def byte_fallback(pieces, vocab):
        return ["▁I", "▁love", "▁", "<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"]

    assert not check_byte_fallback(byte_fallback, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "whatever the pieces" in said and "I love 🤖" in said, said


# Finding 6: cell 2 quoted sections of the README that 0.2.3's README no longer has, without naming the version.


def test_cell_2_names_the_readme_version_it_quotes():
    text = flat(cell("a16e0002"))
    assert "is not always required" in text
    assert "2734490" in text and "0.2.1" in text, text[:1200]
    assert "does **not** require language-specific pre-tokenizers" in text or "0.2.3's README" in text
