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
    env = os.environ | {"NPY_DISABLE_CPU_FEATURES": disabled}  # names of numpy 2.4; an older numpy may refuse them
    run = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True)
    if run.returncode and "NPY_DISABLE_CPU_FEATURES" in run.stderr:
        pytest.skip(f"this numpy cannot disable {disabled}")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() and set(run.stdout.split()) == {"True"}, run.stdout


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


@pytest.mark.filterwarnings("error::FutureWarning")  # no numpy warning reaches the learner
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


# ---- lesson 15: the EXAMPLES table takes a lone surrogate; the bigram's first token -------------------------------

LESSON_15 = "notebooks/15_numbers_glitches_fair_comparisons.ipynb"


def test_the_examples_table_takes_a_lone_surrogate() -> None:
    import nbformat

    from bpelab.digit_rules import DIGIT_RULES, pattern_with_digits
    from bpelab.patterns import split_text

    (cell,) = [c.source for c in nbformat.read(LESSON_15, as_version=4).cells if "EXAMPLES = [" in c.source]
    cell = cell.replace("EXAMPLES = [", 'EXAMPLES = ["\\ud800", "x \\ud800 1234", ', 1)
    space = {"pd": pd, "split_text": split_text, "pattern_with_digits": pattern_with_digits, "DIGIT_RULES": DIGIT_RULES}
    exec(compile(cell, "cell", "exec"), space)  # raised UnicodeEncodeError when the cell encoded each piece
    table = space["pd"].DataFrame(
        {
            rule: [
                " | ".join(space["shown_text"](p) for p in split_text(x, pattern_with_digits(rule)))
                for x in space["EXAMPLES"]
            ]
            for rule in DIGIT_RULES
        }
    )
    assert set(table.iloc[0]) == {"'\\ud800'"}  # the lone surrogate alone: one piece, as the lesson says
    assert all(cell_text.startswith("x | ' \\ud800' | ") for cell_text in table.iloc[1])


def test_the_bigram_scores_its_first_token_with_the_unigram_at_k_1() -> None:
    from bpelab.analysis.bits_per_byte import bigram_bits, unigram_bits

    train, vocab_size = [1, 2, 1, 2, 3], 4
    # by hand: token 3 seen once in 5, add-1 over 4 tokens: (1 + 1) / (5 + 4)
    assert unigram_bits(train, [3], vocab_size) == pytest.approx(-np.log2(2 / 9))
    for k in (0.01, 0.1, 1.0):
        assert bigram_bits(train, [3], vocab_size, k=k) == pytest.approx(-np.log2(2 / 9))
