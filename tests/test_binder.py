"""Binder: repo2docker's documented steps for this repository's configuration, reproduced without Docker.

With a ``binder/`` folder, repo2docker reads only that folder: ``runtime.txt`` picks the Python,
``requirements.txt`` is installed with pip from the repository root, then ``postBuild`` runs there, and
``start`` wraps the server command at every launch. The launch URL opens lesson 00 (README badge).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from bpelab import paths
from bpelab.paths import REPO_ROOT
from tests.installing import (
    add_nbval,
    clean_env,
    copy_repository,
    copy_vocabularies,
    fresh_venv,
    run,
    run_lessons_under_nbval,
)

BINDER = REPO_ROOT / "binder"
LESSON_00 = "notebooks/00_start_here.ipynb"


def test_binder_configuration_is_what_repo2docker_reads():
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert re.fullmatch(r"python-3\.(1[1-9])", runtime), "a Python the pins support (3.11 or newer)"
    lines = [line for line in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [line for line in lines if not line.startswith("#")] == ["-r ../requirements.txt"], "the root pins, once"
    for script in ("postBuild", "start"):
        assert (BINDER / script).stat().st_mode & 0o111, f"binder/{script} must be executable"
        assert (BINDER / script).read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
    assert 'exec "$@"' in (BINDER / "start").read_text(encoding="utf-8"), "start must hand over to the server"


def test_readme_launch_link_opens_lesson_00_in_jupyterlab():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    badge = re.search(r"https://mybinder\.org/v2/gh/[^)\s]+", readme)
    assert badge, "the README has a Binder launch link"
    assert badge.group(0).endswith(f"?urlpath=lab/tree/{LESSON_00}")
    assert (REPO_ROOT / LESSON_00).is_file()


@pytest.mark.slow
def test_repo2docker_steps_give_a_working_lesson_00(tmp_path, monkeypatch):
    """pip install -r binder/requirements.txt, ./postBuild, ./start, then lesson 00 under nbval.

    Two liberties, both about speed: uv installs the same pins first (from its cache), so repo2docker's
    pip command finds every requirement satisfied; and the vocabulary store is seeded from this machine's
    verified copies, so postBuild's ``setup_data`` checks and places them instead of downloading them.
    """
    repo = copy_repository(tmp_path / "repo")
    env = clean_env(tmp_path)
    python = fresh_venv(tmp_path / "venv", env, seed_pip=True)  # repo2docker's environment has pip
    env["PATH"] = f"{python.parent}{os.pathsep}{env['PATH']}"
    run([str(python), "-m", "pip", "install", "-q", "-r", "binder/requirements.txt"], cwd=repo, env=env)
    monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])
    store = paths.user_cache_dir() / "tokenizers"  # where an installed bpelab keeps them (asked below)
    copy_vocabularies(store)

    env["JUPYTER_DATA_DIR"] = str(tmp_path / "jupyter-data")  # the trust database postBuild signs into
    built = run(["./binder/postBuild"], cwd=repo, env=env).stdout
    assert "Tokenizer data ready" in built and "downloading" not in built
    lessons = sorted((repo / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert f"lessons trusted, so their widgets draw when opened: {len(lessons)} now" in built, built
    check = "import sys, nbformat; from nbformat.sign import NotebookNotary as N; n = N(); print(all("
    check += "n.check_signature(nbformat.read(p, as_version=4)) for p in sys.argv[1:]))"
    trusted = run([str(python), "-c", check, *map(str, lessons)], cwd=repo, env=env).stdout.strip()
    assert trusted == "True", "postBuild left a lesson untrusted: its widgets would open as text on Binder"
    code = "import bpelab; from bpelab.paths import tokenizer_store_dir as d; print(bpelab.__file__, d())"
    package, asked = run([str(python), "-c", code], cwd=repo / "notebooks", env=env).stdout.split()
    assert Path(package).is_relative_to(tmp_path / "venv"), "postBuild installed bpelab as a package"
    assert Path(asked) == store
    hook = json.loads((tmp_path / "venv" / "etc" / "jupyter" / "jupyter_server_config.d" / "bpelab.json").read_text())
    assert hook["ServerApp"]["jpserver_extensions"] == {"bpelab.course.save_hook": True}, "postBuild enabled the hook"
    started = run(["./binder/start", str(python), "-c", "print('server starts')"], cwd=repo, env=env).stdout
    assert started.strip() == "server starts"

    add_nbval(python, env)
    report = run_lessons_under_nbval(python, env, [Path(LESSON_00).name], tmp_path / "launched")
    assert re.search(r"\d+ passed", report) and "failed" not in report, report
