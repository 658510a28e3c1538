"""Word-level BPE, the version of lessons 02 to 05.

A corpus becomes a table of words, each spelled as characters plus an end-of-word marker
``</w>``, with how often it occurs. Training repeatedly finds the most frequent adjacent pair
of symbols and merges it everywhere. Encoding a new word replays the learned merges in order.

Every function here is deliberately plain: it is the reference the lessons teach, the one the
exercise checkers compare against and the one the fast trainer (``bpelab.fast``) must agree with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, Literal

from bpelab.fast import IncrementalTrainer
from bpelab.merge_history import MergeHistory
from bpelab.merging import TIE_BREAKS, S, TieBreak, check_merge_count, check_tie_break, replace_pair
from bpelab.wording import a_or_an

END_OF_WORD = "</w>"

Word = tuple[str, ...]
"""A word spelled as symbols, e.g. ``('l', 'o', 'w', '</w>')``."""
WordFreq = dict[Word, int]
Pair = tuple[str, str]
Merge = tuple[Pair, str]
"""A learned merge: the pair and the new symbol, e.g. ``(('l', 'o'), 'lo')``."""
Score = Callable[[dict, dict], dict]
"""``score(pair_counts, word_freq) -> {pair: score}``: what a trainer maximises instead of the count."""


def _require_str(text: object, what: str = "text") -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}; convert it first, e.g. str(x)")
    return text


def get_word_frequencies(text: str) -> WordFreq:
    """Split on whitespace and spell each word as characters plus ``</w>``, counted in first-seen order.

    The split is ``text.split()`` on purpose, as lesson 02 explains: it is the simplest rule that
    shows the idea, and punctuation stays attached ("world!" is one word). A regex split that cuts
    punctuation off comes with byte-level BPE (``split_text``, ``BPETokenizer.train(pattern=...)``).

    >>> get_word_frequencies("cat cat dog")
    {('c', 'a', 't', '</w>'): 2, ('d', 'o', 'g', '</w>'): 1}
    """
    _require_str(text)
    word_freq: WordFreq = {}
    for word in text.split():
        symbols = (*word, END_OF_WORD)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return word_freq


def count_pairs(word_freq: dict[tuple[S, ...], int]) -> dict[tuple[S, S], int]:
    """Count every adjacent pair of symbols, weighted by its word's count, in first-seen order."""
    _require_corpus(word_freq, "count_pairs")
    counts: dict[tuple[S, S], int] = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def merge_symbols(symbols: Word, pair: Pair) -> Word:
    """Merge ``pair`` in one spelled word: the two strings become one symbol."""
    return replace_pair(symbols, pair, pair[0] + pair[1])


def merge_pair(word_freq: WordFreq, pair: Pair) -> WordFreq:
    """Return a new corpus with ``pair`` merged in every word (left to right, non-overlapping).

    Two spellings can become one word: ``('a', 'b', 'c')`` and ``('ab', 'c')`` both become
    ``('ab', 'c')`` when ``('a', 'b')`` is merged. Their counts are then added, so that the corpus
    still holds every occurrence.
    """
    _require_corpus(word_freq, "merge_pair")
    _require_pair(pair)
    merged: WordFreq = {}
    for word, freq in word_freq.items():
        new = merge_symbols(word, pair)
        merged[new] = merged.get(new, 0) + freq
    return merged


def best_pair(pair_counts: dict[tuple[S, S], Any], tie_break: TieBreak = "first") -> tuple[S, S]:
    """The pair to merge next: the highest count (or score), ties settled by ``tie_break``.

    ``"first"`` keeps the pair seen first when the corpus is scanned in order (the order of
    ``pair_counts``); ``"lexicographic"`` takes the smallest pair, as Python compares tuples.
    """
    if not pair_counts:
        raise ValueError(
            "there are no pairs to merge: every word is a single symbol, or there are no words at all"
            " (is the text empty or only whitespace?)"
        )
    if tie_break == "first":
        return max(pair_counts, key=pair_counts.__getitem__)  # max keeps the first of equals
    if tie_break == "lexicographic":
        return min(pair_counts, key=lambda pair: (-pair_counts[pair], pair))
    raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")


