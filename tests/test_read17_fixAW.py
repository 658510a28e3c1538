"""The seventeenth fresh read of lessons 14 and 15 (fixAW): bits_per_byte passed a product taken in chunks of fewer
than 88 probabilities, and a Fraction or a Decimal of the right value; and prose that said a little more, or other,
than its sources."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

import nbformat
import pytest

from bpelab.exercises import fair_comparisons
from bpelab.exercises.fair_comparisons import BITS_PER_BYTE, check_bits_per_byte
from bpelab.exercises.parity import check_gini
from tests.shown_solutions import lesson_path, shown_solution

LESSON_14 = lesson_path("14")
LESSON_15 = lesson_path("15")


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _cell(path: Any, cell_id: str) -> str:
    return next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id).source


def _lesson_bits_per_byte() -> Any:
    return shown_solution("15", "c61936d5", "bits_per_byte")


# ---- 1. a product taken in chunks of any size from 2 ----------------------------------------------------------


def _chunks(size: int) -> Any:
    def bits_per_byte(probabilities, text):
        bits = 0.0
        for i in range(0, len(probabilities), size):
            bits -= math.log2(math.prod(probabilities[i : i + size]))
        return bits / len(text.encode("utf-8"))

    return bits_per_byte


def test_the_lesson_s_bits_per_byte_still_passes() -> None:
    assert check_bits_per_byte(_lesson_bits_per_byte(), record=False).passed


def test_a_case_where_any_two_probabilities_multiply_to_zero() -> None:
    assert any(
        len(case.args[0]) >= 2 and math.prod(sorted(case.args[0])[-2:]) == 0.0 for case in BITS_PER_BYTE.build_cases()
    )


@pytest.mark.parametrize("size", [2, 10, 50, 87, 100])
def test_a_product_taken_in_chunks_of_any_size_is_refused_and_named(size: int, capsys) -> None:
    assert not check_bits_per_byte(_chunks(size), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "chunks" in hint and "rounds to 0.0" in hint and "1e-400" in hint, hint


def test_the_docstring_says_which_case_names_small_chunks() -> None:
    doc = fair_comparisons.__doc__
    assert "1e-200" in doc and "any two" in doc, doc


# ---- 2. a Fraction or a Decimal is not a float ----------------------------------------------------------------


@pytest.mark.parametrize("wrapper", [Fraction, Decimal])
def test_a_fraction_or_a_decimal_is_refused_as_gini_refuses_it(wrapper: Any, capsys) -> None:
    right = _lesson_bits_per_byte()

    def bits_per_byte(probabilities, text):
        return wrapper(right(probabilities, text))

    assert not check_bits_per_byte(bits_per_byte, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert f"returned a {wrapper.__name__}, expected a float" in hint and "float(...)" in hint, hint


def test_gini_keeps_its_hint_for_a_fraction(capsys) -> None:
    right = shown_solution("14", "bb6b346e", "gini")

    def gini(values):
        return Fraction(right(values))

    assert not check_gini(gini, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "returned a Fraction, expected a float" in hint and "sum, abs and / give a float" in hint, hint


def test_an_int_where_the_answer_is_whole_still_passes() -> None:
    right = _lesson_bits_per_byte()

    def bits_per_byte(probabilities, text):
        bpb = right(probabilities, text)
        return int(bpb) if bpb == int(bpb) else bpb

    assert check_bits_per_byte(bits_per_byte, record=False).passed


def test_lesson_15_exercise_2_says_it_returns_a_float() -> None:
    prose = _cell(LESSON_15, "fb17c351").split("### Exercise 2")[1]
    assert "float" in prose and "Fraction" in prose and "Decimal" in prose, prose


# ---- 3-6. the prose ---------------------------------------------------------------------------------------------


def test_lesson_14_quotes_lesson_06_s_token_with_its_trailing_space() -> None:
    prose = _cell(LESSON_14, "52763491")
    assert "`b', and the '`" in prose
    assert "`, and the`" not in prose


def test_lesson_15_says_magikarp_tries_the_lowest_2_percent() -> None:
    prose = _cell(LESSON_15, "a3b236bb")
    assert "top 2 %" not in prose
    assert "lowest" in prose and "candidates_for_verification" in prose and "magikarp/utils.py" in prose


def test_lesson_15_smoothing_divides_by_the_token_s_count_as_a_left_context() -> None:
    prose = _cell(LESSON_15, "f4d9a1b7")
    assert "count of that token + kV" not in prose
    assert "before[prev]" in prose or "followed by another" in prose, prose


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z`(])", " ".join(text.split()))


def _depth(text: str) -> int:
    """How deep the parentheses go outside code spans and links' addresses."""
    text = re.sub(r"``.*?``|`[^`]*`|\]\([^)]*\)", "", text)
    deepest = depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        deepest = max(deepest, depth)
    return deepest


def test_lesson_14_superbpe_choices_are_short_sentences() -> None:
    prose = _cell(LESSON_14, "c14b0005")
    item_2 = prose.split("\n2. ")[1].split("\n\n")[0]
    choices = prose.split("The SuperBPE authors made other choices")[1].split("Their trainer also refuses")[0]
    for part in (item_2, choices):
        assert _depth(part) <= 1, part
        for sentence in _sentences(part):
            assert len(sentence) <= 400, sentence
    for fact in [
        "scripts/extend_tokenizer.sh",
        "line 1163",
        "lines 80–97",
        "`757f2a5`",
        "lines_with_ending",
        "BufRead::read_line",
        "'two line\\rthree\\u2028four'",
        "line 4 of `scripts/train_tokenizer.sh`",
        "`camel | Case`",
        "UAX #14",
        "229 of the 885",
        "`\\n\\n`",
        "`'a  b   c'`",
        "`पढ` + `़ो`",
        "`ह` + `ैं।`",
    ]:
        assert fact in prose or fact in " ".join(prose.split()), fact
