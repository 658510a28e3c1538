"""Helpers for the tests that install bpelab somewhere else: a copy of the repository, a fresh venv, nbval in it.

They use uv (a pinned test package) with the repository's exact pins, so a fresh environment is the one a
learner would get; nothing is downloaded except from the package index, and uv's cache makes it quick.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from bpelab.paths import REPO_ROOT
from bpelab.vocab_files import SENTENCEPIECE_SOURCES, SOURCES, sentencepiece_path, store_path, tekken_path

TIMEOUT_S = 1200
"""A stuck install or kernel fails the test instead of hanging the suite."""


def uv() -> str:
    """The uv of this test environment (requirements-test.txt pins it)."""
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert found, "uv is missing from the test environment: run make test (requirements-test.txt pins it)"
    return found


def run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure the assertion message carries its output."""
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert result.returncode == 0, (
        f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    )
    return result


def copy_repository(target: Path) -> Path:
    """The files git would commit (tracked, plus new files not ignored): what a fresh clone would hold."""
    listing = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name in filter(None, listing.split("\0")):
        source = REPO_ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def clean_env(home: Path) -> dict[str, str]:
    """This environment without what points at the repository's venv, data or this run's course-map file (a fresh
    learner has passed no exercise yet); caches and IPython under ``home``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"VIRTUAL_ENV", "PYTHONPATH", "BPELAB_DATA_DIR", "BPELAB_PROGRESS_FILE", "MPLBACKEND"}
    }
    uv_cache = subprocess.run([uv(), "cache", "dir"], capture_output=True, text=True, check=True).stdout.strip()
    env.update(
        UV_CACHE_DIR=uv_cache,  # keep uv's own cache although XDG_CACHE_HOME moves
        XDG_CACHE_HOME=str(home / "cache"),
        TIKTOKEN_CACHE_DIR=str(home / "tiktoken-cache"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),  # its trust database too: never the tester's own
        UV_NO_PROGRESS="1",
    )
    return env


def fresh_venv(folder: Path, env: dict[str, str], *, seed_pip: bool) -> Path:
    """A new venv on this interpreter with the course's pins; returns its python."""
    command = [uv(), "venv", "--quiet", "--python", sys.executable, str(folder)]
    run(command + (["--seed"] if seed_pip else []), cwd=REPO_ROOT, env=env)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    install = [uv(), "pip", "install", "--quiet", "--python", str(python)]
    run(install + ["-r", str(REPO_ROOT / "requirements.txt")], cwd=REPO_ROOT, env=env)
    return python


def add_nbval(python: Path, env: dict[str, str]) -> None:
    """pytest and nbval at the versions requirements-test.txt pins, to compare lessons with their stored outputs."""
    command = [
        uv(),
        "pip",
        "install",
        "--quiet",
        "--python",
        str(python),
        "-c",
        str(REPO_ROOT / "requirements-test.txt"),
    ]
    run(command + ["pytest", "nbval"], cwd=REPO_ROOT, env=env)


def seed_tokenizer_store(python: Path, env: dict[str, str], cwd: Path) -> Path:
    """Copy the verified vocabularies to where the *installed* bpelab keeps them, so setup needs no download."""
    code = "from bpelab.paths import tokenizer_store_dir; print(tokenizer_store_dir())"
    store = Path(run([str(python), "-c", code], cwd=cwd, env=env).stdout.strip())
    copy_vocabularies(store)
    return store


def copy_vocabularies(store: Path) -> None:
    """This machine's verified tiktoken files, SentencePiece models and Tekken ranks, into another store."""
    store.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        shutil.copy2(store_path(name), store / f"{name}.tiktoken")
    for name in SENTENCEPIECE_SOURCES:
        shutil.copy2(sentencepiece_path(name), store / sentencepiece_path(name).name)
    shutil.copy2(tekken_path(), store / tekken_path().name)


def run_lessons_under_nbval(python: Path, env: dict[str, str], lessons: list[str], folder: Path) -> str:
    """Copy the named lessons into ``folder`` (outside the repository) and check them with nbval from there."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in lessons:
        shutil.copy2(REPO_ROOT / "notebooks" / name, folder / name)
    shutil.copy2(REPO_ROOT / "tests" / "nbval_sanitize.cfg", folder / "sanitize.cfg")
    command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval", "--nbval-current-env"]
    command += ["--nbval-sanitize-with", "sanitize.cfg", *lessons]
    return run(command, cwd=folder, env=env).stdout
