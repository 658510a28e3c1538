"""Comparing a learner's answer with the expected one: equal with the types that matter, or how it differs.

``same`` is the engine's equality (a list is not a tuple; a float is not an int: ``2.0`` for a count of ``2`` is
wrong, while ``2`` where ``2.0`` is expected is fine); ``type_hint`` names a wrong type with a way out;
``first_float_for_int`` finds a float inside an answer where an int belongs; ``changed_argument`` finds an input the
learner's function changed in place.
"""

from __future__ import annotations

import copy
import math
import numbers
from typing import Any

from bpelab.exercises.showing import kind


def is_whole(value: Any) -> bool:
    """An integer: Python's ``int`` or numpy's (``np.int64``); not a ``bool``."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_real(value: Any) -> bool:
    """A whole number or a float of any precision (``float``, ``np.float32``, ``np.float16``): what ``same`` compares
    with a tolerance. A ``Fraction`` is exact and left out: it equals a float only where the float is exact."""
    if is_whole(value):
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Rational))


def same(got: Any, expected: Any, *, ordered: bool = False, loose_ints: bool = False) -> bool:
    """Equal, with types that matter: a list is not a tuple, a dict is a dict (``Counter`` is fine).

    Where the reference gives an int (a count, an id, a length) the answer must be an int: ``2.0`` is not ``2``,
    since ``/`` where ``//`` belongs gives floats that are wrong as soon as a division is not exact. Where it gives
    a float, numbers compare with a 1e-9 tolerance (``2`` equals ``2.0``). numpy's numbers count as what they are
    (``np.int64`` an int, ``np.float32`` a float) and compare the same way: numpy's own ``==`` would compare a
    float32 at float32 precision, where 2/9 and 0.2222222 are equal. ``loose_ints`` lets a float equal an int
    too (to tell "right value, wrong type" from a wrong value); ``ordered`` also compares dict key order, at every
    level.
    """
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(got) is type(expected) and got == expected
    if is_whole(expected) and is_whole(got):
        return bool(got == expected)
    if is_whole(expected) and is_real(got) and not loose_ints:
        return False
    if is_real(expected) and is_real(got):
        try:
            return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)
        except OverflowError:  # an int too large for a float
            return False
    if isinstance(expected, dict):
        if not isinstance(got, dict) or len(got) != len(expected) or got.keys() != expected.keys():
            return False
        if ordered and list(got) != list(expected):
            return False
        return all(same(got[key], value, ordered=ordered, loose_ints=loose_ints) for key, value in expected.items())
    if isinstance(expected, (list, tuple)):
        if type(got) is not type(expected) or len(got) != len(expected):
            return False
        return all(same(g, e, ordered=ordered, loose_ints=loose_ints) for g, e in zip(got, expected))
    if isinstance(expected, (str, bytes)):
        return type(got) is type(expected) and got == expected
    try:
        return bool(got == expected)
    except Exception:
        return False


def normalised(value: Any, _inside: frozenset[int] = frozenset()) -> Any:
    """Lists and tuples alike, to tell "wrong container" from "wrong values". A container that holds itself
    (``d["me"] = d``) is ``...`` where it comes again, as ``repr`` shows it."""
    if isinstance(value, (list, tuple, dict)):
        if id(value) in _inside:
            return ...
        inside = _inside | {id(value)}
        if isinstance(value, dict):
            return {normalised(k, inside): normalised(v, inside) for k, v in value.items()}
        return tuple(normalised(item, inside) for item in value)
    return value


def first_container_mismatch(got: Any, expected: Any) -> tuple[Any, Any] | None:
    """The first list-where-a-tuple-belongs (or the reverse) inside an answer, as (got, expected)."""
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        if type(got) is not type(expected):
            return got, expected
        for g, e in zip(got, expected):
            found = first_container_mismatch(g, e)
            if found:
                return found
    if isinstance(expected, dict) and isinstance(got, dict):
        for (gk, gv), (ek, ev) in zip(got.items(), expected.items()):
            found = first_container_mismatch(gk, ek) or first_container_mismatch(gv, ev)
            if found:
                return found
    return None


FLOAT_FOR_INT = (
    "a count or an id is a whole number, and the check wants an int: count with ints (add 1, not 1.0; no "
    "float(...)), and where you divide, `/` always gives a float (4 / 2 is 2.0): use `//`"
)


def first_float_for_int(got: Any, expected: Any) -> tuple[float, int] | None:
    """The first float in ``got`` standing where ``expected`` holds an int (at any depth), as (float, int)."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return None
    if isinstance(expected, int) and isinstance(got, float):
        return got, expected
    pairs: list[tuple[Any, Any]] = []
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        pairs = list(zip(got, expected))
    elif isinstance(expected, dict) and isinstance(got, dict):
        pairs = [(got[key], value) for key, value in expected.items() if key in got]
    for g, e in pairs:
        found = first_float_for_int(g, e)
        if found:
            return found
    return None


