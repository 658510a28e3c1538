"""Every checker of lessons 00–05 proven strict by mutation (see ``tests/mutation``): each single-point mutant of the
solution a lesson shows is rejected by the checker, or answers as the reference does on generated inputs.

One test per exercise, so that a report names the exercise; the lessons are spread over three files so that
``pytest -n 2 --dist loadfile`` runs them side by side.
"""

from __future__ import annotations

import pytest

from tests.mutation.harness import assert_strict
from tests.mutation.shown import SHOWN


@pytest.fixture(autouse=True)
def patient_clock(monkeypatch):
    """The line counter stops a looping mutant in the same number of steps on any machine; on a machine as busy as
    a shared CI runner the five-second clock could stop the shown solution itself first."""
    from bpelab.exercises import runaway

    monkeypatch.setattr(runaway, "MAX_SECONDS", 30.0)


LESSONS = [shown for shown in SHOWN if "00" <= shown.notebook[:2] <= "05"]


@pytest.mark.slow
@pytest.mark.parametrize("shown", LESSONS, ids=[f"{shown.notebook[:2]}-{shown.name}" for shown in LESSONS])
def test_the_checker_rejects_every_mutant_that_answers_differently(shown):
    assert_strict(shown)
