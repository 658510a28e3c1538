"""Shared fixtures: small real texts read from the course's own data.

The course map's record of passed exercises (``bpelab.course.progress``) goes to a temporary file during
tests, never to the user's cache folder: the tests pass every checker with its reference solution. Each
notebook run by nbval gets a fresh file of its own before its kernel starts, so that lesson 00's map shows
the same thing whichever tests ran before it.
"""

import os
import tempfile
from pathlib import Path

import pytest

from bpelab.paths import data_dir

_PROGRESS_DIR = Path(tempfile.mkdtemp(prefix="bpelab-progress-"))
os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / "tests.json")
_notebook_of_last_cell: list[object] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A fresh progress file for each notebook, set before nbval starts the notebook's kernel."""
    if item.path.suffix == ".ipynb" and item.parent is not _notebook_of_last_cell[0]:
        _notebook_of_last_cell[0] = item.parent
        os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / f"{item.path.stem}.json")


@pytest.fixture(scope="session")
def english_sample() -> str:
    return (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:40_000]