def type_hint(got: Any, expected: Any) -> str | None:
    """The hint for a wrong type: ``returned a list, expected a dict``, with a way out when there is one."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return None
    numbers = (int, float)
    if isinstance(expected, numbers) and isinstance(got, numbers) and bool not in (type(expected), type(got)):
        if isinstance(expected, int) and isinstance(got, float):
            return f"returned a float ({got!r}), expected an int (like {expected!r}): " + FLOAT_FOR_INT
        return None
    if type(got) is type(expected):
        return None
    base = f"returned {kind(got)}, expected {kind(expected)}"
    name = type(got).__name__
    if name == "generator" and getattr(getattr(got, "gi_code", None), "co_name", "") == "<genexpr>":
        brackets = "square brackets [x for x in ...]" if isinstance(expected, list) else "a container, e.g. list(...)"
        return base + f": a generator expression (x for x in ...) makes a generator, not a list; use {brackets}"
    if name == "generator":
        return base + ": your function uses `yield`; build the whole result and `return` it instead"
    if isinstance(expected, list) and name in ("map", "filter", "zip", "tuple", "dict_keys", "dict_values", "range"):
        return base + ": wrap it in list(...)"
    if isinstance(expected, tuple) and isinstance(got, list):
        return base + ": wrap it in tuple(...)"
    if isinstance(expected, dict) and isinstance(got, list):
        try:
            if same(dict(got), expected):
                return (
                    base + ": your list holds the right (key, value) items; return a dict, e.g. dict(items) "
                    "(most_common() and sorted() give lists)"
                )
        except (TypeError, ValueError):
            pass
    return base


def public_state(value: Any, depth: int = 0) -> Any:
    """What ``value`` holds, for telling whether a call changed it: an object without value equality (a
    ``BPETokenizer``) becomes its type and its public attributes, deeply; containers are followed.

    Attributes whose names start with ``_`` are left out: a cache an object fills for itself (the tokenizer's
    ``_cache`` of encoded pieces) is no change the caller can see.
    """
    if depth > 20:  # a structure that refers to itself
        return None
    if isinstance(value, dict):
        return {key: public_state(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(public_state(item, depth + 1) for item in value)
    if type(value).__eq__ is object.__eq__:
        attributes = getattr(value, "__dict__", None)
        slots = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
        if isinstance(attributes, dict) or slots:
            state = {name: item for name, item in (attributes or {}).items() if not name.startswith("_")}
            state.update(
                {name: getattr(value, name) for name in slots if not name.startswith("_") and hasattr(value, name)}
            )
            return (type(value).__qualname__, public_state(state, depth + 1))
    return value


def changed_argument(after: tuple, before: tuple, ordered: bool = True) -> int | None:
    """The index of the first argument the learner's function changed in place, if any.

    An argument whose type has no value equality (two copies never compare equal, as a ``BPETokenizer``) is
    judged by its ``public_state``; one that has neither (a function, a file) is not judged. With
    ``ordered=False`` an argument that holds the same items in another order counts as unchanged.
    """
    for i, (a, b) in enumerate(zip(after, before)):
        if same(b, copy.deepcopy(b), ordered=True):
            if not same(a, b, ordered=ordered):
                return i
        else:
            state = public_state(b)
            if same(state, public_state(copy.deepcopy(b)), ordered=True) and not same(
                public_state(a), state, ordered=True
            ):
                return i
    return None
