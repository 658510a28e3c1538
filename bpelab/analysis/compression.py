"""Compression (lesson 08): how many bytes of text one token carries, and how that grows with the vocabulary.

*Bytes per token* = the UTF-8 bytes of a text ÷ the tokens a tokenizer makes of it. A byte-level
tokenizer with no merges scores exactly 1.0; every merge that applies makes some token longer.

Measuring many vocabulary sizes takes ONE training run. BPE learns its merges in order, so the
tokenizer of 1,000 tokens is the tokenizer of 4,000 cut back to its first 744 merges
(``BPETokenizer.truncated``): exactly what training to 1,000 would have given.

One fact the search in ``smallest_vocab_size`` relies on: for one training run, bytes per token
never falls as the vocabulary grows. Encoding a piece always merges the lowest-ranked adjacent
pair, and a merge only creates pairs of *higher* rank (a token can only be merged further by
merges learned after it), so the merges applied to a piece come in rising rank order. The
tokenizer cut at *k* merges performs exactly those of rank below *k*, in the same order, and
stops: fewer merges, never fewer tokens.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from bpelab.analysis.counters import resolve_tokenizers
from bpelab.byte_level import BPETokenizer
from bpelab.production import TiktokenBPE


def _token_counter(tokenizer: Any) -> Callable[[str], int]:
    """text -> number of tokens, for a course encoding name ("cl100k_base") or any object with encode."""
    if isinstance(tokenizer, str) or hasattr(tokenizer, "encode"):
        (count,) = resolve_tokenizers([tokenizer]).values()
        return count
    raise TypeError(
        f"tokenizer must be a BPETokenizer, a tiktoken Encoding or a name such as 'cl100k_base'; "
        f"got {type(tokenizer).__name__}"
    )


def _check_text(
    text: object, what: str = "text", why: str = "it has no tokens, so bytes per token is undefined"
) -> str:
    """The text, or a clear error: ``why`` says what an empty text leaves undefined for this function."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}; read a file with bpelab.read_corpus(name)")
    if not text:
        raise ValueError(f"{what} is empty: {why}")
    return text


def bytes_per_token(tokenizer: Any, text: str) -> float:
    """UTF-8 bytes of ``text`` ÷ the number of tokens ``tokenizer`` makes of it (higher = more compressed).

    ``tokenizer`` is a ``BPETokenizer``, a tiktoken ``Encoding`` or a course encoding name; text
    that looks like a special token (``<|endoftext|>``) is counted as ordinary text.
    """
    _check_text(text)
    return len(text.encode("utf-8")) / _token_counter(tokenizer)(text)


def _check_sizes(tokenizer: BPETokenizer, sizes: Iterable[int]) -> list[int]:
    if not isinstance(tokenizer, BPETokenizer) or isinstance(tokenizer, TiktokenBPE):
        raise TypeError(
            "expected a BPETokenizer you trained (its merges are cut back to each size); "
            f"got {type(tokenizer).__name__}. A production vocabulary is measured whole: bytes_per_token(name, text)."
        )
    if isinstance(sizes, (int, str)) or not isinstance(sizes, Iterable):
        raise TypeError(f"sizes must be a list of vocabulary sizes, e.g. [256, 512, 1000]; got {type(sizes).__name__}")
    sizes = sorted(set(sizes))
    if not sizes:
        raise ValueError("sizes is empty: give at least one vocabulary size, e.g. [256, 512, 1000]")
    largest = 256 + len(tokenizer.merges)
    bad = [s for s in sizes if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 256 <= s <= largest]
    if bad:
        raise ValueError(
            f"vocabulary sizes {bad} are out of reach: this tokenizer has {len(tokenizer.merges):,} merges, "
            f"so sizes run from 256 (bytes only) to {largest:,}. Train to a larger size, or drop those sizes."
        )
    return [int(s) for s in sizes]


def compression_curve(tokenizer: BPETokenizer, texts: Mapping[str, str], sizes: Iterable[int]) -> pd.DataFrame:
    """Bytes per token of each text (columns, in the order given) at each vocabulary size (rows).

    Every size is measured with ``tokenizer.truncated(size)``: one training run, many sizes.
    Sizes count the 256 byte tokens and the merges, not special tokens.
    """
    sizes = _check_sizes(tokenizer, sizes)
    if not isinstance(texts, Mapping) or not texts:
        raise TypeError("texts must be a non-empty dict from a label to a text, e.g. {'held-out': text}")
    for label, text in texts.items():
        _check_text(text, f"text {label!r}")
    rows = []
    for size in sizes:
        smaller = tokenizer.truncated(size)
        rows.append([bytes_per_token(smaller, text) for text in texts.values()])
    return pd.DataFrame(rows, index=pd.Index(sizes, name="vocab_size"), columns=list(texts))


def gain_per_doubling(curve: pd.DataFrame) -> pd.DataFrame:
    """How much bytes per token grows for each doubling of the vocabulary, between neighbouring sizes.

    Between sizes a and b the gain is (bpt(b) - bpt(a)) / log2(b / a): sizes that are not exactly
    a doubling apart are put on the same footing. Rows are labelled "256 → 512" and so on.
    """
    if not isinstance(curve, pd.DataFrame) or len(curve) < 2:
        raise ValueError("expected the table from compression_curve, with at least two vocabulary sizes")
    sizes = np.asarray(curve.index, dtype=float)
    doublings = np.log2(sizes[1:] / sizes[:-1])
    gains = curve.diff().iloc[1:].div(doublings, axis=0)
    gains.index = pd.Index([f"{a:,} → {b:,}" for a, b in zip(curve.index[:-1], curve.index[1:])], name="vocab sizes")
    return gains


