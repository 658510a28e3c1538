"""The engine behind every ``check_*`` function: run a learner's function on cases, explain what went wrong.

An ``Exercise`` holds the cases (hand-picked small ones first, then a few larger ones), the
reference function from ``bpelab`` that gives the expected answers, and a list of *diagnosers*:
small functions that recognise a typical mistake ("the last pair of each word is missing") from
what the learner's function returned. ``Exercise.check(fn)`` runs ``fn`` on every case and prints
ONE plain-text report: either ``✅ name: all N checks passed.`` or the first failing check (which
input, what was expected, what came back, a hint), or ``⏳ name: not yet …`` for an unfinished stub.

Guarantees a notebook relies on:
- A check never raises because of the learner's code: exceptions (including ``RecursionError``),
  wrong types, wrong parameter counts, stubs returning ``None`` or ``...``, functions that change
  their input, and runaway loops (more than ``max_steps`` executed lines, counted with
  ``sys.settrace``, so the limit is the same on every machine) all become messages. Only
  ``KeyboardInterrupt`` (the learner pressing stop) passes through.
- The text is deterministic: no addresses, no timings.
- It returns a ``CheckResult`` (``bool(result)`` is ``passed``; stable repr such as
  ``CheckResult(passed=False, name='count_pairs', failed_case=2)``) whose ``_ipython_display_``
  shows nothing, so a cell ending with the call shows the printed report exactly once.

Adding a checker takes ten lines: hand-checked answers where you can, and a ``Case`` without
``expected`` takes its answer from ``reference`` (good for the larger cases)::

    from bpelab.exercises.core import Case, CheckResult, Exercise, same_as
    from bpelab.words import decode_words

    DECODE_WORDS = Exercise(
        name="decode_words", call="decode_words(symbols)", reference=decode_words,
        cases=lambda: [Case((["low", "</w>"],), "low", "one word"), Case((["lo", "w</w>", "er", "</w>"],))],
        diagnosers=[same_as(lambda symbols: "".join(symbols), "the marker '</w>' is still there: turn it into a space")],
    )
    def check_decode_words(decode_words) -> CheckResult:
        return DECODE_WORDS.check(decode_words)

Put it in a file of ``bpelab/exercises/`` named after the idea, and import the ``check_*`` name in
``bpelab/exercises/__init__.py``: that import also registers the exercise in ``EXERCISES``, which
``show_solution`` and the test comparing every hand-written answer with its reference rely on.
Other ``Exercise`` options: ``hint`` (said when no diagnoser recognises the mistake),
``order_matters`` and ``order_hint`` (dicts must keep first-seen order; ``order_diagnosers`` name a
particular wrong order, such as alphabetical, before ``order_hint`` is said), ``solution`` (what
``show_solution`` prints), ``checker`` (the name used in messages), ``max_steps``.

Diagnosers get an ``Attempt`` (``args``, ``expected``, ``got``, ``error``) and return a hint or
``None``; the first hint wins, so put the most specific first. Three helpers build the usual ones:
- ``same_as(variant, hint)``: the learner's function gives what ``variant`` (a typical wrong
  version, written the way a learner writes it) gives, on the failing case and on every other case;
- ``on_error(ExceptionType, hint, contains="")``: it raised that exception;
- ``when(predicate, hint)``: a test on the answer; with ``any_type=False`` it is asked only when
  the answer has the expected type, so the test can index it freely.
Wrong types (``returned a list, expected a dict``), lists where tuples belong, ``None`` from a
missing ``return`` and right-items-wrong-order are explained by the engine itself; an order-only
difference is reported only if no later case has a wrong value, the more basic problem.
Several functions checked as one exercise (a class's ``encode`` and ``decode``): ``check_parts``.

The line counter replaces any tracer (a debugger's) while the learner's function runs, so
breakpoints inside it do not fire during a check.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import inspect
import io
import math
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bpelab.course.progress import record_pass
from bpelab.exercises.showing import differences, kind, short, without_addresses

MAX_STEPS = 2_000_000
"""Lines of Python a learner's function may run on one case before it counts as runaway.

