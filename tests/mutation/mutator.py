"""A small AST mutator: every single-point mutant of a learner-style solution, each with a line saying what changed.

The operators are the mistakes a learner makes in one keystroke or one line: a comparison flipped (``<`` for
``>=``) or loosened (``<=`` for ``<``), a number one off, one arithmetic operator for another, a slice bound moved
or dropped, ``min`` for ``max``, ``sorted`` left out, a statement deleted, the final ``return`` indented into a
loop (an early return), and a string method for its sibling at the other end (``.strip`` for ``.rstrip``). mutmut and cosmic-ray mutate files on disk and run a test command per mutant; the shown
solutions are a few lines held in notebooks, so a mutator over their AST, run in-process, is what fits.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.GtE, ast.LtE),
    ast.LtE: (ast.Gt, ast.Lt),
    ast.Gt: (ast.LtE, ast.GtE),
    ast.GtE: (ast.Lt, ast.Gt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
"""Each comparison flipped (its negation) and loosened or tightened (the bound included or left out)."""

ARITHMETIC_SWAPS: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.Div,),
    ast.Div: (ast.Mult, ast.FloorDiv),
    ast.FloorDiv: (ast.Div,),
    ast.Mod: (ast.FloorDiv,),
    ast.Pow: (ast.Mult,),
}

SWAPPED_CALLS = {"min": "max", "max": "min"}

SWAPPED_METHODS = {
    "rstrip": ("strip", "lstrip"),
    "lstrip": ("strip", "rstrip"),
    "strip": ("rstrip", "lstrip"),
    "startswith": ("endswith",),
    "endswith": ("startswith",),
    "find": ("rfind",),
    "rfind": ("find",),
    "index": ("rindex",),
    "rindex": ("index",),
}
"""A string method for its sibling at the other end."""


@dataclass(frozen=True)
class Mutant:
    source: str
    line: int
    """Line of the change in the solution's source (1-based)."""
    what: str


def _symbol(op: ast.AST) -> str:
    return (
        ast.unparse(ast.Compare(ast.Name("a"), [op], [ast.Name("b")]))[2:-2]
        if isinstance(op, ast.cmpop)
        else (
            ast.unparse(ast.BinOp(ast.Name("a"), op, ast.Name("b")))[2:-2]  # type: ignore[arg-type]
        )
    )


def _edits(tree: ast.Module) -> Iterator[tuple[ast.AST, str, Callable[[ast.AST], ast.AST | None]]]:
    """(node, description, edit) for every single-point change; ``edit`` gets a deep copy of the node and
    returns its replacement (``None``: the mutation does not apply)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                for new in COMPARE_SWAPS.get(type(op), ()):

                    def edit(n: ast.AST, index: int = index, new: type = new) -> ast.AST:
                        assert isinstance(n, ast.Compare)
                        n.ops[index] = new()
                        return n

                    yield node, f"{_symbol(op)} → {_symbol(new())}", edit
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            for new in ARITHMETIC_SWAPS.get(type(node.op), ()):

                def edit(n: ast.AST, new: type = new) -> ast.AST:
                    n.op = new()  # type: ignore[attr-defined]
                    return n

                yield node, f"{_symbol(node.op)} → {_symbol(new())}", edit
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
            for delta in (1, -1):

                def edit(n: ast.AST, delta: int = delta) -> ast.AST:
                    assert isinstance(n, ast.Constant)
                    return ast.Constant(n.value + delta)

                yield node, f"{node.value!r} → {node.value + delta!r}", edit
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield node, f"{node.value} → {not node.value}", lambda n: ast.Constant(not n.value)  # type: ignore[attr-defined]
        elif isinstance(node, ast.Slice):
            for bound in ("lower", "upper"):
                value = getattr(node, bound)
                if value is None:
                    continue

                def drop(n: ast.AST, bound: str = bound) -> ast.AST:
                    setattr(n, bound, None)
                    return n

                yield node, f"slice {bound} bound {ast.unparse(value)} dropped", drop
                if isinstance(value, ast.Constant):
                    continue  # ±1 on a number is the constants' mutation
                for delta, op in ((1, ast.Add()), (-1, ast.Sub())):

                    def shift(n: ast.AST, bound: str = bound, op: ast.operator = op) -> ast.AST:
                        setattr(n, bound, ast.BinOp(getattr(n, bound), op, ast.Constant(1)))
                        return n

                    yield node, f"slice {bound} bound {ast.unparse(value)} {delta:+d}", shift
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SWAPPED_METHODS:
            for method in SWAPPED_METHODS[node.func.attr]:

                def rename(n: ast.AST, method: str = method) -> ast.AST:
                    n.func.attr = method  # type: ignore[attr-defined]
                    return n

                yield node, f".{node.func.attr}() → .{method}()", rename
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in SWAPPED_CALLS:

                def swap(n: ast.AST, name: str = name) -> ast.AST:
                    n.func = ast.Name(SWAPPED_CALLS[name], ast.Load())  # type: ignore[attr-defined]
                    return n

                yield node, f"{name} → {SWAPPED_CALLS[name]}", swap
            elif name == "sorted" and node.args:
                yield node, "sorted(...) left out", lambda n: n.args[0]  # type: ignore[attr-defined]


def _statement_edits(tree: ast.Module) -> Iterator[tuple[ast.AST, str, Callable[[ast.AST], ast.AST | None]]]:
    """A statement deleted (``pass`` in its place), and the function's last ``return`` moved into a loop."""
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            for statement in statements:
                if not isinstance(statement, ast.stmt) or isinstance(
                    statement, (ast.FunctionDef, ast.Import, ast.ImportFrom)
                ):
                    continue
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    continue  # a docstring
                yield statement, f"statement deleted: {ast.unparse(statement).splitlines()[0]}", lambda n: ast.Pass()
    for function in functions:
        last = function.body[-1]
        if not (isinstance(last, ast.Return) and last.value is not None):
            continue
        for loop in ast.walk(function):
            if isinstance(loop, (ast.For, ast.While)):

                def early(n: ast.AST, last: ast.Return = last) -> ast.AST:
                    n.body.append(copy.deepcopy(last))  # type: ignore[attr-defined]
                    return n

                yield loop, f"early return: `{ast.unparse(last)}` inside the loop", early


def mutants(source: str) -> list[Mutant]:
    """Every single-point mutant of ``source`` that still compiles, in a fixed order, without duplicates."""
    tree = ast.parse(source)
    found: list[Mutant] = []
    seen = {ast.unparse(tree)}
    edits = [*_edits(tree), *_statement_edits(tree)]
    for target, what, edit in edits:
        copied = copy.deepcopy(tree)
        # find the same node in the copy: same position in ast.walk order
        index = next(i for i, n in enumerate(ast.walk(tree)) if n is target)
        twin = next(n for i, n in enumerate(ast.walk(copied)) if i == index)
        replacement = edit(copy.deepcopy(twin))
        if replacement is None:
            continue
        if not _replace(copied, twin, replacement):
            continue
        ast.fix_missing_locations(copied)
        text = ast.unparse(copied)
        if text in seen:
            continue
        try:
            compile(text, "<mutant>", "exec")
        except SyntaxError:
            continue
        seen.add(text)
        found.append(Mutant(text, getattr(target, "lineno", 0), what))
    return found


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> bool:
    """Put ``new`` where ``old`` is in ``tree``."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return True
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return True
    return False
