"""Naming a learner's mistake: the diagnosers an exercise lists, and the engine's own explanations.

A diagnoser gets an ``Attempt`` and returns a hint or None; the first hint wins. Three helpers build the usual
ones (``same_as``, ``on_error``, ``when``); ``explain`` tries an exercise's diagnosers, then what the engine
knows by itself (recursion that never ends, a wrong type, a list where a tuple belongs).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from bpelab.exercises.cases import Attempt, Diagnoser, ExerciseSpec
from bpelab.exercises.comparing import (
    FLOAT_FOR_INT,
    first_container_mismatch,
    first_float_for_int,
    normalised,
    same,
    type_hint,
)
from bpelab.exercises.showing import kind, short


def same_as(variant: Callable[..., Any], hint: str) -> Diagnoser:
    """A diagnoser: the learner's answers equal those of ``variant``, a typical wrong version, so say ``hint``.

    "Equal" means on the failing case AND on every other case where the learner's function
    returned something, so that two mistakes that agree on one small input are told apart.
    """

    def agrees(args: tuple, got: Any) -> bool:
        return same(got, variant(*copy.deepcopy(args)))  # order mistakes have their own message

    def diagnose(attempt: Attempt) -> str | None:
        if attempt.error is not None or not agrees(attempt.args, attempt.got):
            return None
        if agrees(attempt.args, attempt.expected):
            return None  # the variant is right here: it cannot explain a wrong answer
        return hint if all(agrees(args, got) for args, got in attempt.history()) else None

    return diagnose


def on_error(error_type: type[BaseException], hint: str, contains: str = "") -> Diagnoser:
    """A diagnoser for an exception of ``error_type`` (whose message contains ``contains``)."""

    def diagnose(attempt: Attempt) -> str | None:
        error = attempt.error
        return hint if isinstance(error, error_type) and contains in str(error) else None

    return diagnose


def when(predicate: Callable[[Attempt], bool], hint: str, *, any_type: bool = True) -> Diagnoser:
    """A diagnoser from a test on what came back, e.g. "no key contains '</w>'" (asked only when it returned).

    ``any_type=False`` asks only when the answer has the expected type (a dict for a dict), so
    the test can index it freely and a wrong type gets the engine's own message instead.
    """

    def diagnose(attempt: Attempt) -> str | None:
        if attempt.error is not None or (not any_type and type_hint(attempt.got, attempt.expected)):
            return None
        return hint if predicate(attempt) else None

    return diagnose


def right_for_another_call(attempt: Attempt, reference: Callable[..., Any], key: int = 0) -> Any | None:
    """The right answer of an earlier check that the attempt's wrong answer equals, when that check had the same
    argument at ``key`` (the text, the word) and others beside it (another tokenizer, vocabulary, merges): what a
    function gives that remembers its answers keyed without those others. None when no earlier check explains it."""
    for earlier, _ in attempt.history():
        if earlier[key] == attempt.args[key] and earlier != attempt.args:
            answer = reference(*earlier)
            if same(attempt.got, answer) and not same(answer, attempt.expected):
                return answer
    return None


def first_hint(diagnosers: Sequence[Diagnoser], attempt: Attempt) -> str | None:
    """The hint of the first diagnoser that recognises the mistake; one that trips over an odd answer is skipped."""
    for diagnose in diagnosers:
        try:
            hint = diagnose(attempt)
        except Exception:  # a diagnoser tripping over an odd answer must not hide the report
            hint = None
        if hint:
            return hint
    return None


def swapped_parameters(exercise: ExerciseSpec, attempt: Attempt) -> str | None:
    """The learner's parameters are the exercise's, in another order: every argument lands in the wrong one."""
    theirs, ours = list(attempt.parameters), exercise.parameters
    if len(ours) < 2 or theirs == ours or sorted(theirs) != sorted(ours):
        return None
    return (
        f"your parameters are in another order ({', '.join(theirs)}) than the call, {exercise.call}: the "
        f"arguments arrive in the call's order, so write `def {exercise.call}:`"
    )


def unread_parameter(attempt: Attempt) -> str | None:
    """A parameter the function never reads while it reads a global holding data: its answer comes from the
    lesson's object (``tok.vocab`` where ``vocab`` was meant). A parameter left unread with no global read instead is
    a step forgotten, which the exercise's own hint names better."""
    if not attempt.unread or not attempt.globals_read:
        return None
    names = ", ".join(f"`{name}`" for name in attempt.unread)
    which = "parameter" if len(attempt.unread) == 1 else "parameters"
    it = "it" if len(attempt.unread) == 1 else "them"
    read = ", ".join(f"`{name}`" for name in attempt.globals_read)
    return (
        f"your function never reads its {which} {names}; it reads the global {read} instead, which is the lesson's, "
        f"not this check's: each check passes its own {names} there, and your answer cannot depend on {it}. Use the "
        f"{which} the function is given"
    )


