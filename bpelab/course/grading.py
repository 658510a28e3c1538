"""What an assignment's graded test runs: one of the course's own checkers, silently, on a chosen part of its cases.

The notebooks that ``make assignments`` writes (``bpelab.course.assignments``) grade each exercise with the checker
its lesson calls, never with a second copy of its cases. A checker's cases are of two kinds: those whose answer is
written in the checker (small, hand-checked: the learner meets them while working) and those whose answer the
course's reference computes (the larger ones: a paragraph of English, 150 made-up words). ``written`` and
``computed`` pick one kind, so that an assignment can show the first as its visible test and keep the second as
its hidden test; ``all`` runs every case, as the lesson's check does.

    assert_passes(check_count_pairs, count_pairs, cases="written")

A pass is silent and ticks nothing on the course map (the grader's machine is not the learner's); a failure
raises ``AssertionError`` whose text is the checker's own report, which nbgrader's and Otter's feedback show.
"""

from __future__ import annotations

import contextlib
import io
import types
from collections.abc import Callable, Iterator
from typing import Any, Literal
from unittest import mock

from bpelab.exercises.cases import COMPUTED
from bpelab.exercises.core import EXERCISES, Exercise
from bpelab.exercises.results import CheckResult

Cases = Literal["all", "written", "computed"]
CASES: tuple[Cases, ...] = ("all", "written", "computed")


def _kind_matches(expected: Any, cases: Cases) -> bool:
    return cases == "all" or (expected is COMPUTED) == (cases == "computed")


@contextlib.contextmanager
def only_cases(cases: Cases) -> Iterator[None]:
    """Within the block, every exercise builds only the cases of that kind (answers filled in as usual)."""
    if cases not in CASES:
        raise ValueError(f"cases must be one of {', '.join(CASES)}; got {cases!r}")
    if cases == "all":
        yield
        return
    build = Exercise.build_cases

    def chosen(exercise: Exercise) -> list:
        listed = exercise.cases() if callable(exercise.cases) else exercise.cases
        keep = [case for case in listed if _kind_matches(case.expected, cases)]
        return build(types.SimpleNamespace(cases=keep, reference=exercise.reference))  # type: ignore[arg-type]

    with mock.patch.object(Exercise, "build_cases", chosen):
        yield


def count_cases(checker: str) -> tuple[int, int]:
    """How many written and computed cases the exercises behind ``checker`` (``"check_count_pairs"``) hold;
    (0, 0) when no exercise names that checker (a checker of several parts, or of a text rather than a function)."""
    written = computed = 0
    for name, exercise in EXERCISES.items():
        if (exercise.checker or f"check_{name}") != checker:
            continue
        listed = exercise.cases() if callable(exercise.cases) else exercise.cases
        computed += sum(case.expected is COMPUTED for case in listed)
        written += sum(case.expected is not COMPUTED for case in listed)
    return written, computed


def assert_passes(check: Callable[..., CheckResult], *args: Any, cases: Cases = "all", **kwargs: Any) -> None:
    """Run ``check(*args, **kwargs)`` on ``cases`` without printing or recording; raise with its report if it fails."""
    with only_cases(cases), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        result = check(*args, record=False, **kwargs)
    if not result.passed:
        where = {"all": "", "written": " (the cases the lesson shows)", "computed": " (the larger, hidden cases)"}
        raise AssertionError(f"{result.name}: not passed{where[cases]}\n{result.message}")
