"""Otter round trip of ``make assignments``: otter assign, then otter run on three learners' notebooks.

The learner who writes the solutions the lesson shows gets full marks, the blank notebook none, and a wrong answer
the mutation test rejects less than full marks (the other exercise, right, still counts).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpelab.course import assignments
from tests.assignment_answers import LESSON, hand_in

pytest.importorskip("otter", reason="otter-grader is in the teach extra (requirements-test.txt installs it)")

pytestmark = pytest.mark.slow

EXERCISES = 2
"""Lesson 03's exercises, a point each (Otter shares a question's point between its visible and hidden test)."""


def _otter(cwd: Path, *args: str) -> None:
    env = {**os.environ, "BPELAB_PROGRESS_FILE": ""}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    run = subprocess.run(
        [str(Path(sys.executable).parent / "otter"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"otter {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"


def test_otter_gives_the_solutions_full_marks_the_blank_none_and_a_mutant_less(tmp_path):
    assignments.write(tmp_path, [LESSON[:2]])
    folder = tmp_path / "otter"
    # --no-run-tests: Otter would grade its own solution notebook once more; the "solution" learner below does that
    _otter(folder, "assign", "--no-run-tests", f"{LESSON}.ipynb", "dist")
    released = folder / "dist" / "student" / f"{LESSON}.ipynb"
    assert "cases='computed'" not in released.read_text(encoding="utf-8"), "the hidden cases were handed out"
    (autograder,) = (folder / "dist" / "autograder").glob("*.zip")

    def is_answer_cell(cell):
        return "otter_answer_cell" in cell.metadata.get("tags", [])

    results = {}
    for learner in ("solution", "blank", "mutant"):
        notebook = tmp_path / learner / f"{LESSON}.ipynb"
        hand_in(released, learner, notebook, is_answer_cell)
        _otter(notebook.parent, "run", "--no-logo", "-a", str(autograder), "-o", ".", notebook.name)
        tests = json.loads((notebook.parent / "results.json").read_text(encoding="utf-8"))["tests"]
        results[learner] = {test["name"]: test for test in tests if "score" in test}
    scores = {learner: sum(test["score"] for test in graded.values()) for learner, graded in results.items()}
    assert {
        learner: sum(t["max_score"] for t in graded.values()) for learner, graded in results.items()
    } == dict.fromkeys(results, EXERCISES)
    assert scores == {"solution": EXERCISES, "blank": 0, "mutant": EXERCISES - 1}
    assert results["mutant"]["count_pairs"]["score"] == 0
    assert "❌ count_pairs: check" in results["mutant"]["count_pairs"]["output"], "the checker's report is the feedback"
