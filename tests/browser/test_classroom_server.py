"""Classroom mode's server as ``make present`` runs it: nothing from the internet, and no kernel left behind.

Voilà starts one kernel (105–120 MB) per page load and, by itself, keeps it until Voilà stops.
``apps/voila.json`` turns on jupyter_server's culler: a kernel with no open page that has been
idle for ``cull_idle_timeout`` seconds is shut down (``cull_connected: false`` keeps every kernel
whose page is still open, however long the class pauses). The page template
``apps/voila/templates/bpelab`` drops the two Font Awesome stylesheets Voilà's page asks a CDN for.

The server here is started the way the Makefile's ``present`` recipe starts it (the same config
folder and template path); the culling test only shortens the two timings on the command line.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import psutil
import pytest
from playwright.sync_api import Browser, Page, expect

from bpelab.paths import REPO_ROOT
from tests.browser.servers import APPS, VOILA_READY_PATH, RunningServer, start_with_free_port, voila_command, voila_env

APP = "present_stepper.ipynb"
VOILA_CONFIG = APPS / "voila.json"
LOAD_TIMEOUT_MS = 120_000
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
TEST_TIMEOUT_S = 20


@pytest.fixture
def start_present(
    chromium_path: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., RunningServer]]:
    """``start_present(*extra_args)`` serves a copy of the classroom app as ``make present`` does;
    every server started is stopped at the end of the test."""
    started: list[RunningServer] = []

    def start(*extra: str) -> RunningServer:
        home = tmp_path_factory.mktemp("present")
        shutil.copy(APPS / APP, home / APP)
        env = voila_env(home)
        server = start_with_free_port(
            lambda port: [*voila_command(port, notebook=home / APP), *extra],
            ready_path=VOILA_READY_PATH,
            log_path=home / "voila.log",
            env=env,
            cwd=home,
        )
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


def kernel_pids(server: RunningServer) -> set[int]:
    """The kernels the Voilà server has running (its ipykernel child processes)."""
    pids = set()
    for child in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if "ipykernel_launcher" in " ".join(child.cmdline()):
                pids.add(child.pid)
        except psutil.Error:
            pass
    return pids


def open_app(browser: Browser, server: RunningServer) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(server.url + "/", wait_until="domcontentloaded", timeout=LOAD_TIMEOUT_MS)
    expect(page.locator(".bpe-classroom button.bpe-next")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    return page


@pytest.mark.browser
def test_classroom_page_asks_no_other_host_for_anything(
    browser: Browser, start_present: Callable[..., RunningServer]
) -> None:
    """Every request the page makes, from loading to a step, goes to the local Voilà server."""
    server = start_present()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        page.goto(server.url + "/", wait_until="load", timeout=LOAD_TIMEOUT_MS)
        app = page.locator(".bpe-classroom")
        expect(app.locator("button.bpe-next")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
        before = app.inner_text()
        app.locator("button.bpe-next").click()
        expect(app).not_to_have_text(before, timeout=30_000)  # the step reached the kernel and came back
    finally:
        context.close()
    assert requests, "no request was recorded"
    elsewhere = sorted(
        {
            url
            for url in requests
            if urlsplit(url).scheme not in ("data", "blob") and urlsplit(url).hostname not in LOCAL_HOSTS
        }
    )
    assert not elsewhere, f"the classroom page asked other hosts for: {elsewhere}"


@pytest.mark.browser
def test_kernel_of_a_closed_classroom_page_is_culled_and_an_open_one_is_kept(
    browser: Browser, start_present: Callable[..., RunningServer]
) -> None:
    """Two pages, two kernels; close one: its kernel is shut down once idle past the timeout (20 s
    here), while the open page's kernel stays, idle as long, and still answers a click.

    The timeout must exceed a page's load: a kernel still starting has no connection yet (seen: 3 s
    culled kernels of pages still loading on this busy machine; the course's 600 s is far from that)."""
    server = start_present(
        f"--MappingKernelManager.cull_idle_timeout={TEST_TIMEOUT_S}", "--MappingKernelManager.cull_interval=1"
    )
    kept = open_app(browser, server)
    closed = open_app(browser, server)
    both = kernel_pids(server)
    assert len(both) == 2, f"expected a kernel per page, found {len(both)}"

    closed.context.close()
    deadline = time.monotonic() + TEST_TIMEOUT_S + 60
    while time.monotonic() < deadline and len(kernel_pids(server)) > 1:
        time.sleep(0.5)
    left = kernel_pids(server)
    assert len(left) == 1, f"the closed page's kernel was not culled in time:\n{server.log_tail(10)}"
    assert "Culling 'idle' kernel" in server.log_tail(40)

    # the open page's kernel has been idle at least as long (its page loaded first, nothing touched it
    # since): past the timeout, it is still there after more passes of the culler
    time.sleep(3)
    assert kernel_pids(server) == left, "the open page's kernel was culled"
    app = kept.locator(".bpe-classroom")
    before = app.inner_text()
    app.locator("button.bpe-next").click()
    expect(app).not_to_have_text(before, timeout=30_000)
    kept.context.close()


# ---- the configuration and its documentation (no browser) --------------------------------------


def test_voila_config_culls_idle_kernels_of_closed_pages_only() -> None:
    config = json.loads(VOILA_CONFIG.read_text(encoding="utf-8"))
    culling = config["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0, "culling is off (cull_idle_timeout must be positive)"
    assert 0 < culling["cull_interval"] <= culling["cull_idle_timeout"]
    assert culling["cull_connected"] is False, "an open classroom page would lose its kernel"
    assert config["VoilaConfiguration"]["template"] == "bpelab"
    assert (APPS / "voila" / "templates" / "bpelab" / "index.html.j2").is_file()


@pytest.mark.parametrize("document", ["notebooks/TEACHING.md", "README.md"])
def test_the_documented_timeout_is_the_configured_one(document: str) -> None:
    """TEACHING.md and the README say how long an idle kernel of a closed page lives: the same number."""
    minutes = json.loads(VOILA_CONFIG.read_text(encoding="utf-8"))["MappingKernelManager"]["cull_idle_timeout"] / 60
    text = (REPO_ROOT / document).read_text(encoding="utf-8")
    said = re.findall(r"(\d+) (?:idle )?minutes? (?:of inactivity|idle|without)", text)
    assert said, f"{document} does not say after how many idle minutes a closed page's kernel is shut down"
    assert {float(n) for n in said} == {minutes}, f"{document} says {said} minutes, apps/voila.json {minutes:g}"
