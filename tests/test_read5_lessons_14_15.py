"""Findings of the fifth fresh read of lessons 14 and 15, held: wrong answers to lesson 15's exercises that passed
(a hard-coded figure for long texts, group_digits wrong only on lengths no case had), hints that named the formula
the learner had already used (float32, rounding, a crash on ""), and the check cells that must stand alone."""

from __future__ import annotations

import math

import nbformat
import pytest

from bpelab.exercises.fair_comparisons import GROUP_DIGITS, check_bits_per_byte, check_group_digits

np = pytest.importorskip("numpy")
LESSON_14 = "notebooks/14_fairer_merges_bigger_tokens.ipynb"
LESSON_15 = "notebooks/15_numbers_glitches_fair_comparisons.ipynb"


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def right_bpb(probabilities, text):
    return -sum(math.log2(p) for p in probabilities) / len(text.encode("utf-8"))


def right_groups(digits):
    first = len(digits) % 3 or 3
    return ([digits[:first]] if digits else []) + [digits[i : i + 3] for i in range(first, len(digits), 3)]


# ---- bits_per_byte ----------------------------------------------------------------------------------------


def test_a_hard_coded_figure_for_long_texts_is_rejected() -> None:
    def bits_per_byte(probabilities, text):
        return 2.0 if len(probabilities) > 100 else right_bpb(probabilities, text)

    assert not check_bits_per_byte(bits_per_byte, record=False).passed


def test_float32_is_named(capsys) -> None:
    def bits_per_byte(probabilities, text):
        p = np.array(probabilities, dtype=np.float32)
        return float(-np.log2(p).sum() / np.float32(len(text.encode("utf-8"))))

    assert not check_bits_per_byte(bits_per_byte, record=False).passed
    assert "float32" in _hint(capsys.readouterr().out)


def test_a_rounded_answer_is_named(capsys) -> None:
    def bits_per_byte(probabilities, text):
        return round(right_bpb(probabilities, text), 6)

    assert not check_bits_per_byte(bits_per_byte, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "rounded to 6 decimal places" in hint, hint


# ---- group_digits -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [3, 8, 9, 12])
def test_a_case_of_each_length_the_read_found_missing(length: int) -> None:
    assert any(len(case.args[0]) == length for case in GROUP_DIGITS.build_cases())


@pytest.mark.parametrize("length", [3, 8, 9, 12])
def test_an_answer_wrong_only_on_one_length_is_rejected(length: int) -> None:
    def group_digits(digits):
        return list(digits) if len(digits) == length else right_groups(digits)

    assert not check_group_digits(group_digits, record=False).passed


def test_a_long_multiple_of_three_with_leading_zeros() -> None:
    assert any(
        len(case.args[0]) % 3 == 0 and len(case.args[0]) > 6 and case.args[0].startswith("0")
        for case in GROUP_DIGITS.build_cases()
    )


def _first_digit_checked(digits):  # IndexError on ""
    digits[0]
    return right_groups(digits)


def _max_of_digits(digits):  # ValueError on "": max() of an empty sequence
    max(digits)
    return right_groups(digits)


def _groups_per_length(digits):  # ZeroDivisionError on ""
    len(digits) // len(digits)
    return right_groups(digits)


@pytest.mark.parametrize("group_digits", [_first_digit_checked, _max_of_digits, _groups_per_length])
def test_a_crash_on_the_empty_string_is_named(group_digits, capsys) -> None:
    assert not check_group_digits(group_digits, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "empty string" in hint and "return []" in hint, hint


# ---- the lessons ------------------------------------------------------------------------------------------------


def _code(path: str) -> list[str]:
    return [c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


@pytest.mark.parametrize(
    ("checker", "function"), [("check_group_digits", "group_digits"), ("check_bits_per_byte", "bits_per_byte")]
)
def test_lesson_15_check_cells_stand_alone(checker: str, function: str) -> None:
    (cell,) = [s for s in _code(LESSON_15) if f"{checker}({function})" in s]
    assert f"import {checker}" in cell or f", {checker}" in cell
    assert f'if "{function}" in globals():' in cell
    assert f"{function} is not defined yet" in cell


def test_lesson_15_digit_table_quotes_its_space_pieces() -> None:
    (cell,) = [s for s in _code(LESSON_15) if "EXAMPLES = [" in s]
    assert "shown(" in cell


def test_lesson_14_checks_an_ideographic_space() -> None:
    assert any("is_superword(" in s and "\\u3000" in s for s in _code(LESSON_14))


def test_lesson_14_prints_the_ideographic_space_and_the_tokens_that_hold_a_line_break() -> None:
    cells = nbformat.read(LESSON_14, as_version=4).cells
    printed = "".join(o.get("text", "") for c in cells if c.cell_type == "code" for o in c.outputs)
    assert "'日本\\u3000語': True" in printed
    assert "tokens that hold a line break: ['\\n', '\\x0b', '\\x0c', '\\r', '\\n\\n']; whitespace only: True" in printed
    prose = "".join(c.source for c in cells if c.cell_type == "markdown")
    assert "no token holds text from two lines" not in prose and "checks four tokens" in prose


def test_read6_a_byte_count_without_the_four_byte_range_or_after_nfc_is_rejected() -> None:
    """Fresh read 6: no case had a character of four bytes or a decomposed accent, and both wrong counts passed."""
    import math as m
    import unicodedata

    from bpelab.exercises.fair_comparisons import check_bits_per_byte

    def three_bytes_at_most(probabilities, text):
        n = sum(1 if ord(c) < 0x80 else 2 if ord(c) < 0x800 else 3 for c in text)
        return -sum(m.log2(p) for p in probabilities) / n

    def after_nfc(probabilities, text):
        return -sum(m.log2(p) for p in probabilities) / len(unicodedata.normalize("NFC", text).encode("utf-8"))

    assert not check_bits_per_byte(three_bytes_at_most, record=False).passed
    assert not check_bits_per_byte(after_nfc, record=False).passed


def test_read6_padding_stripped_with_the_runs_own_zeros_is_named(capsys) -> None:
    from bpelab.exercises.fair_comparisons import check_group_digits

    def group_digits(digits):
        padded = "0" * (-len(digits) % 3) + digits
        groups = [padded[i : i + 3] for i in range(0, len(padded), 3)]
        if groups:
            groups[0] = groups[0].lstrip("0")
        return [g for g in groups if g]

    assert not check_group_digits(group_digits, record=False).passed
    out = capsys.readouterr().out
    assert "stripped the zeros off the first group" in out and "int()" not in out.split("hint:")[-1], out
