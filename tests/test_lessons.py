"""``make lessons``: a teacher re-runs a lesson in place, and an untouched lesson comes back byte for byte."""

from __future__ import annotations

import shutil
import subprocess
import sys

import nbformat
import pytest

from bpelab.course import lessons
from bpelab.paths import REPO_ROOT

LESSON_00 = "00_start_here.ipynb"


def test_make_lessons_runs_the_module_for_the_chosen_lessons():
    command = ["make", "--no-print-directory", "-n", "-C", str(REPO_ROOT), "lessons", "ONLY=04 07"]
    dry_run = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "-m bpelab.course.lessons 04 07" in dry_run.splitlines()[-1]


def test_lesson_paths_select_by_prefix_and_name_unknown_ones(tmp_path):
    for name in ("00_a.ipynb", "04_b.ipynb", "12_c.ipynb", "TEACHING.md"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert [p.name for p in lessons.lesson_paths(None, tmp_path)] == ["00_a.ipynb", "04_b.ipynb", "12_c.ipynb"]
    assert [p.name for p in lessons.lesson_paths(["04"], tmp_path)] == ["04_b.ipynb"]
    with pytest.raises(SystemExit, match="no lesson starts with 99; the lessons are 00, 04, 12"):
        lessons.lesson_paths(["99"], tmp_path)


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(SystemExit, match="no folder .*pass --folder"):
        lessons.main(["--folder", str(tmp_path / "absent")])


@pytest.mark.slow
def test_rerunning_an_untouched_lesson_changes_no_byte(tmp_path):
    """Lesson 00 copied to a temporary folder, run twice: the second run must give the first run's file exactly."""
    shutil.copy2(REPO_ROOT / "notebooks" / LESSON_00, tmp_path / LESSON_00)
    command = [sys.executable, "-m", "bpelab.course.lessons", "--folder", str(tmp_path), "00"]
    copies = []
    for _ in range(2):
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"running {LESSON_00} ... saved" in result.stdout
        copies.append((tmp_path / LESSON_00).read_bytes())
    assert copies[0] == copies[1]
    assert b'"language_info": {\n   "name": "python"\n  }' in copies[0], "no interpreter version is stored"


@pytest.mark.parametrize("path", sorted((REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.name[:2])
def test_every_lesson_is_stored_as_a_jupyter_server_writes_it(path):
    """JupyterLab's autosave writes through nbformat (keys sorted): a lesson stored in any other form changes
    its bytes when a learner merely opens it, and then `git status` and `make html` call it changed."""
    stored = path.read_text(encoding="utf-8")
    assert stored == nbformat.writes(nbformat.reads(stored, as_version=4)) + "\n", (
        f"{path.name} is not in nbformat's form: re-run it with make lessons ONLY={path.name[:2]}"
    )
