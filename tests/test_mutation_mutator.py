"""The mutation test's own parts: the mutator makes the mutants it promises, and the table of shown solutions
covers every solution the lessons show."""

from __future__ import annotations

import re

import pytest

from tests.mutation.mutator import mutants
from tests.mutation.shown import NOT_A_FUNCTION, NOTEBOOKS, SHOWN, solution_blocks


def mutated(source: str) -> set[str]:
    return {m.source for m in mutants(source)}


def test_each_operator_makes_its_mutant():
    source = (
        "def f(xs, k):\n"
        "    out = []\n"
        "    for i in range(len(xs)):\n"
        "        if xs[i] >= k:\n"
        "            out.append(xs[i:i + 2])\n"
        "    return sorted(out) + [max(xs) * 2, s.rstrip(' ')]\n"
    )
    found = mutated(source)
    texts = "\n".join(found)
    assert any("xs[i] < k" in m for m in found)  # flipped
    assert any("xs[i] > k" in m for m in found)  # tightened
    assert any("max(xs) * 3" in m for m in found) and any("max(xs) * 1" in m for m in found)  # constants ±1
    assert any("max(xs) / 2" in m for m in found)  # arithmetic
    assert any("xs[i:i + 3]" in m for m in found) and any("xs[i:]" in m for m in found)  # slice bounds
    assert any("xs[i + 1:i + 2]" in m for m in found)
    assert any("min(xs)" in m for m in found)  # min/max
    assert any("return out + [" in m for m in found)  # sorted dropped
    assert any("s.strip(' ')" in m for m in found)  # a string method for its sibling
    assert any(re.search(r"\n {8}pass\n", m) for m in found)  # a statement deleted
    assert any(re.search(r"out\.append\(xs\[i:i \+ 2\]\)\n {8}return sorted", m) for m in found)  # early return
    assert source not in found and "def f" in texts
    for mutant in mutants(source):
        compile(mutant.source, "<mutant>", "exec")


def test_every_mutant_differs_from_the_original_and_from_each_other():
    source = "def f(a, b):\n    return a[1:] if a > b else a - 1\n"
    found = mutants(source)
    assert len({m.source for m in found}) == len(found)
    import ast

    assert ast.unparse(ast.parse(source)) not in {m.source for m in found}


def test_every_solution_the_lessons_show_is_in_the_table():
    shown = {(s.notebook, s.cell) for s in SHOWN}
    assert not shown & set(NOT_A_FUNCTION)
    every = {
        (path.name, cell) for path in sorted(NOTEBOOKS.glob("[01][0-9]_*.ipynb")) for cell in solution_blocks(path.name)
    }
    assert every == shown | set(NOT_A_FUNCTION)
    assert len(every) == 35


@pytest.mark.parametrize("shown", SHOWN, ids=[s.name for s in SHOWN])
def test_each_shown_solution_defines_what_its_checker_takes(shown):
    namespace = shown.build(shown.source())
    for name, _ in shown.parts:
        assert callable(namespace[name]), name
