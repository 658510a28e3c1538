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
  their input, and runaway functions all become messages: more than ``max_steps`` executed lines
  (counted with ``sys.settrace``, so the usual endless loop gets the same message on every machine), and,
  watched by a thread, a call still running after ``runaway.MAX_SECONDS`` (a loop on one line, a string
  that grows at every step) or grown by ``runaway.MAX_MEMORY`` bytes (``s = s + s``). Only
  ``KeyboardInterrupt`` (the learner pressing stop) passes through.
- The text is deterministic: no addresses, no timings (only which of the runaway messages comes first can
  depend on how fast the machine is).
- Handed the course's own function object (the reference, the functions whose source ``show_solution`` prints, or
  ``course_functions``; also through a lambda, ``functools.partial``, a bound method or a ``def`` that only returns
  its result), it says so and fails: ``course_functions``. That source pasted into a cell is a function of the
  learner's, checked like any other: a check tests what a function returns, not who typed it.
- A hint names the learner's bug or none: the exercise's diagnosers, then what the engine recognises itself
  (parameters in another order than the call, a crash on an empty input, a wrong type), else the exercise's
  general ``hint``.
- It returns a ``CheckResult`` (``bool(result)`` is ``passed``; stable repr such as
  ``CheckResult(passed=False, name='count_pairs', failed_case=2)``) whose ``_ipython_display_``
  shows nothing, so a cell ending with the call shows the printed report exactly once.
- A passed check ticks the exercise on the course map, except with ``record=False``: every ``check_*``
  takes it, for a lesson that runs a checker on the course's own example to show what it says.

Adding a checker takes ten lines: hand-checked answers where you can, and a ``Case`` without
``expected`` takes its answer from ``reference`` (good for the larger cases). A lesson's checker also
takes ``*, record: bool = True`` and passes it on to ``check`` (the example leaves it out)::

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
``course_functions`` (package functions that are the answer under another name, refused like the
reference), ``inputs_ordered`` (a function must not reorder its inputs' dicts), ``order_matters`` and ``order_hint`` (dicts must keep first-seen order; ``order_diagnosers`` name a
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

The engine's parts, each in a file named after its idea: ``cases`` (``Case``, ``Attempt``), ``course_functions``
(is it the course's own?), ``comparing``
(``same``, ``type_hint``), ``diagnosers`` (``same_as``, ``on_error``, ``when``), ``running`` (one call, safely),
``runaway`` (the guards), ``checking`` (the loop over cases and the report), ``results`` (``CheckResult``, and
what the course map records). Every name stays importable from here.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bpelab.exercises.cases import COMPUTED, Attempt, Case, Diagnoser
from bpelab.exercises.checking import run as _run
from bpelab.exercises.comparing import same, type_hint
from bpelab.exercises.diagnosers import on_error, same_as, when
from bpelab.exercises.results import CheckResult, recording
from bpelab.exercises.runaway import MAX_MEMORY, MAX_SECONDS, MAX_STEPS, Runaway
from bpelab.exercises.showing import without_addresses

__all__ = [
    "COMPUTED",
    "EXERCISES",
    "MAX_MEMORY",
    "MAX_SECONDS",
    "MAX_STEPS",
    "Attempt",
    "Case",
    "CheckResult",
    "Diagnoser",
    "Exercise",
    "Runaway",
    "check_parts",
    "on_error",
    "recording",
    "run_checks",
    "same",
    "same_as",
    "type_hint",
    "when",
]


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
    inputs_ordered: bool = False
    """The order of the inputs' dicts is part of the answer (ties go to the one listed first), so a function that
    reorders them (a key popped and put back, a dict rebuilt sorted) changed its input, even where the answer's own
    order does not matter. Implied by ``order_matters``."""
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
    course_functions: tuple[Callable[..., Any], ...] = ()
    """Package functions that ARE the answer, under another name (``bpelab.analysis.fairness.gini``): handed to
    the checker, alone or called by a lambda, they are refused like the reference itself (``course_functions``),
    since they pass without the learner writing anything."""
    max_steps: int | None = MAX_STEPS
    max_seconds: float | None = None
    """This exercise's clock for each call, when ``runaway.MAX_SECONDS`` is too short for a right answer: one that
    may load a vocabulary itself (``tiktoken.get_encoding``: a second, and many more on a class's busy server).
    The line counter still stops an endless loop of Python well before it."""
    runaway_hint: str = ""
    """The hint for a call the guards stopped (an endless loop), when this exercise's usual one is known (lesson 07's
    find_parents: the missing stop when no pair ranks below the token); default the engine's general one."""

    def __post_init__(self) -> None:
        if not re.fullmatch(r"\w+\(.*\)", self.call):
            raise ValueError(f"call must look like 'name(param, ...)', got {self.call!r}")
        EXERCISES[self.name] = self

    @property
    def own_functions(self) -> tuple[Callable[..., Any], ...]:
        """Everything the course wrote for this exercise, helpers included, what ``show_solution`` prints first."""
        return (*self.solution, *self.course_functions, self.reference)

    @property
    def answer_functions(self) -> tuple[Callable[..., Any], ...]:
        """The course's functions that are the answer itself (a lambda calling one is refused too)."""
        return (*self.course_functions, self.reference)

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

    def run(self, fn: Any, *, record: bool = True) -> CheckResult:
        """Check ``fn`` without printing; the report is in ``result.message``."""
        return run_checks(self.name, [(self, fn)], record=record)

    def check(self, fn: Any, *, record: bool = True) -> CheckResult:
        """Check ``fn``, print the report, return the result. ``record=False``: a pass does not tick the course map."""
        return check_parts(self.name, [(self, fn)], record=record)


EXERCISES: dict[str, Exercise] = {}
"""Every exercise defined so far, by name (an ``Exercise`` registers itself)."""


def check_parts(name: str, parts: Sequence[tuple[Exercise, Any]], *, record: bool = True) -> CheckResult:
    """Check several functions as one exercise (numbered 1..N across all parts), print, return the result."""
    result = run_checks(name, parts, record=record)
    print(result.message)
    return result


def run_checks(name: str, parts: Sequence[tuple[Exercise, Any]], *, record: bool = True) -> CheckResult:
    """Like ``check_parts`` without printing. Never raises (except ``KeyboardInterrupt``)."""
    with recording(record):
        try:
            return _run(name, parts)
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # a bug in the checker, not in the learner's code: still never raise
            message = (
                f"⚠️ {name}: the checker itself failed ({type(err).__name__}: {without_addresses(str(err))}). "
                "This is a bug in bpelab, not in your code; please report it."
            )
            return CheckResult(False, name, None, 0, "checker error", message)
