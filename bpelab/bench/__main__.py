"""``python -m bpelab.bench [--quick]``: the side-by-side benchmark, printed as one table.

Each section is a module of this package with ``rows(quick=False)`` returning
``(what, ours, peer, ratio)`` rows; every figure is measured beside its peer in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from types import ModuleType

from bpelab.bench.common import Row, say

SECTIONS = (
    "training",
    "encoding",
    "sentencepiece",
    "scaling",
    "hostile",
    "stepper",
    "drawing",
    "page_training",
    "page_long_text",
    "variants",
    "digits",
    "memory",
)
"""The section modules, in the order they are run and printed."""
HEADER: Row = ("what", "ours", "peer", "ratio")


def load_section(name: str) -> ModuleType | None:
    """The section module, or None if it is not there (a section can be added later)."""
    try:
        return importlib.import_module(f"bpelab.bench.{name}")
    except ModuleNotFoundError as err:
        if err.name == f"bpelab.bench.{name}":
            return None
        raise


def load_average() -> str:
    """How busy the machine was (processes waiting for a CPU, over 1, 5 and 15 minutes)."""
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def format_table(rows: list[Row]) -> str:
    """Aligned columns; a row with only its first cell is a note spread over the whole line."""
    table = [HEADER, *rows]
    widths = [max(len(row[i]) for row in table if any(row[1:])) for i in range(4)]
    lines = []
    for row in table:
        if not any(row[1:]):
            lines.append(row[0])
        else:
            lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        if row is HEADER:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bpelab.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run of a minute or so")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only this section (repeatable)")
    args = parser.parse_args(argv)

    start, load_at_start = time.perf_counter(), load_average()
    rows: list[Row] = []
    for name in args.only or SECTIONS:
        section = load_section(name)
        if section is None:
            say(f"{name}: no such section yet, skipped")
            continue
        say(f"section {name} ...")
        section_start = time.perf_counter()
        rows.append((f"[{name}]", "", "", ""))
        rows.extend(section.rows(quick=args.quick))
        say(f"section {name} took {time.perf_counter() - section_start:.0f} s")

    print(
        f"bpelab benchmark{' (--quick)' if args.quick else ''}: Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {load_at_start} at the start, {load_average()} at the end"
    )
    print(
        "Each time is the best of runs alternating with its peer's, in CPU seconds of this process "
        "(wall clock where a row says so); ratios compare the two times on the same row. The memory rows give each "
        "lesson's kernel memory beside the budget."
    )
    if args.quick:
        print("--quick: small sizes for a smoke run; the targets are meant for the full run's sizes.")
    print(format_table(rows))
    print(f"total {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
