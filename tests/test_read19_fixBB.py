"""Lessons 00-04, nineteenth fresh read (fixBB): byte_count's rounding and its 0.0, the vocabulary's middle column
(multi-byte tokens, not all reached by merging), how many bytes accented, Greek and other letters take, the fitted
part of Heaps' curve, code-point order beyond ASCII, two checker hints that said more than the code knew, and a
claim about OpenAI's later vocabularies.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Right answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import nbformat
import pytest

from bpelab.exercises import check_byte_count
from tests.shown_solutions import lesson_path, shown_solution


def hint_of(out: str) -> str:
    """The report, its lines joined (the report wraps long hints)."""
    return " ".join(out.split())


def _cells(lesson):
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _cell(lesson, cell_id):
    return next(c for c in _cells(lesson) if c.id == cell_id)


def _outputs(cell) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


# ---- finding 1: byte_count rounds as round(x, 2) does, and 0.0 is a float ----------------------------------------


def half_up_floor(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = math.floor(n_bytes / n_chars * 100 + 0.5) / 100 if n_chars else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def half_up_decimal(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = 0.0
    if n_chars:
        exact = Decimal(n_bytes) / Decimal(n_chars)
        per_char = float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def half_up_decimal_of_float(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = 0.0
    if n_chars:
        per_char = float(Decimal(n_bytes / n_chars).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def decimal_of_text(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = float(Decimal(str(n_bytes / n_chars)).quantize(Decimal("0.01"))) if n_chars else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def int_zero(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = round(n_bytes / n_chars, 2) if n_chars else 0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def round_without_places(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = round(n_bytes / n_chars) if n_chars else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def floor_division(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = n_bytes // n_chars if n_chars else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def test_the_shown_solution_still_passes_byte_count():
    assert check_byte_count(shown_solution("01", "66d0d7f6", "byte_count"), record=False).passed


@pytest.mark.parametrize("wrong", [half_up_floor, half_up_decimal, half_up_decimal_of_float, decimal_of_text])
def test_byte_count_refuses_rounding_half_up(wrong, capsys):
    assert not check_byte_count(wrong, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "half" in hint and "round(bytes / chars, 2)" in hint, hint
    assert "even" in hint, hint  # why round gives 1.12: Python's round takes an exact half to the even digit


def test_byte_count_half_up_hint_names_the_exact_half(capsys):
    check_byte_count(half_up_floor, record=False)
    hint = hint_of(capsys.readouterr().out)
    assert "9 / 8" in hint and "1.125" in hint and "1.12" in hint, hint


def test_byte_count_decimal_of_text_hint_names_the_float_below_the_half(capsys):
    check_byte_count(decimal_of_text, record=False)
    hint = hint_of(capsys.readouterr().out)
    assert "43 / 40" in hint and "below 1.075" in hint, hint


def test_byte_count_refuses_an_int_zero_for_the_empty_text(capsys):
    assert not check_byte_count(int_zero, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "byte_count('')" in hint and "0.0" in hint and "int" in hint, hint


def test_byte_count_names_round_without_places(capsys):
    assert not check_byte_count(round_without_places, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "round(bytes / chars, 2)" in hint and "int" in hint and "//" not in hint, hint


def test_byte_count_names_floor_division(capsys):
    assert not check_byte_count(floor_division, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "//" in hint and "floor division" in hint, hint
