"""What every pytest run in this repository shares, the unit tests and the lessons under nbval alike.

The course map's record of passed exercises (``bpelab.course.progress``) goes to a temporary file during
tests, never to the user's cache folder: the tests pass every checker with its reference solution. Each
notebook run by nbval gets a fresh file of its own before its kernel starts, so that lesson 00's map shows
the same thing whichever tests ran before it. This file sits at the root, not in ``tests/``, because a
conftest's hooks reach only the items below its folder, and the lessons live in ``notebooks/``.
"""

import os
import tempfile
from pathlib import Path

import pytest

_PROGRESS_DIR = Path(tempfile.mkdtemp(prefix="bpelab-progress-"))
os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / "tests.json")
_notebook_of_last_cell: list[object] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A fresh progress file for each notebook, set before nbval starts the notebook's kernel."""
    if item.path.suffix == ".ipynb" and item.parent is not _notebook_of_last_cell[0]:
        _notebook_of_last_cell[0] = item.parent
        os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / f"{item.path.stem}.json")
