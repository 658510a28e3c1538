"""Widgets survive JupyterLab (issue 14 item 6, issue 21 item 1): with the settings ``make lab`` writes,

- a lesson merely opened and left past an autosave is written back as it was (JupyterLab 4 saves only
  the widget models alive in the kernel, jupyter-widgets/ipywidgets#3888: the autosave used to write
  lesson 05 with 0 of its 24 models);
- a lesson run, saved, closed with its kernel, reopened, autosaved and reopened again still draws every
  widget (no "Error displaying widget: model not found"), and ``make html`` draws them, none as text;
- a lesson autosaved before its new kernel has answered (a busy machine, or Ctrl+S at once) still draws every
  widget on that first opening: the course's JupyterLab extension keeps the saved widgets for the widget
  manager to read (without it, the save emptied them from the page first: 4 of lesson 05's 4 widgets read
  "model not found"). The extension's other fix (a widget that gave up looking for its model just as it came)
  is a matter of milliseconds, so it is tested in Node (``saved_widgets.test.js``) and here only by every
  opening drawing every widget, under the load of a full run, where it was seen.

The server here reads what ``bpelab.course.lab_settings`` writes for an environment: the app-wide
overrides.json (``--LabApp.app_settings_dir``), the server config enabling the course's save hook
(``JUPYTER_CONFIG_PATH``) and the course's JupyterLab extension (``JUPYTER_PATH``), as ``make lab``'s
JupyterLab reads the venv's. Every opening must draw every widget the first time: no test reopens a lesson
to get past an error. The autosave interval is cut to a few seconds (a user setting); each test checks from
the file's mtime that an autosave really happened.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bpelab import train_bpe
from bpelab.course.html_export import widget_note
from bpelab.course.lab_settings import (
    install_lab_extension,
    lab_extensions_dir,
    overrides_path,
    write_overrides,
    write_server_config,
)
from bpelab.course.save_hook import shown_model_ids
from bpelab.paths import REPO_ROOT
from bpelab.widgets.explorer import encoder_for
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot, shut_down_kernels
from tests.browser.servers import (
    LAB_SETTINGS,
    RunningServer,
    isolated_env,
    jupyterlab_command,
    start_with_free_port,
    write_lab_settings,
)
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

EXPLORER_LESSON = "05_encoding_and_decoding.ipynb"
WIDGET_LESSONS = {"04_merging_step_by_step.ipynb": ".bpe-stepper", EXPLORER_LESSON: ".bpe-explorer"}
"""A lesson with a merge stepper, one with the encode explorer: the widgets a learner reopens most."""
AUTOSAVE_S = 3
TIMEOUT_MS = 60_000
REOPEN_TIMEOUT_MS = 180_000  # a reopened lesson draws its widgets from the saved state: slow on a busy machine
TYPED = "the lowest newest widest"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

_WIDGET_OUTPUTS_JS = f"""() => {{
    // the notebook's widget outputs (from its model), the views drawn for them, and any error shown instead
    const panel = window.jupyterapp.shell.currentWidget;
    let expected = 0;
    for (const cell of panel.content.widgets) {{
        if (cell.model.type !== 'code') continue;
        for (let i = 0; i < cell.model.outputs.length; i++) {{
            if ('{WIDGET_VIEW}' in cell.model.outputs.get(i).data) expected += 1;
        }}
    }}
    const outputs = Array.from(panel.node.querySelectorAll('.jp-OutputArea-output'));
    const drawn = outputs.filter(o => o.firstElementChild && /jupyter-widgets/.test(o.firstElementChild.className));
    const errors = outputs.filter(o => o.textContent.includes('Error displaying widget')).map(o => o.textContent.trim());
    return {{expected, drawn: drawn.length, errors}};
}}"""
_DIRTY_JS = "() => window.jupyterapp.shell.currentWidget.context.model.dirty"
HOLD_S = 2 * AUTOSAVE_S
_SLOW_KERNEL_JS = f"""(() => {{
    // A kernel that takes its time, as on a busy machine: each comm_info reply (the widget manager asks for
    // one before it reads a notebook's saved widgets) reaches JupyterLab {HOLD_S} s late; the console says when.
    const Native = window.WebSocket;
    const decoder = new TextDecoder();
    const text = (data) => (typeof data === 'string' ? data : decoder.decode(data));
    window.WebSocket = class extends Native {{
        set onmessage(handler) {{
            super.onmessage = (event) => {{
                if (!text(event.data).includes('comm_info_reply')) return handler.call(this, event);
                setTimeout(() => {{ console.log('bpelab-test: comm_info_reply delivered'); handler.call(this, event); }}, {HOLD_S * 1000});
            }};
        }}
        get onmessage() {{ return super.onmessage; }}
    }};
}})();"""


@pytest.fixture(scope="module")
def saving_lab(
    chromium_path: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[RunningServer, Path, dict[str, str]]]:
    home = tmp_path_factory.mktemp("saving-lab")
    root = home / "root"
    root.mkdir()
    prefix = home / "prefix"  # stands for the venv: make lab writes the same two files into it
    write_overrides(prefix)
    env = isolated_env(home)
    env["JUPYTER_CONFIG_PATH"] = str(write_server_config(prefix).parents[1])
    install_lab_extension(prefix)
    env["JUPYTER_PATH"] = str(lab_extensions_dir(prefix).parent)  # where the server finds the course's extension
    settings = home / "user-settings"
    write_lab_settings(
        settings, {**LAB_SETTINGS, "@jupyterlab/docmanager-extension/plugin": {"autosaveInterval": AUTOSAVE_S}}
    )
    server = start_with_free_port(
        lambda port: [
            *jupyterlab_command(port, root_dir=root, workspaces_dir=home / "workspaces", settings_dir=settings),
            f"--LabApp.app_settings_dir={overrides_path(prefix).parent}",
        ],
        log_path=home / "jupyterlab.log",
        env=env,
        cwd=root,
    )
    try:
        yield server, root, env
    finally:
        server.stop()


def copy_lesson(root: Path, lesson: str, folder: str) -> Path:
    """A fresh copy of a committed lesson in its own folder under the server's root."""
    (root / folder).mkdir()
    return Path(shutil.copyfile(REPO_ROOT / "notebooks" / lesson, root / folder / lesson))


