"""Is the function handed to a checker the course's own? Then there is nothing of the learner's to check.

A checker compares with a reference from ``bpelab``; handed that reference (or the package function it is built
from, such as ``bpelab.analysis.fairness.gini``), it would pass without the learner writing a line. Found by
identity, through the usual wrappers: ``functools.partial``, ``functools.wraps`` (``__wrapped__``), a bound
method (``CharTokenizer().encode``) and a ``lambda`` whose body names one (``lambda v: gini(v)``,
``lambda v: bpelab.analysis.fairness.gini(v)``), or a ``def`` whose body (after a docstring) only returns what
one returns, as it is or wrapped in ``dict``, ``list``, ``tuple``, ``int``, ``float`` or ``str``
(``def f(text): return dict(bpelab.get_word_frequencies(text))``), also through a name assigned just before
(plain assignments, then ``return name``: ``pieces = split_text(text, P); return pieces``), and through imports in
its own body (``from bpelab.words import train_bpe as t; return t(text, n)``): read from its source, the names
resolved in its globals, closure and those imports. A lambda or ``def`` that names a function that IS the answer
anywhere in its body (``return train_bpe(text, n).merges``, ``max`` over ``wordpiece_scores(...)``), or calls a
function of the learner's that does (``calls_an_answer``), is the course's answer too. A ``def`` that calls a helper
the lesson builds on (the learner's own ``bytes_per_token``, ``count_pairs`` beside ``best_pair``) is the learner's
own: it fails or passes on its answers like any other.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bpelab.exercises.runaway import PACKAGE_DIRECTORY


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
    names = code_names(fn.__code__)
    found = [fn.__globals__.get(name) for name in names]
    found += [cell.cell_contents for cell in fn.__closure__ or () if _filled(cell)]
    found += [*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values()]  # lambda v, g=gini: g(v)
    with warnings.catch_warnings():  # numpy warns on a look-up of np.str, a name the learner's code may use on a str
        warnings.simplefilter("ignore")
        for _ in range(4):
            found += [getattr(obj, name, None) for obj in found if isinstance(obj, types.ModuleType) for name in names]
    return found


def code_names(code: types.CodeType) -> list[str]:
    """The global and attribute names a code object uses, those of the comprehensions inside it included (each is a
    code object of its own before Python 3.12: ``lambda t: "".join(table()[b] for b in t)``)."""
    names = list(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names += code_names(const)
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

    A ``def`` whose body only returns what one of ``answers`` returns (``returned_call``) is the course's answer
    too. ``known`` holds everything the course wrote for the exercise, helpers included (``merge_symbols`` for
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
    called = calls_an_answer(target, answer_ids)
    if called is not None:
        return called
    for _ in range(3):  # a def returning a def of the learner's that only returns the course's answer
        called = returned_call(target)
        if called is None:
            break
        target = unwrapped(called)
        if id(target) in answer_ids:
            return answer_ids[id(target)]
    return None


def calls_an_answer(fn: Any, answer_ids: Mapping[int, Callable[..., Any]], depth: int = 3) -> Callable[..., Any] | None:
    """The answer function a lambda or ``def`` of the learner's names anywhere in its body (``train_bpe(text,
    n).merges``, ``max`` over ``wordpiece_scores(...)``), or that a function of theirs it names does, ``depth``
    calls deep; None when it names none. Naming one is calling the answer: nothing of the learner's is left."""
    if not isinstance(fn, types.FunctionType) or depth < 0 or fn.__code__.co_filename.startswith(PACKAGE_DIRECTORY):
        return None
    for obj in _named_in(fn):
        if obj is None:
            continue
        if id(unwrapped(obj)) in answer_ids:
            return answer_ids[id(unwrapped(obj))]
        if obj is not fn and isinstance(unwrapped(obj), types.FunctionType):
            found = calls_an_answer(unwrapped(obj), answer_ids, depth - 1)
            if found is not None:
                return found
    return None


WRAPPERS = (dict, list, tuple, int, float, str)
"""Calls around the course's function that add nothing of the learner's: ``return dict(get_word_frequencies(t))``."""


