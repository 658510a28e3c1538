"""Reading what Hugging Face ``tokenizers`` saves: its byte-level BPE merges as pairs of bytes (lesson 11).

A byte-level ``tokenizers`` model writes every token as text, each byte replaced by a printable stand-in
character (GPT-2's table: ``byte_to_char``, used by ``bpelab.export`` to write one), and it has written its
merges in two ways: ``"Ġ t"`` strings (one space between
the two sides) before version 0.20, ``["Ġ", "t"]`` pairs since. ``hf_merges`` reads both, so a lesson
works with whichever version the learner has.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def byte_to_char() -> dict[int, str]:
    """GPT-2's printable stand-in for each byte, which Hugging Face's ``ByteLevel`` uses.

    Bytes that are printable Latin-1 characters stand for themselves (33-126, 161-172, 174-255); the other 68
    (controls, the space, the soft hyphen 173, ...) take the characters from U+0100 on, in byte order: the space
    becomes ``Ġ`` (U+0120).
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    others = (b for b in range(256) if b not in table)
    table.update({b: chr(256 + n) for n, b in enumerate(others)})
    return table


def gpt2_byte_table() -> dict[str, int]:
    """The same table read backwards: stand-in character -> byte."""
    return {char: b for b, char in byte_to_char().items()}


def byte_level_text(token: bytes) -> str:
    """How Hugging Face writes a token in ``tokenizer.json``: each byte as its stand-in (``b" the"`` -> ``"Ġthe"``)."""
    table = byte_to_char()
    return "".join(table[b] for b in token)


def merges_as_written(pairs: list[tuple[str, str]]) -> list[Any]:
    """Merges in the format the installed ``tokenizers`` writes: pairs from 0.20 on, ``"left right"`` strings before.

    0.19 cannot read pairs; both read strings, which are unambiguous for byte-level tokens (a space is ``Ġ``).
    """
    import tokenizers
    from packaging.version import Version

    if Version(tokenizers.__version__) >= Version("0.20"):
        return [list(pair) for pair in pairs]
    return [f"{left} {right}" for left, right in pairs]


def merge_pairs(merges: list[Any]) -> list[tuple[str, str]]:
    """The merges of a ``tokenizers`` BPE model as (left, right) text pairs, from either format it writes."""
    pairs = []
    for number, merge in enumerate(merges):
        if isinstance(merge, str):  # tokenizers < 0.20: "left right"
            parts = merge.split(" ")
        elif isinstance(merge, list | tuple):  # tokenizers >= 0.20: ["left", "right"]
            parts = list(merge)
        else:
            parts = []
        if len(parts) != 2 or not all(isinstance(part, str) and part for part in parts):
            raise ValueError(
                f"merge {number} is {merge!r}: expected two tokens, as a pair or as one string with one space "
                "between them (the formats tokenizers writes). Is this a BPE model's JSON?"
            )
        pairs.append((parts[0], parts[1]))
    return pairs


def hf_merges(tokenizer: Any) -> list[tuple[bytes, bytes]]:
    """The merges of a byte-level ``tokenizers`` BPE, in order, each side as bytes.

    ``tokenizer`` is a ``tokenizers.Tokenizer`` or its JSON text (``tokenizer.to_str()``, a tokenizer.json file).
    """
    text = tokenizer if isinstance(tokenizer, str) else tokenizer.to_str()
    model = json.loads(text).get("model", {})
    if model.get("type", "BPE") != "BPE" or "merges" not in model:
        raise ValueError(f"this tokenizer's model is {model.get('type')!r}, not a BPE with merges")
    to_byte = gpt2_byte_table()
    try:
        return [
            (bytes(to_byte[c] for c in left), bytes(to_byte[c] for c in right))
            for left, right in merge_pairs(model["merges"])
        ]
    except KeyError as err:
        raise ValueError(
            f"the merges hold {err.args[0]!r}, which is not one of GPT-2's byte stand-ins: "
            "this is not a byte-level BPE (use pre_tokenizers.ByteLevel)"
        ) from None
