"""What every benchmark section shares: the corpus, fair timing, and how figures are written.

The machines here are shared and noisy, so an absolute time means little. Every figure is
measured beside its peer in the same run, the two alternating (ours, peer, ours, peer, ...),
and each keeps its best time: noise only ever adds time, so the minimum is the fairest estimate.

Times are CPU seconds of this process (``time.process_time``): when other programs compete for
the processors, a wall clock also counts the time spent waiting for a turn, CPU time does not.
Hugging Face ``tokenizers`` trains on several threads, and CPU time would add them all up, so
comparisons with it use the wall clock (``clock=WALL``) and say so.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TypeVar

from bpelab.corpora import read_corpus

Row = tuple[str, str, str, str]
"""(what, ours, peer, ratio)"""

BENCH_SOURCES = ("english_train", "code")
T = TypeVar("T")
U = TypeVar("U")
Clock = Callable[[], float]
CPU: Clock = time.process_time
WALL: Clock = time.perf_counter


def say(message: str) -> None:
    """Progress on stderr, so that the table on stdout stays clean."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def note(text: str) -> Row:
    """A row that only explains (the printer spreads it over the whole line)."""
    return (text, "", "", "")


def corpus(size: int, sources: tuple[str, ...] = BENCH_SOURCES) -> tuple[str, str]:
    """About ``size`` bytes of the course's text, and a sentence saying how it was made.

    The course's corpora together are smaller than a megabyte, so they are repeated to reach
    ``size``; repetition adds occurrences but no new distinct pieces.
    """
    base = "".join(read_corpus(name) for name in sources)
    base_bytes = len(base.encode("utf-8"))
    copies = -(-size // base_bytes)  # ceiling division
    raw = (base * copies).encode("utf-8")[:size]
    text = raw.decode("utf-8", errors="ignore")  # never cut a character in half
    names = " + ".join(f"{name}.txt" for name in sources)
    if copies > 1:
        how = f"{names} ({kb(base_bytes)}) repeated {size / base_bytes:.1f}x to {kb(size)}"
    else:
        how = f"the first {kb(size)} of {names} ({kb(base_bytes)})"
    return text, how


def timed(run: Callable[[], T], clock: Clock = CPU) -> tuple[float, T]:
    """Seconds of one call, and what it returned."""
    start = clock()
    result = run()
    return clock() - start, result


def best_of(run: Callable[[], T], repeats: int, clock: Clock = CPU) -> tuple[float, T]:
    """The best time of ``repeats`` calls, and what the last call returned."""
    best = float("inf")
    for _ in range(repeats):
        t, result = timed(run, clock)
        best = min(best, t)
    return best, result


def race(ours: Callable[[], T], peer: Callable[[], U], repeats: int, clock: Clock = CPU) -> tuple[float, float, T, U]:
    """Best time of each, measured alternately ``repeats`` times, and what each returned last."""
    best_ours = best_peer = float("inf")
    for _ in range(repeats):
        t, ours_result = timed(ours, clock)
        best_ours = min(best_ours, t)
        t, peer_result = timed(peer, clock)
        best_peer = min(best_peer, t)
    return best_ours, best_peer, ours_result, peer_result


def seconds(t: float) -> str:
    if t < 1:
        return f"{t * 1000:.1f} ms"
    return f"{t:.2f} s"


def kb(n_bytes: int) -> str:
    if n_bytes >= 1_000_000:
        return f"{n_bytes / 1_000_000:.1f} MB"
    return f"{n_bytes / 1000:.0f} KB"


def speed(ours: float, peer: float) -> str:
    """Ours against the peer in words: '12.3x faster' or '1.45x slower'."""
    if ours <= peer:
        return f"{peer / ours:.1f}x faster"
    return f"{ours / peer:.2f}x slower"


def against_target(
    ours: float, peer: float, *, at_most_slower: float | None = None, at_least_faster: float | None = None
) -> str:
    """The speed ratio and whether it meets the target, e.g. '1.8x slower (target <= 2x slower: met)'."""
    if at_least_faster is not None:
        met = peer / ours >= at_least_faster
        target = f">= {at_least_faster:g}x faster"
    elif at_most_slower is not None:
        met = ours / peer <= at_most_slower
        target = f"<= {at_most_slower:g}x slower"
    else:
        raise ValueError("give at_most_slower or at_least_faster")
    return f"{speed(ours, peer)} (target {target}: {'met' if met else 'NOT MET'})"
