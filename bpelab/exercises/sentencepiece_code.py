"""What a learner's ``next_merge`` looks like in its source, for hints that the answers alone cannot tell apart.

Two wrong answers can return the same values everywhere and still be different bugs: a best score that starts at
-1e9 and a test that leaves out pieces scoring -1e9 or less; an explicit ``return best`` that found nothing and a
path that falls off the end of the function. ``read_code(fn)`` reads the function's ``def`` (``ast``) once, before
the check runs, and ``LEARNER_CODE`` holds it while the diagnosers run (``check_next_merge`` sets it).
"""

from __future__ import annotations

import ast
import inspect
import math
import sys
import textwrap
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Code:
    """What the diagnosers may ask about the learner's function; ``None``: its source could not be read."""

    may_end_without_return: bool | None
    """True when some path runs off the end of the body (Python then returns None by itself)."""
    assigned: tuple[float, ...] = ()
    """Numbers put in a name (``best_score = -1e9``, ``best, top = None, -10**9``): where a best score may start."""
    compared: tuple[float, ...] = ()
    """Numbers a comparison tests against (``scores[piece] > -1e9``): a filter."""
    defaults: tuple[float | None, ...] = ()
    """Defaults given to ``.get`` (``scores.get(piece, -2e9)``): the score a pair that is no piece gets; ``None``
    where the default is not a number written out (a name, an expression)."""
    uses_set: bool = False
    """The code builds a set (``{...}``, ``set(...)``, ``frozenset(...)``, ``scores.keys() & ...``): its order is
    the hash seed's, so a tie it breaks by iterating one is luck."""
    uses_float32: bool = False
    """The code names float32 (``np.float32``, ``dtype="float32"``): scores a float64 step apart may tie in it,
    a cause a tolerance shares in its answers but not in its fix."""
    every_first_item: bool = False
    """A loop ``for i in range(len(symbols))`` over every item of the first argument: then ``symbols[i + 1]``
    reaches one past the end, the pairs being ``range(len(symbols) - 1)``."""
    calls: frozenset[str] = frozenset()
    """The names of the functions and methods the code calls (``math.isfinite(score)`` gives ``isfinite``): a
    filter ``isfinite`` and a best score that starts at ``-inf`` leave out the same pieces, -inf's."""


UNKNOWN = Code(None)
LEARNER_CODE: ContextVar[Code] = ContextVar("LEARNER_CODE", default=UNKNOWN)


@contextmanager
def reading(fn: Any) -> Iterator[None]:
    """``LEARNER_CODE`` is ``read_code(fn)`` inside the block."""
    token = LEARNER_CODE.set(read_code(fn))
    try:
        yield
    finally:
        LEARNER_CODE.reset(token)


def read_code(fn: Any) -> Code:
    """The learner's function read from its source; ``UNKNOWN`` when there is none to read."""
    fn = getattr(fn, "__func__", fn)
    if getattr(fn, "__name__", "") == "<lambda>":
        return Code(False)  # a lambda's value is its expression: it always returns it
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except Exception:  # built in, made by exec, a partial: nothing to read
        return UNKNOWN
    found = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fn.__name__), None)
    if found is None:
        return UNKNOWN
    constants = _constants(found, getattr(fn, "__globals__", {}))
    assigned: list[float] = []
    compared: list[float] = []
    defaults: list[float | None] = []
    for node in ast.walk(found):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and _target_name(targets[0]) in constants:
                continue  # a constant (``low = -1e9 - 1``) is where a threshold is kept, not where a best starts
            values = node.value.elts if isinstance(node.value, ast.Tuple | ast.List) else [node.value]
            assigned += [n for n in map(_number, values) if n is not None]
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            compared += [n for n in (_number(side, constants) for side in sides) if n is not None]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            defaults += [_number(arg) for arg in node.args[1:2]]
    return Code(
        not _always_returns(found.body),
        tuple(assigned),
        tuple(compared),
        tuple(defaults),
        _builds_a_set(found),
        _names_float32(found),
        calls=frozenset(_called(found)),
        every_first_item=_loops_over_every_first_item(found),
    )


def _loops_over_every_first_item(function: ast.FunctionDef) -> bool:
    """``for ... in range(len(first))``, ``first`` the function's first parameter."""
    if not function.args.args:
        return False
    first = function.args.args[0].arg
    for node in ast.walk(function):
        if isinstance(node, ast.For | ast.comprehension) and isinstance(node.iter, ast.Call):
            call = node.iter
            if isinstance(call.func, ast.Name) and call.func.id == "range" and len(call.args) == 1:
                inner = call.args[0]
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id == "len"
                    and len(inner.args) == 1
                    and isinstance(inner.args[0], ast.Name)
                    and inner.args[0].id == first
                ):
                    return True
    return False


