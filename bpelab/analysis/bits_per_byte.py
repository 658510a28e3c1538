"""Bits per byte (lesson 15): the one loss that compares tokenizers with different vocabularies.

A language model's loss is measured per token: the average number of bits it needs to name the next token
(``-log2 p``). A tokenizer with a larger vocabulary cuts the same text into fewer, longer tokens, each of them
harder to guess, so its loss per token goes up even when the model understands the text better: the number of
tokens it divides by is the tokenizer's own. What stays comparable is the total: the bits needed for the whole
text, divided by a count of the text alone, the same for every tokenizer. Bytes are the usual count (characters
would rank the tokenizers of one text the same way: on a fixed text, bits per character are bits per byte times a
constant): a byte-level tokenizer's tokens are byte strings, so their lengths add up to the text's bytes, even
for a token that holds part of a character. ``bits per byte = bits per token × tokens per byte``.

The models here are the smallest that show it, fitted in a blink on the training text's token counts and scored
on held-out text: a unigram (each token's frequency, nothing else) and a bigram (the frequency of a token after
the one before it), both with add-k smoothing so that a token never seen in training still gets a little
probability (its share of k among all ``vocab_size`` tokens).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import pandas as pd

from bpelab.byte_level import BPETokenizer


def bits_per_byte(probabilities: Iterable[float], text: str) -> float:
    """The bits a model needs for ``text`` (``-log2`` of the probability it gave each token, summed) per UTF-8 byte.

    Bytes, not characters: a byte-level tokenizer's tokens cover exactly the text's bytes. The bits are added one
    token at a time: multiplying the probabilities first rounds to 0.0 once the product is below the smallest
    float, about 5e-324 (200 tokens at p = 0.01 make 1e-400). Empty text and probabilities outside (0, 1] are
    refused by name: there is nothing to divide by, and ``log2`` of 0 is minus infinity.
    """
    size = len(text.encode("utf-8"))
    if size == 0:
        raise ValueError(
            "the text is empty: it has no bytes to divide the bits by; pass the text the probabilities were given for"
        )
    bits = 0.0
    for index, p in enumerate(probabilities):
        if not 0 < p <= 1:
            raise ValueError(
                f"probabilities[{index}] is {p}: a probability a model gave a token must be between 0 (excluded) and 1"
            )
        bits -= math.log2(p)
    return bits / size


def unigram_bits(train_ids: Sequence[int], heldout_ids: Sequence[int], vocab_size: int, k: float = 1.0) -> float:
    """Total bits a unigram model fitted on ``train_ids`` needs for ``heldout_ids`` (add-``k`` smoothing)."""
    _check_model(vocab_size, k)
    counts = Counter(train_ids)
    total = len(train_ids) + k * vocab_size
    return -sum(math.log2((counts[i] + k) / total) for i in heldout_ids)


def bigram_bits(train_ids: Sequence[int], heldout_ids: Sequence[int], vocab_size: int, k: float = 0.1) -> float:
    """Total bits an add-``k`` bigram model fitted on ``train_ids`` needs for ``heldout_ids``.

    The first held-out token has no token before it and is scored by the unigram model, with the unigram's own
    k (1) whatever ``k`` is here.
    """
    _check_model(vocab_size, k)
    pairs = Counter(zip(train_ids, train_ids[1:]))
    before = Counter(train_ids[:-1])
    bits = unigram_bits(train_ids, heldout_ids[:1], vocab_size)
    for prev, token in zip(heldout_ids, heldout_ids[1:]):
        bits -= math.log2((pairs[prev, token] + k) / (before[prev] + k * vocab_size))
    return bits


def _check_model(vocab_size: int, k: float) -> None:
    if vocab_size < 1:
        raise ValueError(f"vocab_size must be at least 1, got {vocab_size}")
    if not k > 0:
        raise ValueError(f"k must be above 0 (add-k smoothing gives unseen tokens a share of k), got {k}")


def bits_table(tokenizer: BPETokenizer, sizes: Iterable[int], train_text: str, heldout_text: str) -> pd.DataFrame:
    """For each vocabulary size (the tokenizer cut back with ``truncated``): tokens, and the bits per token and
    bits per byte of a unigram and a bigram model fitted on ``train_text`` and scored on ``heldout_text``."""
    heldout_bytes = len(heldout_text.encode("utf-8"))
    if heldout_bytes == 0:
        raise ValueError("heldout_text is empty: there is nothing to score the models on; pass the held-out text")
    rows = []
    for size in sizes:
        tok = tokenizer.truncated(size)
        train_ids, heldout_ids = tok.encode(train_text), tok.encode(heldout_text)
        row: dict[str, float] = {"vocab_size": size, "held-out tokens": len(heldout_ids)}
        for name, bits in (
            ("unigram", unigram_bits(train_ids, heldout_ids, size)),
            ("bigram", bigram_bits(train_ids, heldout_ids, size)),
        ):
            row[f"{name} bits per token"] = bits / len(heldout_ids)
            row[f"{name} bits per byte"] = bits / heldout_bytes
        rows.append(row)
    return pd.DataFrame(rows).set_index("vocab_size")
