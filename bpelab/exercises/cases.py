"""What an exercise tries and what its diagnosers see: a ``Case`` (arguments, answer, why it is there) and an ``Attempt``;
and ``ExerciseSpec``, what the checking loop reads of an exercise (``core.Exercise`` is one), so that the loop's
files never import ``core``, which imports them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bpelab.exercises.showing import kind


class _Computed:
    def __repr__(self) -> str:
        return "COMPUTED"


COMPUTED: Any = _Computed()
"""Default ``Case.expected``: ask the exercise's reference function."""


@dataclass(frozen=True)
class Case:
    """One input to try: the arguments, the answer (or ``COMPUTED``), and a few words on why it is there."""

    args: tuple
    expected: Any = COMPUTED
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.args, tuple):
            raise TypeError(
                f"Case args must be a tuple of arguments, e.g. Case(('cat cat dog',)) (note the comma); "
                f"got {kind(self.args)}"
            )


@dataclass(frozen=True)
class Attempt:
    """What a diagnoser sees: the case's arguments (as they were before the call), the answer, and the outcome."""

    args: tuple
    expected: Any
    got: Any = None
    """What came back (``None`` when the function raised)."""
    error: BaseException | None = None
    history: Callable[[], list[tuple[tuple, Any]]] = field(default=list, repr=False, compare=False)
    """``(args, what came back)`` for the exercise's other cases (run on demand, output silenced)."""
    parameters: tuple[str, ...] = ()
    """The names of the learner's parameters, as their ``def`` line has them (empty when unknown)."""
    unread: tuple[str, ...] = ()
    """The parameters the learner's function never reads (``running.unread_parameters``)."""
    globals_read: tuple[str, ...] = ()
    """The globals holding data that the learner's function reads (``running.globals_read``)."""


Diagnoser = Callable[[Attempt], "str | None"]
"""Recognises one typical mistake from an ``Attempt``: returns its hint, or None."""


class ExerciseSpec(Protocol):
    """What ``checking``, ``diagnosers`` and ``running`` read of an exercise; ``core.Exercise`` documents each."""

    @property
    def name(self) -> str: ...
    @property
    def call(self) -> str: ...
    @property
    def checker(self) -> str: ...
    @property
    def hint(self) -> str: ...
    @property
    def diagnosers(self) -> Sequence[Diagnoser]: ...
    @property
    def order_matters(self) -> bool: ...
    @property
    def inputs_ordered(self) -> bool: ...
    @property
    def order_hint(self) -> str: ...
    @property
    def order_diagnosers(self) -> Sequence[Diagnoser]: ...
    @property
    def max_steps(self) -> int | None: ...
    @property
    def max_seconds(self) -> float | None: ...
    @property
    def runaway_hint(self) -> str: ...
    @property
    def function_name(self) -> str: ...
    @property
    def parameters(self) -> list[str]: ...
    @property
    def own_functions(self) -> tuple[Callable[..., Any], ...]: ...
    @property
    def answer_functions(self) -> tuple[Callable[..., Any], ...]: ...
    def build_cases(self) -> list[Case]: ...
