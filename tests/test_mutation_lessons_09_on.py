"""Every checker of lessons 09 onward proven strict by mutation (see ``tests/mutation``): each single-point mutant of the
solution a lesson shows is rejected by the checker, or answers as the reference does on generated inputs."""

from __future__ import annotations

import pytest

from tests.mutation.harness import (  # noqa: F401 (patient_clock and vocabularies_held are fixtures)
    assert_strict,
    patient_clock,
    shown_in,
    vocabularies_held,
)


@pytest.mark.slow
@pytest.mark.usefixtures("patient_clock", "vocabularies_held")
@pytest.mark.parametrize("shown", shown_in("09", "99"))
def test_the_checker_rejects_every_mutant_that_answers_differently(shown):
    assert_strict(shown)
