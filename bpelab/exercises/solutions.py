"""Revealing a reference solution: ``show_solution("count_pairs")`` prints bpelab's own source.

Notebooks hide their solutions in ``<details>`` blocks; this is for a learner (or a teacher) who
wants the version the checker compares against, read straight from the package, never retyped.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

from bpelab.exercises.core import EXERCISES

ALIASES = {"char_tokenizer": "char_encode", "training_loop": "train"}
"""Other names a notebook may use: the checker's name instead of the exercise's."""


def show_solution(name: str) -> None:
    """Print the source of the reference behind exercise ``name`` (one of ``solution_names()``)."""
    key = ALIASES.get(name, name)
    if key not in EXERCISES:
        raise ValueError(f"no exercise called {name!r}; choose one of: {', '.join(solution_names())}")
    exercise = EXERCISES[key]
    objects = exercise.solution or (exercise.reference,)
    sources = [textwrap.dedent(inspect.getsource(obj)).rstrip() for obj in objects]
    imports = needed_imports(objects, sources)
    shown = [f"# from {obj.__module__}\n{source}" for obj, source in zip(objects, sources)]
    print("\n\n".join(([("\n".join(imports))] if imports else []) + shown))


def needed_imports(objects: Iterable[Callable[..., Any]], sources: Iterable[str]) -> list[str]:
    """The import lines the printed sources need to run when pasted into a notebook: the modules and the functions
    or types they name (``math``, ``Iterable`` in an annotation) from their modules' globals, except what is printed
    with them. Pasted without these, a solution whose annotations name ``Iterable`` raised NameError at its ``def``."""
    printed = {getattr(obj, "__name__", "") for obj in objects}
    lines: set[str] = set()
    for obj, source in zip(objects, sources):
        names = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
        module_globals = getattr(inspect.unwrap(obj), "__globals__", {})
        for name in sorted(names - printed):
            if name not in module_globals or hasattr(builtins, name):
                continue
            lines.add(_import_line(name, module_globals[name], obj.__module__))
    return sorted(lines)


def _import_line(name: str, value: Any, home: str) -> str:
    """``import math``, ``from collections.abc import Iterable`` (``as`` where the name differs): from the value's own
    module where it is found there by its name, else from ``home``, the module whose globals name it (a constant, a
    type alias such as ``PairCounts``)."""
    if inspect.ismodule(value):
        return f"import {value.__name__}" + (f" as {name}" if value.__name__.rpartition(".")[2] != name else "")
    module, own = getattr(value, "__module__", None), getattr(value, "__name__", None)
    if module and own and getattr(sys.modules.get(module), own, None) is value:
        return f"from {module} import {own}" + (f" as {name}" if own != name else "")
    return f"from {home} import {name}"


def solution_names() -> list[str]:
    """Every name ``show_solution`` accepts, sorted."""
    return sorted(set(EXERCISES) | set(ALIASES))
