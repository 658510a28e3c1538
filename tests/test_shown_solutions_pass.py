"""Every solution a lesson shows passes its checker: each checker's right path, in whatever environment runs it.

The mutation tests (``tests/test_mutation_lessons_*.py``) start from the same fact and go on to every mutant; they
are slow, and ``make test-compat`` leaves them out with the other tests of a checker's strictness. This file is what
it keeps: at the lowest versions ``pyproject.toml`` allows, a checker that computes its cases with a library
feature those versions lack fails here, where a learner's right answer would otherwise meet a crash.
"""

from __future__ import annotations

import pytest

from tests.mutation.shown import SHOWN


@pytest.mark.parametrize("shown", SHOWN, ids=lambda shown: f"{shown.notebook[:2]}-{shown.name}")
def test_the_solution_the_lesson_shows_passes_its_checker(shown):
    result = shown.run_check(shown.build(shown.source()))
    assert result.passed, f"{shown.notebook} {shown.cell}: the shown solution fails its checker:\n{result.message}"
