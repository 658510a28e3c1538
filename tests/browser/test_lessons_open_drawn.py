"""A fresh clone's lessons open drawn (issue 30 item 1): ``make lab`` trusts them, so JupyterLab draws each widget
from the state saved with the lesson, with no cell run; where a lesson is not trusted (a hub's copy, another
Jupyter), the text in place of each widget says to run its cell.

Each test copies the repository as a clone would hold it and starts JupyterLab on it as ``make lab`` does: the
course's settings, save hook and extension (``bpelab.course.lab_settings``, written into a stand-in for the venv),
and a Jupyter data folder of its own, where the trust database lives. The trust step is the command the
Makefile's ``lab`` recipe runs, read from the Makefile. Without it, lesson 04 opens with its stepper as text (the
second test): JupyterLab 4 draws a widget output only in a trusted notebook or once its cell has run.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab.course.lab_settings import (
    install_lab_extension,
    lab_extensions_dir,
    overrides_path,
    write_overrides,
    write_server_config,
)
from bpelab.paths import REPO_ROOT
from tests.browser.lab import open_notebook, save_screenshot, shut_down_kernels
from tests.browser.servers import (
    LAB_SETTINGS,
    RunningServer,
    isolated_env,
    jupyterlab_command,
    start_with_free_port,
    write_lab_settings,
)
from tests.browser.test_saved_widget_state import wait_until_widgets_drawn
from tests.installing import copy_repository

pytestmark = pytest.mark.browser

LESSON = "04_merging_step_by_step.ipynb"
HINT = "(Run this cell to draw the stepper.)"
TIMEOUT_MS = 120_000

_EXECUTION_COUNTS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code').map(cell => cell.model.executionCount)"""
_TRUSTED_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets
    .filter(cell => cell.model.type === 'code').every(cell => cell.model.trusted)"""


def make_lab_trust_step() -> list[str]:
    """The command ``make lab`` trusts the lessons with, as this Python would run it."""
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nlab: ", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip().lstrip("@") for line in recipe.splitlines() if "trust_lessons" in line]
    assert len(steps) == 1, "make lab has no step that trusts the lessons"
    command = shlex.split(steps[0])
    assert command[0] == "$(PY)", f"make lab's trust step runs {command[0]}, not the venv's Python"
    return [sys.executable, *command[1:]]


@pytest.fixture
def lab_on_a_fresh_clone(chromium_path: str, tmp_path: Path) -> Iterator[Callable[[bool], tuple[RunningServer, Path]]]:
    """Start JupyterLab on a fresh copy of the repository, after make lab's trust step or without it."""
    servers: list[RunningServer] = []

    def start(trusted: bool) -> tuple[RunningServer, Path]:
        clone = copy_repository(tmp_path / "clone")
        prefix = tmp_path / "prefix"  # stands for the venv
        write_overrides(prefix)
        env = isolated_env(tmp_path)  # its own Jupyter data folder: a trust database nothing has signed into yet
        env["JUPYTER_CONFIG_PATH"] = str(write_server_config(prefix).parents[1])
        install_lab_extension(prefix)
        env["JUPYTER_PATH"] = str(lab_extensions_dir(prefix).parent)
        if trusted:
            done = subprocess.run(make_lab_trust_step(), cwd=clone, env=env, capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
            lessons = len(list((clone / "notebooks").glob("[0-9][0-9]_*.ipynb")))
            assert f"{lessons} now, 0 already" in done.stdout, done.stdout
        write_lab_settings(tmp_path / "user-settings", LAB_SETTINGS)
        server = start_with_free_port(
            lambda port: [
                *jupyterlab_command(
                    port,
                    root_dir=clone / "notebooks",
                    workspaces_dir=tmp_path / "workspaces",
                    settings_dir=tmp_path / "user-settings",
                ),
                f"--LabApp.app_settings_dir={overrides_path(prefix).parent}",
            ],
            log_path=tmp_path / "jupyterlab.log",
            env=env,
            cwd=clone,
        )
        servers.append(server)
        return server, clone

    yield start
    for server in servers:
        server.stop()


def stored_execution_counts(path: Path) -> list[int | None]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [cell["execution_count"] for cell in cells if cell["cell_type"] == "code"]


def test_after_make_labs_trust_step_lesson_04_opens_with_its_stepper_drawn_and_no_cell_run(
    page: Page, lab_on_a_fresh_clone: Callable[[bool], tuple[RunningServer, Path]]
) -> None:
    server, clone = lab_on_a_fresh_clone(True)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text[:300]}"))
    open_notebook(page, server.url, LESSON)
    assert page.evaluate(_TRUSTED_JS), "JupyterLab does not trust the lesson after make lab's trust step"
    drawn = wait_until_widgets_drawn(page, "lesson 04 on a fresh clone", console)
    stepper = page.locator(".bpe-stepper").first
    expect(stepper).to_be_visible(timeout=TIMEOUT_MS)
    save_screenshot(page, "fresh_clone_lesson04_drawn", locator=stepper)
    assert page.evaluate(_EXECUTION_COUNTS_JS) == stored_execution_counts(clone / "notebooks" / LESSON), (
        "a cell ran: the widgets must draw from the saved state alone"
    )
    as_text = page.locator(".jp-OutputArea-output", has_text=HINT)  # (the lesson's prose quotes the hint)
    assert as_text.count() == 0, f"{drawn} widgets drawn, yet a stepper is shown as text"
    shut_down_kernels(page)


def test_an_untrusted_copy_shows_each_widget_as_text_that_says_to_run_its_cell(
    page: Page, lab_on_a_fresh_clone: Callable[[bool], tuple[RunningServer, Path]]
) -> None:
    server, clone = lab_on_a_fresh_clone(False)
    open_notebook(page, server.url, LESSON)
    assert not page.evaluate(_TRUSTED_JS), "the copy is trusted although nothing signed it"
    lesson = json.loads((clone / "notebooks" / LESSON).read_text(encoding="utf-8"))
    steppers = sum(
        1
        for cell in lesson["cells"]
        for output in cell.get("outputs", [])
        if HINT in "".join(output.get("data", {}).get("text/plain", ""))
    )
    assert steppers >= 1, f"lesson 04's stored outputs say nowhere {HINT!r}: re-run it (make lessons ONLY=04)"
    shown = page.locator(".jp-OutputArea-output[data-mime-type='text/plain']", has_text=HINT)
    expect(shown).to_have_count(steppers, timeout=TIMEOUT_MS)
    save_screenshot(page, "untrusted_lesson04_as_text", locator=shown.first)
    assert page.locator(".bpe-stepper").count() == 0, "a stepper is drawn in an untrusted notebook"
    shut_down_kernels(page)
