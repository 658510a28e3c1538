"""Findings of the sixth fresh read of lessons 14 and 15: a parity_next_pair that sorts the languages with an
unstable sort (numpy's default argsort, pandas' default sort_values) passed, and hints that named a bug the answer
did not have."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bpelab.exercises.parity import PARITY_NEXT_PAIR, check_parity_next_pair, reference_parity_next_pair

np = pytest.importorskip("numpy")
pd = pytest.importorskip("pandas")


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _first_with_a_pair(order, pair_counts):
    """The lesson's loop, over the languages in ``order``."""
    for language in order:
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def shown_solution(tokens, pair_counts):  # lesson 14's solution, cell 30
    return _first_with_a_pair(sorted(tokens, key=lambda lang: -tokens[lang]), pair_counts)


def argsort_answer(tokens, pair_counts):
    names = list(tokens)
    return _first_with_a_pair([names[i] for i in np.argsort([-tokens[name] for name in names])], pair_counts)


def sort_values_answer(tokens, pair_counts):
    return _first_with_a_pair(pd.Series(tokens).sort_values(ascending=False).index, pair_counts)


def stable_argsort_answer(tokens, pair_counts):
    names = list(tokens)
    order = np.argsort([-tokens[name] for name in names], kind="stable")
    return _first_with_a_pair([names[i] for i in order], pair_counts)


def test_the_shown_solution_and_stable_sorts_pass() -> None:
    assert check_parity_next_pair(shown_solution, record=False).passed
    assert check_parity_next_pair(stable_argsort_answer, record=False).passed


def _many_tied_cases():
    return [case for case in PARITY_NEXT_PAIR.build_cases() if "not stable" in case.note]


def test_numpy_argsort_gets_the_many_tied_states_wrong_here() -> None:
    cases = _many_tied_cases()
    assert len(cases) >= 3
    for case in cases:
        tokens, _ = case.args
        assert len(tokens) >= 17
        names = list(tokens)
        top = max(tokens.values())
        assert sum(n == top for n in tokens.values()) >= 3
        assert names[int(np.argsort([-tokens[name] for name in names])[0])] != names[[*tokens.values()].index(top)]
        assert argsort_answer(*case.args) != reference_parity_next_pair(*case.args)


PROBE = """
import numpy as np
from bpelab.exercises.parity import PARITY_NEXT_PAIR
for case in PARITY_NEXT_PAIR.build_cases():
    if "not stable" in case.note:
        tokens = case.args[0]
        values = list(tokens.values())
        first = values.index(max(values))
        print(int(np.argsort([-v for v in values])[0]) != first)
"""


@pytest.mark.parametrize("disabled", ["X86_V4 AVX512_ICL", "X86_V3 X86_V4 AVX512_ICL"])
def test_numpy_argsort_gets_them_wrong_without_avx512_too(disabled: str) -> None:
    """numpy's argsort takes another path without AVX-512 (AVX2), or without either (its introsort)."""
    env = os.environ | {"NPY_DISABLE_CPU_FEATURES": disabled}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() and set(out.split()) == {"True"}, out


@pytest.mark.parametrize("answer", [argsort_answer, sort_values_answer])
def test_an_unstable_sort_is_rejected_and_named(answer, capsys) -> None:
    assert not check_parity_next_pair(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "not stable" in hint and "kind=" in hint, hint
    assert "when two tie you kept" not in hint, hint


# ---- lesson 15, group_digits: hints that named int() for answers that never call it -----------------------

from bpelab.exercises.fair_comparisons import check_bits_per_byte, check_group_digits  # noqa: E402


def shown_group_digits(digits: str) -> list[str]:  # lesson 15's solution, cell 23
    first = len(digits) % 3 or 3
    groups = [digits[:first]] if digits else []
    return groups + [digits[i : i + 3] for i in range(first, len(digits), 3)]


def padded_then_zero_kept(digits: str) -> list[str]:
    padded = "0" * (-len(digits) % 3) + digits
    groups = [padded[i : i + 3] for i in range(0, len(padded), 3)]
    if groups:
        groups[0] = groups[0].lstrip("0") or "0"
    return groups


def first_group_stripped(digits: str) -> list[str]:
    groups = shown_group_digits(digits)
    if groups:
        groups[0] = groups[0].lstrip("0")
    return groups


def numpy_strings(digits: str) -> list:
    return list(np.array(shown_group_digits(digits), dtype=str))


def test_the_shown_group_digits_passes() -> None:
    assert check_group_digits(shown_group_digits, record=False).passed


@pytest.mark.parametrize("answer", [padded_then_zero_kept, first_group_stripped])
def test_zeros_stripped_off_the_first_group_are_named(answer, capsys) -> None:
    # by hand: '07700' is cut 07 | 700; lstrip('0') on the first group leaves '7'
    assert answer("07700") == ["7", "700"]
    assert not check_group_digits(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "first group" in hint and "lstrip" in hint and "int()" not in hint, hint


def test_numpy_strings_are_named(capsys) -> None:
    assert numpy_strings("1234567") == ["1", "234", "567"]  # the right values, of type numpy.str_
    assert not check_group_digits(numpy_strings, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "numpy.str_" in hint and "int()" not in hint, hint


# ---- lesson 15, bits_per_byte: floor division -----------------------------------------------------------------


def floor_divided(probabilities, text):
    import math

    return -sum(math.log2(p) for p in probabilities) // len(text.encode("utf-8"))


def test_floor_division_is_named(capsys) -> None:
    assert not check_bits_per_byte(floor_divided, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "//" in hint and "floor" in hint, hint