def _called(function: ast.FunctionDef) -> Iterator[str]:
    """The name of each call's function: ``isfinite`` for ``math.isfinite(x)`` and for ``isfinite(x)``."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            yield node.func.id
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield node.func.attr


def _names_float32(function: ast.FunctionDef) -> bool:
    """``float32`` as a name, an attribute (``np.float32``) or a string (``astype("float32")``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == "float32":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "float32":
            return True
        if isinstance(node, ast.Constant) and node.value == "float32":
            return True
    return False


def _builds_a_set(function: ast.FunctionDef) -> bool:
    """A set display or comprehension, a call of ``set``/``frozenset``, or ``&``/``|`` of dict views."""
    for node in ast.walk(function):
        if isinstance(node, ast.Set | ast.SetComp):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd | ast.BitOr | ast.Sub | ast.BitXor):
            views = [n for n in (node.left, node.right) if isinstance(n, ast.Call)]
            if any(isinstance(n.func, ast.Attribute) and n.func.attr in ("keys", "items") for n in views):
                return True
    return False


def _target_name(target: ast.expr) -> str | None:
    return target.id if isinstance(target, ast.Name) else None


def _bindings(function: ast.FunctionDef) -> Iterator[tuple[str, ast.expr | None]]:
    """Each name the function binds, with the value when a plain ``name = value`` gives one (else ``None``)."""
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node.value
                elif isinstance(target, ast.Tuple | ast.List):
                    yield from ((e.id, None) for e in target.elts if isinstance(e, ast.Name))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.comprehension | ast.NamedExpr):
            if isinstance(node.target, ast.Name):
                yield node.target.id, None


def _constants(function: ast.FunctionDef, module: dict[str, Any]) -> dict[str, float]:
    """Names that hold one number throughout: a name the function assigns once (``low = -1e9 - 1``), a
    parameter's default never reassigned (``floor=-1e9 - 1``), or a module's number (``LOW = -1e9 - 1``) the
    function does not assign. A threshold kept in one is still a threshold (read 12, finding 3)."""
    assignments: dict[str, list[ast.expr | None]] = {}
    for name, value in _bindings(function):
        assignments.setdefault(name, []).append(value)
    constants: dict[str, float] = {}
    for name, value in module.items():
        if name not in assignments and isinstance(value, int | float) and not isinstance(value, bool):
            constants[name] = float(value)
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    given = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults))
    given += [(arg, d) for arg, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None]
    for arg in [*positional, *arguments.kwonlyargs]:
        constants.pop(arg.arg, None)  # a parameter hides the module's name
    for arg, default in given:
        number = _number(default)
        if number is not None and arg.arg not in assignments:
            constants[arg.arg] = number
    for name, values in assignments.items():
        constants.pop(name, None)
        if len(values) == 1 and values[0] is not None and (number := _number(values[0])) is not None:
            constants[name] = number
    return constants


def _number(node: ast.expr, constants: dict[str, float] | None = None) -> float | None:
    """The value of a number written in the code (``-1e9``, ``-10**9``, ``-1e9 - 1``, ``float('-1e9')``,
    ``-sys.maxsize``, ``-math.inf``), or of a name in ``constants``."""
    if constants and isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _number(node.operand, constants)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow | ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, right = _number(node.left, constants), _number(node.right, constants)
        if left is None or right is None:
            return None
        try:
            if isinstance(node.op, ast.Pow):
                return float(left**right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            return left * right if isinstance(node.op, ast.Mult) else left / right
        except (OverflowError, ZeroDivisionError):
            return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("float", "int"):
        if len(node.args) == 1 and isinstance(node.args[0], ast.Constant):
            value = node.args[0].value
            try:
                return float(value) if isinstance(value, str | int | float) else None
            except (TypeError, ValueError):
                return None
    if isinstance(node, ast.Attribute) and node.attr == "maxsize":
        return float(sys.maxsize)
    if isinstance(node, ast.Attribute) and node.attr == "inf":  # math.inf, np.inf
        return math.inf
    if isinstance(node, ast.Attribute) and node.attr == "max":  # sys.float_info.max
        return sys.float_info.max
    return None


def _always_returns(body: Sequence[ast.stmt]) -> bool:
    return any(_ends(statement) for statement in body)


def _ends(statement: ast.stmt) -> bool:
    """The statement never lets the body go on past it (it returns or raises on every path)."""
    if isinstance(statement, ast.Return | ast.Raise):
        return True
    if isinstance(statement, ast.If):
        return _always_returns(statement.body) and _always_returns(statement.orelse)
    if isinstance(statement, ast.With):
        return _always_returns(statement.body)
    if isinstance(statement, ast.Try):
        handled = all(_always_returns(handler.body) for handler in statement.handlers)
        return _always_returns(statement.finalbody) or (
            (_always_returns(statement.body) or _always_returns(statement.orelse)) and handled
        )
    if isinstance(statement, ast.While):
        endless = isinstance(statement.test, ast.Constant) and bool(statement.test.value)
        return endless and not any(isinstance(n, ast.Break) for n in ast.walk(statement))
    return False
