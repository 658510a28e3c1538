"""The course's widgets: the merge stepper (lesson 04), the encode explorer (lesson 05), the token
chips both draw with, and the classroom app around the stepper (``make present``). Widgets import
the algorithms, never the reverse."""

from bpelab.widgets.chips import chips_html, chips_text, group_at_graphemes, make_chips, show_whitespace
from bpelab.widgets.classroom import ClassroomStepper
from bpelab.widgets.explorer import EncodeExplorer
from bpelab.widgets.stepper import MergeStepper

__all__ = [
    "ClassroomStepper",
    "EncodeExplorer",
    "MergeStepper",
    "chips_html",
    "chips_text",
    "group_at_graphemes",
    "make_chips",
    "show_whitespace",
]