_SAVED_IN_PAGE_JS = f"""() => {{
    const widgets = window.jupyterapp.shell.currentWidget.context.model.getMetadata('widgets') || {{}};
    return Object.keys((widgets['{WIDGET_STATE}'] || {{}}).state || {{}}).length;
}}"""


@pytest.fixture
def console(page: Page) -> list[str]:
    """The page's console messages, with the time each came: a failure shows what JupyterLab and the
    course's extension said (the extension logs each restore and each save it kept the widgets through)."""
    lines: list[str] = []
    page.on("console", lambda m: lines.append(f"{time.monotonic():.1f} {m.type}: {m.text[:300]}"))
    return lines


def wait_until_widgets_drawn(page: Page, what: str, console: list[str]) -> int:
    """Wait until a view is drawn, or an error shown, for every widget output of the open notebook;
    fail on any error, saying what the console said; return how many were drawn."""
    with contextlib.suppress(PlaywrightTimeoutError):  # then the assertions below say what is missing
        page.wait_for_function(
            f"() => {{ const s = ({_WIDGET_OUTPUTS_JS})(); return s.expected > 0 && s.drawn + s.errors.length >= s.expected; }}",
            timeout=REOPEN_TIMEOUT_MS,
            polling=500,
        )
    seen = page.evaluate(_WIDGET_OUTPUTS_JS)
    said = ""
    if seen["errors"] or seen["drawn"] != seen["expected"]:
        save_screenshot(page, f"saved_state_{what}_widgets_not_drawn")
        relevant = [line for line in console if "bpelab" in line or "model" in line or "rror" in line]
        said = f"; the page holds {page.evaluate(_SAVED_IN_PAGE_JS)} saved models; its console said:\n" + "\n".join(
            relevant[-40:]
        )
    assert not seen["errors"], f"{what}: widget outputs show errors: {seen['errors'][:3]}{said}"
    assert seen["drawn"] == seen["expected"] > 0, f"{what}: {seen['drawn']} of {seen['expected']} widgets drawn{said}"
    return int(seen["drawn"])


