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
