"""The course map: a passing check is recorded, a failing one is not, and nothing breaks when the file cannot be written."""

from __future__ import annotations

import json
import os
import re
import tempfile

import nbformat
import pytest

import bpelab
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


def test_a_damaged_file_is_kept_aside_and_the_learner_told_once(progress_file, capsys):
    progress_file.write_text('{"format": "bpelab-progress v1", "passed": ["count_pairs", "merge_pa', encoding="utf-8")
    assert progress.passed_exercises() == set()
    assert "is damaged (not valid JSON)" in course_map_html()  # the map says why it looks empty
    assert check_count_characters(count_characters)
    told = capsys.readouterr().err
    kept = progress_file.with_name("progress.json.damaged")
    assert told.count("progress file was damaged (not valid JSON)") == 1 and str(kept) in told
    assert kept.read_text(encoding="utf-8").endswith('"merge_pa')  # the learner's file, untouched
    assert progress.passed_exercises() == {"count_characters"}
    assert "damaged" not in course_map_html()
    # told once: the next passes find a sound file and say nothing more
    assert check_count_characters(count_characters)
    assert exercises.check_count_pairs(_count_pairs)
    assert capsys.readouterr().err == ""
    assert progress.passed_exercises() == {"count_characters", "count_pairs"}


@pytest.mark.parametrize(
    "content", ['{"passed": "count_pairs"}', "[1, 2]", '{"passed": [1]}', "", "\udcff".encode("utf-8", "surrogatepass")]
)
def test_every_kind_of_damage_is_kept_aside(progress_file, capsys, content):
    if isinstance(content, bytes):
        progress_file.write_bytes(b"\xff\xfe{")
    else:
        progress_file.write_text(content, encoding="utf-8")
    assert check_count_characters(count_characters)
    assert "progress file was damaged" in capsys.readouterr().err
    assert progress_file.with_name("progress.json.damaged").exists()
    assert progress.passed_exercises() == {"count_characters"}


def _count_pairs(word_freq):
    pairs = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    return pairs


def _pass_at_once(path: str, name: str, start) -> None:
    os.environ["BPELAB_PROGRESS_FILE"] = path
    start.wait()
    assert progress.record_pass(name)


def test_eight_processes_passing_at_once_are_all_kept(tmp_path):
    """Eight notebooks (or a classroom server's workers) passing eight exercises at the same moment, five times."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    names = [f"exercise_{i}" for i in range(8)]
    for attempt in range(5):
        path = tmp_path / f"progress-{attempt}.json"
        start = context.Barrier(len(names))
        workers = [context.Process(target=_pass_at_once, args=(str(path), name, start)) for name in names]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        assert [worker.exitcode for worker in workers] == [0] * len(names)
        assert json.loads(path.read_text(encoding="utf-8"))["passed"] == names, f"attempt {attempt + 1}"


def test_a_demonstration_ticks_nothing(progress_file, capsys):
    """record=False: a lesson showing what a checker says about the course's own example."""
    assert check_count_characters(count_characters, record=False)
    assert exercises.check_tokens_saved(_tokens_saved, record=False)
    assert not progress_file.exists()
    assert exercises.check_tokens_saved(_tokens_saved)
    assert progress.passed_exercises() == {"tokens_saved"}


def _tokens_saved(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def test_every_checker_can_be_told_not_to_record():
    import inspect

    for name in exercises.__all__:
        if name.startswith("check_"):
            parameter = inspect.signature(getattr(exercises, name)).parameters.get("record")
            assert parameter is not None and parameter.kind is parameter.KEYWORD_ONLY, name
            assert parameter.default is True, name


def test_no_lesson_ticks_an_exercise_the_learner_did_not_write():
    """Run All of a lesson as shipped: every checker call either checks the learner's stub, and its saved report
    says "not yet" or "failed", or is a demonstration on the course's own example, called with record=False.

    The saved reports are what nbval compares with a fresh run, so they are what Run All prints. (The root
    conftest.py also fails any lesson under nbval whose run leaves a pass in its own progress file.)"""
    problems = []
    for path in lesson_paths():
        notebook = nbformat.read(path, as_version=4)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code" or not re.search(r"\bcheck_(?!environment)\w+\(", cell.source):
                continue
            printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
            passes = re.findall(r"^✅ \w+:", printed, flags=re.M)
            demonstration = "record=False" in cell.source
            if passes and not demonstration:
                problems.append(f"{path.name} cell {index}: {passes} without record=False")
            if not passes and not demonstration and not re.search(r"^(⏳|❌) \w+:", printed, flags=re.M):
                problems.append(f"{path.name} cell {index}: a checker call whose saved report is neither ⏳ nor ❌")
    assert problems == []


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
