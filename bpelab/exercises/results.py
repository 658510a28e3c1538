"""What a check gives back (``CheckResult``), and whether its pass counts on the course map.

A passed result is recorded for the course map (``bpelab.course.progress``) wherever it is made, except inside
``recording(False)``: a lesson that runs a checker to SHOW what it says (on the course's own example, not on
the learner's code) passes ``record=False`` to the checker, which runs it inside ``recording(False)``, so that
Run All never ticks an exercise the learner did not write.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from bpelab.course.progress import record_pass

_RECORDING: ContextVar[bool] = ContextVar("bpelab_recording", default=True)


@contextlib.contextmanager
def recording(record: bool) -> Iterator[None]:
    """Within the block, passed results are recorded on the course map only if ``record`` (and no outer block
    said False: a demonstration stays one all the way down)."""
    token = _RECORDING.set(record and _RECORDING.get())
    try:
        yield
    finally:
        _RECORDING.reset(token)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check, for code; the learner reads the printed ``message``.

    ``status`` is ``"passed"``, ``"failed"``, ``"not yet"`` (an unfinished stub) or
    ``"checker error"`` (a bug in bpelab itself). ``failed_case`` counts from 1.
    A passed result is recorded for the course map (``bpelab.course.progress``), wherever it is made,
    unless it is made inside ``recording(False)``.
    """

    passed: bool
    name: str
    failed_case: int | None = None
    checks: int = field(default=0, repr=False)
    status: str = field(default="passed", repr=False)
    message: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.passed and _RECORDING.get():  # for the course map (lesson 00); never raises, never fails a check
            record_pass(self.name)

    def __bool__(self) -> bool:
        return self.passed

    def _ipython_display_(self) -> None:
        """Show nothing: the report was already printed when the check ran."""
