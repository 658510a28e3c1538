"""Lesson 16's "Show a solution" cells, run as a learner would paste them, and the hint line of a report: shared by
the tests of the fresh reads' findings."""

from __future__ import annotations

from typing import Any

from tests.shown_solutions import lesson_path
from tests.shown_solutions import shown_solution as _from_lesson

LESSON = lesson_path("16")


def hint(out: str) -> str:
    """The report's ``hint:`` line (a check prints one when it can name the mistake)."""
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def shown_solution(cell_id: str, name: str) -> Any:
    """The function the lesson's solution cell ``cell_id`` defines as ``name``."""
    return _from_lesson(LESSON, cell_id, name)