The straightforward solutions of the exercises here need at most about 50,000 on the largest case."""


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


Diagnoser = Callable[[Attempt], "str | None"]


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


def same(got: Any, expected: Any, *, ordered: bool = False) -> bool:
    """Equal, with types that matter: a list is not a tuple, a dict is a dict (``Counter`` is fine).

    Numbers compare with a 1e-9 tolerance (``1`` equals ``1.0``); ``ordered`` also compares dict
    key order, at every level.
    """
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is type(expected) and got == expected
    if isinstance(expected, int) and isinstance(got, int):
        return got == expected
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        try:
            return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)
        except OverflowError:  # an int too large for a float
            return False
    if isinstance(expected, dict):
        if not isinstance(got, dict) or len(got) != len(expected) or got.keys() != expected.keys():
            return False
        if ordered and list(got) != list(expected):
            return False
        return all(same(got[key], value, ordered=ordered) for key, value in expected.items())
    if isinstance(expected, (list, tuple)):
        if type(got) is not type(expected) or len(got) != len(expected):
            return False
        return all(same(g, e, ordered=ordered) for g, e in zip(got, expected))
    if isinstance(expected, (str, bytes)):
        return type(got) is type(expected) and got == expected
    try:
        return bool(got == expected)
    except Exception:
        return False


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check, for code; the learner reads the printed ``message``.

    ``status`` is ``"passed"``, ``"failed"``, ``"not yet"`` (an unfinished stub) or
    ``"checker error"`` (a bug in bpelab itself). ``failed_case`` counts from 1.
    A passed result is recorded for the course map (``bpelab.course.progress``), wherever it is made.
    """

    passed: bool
    name: str
    failed_case: int | None = None
    checks: int = field(default=0, repr=False)
    status: str = field(default="passed", repr=False)
    message: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.passed:  # for the course map (lesson 00); never raises, never fails a check
            record_pass(self.name)

    def __bool__(self) -> bool:
        return self.passed

    def _ipython_display_(self) -> None:
        """Show nothing: the report was already printed when the check ran."""


@dataclass(frozen=True)
class Exercise:
    """One function a learner writes, its cases, its reference, and the mistakes it knows how to name."""

    name: str
    """Short name used in messages and by ``show_solution``, e.g. ``"count_pairs"``."""
    call: str
    """How the function is called, e.g. ``"count_pairs(word_freq)"``: shown when the parameters are wrong."""
    reference: Callable[..., Any]
    cases: Callable[[], Sequence[Case]] | Sequence[Case]
    diagnosers: Sequence[Diagnoser] = ()
    """Tried in order on a failing check; the first hint wins. Put the specific ones first."""
    hint: str = ""
    """Said when no diagnoser recognises the mistake."""
    order_matters: bool = False
    """Dicts must come back in the same key order as the reference's (first-seen order)."""
    order_hint: str = (
        "the right items, but in a different order: keep them in the order you first meet them "
        "(don't sort, and don't go through a set, whose order is arbitrary)"
    )
    order_diagnosers: Sequence[Diagnoser] = ()
    """Tried on a right-items-wrong-order answer, to name the order it has (e.g. sorted); else ``order_hint``."""
    checker: str = ""
    """The check function's name for messages; default ``check_<name>``."""
    solution: tuple[Callable[..., Any], ...] = ()
    """What ``show_solution`` prints; default the reference."""
    max_steps: int | None = MAX_STEPS

    def __post_init__(self) -> None:
        if not re.fullmatch(r"\w+\(.*\)", self.call):
            raise ValueError(f"call must look like 'name(param, ...)', got {self.call!r}")
        EXERCISES[self.name] = self

    @property
    def function_name(self) -> str:
        return self.call.split("(", 1)[0]

    @property
    def parameters(self) -> list[str]:
        inside = self.call.split("(", 1)[1].rsplit(")", 1)[0]
        return [p.strip() for p in inside.split(",") if p.strip()]

    def build_cases(self) -> list[Case]:
        """The cases with every ``expected`` filled in from the reference."""
        cases = self.cases() if callable(self.cases) else self.cases
        return [
            case if case.expected is not COMPUTED else replace(case, expected=self.reference(*copy.deepcopy(case.args)))
            for case in cases
        ]

    def run(self, fn: Any) -> CheckResult:
        """Check ``fn`` without printing; the report is in ``result.message``."""
        return run_checks(self.name, [(self, fn)])

    def check(self, fn: Any) -> CheckResult:
        """Check ``fn``, print the report, return the result."""
        return check_parts(self.name, [(self, fn)])


EXERCISES: dict[str, Exercise] = {}
"""Every exercise defined so far, by name (an ``Exercise`` registers itself)."""


