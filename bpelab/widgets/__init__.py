"""The course's widgets: the merge stepper (lesson 04), the encode explorer (lesson 05), tokenizers
side by side (lessons 05 and 09), the chat view (lesson 10), the token chips they draw with, and the
classroom app around the stepper (``make present``). Widgets import the algorithms, never the reverse."""

from bpelab.widgets.chat import ChatView
from bpelab.widgets.chips import chips_html, chips_text, group_at_graphemes, make_chips, show_whitespace
from bpelab.widgets.classroom import ClassroomStepper
from bpelab.widgets.compare import CompareView
from bpelab.widgets.explorer import EncodeExplorer
from bpelab.widgets.stepper import MergeStepper

__all__ = [
    "ChatView",
    "ClassroomStepper",
    "CompareView",
    "EncodeExplorer",
    "MergeStepper",
    "chips_html",
    "chips_text",
    "group_at_graphemes",
    "make_chips",
    "show_whitespace",
]
