"""How long one step of the merge stepper takes, beside its 50 ms budget.

A step redraws the chips of the words on screen, the pair table, the merge log and the totals.
This times that Python-side work (what the kernel does before the browser repaints) on the
lesson-04 toy corpus and on a real text of 2,000+ words, for "Next" and for jumps (typing a step
in the step box). Steps past the ones precomputed for pages without a kernel are drawn on demand:
on the real text, those are most of the steps timed here.
"""

from __future__ import annotations

import random
import statistics
import time

from bpelab.course.corpora import read_corpus
from bpelab.patterns import split_text
from bpelab.widgets.stepper import MergeStepper
from bpelab.words import train_bpe

BUDGET_SECONDS = 0.050
TOY_CORPUS = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
WORD_REGEX = r"\w+|[^\w\s]+"  # lesson 02's split: words and runs of punctuation


def real_text(min_words: int = 2000) -> str:
    """Whole paragraphs from the start of the English corpus, at least ``min_words`` words,
    with punctuation split off as in lesson 04."""
    paragraphs, words = [], 0
    for paragraph in read_corpus("english_train").split("\n\n"):
        paragraphs.append(paragraph)
        words += len(paragraph.split())
        if words >= min_words:
            break
    return " ".join(split_text("\n\n".join(paragraphs), WORD_REGEX))


def _time_moves(stepper: MergeStepper, targets: list[int]) -> list[float]:
    seconds = []
    for target in targets:
        start = time.perf_counter()
        stepper.step = target
        seconds.append(time.perf_counter() - start)
    return seconds


def _row(what: str, seconds: list[float]) -> tuple[str, str, str, str]:
    ordered = sorted(seconds)
    median = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        what,
        f"median {median * 1000:.2f} ms, 95th pct {p95 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms",
        f"budget {BUDGET_SECONDS * 1000:.0f} ms",
        f"{p95 / BUDGET_SECONDS:.3f}",
    )


def rows(quick: bool = False) -> list[tuple[str, str, str, str]]:
    """(what, ours, peer, ratio) rows: the ratio is the 95th-percentile step time over the budget
    (below 1 is within budget; the 95th percentile, not the max, because the machines are shared)."""
    merges = 50 if quick else 200
    cases = [("toy corpus, 10 merges", TOY_CORPUS, 10), (f"2,000-word text, {merges} merges", real_text(), merges)]
    out = []
    rng = random.Random(0)
    for label, text, num_merges in cases:
        stepper = MergeStepper(train_bpe(text, num_merges))
        total = stepper.num_steps
        out.append(_row(f"stepper Next, {label}", _time_moves(stepper, list(range(1, total + 1)))))
        jumps = [rng.randrange(total + 1) for _ in range(20 if quick else 100)]
        stepper.first()
        out.append(_row(f"stepper jump (step box), {label}", _time_moves(stepper, jumps)))
    return out


if __name__ == "__main__":
    for row in rows():
        print(" | ".join(row))
