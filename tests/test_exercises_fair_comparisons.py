"""Lesson 15's checkers: right answers pass, stubs say "not yet", typical mistakes get the hint that names them."""

from __future__ import annotations

import math

import pytest

from bpelab.exercises.fair_comparisons import (
    BITS_PER_BYTE,
    GROUP_DIGITS,
    check_bits_per_byte,
    check_group_digits,
)


def report(capsys) -> str:
    return capsys.readouterr().out


# ---- group_digits -------------------------------------------------------------------------------------


def good_groups(digits):
    first = len(digits) % 3 or 3
    groups = [digits[:first]] if digits else []
    return groups + [digits[i : i + 3] for i in range(first, len(digits), 3)]


def test_hand_written_groups_agree_with_the_reference():
    for case in GROUP_DIGITS.build_cases():
        if case.note != "twenty digits":
            assert good_groups(*case.args) == case.expected, case.note


def test_group_digits_right_answers_pass(capsys):
    assert check_group_digits(good_groups)
    assert report(capsys).startswith("✅ group_digits: all")


def test_group_digits_stub_is_not_yet(capsys):
    def group_digits(digits):
        # your code here
        ...

    assert check_group_digits(group_digits).status == "not yet"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda d: [d[i : i + 3] for i in range(0, len(d), 3)], "you grouped from the LEFT"),
        (lambda d: good_groups(d)[::-1], "the right groups, in reverse order"),
        (lambda d: [d[::-1][i : i + 3] for i in range(0, len(d), 3)], "the digits read backwards"),
        (lambda d: [d[::-1][i : i + 3] for i in range(0, len(d), 3)][::-1], "each one is written backwards"),
        (lambda d: good_groups(d) or [""], "an empty string has no groups"),
        (lambda d: [d], "len(digits) % 3"),
        (lambda d: int(d), "returned an int"),
        (lambda d: good_groups(d.lstrip("0")), "leading zeros"),
        (lambda d: f"{int(d):,}".split(","), "int() drops leading zeros"),
        (lambda d: f"{int(d):,}".split(",") if d else [], "int() drops leading zeros"),
        (lambda d: [int(g) for g in good_groups(d)], "strings"),
    ],
)
def test_group_digits_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_group_digits(wrong)
    out = report(capsys)
    assert not result
    assert hint in out, out


# ---- bits_per_byte -------------------------------------------------------------------------------------


def good_bpb(probabilities, text):
    return sum(-math.log(p, 2) for p in probabilities) / len(bytes(text, "utf-8"))


def test_hand_written_bits_agree_with_the_reference():
    for case in BITS_PER_BYTE.build_cases():
        if case.note != "four tokens, accents and a curly apostrophe":
            assert math.isclose(good_bpb(*case.args), case.expected, abs_tol=1e-12), case.note


def test_bits_per_byte_right_answers_pass(capsys):
    assert check_bits_per_byte(good_bpb)
    assert report(capsys).startswith("✅ bits_per_byte: all")


def test_bits_per_byte_stub_is_not_yet(capsys):
    def bits_per_byte(probabilities, text):
        # your code here
        ...

    assert check_bits_per_byte(bits_per_byte).status == "not yet"


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda p, t: sum(math.log2(x) for x in p) / len(t.encode()), "the answer is negative"),
        (lambda p, t: -sum(math.log2(x) for x in p) / len(p), "that is bits per TOKEN"),
        (lambda p, t: -sum(math.log2(x) for x in p) / len(t), "you divided by the number of characters"),
        (lambda p, t: -sum(math.log(x) for x in p) / len(t.encode()), "in nats"),
        (lambda p, t: -math.log2(sum(p)) / len(t.encode()), "not the probabilities themselves"),
        (lambda p, t: -sum(math.log2(x) for x in p), "bits = -sum"),
    ],
)
def test_bits_per_byte_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_bits_per_byte(wrong)
    out = report(capsys)
    assert not result
    assert hint in out, out


def test_zeros_stripped_is_not_blamed_on_int(capsys):
    """Stripping leading zeros from the string keeps other scripts' digits: its hint must not name int()."""
    check_group_digits(lambda d: good_groups(d.lstrip("0")))
    out = report(capsys)
    assert "int()" not in out, out
    assert "07700" in out or "leading zeros" in out, out


def test_a_case_starts_with_a_zero_as_the_lessons_longest_run_does():
    assert any(case.args[0][:1] == "0" for case in GROUP_DIGITS.build_cases())


def test_multiplying_the_probabilities_fails_on_a_long_text(capsys):
    """The product of a real text's probabilities rounds to 0.0: log2 of it fails (Python) or is -inf (numpy)."""
    assert math.prod([1 / 16] * 300) == 0.0  # 2**-1200 is below the smallest float
    result = check_bits_per_byte(lambda p, t: -math.log2(math.prod(p)) / len(t.encode()))
    out = report(capsys)
    assert not result
    assert "rounds to 0" in out, out


def test_multiplying_with_numpy_gives_infinity_and_the_same_hint(capsys):
    np = pytest.importorskip("numpy")
    with np.errstate(divide="ignore"):
        result = check_bits_per_byte(lambda p, t: float(-np.log2(np.prod(p)) / len(t.encode())))
    out = report(capsys)
    assert not result
    assert "got:      inf" in out and "rounds to 0" in out, out


def test_the_hint_for_added_probabilities_does_not_suggest_multiplying(capsys):
    check_bits_per_byte(lambda p, t: -math.log2(sum(p)) / len(t.encode()))
    out = report(capsys)
    assert "not the probabilities themselves" in out and "multiply" not in out, out


def test_the_reference_is_the_package_function():
    from bpelab.analysis import bits_per_byte as package

    assert BITS_PER_BYTE.reference is package.bits_per_byte


def test_no_case_has_an_empty_text_which_the_package_refuses():
    """The package's bits_per_byte refuses an empty text by name; the exercise asks only texts with bytes."""
    assert all(case.args[1] for case in BITS_PER_BYTE.build_cases())


def test_the_characters_hint_says_what_bytes_are_for(capsys):
    check_bits_per_byte(lambda p, t: -sum(math.log2(x) for x in p) / len(t))
    out = report(capsys)
    assert "what every tokenizer of the text shares" not in out, out


def test_a_byte_count_that_skips_non_ascii_is_named_not_blamed_on_an_empty_input(capsys):
    def bits_per_byte(probabilities, text):
        return -sum(math.log2(p) for p in probabilities) / len(text.encode("ascii", "ignore"))

    assert not check_bits_per_byte(bits_per_byte, record=False)
    out = capsys.readouterr().out
    assert "no text here is empty" in out and "non-ASCII" in out