def check_parts(name: str, parts: Sequence[tuple[Exercise, Any]]) -> CheckResult:
    """Check several functions as one exercise (numbered 1..N across all parts), print, return the result."""
    result = run_checks(name, parts)
    print(result.message)
    return result


def run_checks(name: str, parts: Sequence[tuple[Exercise, Any]]) -> CheckResult:
    """Like ``check_parts`` without printing. Never raises (except ``KeyboardInterrupt``)."""
    try:
        return _run(name, parts)
    except Exception as err:  # a bug in the checker, not in the learner's code: still never raise
        message = (
            f"⚠️ {name}: the checker itself failed ({type(err).__name__}: {without_addresses(str(err))}). "
            "This is a bug in bpelab, not in your code; please report it."
        )
        return CheckResult(False, name, None, 0, "checker error", message)


# ---------------------------------------------------------------------------------------------
# Running one learner function safely


class _TooManySteps(BaseException):
    """Raised by the line counter; a BaseException so that ``except Exception`` in learner code lets it through."""


@dataclass
class _Outcome:
    got: Any = None
    error: BaseException | None = None
    where: str = ""
    runaway: bool = False


def _call(fn: Callable[..., Any], args: tuple, max_steps: int | None) -> _Outcome:
    """Call ``fn(*args)``; catch what it raises; stop it after ``max_steps`` executed lines."""
    steps = 0

    def count_line(frame: Any, event: str, arg: Any) -> Any:
        nonlocal steps
        if event == "line":
            steps += 1
            if max_steps is not None and steps > max_steps:
                raise _TooManySteps
        return count_line

    def on_call(frame: Any, event: str, arg: Any) -> Any:
        return count_line

    previous = sys.gettrace()
    if max_steps:
        sys.settrace(on_call)  # replaces a debugger's tracer for the duration of the call only
    try:
        return _Outcome(got=fn(*args))
    except _TooManySteps:
        return _Outcome(runaway=True)
    except (Exception, SystemExit) as err:
        return _Outcome(error=err, where=_where(err, fn))
    finally:
        sys.settrace(previous)


def _code_of(fn: Any) -> Any:
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__code__", None)


def _where(err: BaseException, fn: Any) -> str:
    """``line 4 of your function`` (its ``def`` line is line 1), or ``in your helper `foo```."""
    code = _code_of(fn)
    if code is None:
        return ""
    found = None
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == code.co_filename:
            found = tb
        tb = tb.tb_next
    if found is None:
        return ""
    if found.tb_frame.f_code is code:
        return f"line {found.tb_lineno - code.co_firstlineno + 1} of your function"
    name = found.tb_frame.f_code.co_name
    return "in a lambda or comprehension of yours" if name.startswith("<") else f"in your `{name}`"


