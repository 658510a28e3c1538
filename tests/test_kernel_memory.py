"""Freed memory goes back to the system after each notebook cell (issue 30 item 3: lessons left open fit a hub).

The promise is measured in a real kernel: a cell builds 150 MB of objects and drops most of them (as a lesson's
training does); the kernel's resident memory after the next cell must come down near where it started, where
without ``bpelab`` it stays up (glibc keeps the freed pages).
"""

from __future__ import annotations

import sys

import nbformat
import psutil
import pytest
from nbclient import NotebookClient

from bpelab.course import kernel_memory
from bpelab.course.kernel_memory import glibc_trim, trim_after_each_cell

pytestmark = pytest.mark.skipif(
    glibc_trim() is None, reason="malloc_trim is glibc's: on this system the course gives memory back as Python does"
)

BUILD_AND_DROP = (
    "blobs = [bytes(1000) + i.to_bytes(4, 'little') for i in range(150_000)]\nkept = blobs[::64]\ndel blobs"
)
"""150 MB of kilobyte objects, one in 64 kept: the heap's free pages lie between live ones, where glibc's own
trimming (from the top of the heap only) cannot reach them."""


def resident_after_each_cell(first_cell: str) -> list[float]:
    cells = [first_cell, "x = 1", BUILD_AND_DROP, "y = 2"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = NotebookClient(notebook, timeout=300, kernel_name="python3")
    seen: list[float] = []
    client.on_cell_executed = lambda **_: seen.append(
        psutil.Process(client.km.provisioner.pid).memory_info().rss / 1e6  # type: ignore[union-attr]
    )
    client.execute()
    return seen


def test_a_table_built_and_dropped_in_a_cell_leaves_the_kernel_s_memory_where_it_was() -> None:
    with_bpelab = resident_after_each_cell("import bpelab")
    without = resident_after_each_cell("import json")
    grown_with = with_bpelab[3] - with_bpelab[1]
    grown_without = without[3] - without[1]
    assert grown_without > 100, f"the control kept only {grown_without:.0f} MB: the test shows nothing"
    assert grown_with < 20, f"with bpelab imported the kernel kept {grown_with:.0f} MB of a dropped table"


class FakeEvents:
    def __init__(self) -> None:
        self.registered: list[tuple[str, object]] = []

    def register(self, event: str, callback: object) -> None:
        self.registered.append((event, callback))


class FakeShell:
    def __init__(self) -> None:
        self.events = FakeEvents()


def test_it_registers_once_per_shell_and_nothing_outside_ipython(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = FakeShell()
    assert trim_after_each_cell(shell) and trim_after_each_cell(shell)
    assert [event for event, _ in shell.events.registered] == ["post_run_cell"]
    monkeypatch.setitem(sys.modules, "IPython", None)  # a plain script: IPython never imported
    assert trim_after_each_cell() is False


def test_without_glibc_it_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel_memory, "glibc_trim", lambda: None)
    shell = FakeShell()
    assert trim_after_each_cell(shell) is False
    assert shell.events.registered == []
