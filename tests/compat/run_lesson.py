"""Run one lesson top to bottom in a fresh kernel of this Python; outputs are not compared, an error fails.

``make test-compat`` calls this with each compatibility venv's own python (which has bpelab and nbclient
installed the way the README tells pip users), from a folder outside the repository. Standard library and
nbclient only: the venv has no test packages. Prints one line; the exit code says whether the lesson ran.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

CELL_TIMEOUT_S = 900
"""A stuck cell fails the lesson instead of hanging the run."""


def main(notebook: str) -> int:
    path = Path(notebook)
    lesson = nbformat.read(path, as_version=4)
    client = NotebookClient(
        lesson, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": "."}}
    )
    started = time.monotonic()
    try:
        client.execute()
    except CellExecutionError as err:
        cell = next((c for c in lesson.cells if c.get("outputs") and c.outputs[-1].get("output_type") == "error"), None)
        where = f"cell {lesson.cells.index(cell)}" if cell is not None else "a cell"
        print(f"FAIL {path.name}, {where}: {err.ename}: {err.evalue}", flush=True)
        return 1
    print(f"ok   {path.name} ({time.monotonic() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
