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

import time
from collections.abc import Callable
from dataclasses import replace
from typing import cast

from bpelab.patterns import split_text
from bpelab.words import TIE_BREAKS, TieBreak, TrainingResult, get_word_frequencies, train_bpe

LESSON_02_SPLIT = r"\w+|[^\w\s]+"
"""Lesson 02's pre-tokenization: runs of word characters, runs of punctuation."""
MOST_MERGES = 500
"""More merges than a class can step through."""
MOST_CHARACTERS = 50_000
"""About 8,000 words: the longest text the form takes at all. How long Python trains depends on more than the
length: see ``MOST_WORK``."""
MOST_WORK = 1_000_000
"""The most symbol-merges the form trains in Python: the symbols of the text's different words (``training_work``)
times the merges asked for. The naive trainer reads every symbol of every different word at each merge, and the
stepper then draws every step, so the wait grows as that product. Measured on a shared 2-core machine: 3,300
characters of English (2,292 symbols in its different words) with 500 merges, 1.0 s training + 1.2 s drawing; 2,000
CJK characters with no spaces (one word, 2,001 symbols), 500 merges, 1.3 s + 1.6 s. With only the two limits above
(50,000 characters, 500 merges), a review measured 16.6 s on English and 52.5 s on CJK text with no spaces (a quiet
machine), hence this bound: around two seconds. The first 50,000 characters of english_train (21,251 symbols in their
different words) still train 47 merges; a text with no spaces is one long word, so its bound comes sooner (1,999
characters for 500 merges, 19,999 for 50)."""
STOP_COUNT = 2
"""With the stop rule, a merge needs its pair to occur at least this often."""


Progress = Callable[[int, int], None]
"""Told ``(merges done, merges asked for)`` after each merge while the form trains."""


def _form_text(text: str, split_punctuation: bool) -> str:
    return " ".join(split_text(text, LESSON_02_SPLIT)) if split_punctuation else text


def training_work(text: str, *, split_punctuation: bool = False) -> int:
    """The symbols of ``text``'s different words (``</w>`` included): what each merge of the naive trainer reads."""
    return sum(len(word) for word in get_word_frequencies(_form_text(text, split_punctuation)))


def most_merges_for(text: str, *, split_punctuation: bool = False) -> int:
    """The most merges the form trains on ``text`` in Python (``MOST_WORK``), at most ``MOST_MERGES``."""
    return min(MOST_MERGES, MOST_WORK // max(1, training_work(text, split_punctuation=split_punctuation)))


def too_slow(text: str, merges: int, *, split_punctuation: bool = False) -> str:
    """Why training ``merges`` merges on ``text`` would keep the learner waiting too long ("" when it would not)."""
    most = most_merges_for(text, split_punctuation=split_punctuation)
    if merges <= most:
        return ""
    work = training_work(text, split_punctuation=split_punctuation)
    fewer = f"ask for at most {most} merges, or paste" if most else "paste"
    return (
        f"{merges} merges on this text would keep Python busy too long: its different words hold {work:,} symbols, "
        f"and each merge reads them all (a text with no spaces is one long word). To train here, {fewer} a shorter "
        "text."
    )


def train_for_form(
    text: str,
    merges: int,
    *,
    tie_break: str = "first",
    split_punctuation: bool = False,
    stop_at_single: bool = False,
    progress: Progress | None = None,
) -> TrainingResult:
    """``train_bpe(text, merges, tie_break=...)``, with the form's two choices applied (see the module); ``progress``
    is told ``(done, merges)`` after each merge."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    form_text = _form_text(text, split_punctuation)
    result = train_bpe(form_text, merges, tie_break=cast(TieBreak, tie_break), progress=progress)
    return stopped_at_single(result) if stop_at_single else result


def progress_message(done: int, asked: int) -> str:
    """The form's message while Python trains."""
    return f"Training in Python… {done} of {asked} merges"


def reporting(say: Callable[[str], None], *, every: float = 0.2) -> Progress:
    """A ``Progress`` that says ``progress_message`` through ``say`` at most every ``every`` seconds (and at the
    first merge and the last asked for), so the page sees the count grow without a message per merge."""
    last = [float("-inf")]

    def report(done: int, asked: int) -> None:
        now = time.monotonic()
        if done in (1, asked) or now - last[0] >= every:
            last[0] = now
            say(progress_message(done, asked))

    return report


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


__all__ = [
    "LESSON_02_SPLIT",
    "MOST_CHARACTERS",
    "MOST_MERGES",
    "MOST_WORK",
    "most_merges_for",
    "progress_message",
    "reporting",
    "stop_reason",
    "stopped_at_single",
    "too_slow",
    "train_for_form",
    "training_work",
]