def _body(fn: Any) -> str:
    """What the body of ``fn`` looks like: ``"stub"``, ``"no return"``, ``"returns"`` or ``"unknown"``.

    A stub holds only ``pass``, ``...``, a docstring, ``return None`` or ``raise NotImplementedError``.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except Exception:  # no source (built in, made by exec), or a lambda inside a longer line
        return "unknown"
    defs = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return "unknown"
    body = defs[0].body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0].value, "value", None), str):
        body = body[1:]  # the docstring

    def trivial(node: ast.stmt) -> bool:
        if isinstance(node, ast.Pass):
            return True
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            return True
        if isinstance(node, ast.Return):
            return node.value is None or (isinstance(node.value, ast.Constant) and node.value.value in (None, Ellipsis))
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
        return False

    if all(trivial(node) for node in body):
        return "stub"
    returns = any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(defs[0]))
    return "returns" if returns else "no return"


def _parameters_problem(fn: Any, exercise: Exercise, n_args: int) -> str | None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # some built-ins have no signature: just try calling
        return None
    try:
        signature.bind(*range(n_args))
        return None
    except TypeError:
        pass
    names = list(signature.parameters)
    takes = f"{len(names)} parameter{'s' if len(names) != 1 else ''} ({', '.join(names)})" if names else "no parameters"
    calls = f"{n_args} argument{'s' if n_args != 1 else ''}"
    if inspect.ismethod(fn):
        return (
            f"your {exercise.function_name} method is called with {calls}, as {exercise.call}, "
            f"but its parameters don't fit.\n   hint:     a method needs `self` first: "
            f"`def {exercise.function_name}(self, {', '.join(exercise.parameters)}):`"
        )
    return (
        f"your {exercise.function_name} takes {takes}, but it is called with {calls}, "
        f"as {exercise.call}.\n   hint:     make its first line `def {exercise.call}:`"
    )


# ---------------------------------------------------------------------------------------------
# Explaining a wrong answer


def _normalised(value: Any) -> Any:
    """Lists and tuples alike, to tell "wrong container" from "wrong values"."""
    if isinstance(value, (list, tuple)):
        return tuple(_normalised(item) for item in value)
    if isinstance(value, dict):
        return {_normalised(k): _normalised(v) for k, v in value.items()}
    return value


def _first_container_mismatch(got: Any, expected: Any) -> tuple[Any, Any] | None:
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        if type(got) is not type(expected):
            return got, expected
        for g, e in zip(got, expected):
            found = _first_container_mismatch(g, e)
            if found:
                return found
    if isinstance(expected, dict) and isinstance(got, dict):
        for (gk, gv), (ek, ev) in zip(got.items(), expected.items()):
            found = _first_container_mismatch(gk, ek) or _first_container_mismatch(gv, ev)
            if found:
                return found
    return None


def type_hint(got: Any, expected: Any) -> str | None:
    """The hint for a wrong type: ``returned a list, expected a dict``, with a way out when there is one."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return None
    numbers = (int, float)
    if isinstance(expected, numbers) and isinstance(got, numbers) and bool not in (type(expected), type(got)):
        return None
    if type(got) is type(expected):
        return None
    base = f"returned {kind(got)}, expected {kind(expected)}"
    name = type(got).__name__
    if name == "generator" and getattr(getattr(got, "gi_code", None), "co_name", "") == "<genexpr>":
        brackets = "square brackets [x for x in ...]" if isinstance(expected, list) else "a container, e.g. list(...)"
        return base + f": a generator expression (x for x in ...) makes a generator, not a list; use {brackets}"
    if name == "generator":
        return base + ": your function uses `yield`; build the whole result and `return` it instead"
    if isinstance(expected, list) and name in ("map", "filter", "zip", "tuple", "dict_keys", "dict_values", "range"):
        return base + ": wrap it in list(...)"
    if isinstance(expected, tuple) and isinstance(got, list):
        return base + ": wrap it in tuple(...)"
    if isinstance(expected, dict) and isinstance(got, list):
        try:
            if same(dict(got), expected):
                return (
                    base + ": your list holds the right (key, value) items; return a dict, e.g. dict(items) "
                    "(most_common() and sorted() give lists)"
                )
        except (TypeError, ValueError):
            pass
    return base


def _first_hint(diagnosers: Sequence[Diagnoser], attempt: Attempt) -> str | None:
    for diagnose in diagnosers:
        try:
            hint = diagnose(attempt)
        except Exception:  # a diagnoser tripping over an odd answer must not hide the report
            hint = None
        if hint:
            return hint
    return None


def _explain(exercise: Exercise, attempt: Attempt) -> str:
    hint = _first_hint(exercise.diagnosers, attempt)
    if hint:
        return hint
    if attempt.error is not None:
        if isinstance(attempt.error, RecursionError):
            return (
                "your function keeps calling itself: check that every recursive call gets closer to a case "
                "that returns without calling itself again"
            )
        return exercise.hint
    got, expected = attempt.got, attempt.expected
    hint = type_hint(got, expected)
    if hint:
        return hint
    if same(_normalised(got), _normalised(expected), ordered=exercise.order_matters):
        found = _first_container_mismatch(got, expected)
        if found:
            return (
                f"the values are right, but {short(found[0])} is {kind(found[0])} where "
                f"{kind(found[1])} is expected, like {short(found[1])}"
            )
    return exercise.hint


def _changed_argument(after: tuple, before: tuple) -> int | None:
    """The index of the first argument the learner's function changed in place, if any.

    An argument whose type has no value equality (two copies never compare equal) is not judged.
    """
    for i, (a, b) in enumerate(zip(after, before)):
        if not same(a, b, ordered=True) and same(b, copy.deepcopy(b), ordered=True):
            return i
    return None


# ---------------------------------------------------------------------------------------------
# The loop over cases


def _run(name: str, parts: Sequence[tuple[Exercise, Any]]) -> CheckResult:
    planned = [(exercise, fn, exercise.build_cases()) for exercise, fn in parts]
    total = sum(len(cases) for _, _, cases in planned)
    first = 0
    for exercise, fn, cases in planned:
        yours = "your function" if len(planned) == 1 else f"your {exercise.function_name}"
        result = _check_part(name, exercise, fn, cases, first, total, yours)
        if result is not None:
            return result
        first += len(cases)
    return CheckResult(True, name, None, total, "passed", f"✅ {name}: all {total} checks passed.")


