"""Tables whose whitespace a learner can see: lessons 07 and 10 teach what a space, or three, does.

A notebook shows a pandas table as HTML, and HTML drops a cell's leading space and squeezes a run of
spaces into one, whatever pandas version made it: ``' ?\\p{L}++'`` shows as ``?\\p{L}++`` and
``'a   b'`` as ``'a b'``. So the text itself carries the whitespace, with the signs the token chips use
(``⋅`` a space, ``→`` a tab, ``↵`` a new line), and every front end shows the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from bpelab.widgets.chips import show_whitespace

PYTHON_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
"""A string literal as ``repr`` writes it: the parts of ``"['a b', 'c']"`` whose whitespace is text."""


def _shown(value: object) -> object:
    """Whitespace drawn inside the string literals of a ``repr`` (not the ", " between list items); in a cell
    without any literal, such as a regex, all of it."""
    if not isinstance(value, str):
        return value
    if PYTHON_STRING.search(value) is None:
        return show_whitespace(value)
    return PYTHON_STRING.sub(lambda literal: show_whitespace(literal.group()), value)


def spaces_shown(table: pd.DataFrame, columns: Sequence[str] | None = None, *, index: bool = True) -> pd.DataFrame:
    """A copy of ``table`` with whitespace drawn in the text of ``columns`` (default: all) and of the index.

    Pass ``columns`` to leave prose columns as they are; ``index=False`` leaves the row labels alone.
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"spaces_shown needs a pandas DataFrame, got {type(table).__name__}")
    chosen = list(table.columns) if columns is None else list(columns)
    unknown = [c for c in chosen if c not in table.columns]
    if unknown:
        raise ValueError(f"the table has no columns {unknown}; its columns are {list(table.columns)}")
    shown = table.copy()
    for column in chosen:
        shown[column] = table[column].map(_shown)
    if index:
        shown.index = pd.Index([_shown(label) for label in table.index], name=table.index.name)
    return shown
