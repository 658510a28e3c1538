"""What the kernel does for the merge stepper, beside the training it shows.

The stepper's ES module draws every step in the browser (``bench/drawing.py`` times that), so
Python's part is done once, when the stepper is made: from the training run it builds the trace
the browser reads (each step's words, pair table and totals) and hands it over. This times making
the stepper beside ``train_bpe`` on the same text, on the lesson-04 toy corpus and on a real text
of 2,000+ words (the one lesson 04 steps through): the ratio says what showing a run costs on top
of computing it.
"""

from __future__ import annotations

from bpelab.bench.common import Row, race, seconds
from bpelab.corpora import read_corpus
from bpelab.patterns import split_text
from bpelab.widgets.stepper import MergeStepper
from bpelab.words import train_bpe

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


def rows(quick: bool = False) -> list[Row]:
    """(what, ours, peer, ratio) rows: making the stepper (training included) beside training alone."""
    merges = 50 if quick else 200
    cases = [("toy corpus, 10 merges", TOY_CORPUS, 10), (f"2,000-word text, {merges} merges", real_text(), merges)]
    out: list[Row] = []
    for label, text, num_merges in cases:
        ours, peer, _, _ = race(
            lambda: MergeStepper(train_bpe(text, num_merges)),  # noqa: B023  (called at once, inside this loop)
            lambda: train_bpe(text, num_merges),  # noqa: B023
            repeats=3 if quick else 5,
        )
        out.append(
            (
                f"make the stepper (train + trace), {label}",
                seconds(ours),
                f"train_bpe alone {seconds(peer)}",
                f"{ours / peer:.2f}x the training",
            )
        )
    return out


if __name__ == "__main__":
    for row in rows():
        print(" | ".join(row))
