"""Widgets survive a session (issue 14 item 6): with the settings ``make lab`` writes, a lesson run
in JupyterLab and saved keeps the state of every widget it shows, so that it reopens with working
widgets (no "Error displaying widget: model not found") and ``make html`` draws them, none as text.

The server here reads its app-wide defaults from a folder holding only the overrides.json that
``bpelab.course.lab_settings`` writes (``--LabApp.app_settings_dir``), as ``make lab``'s JupyterLab
reads the venv's. Lesson 05 is the one run: its encode explorer is the widget most often saved.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bpelab import train_bpe
from bpelab.course.html_export import widget_note
from bpelab.course.lab_settings import overrides_path, write_overrides
from bpelab.paths import REPO_ROOT
from bpelab.widgets.explorer import encoder_for
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot, shut_down_kernels
from tests.browser.servers import (
    RunningServer,
    isolated_env,
    jupyterlab_command,
    start_with_free_port,
    write_lab_settings,
)
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

LESSON = "05_encoding_and_decoding.ipynb"
TIMEOUT_MS = 60_000
REOPEN_TIMEOUT_MS = 180_000
TYPED = "the lowest newest widest"


@pytest.fixture(scope="module")
def saving_lab(chromium_path: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Path]]:
    home = tmp_path_factory.mktemp("saving-lab")
    root = home / "root"
    root.mkdir()
    shutil.copyfile(REPO_ROOT / "notebooks" / LESSON, root / LESSON)
    write_overrides(home / "prefix")
    settings = home / "user-settings"
    write_lab_settings(settings)
    app_settings = overrides_path(home / "prefix").parent
    server = start_with_free_port(
        lambda port: [
            *jupyterlab_command(port, root_dir=root, workspaces_dir=home / "workspaces", settings_dir=settings),
            f"--LabApp.app_settings_dir={app_settings}",
        ],
        log_path=home / "jupyterlab.log",
        env=isolated_env(home),
        cwd=root,
    )
    try:
        yield server, root
    finally:
        server.stop()


def test_a_lesson_saved_after_a_session_reopens_with_its_widgets_and_exports_them(
    page: Page, saving_lab: tuple[RunningServer, Path], tmp_path: Path
) -> None:
    server, root = saving_lab
    saved = root / LESSON
    before = saved.stat().st_mtime_ns
    open_notebook(page, server.url, LESSON)
    run_all_cells(page)
    page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
    page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=TIMEOUT_MS, polling=250
    )
    assert saved.stat().st_mtime_ns != before, "JupyterLab did not write the notebook"
    note = widget_note(nbformat.read(saved, as_version=4))  # what make html says of it: drawn, or shown as text
    assert "drawn" in note and "shown as text" not in note, f"saved after Run All:{note}"

    shut_down_kernels(page)  # reopen as the next session would: a new kernel, the saved file
    open_notebook(page, server.url, LESSON)
    explorer = page.locator(".bpe-explorer").first
    try:  # a reopened lesson draws its widgets from the saved state: slow on a busy machine, so wait long
        explorer.scroll_into_view_if_needed(timeout=REOPEN_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        save_screenshot(page, "saved_state_lesson05_reopened_without_explorer")
        shown = page.locator(".jp-OutputArea-output").filter(has_text=re.compile("widget|model", re.I))
        raise AssertionError(
            f"the reopened lesson shows no explorer; widget outputs say: {shown.all_inner_texts()}"
        ) from None
    expect(explorer).to_be_visible(timeout=TIMEOUT_MS)
    expect(explorer.locator(".bpe-token-count")).to_contain_text("tokens", timeout=TIMEOUT_MS)
    assert page.get_by_text("Error displaying widget").count() == 0
    save_screenshot(page, "saved_state_lesson05_reopened", locator=explorer)
    # its Python side is gone (a new kernel): typed text still gets the toy tokenizer's tokens, from the page
    menu = explorer.locator(".bpe-tokenizer-select select")
    menu.select_option(label=next(o for o in menu.locator("option").all_inner_texts() if "(toy" in o).strip())
    explorer.locator(".bpe-explorer-input textarea").fill(TYPED)
    toy = train_bpe("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2, 10)  # the lesson's toy
    expected = encoder_for(toy, r"\w+|[^\w\s]+")(TYPED)[0]  # and the lesson's split
    count = explorer.locator(".bpe-token-count")
    expect(count).to_contain_text(re.compile(rf"^\s*{len(expected)} tokens"), timeout=TIMEOUT_MS)
    menu.select_option(label="GPT-4 (cl100k_base)")
    expect(count).to_contain_text("run this explorer's cell again", timeout=TIMEOUT_MS)

    site = write_static_site(tmp_path / "site", [saved], guide=None)
    page.goto((site / LESSON.replace(".ipynb", ".html")).as_uri())
    expect(page.locator(".bpe-explorer").first).to_be_visible(timeout=TIMEOUT_MS)
    assert page.locator(".bpe-widget-fallback:visible").count() == 0, "a widget is drawn as text"
