"""What learners hand in for the round trips of ``make assignments``: a released lesson with their answers typed in.

Three learners: one writes the solutions the lesson shows, one hands the notebook in blank, one makes a mistake
the mutation test knows (the first mutant of lesson 03's ``count_pairs`` that its checker rejects) and gets the
other exercise right.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat

from tests.mutation.mutator import mutants
from tests.mutation.shown import SHOWN, Shown, solution_blocks

LESSON = "03_counting_pairs"
"""The lesson the round trips grade: two exercises, and a Run All of a few seconds."""


def _defined(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    names |= {
        t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)
    }
    return names


def rejected_mutant(shown: Shown) -> str:
    """The first single-point mutant of a shown solution that its checker rejects."""
    for mutant in mutants(shown.source()):
        try:
            namespace = shown.build(mutant.source)
        except Exception:
            continue
        if not shown.run_check(namespace).passed:
            return mutant.source
    raise AssertionError(f"{shown.name}: the checker rejects no mutant")


def answers(kind: str) -> dict[str, str]:
    """Each exercise's answer cell by the names it defines: ``solution``, ``blank`` (nothing typed) or ``mutant``."""
    if kind == "blank":
        return {}
    blocks = solution_blocks(f"{LESSON}.ipynb")
    if kind == "mutant":
        shown = next(s for s in SHOWN if s.notebook == f"{LESSON}.ipynb" and s.name == "count_pairs")
        blocks[shown.cell] = rejected_mutant(shown)
    return dict(blocks)


def hand_in(released: Path, kind: str, to: Path, is_answer_cell: Callable[[Any], bool]) -> None:
    """Write ``released`` with the answers of ``kind`` typed into its answer cells (``is_answer_cell(cell)``)."""
    notebook = nbformat.read(released, as_version=4)
    for source in answers(kind).values():
        names = _defined(source)
        cell = next(c for c in notebook.cells if is_answer_cell(c) and _defined(c.source) & names)
        cell.source = source
    to.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, to)
