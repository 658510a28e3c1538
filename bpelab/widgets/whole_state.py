"""A widget that reaches the page whole: its channel opens when its constructor is done, not before.

ipywidgets opens a widget's channel to the page (its comm) at the end of ``Widget.__init__``, with the state
the traits hold then; whatever a subclass sets afterwards goes as separate updates. anywidget 0.11 applies an
update only once the widget's ES module has loaded, and gives that load two seconds (``Runtime.ready`` in
its ``runtime.ts``): on a page still busy drawing other views, the load took longer, every update was
dropped, and the view kept the opening state for good (JupyterLab showed an empty classroom stepper;
``tests/browser/test_glyphs.py``). So each view here holds its channel shut until its outermost
constructor returns, and the page gets everything it draws first in the opening message.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import anywidget


class OpensWhole(anywidget.AnyWidget):
    """An anywidget whose channel opens once, after the outermost ``__init__`` of its class has run."""

    _building = 0
    """How many constructors of this widget are running (a subclass's ``__init__`` calls its parent's)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _opening_at_the_end(cls.__dict__["__init__"])  # type: ignore[method-assign]

    def open(self) -> None:
        """Open the channel, unless a constructor is still setting the state (it opens it when done)."""
        if not self._building:
            super().open()


def _opening_at_the_end(init: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(init)
    def build_then_open(self: OpensWhole, *args: Any, **kwargs: Any) -> None:
        self._building += 1
        try:
            init(self, *args, **kwargs)
        finally:
            self._building -= 1
        if not self._building:
            self.open()

    return build_then_open
