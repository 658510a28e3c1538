"""Where a notebook shows a course widget as text (an untrusted copy: a hub's, a downloaded lesson), the text says
what brings the widget back. JupyterLab draws a widget output of an untrusted notebook only once its cell has run
(tests/browser/test_lessons_open_drawn.py sees it), so the last line of every widget's ``text/plain`` says so, and
the summary above it is the widget's ``repr`` (what a terminal prints), unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from bpelab import train_bpe
from bpelab.widgets import ChatView, ClassroomStepper, CompareView, EncodeExplorer, MergeStepper


def _toy_stepper() -> Any:
    return MergeStepper(train_bpe("low low lower newest widest", 3))


WIDGETS = {
    "stepper": _toy_stepper,
    "explorer": lambda: EncodeExplorer(text="hi there", production=["cl100k_base"]),
    "comparison": lambda: CompareView(text="hi there"),
    "chat view": lambda: ChatView([("user", "Hi")]),
    "classroom stepper": lambda: ClassroomStepper(),
}
"""Every anywidget a lesson or classroom mode shows, and the word its text uses for it."""


@pytest.mark.parametrize("name", WIDGETS)
def test_the_text_shown_in_place_of_a_widget_says_to_run_its_cell(name: str) -> None:
    widget = WIDGETS[name]()
    data, _metadata = widget._repr_mimebundle_()  # anywidget's (data, metadata)
    assert "application/vnd.jupyter.widget-view+json" in data, "a widget output, drawn where the notebook is trusted"
    *summary, last = data["text/plain"].split("\n")
    noun = "stepper" if name.endswith("stepper") else name
    assert last == f"(Run this cell to draw the {noun}.)"
    assert "\n".join(summary) == repr(widget), "the summary above the hint is the widget's text, unchanged"
    assert widget.model_id not in data["text/plain"] and " at 0x" not in data["text/plain"], "stable text for nbval"
