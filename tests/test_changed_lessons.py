"""``make html`` names the lessons that differ from the committed ones, and how to restore them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bpelab.course.changed_lessons import changed_notebooks, report
from tests.test_lab_settings import recipe_lines

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.org")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "notebooks").mkdir()
    for name in ("04_merging.ipynb", "05_encoding.ipynb", "TEACHING.md"):
        (tmp_path / "notebooks" / name).write_text("{}", encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "lessons")
    return tmp_path


def test_clean_clone_has_nothing_to_say(repo: Path) -> None:
    assert changed_notebooks(repo) == []
    assert report([]) == ""


def test_a_saved_lesson_and_a_new_notebook_are_named_with_the_way_back(repo: Path) -> None:
    (repo / "notebooks" / "05_encoding.ipynb").write_text('{"cells": []}', encoding="utf-8")
    (repo / "notebooks" / "Untitled.ipynb").write_text("{}", encoding="utf-8")
    (repo / "notebooks" / "TEACHING.md").write_text("changed", encoding="utf-8")  # not a notebook
    paths = changed_notebooks(repo)
    assert paths == ["notebooks/05_encoding.ipynb", "notebooks/Untitled.ipynb"]
    text = report(paths)
    assert "git checkout -- notebooks/05_encoding.ipynb" in text
    assert 'make lessons ONLY="05"' in text


def test_outside_a_clone_it_stays_silent(tmp_path: Path) -> None:
    assert changed_notebooks(tmp_path) is None


def test_make_html_reports_before_exporting() -> None:
    lines = recipe_lines("html")
    check = next(i for i, line in enumerate(lines) if "bpelab.course.changed_lessons" in line)
    assert check < next(i for i, line in enumerate(lines) if "bpelab.course.html_export" in line)
