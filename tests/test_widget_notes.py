"""What the lessons say about where widgets are drawn is true: they are anywidgets, drawn by the browser.

Python computes what a widget shows and an ES module draws it, so the widgets draw in JupyterLab, Notebook 7 and
VS Code (anywidget's documentation), and on the course's web pages (``make html``) with no kernel at all: the
browser tests draw them there from the state saved with each lesson. A note that says a widget needs JupyterLab,
``make lab`` or a kernel, without the web pages, is false; and lesson 00, lesson 04 and the probe's text name the
same front ends.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpelab.course.setup_check import WIDGET_FALLBACK

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
FRONT_ENDS = ("JupyterLab", "Notebook 7", "VS Code", "web page")
NEEDS = re.compile(r"\b(?:needs?|requires?|only (?:in|with|works?)|not drawn|cannot (?:be )?(?:draw|render))", re.I)
WHERE = re.compile(r"make lab|kernel|JupyterLab|Notebook 7", re.I)
WIDGET = re.compile(r"widget|stepper|explorer", re.I)


def shown_text(cell: dict) -> list[str]:
    """What a reader of the lesson, or of its web page, reads in a cell: its markdown, its stored text outputs."""
    if cell["cell_type"] == "markdown":
        return ["".join(cell["source"])]
    found = []
    for output in cell.get("outputs", []):
        found.append("".join(output.get("text", "")))
        found += ["".join(v) for k, v in output.get("data", {}).items() if k in ("text/plain", "text/markdown")]
    return found


def sentences(text: str) -> list[str]:
    return [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+|\n\s*\n|\n- ", text) if s.strip()]


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_no_note_says_a_widget_needs_a_kernel_or_jupyterlab_and_forgets_the_web_pages(path: Path):
    wrong = [
        f"cell {i}: {sentence}"
        for i, cell in enumerate(cells(path))
        for text in shown_text(cell)
        for sentence in sentences(text)
        if WIDGET.search(sentence) and NEEDS.search(sentence) and WHERE.search(sentence) and "web page" not in sentence
    ]
    assert not wrong, "\n".join(wrong)


def section(path: Path, heading: str) -> str:
    """The markdown of the section whose heading starts with ``heading``, up to the next heading of its level."""
    text = "\n".join("".join(c["source"]) for c in cells(path) if c["cell_type"] == "markdown")
    match = re.search(rf"^(#+) {re.escape(heading)}.*?(?=^\1 |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"{path.name} has no section '{heading}'"
    return match.group(0)


def test_lesson00_04_and_the_probe_name_the_same_front_ends():
    lesson00, lesson04 = LESSONS[0], next(p for p in LESSONS if p.name.startswith("04"))
    places = {
        "lesson 00 §3": section(lesson00, "3."),
        "lesson 00's recap": section(lesson00, "Recap"),
        "lesson 04 §6": section(lesson04, "6."),
    }
    for where, text in places.items():
        named = [f for f in FRONT_ENDS if f in " ".join(text.split())]
        assert named == list(FRONT_ENDS), f"{where} names {named}, not every one of {FRONT_ENDS}"
    # the probe's text stands where it is not drawn: it names the front ends where it is
    assert all(f in WIDGET_FALLBACK for f in FRONT_ENDS[:3]), WIDGET_FALLBACK
    assert "not drawn" not in WIDGET_FALLBACK, "a kernel cannot know that: the stored lesson ran with no front end"
