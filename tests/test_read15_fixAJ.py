"""Lesson 16's fifteenth fresh read (fixAJ): next_merge's hints for scores rounded to whole numbers (round, int,
math.floor, math.ceil) and for a loop over range(len(symbols)); the stopped-early hint names no limit the failing
input is too short to show; byte_fallback's hints for an upper-case x, a decimal byte, NFKC and a return inside the
loop; cell 2's prose on IsValidSentencePiece and its sources."""

from __future__ import annotations

import math
import re
import unicodedata

import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from tests.lesson16_solutions import hint

# ---- finding 1: scores rounded to whole numbers -------------------------------------------------------------------


def compared_whole(whole):
    """The shown loop, each score passed through ``whole`` before the comparison (the best's too)."""

    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (
                best is None or whole(scores[piece]) > whole(scores[symbols[best] + symbols[best + 1]])
            ):
                best = i
        return best

    return next_merge


def kept_whole(whole):
    """The best score kept in a variable, both rounded: ``s = round(scores[piece])``; ``if s > best_score``."""

    def next_merge(symbols, scores):
        best, best_score = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores:
                score = whole(scores[piece])
                if best is None or score > best_score:
                    best, best_score = i, score
        return best

    return next_merge


WHOLE = {"round": round, "int": int, "math.floor": math.floor, "math.ceil": math.ceil}


@pytest.mark.parametrize("shape", [compared_whole, kept_whole])
@pytest.mark.parametrize("name", list(WHOLE))
def test_scores_rounded_to_whole_numbers_get_the_rounding_hint(name, shape, capsys):
    assert not check_next_merge(shape(WHOLE[name]), record=False).passed
    out = capsys.readouterr().out
    assert "not rounded" in out  # the case that fails: -1.4 and -1.2
    line = hint(out)
    assert "rounded" in line and "stopped before the end" not in line, line


def test_the_rounding_hint_names_floor_and_ceil(capsys):
    check_next_merge(compared_whole(math.floor), record=False)
    line = hint(capsys.readouterr().out)
    assert "math.floor" in line and "math.ceil" in line, line


def first_pairs_only(limit):
    """A loop capped at ``limit`` positions: the stopped-early hint may name the cap."""

    def next_merge(symbols, scores):
        best = None
        for i in range(min(len(symbols) - 1, limit)):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    return next_merge


def test_the_stopped_early_hint_never_names_a_limit_the_input_cannot_show(capsys):
    """A limit named must explain the failing answer: it stops before the expected position (on ['a', 'b', 'c'],
    whose winner is at 1, only a limit of 1 pair could), never "the first 53 to 65 pairs"."""
    named = 0
    for answer in [compared_whole(math.ceil), first_pairs_only(20), first_pairs_only(1)]:
        check_next_merge(answer, record=False)
        out = capsys.readouterr().out
        line = hint(out)
        limit = re.search(r"limited to the first (\d+)(?: to (\d+))? pairs", line)
        if limit is None:
            continue
        named += 1
        expected = int(re.search(r"expected:\s+(\d+)", out).group(1))
        assert int(limit.group(2) or limit.group(1)) <= expected, out
    assert named == 2  # the caps of 20 and 1 are still named


# ---- findings 2 and 3: cell 2's IsValidSentencePiece rule, and the sources of cells 0 and 2 -------------------------


def _cell(cell_id):
    import nbformat

    from tests.lesson16_solutions import LESSON

    return next(cell for cell in nbformat.read(LESSON, as_version=4).cells if cell.get("id") == cell_id)


def _prose(cell_id):
    return " ".join(_cell(cell_id).source.split())


