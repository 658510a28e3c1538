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


# ---- finding 6: hints that say only what the checker can know --------------------------------------------------


def _split_with(pattern):
    import regex

    def split_words(text):
        return regex.findall(pattern, text)

    return split_words


@pytest.mark.parametrize(
    ("pattern", "named"),
    [
        # \w spelled from the letters, [^\w\s]+ kept: Ⅻ and Ⓐ are in neither class and are dropped
        (r"[\p{L}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\w\s]+", ["Ⅻ", "Ⓐ", "Alphabetic"]),
        # ... and _ where \w has every \p{Pc}, no joiners: the Persian word loses its zero-width non-joiner
        (r"[\p{L}\p{M}\p{Nd}_]+|[^\w\s]+", ["U+200C", "Join_Control"]),
        # \p{Cf} where \w has the two joiners
        (r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Cf}]+|[^\w\s]+", ["U+00AD", "Join_Control"]),
    ],
)
def test_split_words_names_a_hand_spelled_word_class_beside_the_kept_non_word_class(pattern, named, capsys):
    from bpelab.exercises import check_split_words

    assert not check_split_words(_split_with(pattern), record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "spelled out by hand" in hint and all(word in hint for word in named), hint


def test_split_words_the_fully_hand_spelled_class_is_still_named(capsys):
    from bpelab.exercises import check_split_words

    pattern = r"[\p{L}\p{M}\p{Nd}_\p{Join_Control}]+|[^\p{L}\p{M}\p{Nd}_\p{Join_Control}\s]+"
    assert not check_split_words(_split_with(pattern), record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "spelled out by hand" in hint and "Ⅻ" in hint, hint


def test_count_characters_set_hint_only_for_a_set(capsys):
    from collections import Counter

    from bpelab.exercises.warmup import check_count_characters

    def reverse_sorted(text):
        return dict(sorted(Counter(text).items(), reverse=True))

    def through_a_set(text):
        return {ch: text.count(ch) for ch in set(text)}

    assert not check_count_characters(reverse_sorted, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "not in the order the characters first appear" in hint and "set(text)" not in hint, hint
    assert not check_count_characters(through_a_set, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "set(text)" in hint and "first appear" in hint, hint


def test_lesson_00_lists_the_set_order_among_the_orders_named():
    text = " ".join(_cell("00", "b977601e").source.split())
    assert "for any other order it says only that the order is not the order of first appearance" in text
    assert "set(text)" in text.split("for any other order")[0], text


# ---- findings 2-5 and 7: sentences that say what the lessons compute ---------------------------------------------


def test_lesson_00_calls_the_middle_column_multi_byte_and_counts_llama3_not_reached():
    text = " ".join(_cell("00", "c3f9a2d4").source.split())
    assert "a token learned by a merge" not in text and "multi-byte" in text, text
    out = _outputs(_cell("00", "d8a4e6b2"))
    assert " merged + " not in out and "multi-byte" in out, out
    assert "Llama 3:" in out and "lowest-rank-first" in out and "lesson 15" in out, out


def test_lesson_01_two_or_three_bytes_by_block_with_counts():
    text = " ".join(_cell("01", "b922b6e7").source.split())
    assert "Most accented Latin letters, and Greek" not in text and "Vietnamese" in text and "polytonic" in text
    cell = next(c for c in _cells("01") if c.cell_type == "code" and "Latin Extended Additional" in c.source)
    out = _outputs(cell)
    assert "3 bytes" in out and "2 bytes" in out, out


def test_lesson_01_says_which_part_of_heaps_curve_is_fitted():
    text = " ".join(_cell("01", "196012df").source.split())
    assert "second half" in text, text
    out = _outputs(_cell("01", "4fe17607"))
    assert "whole curve" in out and "second half" in out, out


def test_lesson_03_code_point_order_is_scoped_to_ascii():
    text = " ".join(_cell("03", "9504f72c").source.split())
    assert "which is alphabetical for small letters (capitals" not in text and "ASCII" in text, text
    cells = _cells("03")
    at = next(i for i, c in enumerate(cells) if c.id == "9504f72c")
    assert "é" in _outputs(cells[at + 1]), cells[at + 1].source


def test_lesson_04_scopes_the_claim_on_later_vocabularies():
    text = " ".join(_cell("04", "cell-00").source.split())
    assert "OpenAI has not published how it trained later vocabularies" not in text, text
