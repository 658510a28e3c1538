"""A lesson's "Show a solution" block, run as a learner would paste it: tests hold the checkers to the solution the
lesson shows, never to a copy retyped into the test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def lesson_path(lesson: str) -> Path:
    """The notebook of lesson ``lesson`` ("08"), found by its number."""
    (path,) = NOTEBOOKS.glob(f"{lesson}_*.ipynb")
    return path


def shown_solution(lesson: str | Path, cell_id: str, name: str, **given: Any) -> Any:
    """The function ``name`` that the first ```python block of cell ``cell_id`` defines; ``given`` holds what the
    block uses from cells before it (e.g. the learner's ``bytes_per_token``)."""
    path = lesson if isinstance(lesson, Path) else lesson_path(lesson)
    cell = next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)
    code = cell.source.split("```python\n")[1].split("```")[0]
    namespace: dict[str, Any] = dict(given)
    exec(code, namespace)
    return namespace[name]