def wait_past_an_autosave(page: Page, path: Path, since_ns: int) -> None:
    """Wait until JupyterLab has autosaved the notebook (its mtime moved past ``since_ns``) and has
    nothing left to save, then two intervals more, in case a late change is still on its way."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while path.stat().st_mtime_ns == since_ns or page.evaluate(_DIRTY_JS):
        assert time.monotonic() < deadline, f"no autosave of {path.name} within {TIMEOUT_MS // 1000} s"
        time.sleep(0.5)
    time.sleep(2 * AUTOSAVE_S)
    assert not page.evaluate(_DIRTY_JS), f"{path.name} still has unsaved changes two autosave intervals later"


def models_missing(path: Path) -> list[str]:
    """Models the file's outputs show, or its saved models refer to, that its saved state lacks."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    state = notebook["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    referred = re.findall(r'"IPY_MODEL_([0-9a-f]+)"', json.dumps(state))
    return sorted({m for m in shown_model_ids(notebook) + referred if m not in state})


@pytest.mark.parametrize(
    ("lesson", "trusted"),
    [
        ("04_merging_step_by_step.ipynb", False),  # as a learner first opens it: widgets shown as text
        (EXPLORER_LESSON, True),  # trusted (File > Trust, or saved by them): widgets drawn from the saved state
    ],
)
def test_opening_a_lesson_and_leaving_it_past_an_autosave_leaves_its_file_as_it_was(
    page: Page, saving_lab: tuple[RunningServer, Path, dict[str, str]], console: list[str], lesson: str, trusted: bool
) -> None:
    server, root, env = saving_lab
    path = copy_lesson(root, lesson, f"opened-{lesson[:2]}")
    if trusted:  # in the server's own trust database (the same JUPYTER_DATA_DIR)
        subprocess.run([sys.executable, "-m", "jupyter", "trust", str(path)], env=env, check=True, capture_output=True)
    original, opened_at = path.read_bytes(), path.stat().st_mtime_ns
    open_notebook(page, server.url, path.relative_to(root).as_posix())
    if trusted:
        wait_until_widgets_drawn(page, f"{lesson} opened", console)
        save_screenshot(page, f"saved_state_{lesson[:2]}_opened", locator=page.locator(WIDGET_LESSONS[lesson]).first)
    wait_past_an_autosave(page, path, opened_at)
    before, after = json.loads(original), json.loads(path.read_bytes())
    models = [len(nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})) for nb in (before, after)]
    assert after["metadata"] == before["metadata"], (
        f"the autosave changed the metadata (widget models {models[0]} -> {models[1]})"
    )
    assert after == before, "the autosave changed the lesson's cells"
    # byte for byte as committed: the server writes with nbformat (keys sorted), and so does make lessons
    assert path.read_bytes() == original, "opening the lesson changed its file's bytes (only key order?)"
    shut_down_kernels(page)


def test_a_lesson_autosaved_before_its_new_kernel_has_answered_draws_every_widget_the_first_time(
    page: Page, saving_lab: tuple[RunningServer, Path, dict[str, str]], console: list[str]
) -> None:
    server, root, env = saving_lab
    path = copy_lesson(root, EXPLORER_LESSON, "slow-kernel")
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(path)], env=env, check=True, capture_output=True)
    original, opened_at = path.read_bytes(), path.stat().st_mtime_ns
    events: list[tuple[float, str]] = []  # (when, what): the saves JupyterLab sends, the replies held back
    page.on(
        "request",
        lambda r: r.method == "PUT" and "/api/contents/" in r.url and events.append((time.monotonic(), "save")),
    )
    page.on("console", lambda m: "comm_info_reply delivered" in m.text and events.append((time.monotonic(), "reply")))
    page.add_init_script(_SLOW_KERNEL_JS)
    open_notebook(page, server.url, path.relative_to(root).as_posix())
    drawn = wait_until_widgets_drawn(page, "opened with a slow kernel", console)
    # the case itself, or the test shows nothing: a save went out before the manager could read the saved widgets
    saves = [when for when, what in events if what == "save"]
    replies = [when for when, what in events if what == "reply"]
    assert len(replies) >= 2, f"expected the widget manager's two comm_info replies held back, saw {len(replies)}"
    assert saves and saves[0] < replies[-1], "no save went out before the last held-back reply: nothing was tested"
    shown = shown_model_ids(json.loads(original))
    assert drawn == len(shown), "not every widget output of the lesson was drawn"
    save_screenshot(page, "saved_state_05_slow_kernel", locator=page.locator(".bpe-explorer").first)
    wait_past_an_autosave(page, path, opened_at)
    assert path.read_bytes() == original, "the file changed"
    shut_down_kernels(page)


