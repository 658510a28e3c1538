"""Is the function handed to a checker the course's own? Then there is nothing of the learner's to check.

A checker compares with a reference from ``bpelab``; handed that reference (or the package function it is built
from, such as ``bpelab.analysis.fairness.gini``), it would pass without the learner writing a line. Found by
identity, through the usual wrappers: ``functools.partial``, ``functools.wraps`` (``__wrapped__``), a bound
method (``CharTokenizer().encode``) and a ``lambda`` whose body names one (``lambda v: gini(v)``,
``lambda v: bpelab.analysis.fairness.gini(v)``). A learner's own ``def`` that calls the course's function is not
looked into: it fails or passes on its answers like any other.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Iterable
from typing import Any


def unwrapped(fn: Any) -> Any:
    """``fn`` without partials, ``functools.wraps`` layers and method binding."""
    seen: set[int] = set()
    while id(fn) not in seen:
        seen.add(id(fn))
        if isinstance(fn, functools.partial):
            fn = fn.func
        elif getattr(fn, "__wrapped__", None) is not None:
            fn = fn.__wrapped__
        elif isinstance(fn, types.MethodType):
            fn = fn.__func__
        else:
            break
    return fn


def _named_in(fn: types.FunctionType) -> Iterable[Any]:
    """What the names of a lambda's body refer to: its globals, closure and defaults, and attributes of modules
    among them (``bpelab.analysis.fairness.gini``), a few levels deep."""
    names = _names(fn.__code__)
    found = [fn.__globals__.get(name) for name in names]
    found += [cell.cell_contents for cell in fn.__closure__ or () if _filled(cell)]
    found += [*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values()]  # lambda v, g=gini: g(v)
    for _ in range(4):
        found += [getattr(obj, name, None) for obj in found if isinstance(obj, types.ModuleType) for name in names]
    return found


def _names(code: types.CodeType) -> list[str]:
    """The global and attribute names a code object uses, those of the comprehensions inside it included (each is a
    code object of its own before Python 3.12: ``lambda t: "".join(table()[b] for b in t)``)."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names += _names(const)
    return names


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (an empty cell raises)
    except ValueError:
        return False
    return True


def course_function(
    fn: Any, known: Iterable[Callable[..., Any]], answers: Iterable[Callable[..., Any]] = ()
) -> Callable[..., Any] | None:
    """The course function among ``known`` that ``fn`` is, or among ``answers`` that ``fn`` is or that a lambda
    ``fn`` calls; None when ``fn`` is someone else's.

    ``known`` holds everything the course wrote for the exercise, helpers included (``merge_symbols`` for
    ``merge_pair``): handed one of those, the checker has nothing of the learner's to check. ``answers`` are the
    functions that ARE the answer (the reference, ``train_bpe`` for the training loop): a lambda that calls one
    is the course's answer too, while a lambda that calls a helper the lesson builds on is the learner's own.
    """
    answers = list(answers)
    by_id = {id(unwrapped(k)): k for k in [*known, *answers]}
    target = unwrapped(fn)
    if id(target) in by_id:
        return by_id[id(target)]
    answer_ids = {id(unwrapped(a)): a for a in answers}
    if isinstance(target, types.FunctionType) and target.__name__ == "<lambda>":
        for obj in _named_in(target):
            if obj is not None and id(unwrapped(obj)) in answer_ids:
                return answer_ids[id(unwrapped(obj))]
    return None


def describe(fn: Callable[..., Any]) -> str:
    """``bpelab.analysis.fairness.gini`` for a message (a lambda or method: its module and qualified name)."""
    inner = unwrapped(fn)
    module = getattr(inner, "__module__", "") or ""
    name = getattr(inner, "__qualname__", getattr(inner, "__name__", repr(inner)))
    return f"{module}.{name}" if module else name
