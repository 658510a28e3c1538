"""Start a local web server for a browser test, wait until it answers, and always stop it.

One helper for every server the browser tests need: JupyterLab now, Voilà for classroom mode
next. Each server gets a free port on 127.0.0.1, its own process group and a log file; a server
that does not come up fails the test with the tail of its log, not with a bare timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

HOST = "127.0.0.1"
APPS = Path(__file__).resolve().parents[2] / "apps"
"""The classroom app and its Voilà configuration (``make present`` uses the same folder)."""
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0

LAB_SETTINGS: dict[str, dict[str, object]] = {
    # No news or update checks: the machine has no internet, and their pop-ups cover widgets.
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # Every cell stays in the page, so a test can find a widget far down a long lesson.
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}


def free_port() -> int:
    """A port nobody listens on right now (the OS picks it; the server may still lose a race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class RunningServer:
    """A server started by ``start_server``: where it answers, and how to stop it."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """SIGTERM to the server's process group (a Jupyter server then shuts its kernels down),
        SIGKILL if it lingers, then kill by pid any child that escaped the group: Jupyter starts
        kernels in their own sessions, so the group alone would miss them."""
        try:
            children = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.Error:
            children = []
        _signal_group(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            _signal_group(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=STOP_TIMEOUT)
        _gone, alive = psutil.wait_procs(children, timeout=STOP_TIMEOUT)
        for child in alive:
            with contextlib.suppress(psutil.Error):
                child.kill()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, sig)  # the server leads its own group: start_new_session=True


class ServerDidNotStart(RuntimeError):
    """The server exited or did not answer in time; the message carries its log tail."""


def start_server(
    command: Sequence[str],
    *,
    port: int,
    log_path: Path,
    ready_path: str = "/api/status",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = START_TIMEOUT,
) -> RunningServer:
    """Run ``command`` (which must listen on ``port``) and wait until ``ready_path`` answers 200.

    The server is stopped again if it does not become ready, so a failed start leaves nothing behind.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            list(command),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=dict(env) if env is not None else None,
            cwd=cwd,
            start_new_session=True,
        )
    server = RunningServer(process, port, log_path)
    try:
        _wait_until_ready(server, ready_path, timeout)
    except BaseException:
        server.stop()
        raise
    return server


def _wait_until_ready(server: RunningServer, path: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    url = server.url + path
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise ServerDidNotStart(
                f"{server.process.args[:3]}… exited with code {server.process.returncode} before answering {url}.\n"
                f"Last lines of its log ({server.log_path}):\n{server.log_tail()}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200 and _listens_on(server.process.pid, server.port):
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        time.sleep(0.25)
    raise ServerDidNotStart(
        f"no answer from {url} after {timeout:.0f} s.\nLast lines of its log ({server.log_path}):\n{server.log_tail()}"
    )


def _listens_on(pid: int, port: int) -> bool:
    """Whether the answer came from OUR server, not from another one that won the port."""
    try:
        root = psutil.Process(pid)
        for process in [root, *root.children(recursive=True)]:
            for conn in process.net_connections(kind="inet"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port:
                    return True
    except psutil.Error:
        pass
    return False


def start_with_free_port(
    build_command: Callable[[int], Sequence[str]], *, attempts: int = 3, **kwargs: Any
) -> RunningServer:
    """``start_server(build_command(port), port=port, **kwargs)`` on a fresh free port, retried when
    another process took the port first (two pytest-xdist workers can be handed the same one)."""
    for attempt in range(1, attempts + 1):
        port = free_port()
        try:
            return start_server(build_command(port), port=port, **kwargs)
        except ServerDidNotStart as err:
            if attempt == attempts or "already in use" not in str(err).lower():
                raise
    raise AssertionError("attempts must be at least 1")


# ---- the servers the course's browser tests run ------------------------------------------------


def isolated_env(home: Path) -> dict[str, str]:
    """This environment, but with Jupyter's and IPython's user folders inside ``home``: the
    user's own config, kernelspecs, trust database and history neither change the test nor are
    changed by it (the kernel is then the venv's own ``python3``). TMPDIR is kept: tiktoken's
    offline vocabulary cache lives under it."""
    env = dict(os.environ)
    for variable, folder in (
        ("IPYTHONDIR", "ipython"),
        ("JUPYTER_CONFIG_DIR", "jupyter-config"),
        ("JUPYTER_DATA_DIR", "jupyter-data"),
        ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
    ):
        (home / folder).mkdir(parents=True, exist_ok=True)
        env[variable] = str(home / folder)
    env.pop("MPLBACKEND", None)  # Agg would hide inline figures, as in the notebooks' own runs
    env["PYTHONUNBUFFERED"] = "1"
    return env


def write_lab_settings(settings_dir: Path, settings: Mapping[str, Mapping[str, object]] = LAB_SETTINGS) -> None:
    """User settings as JupyterLab reads them: ``<dir>/@scope/extension/plugin.jupyterlab-settings``."""
    for plugin, values in settings.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2), encoding="utf-8")


def _as_root() -> list[str]:
    return ["--ServerApp.allow_root=True"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


def jupyterlab_command(port: int, *, root_dir: Path, workspaces_dir: Path, settings_dir: Path) -> list[str]:
    """JupyterLab from this Python, without a token, with ``window.jupyterapp`` for the tests."""
    return [
        sys.executable, "-m", "jupyter", "lab",
        "--no-browser",
        f"--ServerApp.ip={HOST}",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.terminals_enabled=False",
        "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.workspaces_dir={workspaces_dir}",
        f"--LabApp.user_settings_dir={settings_dir}",
        *_as_root(),
    ]  # fmt: skip


VOILA_READY_PATH = "/voila/static/voila.js"
"""What to poll for Voilà: a static file of its page. Its root ("/") would run the notebook."""


def voila_command(port: int, *, notebook: Path) -> list[str]:
    """Voilà serving one notebook as an app, as ``make present`` serves it: with the course's config folder
    (``apps/voila.json``: kernel culling, the page template). Start it with ``voila_env`` and
    ``start_with_free_port(lambda port: voila_command(port, notebook=...), ready_path=VOILA_READY_PATH, ...)``;
    the app is then at ``server.url + "/"``. (Voilà has no root check: no allow_root flag.)"""
    return [
        sys.executable, "-m", "voila", str(notebook),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={HOST}",
        f"--Voila.config_file_paths={APPS}",
    ]  # fmt: skip


def voila_env(home: Path) -> dict[str, str]:
    """``isolated_env`` plus the folder where Voilà finds the course's page template, as in the Makefile."""
    env = isolated_env(home)
    env["JUPYTER_PATH"] = str(APPS)
    return env
