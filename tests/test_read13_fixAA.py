"""Lesson 11, thirteenth fresh read (fixAA): wrong answers its two checkers accepted, a hint that named another bug,
and prose that promised more than the cells show. Each wrong answer is the reviewer's, written as a learner would;
each right one is the lesson's shown solution."""

from __future__ import annotations

import math
import time
from decimal import Decimal, localcontext

import nbformat
import numpy as np
import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.words import count_pairs
from tests.shown_solutions import lesson_path, shown_solution

best_wordpiece_pair = shown_solution("11", "10c48b97", "best_wordpiece_pair", count_pairs=count_pairs)
encode_wordpiece_word = shown_solution("11", "fa80ff2b", "encode_wordpiece_word")


def _hint(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   hint:"))


def _scored(score):
    """best_wordpiece_pair as a learner writes it, with ``score(n, count(A), count(B))`` and max over the pairs."""

    def best(word_freq):
        singles = {}
        for word, freq in word_freq.items():
            for symbol in word:
                singles[symbol] = singles.get(symbol, 0) + freq
        pairs = count_pairs(word_freq)
        scores = {(a, b): score(n, singles[a], singles[b]) for (a, b), n in pairs.items()}
        return max(scores, key=scores.get)

    return best


def _cells():
    return nbformat.read(lesson_path("11"), as_version=4).cells


def _cell(cell_id):
    return next(c for c in _cells() if c.id == cell_id)


def test_the_shown_solutions_pass():
    assert check_best_wordpiece_pair(best_wordpiece_pair, record=False).passed
    assert check_encode_wordpiece_word(encode_wordpiece_word, record=False).passed


def test_the_shown_solution_is_checked_fast():
    start = time.perf_counter()
    check_best_wordpiece_pair(best_wordpiece_pair, record=False)
    assert time.perf_counter() - start < 5


# ---- finding 6: the score turned upside down, with // -----------------------------------------------------------


def test_an_inverted_integer_division_fails_and_is_named(capsys):
    wrong = _scored(lambda n, a, b: -(a * b // n))
    assert not check_best_wordpiece_pair(wrong, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "count(A) * count(B) // count(AB)" in hint, hint


# ---- finding 7: any fixed precision ------------------------------------------------------------------------------


def _decimal_1000(n, a, b):
    with localcontext() as context:
        context.prec = 1000
        return Decimal(n) / (Decimal(a) * Decimal(b))


@pytest.mark.parametrize(
    "score",
    [_decimal_1000, lambda n, a, b: n * 10**1000 // (a * b)],
    ids=["Decimal at 1000 digits", "times 10**1000, then //"],
)
def test_a_precision_of_a_thousand_digits_fails_and_is_named(score, capsys):
    assert not check_best_wordpiece_pair(_scored(score), record=False).passed
    hint = _hint(capsys.readouterr().out)
    # read 22 (fixBO): the checker's last near tie (counts of 10**100000) is past any precision a learner would
    # write, so the hint names no largest count to aim at
    assert "fixed number of digits" in hint and "every count" in hint, hint


def test_cell_13_says_how_far_the_checker_goes():
    text = _cell("44b7014e").source
    assert "only exact scores are right whatever the counts" not in text
    assert "every count" in text and "8,000" not in text  # read 22 (fixBO): no limit to aim at


# ---- finding 8: any logarithm --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "score",
    [
        lambda n, a, b: math.log(n) - math.log(a * b),
        lambda n, a, b: math.log2(n) - math.log2(a) - math.log2(b),
        lambda n, a, b: math.log10(n) - math.log10(a) - math.log10(b),
        lambda n, a, b: math.log10(n) - math.log10(a * b),
        lambda n, a, b: np.log(n) - np.log(a) - np.log(b),
        lambda n, a, b: np.log2(n) - np.log2(a * b),
    ],
    ids=["log of the product", "log2", "log10", "log10 of the product", "numpy log", "numpy log2 of the product"],
)
def test_any_logarithm_gets_the_logarithm_hint(score, capsys):
    assert not check_best_wordpiece_pair(_scored(score), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "logarithm" in hint and "integer division" not in hint, hint


# ---- finding 9: the first piece is a word start ------------------------------------------------------------------


def test_a_first_piece_that_falls_back_to_a_continuation_fails_and_is_named(capsys):
    def encode(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end]
                if start > 0:
                    piece = "##" + piece
                if piece in vocab:
                    break
                if start == 0 and "##" + piece in vocab:
                    piece = "##" + piece
                    break
            else:
                return ["[UNK]"]
            pieces.append(piece)
            start = end
        return pieces

    assert encode("us", {"##u", "##s", "h"}) == ["##u", "##s"]
    assert not check_encode_wordpiece_word(encode, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "starts a word" in hint and "##" in hint, hint


def test_a_whole_word_looked_up_with_and_without_hashes_fails_and_is_named(capsys):
    def encode(word, vocab):
        if word in vocab:
            return [word]
        if "##" + word in vocab:
            return ["##" + word]
        return encode_wordpiece_word(word, vocab)

    assert encode("us", {"##us"}) == ["##us"]
    assert not check_encode_wordpiece_word(encode, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "starts a word" in hint and "##" in hint, hint


# ---- findings 10, 11, 12, 14: the lesson's cells --------------------------------------------------------------------


def test_the_sampling_cell_is_checked_and_shows_different_cuts():
    cell = _cell("0673724c")
    assert "NBVAL_IGNORE_OUTPUT" not in cell.source
    text = "".join(output.get("text", "") for output in cell.outputs)
    cuts = {line for line in text.splitlines() if line.startswith("[")}
    assert len(cuts) > 1, text


def test_the_split_by_number_sentence_names_the_pieces_bpe_loses():
    cells = _cells()
    i = next(i for i, c in enumerate(cells) if c.id == "sentencepiece-threads-md")
    assert "changes nothing else here" not in cells[i].source
    out = "".join(o.get("text", "") for o in cells[i - 1].outputs)
    for piece in ("age", "ang", "een"):
        assert f"'{piece}'" in out, out
        assert f"`{piece}`" in cells[i].source


def test_the_script_cut_names_both_exceptions():
    text = _cell("fa80ff2b").source
    assert "Inherited" in text and "with two exceptions" in text


def test_the_tokenizers_compared_are_built_outside_the_timing_cell():
    cells = [c for c in _cells() if c.cell_type == "code"]
    for name in ("hf_bpe", "our_bpe"):
        assert any(f"{name} = " in c.source and "perf_counter" not in c.source for c in cells), name
