"""What a stepper's "train on your own text" form asks Python for, trained by ``train_bpe``.

The merge stepper and classroom mode both offer a form: a text, a number of merges, a tie rule, and two
choices. "Cut off punctuation first" trains as lesson 04 trains its real text (lesson 02's regex cuts the
text, the pieces are joined by spaces). "Stop when no pair occurs twice" stops where the best pair occurs
once (merging it would shorten the text by a single token, for one more vocabulary entry), as ``BPETokenizer.train``
stops (``bpelab.byte_level``): ``train_bpe`` itself
goes on until no pair is left, so its run is cut at the first merge whose count is 1. That cut is exactly
``learn_merges(..., min_count=2)``: training stops at the first step whose best pair occurs fewer than twice.

The page's own trainer (``static/bpe_train.js``, option ``minCount``) does the same without Python;
tests/test_js_training.py holds the two equal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from bpelab.patterns import split_text
from bpelab.words import TIE_BREAKS, TieBreak, TrainingResult, train_bpe

LESSON_02_SPLIT = r"\w+|[^\w\s]+"
"""Lesson 02's pre-tokenization: runs of word characters, runs of punctuation."""
MOST_MERGES = 500
"""More merges than a class can step through; also keeps the naive trainer's wait short."""
MOST_CHARACTERS = 50_000
"""About 8,000 words: training stays around a second or two on a classroom laptop."""
STOP_COUNT = 2
"""With the stop rule, a merge needs its pair to occur at least this often."""


def train_for_form(
    text: str,
    merges: int,
    *,
    tie_break: str = "first",
    split_punctuation: bool = False,
    stop_at_single: bool = False,
) -> TrainingResult:
    """``train_bpe(text, merges, tie_break=...)``, with the form's two choices applied (see the module)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    if split_punctuation:
        text = " ".join(split_text(text, LESSON_02_SPLIT))
    result = train_bpe(text, merges, tie_break=cast(TieBreak, tie_break))
    return stopped_at_single(result) if stop_at_single else result


def stopped_at_single(result: TrainingResult) -> TrainingResult:
    """``result`` cut before its first merge of a pair that occurs fewer than twice (unchanged if none)."""
    kept = next((i for i, step in enumerate(result.steps) if step.count < STOP_COUNT), len(result.steps))
    if kept == len(result.steps):
        return result
    steps = result.steps[:kept]
    return replace(
        result,
        merges=result.merges[:kept],
        steps=steps,
        word_freq=steps[-1].word_freq if steps else result.initial_word_freq,
        stopped_early=True,
    )


def stop_reason(result: TrainingResult, asked: int) -> str:
    """Why ``result`` holds fewer merges than ``asked`` (empty when it holds them all)."""
    made = len(result.merges)
    if made >= asked:
        return ""
    s = "s" if made != 1 else ""
    if any(len(word) > 1 for word in result.word_freq):
        return (
            f"Stopped after {made} merge{s} of the {asked} asked for: no pair occurs twice any more "
            "(merging a pair seen once would shorten the text by one token and add one vocabulary entry)."
        )
    return f"You asked for {asked}, but after {made} every word is a single symbol: nothing is left to merge."


__all__ = ["LESSON_02_SPLIT", "MOST_CHARACTERS", "MOST_MERGES", "stop_reason", "stopped_at_single", "train_for_form"]