def test_cell_2_states_the_rule_under_both_settings_of_split_by_whitespace():
    """sentencepiece 0.2.3, trainer_interface.cc lines 308-321: with split_by_whitespace on, a '▁' after the first
    character is refused; off, only a final '▁' (unless allow_whitespace_only_pieces and the piece is all '▁')."""
    text = _prose("a16e0002")
    rule = text[text.index("`IsValidSentencePiece`") :]
    rule = rule[: rule.index("Mistral's file has both settings on")]
    assert "split_by_whitespace` on" in rule and "split_by_whitespace` off" in rule, rule
    assert "ends in `▁`" in rule and "`▁of▁t`" in rule and "treat_whitespace_as_suffix" in rule, rule
    assert "lines 308–321" in rule, rule


def test_the_split_by_whitespace_demonstration_is_computed():
    cell = _cell("a16e0002cc")
    assert "split_by_whitespace=split" in cell.source
    out = "".join(o.get("text", "") for o in cell.outputs)
    assert "split_by_whitespace=False" in out and "ending in '▁': []" in out, out
    assert re.search(r"split_by_whitespace=False.*'▁of▁t'", out), out


def test_cell_2_sources_the_papers_claims_to_the_readme():
    text = _prose("a16e0002")
    assert "its section 3" not in text
    assert "arxiv.org/abs/1808.06226" in text
    assert "`README.md`" in text and "U+2581" in text, text


def test_cell_0_cites_llama_1_by_its_paragraph_only():
    text = _prose("a16e0000")
    assert "§2.1" not in text
    assert '[arXiv:2302.13971](https://arxiv.org/abs/2302.13971), its paragraph "Tokenizer"' in text, text
    assert "§2.2" in text


# ---- finding 4: byte_fallback's and next_merge's minor hints -------------------------------------------------------


def spelled(spell, normal=None):
    """The shown solution, each byte spelled by ``spell``, each piece first normalised to ``normal`` if given."""

    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if normal:
                piece = unicodedata.normalize(normal, piece)
            if piece in vocab:
                out.append(piece)
            else:
                out += [spell(b) for b in piece.encode("utf-8")]
        return out

    return byte_fallback


def returned_in_the_loop(pieces, vocab):
    out = []
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
        else:
            out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out


BYTE_FALLBACK_MISTAKES = {
    "upper() on the whole": (spelled(lambda b: f"<0x{b:02x}>".upper()), ["upper-case X", "<0XC3>", "lower-case x"]),
    "format #04X": (spelled(lambda b: f"<{b:#04X}>"), ["upper-case X", "<0XC3>", "lower-case x"]),
    "decimal": (spelled(lambda b: f"<0x{b}>"), ["decimal", "<0x195>", "hex"]),
    "NFKC first": (spelled(lambda b: f"<0x{b:02X}>", "NFKC"), ["normalised the text first", "NFKC"]),
    "NFKD first": (spelled(lambda b: f"<0x{b:02X}>", "NFKD"), ["normalised the text first", "NFKD"]),
    "return in the loop": (returned_in_the_loop, ["return", "first piece", "after the loop"]),
}


@pytest.mark.parametrize("name", list(BYTE_FALLBACK_MISTAKES))
def test_byte_fallback_mistakes_get_their_own_hint(name, capsys):
    answer, words = BYTE_FALLBACK_MISTAKES[name]
    assert not check_byte_fallback(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert all(word in line for word in words), line


def test_nfc_first_keeps_its_hint(capsys):
    check_byte_fallback(spelled(lambda b: f"<0x{b:02X}>", "NFC"), record=False)
    assert "normalised the text first" in hint(capsys.readouterr().out)


def every_symbol(symbols, scores):
    best = None
    for i in range(len(symbols)):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_a_loop_over_every_symbol_is_told_the_pairs_are_one_fewer(capsys):
    assert not check_next_merge(every_symbol, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "range(len(symbols) - 1)" in line and "symbols[i + 1]" in line, line


def test_another_index_error_is_not_called_a_loop_over_every_symbol(capsys):
    def past_the_end(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 2 if len(symbols) > 2 else i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    check_next_merge(past_the_end, record=False)
    assert "range(len(symbols) - 1)" not in hint(capsys.readouterr().out)
