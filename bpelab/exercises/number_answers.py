"""Numbers as answers: a rule other than the engine's 1e-9 (a tolerance, a whole number), and naming rounding.

``Adjusted`` passes the learner's answer through ``adjust(got, expected)`` before the engine compares it;
``rounding_hint`` recognises an answer that is the exact one rounded (or cut) to some number of places.
"""

from __future__ import annotations

import copy
import decimal
import inspect
import math
import numbers
import sys
from collections.abc import Callable, Sequence

from bpelab.exercises.comparing import is_real, is_whole, same
from bpelab.exercises.core import Attempt, Diagnoser
from bpelab.exercises.showing import kind


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


def as_float(got: object) -> object:
    """An exact number of another kind (``Fraction(5, 2)``, ``Decimal('0.004')``) as the float it stands for, so that
    it is compared, and its mistakes named, as a float would be; anything else as it is.

    The engine compares ints and floats; the task says "a number", and a learner who reaches for an exact type to
    avoid rounding deserves the same judgement, not "returned a Fraction, expected a float"."""
    if isinstance(got, (numbers.Rational, decimal.Decimal)) and not isinstance(got, (bool, int)):
        try:
            return float(got)
        except (ArithmeticError, ValueError):  # Decimal('NaN') and the like: shown as they are
            return got
    return got


def is_exact_kind(got: object) -> bool:
    """A ``Fraction`` or a ``Decimal`` (an exact number that is not a whole one), not an int, a bool or a float."""
    return isinstance(got, (numbers.Rational, decimal.Decimal)) and not isinstance(got, numbers.Integral)


class NotAFloat:
    """A ``Fraction`` or a ``Decimal`` where a float belongs: never equal to the expected float, shown as it is.

    The engine compares such a number with ``==``, and ``Fraction(x) == x`` for the float ``x``: an answer wrapped
    in ``Fraction(...)`` or ``Decimal(...)`` would pass where the exercise asks for a float. ``floats_only`` makes
    one; ``not_a_float`` names it (or a bare one)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.value)


def floats_only(got: object, expected: object) -> object:
    """An ``adjust`` for ``adjusted``: a ``Fraction`` or a ``Decimal`` becomes a ``NotAFloat``; anything else stays."""
    return NotAFloat(got) if is_exact_kind(got) else got


def not_a_float(compute: str) -> Diagnoser:
    """A diagnoser for a number of another kind (``Fraction``, ``Decimal``) where a float belongs, bare or wrapped in
    ``NotAFloat``. ``compute`` ends the hint "or compute with ...": how this exercise's formula gives a float."""

    def diagnose(attempt: Attempt) -> str | None:
        got = attempt.got.value if isinstance(attempt.got, NotAFloat) else attempt.got
        if attempt.error is not None or isinstance(got, (bool, int, float)) or not isinstance(got, numbers.Number):
            return None
        return (
            f"returned {kind(got)}, expected a float: the check wants the float the course's function returns, and "
            f"compares floats allowing only for floating-point error. Return float(...) of your result, or compute "
            f"with {compute}"
        )

    return diagnose