def _shown(token: bytes) -> str:
    """A token's bytes as text; bytes that are only part of a character show as \\xNN."""
    return token.decode("utf-8", errors="backslashreplace")


def token_usage(tokenizer: BPETokenizer, text: str) -> pd.DataFrame:
    """How often each token of the vocabulary is used when ``tokenizer`` encodes ``text``.

    One row per vocabulary id, the most used first (ties by id): its rank, id, token (as text),
    length in bytes, count and share of all tokens. Tokens the text never uses come last, with
    count 0. The counts are what ``encode`` emits: the bytes inside a longer token do not count.
    """
    _check_text(text, why="it uses no token, so no token has a share; pass the text whose tokens you want to count")
    vocab = getattr(tokenizer, "vocab", None)
    if not isinstance(vocab, Mapping):  # a dict, or a production vocabulary's TokenTable
        raise TypeError(f"expected a tokenizer with a vocab dict (a BPETokenizer), got {type(tokenizer).__name__}")
    encode = getattr(tokenizer, "encode_ordinary", None) or tokenizer.encode
    counts = Counter(encode(text))
    total = sum(counts.values())
    ids = sorted(vocab, key=lambda i: (-counts.get(i, 0), i))
    table = pd.DataFrame(
        {
            "rank": range(1, len(ids) + 1),
            "id": ids,
            "token": [_shown(vocab[i]) for i in ids],
            "bytes": [len(vocab[i]) for i in ids],
            "count": [counts.get(i, 0) for i in ids],
        }
    )
    table["share"] = table["count"] / total
    return table


def zipf_exponent(usage: pd.DataFrame, *, max_rank: int | None = None) -> float:
    """The s of Zipf's law, count ≈ C / rank**s, fitted on the used tokens of a ``token_usage`` table.

    A straight line is fitted to log(count) against log(rank) (least squares) and s is minus its
    slope. ``max_rank`` fits only the most used tokens: the tail of tokens seen once or twice
    forms flat steps that no straight line follows.
    """
    missing = {"rank", "count"} - set(usage.columns) if isinstance(usage, pd.DataFrame) else {"a DataFrame"}
    if missing:
        raise ValueError(f"expected the table from token_usage; it lacks {sorted(missing)}")
    used = usage[usage["count"] > 0]
    if max_rank is not None:
        used = used[used["rank"] <= max_rank]
    if len(used) < 2:
        raise ValueError("at least two used tokens are needed to fit a line")
    slope, _ = np.polyfit(np.log(used["rank"]), np.log(used["count"]), 1)
    return float(-slope)


def longest_tokens(tokenizer: BPETokenizer, n: int = 10) -> pd.DataFrame:
    """The ``n`` longest tokens of the vocabulary by bytes (ties: the earlier id first)."""
    vocab = getattr(tokenizer, "vocab", None)
    if not isinstance(vocab, Mapping):  # a dict, or a production vocabulary's TokenTable
        raise TypeError(f"expected a tokenizer with a vocab dict (a BPETokenizer), got {type(tokenizer).__name__}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive whole number of tokens to list, got {n!r}")
    ids = sorted(vocab, key=lambda i: (-len(vocab[i]), i))[:n]
    return pd.DataFrame({"id": ids, "bytes": [len(vocab[i]) for i in ids], "token": [_shown(vocab[i]) for i in ids]})


def smallest_vocab_size(tokenizer: BPETokenizer, text: str, min_bytes_per_token: float) -> int | None:
    """The smallest vocabulary size (256 up to the full tokenizer) at which ``text`` gets at least
    ``min_bytes_per_token``, or None if even the full tokenizer falls short.

    A binary search over ``tokenizer.truncated(size)``: about a dozen encodings instead of
    thousands. It is exact because bytes per token never falls as merges are added (see the module
    docstring).
    """
    _check_sizes(tokenizer, [256])
    _check_text(text)
    goal = min_bytes_per_token
    if isinstance(goal, bool) or not isinstance(goal, (int, float)) or math.isnan(goal):
        raise TypeError(f"min_bytes_per_token must be a number, got {min_bytes_per_token!r}")

    def reaches(size: int) -> bool:
        return bytes_per_token(tokenizer.truncated(size), text) >= goal

    high = 256 + len(tokenizer.merges)
    if not reaches(high):
        return None
    return first_reaching(256, high, reaches)


def first_reaching(low: int, high: int, reaches: Callable[[int], bool]) -> int:
    """The first of ``low .. high`` that ``reaches``, by halving, for a test that once true stays true; ``high``
    when none below it does (the caller checks ``high`` itself when it must)."""
    while low < high:  # invariant: `high` reaches the goal; every size below `low` does not
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return high


__all__ = [
    "bytes_per_token",
    "compression_curve",
    "gain_per_doubling",
    "longest_tokens",
    "smallest_vocab_size",
    "token_usage",
    "zipf_exponent",
]
