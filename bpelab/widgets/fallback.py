"""The text a notebook shows in place of a course widget it does not draw, and what to do about it.

A widget output carries its model (``application/vnd.jupyter.widget-view+json``) and a ``text/plain``
summary. JupyterLab and Notebook 7 draw the model only in a trusted notebook (``jupyter trust``, which
``make lab`` and Binder run on the lessons) or for a cell run in this session: in an untrusted copy (a
hub's, a downloaded lesson) every widget is shown as its text. So that text ends with what brings the
widget back: run the cell. The summary itself (``render_text()``, also the widget's ``repr``) stays as it
was: it is what nbval compares and what a terminal prints.
"""

from __future__ import annotations

from typing import Any

TEXT = "text/plain"


def counted(n: int, noun: str) -> str:
    """``1 token``, ``3 tokens``: a count and its noun, in the singular for one (JavaScript: view_basics.counted)."""
    return f"{n} {noun if n == 1 else noun + 's'}"


def counted_unit(n: int, unit: str) -> str:
    """``1 word``, ``6 words``, ``1 piece (words and punctuation)``: a count and a plural unit whose first word
    goes to the singular for one (JavaScript: count_line.countedUnit)."""
    head, space, rest = unit.partition(" ")
    return f"{n} {head.removesuffix('s') if n == 1 else head}{space}{rest}"


def draw_hint(noun: str) -> str:
    """The line under a widget's summary: what to do where the summary shows instead of the widget."""
    return f"(Run this cell to draw the {noun}.)"


def with_fallback_text(bundle: Any, summary: str, noun: str) -> Any:
    """``bundle`` (anywidget's ``(data, metadata)``, or its data alone) with ``text/plain`` set to the
    summary and the hint: stable text, no model id or address, so nbval can compare it."""
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if isinstance(data, dict):
        data[TEXT] = f"{summary}\n{draw_hint(noun)}"
    return bundle
