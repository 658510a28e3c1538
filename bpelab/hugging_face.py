"""Reading what Hugging Face ``tokenizers`` saves: its byte-level BPE merges as pairs of bytes (lesson 11).

A byte-level ``tokenizers`` model writes every token as text, each byte replaced by a printable stand-in
character (GPT-2's table), and it has written its merges in two ways: ``"Ġ t"`` strings (one space between
the two sides) before version 0.20, ``["Ġ", "t"]`` pairs since. ``hf_merges`` reads both, so a lesson
works with whichever version the learner has.
"""

from __future__ import annotations

import json
from typing import Any


def gpt2_byte_table() -> dict[str, int]:
    """Stand-in character -> byte: printable bytes stand for themselves, the other 68 are moved to chr(256), ...

    The printable ones are 33-126 and 161-255 except 173 (the soft hyphen); the rest, in order, get 256, 257, ...
    """
    printable = [*range(33, 127), *range(161, 173), *range(174, 256)]
    others = [b for b in range(256) if b not in printable]
    return {chr(b): b for b in printable} | {chr(256 + i): b for i, b in enumerate(others)}


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
