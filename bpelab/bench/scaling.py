"""Scaling: whole training time (text in, merges out) against corpus size, for the naive loop,
the incremental trainer and Hugging Face ``tokenizers``, at a fixed number of merges.

Sizes below the course's corpus size are prefixes of it (every piece new text); the largest
repeats it, which adds pre-tokenization work but no new distinct pieces.
"""

from __future__ import annotations

from functools import partial
from typing import Literal

from bpelab.bench.common import WALL, Row, best_of, corpus, kb, note, race, say, seconds, speed, timed
from bpelab.bench.training import hf_train
from bpelab.byte_level import BPETokenizer, count_pretokens


def train_gpt2(text: str, vocab_size: int, method: Literal["naive", "fast"], progress: bool = False) -> BPETokenizer:
    return BPETokenizer().train(text, vocab_size, pattern="gpt2", method=method, progress=progress)


def rows(quick: bool = False) -> list[Row]:
    merges = 100 if quick else 500
    sizes = [10_000, 20_000, 40_000, 80_000] if quick else [25_000, 50_000, 100_000, 170_000, 1_000_000]
    repeats = 1 if quick else 3
    out = [
        note(f"scaling: whole training with {merges} merges, GPT-2 split; sizes cut from english_train.txt + code.txt")
    ]
    for size in sizes:
        text, how = corpus(size)
        distinct = len(count_pretokens(text, "gpt2"))
        say(f"scaling: {kb(size)}: naive, fast and tokenizers")
        naive_time, naive = timed(partial(train_gpt2, text, 256 + merges, "naive", not quick))
        fast_time, fast = best_of(partial(train_gpt2, text, 256 + merges, "fast"), repeats)
        assert fast.merges == naive.merges, f"fast and naive training disagree at {kb(size)}"
        lines = text.splitlines(keepends=True)
        fast_wall, hf_wall, _, _ = race(
            partial(train_gpt2, text, 256 + merges, "fast"), partial(hf_train, lines, 256 + merges), repeats, WALL
        )
        label = f"{kb(size)} ({distinct:,} distinct pieces{', repeated text' if 'repeated' in how else ''})"
        out.append((f"  {label}: fast vs naive", seconds(fast_time), seconds(naive_time), speed(fast_time, naive_time)))
        out.append(
            (
                f"  {label}: fast vs tokenizers, wall clock",
                seconds(fast_wall),
                seconds(hf_wall),
                speed(fast_wall, hf_wall),
            )
        )
    return out
