"""Ids handed to ``decode``: any sequence of integers, each a token of the vocabulary.

A wrong id gets a message that says where it is and what is wrong with it: out of range, or a gap inside
the range (cl100k_base has no token 100256), with the tokens on either side named.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable


def check_ids(ids: object, vocab: dict[int, bytes]) -> list[int]:
    """``ids`` as a list of known ids: any iterable of integers (a list, a tuple, a NumPy array)."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        raise TypeError(f"ids must be a sequence of ints (a list, a tuple, a NumPy array), got {type(ids).__name__}")
    checked: list[int] = []
    for position, i in enumerate(ids):
        if type(i) is not int:  # NumPy integers (np.int64, np.uint32) pass through __index__
            if isinstance(i, bool):
                raise TypeError(f"ids must be ints; position {position} holds {i!r}, a bool")
            try:
                i = operator.index(i)
            except TypeError:
                raise TypeError(f"ids must be ints; position {position} holds {i!r} ({type(i).__name__})") from None
        if i not in vocab:
            raise ValueError(unknown_id_message(i, position, vocab))
        checked.append(i)
    return checked


def unknown_id_message(i: int, position: int, vocab: dict[int, bytes]) -> str:
    """Out of range, or a gap inside the range (cl100k_base has no token 100256): say which, and name it."""
    largest = max(vocab)
    where = f"unknown token id {i} at position {position}"
    if not 0 <= i <= largest:
        return (
            f"{where}: this tokenizer's ids run from 0 to {largest} ({len(vocab)} tokens). "
            "Was it encoded by a different tokenizer?"
        )
    below = max((k for k in vocab if k < i), default=None)
    above = min(k for k in vocab if k > i)
    first = 0 if below is None else below + 1
    gap = f"id {i} is" if first == above - 1 else f"ids {first} to {above - 1} are"
    neighbours = (
        f"{above} ({vocab[above]!r})" if below is None else f"{below} ({vocab[below]!r}) and {above} ({vocab[above]!r})"
    )
    return (
        f"{where}: {gap} a gap in this tokenizer's ids, unused by any token. The ids run from 0 to {largest}, "
        f"but only {len(vocab)} of them are tokens; the tokens on either side of this gap are {neighbours}. "
        "Was it encoded by a different tokenizer?"
    )
