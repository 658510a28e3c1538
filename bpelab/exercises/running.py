"""Running one learner function safely: what it returned or raised, where, and what its body looks like.

``call`` never raises because of the learner's code (only ``KeyboardInterrupt``, the stop button, passes
through); a runaway is stopped by the guards of ``runaway``. The other helpers read the function itself, for
messages: ``where`` an error happened ("line 4 of your function"), whether its ``body`` is still a stub, and
whether its parameters fit the call the exercise makes.
"""

from __future__ import annotations

import ast
import dis
import inspect
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bpelab.exercises.cases import ExerciseSpec
from bpelab.exercises.runaway import Runaway, call_guarded


@dataclass
class Outcome:
    got: Any = None
    error: BaseException | None = None
    where: str = ""
    runaway: str = ""
    """Why the call was stopped: ``"steps"``, ``"time"`` or ``"memory"`` (empty when it finished)."""


def call(fn: Callable[..., Any], args: tuple, max_steps: int | None, max_seconds: float | None = None) -> Outcome:
    """Call ``fn(*args)``; catch what it raises; stop it if it runs away (``max_seconds``: see ``call_guarded``)."""
    try:
        return Outcome(got=call_guarded(fn, args, max_steps, max_seconds))
    except Runaway as stop:
        return Outcome(runaway=stop.reason)
    except KeyboardInterrupt:  # the stop button: the learner wants out of the whole check
        raise
    except BaseException as err:  # SystemExit, GeneratorExit, a learner's own BaseException: their error too
        return Outcome(error=err, where=where(err, fn))


def _code_of(fn: Any) -> Any:
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__code__", None)


def where(err: BaseException, fn: Any) -> str:
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


def body(fn: Any) -> str:
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
    statements = defs[0].body
    if (
        statements
        and isinstance(statements[0], ast.Expr)
        and isinstance(getattr(statements[0].value, "value", None), str)
    ):
        statements = statements[1:]  # the docstring

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

    if all(trivial(node) for node in statements):
        return "stub"
    returns = any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(defs[0]))
    return "returns" if returns else "no return"


def ways_to_none(fn: Any) -> tuple[bool, bool]:
    """How ``fn`` can give None: by a ``return None`` (or bare ``return``) of its own, and by running off its end
    (its last statement is not a ``return`` or ``raise``); ``(False, True)`` when its source cannot be read."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except Exception:  # no source (built in, made by exec), or a lambda inside a longer line
        return False, True
    defs = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return False, True
    explicit = any(isinstance(node, ast.Return) and _none_written(node.value) for node in ast.walk(defs[0]))
    last = defs[0].body[-1] if defs[0].body else None
    return explicit, not isinstance(last, (ast.Return, ast.Raise))


def _none_written(value: ast.expr | None) -> bool:
    """A ``return`` that gives None as written: bare, ``None``, or None in a branch (``r if r > 0 else None``)."""
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return True
    return isinstance(value, ast.IfExp) and (_none_written(value.body) or _none_written(value.orelse))


def parameter_names(fn: Any) -> tuple[str, ...]:
    """The names of ``fn``'s parameters (without ``self`` of a bound method); empty when it has no signature."""
    try:
        return tuple(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return ()


READS_ANY_NAME = frozenset({"locals", "vars", "eval", "exec"})
"""Calls that can read a parameter without naming it: a function that makes one is never said to leave one unread."""


LOADS_OF_CELLS = frozenset({"LOAD_DEREF", "LOAD_CLOSURE", "LOAD_CLASSDEREF"})
"""The instructions that read a local a function made inside shares (LOAD_FAST… read the others)."""


def _names_loaded(code: types.CodeType) -> set[str]:
    """The local names ``code`` reads (3.13 loads two at once, or stores one and loads another, with a pair)."""
    loaded: set[str] = set()
    for instruction in dis.get_instructions(code):
        name, value = instruction.opname, instruction.argval
        if (name.startswith("LOAD_FAST") and name != "LOAD_FAST_AND_CLEAR") or name in LOADS_OF_CELLS:
            loaded.update(value if isinstance(value, tuple) else (value,))
        elif name == "STORE_FAST_LOAD_FAST":  # 3.13: stores the first name, loads the second
            loaded.add(value[1])
    return {name for name in loaded if isinstance(name, str)}


def unread_parameters(fn: Any) -> tuple[str, ...]:
    """The parameters ``fn`` never reads: its answer cannot depend on them, so it reads something else (often a
    global of the lesson's, such as ``tok.vocab``, where the parameter ``vocab`` was meant). A name that starts with
    ``_`` is left unread on purpose; a function that takes ``*args`` or calls ``locals()`` is not judged."""
    function = inspect.unwrap(getattr(fn, "__func__", fn))
    code = getattr(function, "__code__", None)
    if not isinstance(code, types.CodeType) or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return ()
    if READS_ANY_NAME & set(code.co_names):
        return ()
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    if inspect.ismethod(fn):
        names = names[1:]  # self
    read = _names_loaded(code) | set(code.co_cellvars)  # a cell is read by a function made inside
    return tuple(name for name in names if name not in read and not name.startswith("_"))


def _codes_within(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and the code of every function, lambda and generator written inside it."""
    found = [code]
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found += _codes_within(constant)
    return found


NOT_DATA = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, type)


def globals_read(fn: Any) -> tuple[str, ...]:
    """The globals ``fn`` reads (in its own body or a generator inside it) that hold data, not a module, function or
    class: where an answer that ignores a parameter comes from."""
    function = inspect.unwrap(getattr(fn, "__func__", fn))
    code, space = getattr(function, "__code__", None), getattr(function, "__globals__", {})
    if not isinstance(code, types.CodeType):
        return ()
    names = dict.fromkeys(name for inner in _codes_within(code) for name in inner.co_names)
    return tuple(name for name in names if name in space and not isinstance(space[name], NOT_DATA))


def parameters_problem(fn: Any, exercise: ExerciseSpec, n_args: int) -> str | None:
    """Why ``fn`` cannot be called as the exercise calls it (with ``n_args`` arguments), or None if it can."""
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
