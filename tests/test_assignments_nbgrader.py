"""nbgrader round trip of ``make assignments``: generate_assignment, then autograde three learners' notebooks.

The learner who writes the solutions the lesson shows gets full marks, the blank notebook none, and a wrong answer
the mutation test rejects less than full marks (the other exercise, right, still counts).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bpelab.course import assignments
from tests.assignment_answers import LESSON, hand_in

pytest.importorskip("nbgrader", reason="nbgrader is in the teach extra (requirements-test.txt installs it)")

pytestmark = pytest.mark.slow

EXERCISES = 2
"""Lesson 03's exercises, a point each."""


def _nbgrader(course: Path, *args: str) -> str:
    env = {**os.environ, "BPELAB_PROGRESS_FILE": ""}  # nbgrader runs alembic from the venv's bin, found on PATH
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    run = subprocess.run(
        [str(Path(sys.executable).parent / "nbgrader"), *args],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}"
    return run.stdout + run.stderr


def test_nbgrader_gives_the_solutions_full_marks_the_blank_none_and_a_mutant_less(tmp_path):
    assignments.write(tmp_path, [LESSON[:2]])
    course = tmp_path / "nbgrader"
    _nbgrader(course, "generate_assignment", LESSON)
    released = course / "release" / LESSON / f"{LESSON}.ipynb"
    assert "BEGIN HIDDEN TESTS" not in released.read_text(encoding="utf-8")
    assert "cases='computed'" not in released.read_text(encoding="utf-8"), "the hidden cases were handed out"

    def is_answer_cell(cell):
        return cell.metadata.get("nbgrader", {}).get("solution", False)

    for learner in ("solution", "blank", "mutant"):
        hand_in(released, learner, course / "submitted" / learner / LESSON / f"{LESSON}.ipynb", is_answer_cell)
    _nbgrader(course, "autograde", LESSON)

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        submissions = {
            learner: gradebook.find_submission(LESSON, learner) for learner in ("solution", "blank", "mutant")
        }
        scores = {learner: (found.score, found.max_score) for learner, found in submissions.items()}
        wrong = [
            test
            for test in ("test_count_pairs", "test_most_frequent_pairs")
            if gradebook.find_grade(test, LESSON, LESSON, "mutant").score == 0
        ]
    assert scores["solution"] == (EXERCISES, EXERCISES)
    assert scores["blank"] == (0, EXERCISES)
    assert scores["mutant"] == (EXERCISES - 1, EXERCISES)
    assert wrong == ["test_count_pairs"]
    feedback = (course / "autograded" / "mutant" / LESSON / f"{LESSON}.ipynb").read_text(encoding="utf-8")
    assert "❌ count_pairs: check" in feedback, "the checker's report is the learner's feedback"
