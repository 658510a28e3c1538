"""Run one lesson top to bottom in a fresh kernel of this Python; outputs are not compared, an error fails.

``make test-compat`` calls this with each compatibility venv's own python (which has bpelab and nbclient
installed the way the README tells pip users), from a folder outside the repository. Standard library and
nbclient only: the venv has no test packages. Prints one line on standard output; the exit code says whether the
lesson ran. Each cell's start goes to standard error with the seconds since the run began, so a run stopped from
outside (``run_compat`` kills one that outlives its limit) still says which cell it was in.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

CELL_TIMEOUT_S = 300
"""A stuck cell fails the lesson instead of hanging the run (the slowest cell of any lesson takes under a minute)."""
STARTUP_TIMEOUT_S = 120
"""A kernel that has not answered by then fails the lesson."""


def main(notebook: str) -> int:
    path = Path(notebook)
    lesson = nbformat.read(path, as_version=4)
    started = time.monotonic()

    def on_cell_start(cell: Any, cell_index: int, **_: Any) -> None:
        first_line = (cell.source.splitlines() or [""])[0][:70]
        print(f"[{time.monotonic() - started:6.1f} s] cell {cell_index}: {first_line}", file=sys.stderr, flush=True)

    client = NotebookClient(
        lesson,
        timeout=CELL_TIMEOUT_S,
        startup_timeout=STARTUP_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": "."}},
        on_cell_start=on_cell_start,
    )
    try:
        client.execute()
    except CellExecutionError as err:
        cell = next((c for c in lesson.cells if c.get("outputs") and c.outputs[-1].get("output_type") == "error"), None)
        where = f"cell {lesson.cells.index(cell)}" if cell is not None else "a cell"
        print(f"FAIL {path.name}, {where}: {err.ename}: {err.evalue}", flush=True)
        return 1
    except (CellTimeoutError, DeadKernelError, RuntimeError, TimeoutError) as err:
        # a cell past its limit, a kernel that died or never started: the stderr lines above say which cell
        print(f"FAIL {path.name}: {type(err).__name__}: {str(err).strip().splitlines()[0][:300]}", flush=True)
        return 1
    print(f"ok   {path.name} ({time.monotonic() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