class MergeStep(Generic[S]):
    """One round of training, with everything needed to replay it on screen (read-only once made).

    ``learn_merges`` records its steps in a ``MergeHistory`` (``bpelab.merge_history``): a step's corpus and
    pair counts are rebuilt when read rather than kept whole for every step. Made by hand, a step keeps what
    it is given.
    """

    __slots__ = ("_history", "_pair_counts", "_word_freq", "count", "new_symbol", "number", "pair")

    number: int
    """1 for the first merge."""
    pair: tuple[S, S]
    count: int
    """The chosen pair's entry in ``pair_counts``."""
    new_symbol: S
    _pair_counts: dict[tuple[S, S], Any] | None
    _word_freq: dict[tuple[S, ...], int] | None
    _history: MergeHistory[S] | None

    def __init__(
        self,
        number: int,
        pair_counts: dict[tuple[S, S], Any] | None,
        pair: tuple[S, S],
        count: Any,
        word_freq: dict[tuple[S, ...], int] | None,
        new_symbol: S,
        *,
        history: MergeHistory[S] | None = None,
    ) -> None:
        if history is None and (pair_counts is None or word_freq is None):
            raise ValueError("a MergeStep needs its pair_counts and word_freq, or the history that rebuilds them")
        for name, value in (("number", number), ("pair", pair), ("count", count), ("new_symbol", new_symbol)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_pair_counts", pair_counts)
        object.__setattr__(self, "_word_freq", word_freq)
        object.__setattr__(self, "_history", history)

    @property
    def pair_counts(self) -> dict[tuple[S, S], Any]:
        """All pair counts before this merge, in first-seen order: the values the pair was chosen by
        (a trainer with its own ``score``, such as WordPiece, records its scores here)."""
        if self._pair_counts is not None:
            return self._pair_counts
        assert self._history is not None
        return self._history.pair_counts(self.number)

    @property
    def word_freq(self) -> dict[tuple[S, ...], int]:
        """The corpus after this merge."""
        if self._word_freq is not None:
            return self._word_freq
        assert self._history is not None
        return self._history.corpus(self.number)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a MergeStep cannot be changed (tried to set {name!r}): it records what training did")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MergeStep):
            return NotImplemented
        mine = (self.number, self.pair, self.count, self.new_symbol, self.pair_counts, self.word_freq)
        return mine == (other.number, other.pair, other.count, other.new_symbol, other.pair_counts, other.word_freq)

    __hash__ = None  # type: ignore[assignment]  # equal steps hold equal dicts, which have no hash

    def __repr__(self) -> str:
        return (
            f"MergeStep({self.number}: {self.pair[0]!r} + {self.pair[1]!r} -> {self.new_symbol!r}, count {self.count})"
        )


def learn_merges(
    word_freq: dict[tuple[S, ...], int],
    num_merges: int,
    *,
    new_symbol: Callable[[tuple[S, S]], S],
    tie_break: TieBreak = "first",
    min_count: int = 1,
    score: Score | None = None,
) -> Iterator[MergeStep[S]]:
    """The training loop itself: count the pairs, pick the best, merge it everywhere, record; repeat.

    Yields one ``MergeStep`` per merge and stops early when no pair is left or the best pair
    occurs fewer than ``min_count`` times. Word-level BPE names a new symbol by joining the two
    strings; byte-level BPE gives it the next free id. Everything else is shared.

    ``score`` changes what "best" means: given the pair counts and the corpus, it returns a score
    for every pair (in the same order), and the highest score wins, ties settled by ``tie_break``.
    BPE leaves it out (the count is the score); WordPiece (``bpelab.wordpiece``) passes its own.
    """
    history: MergeHistory[S] = MergeHistory(word_freq, count_pairs)  # what each step shows, kept compactly
    for number in range(1, num_merges + 1):
        pair_counts = count_pairs(word_freq)
        if not pair_counts:
            return
        scores: dict[tuple[S, S], Any] = pair_counts if score is None else score(pair_counts, word_freq)
        pair = best_pair(scores, tie_break)
        if pair_counts[pair] < min_count:
            return
        symbol = new_symbol(pair)
        before, word_freq = word_freq, {replace_pair(word, pair, symbol): freq for word, freq in word_freq.items()}
        history.record(before, word_freq)
        # the counts are counted again when read; a trainer's own scores are kept, as only it knows them
        kept_scores = None if score is None else scores
        yield MergeStep(number, kept_scores, pair, scores[pair], None, symbol, history=history)


@dataclass
class TrainingResult:
    """What ``train_bpe`` learned, and how."""

    merges: list[Merge]
    word_freq: WordFreq
    steps: list[MergeStep[str]]
    initial_word_freq: WordFreq
    tie_break: str = "first"
    stopped_early: bool = field(default=False)

    def __repr__(self) -> str:
        learned = ", ".join(f"{a}+{b}" for (a, b), _ in self.merges[:6]) + (", ..." if len(self.merges) > 6 else "")
        return f"TrainingResult({len(self.merges)} merges [{learned}], tie_break={self.tie_break!r})"

    @property
    def vocabulary(self) -> list[str]:
        """The starting characters (in first-seen order) followed by each merged symbol."""
        symbols = list(dict.fromkeys(s for word in self.initial_word_freq for s in word))
        return symbols + [new for _, new in self.merges]


def train_bpe(
    text: str,
    num_merges: int,
    *,
    tie_break: TieBreak = "first",
    method: Literal["naive", "fast"] = "naive",
    progress: Callable[[int, int], None] | None = None,
) -> TrainingResult:
    """Learn up to ``num_merges`` merges from ``text``, recording every step.

    Ties go to the pair seen first (``"first"``) or to the smallest pair (``"lexicographic"``).
    Stops early when no pair is left. ``method="fast"`` learns the same merges with the
    incremental trainer of ``bpelab.fast`` and records no per-step tables. ``progress``, when given, is told
    ``(merges done, num_merges)`` after each merge of the naive method (a form's "n of N merges").
    """
    _require_str(text)
    check_merge_count(num_merges)
    check_tie_break(tie_break)
    word_freq = get_word_frequencies(text)
    if method == "fast":
        return train_words_fast(word_freq, num_merges, tie_break=tie_break)
    if method != "naive":
        raise ValueError(f"method must be 'naive' or 'fast', got {method!r}")
    steps: list[MergeStep] = []
    for step in learn_merges(word_freq, num_merges, new_symbol=lambda p: p[0] + p[1], tie_break=tie_break):
        steps.append(step)
        if progress is not None:
            progress(len(steps), num_merges)
    return TrainingResult(
        merges=[(step.pair, step.new_symbol) for step in steps],
        word_freq=steps[-1].word_freq if steps else word_freq,
        steps=steps,
        initial_word_freq=word_freq,
        tie_break=tie_break,
        stopped_early=len(steps) < num_merges,
    )


def train_words_fast(word_freq: WordFreq, num_merges: int, *, tie_break: TieBreak = "first") -> TrainingResult:
    """Word-level BPE with the incremental trainer: the same merges as ``train_bpe(method="naive")``.

    ``word_freq`` is a corpus from ``get_word_frequencies``. The result has the merges, the final
    corpus and the starting one, but no per-step tables: ``steps`` is an empty list (the stepper
    widget needs them, so lessons train with the naive method).
    """
    check_merge_count(num_merges)
    trainer = IncrementalTrainer(list(word_freq), list(word_freq.values()), tie_break)
    merges = [(pair, symbol) for pair, symbol, _ in trainer.learn(num_merges, lambda p: p[0] + p[1])]
    return TrainingResult(
        merges=merges,
        word_freq=dict(zip(trainer.words, trainer.freqs)),
        steps=[],
        initial_word_freq=dict(word_freq),
        tie_break=tie_break,
        stopped_early=len(merges) < num_merges,
    )


def encode_word(word: str, merges: list[Merge]) -> list[str]:
    """Spell ``word`` as characters plus ``</w>``, then replay ``merges`` in the order they were learned.

    >>> encode_word("low", [(("l", "o"), "lo"), (("lo", "w"), "low")])
    ['low', '</w>']
    """
    _require_str(word, "word")
    symbols: Word = (*word, END_OF_WORD)
    for pair in _merge_pairs(merges):
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def decode_words(symbols: list[str]) -> str:
    """Join symbols back into text: ``</w>`` becomes a space between words.

    Every ``</w>`` in the joined symbols is read as the marker, so this gives back the words of a text (one space
    between each) exactly when no word contains the four characters ``</w>`` itself; the markup ``<w>word</w>``
    comes back as ``<w>word`` (lesson 02, section 6). Every space at the very end is dropped, so an empty word
    at the end (``['low</w>', '</w>']``) leaves nothing, while one at the start keeps its space (lesson 05).
    """
    if isinstance(symbols, str) or not isinstance(symbols, Iterable):
        raise TypeError(
            f"decode_words needs a list of symbols such as ['low', '</w>'] (what encode_word returns), "
            f"got {_kind(symbols)}"
        )
    symbols = list(symbols)
    for position, symbol in enumerate(symbols):
        if not isinstance(symbol, str):
            raise TypeError(
                f"decode_words needs symbols that are strings, such as ['low', '</w>']; position {position} "
                f"holds {symbol!r} ({type(symbol).__name__})"
            )
    return "".join(symbols).replace(END_OF_WORD, " ").rstrip(" ")


# ---- clear messages for the mistakes learners make most -------------------------------------


def _kind(value: object) -> str:
    return "None" if value is None else f"{a_or_an(type(value).__name__)} ({value!r:.60})"


def _require_corpus(word_freq: object, function: str) -> None:
    """A corpus is a dict from spelled words (tuples of symbols) to counts, as ``get_word_frequencies`` gives."""
    if not isinstance(word_freq, dict):
        fix = f"{function}(get_word_frequencies(text))" if isinstance(word_freq, str) else "get_word_frequencies(text)"
        raise TypeError(
            f"{function} needs a corpus: a dict from each word, spelled as a tuple of symbols such as "
            f"('l', 'o', 'w', '</w>'), to its count. It got {_kind(word_freq)}; make one with {fix}"
        )


def _require_pair(pair: object) -> None:
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise TypeError(f"merge_pair needs a pair: two adjacent symbols, such as ('l', 'o'); got {pair!r}")


def _merge_pairs(merges: object) -> Iterator[Pair]:
    """The pairs of learned merges, with a message that names the fix when ``merges`` is something else."""
    if isinstance(merges, TrainingResult):
        raise TypeError(
            "encode_word needs the list of merges, and got the whole training result: pass result.merges, "
            "e.g. encode_word('low', train_bpe(text, 10).merges)"
        )
    if isinstance(merges, (str, dict)) or not isinstance(merges, Iterable):
        raise TypeError(
            f"encode_word needs the learned merges, a list like [(('l', 'o'), 'lo'), ...] (result.merges); "
            f"got {_kind(merges)}"
        )
    for number, merge in enumerate(merges):
        pair = merge[0] if isinstance(merge, (tuple, list)) and len(merge) == 2 else None
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            bare = isinstance(merge, tuple) and len(merge) == 2 and all(isinstance(s, str) for s in merge)
            hint = " That is a bare pair: pass result.merges itself, not only its pairs." if bare else ""
            raise TypeError(
                f"encode_word needs each merge as (pair, new_symbol), such as (('l', 'o'), 'lo'), as in "
                f"result.merges; merge {number} is {merge!r}.{hint}"
            )
        yield pair[0], pair[1]
