"""Each lesson's kernel memory after Run All, beside the course's budget (``make bench``, section ``memory``).

A hub gives each learner a memory limit for all their kernels together, and every lesson left open keeps its
kernel. So each lesson runs top to bottom in a fresh ``python3`` kernel (nbclient, as ``make lessons`` runs it,
nothing saved), and the kernel's resident memory (RSS) is read after its last cell, with its unique memory (USS:
what closing the lesson would give back) where psutil can read it. The peer of each figure is the budget,
``BUDGET_MB``; ``tests/test_memory_budget.py`` holds lessons 04, 07, 09, 10, 13 and 15 to it (the heaviest).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import psutil  # type: ignore[import-untyped]  # ipykernel's own dependency: every kernel has it
from nbclient import NotebookClient

from bpelab.bench.common import Row, note, say
from bpelab.course.lessons import TIMEOUT_S, lesson_paths

BUDGET_MB = 300
"""Resident megabytes a lesson's kernel may hold after Run All (issue 30: three open lessons under 1 GB)."""
QUICK_LESSONS = ["04", "07"]
"""``--quick`` measures these two: the heaviest before the budget (427 MB and 472 MB)."""


@dataclass(frozen=True)
class KernelMemory:
    """A kernel's memory after the last cell of a lesson, in bytes."""

    rss: int
    uss: int | None
    """None where psutil cannot read it (it needs /proc/PID/smaps on Linux)."""
    peak_rss: int
    """The largest RSS seen after any cell."""


def lesson_memory(path: Path) -> KernelMemory:
    """Run the lesson at ``path`` in a fresh kernel (saving nothing) and read the kernel's memory at the end."""
    notebook = nbformat.read(path, as_version=4)
    last = max((i for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"), default=-1)
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=notebook.metadata.get("bpelab", {}).get("store_widget_state", True),
    )
    seen: dict[str, Any] = {"peak": 0, "end": None}

    def after_cell(cell_index: int, **_: Any) -> None:
        kernel = psutil.Process(client.km.provisioner.pid)  # type: ignore[union-attr]
        rss = kernel.memory_info().rss
        seen["peak"] = max(seen["peak"], rss)
        if cell_index == last:
            try:
                uss: int | None = kernel.memory_full_info().uss
            except (psutil.AccessDenied, AttributeError):
                uss = None
            seen["end"] = KernelMemory(rss, uss, seen["peak"])

    client.on_cell_executed = after_cell
    with _fresh_environment():
        client.execute()
    if seen["end"] is None:
        raise RuntimeError(f"{path.name} has no code cell: there is no kernel memory to measure")
    end: KernelMemory = seen["end"]
    return end


class _fresh_environment:
    """As ``make lessons`` runs a lesson: inline figures, a history database and a progress file of its own."""

    def __enter__(self) -> None:
        self._saved = {key: os.environ.get(key) for key in ("MPLBACKEND", "IPYTHONDIR", "BPELAB_PROGRESS_FILE")}
        self._folder = tempfile.TemporaryDirectory(prefix="bpelab-memory-", ignore_cleanup_errors=True)
        os.environ.pop("MPLBACKEND", None)
        os.environ["IPYTHONDIR"] = os.path.join(self._folder.name, "ipython")
        os.mkdir(os.environ["IPYTHONDIR"])
        os.environ["BPELAB_PROGRESS_FILE"] = os.path.join(self._folder.name, "progress.json")

    def __exit__(self, *_: object) -> None:
        self._folder.cleanup()
        for key, value in self._saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def megabytes(n_bytes: int) -> str:
    return f"{n_bytes / 1_000_000:.0f} MB"


def budget_row(name: str, memory: KernelMemory) -> Row:
    """``(lesson, its RSS (USS), the budget, the ratio and whether it is met)``."""
    mb = memory.rss / 1_000_000
    uss = f" (USS {megabytes(memory.uss)})" if memory.uss is not None else ""
    verdict = "met" if mb <= BUDGET_MB else "NOT MET"
    return (
        f"lesson {name}: kernel after Run All, resident",
        f"{megabytes(memory.rss)}{uss}",
        f"{BUDGET_MB} MB budget",
        f"{mb / BUDGET_MB:.2f}x the budget ({verdict})",
    )


def rows(quick: bool = False) -> list[Row]:
    paths = lesson_paths(QUICK_LESSONS if quick else None)
    table: list[Row] = [
        note(f"each lesson run top to bottom in a fresh kernel; peer: the {BUDGET_MB} MB budget per open lesson")
    ]
    for path in paths:
        say(f"memory: running {path.name} ...")
        table.append(budget_row(path.name[:2], lesson_memory(path)))
    return table
