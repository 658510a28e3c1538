"""The course map: a passing check is recorded, a failing one is not, and nothing breaks when the file cannot be written."""

from __future__ import annotations

import json
import os
import re
import tempfile

import nbformat
import pytest

import bpelab.exercises as exercises
from bpelab.course import progress
from bpelab.course.course_map import LESSONS, course_map, course_map_html
from bpelab.course.lessons import lesson_paths
from bpelab.exercises.warmup import check_count_characters


def count_characters(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def count_characters_wrong(text):
    return {ch: 1 for ch in text}


@pytest.fixture
def progress_file(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("BPELAB_PROGRESS_FILE", str(path))
    return path


def test_the_map_ticks_a_passed_exercise_and_not_a_failed_one(progress_file, capsys):
    assert not check_count_characters(count_characters_wrong)
    assert "count_characters" not in progress.passed_exercises()
    assert not progress_file.exists()
    assert check_count_characters(count_characters)
    assert progress.passed_exercises() == {"count_characters"}
    table = course_map()
    done = dict(zip(table["exercise"], table["done"]))
    assert done["check_count_characters"] and not done["check_count_pairs"]
    assert "✅ <code>check_count_characters</code>" in course_map_html()
    assert "⬜ <code>check_count_pairs</code>" in course_map_html()
    assert json.loads(progress_file.read_text(encoding="utf-8"))["passed"] == ["count_characters"]


def test_a_stub_is_not_recorded(progress_file, capsys):
    def count_characters(text): ...

    assert check_count_characters(count_characters).status == "not yet"
    assert progress.passed_exercises() == set()


def test_reset_forgets_every_pass(progress_file, capsys):
    check_count_characters(count_characters)
    assert progress.reset_progress() == progress_file
    assert progress.passed_exercises() == set() and not progress_file.exists()
    assert progress.reset_progress() == progress_file  # resetting twice is fine


def test_the_default_file_is_in_the_users_cache_folder_not_the_repository(monkeypatch, tmp_path):
    monkeypatch.delenv("BPELAB_PROGRESS_FILE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("sys.platform", "linux")
    assert progress.progress_file() == tmp_path / "cache" / "bpelab" / "progress.json"


def test_an_empty_setting_records_nothing(monkeypatch, capsys):
    monkeypatch.setenv("BPELAB_PROGRESS_FILE", "")
    assert check_count_characters(count_characters)
    assert progress.passed_exercises() == set() and progress.reset_progress() is None


def test_a_home_that_cannot_be_written_never_fails_a_check(monkeypatch, tmp_path, capsys):
    """The home folder is a file (nothing can be made inside it), then every write is refused as on a read-only disk."""
    monkeypatch.delenv("BPELAB_PROGRESS_FILE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    home = tmp_path / "home"
    home.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    result = check_count_characters(count_characters)
    assert result.passed and result.status == "passed"
    assert progress.passed_exercises() == set()

    monkeypatch.setenv("BPELAB_PROGRESS_FILE", str(tmp_path / "ro" / "progress.json"))

    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    monkeypatch.setattr(os, "replace", read_only)
    assert check_count_characters(count_characters).passed
    assert "✅ count_characters" in capsys.readouterr().out
    assert not (tmp_path / "ro" / "progress.json").exists()


def test_a_damaged_file_counts_as_empty_and_is_rewritten(progress_file, capsys):
    progress_file.write_text("{not json", encoding="utf-8")
    assert progress.passed_exercises() == set()
    check_count_characters(count_characters)
    assert progress.passed_exercises() == {"count_characters"}


def test_the_map_lists_every_lessons_checkers_as_the_notebooks_call_them():
    called: dict[str, set[str]] = {}
    for path in lesson_paths():
        notebook = nbformat.read(path, as_version=4)
        code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
        called[path.name[:2]] = set(re.findall(r"\b(check_\w+)\(", code)) - {"check_environment"}
    listed = {lesson.number: {checker for checker, _ in lesson.checkers} for lesson in LESSONS}
    assert listed == called


def test_the_map_records_each_checker_under_the_name_its_result_carries(capsys):
    """Each checker asked about None (not a function) fails, and its result names the exercise."""
    for lesson in LESSONS:
        for checker, recorded in lesson.checkers:
            if checker == "check_smallest_vocab_size":  # it takes the tokenizer and text too
                continue
            assert getattr(exercises, checker)(None).name == recorded, checker


def test_the_readme_lists_the_same_exercises_as_the_map():
    from bpelab.paths import REPO_ROOT

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exercises and your course map", 1)[1].split("\n## ", 1)[0]
    listed = {
        row[0]: set(re.findall(r"`(check_\w+)`", row[2]))
        for row in (line.strip("|").split("|") for line in section.splitlines() if re.match(r"\| \d\d \|", line))
    }
    assert {k.strip(): v for k, v in listed.items()} == {
        lesson.number: {checker for checker, _ in lesson.checkers} for lesson in LESSONS
    }


def test_every_lesson_on_the_map_has_a_notebook_and_a_page_on_the_static_site():
    from bpelab.course import html_export

    pages = {path.name[:2]: html_export.page_name(path) for path in html_export.lesson_paths()}
    assert sorted(pages) == [lesson.number for lesson in LESSONS]
    assert pages["13"] == "13_your_tokenizer_for_real.html"
    index = html_export.index_markdown(
        [
            (html_export.page_name(p), html_export.title_of(nbformat.read(p, as_version=4), p.stem))
            for p in html_export.lesson_paths()
        ],
        guide=True,
    )
    assert "13_your_tokenizer_for_real.html" in index and "Your tokenizer, for real" in index
