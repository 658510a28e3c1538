"""make test-compat never hangs: a stuck step is stopped at its limit and says where it was.

CI once stopped after 30 minutes in one lesson of one compatibility venv, with nothing said but a traceback
(the run's own time limit killed the lesson's runner, and the whole run with it). These tests hold the three
promises that replaced it: a step past its limit is ended and fails alone; a lesson's runner says which cell
each second of its run was spent in; a lesson stopped at its limit is named, and run once more.
"""

from __future__ import annotations

import fnmatch
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT / "tests" / "compat"))

import run_compat  # noqa: E402
import run_lesson  # noqa: E402


def test_a_command_past_its_limit_is_stopped_and_keeps_what_it_printed(tmp_path: Path) -> None:
    code = (
        "import sys, time; print('started', flush=True); print('working', file=sys.stderr, flush=True); time.sleep(60)"
    )
    started = time.monotonic()
    result = run_compat.run([sys.executable, "-c", code], {}, tmp_path, timeout=1.5)
    assert time.monotonic() - started < 20
    assert result.returncode == run_compat.STOPPED
    assert result.stdout.strip() == "started"
    assert "working" in result.stderr and "still running after 2 s" in result.stderr


def test_a_command_within_its_limit_gives_its_own_exit_code(tmp_path: Path) -> None:
    result = run_compat.run([sys.executable, "-c", "print('hi'); raise SystemExit(3)"], {}, tmp_path, timeout=60)
    assert (result.returncode, result.stdout.strip()) == (3, "hi")


def _lesson(path: Path, *sources: str) -> Path:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, path)
    return path


def test_a_stuck_cell_fails_its_lesson_and_the_log_names_the_cell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = _lesson(tmp_path / "99_stuck.ipynb", "x = 1", "import time\ntime.sleep(120)", "print('never')")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(run_lesson, "CELL_TIMEOUT_S", 3)
    assert run_lesson.main(lesson.name) == 1
    out, err = capsys.readouterr()
    assert out.startswith("FAIL 99_stuck.ipynb: CellTimeoutError")
    started = [line.split("] ", 1)[1] for line in err.splitlines() if "] cell " in line]
    assert started == ["cell 0: x = 1", "cell 1: import time"]  # the last one named is where it stuck


def test_a_lesson_stopped_at_its_limit_is_named_and_run_once_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run of ``01`` hangs, the second passes; ``02`` hangs every time. Both are named as timed out,
    with the cell the hang was in; only ``02`` fails the run."""
    source = tmp_path / "source"
    (source / "notebooks").mkdir(parents=True)
    (source / "tests" / "compat").mkdir(parents=True)
    for name in ("01_once.ipynb", "02_always.ipynb"):
        (source / "notebooks" / name).write_text("{}", encoding="utf-8")
    (source / "tests" / "compat" / "run_lesson.py").write_text(
        textwrap.dedent(
            """
            import sys, time
            from pathlib import Path
            name = sys.argv[1]
            print("[   0.1 s] cell 4: slow_cell()", file=sys.stderr, flush=True)
            marker = Path(name + ".tried")
            if name.startswith("02") or not marker.exists():
                marker.touch()
                time.sleep(60)
            print("ok   " + name + " (1 s)", flush=True)
            """
        ),
        encoding="utf-8",
    )
    monkeypatch.setattr(run_compat, "LESSON_TIMEOUT_S", 2)
    failures = run_compat.run_lessons(Path(sys.executable), {}, source, tmp_path / "lessons")
    assert len(failures) == 1
    assert failures[0].startswith("TIMED OUT 02_always.ipynb after 2 s, run again: FAIL 02_always.ipynb:")
    assert failures[0].count("cell 4: slow_cell()") == 2  # each run says where it was


def test_a_lesson_that_hung_once_and_then_passed_is_still_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "source"
    (source / "notebooks").mkdir(parents=True)
    (source / "tests" / "compat").mkdir(parents=True)
    (source / "notebooks" / "01_once.ipynb").write_text("{}", encoding="utf-8")
    (source / "tests" / "compat" / "run_lesson.py").write_text(
        "import sys, time\nfrom pathlib import Path\nm = Path('tried')\n"
        "if not m.exists():\n    m.touch()\n    time.sleep(60)\nprint('ok   ' + sys.argv[1] + ' (1 s)')\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(run_compat, "LESSON_TIMEOUT_S", 2)
    assert run_compat.run_lessons(Path(sys.executable), {}, source, tmp_path / "lessons") == []
    assert "TIMED OUT 01_once.ipynb after 2 s, run again: ok   01_once.ipynb (1 s)" in capsys.readouterr().out


def test_the_unit_tests_run_at_the_lowest_corner_or_in_the_one_environment_asked(monkeypatch) -> None:
    """Two runs of the unit tests no longer fitted CI's 90 minutes: every environment runs the lessons, and the
    unit tests run at Python 3.11 with the lowest versions, farthest from the pins (or where a run names one)."""
    calls: list[tuple[str, str, bool]] = []

    def recorded(version: str, resolution: str, workdir: Path, unit_tests: bool = True) -> list[str]:
        calls.append((version, resolution, unit_tests))
        return []

    monkeypatch.setattr(run_compat, "one_venv", recorded)
    assert run_compat.main([]) == 0
    assert calls == [
        ("3.11", "lowest-direct", True),
        ("3.13", "highest", False),
    ]
    calls.clear()
    assert run_compat.main(["3.13", "lowest-direct"]) == 0
    assert calls == [("3.13", "lowest-direct", True)]
    calls.clear()
    assert run_compat.main(["3.11", "highest"]) == 0  # left out by default, run when named
    assert calls == [("3.11", "highest", True)]
    calls.clear()
    assert run_compat.main(["3.13", "lowest-direct"]) == 0  # left out by default too
    assert calls == [("3.13", "lowest-direct", True)]


def test_the_unit_tests_that_depend_on_sentencepiece_s_version_run_at_the_lowest_versions() -> None:
    """Lesson 16 (cells 31 and 47) says tests/test_sentencepiece_versions.py runs sentencepiece 0.2.0 in make
    test-compat (Python 3.11, the lowest versions) and 0.2.1 at Python 3.13's lowest corner: no list leaves it out."""
    name = "tests/test_sentencepiece_versions.py"
    assert (run_compat.REPO_ROOT / name).is_file()
    assert not any(fnmatch.fnmatch(name, pattern) for pattern in run_compat.UNIT_TESTS_LEFT_OUT_GLOBS)
    assert not any(name == path or name.startswith(path + "/") for path in run_compat.UNIT_TESTS_LEFT_OUT)
    assert not any(test.startswith(name) for test in run_compat.UNIT_TESTS_DESELECTED)
    assert ("3.11", "lowest-direct") in run_compat.UNIT_TEST_CORNERS
