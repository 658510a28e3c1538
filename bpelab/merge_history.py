"""The corpus after every merge of a training run, kept as what each merge changed.

Lesson 04 replays a run step by step: each step shows the corpus after its merge and the pair counts the
merge was chosen by. Kept whole for every step, they cost about 200 KB a step on lesson 04's 874 distinct
words (its run to ``min_count=2``, 802 merges: 165 MB of a kernel's memory). A merge changes only the words
that hold its pair, so a history keeps, per step, those words' places and new spellings, plus a whole corpus
every ``CHECKPOINT_EVERY`` steps; a step's corpus is rebuilt from the nearest whole one. Its pair counts are
counted again from the corpus before it, by the same function and in the same order as training counted
them, so they are the very table the merge was chosen by.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic

from bpelab.merging import S

CHECKPOINT_EVERY = 32
"""A whole corpus is kept every this many steps, so rebuilding any step replays at most this many changes."""

Corpus = dict[tuple[Any, ...], int]
Changes = tuple[tuple[int, tuple[Any, ...]], ...]
"""``(place of the word in the corpus, its new spelling)`` for every word one merge changed."""


class MergeHistory(Generic[S]):
    """Every corpus of one run, recorded step by step by ``learn_merges`` (``record``) and rebuilt on demand."""

    def __init__(self, start: Corpus, count_pairs: Callable[[Corpus], dict[tuple[S, S], int]]) -> None:
        self._count_pairs = count_pairs
        self._frames: list[Corpus | Changes] = [start]  # frame k: the corpus after k merges, whole or as changes
        self._last: tuple[int, list[tuple[Any, ...]], list[int]] | None = None  # the last corpus rebuilt
        self._last_counts: tuple[int, dict[tuple[S, S], int]] | None = None

    def record(self, before: Corpus, after: Corpus) -> None:
        """Add the corpus after the next merge (``before`` is the one it was made from)."""
        step = len(self._frames)
        if len(after) != len(before) or step % CHECKPOINT_EVERY == 0:
            self._frames.append(after)  # two spellings became one word (counts added), or a checkpoint: whole
            return
        # same words in the same order; only those that held the pair are shorter now
        self._frames.append(tuple((i, new) for i, (old, new) in enumerate(zip(before, after)) if len(new) != len(old)))

    def corpus(self, step: int) -> Corpus:
        """The corpus after ``step`` merges (0: the starting one)."""
        frame = self._frames[step]
        if isinstance(frame, dict):
            return frame
        base = step
        while not isinstance(self._frames[base], dict):
            base -= 1
        if self._last is not None and base <= self._last[0] <= step:
            at, words, counts = self._last[0], list(self._last[1]), self._last[2]
        else:
            whole = self._frames[base]
            assert isinstance(whole, dict)
            at, words, counts = base, list(whole), list(whole.values())
        for k in range(at + 1, step + 1):
            changes = self._frames[k]
            assert not isinstance(changes, dict)
            for i, new in changes:
                words[i] = new
        self._last = (step, words, counts)
        return dict(zip(words, counts))

    def pair_counts(self, step: int) -> dict[tuple[S, S], int]:
        """The pair counts merge number ``step`` (1 for the first) was chosen by: those of the corpus before it."""
        if self._last_counts is None or self._last_counts[0] != step:
            self._last_counts = (step, self._count_pairs(self.corpus(step - 1)))
        return self._last_counts[1]
