"""What every pytest run in this repository shares, the unit tests and the lessons under nbval alike.

The course map's record of passed exercises (``bpelab.course.progress``) goes to a temporary file during
tests, never to the user's cache folder: the tests pass every checker with its reference solution. Each
notebook run by nbval gets a fresh file of its own before its kernel starts, so that lesson 00's map shows
the same thing whichever tests ran before it; and after each of its cells that file must still hold no pass:
Run All of a lesson as shipped ticks nothing the learner did not write (a lesson's stubs fail their checkers,
and a checker run on the course's own example is called with ``record=False``). This file sits at the root, not in ``tests/``, because a
conftest's hooks reach only the items below its folder, and the lessons live in ``notebooks/``.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_PROGRESS_DIR = Path(tempfile.mkdtemp(prefix="bpelab-progress-"))
os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / "tests.json")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's progress files go with it (each xdist worker has its own folder)."""
    shutil.rmtree(_PROGRESS_DIR, ignore_errors=True)


_notebook_of_last_cell: list[object] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A fresh progress file for each notebook, set before nbval starts the notebook's kernel."""
    if item.path.suffix == ".ipynb" and item.parent is not _notebook_of_last_cell[0]:
        _notebook_of_last_cell[0] = item.parent
        os.environ["BPELAB_PROGRESS_FILE"] = str(_PROGRESS_DIR / f"{item.path.stem}.json")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):  # type: ignore[no-untyped-def]
    """Fail the first cell of a lesson after which the lesson's own progress file holds a pass."""
    result = yield
    if item.path.suffix == ".ipynb" and item.parent not in _notebooks_that_ticked:
        path = Path(os.environ["BPELAB_PROGRESS_FILE"])
        ticked = json.loads(path.read_text(encoding="utf-8")).get("passed") if path.exists() else None
        if ticked:
            _notebooks_that_ticked.append(item.parent)
            raise AssertionError(
                f"this cell ticked {ticked} on the course map, though the learner wrote nothing: a lesson's stub "
                "must fail its checker, and a checker shown on the course's own example needs record=False"
            )
    return result


_notebooks_that_ticked: list[object] = []