def test_a_session_saved_then_reopened_and_autosaved_keeps_its_widgets_and_exports_them(
    page: Page, saving_lab: tuple[RunningServer, Path, dict[str, str]], console: list[str], tmp_path: Path
) -> None:
    server, root, _ = saving_lab
    saved = copy_lesson(root, EXPLORER_LESSON, "session")
    name = f"session/{EXPLORER_LESSON}"
    copied_at = saved.stat().st_mtime_ns
    open_notebook(page, server.url, name)
    run_all_cells(page)
    # saved by JupyterLab's autosave (here every few seconds), the same save as Ctrl+S: a Ctrl+S racing an
    # autosave in flight makes JupyterLab ask "File Changed: overwrite or revert?" (its check of the file's
    # hash), a click no test makes; a learner on the default two minutes rarely meets it
    wait_past_an_autosave(page, saved, copied_at)
    assert not models_missing(saved), "saved after Run All without the models its outputs show"

    shut_down_kernels(page)  # as File > Close and Shut Down, or the next day: the saved file, a new kernel
    reopened_at = saved.stat().st_mtime_ns
    open_notebook(page, server.url, name)
    wait_until_widgets_drawn(page, "first reopening", console)
    wait_past_an_autosave(page, saved, reopened_at)
    missing = models_missing(saved)
    assert not missing, f"after reopening and an autosave the file lacks {len(missing)} models its widgets need"

    shut_down_kernels(page)
    open_notebook(page, server.url, name)
    wait_until_widgets_drawn(page, "second reopening", console)
    assert page.get_by_text("model not found").count() == 0
    explorer = page.locator(".bpe-explorer").first
    try:
        expect(explorer.locator(".bpe-token-count")).to_contain_text("tokens", timeout=REOPEN_TIMEOUT_MS)
    except AssertionError:
        save_screenshot(page, "saved_state_second_reopening_no_explorer")  # what the page showed instead
        raise
    save_screenshot(page, "saved_state_lesson05_reopened_twice", locator=explorer)
    # its Python side is gone (a new kernel): typed text still gets the toy tokenizer's tokens, from the page
    menu = explorer.locator(".bpe-tokenizer-select select")
    menu.select_option(label=next(o for o in menu.locator("option").all_inner_texts() if "(toy" in o).strip())
    explorer.locator(".bpe-explorer-input textarea").fill(TYPED)
    toy = train_bpe("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2, 10)  # the lesson's toy
    expected = encoder_for(toy, r"\w+|[^\w\s]+")(TYPED)[0]  # and the lesson's split
    count = explorer.locator(".bpe-token-count")
    expect(count).to_contain_text(re.compile(rf"^\s*{len(expected)} tokens?"), timeout=TIMEOUT_MS)
    menu.select_option(label="GPT-4 (cl100k_base)")
    expect(count).to_contain_text("run this explorer's cell again", timeout=TIMEOUT_MS)
    shut_down_kernels(page)

    note = widget_note(nbformat.read(saved, as_version=4))  # what make html says of it: drawn, or shown as text
    assert "drawn" in note and "shown as text" not in note, f"after two reopenings:{note}"
    site = write_static_site(tmp_path / "site", [saved], guide=None)
    page.goto((site / EXPLORER_LESSON.replace(".ipynb", ".html")).as_uri())
    expect(page.locator(".bpe-explorer").first).to_be_visible(timeout=TIMEOUT_MS)
    assert page.locator(".bpe-widget-fallback:visible").count() == 0, "a widget is drawn as text"
