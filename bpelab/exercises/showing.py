"""Values as short, stable text for checker feedback.

A learner reads "expected" and "got" lines in a notebook, and nbval compares them run to run, so
the text must be short (long dicts are cut after a few items, with a count of the rest) and
deterministic (no memory addresses; sets sorted; lazy objects such as ``map`` named, never consumed).
"""

from __future__ import annotations

import math
import re
import unicodedata
from itertools import islice
from typing import Any

DICT_ITEMS = 6
"""Items of a dict shown before "… N more"."""
SEQUENCE_ITEMS = 12
STRING_CHARS = 60
MAX_DEPTH = 4

_ADDRESS = re.compile(r"\s*\bat 0x[0-9a-fA-F]+")
_LAZY = (
    "generator",
    "map",
    "filter",
    "zip",
    "enumerate",
    "reversed",
    "dict_keys",
    "dict_values",
    "dict_items",
    "range",
    "list_iterator",
    "tuple_iterator",
    "str_ascii_iterator",
    "str_iterator",
)


def without_addresses(text: str) -> str:
    """Drop ``at 0x7f…`` from reprs: addresses change every run."""
    return _ADDRESS.sub("", text)


def marks_shown(text: str) -> str:
    """``repr(text)``, with each combining mark written as its escape when the text is not in NFC: 'e\\u0301'
    would print as 'é' and read like the precomposed letter a case contrasts it with (a text already in NFC, such
    as Devanagari with its vowel signs, stays readable)."""
    shown = repr(text)
    if unicodedata.is_normalized("NFC", text):
        return shown
    return "".join(
        (f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        if unicodedata.category(ch).startswith("M")
        else ch
        for ch in shown
    )


def short(value: Any, depth: int = 0) -> str:
    """A compact, deterministic repr: long containers cut, addresses removed."""
    if depth > MAX_DEPTH:
        return "…"
    if isinstance(value, dict):
        parts = [f"{short(k, depth + 1)}: {short(v, depth + 1)}" for k, v in islice(value.items(), DICT_ITEMS)]
        if len(value) > DICT_ITEMS:
            parts.append(f"… {len(value) - DICT_ITEMS} more")
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, (list, tuple)):
        parts = [short(item, depth + 1) for item in value[:SEQUENCE_ITEMS]]
        if len(value) > SEQUENCE_ITEMS:
            parts.append(f"… {len(value) - SEQUENCE_ITEMS} more")
        if isinstance(value, list):
            return "[" + ", ".join(parts) + "]"
        return "(" + ", ".join(parts) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, (set, frozenset)):
        if not value:
            return f"{type(value).__name__}()"
        return "{" + ", ".join(sorted(short(item, depth + 1) for item in value)) + "}"
    if isinstance(value, bytes):
        if len(value) > STRING_CHARS:
            return f"{value[:STRING_CHARS]!r}… ({len(value)} in all)"
        return repr(value)
    if isinstance(value, str):
        if len(value) > STRING_CHARS:
            return f"{marks_shown(value[:STRING_CHARS])}… ({len(value)} in all)"
        return marks_shown(value)
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return repr(value)
        except ValueError:  # past Python's limit on the digits an int may print (4,300 by default)
            digits = math.floor(math.log10(abs(value))) + 1
            digits -= 10 ** (digits - 1) > abs(value)  # the float logarithm can round up past a power of ten
            return f"{'-' if value < 0 else ''}an int of {digits:,} digits"
    if value is None or value is Ellipsis or isinstance(value, (bool, float)):
        return repr(value)
    if type(value).__name__ in _LAZY:
        return f"<{type(value).__name__} object>"
    try:
        text = without_addresses(repr(value))
    except Exception:  # a learner's object with a broken __repr__
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= 120 else text[:120] + "…"


def kind(value: Any) -> str:
    """``a dict``, ``a list``, ``None``, ``a map object``: how a type reads in a sentence."""
    if value is None:
        return "None"
    if value is Ellipsis:
        return "... (Ellipsis)"
    name = type(value).__name__
    if name in _LAZY:
        return f"a {name} object"
    return ("an " if name[0].lower() in "aeiou" else "a ") + name


def told_apart(expected: Any, got: Any) -> str:
    """``expected X, got Y`` for a message; where the two print alike ('café' composed and decomposed), with
    their code points escaped (``ascii``), so that the reader sees what differs."""
    want, have = short(expected), short(got)
    both_text = isinstance(expected, str) and isinstance(got, str)
    if _looks_alike(want, have) or (both_text and _looks_alike(expected, got)):  # short escapes marks in one only
        want, have = ascii(expected), ascii(got)
    return f"{want}, got {have}"


def _looks_alike(a: str, b: str) -> bool:
    """Whether two printed values look the same on screen: equal once composed (NFC) and without invisible
    format characters (a zero-width joiner, a soft hyphen)."""

    def seen(text: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFC", text) if unicodedata.category(c) != "Cf")

    return seen(a) == seen(b)


def differences(expected: Any, got: Any, limit: int = 3) -> str:
    """What differs between two dicts or two sequences, the first few items, in plain words; '' if unsure."""
    if isinstance(expected, dict) and isinstance(got, dict):
        notes = []
        for key, value in expected.items():
            if key not in got:
                notes.append(f"{short(key)} is missing (expected {short(value)})")
            elif got[key] != value:
                notes.append(f"{short(key)}: expected {told_apart(value, got[key])}")
        notes += [
            f"{short(key)} should not be there (got {short(value)})"
            for key, value in got.items()
            if key not in expected
        ]
        if not notes:
            return ""
        more = f"; … {len(notes) - limit} more" if len(notes) > limit else ""
        return "; ".join(notes[:limit]) + more
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        for position, (want, have) in enumerate(zip(expected, got)):
            if want != have:
                return f"first difference at position {position}: expected {told_apart(want, have)}"
        if len(expected) != len(got):
            return f"expected {len(expected)} item{'s' if len(expected) != 1 else ''}, got {len(got)}"
    return ""
