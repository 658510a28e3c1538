"""Lesson 16's checkers proven strict by mutation (see ``tests/mutation``): each single-point mutant of the solution
the lesson shows is rejected by the checker, or answers as the reference does on generated inputs."""

from __future__ import annotations

import pytest

from tests.mutation.harness import assert_strict
from tests.mutation.shown import SHOWN


@pytest.fixture(autouse=True)
def patient_clock(monkeypatch):
    """As in the other lessons' files: a busy machine must not stop the shown solution itself."""
    from bpelab.exercises import runaway

    monkeypatch.setattr(runaway, "MAX_SECONDS", 30.0)


LESSONS = [shown for shown in SHOWN if shown.notebook[:2] == "16"]


@pytest.mark.slow
@pytest.mark.parametrize("shown", LESSONS, ids=[f"{shown.notebook[:2]}-{shown.name}" for shown in LESSONS])
def test_the_checker_rejects_every_mutant_that_answers_differently(shown):
    assert_strict(shown)