def _empty_or_zero(value: Any) -> bool:
    """An argument that leaves nothing to divide by: empty, 0, or numbers that add up to 0."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == 0
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset, str, bytes)):
        if len(value) == 0:
            return True
        numbers = [v for v in value if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return len(numbers) == len(value) and sum(numbers) == 0
    return False


def _only_empty_texts(value: Any) -> bool:
    """A non-empty collection whose every item is an empty text (``['', '']``): nothing to count, yet not empty."""
    if isinstance(value, dict):
        value = list(value)
    return (
        isinstance(value, (list, tuple, set, frozenset))
        and len(value) > 0
        and all(isinstance(item, (str, bytes)) and len(item) == 0 for item in value)
    )


def _empty(value: Any) -> bool:
    """An argument with nothing in it (a list, dict, str, ... of length 0)."""
    return isinstance(value, (list, tuple, dict, set, frozenset, str, bytes)) and len(value) == 0


def empty_input_error(error: BaseException, args: tuple = ()) -> str | None:
    """A crash that an empty input (or a total of 0) causes, said as such (max/min of nothing, an index into nothing,
    a division by zero); a division by zero on an input that is neither is told that its divisor is 0."""
    message = str(error)
    if isinstance(error, ValueError) and "empty" in message and ("max()" in message or "min()" in message):
        if args and not any(_empty(arg) for arg in args):
            return (  # the input has something in it: a list the function built on the way is what was empty
                "max() and min() raise on nothing at all, and the input is not empty here: a list your function "
                "built from it was (say, no candidate passed your filter). Give them a default, "
                "max(..., default=None), or test that list before you call them"
            )
        return (
            "max() and min() raise on nothing at all: an empty input needs its own answer before you call them "
            "(e.g. `if not items: ...`)"
        )
    if isinstance(error, IndexError) and any(_empty(arg) for arg in args):
        return (
            "an empty input has no first (or any) element: `symbols[0]` or `items[-1]` raises IndexError on it; "
            "answer the empty input before you index it (e.g. `if not symbols: ...`)"
        )
    if isinstance(error, ZeroDivisionError):
        if any(_only_empty_texts(arg) for arg in args):
            return (
                "you divided by zero: these texts are all empty, so they hold nothing to count, yet the list itself "
                "is not empty and `if not texts:` lets it through; test the total you divide by (`if total == 0:`) "
                "before the division"
            )
        if not args or any(_empty_or_zero(arg) for arg in args):
            return "you divided by zero: an empty input (or a total of 0) needs its own answer before the division"
        return (
            "you divided by zero on an input that is neither empty nor all zeros: what you divide by is 0 here "
            "(a median, a minimum or a count can be 0 when the total is not); divide by the quantity the exercise "
            "names"
        )
    return None


def explain(exercise: ExerciseSpec, attempt: Attempt) -> str:
    """The hint for a wrong answer or an error: swapped parameters, the exercise's diagnosers (they name a known
    mistake, which can also leave a parameter unread), a parameter never read, then the engine's own."""
    hint = (
        swapped_parameters(exercise, attempt) or first_hint(exercise.diagnosers, attempt) or unread_parameter(attempt)
    )
    if hint:
        return hint
    if attempt.error is not None:
        if isinstance(attempt.error, RecursionError):
            return (
                "your function keeps calling itself: check that every recursive call gets closer to a case "
                "that returns without calling itself again"
            )
        return empty_input_error(attempt.error, attempt.args) or exercise.hint
    got, expected = attempt.got, attempt.expected
    wrapped = getattr(got, "what_is_wrong", None)  # an answer an exercise's own rule wrapped says what it found
    if callable(wrapped):
        return str(wrapped())
    hint = type_hint(got, expected)
    if hint:
        return hint
    found = first_float_for_int(got, expected)
    if found:
        right = "the values are right, but " if same(got, expected, loose_ints=True) else ""
        return f"{right}{short(found[0])} is a float where an int is expected, like {short(found[1])}: " + FLOAT_FOR_INT
    if same(normalised(got), normalised(expected), ordered=exercise.order_matters):
        found = first_container_mismatch(got, expected)
        if found:
            return (
                f"the values are right, but {short(found[0])} is {kind(found[0])} where "
                f"{kind(found[1])} is expected, like {short(found[1])}"
            )
    return exercise.hint