def _resolved(node: ast.expr, fn: types.FunctionType, imported: Mapping[str, Any] | None = None) -> Any:
    """What a name or dotted name (``bpelab.words.get_word_frequencies``) in ``fn``'s body refers to, or None;
    ``imported``: the names the body's own import statements bind (``_imported``)."""
    if isinstance(node, ast.Attribute):
        owner = _resolved(node.value, fn, imported)
        return None if owner is None else getattr(owner, node.attr, None)
    if not isinstance(node, ast.Name):
        return None
    if imported and node.id in imported:
        return imported[node.id]
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    if node.id in closure:
        return closure[node.id].cell_contents if _filled(closure[node.id]) else None
    return fn.__globals__.get(node.id, getattr(builtins, node.id, None))


def returned_call(fn: Any) -> Any:
    """The function a ``def``'s body only returns the result of (through ``WRAPPERS``), or None: ``fn`` does more,
    or its source cannot be read. Plain assignments before the ``return`` are allowed, and a name it returns counts
    as what was last assigned to it (``pieces = split_text(text, P)``, then ``return pieces``)."""
    if not isinstance(fn, types.FunctionType) or fn.__name__ == "<lambda>":
        return None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):  # made by exec, or a def inside a longer statement
        return None
    defs = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return None
    statements = defs[0].body
    if (
        statements
        and isinstance(statements[0], ast.Expr)
        and isinstance(getattr(statements[0].value, "value", None), str)
    ):
        statements = statements[1:]  # the docstring
    if not statements or not isinstance(statements[-1], ast.Return) or statements[-1].value is None:
        return None
    named: dict[str, ast.expr] = {}  # name = <value>, in order: a later assignment replaces an earlier one
    imported: dict[str, Any] = {}  # from bpelab.words import train_bpe as train (inside the def)
    for statement in statements[:-1]:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            imported.update(_imported(statement))
            continue
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, assigned = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, assigned = statement.target, statement.value
        else:
            return None  # a loop, a condition, a call for its effect: the learner's own code
        if not isinstance(target, ast.Name):
            return None
        named[target.id] = assigned
    value = _inside_wrappers(statements[-1].value, fn, imported)
    if isinstance(value, ast.Name) and value.id in named:  # pieces = split_text(text, P); return pieces
        value = _inside_wrappers(named[value.id], fn, imported)
    return _resolved(value.func, fn, imported) if isinstance(value, ast.Call) else None


def _imported(statement: ast.Import | ast.ImportFrom) -> dict[str, Any]:
    """The names an import statement in a def's body binds, to what they name: read from modules already imported
    (``sys.modules``), never by importing anything; a relative or not-yet-imported module binds nothing known."""
    bound: dict[str, Any] = {}
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:  # import bpelab.words as w: w is the module itself
                bound[alias.asname] = sys.modules.get(alias.name)
            else:  # import bpelab.words: the name bound is the top package
                bound[alias.name.split(".")[0]] = sys.modules.get(alias.name.split(".")[0])
    elif statement.module and not statement.level:
        module = sys.modules.get(statement.module)
        for alias in statement.names:
            bound[alias.asname or alias.name] = getattr(module, alias.name, None) if module is not None else None
    return bound


def _inside_wrappers(value: ast.expr, fn: types.FunctionType, imported: Mapping[str, Any] | None = None) -> ast.expr:
    """``value`` without the ``WRAPPERS`` calls around it: ``dict(get_word_frequencies(t))`` → the inner call."""
    while (
        isinstance(value, ast.Call)
        and len(value.args) == 1
        and not value.keywords
        and any(_resolved(value.func, fn, imported) is wrapper for wrapper in WRAPPERS)
    ):
        value = value.args[0]
    return value


def describe(fn: Callable[..., Any]) -> str:
    """``bpelab.analysis.fairness.gini`` for a message (a lambda or method: its module and qualified name)."""
    inner = unwrapped(fn)
    module = getattr(inner, "__module__", "") or ""
    name = getattr(inner, "__qualname__", getattr(inner, "__name__", repr(inner)))
    return f"{module}.{name}" if module else name
