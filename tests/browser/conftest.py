"""Fixtures for the real-browser tests: Chromium, a throwaway JupyterLab, a page.

The JupyterLab server is started once per test session (per pytest-xdist worker) on a free port,
in a temporary folder holding COPIES of the lessons: running a notebook in JupyterLab autosaves
it, and the repository's notebooks must keep their committed outputs. The copies still read the
course's data from the repository (``bpelab.paths.data_dir()``).

Without Chromium every browser test is skipped, with a reason that says how to get it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from bpelab.paths import REPO_ROOT
from tests.browser.lab import save_screenshot, shut_down_kernels
from tests.browser.servers import (
    VOILA_READY_PATH,
    RunningServer,
    isolated_env,
    jupyterlab_command,
    start_with_free_port,
    voila_command,
    voila_env,
    write_lab_settings,
)

DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",  # the network is closed: no refused connections at every start
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NOTEBOOKS = REPO_ROOT / "notebooks"


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium (Playwright cannot download its own browser here); $BPELAB_CHROMIUM overrides."""
    path = os.environ.get("BPELAB_CHROMIUM", DEFAULT_CHROMIUM)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.skip(
            f"Chromium not found at {path} (set BPELAB_CHROMIUM to its path, or apt-get install chromium)"
            " — browser tests skipped"
        )
    return path


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's root folder: a copy of notebooks/ (checkpoints left out). That is all the
    lessons need beside them: they read the course's data through ``bpelab.paths.data_dir()``,
    which points into the repository, and write only to temporary folders."""
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copytree(NOTEBOOKS, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


@pytest.fixture(scope="session")
def lab_server(chromium_path: str, lab_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """JupyterLab on 127.0.0.1, no token, ``window.jupyterapp`` exposed; stopped at the end, always."""
    home = tmp_path_factory.mktemp("lab-home")
    settings_dir = home / "user-settings"
    write_lab_settings(settings_dir)
    server = start_with_free_port(
        lambda port: jupyterlab_command(
            port, root_dir=lab_root, workspaces_dir=home / "workspaces", settings_dir=settings_dir
        ),
        log_path=home / "jupyterlab.log",
        env=isolated_env(home),
        cwd=lab_root,
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def voila_app(
    chromium_path: str, lab_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], RunningServer]]:
    """``voila_app("04_merging_step_by_step.ipynb")`` serves that lesson (a copy) as a Voilà app
    and returns the running server (the app is at ``server.url + "/"``); every app started this
    way is stopped at the end of the session."""
    started: list[RunningServer] = []

    def start(notebook: str) -> RunningServer:
        home = tmp_path_factory.mktemp("voila-home")
        server = start_with_free_port(
            lambda port: voila_command(port, notebook=lab_root / notebook),
            ready_path=VOILA_READY_PATH,
            log_path=home / "voila.log",
            env=voila_env(home),
            cwd=lab_root,
        )
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


CLASSROOM_APP = "apps/present_stepper.ipynb"


@pytest.fixture(scope="session")
def classroom_server(voila_app: Callable[[str], RunningServer], lab_root: Path) -> RunningServer:
    """The classroom app (a copy of apps/present_stepper.ipynb) served as ``make present`` serves it:
    one server for the session (each page load gets a kernel of its own)."""
    source = REPO_ROOT / CLASSROOM_APP
    if not source.exists():
        pytest.fail(f"{CLASSROOM_APP} does not exist: classroom mode needs it")
    (lab_root / "apps").mkdir(exist_ok=True)
    shutil.copy(source, lab_root / CLASSROOM_APP)
    return voila_app(CLASSROOM_APP)


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    """Headless Chromium, one per session (pages are cheap, a browser start is not)."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """Keep each phase's report on the test item, so a fixture can tell that its test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def lab_page(page: Page, lab_server: RunningServer, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page for JupyterLab. After a failure, the whole page is saved as
    test-output/browser/FAILED_<test>.png; at the end, the kernels it started are shut down."""
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        try:
            print(f"page at failure: {save_screenshot(page, f'FAILED_{request.node.name}')}")
        except Exception as err:  # a screenshot is a help, never a second failure
            print(f"could not save a screenshot of the failed page: {err}")
    try:
        shut_down_kernels(page)
    except Exception as err:  # the page may be broken after a failure; the server's stop ends them anyway
        print(f"could not shut the kernels down from the page: {err}")


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page (own cookies and storage) in a window large enough for the widgets."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()
