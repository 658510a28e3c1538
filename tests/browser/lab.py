"""Drive a notebook in JupyterLab from Playwright: open it, run every cell, take a screenshot.

Waiting is done on what JupyterLab itself reports (``window.jupyterapp``, exposed by
``--LabApp.expose_app_in_browser``): the notebook's kernel status, and the promise that
``notebook:run-all-cells`` returns once every cell has run. A cell that raised fails the test
with the traceback's text, so a broken lesson is not mistaken for a broken widget.

Playwright's ``evaluate`` has no time limit of its own, and a JupyterLab command can wait forever for a
click (a dialog such as "File Changed"): every command here runs through ``within``, which gives up after
a time limit and says which dialog, if any, JupyterLab was showing. A hung test never reaches CI's limit.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from bpelab.paths import REPO_ROOT

SCREENSHOT_DIR = REPO_ROOT / "test-output" / "browser"
KERNEL_TIMEOUT_MS = 60_000
RUN_TIMEOUT_MS = 120_000

_KERNEL_IDLE_JS = """() => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const ctx = panel && panel.sessionContext;
    const kernel = ctx && ctx.session && ctx.session.kernel;
    return Boolean(ctx && ctx.isReady && kernel && kernel.status === 'idle');
}"""

_IS_CURRENT_JS = """(path) => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return Boolean(panel && panel.context && panel.context.path === path);
}"""

_IDLE_OR_DIALOG_JS = (
    f"""() => document.querySelector('.jp-Dialog') ? 'dialog' : (({_KERNEL_IDLE_JS})() ? 'idle' : false)"""
)

_NO_BUSY_PROMPTS_JS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const prompts = panel.node.querySelectorAll('.jp-InputPrompt');
    return Array.from(prompts).every(p => !p.textContent.includes('*'));
}"""

_COMMANDS_READY_JS = """() => {
    // enabled only once the notebook tracker's current widget is the open notebook: executing
    // before that silently runs nothing (seen under load)
    const commands = window.jupyterapp.commands;
    return commands.isEnabled('notebook:clear-all-cell-outputs') && commands.isEnabled('notebook:run-all-cells');
}"""

_RUN_ALL_JS = """async () => {
    const app = window.jupyterapp;
    // cleared first, so that no stored output can pass for a fresh one
    await app.commands.execute('notebook:clear-all-cell-outputs');
    // resolves once the last cell has run (false if a cell failed)
    return await app.commands.execute('notebook:run-all-cells');
}"""

_NOT_RUN_JS = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    return panel.content.widgets
        .map((cell, index) => [cell, index])
        .filter(([cell]) => cell.model.type === 'code' && cell.model.executionCount === null)
        .map(([cell, index]) => index);
}"""


def open_notebook(page: Page, base_url: str, name: str) -> None:
    """Open ``<name>`` (a path under the server's root, e.g. "04_merging_step_by_step.ipynb") in
    JupyterLab and wait until its kernel is idle."""
    # ?reset: start from an empty workspace; otherwise JupyterLab reopens the previous test's
    # notebook first, and "the current notebook" is that one for a while (seen)
    page.goto(f"{base_url}/lab/tree/{name}?reset", wait_until="domcontentloaded")
    page.wait_for_function(_IS_CURRENT_JS, arg=name, timeout=KERNEL_TIMEOUT_MS, polling=250)
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=KERNEL_TIMEOUT_MS)
    # a kernel chooser means the notebook's kernelspec metadata is wrong: say so, don't hang
    state = page.wait_for_function(_IDLE_OR_DIALOG_JS, timeout=KERNEL_TIMEOUT_MS, polling=250).json_value()
    if state == "dialog":
        text = page.locator(".jp-Dialog").first.inner_text()
        raise AssertionError(f"{name}: JupyterLab shows a dialog on opening (kernelspec metadata?): {text!r}")


def within(page: Page, script: str, timeout_ms: int = KERNEL_TIMEOUT_MS) -> Any:
    """``page.evaluate(script)`` (an async function's source) with a time limit; past it, an AssertionError
    that quotes JupyterLab's open dialog, the usual reason (it waits for a click no test makes)."""
    try:
        return page.evaluate(
            "async (ms) => { const limit = new Promise((_, reject) => setTimeout(() =>"
            " reject(new Error(`no answer within ${ms} ms`)), ms));"
            f" return await Promise.race([({script})(), limit]); }}",
            timeout_ms,
        )
    except PlaywrightError as err:
        if "no answer within" not in str(err):
            raise
        dialogs = page.locator(".jp-Dialog").all_inner_texts()
        shown = f"; JupyterLab shows a dialog: {dialogs[0][:300]!r}" if dialogs else ""
        raise AssertionError(f"{script[:80]}... gave no answer within {timeout_ms // 1000} s{shown}") from None


def run_command(page: Page, command: str, timeout_ms: int = KERNEL_TIMEOUT_MS) -> Any:
    """Run a JupyterLab command (``filebrowser:activate``...) and wait for it, within a time limit."""
    return within(page, f"async () => await window.jupyterapp.commands.execute({command!r})", timeout_ms)


def run_all_cells(page: Page, *, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Run every cell as a learner would (Run > Run All Cells) and wait until all have finished."""
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=KERNEL_TIMEOUT_MS, polling=250)
    page.wait_for_function(_COMMANDS_READY_JS, timeout=KERNEL_TIMEOUT_MS, polling=250)
    within(page, _RUN_ALL_JS, timeout_ms)
    page.wait_for_function(_NO_BUSY_PROMPTS_JS, timeout=timeout_ms, polling=250)
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=timeout_ms, polling=250)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
    if errors.count():
        raise AssertionError(f"a cell raised when run in JupyterLab:\n{errors.first.inner_text()[-2000:]}")
    not_run = page.evaluate(_NOT_RUN_JS)
    if not_run:
        raise AssertionError(f"Run All Cells did not run the code cells at (0-based) positions {not_run}")


def shut_down_kernels(page: Page) -> None:
    """Stop every kernel of the server (one test at a time uses it), so that finished lessons do
    not hold memory while the next one runs."""
    within(
        page, "async () => { if (window.jupyterapp) await window.jupyterapp.serviceManager.sessions.shutdownAll(); }"
    )


def save_screenshot(page: Page, name: str, *, locator: Locator | None = None) -> Path:
    """Save a PNG under test-output/browser/ (git-ignored) and return its path.

    ``name`` says what the picture shows ("lesson04_stepper_after_3_next"); with ``locator`` only
    that element is captured, otherwise the visible page.
    """
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / (re.sub(r"[^A-Za-z0-9_.-]+", "_", name) + ".png")
    if locator is not None:
        locator.scroll_into_view_if_needed()
        locator.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path))
    return path
