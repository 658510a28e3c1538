"""Numbers as answers: a rule other than the engine's 1e-9 (a tolerance, a whole number), and naming rounding.

``Adjusted`` passes the learner's answer through ``adjust(got, expected)`` before the engine compares it;
``rounding_hint`` recognises an answer that is the exact one rounded (or cut) to some number of places.
"""

from __future__ import annotations

import copy
import inspect
import math
from collections.abc import Callable

from bpelab.exercises.core import Attempt, Diagnoser


class Adjusted:
    """The learner's function, its answer passed through ``adjust(got, expected)`` before the engine compares it.

    The engine compares numbers to within 1e-9 and counts ``95.0`` as ``95``; two exercises here need
    another rule (a tolerance, a whole number). The engine reads a function's signature, source and
    code object for its messages ("line 3 of your function"); those still lead to the learner's function.
    """

    def __init__(self, fn: Callable[..., object], reference: Callable[..., object], adjust: Callable[..., object]):
        self.__wrapped__ = fn  # inspect.signature and inspect.getsource follow it
        self.__code__ = getattr(getattr(fn, "__func__", fn), "__code__", None)
        self._reference, self._adjust = reference, adjust

    def __call__(self, *args: object) -> object:
        expected = self._reference(*copy.deepcopy(args))  # before the learner's code can change the arguments
        return self._adjust(self.__wrapped__(*args), expected)


def adjusted(fn: object, reference: Callable[..., object], adjust: Callable[..., object], n_args: int) -> object:
    """``fn`` wrapped in ``Adjusted``, or ``fn`` itself when the engine will refuse it before calling it
    (not callable, or its parameters don't fit), so that its own message (e.g. "a method needs self") stays."""
    if not callable(fn):
        return fn
    try:
        inspect.signature(fn).bind(*range(n_args))
    except (TypeError, ValueError):
        return fn
    return Adjusted(fn, reference, adjust)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rounded_places(got: object, expected: float) -> int | None:
    """The number of decimal places the answer was rounded (or cut) to, if it is the exact cost rounded."""
    if not is_number(got) or got == expected:
        return None
    for places in range(9, -1, -1):  # the most places that explain it: 0.0 is 0.004 rounded to 2 places
        scale = 10**places
        if any(got == way(expected * scale) / scale for way in (round, math.floor, math.ceil, math.trunc)):
            return places
    return None


def rounding_hint(what: str, why: str) -> Diagnoser:
    """A diagnoser for an answer that is the exact ``what`` rounded (or cut) to some number of places."""

    def diagnose(attempt: Attempt) -> str | None:
        places = None if attempt.error is not None else rounded_places(attempt.got, attempt.expected)
        if places is None:
            return None
        return f"the exact {what} rounded to {places} decimal place{'s' if places != 1 else ''}: don't round. {why}"

    return diagnose
