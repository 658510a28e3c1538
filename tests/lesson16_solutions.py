"""Lesson 16's "Show a solution" cells, run as a learner would paste them, and the hint line of a report: shared by
the tests of the fresh reads' findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

LESSON = Path(__file__).parent.parent / "notebooks" / "16_sentencepiece_from_scratch.ipynb"


def hint(out: str) -> str:
    """The report's ``hint:`` line (a check prints one when it can name the mistake)."""
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def shown_solution(cell_id: str, name: str) -> Any:
    """The function the lesson's solution cell ``cell_id`` defines as ``name``."""
    cell = next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id)
    code = cell.source.split("```python\n")[1].split("```")[0]
    namespace: dict = {}
    exec(code, namespace)
    return namespace[name]
