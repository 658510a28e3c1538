"""Revealing a reference solution: ``show_solution("count_pairs")`` prints bpelab's own source.

Notebooks hide their solutions in ``<details>`` blocks; this is for a learner (or a teacher) who
wants the version the checker compares against, read straight from the package, never retyped.
"""

from __future__ import annotations

import inspect
import textwrap

from bpelab.exercises.core import EXERCISES

ALIASES = {"char_tokenizer": "char_encode", "training_loop": "train"}
"""Other names a notebook may use: the checker's name instead of the exercise's."""


def show_solution(name: str) -> None:
    """Print the source of the reference behind exercise ``name`` (one of ``solution_names()``)."""
    key = ALIASES.get(name, name)
    if key not in EXERCISES:
        raise ValueError(f"no exercise called {name!r}; choose one of: {', '.join(solution_names())}")
    exercise = EXERCISES[key]
    shown = [
        f"# from {obj.__module__}\n{textwrap.dedent(inspect.getsource(obj)).rstrip()}"
        for obj in exercise.solution or (exercise.reference,)
    ]
    print("\n\n".join(shown))


def solution_names() -> list[str]:
    """Every name ``show_solution`` accepts, sorted."""
    return sorted(set(EXERCISES) | set(ALIASES))
