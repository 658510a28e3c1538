"""The engine: a float where the reference gives an int is a wrong answer, and the hint names the type.

``2.0 == 2`` in Python, so a count made with ``/`` used to pass; it is wrong as soon as a division is not exact.
"""

from __future__ import annotations

import pytest

from bpelab.exercises import EXERCISES, check_count_pairs
from bpelab.exercises.comparing import first_float_for_int, same
from bpelab.exercises.core import Case, Exercise


def count_pairs_in_floats(word_freq):
    """A learner's count_pairs, right in every count, each count a float (``n / 1``: a mean gone wrong)."""
    counts = {}
    for word, n in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n / 1
    return counts


def count_pairs_in_ints(word_freq):
    counts = {}
    for word, n in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + n
    return counts


def test_same_tells_a_float_from_an_int_only_where_an_int_is_expected():
    assert not same(2.0, 2)
    assert not same({"a": 2.0}, {"a": 2}) and not same([1, 2.0], [1, 2])
    assert same(2, 2.0) and same(0.1 + 0.2, 0.3)  # an int where a float is expected is fine; floats within 1e-9
    assert same(2.0, 2, loose_ints=True) and same({"a": [2.0]}, {"a": [2]}, loose_ints=True)
    assert not same(True, 1) and not same(1.0, True)
    assert first_float_for_int({"a": [1, 2.0]}, {"a": [1, 2]}) == (2.0, 2)
    assert first_float_for_int([1.5], [1.5]) is None


def test_float_counts_are_rejected_and_the_type_named(capsys):
    assert check_count_pairs(count_pairs_in_ints, record=False)
    capsys.readouterr()
    assert not check_count_pairs(count_pairs_in_floats, record=False)
    report = capsys.readouterr().out
    hint = report.split("hint:", 1)[1]
    assert "the values are right" in hint and "1.0 is a float where an int is expected" in hint, report
    assert "//" in hint, report


@pytest.fixture
def halves():
    exercise = Exercise(
        name="halves_demo",
        call="halves(n)",
        reference=lambda n: n // 2,
        cases=[Case((4,), 2), Case((5,), 2)],
    )
    yield exercise
    del EXERCISES["halves_demo"]


def test_a_float_returned_where_an_int_belongs_is_named_with_its_value(halves):
    result = halves.run(lambda n: n / 2, record=False)
    assert not result.passed and result.failed_case == 1, result.message
    assert "returned a float (2.0), expected an int (like 2)" in result.message, result.message
    assert halves.run(lambda n: n >> 1, record=False).passed
