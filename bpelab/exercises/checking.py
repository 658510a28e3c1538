"""The loop over an exercise's cases: run each, stop at the first failure, and write the report.

``run`` checks several functions as one exercise (numbered 1..N across all parts). A failure is reported for
the first failing case, except that a right-items-wrong-order answer is reported only if no later case has a
wrong value, the more basic problem. A runaway (``runaway``) gets a message that says which limit it hit.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import sys
from collections.abc import Sequence
from typing import Any

from bpelab.exercises import runaway
from bpelab.exercises.cases import Attempt, Case, ExerciseSpec
from bpelab.exercises.comparing import changed_argument, same
from bpelab.exercises.course_functions import course_function, describe
from bpelab.exercises.diagnosers import explain, first_hint, swapped_parameters
from bpelab.exercises.results import CheckResult
from bpelab.exercises.running import (
    Outcome,
    body,
    call,
    globals_read,
    parameter_names,
    parameters_problem,
    unread_parameters,
    ways_to_none,
)
from bpelab.exercises.showing import differences, kind, short, without_addresses


def not_a_function(name: str, exercise: ExerciseSpec, fn: Any, yours: str) -> list[str]:
    """The report for a value handed in where a function belongs: called by mistake, or a name that holds its
    own result now (``gini = gini([1, 3])`` in a notebook, whose names live in ``__main__``)."""
    checker = exercise.checker or f"check_{exercise.name}"
    function = exercise.function_name
    got = "None" if fn is None else f"{kind(fn)}, {short(fn)}"
    notebook = sys.modules.get("__main__")
    if fn is not None and getattr(notebook, function, None) is fn:
        what = "a number" if isinstance(fn, int | float) and not isinstance(fn, bool) else kind(fn)
        hint = (
            f"{function} now holds {what} ({short(fn)}), not a function: a line such as `{function} = "
            f"{function}(...)` replaced it. Run the cell that defines the function again, and keep results under "
            "another name"
        )
    else:
        hint = f"pass the function itself, without calling it: {checker}({function}), not {checker}({function}(...))"
    return [f"❌ {name}: expected {yours}, but got {got}.", f"   hint:     {hint}"]


def none_hint(exercise: ExerciseSpec, fn: Any) -> str:
    """Why a function returned None where an answer was due, when no diagnoser of the exercise knows."""
    if body(fn) == "no return":
        return "your function has no `return` statement with a value, so Python returns None: end it with `return <your result>`"
    explicit, falls_off = ways_to_none(fn)
    if explicit and not falls_off:  # its own `return None` answered: the condition that leads there is wrong
        return "your function returned None here, by a `return None` of its own, where an answer was due: " + (
            exercise.hint or "check the condition that leads to it"
        )
    if explicit:
        return (
            "your function returned None here: by a `return None` of its own where an answer was due, or because "
            "some path through it ends without reaching `return`"
        )
    return "your function returned None here: some path through it ends without reaching `return`"


class _Printed(io.TextIOBase):
    """Standard output while a learner's function runs: shown as usual, its first characters kept, so that a check
    can tell a function that printed its answer (and returned None) from one that has no answer yet."""

    KEEP = 200

    def __init__(self, shown: Any) -> None:
        self.shown, self.kept = shown, ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if len(self.kept) < self.KEEP:
            self.kept += text[: self.KEEP - len(self.kept)]
        return self.shown.write(text)

    def flush(self) -> None:
        self.shown.flush()


def call_watched(fn: Any, args: tuple, max_steps: int | None, max_seconds: float | None = None) -> tuple[Outcome, str]:
    """``call``, and the start of what the function printed."""
    printed = _Printed(sys.stdout)
    with contextlib.redirect_stdout(printed):
        outcome = call(fn, args, max_steps, max_seconds)
    return outcome, printed.kept


def printed_not_returned(printed: str, function: str) -> str:
    """The hint for a function that printed something and returned None: ``print`` shows, ``return`` hands back."""
    shown = printed.strip()
    shown = shown if len(shown) <= 60 else shown[:60] + "…"
    return (
        f"your function printed {shown!r} but returned None: `print` only shows a value on the screen, `return` hands "
        f"it to the caller (the check, or any code that uses {function}). End it with `return <your result>` where it "
        "prints the result"
    )


def runaway_lines(
    yours: str, outcome: Outcome, max_steps: int | None, hint: str = "", max_seconds: float | None = None
) -> list[str]:
    """The problem and hint lines for a call the guards stopped, by the limit it hit; ``hint``, the exercise's own
    for an endless loop, replaces the general one of the time and line limits; ``max_seconds``, the clock the
    call had (default ``runaway.MAX_SECONDS``)."""
    if outcome.runaway == "memory":
        return [
            f"   problem:  {yours} did not finish: it took more than {runaway.MAX_MEMORY // 2**20:,} MB of memory "
            "on this input",
            "   hint:     something grows without end: a string or list that a loop keeps adding to (s = s + s "
            "doubles it every time) — does the loop ever stop?",
        ]
    if outcome.runaway == "time":
        general = (
            "an endless loop, or a method far slower than needed (the course's answers each take well under a second "
            "here): a `while True:` needs a `break` or `return` that is reached, a `while` condition must become "
            "false (move its counter on: i += 1), and a loop over itertools.count() never ends by itself; a wait "
            "(time.sleep, input()) is not cut short, it is stopped when it returns"
        )
        return [
            f"   problem:  {yours} did not finish: it was still running after {max_seconds or runaway.MAX_SECONDS:g} seconds "
            "on this input, and the check stopped it at its next line of Python",
            f"   hint:     {hint or general}",
        ]
    general = (
        "probably an endless loop (or a far slower method than needed): does every `while` loop move its counter on "
        "(i += 1) on every path, including the `else` branch?"
    )
    return [
        f"   problem:  {yours} did not finish: it ran more than {max_steps or 0:,} lines of Python on this input",
        f"   hint:     {hint or general}",
    ]


def run(name: str, parts: Sequence[tuple[ExerciseSpec, Any]]) -> CheckResult:
    planned = [(exercise, fn, exercise.build_cases()) for exercise, fn in parts]
    total = sum(len(cases) for _, _, cases in planned)
    first = 0
    for exercise, fn, cases in planned:
        yours = "your function" if len(planned) == 1 else f"your {exercise.function_name}"
        result = check_part(name, exercise, fn, cases, first, total, yours)
        if result is not None:
            return result
        first += len(cases)
    return CheckResult(True, name, None, total, "passed", f"✅ {name}: all {total} checks passed.")


def check_part(
    name: str, exercise: ExerciseSpec, fn: Any, cases: list[Case], first: int, total: int, yours: str
) -> CheckResult | None:
    """The first failure among ``cases`` (numbered from ``first + 1``), or None when all pass."""

    def failed(number: int, lines: list[str], status: str = "failed") -> CheckResult:
        return CheckResult(False, name, number, total, status, "\n".join(lines))

    if not callable(fn):
        return failed(first + 1, not_a_function(name, exercise, fn, yours))
    theirs = course_function(fn, exercise.own_functions, exercise.answer_functions)
    if theirs is not None:
        return failed(
            first + 1,
            [
                f"❌ {name}: that is the course's function ({describe(theirs)}): write yours, then check it.",
                "   hint:     a check compares your function with the course's; handed the course's own, "
                "there is nothing of yours to check",
            ],
        )
    problem = parameters_problem(fn, exercise, len(cases[0].args)) if cases else None
    if problem:
        return failed(first + 1, [f"❌ {name}: {problem}"])

    answers: dict[int, Any] = {}  # what the function returned, by case index

    def history(skip: int) -> list[tuple[tuple, Any]]:
        for index, case in enumerate(cases):
            if index not in answers and index != skip:
                if any(
                    isinstance(a, Outcome) and (a.runaway in ("time", "memory") or isinstance(a.error, MemoryError))
                    for a in answers.values()
                ):
                    break  # one call stopped by the clock or out of memory is enough: the report must come soon
                with contextlib.redirect_stdout(io.StringIO()):  # a learner's debug prints, once is enough
                    outcome = call(fn, copy.deepcopy(case.args), exercise.max_steps, exercise.max_seconds)
                answers[index] = outcome if outcome.error is not None or outcome.runaway else outcome.got
        return [(cases[i].args, got) for i, got in answers.items() if i != skip and not isinstance(got, Outcome)]

    order_failure: CheckResult | None = None
    for index, case in enumerate(cases):
        number = first + index + 1
        given, before = copy.deepcopy(case.args), copy.deepcopy(case.args)
        outcome, printed = call_watched(fn, given, exercise.max_steps, exercise.max_seconds)
        answers[index] = outcome if outcome.error is not None or outcome.runaway else outcome.got
        lines = [
            f"❌ {name}: check {number} of {total} failed" + (f" — {case.note}" if case.note else ""),
            f"   input:    {exercise.function_name}({', '.join(short(arg) for arg in before)})",
            f"   expected: {short(case.expected)}",
        ]
        if outcome.runaway:
            return failed(
                number,
                lines + runaway_lines(yours, outcome, exercise.max_steps, exercise.runaway_hint, exercise.max_seconds),
            )
        attempt = Attempt(
            before,
            case.expected,
            outcome.got,
            outcome.error,
            functools.partial(history, index),
            parameter_names(fn),
            unread_parameters(fn),
            globals_read(fn),
        )
        if outcome.error is not None:
            error = outcome.error
            if index == 0 and isinstance(error, NotImplementedError):
                return failed(
                    number,
                    [
                        f"⏳ {name}: not yet — {yours} raises NotImplementedError. "
                        "Replace that line with your code and run its cell, then run this check again."
                    ],
                    "not yet",
                )
            message = without_addresses(str(error))
            message = message if len(message) <= 200 else message[:200] + "…"
            where = f" ({outcome.where})" if outcome.where else ""
            lines.append(f"   error:    {yours} raised {type(error).__name__}: {message}".rstrip(": ") + where)
            hint = explain(exercise, attempt)
            return failed(number, lines + ([f"   hint:     {hint}"] if hint else []))
        got = outcome.got
        # an input whose order the exercise ignores may come back reordered (a key popped and put back)
        changed = changed_argument(given, before, ordered=exercise.order_matters or exercise.inputs_ordered)
        if same(got, case.expected, ordered=exercise.order_matters):
            if changed is not None:
                i = changed
                what = exercise.parameters[i] if i < len(exercise.parameters) else f"argument {i + 1}"
                reordered = same(given[i], before[i], ordered=False)
                change = f"reordered {what} (same items, another order)" if reordered else f"{what} is now"
                return failed(
                    number,
                    lines[:2]
                    + [
                        f"   got:      {short(got)} (right)",
                        f"   problem:  {yours} changed its input: {change} {short(given[i])}",
                        "   hint:     build a new result and return it; leave what you were given as it was "
                        "(the caller still needs it)",
                    ],
                )
            continue
        if got is None or got is Ellipsis:
            shape = body(fn)
            if got is None and printed.strip():
                pass  # it printed something: not a stub; the hint below says print is not return
            elif got is Ellipsis or shape == "stub" or (index == 0 and shape == "unknown"):
                return failed(
                    number,
                    [
                        f"⏳ {name}: not yet — {yours} returned {kind(got)}. Fill in the body and run its cell, then run this check again."
                    ],
                    "not yet",
                )
        lines.append(f"   got:      {short(got)}")
        try:
            diff = differences(case.expected, got)
        except Exception:
            diff = ""
        if diff:
            lines.append(f"   differs:  {diff}")
        if exercise.order_matters and same(got, case.expected, ordered=False):
            # Right items, wrong order: report it only if no later case has wrong items, the more basic problem.
            if order_failure is None:
                hint = first_hint(exercise.order_diagnosers, attempt) or exercise.order_hint
                order_failure = failed(number, lines + [f"   hint:     {hint}"])
            continue
        if got is None:  # a mistake an exercise knows returns None too (a turn never passed on): say that first
            hint = (
                swapped_parameters(exercise, attempt)
                or (printed_not_returned(printed, exercise.function_name) if printed.strip() else "")
                or first_hint(exercise.diagnosers, attempt)
                or none_hint(exercise, fn)
            )
        else:
            hint = explain(exercise, attempt)
        if hint:
            lines.append(f"   hint:     {hint}")
        if changed is not None:
            lines.append("   also:     your function changed its input; build a new result instead")
        return failed(number, lines)
    if order_failure is None:
        return changed_by_a_later_call(name, exercise, cases, answers, first, total, yours)
    return order_failure


def changed_by_a_later_call(
    name: str, exercise: ExerciseSpec, cases: list[Case], answers: dict[int, Any], first: int, total: int, yours: str
) -> CheckResult | None:
    """The first answer, right when it came back, that a later call changed: a function that hands back the same
    list (or dict) at every call, emptied and filled again, passes each case as it runs, and yet a caller who keeps
    two answers finds both equal to the last."""
    for index, got in answers.items():
        case = cases[index]
        if isinstance(got, Outcome) or same(got, case.expected, ordered=exercise.order_matters):
            continue
        number = first + index + 1
        others = sum(1 for i, other in answers.items() if i != index and other is got)
        shared = f"the very {type(got).__name__} {others} other checks got" if others else "a later call changed it"
        empties: dict[type, str] = {list: "out = []", dict: "out = {}", set: "out = set()"}
        empty = empties.get(type(got), "a new one")
        return CheckResult(
            False,
            name,
            number,
            total,
            "failed",
            "\n".join(
                [
                    f"❌ {name}: check {number} of {total} failed" + (f" — {case.note}" if case.note else ""),
                    f"   input:    {exercise.function_name}({', '.join(short(arg) for arg in case.args)})",
                    f"   expected: {short(case.expected)}",
                    f"   got:      {short(got)} (right when it came back; now it is {shared})",
                    f"   problem:  {yours} hands back the same {type(got).__name__} at every call, emptied and filled "
                    "again, so an answer kept from one call changes at the next",
                    f"   hint:     make a new one inside the function at each call ({empty} as its first line), not "
                    "one made outside the function or a default argument, so that each caller keeps its own answer",
                ]
            ),
        )
    return None
