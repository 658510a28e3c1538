"""The tenth fresh read of lessons 14 and 15 (fixU): answers that look at only the first values, or multiply the
probabilities in chunks, passed checkers whose longest cases were 20 values and 400 probabilities; and the cells
and prose the read found out of step."""

from __future__ import annotations

import math
from typing import Any

import nbformat
import pytest

from bpelab.exercises.fair_comparisons import BITS_PER_BYTE, check_bits_per_byte
from bpelab.exercises.parity import GINI, check_gini

LESSON_14 = "notebooks/14_fairer_merges_bigger_tokens.ipynb"
LESSON_15 = "notebooks/15_numbers_glitches_fair_comparisons.ipynb"


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _shown_solution(path: str, cell_id: str, name: str) -> Any:
    """The function the lesson's "Show a solution" cell ``cell_id`` defines, run as a learner would paste it."""
    cell = next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)
    namespace: dict = {}
    exec(cell.source.split("```python\n")[1].split("```")[0], namespace)
    return namespace[name]


def _lesson_gini(values):
    return _shown_solution(LESSON_14, "bb6b346e", "gini")(values)


# ---- gini: the first 20 values only -----------------------------------------------------------------------


def test_the_lesson_s_gini_passes() -> None:
    assert check_gini(_shown_solution(LESSON_14, "bb6b346e", "gini"), record=False).passed


def test_a_case_longer_than_20_values() -> None:
    assert max(len(case.args[0]) for case in GINI.build_cases()) > 100


@pytest.mark.parametrize("first", [20, 100])
def test_a_gini_of_the_first_values_only_is_rejected_and_named(first: int, capsys) -> None:
    def gini(values):
        return _lesson_gini(values[:first])

    assert not check_gini(gini, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert f"first {first} values" in hint and "every value" in hint, hint


# ---- bits_per_byte: the first 1,000 probabilities only, or a product taken in chunks ------------------------


def _right(probabilities, text):
    return -sum(math.log2(p) for p in probabilities) / len(text.encode("utf-8"))


def test_the_lesson_s_bits_per_byte_passes() -> None:
    assert check_bits_per_byte(_shown_solution(LESSON_15, "c61936d5", "bits_per_byte"), record=False).passed


def test_a_case_of_a_real_length_with_small_probabilities() -> None:
    longest = max(BITS_PER_BYTE.build_cases(), key=lambda case: len(case.args[0]))
    probabilities, text = longest.args
    assert len(probabilities) >= 5000 and len(text.encode("utf-8")) > len(probabilities)
    assert min(probabilities) <= 1e-4 and max(probabilities) <= 1.0


@pytest.mark.parametrize("first", [1000, 4000])
def test_bits_of_the_first_probabilities_only_are_rejected_and_named(first: int, capsys) -> None:
    def bits_per_byte(probabilities, text):
        return _right(probabilities[:first], text)

    assert not check_bits_per_byte(bits_per_byte, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert f"first {first:,} probabilities" in hint and "every" in hint, hint


def _chunks(size: int, log2: Any) -> Any:
    def bits_per_byte(probabilities, text):
        products = [math.prod(probabilities[i : i + size]) for i in range(0, len(probabilities), size)]
        return -sum(float(log2(p)) for p in products) / len(text.encode("utf-8"))

    return bits_per_byte


@pytest.mark.parametrize("log2", ["math", "numpy"])
def test_a_product_taken_in_chunks_of_100_is_rejected_and_named(log2: str, capsys) -> None:
    if log2 == "numpy":
        np = pytest.importorskip("numpy")
        answer = _chunks(100, lambda p: np.log2(np.float64(p)))
    else:
        answer = _chunks(100, math.log2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("warnings.showwarning", lambda *a, **k: None)
        assert not check_bits_per_byte(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "chunks" in hint and "1e-400" in hint and "rounds to 0.0" in hint, hint


def test_a_product_of_all_the_probabilities_keeps_its_hint(capsys) -> None:
    def bits_per_byte(probabilities, text):
        return -math.log2(math.prod(probabilities)) / len(text.encode("utf-8"))

    assert not check_bits_per_byte(bits_per_byte, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "300 tokens at 1/16" in hint, hint


# ---- the lessons --------------------------------------------------------------------------------------------


def _cell(path: str, cell_id: str) -> Any:
    return next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)


def test_lesson_14_says_the_turn_passes_when_the_worst_off_has_no_pair_seen_twice() -> None:
    """Cell 18 prints that 602 of the 1,000 merges went to a language that was not the worst off."""
    prose = _cell(LESSON_14, "c14b0002").source
    assert "the worst-off language\nalone" not in prose
    assert "still has a pair seen at least\ntwice" in prose and "passes to the next worst" in prose


def test_lesson_14_transition_plot_draws_its_two_series_with_different_markers_and_sizes() -> None:
    source = _cell(LESSON_14, "fd529fa8").source
    assert '[("o", 10), ("D", 5)]' in source and "markersize=size" in source


def test_lesson_15_cell_that_loads_o200k_for_its_table_lets_it_go() -> None:
    """The first cell's comment says each cell lets the vocabularies it loads go."""
    source = _cell(LESSON_15, "7125744f").source
    assert source.rstrip().splitlines()[-1].startswith("del o200k")
