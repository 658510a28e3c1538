"""Every checker of lessons 06–08 proven strict by mutation (see ``tests/mutation``): each single-point mutant of the
solution a lesson shows is rejected by the checker, or answers as the reference does on generated inputs."""

from __future__ import annotations

import pytest

from tests.mutation.harness import assert_strict, patient_clock, shown_in  # noqa: F401 (patient_clock is a fixture)


@pytest.mark.slow
@pytest.mark.usefixtures("patient_clock")
@pytest.mark.parametrize("shown", shown_in("06", "08"))
def test_the_checker_rejects_every_mutant_that_answers_differently(shown):
    assert_strict(shown)