class FloatAnswer:
    """A float where a whole number belongs (a count): never equal to the expected int, shown as the float.

    The engine counts ``95.0`` as ``95``; a count of tokens or characters must be an int."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.value!r} (a float)"


class NearAnswer:
    """A float within the engine's 1e-9 of the expected one but not equal to it, where the exact answer is one float
    (a ratio of ints; a sum of products that every legitimate order computes to within an ulp or two): never equal to
    the expected answer, shown as the float. To any other number it compares as the engine compares floats, so
    that a diagnoser that holds it against a wrong version's answer (``same_as``, on another case) still sees
    them agree. ``exactly`` makes one, and ``rounding_hint`` names it when it is the answer rounded."""

    def __init__(self, value: float, expected: float, ulps: int = 0) -> None:
        self.value, self.expected, self.ulps = value, expected, ulps

    def __eq__(self, other: object) -> bool:
        if not is_number(other) or other == self.expected:
            return False
        return math.isclose(self.value, other, rel_tol=1e-9, abs_tol=1e-12)  # type: ignore[arg-type]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.value)

    def what_is_wrong(self) -> str:
        """The hint when no diagnoser of the exercise knows more (``rounding_hint`` names a rounded answer)."""
        compared = (
            "compared exactly"
            if not self.ulps
            else f"compared to within {self.ulps} units in the last place of a float"
        )
        return (
            f"your float {self.value!r} is within a hair of {self.expected!r} but not equal to it: this answer is "
            f"{compared}, as the exercise's formula computes it in one go; adding up small parts in a loop, "
            "multiplying by 1 / n, or adding ratios one by one rounds differently in the last digits"
        )


def exactly(ulps: int = 0) -> Callable[[object, float], object]:
    """An ``adjust`` for ``adjusted``: the answer (an exact number of another kind as its float, ``as_float``) stays
    as it is, unless it lies within the engine's 1e-9 of the expected float but more than ``ulps`` units in the last
    place from it, where it becomes a ``NearAnswer``: ``round(x, 9)`` passes no more than ``x + 1e-10`` does."""

    def adjust(got: object, expected: float) -> object:
        got = as_float(got)
        if not is_number(got) or not is_number(expected) or got == expected:
            return got
        if abs(float(got) - expected) <= ulps * math.ulp(expected):  # type: ignore[arg-type]
            return expected
        return NearAnswer(float(got), expected, ulps) if same(got, expected) else got  # type: ignore[arg-type]

    return adjust


EPSILONS = (*(10.0**-k for k in range(3, 21)), sys.float_info.epsilon, 2.0**-23)
"""The small numbers a learner adds to a divisor (a guard against 0) or to a ratio: 1e-3 to 1e-20,
``sys.float_info.epsilon`` (numpy's ``np.finfo(float).eps``) and float32's epsilon (``np.finfo(np.float32).eps``)."""

RATIO_EPSILONS = tuple(eps for eps in EPSILONS if eps >= 1e-14)
"""Those that shift a ratio of a few units by more than a rounding error does (1e-14 is dozens of units in the last
place): a smaller one added to the ratio itself cannot be told from a float's rounding."""

Nudge = tuple[str, float]
"""How a ratio was shifted: ("divisor", eps) for n / (d + eps), ("plus", eps) or ("minus", eps) for n / d ± eps."""


def nudged(numerator: float, divisor: float, nudge: Nudge) -> float:
    """``numerator / divisor`` shifted by ``nudge`` (0.0 where the divisor is 0 and stays 0)."""
    how, eps = nudge
    exact = numerator / divisor if divisor else 0.0
    if how == "divisor":
        return numerator / (divisor + eps)
    return exact + eps if how == "plus" else exact - eps


def nudges(numerator: float, divisor: float) -> dict[float, list[Nudge]]:
    """What ``numerator / divisor`` gives with a tiny number added to the divisor (any of ``EPSILONS``), or added to
    or taken from the ratio (any of ``RATIO_EPSILONS``), each with the nudges that give it; the exact ratio itself
    is left out."""
    found: dict[float, list[Nudge]] = {}
    exact = numerator / divisor if divisor else 0.0
    ways = [("divisor", eps) for eps in EPSILONS] + [(how, eps) for eps in RATIO_EPSILONS for how in ("plus", "minus")]
    for nudge in ways:
        value = nudged(numerator, divisor, nudge)
        if value != exact:
            found.setdefault(value, []).append(nudge)
    return found


def nudge_in_code(nudge: Nudge, divisor: str) -> str:
    """The nudge as the learner may have written it: ``chars + 1e-12``, ``the ratio + 1e-09``."""
    how, eps = nudge
    return f"{divisor} + {eps!r}" if how == "divisor" else f"the ratio {'+' if how == 'plus' else '-'} {eps!r}"


def the_nudge(parts: Callable[..., tuple[float, float]], answers: Sequence[tuple[tuple, object]]) -> Nudge | None:
    """The one nudge that explains the answers: ``answers`` holds (arguments, what came back), this case first;
    ``parts(*args)`` gives the exact ratio's (numerator, divisor). The first answer is the ratio shifted by the nudge,
    and every other is either that (the same nudge: one constant in the learner's code) or the exact ratio."""
    (args, got), *others = [(a, g.value if isinstance(g, NearAnswer) else g) for a, g in answers]
    if not is_number(got):
        return None
    for nudge in nudges(*parts(*copy.deepcopy(args))).get(float(got), []):  # type: ignore[arg-type]
        fits = True
        for other_args, other in others:
            n, d = parts(*copy.deepcopy(other_args))
            if not is_number(other) or (other != (n / d if d else 0.0) and other != nudged(n, d, nudge)):
                fits = False
                break
        if fits:
            return nudge
    return None


def divisor_nudged(parts: Callable[..., tuple[float, float]], what: str, divisor: str, compared: str) -> Diagnoser:
    """A diagnoser for a ratio a little off because a tiny number was added to its divisor (a guard against 0) or
    to the ratio (``the_nudge``): ``parts(*args)`` gives the (numerator, divisor) of the exact ratio, ``divisor``
    names the divisor in the hint (``chars``), ``compared`` says how the answer is compared ("exactly")."""

    def diagnose(attempt: Attempt) -> str | None:
        if attempt.error is not None:
            return None
        nudge = the_nudge(parts, [(attempt.args, attempt.got), *attempt.history()])
        if nudge is None:
            return None
        got = attempt.got.value if isinstance(attempt.got, NearAnswer) else attempt.got
        return (
            f"a little off: your {got!r} is very near the exact {what} {attempt.expected!r}, not equal to it, and "
            f"this answer is compared {compared}. A tiny number added to the divisor (a guard against 0) or to the "
            f"ratio shifts it ({nudge_in_code(nudge, divisor)} gives your number): divide the two whole numbers as "
            "they are, with `/` (to guard a 0, test it with an `if`)"
        )

    return diagnose


def _explains(got: object, expected: float, places: int) -> bool:
    """``got`` is ``expected`` rounded (or cut: floor, ceil, trunc) to ``places`` decimal places."""
    scale = 10**places
    return is_number(got) and (
        got == round(expected, places)  # Python's own: the scaled forms below can miss it by a bit
        or any(got == way(expected * scale) / scale for way in (round, math.floor, math.ceil, math.trunc))
    )


def _unrounded_fits(answer: object, exact: float, places: int) -> bool:
    """Another case's answer fits a rounding to ``places``: it is the exact value so rounded, or it is exact and the
    exact value has no more places than that (up to float error). An exact answer where the exact value has more
    places was not rounded: replacing "  " by " " gave 2.0 for 1.8, and 1.25 where 1.25 was right."""
    if _explains(answer, exact, places):
        return True
    return answer == exact and math.isclose(round(exact, places), exact, rel_tol=1e-9)


def rounded_places(got: object, expected: float, others: Sequence[tuple[object, float]] = ()) -> int | None:
    """The number of decimal places the answer was rounded (or cut) to, if it is the exact answer rounded.

    ``others``: (answer, exact answer) on the exercise's other cases. The places must explain them too: 0.00719 is
    0.0071895 rounded to 5 places, and to 6 (0.007190); another case, 0.0000046125 given as 0.0, tells them apart.
    An answer exactly right on a case whose exact value has more places is explained by no rounding to fewer.
    """
    if not is_number(got) or got == expected:
        return None
    for places in range(15, -1, -1):  # the most places that explain it: 0.0 is 0.004 rounded to 2 places
        if _explains(got, expected, places) and all(_unrounded_fits(answer, exact, places) for answer, exact in others):
            return places
    return None


def rounding_hint(what: str, why: str, reference: Callable[..., float] | None = None) -> Diagnoser:
    """A diagnoser for an answer that is the exact ``what`` rounded (or cut) to some number of places.

    With ``reference``, the places named are those that explain the learner's answers on every case they answered."""

    def diagnose(attempt: Attempt) -> str | None:
        if attempt.error is not None:
            return None
        others = (
            [(got, reference(*copy.deepcopy(args))) for args, got in attempt.history()] if reference is not None else []
        )
        others = [(got.value if isinstance(got, NearAnswer) else got, exact) for got, exact in others]
        got = attempt.got.value if isinstance(attempt.got, NearAnswer) else attempt.got
        places = rounded_places(got, attempt.expected, others)
        if places is None:
            return None
        return f"the exact {what} rounded to {places} decimal place{'s' if places != 1 else ''}: don't round. {why}"

    return diagnose


def _precision_of(got: object) -> tuple[str, int, float]:
    """The float type ``got`` was computed in, as a learner would name it, its significant digits, and the relative
    error such a result may carry: numpy's own type for a numpy float of less precision than float64; for a float
    (a float32 result passed through ``float(...)`` is one) float32's, the usual way to lose precision."""
    if type(got).__module__ == "numpy":
        import numpy as np

        if isinstance(got, np.floating) and got.dtype.itemsize < 8:
            info = np.finfo(got.dtype)
            return f"float{info.bits}", int(info.precision), 8 * float(info.eps)
    return "float32", 7, 1e-6


def low_precision(python_floats: str) -> Diagnoser:
    """A diagnoser for the right value to float32's (or float16's) precision, not to Python float's: the formula is right, the
    numbers it was computed in keep too few digits (``np.array(values, dtype=np.float32)``); ``float(...)`` around
    such a result keeps its error, so a type hint or the formula hint would send the learner wrong.
    ``python_floats`` ends the hint's advice "compute in Python floats (...": what that means for this exercise."""

    def diagnose(attempt: Attempt) -> str | None:
        got, expected = attempt.got, attempt.expected
        if attempt.error is not None or not is_real(got) or is_whole(got) or not isinstance(expected, float):
            return None
        if not expected or same(got, expected):
            return None
        name, digits, tolerance = _precision_of(got)
        if abs(float(got) - expected) > tolerance * abs(expected):
            return None
        return (
            f"your answer is right to about {digits} significant digits ({float(got)!r} for {expected!r}), not to "
            f"a Python float's 15 or more, which the check asks for: that is {name} precision, which keeps about {digits} digits (numpy with "
            f"dtype=np.{name}, or np.{name}(...)). float(...) around a {name} result keeps its error: compute in "
            f"Python floats ({python_floats}"
        )

    return diagnose
