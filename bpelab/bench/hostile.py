"""Hostile input: text made to be slow to encode, by ours (``from_tiktoken``) and by tiktoken.

A megabyte of one letter is a single pre-token that no vocabulary entry covers: every merge
happens inside one enormous piece, where rescanning the piece after each merge would be
quadratic. 200 KB of one emoji and 100 KB of one Chinese character are single pieces too, made
of characters of several bytes each. A base64 blob is a long run of pieces that are rarely whole
tokens. The target is to stay within 10x of tiktoken, and doubling the input should roughly
double the time.
"""

from __future__ import annotations

import base64
import random
from functools import partial

from bpelab.bench.common import Row, against_target, kb, race, say, seconds
from bpelab.bench.encoding import cold
from bpelab.production import from_tiktoken, load_encoding


def base64_blob(size: int, seed: int = 0) -> str:
    """``size`` characters of base64 of random bytes (fixed seed: the same blob every run)."""
    raw = random.Random(seed).randbytes(size * 3 // 4 + 3)
    return base64.b64encode(raw).decode("ascii")[:size]


def cases(size: int) -> list[tuple[str, str]]:
    """Each hostile text with its label; all but the blob are one single piece under every pattern."""
    emoji, chinese = "😀", "的"
    return [
        (f"{kb(size)} of the letter 'a' (one piece)", "a" * size),
        (f"{kb(200_000)} of one emoji '{emoji}' (one piece)", emoji * (200_000 // len(emoji.encode()))),
        (f"{kb(100_000)} of '{chinese}' (one piece)", chinese * (100_000 // len(chinese.encode()))),
        (f"{kb(size)} base64 blob", base64_blob(size)),
    ]


def rows(quick: bool = False) -> list[Row]:
    size = 100_000 if quick else 1_000_000
    repeats = 1 if quick else 3
    encoding = load_encoding("cl100k_base")
    ours = from_tiktoken(encoding)
    out: list[Row] = []
    for label, text in cases(size):
        say(f"hostile input: {label}")
        ours_time, tiktoken_time, ours_ids, tiktoken_ids = race(
            partial(cold, ours, text), partial(encoding.encode_ordinary, text), repeats
        )
        assert ours_ids == tiktoken_ids, f"from_tiktoken and tiktoken disagree on {label}"
        out.append(
            (
                f"encode {label}, cl100k_base: ours vs tiktoken (identical ids)",
                seconds(ours_time),
                seconds(tiktoken_time),
                against_target(ours_time, tiktoken_time, at_most_slower=10),
            )
        )
    say("hostile input: twice the letters against half, to see how the time grows")
    full_time, half_time, _, _ = race(
        lambda: cold(ours, "a" * size), lambda: cold(ours, "a" * (size // 2)), max(1, repeats - 1)
    )
    out.append(
        (
            f"ours on {kb(size)} vs {kb(size // 2)} of 'a' (linear: 2x; quadratic: 4x)",
            seconds(full_time),
            seconds(half_time),
            f"{full_time / half_time:.2f}x the time for 2x the text",
        )
    )
    return out
