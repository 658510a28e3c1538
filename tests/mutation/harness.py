"""Judging one shown solution's mutants: does the checker reject every one that answers differently?

For each mutant: build it as the lesson's cell would, run its checker. Rejected: fine. Accepted: the mutant must
be equivalent, so it is run against the exercise's reference on generated inputs (``inputs.STRATEGIES``); any
input where the two answer differently is a checker that lets a wrong answer through.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings

from bpelab.exercises import EXERCISES
from bpelab.exercises.comparing import same
from bpelab.exercises.running import call
from tests.mutation.inputs import STRATEGIES
from tests.mutation.mutator import Mutant, mutants
from tests.mutation.shown import SHOWN, Shown

MAX_STEPS = 200_000
"""Lines one generated input may take (the shown solutions need a few thousand): a mutant looping forever is
stopped sooner than the checkers' own limit would stop it."""

REFERENCE_MAY_REFUSE = {"find_parents"}
"""Exercises whose reference raises on some generated inputs on purpose: ``find_parents`` on a token that no merge
builds (its strategy adds such tokens, as Llama 3 has them). Elsewhere a reference that raises is a bad strategy."""

EXAMPLES = 300
"""Generated inputs per differential run."""


@dataclass
class Tally:
    mutants: int = 0
    rejected: int = 0
    equivalent: int = 0
    equivalents: list[Mutant] = field(default_factory=list)
    survivors: list[tuple[Mutant, str]] = field(default_factory=list)
    """Accepted mutants that answer differently, with the input that shows it."""

    def line(self, name: str) -> str:
        return f"{name}: {self.mutants} mutants, {self.rejected} rejected, {self.equivalent} equivalent" + (
            f", {len(self.survivors)} SURVIVE" if self.survivors else ""
        )


def _answer(fn: Any, args: tuple) -> tuple[str, Any]:
    outcome = call(fn, copy.deepcopy(args), MAX_STEPS)
    if outcome.runaway:
        return "runaway", outcome.runaway
    if outcome.error is not None:
        return "error", type(outcome.error).__name__
    return "value", outcome.got


def first_difference(exercise_name: str, fn: Any, examples: int = EXAMPLES) -> tuple | None:
    """An input (as hypothesis shrinks it) on which ``fn`` and the exercise's reference answer differently."""
    exercise = EXERCISES[exercise_name]
    found: list[tuple] = []

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(STRATEGIES[exercise_name])
    def agrees(args: tuple) -> None:
        kind, expected = _answer(exercise.reference, args)
        if kind != "value":  # outside the exercise's contract (a token no merge builds): not judged
            assert exercise_name in REFERENCE_MAY_REFUSE, f"the reference fails on {_short(args)}: {expected}"
            assume(False)
        got_kind, got = _answer(fn, args)
        if got_kind != "value" or not same(got, expected, ordered=exercise.order_matters):
            found.append(args)
            raise _Differs

    try:
        agrees()
    except _Differs:
        return found[-1]
    return None


class _Differs(Exception):
    pass


def differential(shown: Shown, namespace: dict[str, Any], examples: int = EXAMPLES) -> str | None:
    """Where the solution in ``namespace`` parts from the references, as a line, or None."""
    for name, exercise_name in shown.parts:
        args = first_difference(exercise_name, namespace[name], examples)
        if args is not None:
            return f"{name}{_short(args)} differs from the reference"
    return None


def _short(args: tuple) -> str:
    text = repr(args)
    return text if len(text) <= 300 else text[:300] + "…"


def judge(shown: Shown) -> Tally:
    tally = Tally()
    for mutant in mutants(shown.source()):
        tally.mutants += 1
        try:
            namespace = shown.build(mutant.source)
        except Exception:  # a mutant that fails as its cell runs: the learner sees the error before any check
            tally.rejected += 1
            continue
        if not shown.run_check(namespace).passed:
            tally.rejected += 1
            continue
        difference = differential(shown, namespace)
        if difference is None:
            tally.equivalent += 1
            tally.equivalents.append(mutant)
        else:
            tally.survivors.append((mutant, difference))
    return tally


def assert_strict(shown: Shown) -> Tally:
    """The shown solution passes its checker and agrees with the reference; every mutant the checker accepts is
    equivalent. Prints the exercise's line: mutants, rejected, equivalent."""
    namespace = shown.build(shown.source())
    result = shown.run_check(namespace)
    assert result.passed, f"{shown.notebook} {shown.cell}: the shown solution fails its checker:\n{result.message}"
    difference = differential(shown, namespace)
    assert difference is None, (
        f"{shown.notebook} {shown.cell}: the shown solution parts from the reference: {difference}"
    )
    tally = judge(shown)
    print(tally.line(shown.name))
    for mutant in tally.equivalents:
        print(f"   equivalent: line {mutant.line}, {mutant.what}")
    survivors = [f"line {m.line}, {m.what}: {why}\n{m.source}" for m, why in tally.survivors]
    assert not survivors, f"{shown.name}: the checker accepts wrong answers:\n" + "\n\n".join(survivors)
    return tally


def shown_in(first: str, last: str) -> list[Any]:
    """The shown solutions of lessons ``first`` to ``last`` (two digits each), as pytest parameters named after their
    lesson and exercise. The lessons are spread over a few test files so that ``--dist loadfile`` runs them side by
    side."""
    return [
        pytest.param(shown, id=f"{shown.notebook[:2]}-{shown.name}")
        for shown in SHOWN
        if first <= shown.notebook[:2] <= last
    ]


@pytest.fixture
def vocabularies_held() -> Iterator[None]:
    """GPT-4's and GPT-4o's vocabularies held for the test: a check lets go of those its cases loaded (the memory
    budget), and loading one again inside a reference run under the step counter would read as a runaway."""
    from bpelab.production import load_encoding

    held = [load_encoding(name) for name in ("cl100k_base", "o200k_base")]
    yield
    del held


@pytest.fixture
def patient_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The line counter stops a looping mutant in the same number of steps on any machine; on a machine as busy as
    a shared CI runner the five-second clock could stop the shown solution itself first."""
    from bpelab.exercises import runaway

    monkeypatch.setattr(runaway, "MAX_SECONDS", 30.0)