def _check_part(
    name: str, exercise: Exercise, fn: Any, cases: list[Case], first: int, total: int, yours: str
) -> CheckResult | None:
    """The first failure among ``cases`` (numbered from ``first + 1``), or None when all pass."""

    def failed(number: int, lines: list[str], status: str = "failed") -> CheckResult:
        return CheckResult(False, name, number, total, status, "\n".join(lines))

    if not callable(fn):
        checker = exercise.checker or f"check_{exercise.name}"
        got = "None" if fn is None else f"{kind(fn)}, {short(fn)}"
        return failed(
            first + 1,
            [
                f"❌ {name}: expected {yours}, but got {got}.",
                f"   hint:     pass the function itself, without calling it: "
                f"{checker}({exercise.function_name}), not {checker}({exercise.function_name}(...))",
            ],
        )
    problem = _parameters_problem(fn, exercise, len(cases[0].args)) if cases else None
    if problem:
        return failed(first + 1, [f"❌ {name}: {problem}"])

    answers: dict[int, Any] = {}  # what the function returned, by case index

    def history(skip: int) -> list[tuple[tuple, Any]]:
        for index, case in enumerate(cases):
            if index not in answers and index != skip:
                with contextlib.redirect_stdout(io.StringIO()):  # a learner's debug prints, once is enough
                    outcome = _call(fn, copy.deepcopy(case.args), exercise.max_steps)
                answers[index] = outcome if outcome.error is not None or outcome.runaway else outcome.got
        return [(cases[i].args, got) for i, got in answers.items() if i != skip and not isinstance(got, _Outcome)]

    order_failure: CheckResult | None = None
    for index, case in enumerate(cases):
        number = first + index + 1
        given, before = copy.deepcopy(case.args), copy.deepcopy(case.args)
        outcome = _call(fn, given, exercise.max_steps)
        answers[index] = outcome if outcome.error is not None or outcome.runaway else outcome.got
        lines = [
            f"❌ {name}: check {number} of {total} failed" + (f" — {case.note}" if case.note else ""),
            f"   input:    {exercise.function_name}({', '.join(short(arg) for arg in before)})",
            f"   expected: {short(case.expected)}",
        ]
        if outcome.runaway:
            return failed(
                number,
                lines
                + [
                    f"   problem:  {yours} did not finish: it ran more than {exercise.max_steps:,} lines of Python "
                    "on this input",
                    "   hint:     probably an endless loop (or a far slower method than needed): does every `while` "
                    "loop move its counter on (i += 1) on every path, including the `else` branch?",
                ],
            )
        attempt = Attempt(before, case.expected, outcome.got, outcome.error, functools.partial(history, index))
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
            hint = _explain(exercise, attempt)
            return failed(number, lines + ([f"   hint:     {hint}"] if hint else []))
        got = outcome.got
        changed = _changed_argument(given, before)
        if same(got, case.expected, ordered=exercise.order_matters):
            if changed is not None:
                i = changed
                what = exercise.parameters[i] if i < len(exercise.parameters) else f"argument {i + 1}"
                return failed(
                    number,
                    lines[:2]
                    + [
                        f"   got:      {short(got)} (right)",
                        f"   problem:  {yours} changed its input: {what} is now {short(given[i])}",
                        "   hint:     build a new result and return it; leave what you were given as it was "
                        "(the caller still needs it)",
                    ],
                )
            continue
        if got is None or got is Ellipsis:
            body = _body(fn)
            if got is Ellipsis or body == "stub" or (index == 0 and body == "unknown"):
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
                hint = _first_hint(exercise.order_diagnosers, attempt) or exercise.order_hint
                order_failure = failed(number, lines + [f"   hint:     {hint}"])
            continue
        if got is None:
            hint = (
                "your function has no `return` statement with a value, so Python returns None: "
                "end it with `return <your result>`"
                if _body(fn) == "no return"
                else "your function returned None here: some path through it ends without reaching `return`"
            )
        else:
            hint = _explain(exercise, attempt)
        if hint:
            lines.append(f"   hint:     {hint}")
        if changed is not None:
            lines.append("   also:     your function changed its input; build a new result instead")
        return failed(number, lines)
    return order_failure
