"""Lesson 00's map of the course lists every lesson, and only lessons that exist.

Lessons are added (14 and 15 among them) by people who do not edit lesson 00: this test is what tells them
that its map, the learner's first view of the course, needs their row.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def map_rows() -> dict[str, str]:
    """Lesson number -> the file its row links to, read from lesson 00's "Map of the course" table."""
    cells = json.loads((NOTEBOOKS / "00_start_here.ipynb").read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith("## 7. Map of the course"))
    return dict(re.findall(r"^\| (\d\d) \| \[[^\]]+\]\((\d\d_[^)]+\.ipynb)\)", text, re.MULTILINE))


def test_the_map_has_a_row_for_every_lesson_and_links_it():
    lessons = {path.name[:2]: path.name for path in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")}
    rows = map_rows()
    assert len(rows) >= 14, rows  # the table was read at all
    assert rows == lessons, (
        f"lesson 00's map (section 7) and the notebooks differ: no row for {sorted(set(lessons) - set(rows))}, "
        f"a row for no lesson {sorted(set(rows) - set(lessons))}, or a link to another file"
    )
