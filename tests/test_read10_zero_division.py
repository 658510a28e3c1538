"""Read 10 of lessons 14-15: a division by zero is blamed on an empty input only when an input is empty or adds up
to 0; a Gini coefficient divided by the median crashes on [0, 0, 0, 12] (median 0, total 12)."""

from __future__ import annotations

import statistics

from bpelab.exercises.diagnosers import empty_input_error
from bpelab.exercises.parity import check_gini


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def gini_over_the_median(values):
    n = len(values)
    if n == 0:
        return 0.0
    spread = sum(abs(a - b) for a in values for b in values)
    return spread / (2 * n * n * statistics.median(values))


def test_a_divisor_of_zero_on_an_input_that_is_not_empty_is_not_called_an_empty_input(capsys):
    assert not check_gini(gini_over_the_median, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "empty input" not in hint and "neither empty nor all zeros" in hint, hint


def test_an_empty_input_or_a_zero_total_is_still_named():
    error = ZeroDivisionError("division by zero")
    for args in [([],), ({},), ([0, 0, 0],), ({"a": 0},), (0,), ("",)]:
        assert "an empty input (or a total of 0)" in (empty_input_error(error, args) or ""), args
    assert "neither empty" in (empty_input_error(error, ([0, 0, 0, 12],)) or "")


def test_an_index_into_an_empty_input_is_named():
    """Read 11 of lesson 16: `symbols[0]` on next_merge([], {}) got only the exercise's general hint."""
    from bpelab.exercises.sentencepiece import check_next_merge

    def first_then_scan(symbols, scores):
        best, first = None, symbols[0]
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best if first is not None else None

    error = IndexError("list index out of range")
    assert "empty input" in (empty_input_error(error, ([], {})) or "")
    assert empty_input_error(error, (["a", "b"], {"ab": 1.0})) is None
    assert not check_next_merge(first_then_scan, record=False).passed
