"""A learner's function that calls a helper of theirs still left as the unfinished start: say "finish it first".

Lesson 04's ``my_merge_pair`` may call ``my_merge_symbols``, and ``my_train`` both; a learner who wrote the later
function before the earlier one sees a report about ``{None: 1}`` or a ``TypeError`` inside the loop, or the engine's
"your function raises NotImplementedError" for a line that is not in the function checked. ``name_stub_helpers``
rewrites such a report: it reads which global names the function (and the functions of the learner's it calls, and
their comprehensions and lambdas) use, and finds those whose body is still a stub (only ``...``, ``pass``, a
docstring, ``return None`` or ``raise NotImplementedError``: ``running.body``).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any

from bpelab.exercises.results import CheckResult
from bpelab.exercises.runaway import PACKAGE_DIRECTORY
from bpelab.exercises.running import body


def _names_used(code: types.CodeType) -> set[str]:
    """The global names ``code`` and the code nested in it (comprehensions, lambdas, inner functions) use."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names_used(const)
    return names


def _learners_function(value: Any) -> types.FunctionType | None:
    """``value`` as a plain function written by the learner (not one of the course's, not a built-in)."""
    function = getattr(value, "__func__", value)
    if not isinstance(function, types.FunctionType):
        return None
    return None if function.__code__.co_filename.startswith(PACKAGE_DIRECTORY) else function


def stub_helpers(fn: Any, *, depth: int = 4) -> list[tuple[str, str]]:
    """The learner's functions that ``fn`` calls, directly or through others of theirs (up to ``depth`` calls deep),
    whose body is still a stub, in the order met: (name, the name of the function of theirs that calls it, or ""
    when ``fn`` calls it itself)."""
    start = _learners_function(fn)
    if start is None:
        return []
    found: list[tuple[str, str]] = []
    seen: set[types.FunctionType] = {start}
    frontier: list[tuple[types.FunctionType, str]] = [(start, "")]
    for _ in range(depth):
        next_frontier = []
        for function, name_of_function in frontier:
            for name in sorted(_names_used(function.__code__)):
                helper = _learners_function(function.__globals__.get(name))
                if helper is None or helper in seen:
                    continue
                seen.add(helper)
                if body(helper) == "stub":
                    found.append((name, name_of_function))
                else:
                    next_frontier.append((helper, name))
        frontier = next_frontier
    return found


def learners_helpers(fn: Any, *, depth: int = 4) -> list[tuple[str, types.FunctionType]]:
    """The learner's functions that ``fn`` calls, directly or through others of theirs (up to ``depth`` calls deep),
    in the order met, as (the global name it is called by, the function); ``fn`` itself is not listed."""
    start = _learners_function(fn)
    if start is None:
        return []
    found: list[tuple[str, types.FunctionType]] = []
    seen: set[types.FunctionType] = {start}
    frontier = [start]
    for _ in range(depth):
        next_frontier = []
        for function in frontier:
            for name in sorted(_names_used(function.__code__)):
                helper = _learners_function(function.__globals__.get(name))
                if helper is None or helper in seen:
                    continue
                seen.add(helper)
                found.append((name, helper))
                next_frontier.append(helper)
        frontier = next_frontier
    return found


def _finish_hint(found: list[tuple[str, str]]) -> str:
    listed = " and ".join(f"`{name}`" + (f" (through your `{via}`)" if via else "") for name, via in found)
    which = "they are" if len(found) > 1 else "it is"
    names = " and ".join(name for name, _ in found)
    return (
        f"your function calls {listed}, and {which} still the unfinished start (nothing but `...`, `pass`, "
        f"`return None` or `raise NotImplementedError`): finish {names} first, run its cell, then run this check again"
    )


def _name_not_defined(result: CheckResult) -> bool:
    """The report is about a ``NameError``: a name not defined (the imports cell skipped, a typo) stops the function
    before any helper of the learner's runs, and the report's hint already names the cell that defines it."""
    return any(line.startswith("   error:") and "NameError" in line for line in result.message.split("\n"))


def name_stub_helpers(result: CheckResult, fn: Any) -> CheckResult:
    """``result`` with its hint (or its "not yet" line) naming the stub helpers ``fn`` calls; unchanged when it
    passed, when no helper is a stub, or when it reports a ``NameError`` (that name is the first thing to fix)."""
    if result.passed or _name_not_defined(result):
        return result
    try:
        found = stub_helpers(fn)
    except Exception:  # an odd callable: keep the engine's report
        return result
    if not found:
        return result
    hint = _finish_hint(found)
    if result.status == "not yet":
        message = f"⏳ {result.name}: not yet — {hint}."
        return dataclasses.replace(result, message=message)
    lines = result.message.split("\n")
    if any(line.startswith("   hint:") for line in lines):
        lines = [f"   hint:     {hint}" if line.startswith("   hint:") else line for line in lines]
    else:
        lines.append(f"   hint:     {hint}")
    return dataclasses.replace(result, message="\n".join(lines))


def check_naming_stub_helpers(
    exercise: Any,
    fn: Any,
    *,
    record: bool = True,
    learners: Any = None,
    rewrite: Callable[[CheckResult], CheckResult] | None = None,
) -> CheckResult:
    """``exercise.check(fn)``, with a helper still left as a stub named in the report (printed once). ``learners``:
    the learner's own function when ``fn`` wraps it (lesson 00 checks a wrapper that turns 3.0 into 3); ``rewrite``:
    a last change to the report when no stub was named (lesson 04 names a helper of the learner's that is wrong)."""
    result = exercise.run(fn, record=record)
    named = name_stub_helpers(result, fn if learners is None else learners)
    result = rewrite(named) if rewrite is not None and named is result else named
    print(result.message)
    return result


__all__ = ["check_naming_stub_helpers", "learners_helpers", "name_stub_helpers", "stub_helpers"]
