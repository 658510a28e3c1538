"""Word-level BPE, the version of lessons 02 to 05.

A corpus becomes a table of words, each spelled as characters plus an end-of-word marker
``</w>``, with how often it occurs. Training repeatedly finds the most frequent adjacent pair
of symbols and merges it everywhere. Encoding a new word replays the learned merges in order.

Every function here is deliberately plain: it is the reference the lessons teach, the one the
exercise checkers compare against and the one the fast trainer (``bpelab.fast``) must agree with.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

END_OF_WORD = "</w>"

Word = tuple[str, ...]
"""A word spelled as symbols, e.g. ``('l', 'o', 'w', '</w>')``."""
WordFreq = dict[Word, int]
Pair = tuple[str, str]
Merge = tuple[Pair, str]
"""A learned merge: the pair and the new symbol, e.g. ``(('l', 'o'), 'lo')``."""
TieBreak = Literal["first", "lexicographic"]
TIE_BREAKS: tuple[str, ...] = ("first", "lexicographic")
S = TypeVar("S", bound=Hashable)
Score = Callable[[dict, dict], dict]
"""``score(pair_counts, word_freq) -> {pair: score}``: what a trainer maximises instead of the count."""


def _require_str(text: object, what: str = "text") -> str:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}; convert it first, e.g. str(x)")
    return text


def get_word_frequencies(text: str) -> WordFreq:
    """Split on whitespace and spell each word as characters plus ``</w>``, counted in first-seen order.

    >>> get_word_frequencies("cat cat dog")
    {('c', 'a', 't', '</w>'): 2, ('d', 'o', 'g', '</w>'): 1}
    """
    _require_str(text)
    word_freq: WordFreq = {}
    for word in text.split():
        symbols = (*word, END_OF_WORD)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return word_freq


def count_pairs(word_freq: WordFreq) -> dict[Pair, int]:
    """Count every adjacent pair of symbols, weighted by its word's count, in first-seen order."""
    counts: dict[Pair, int] = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def replace_pair(symbols: tuple[S, ...], pair: tuple[S, S], new_symbol: S) -> tuple[S, ...]:
    """Replace every occurrence of ``pair`` in ``symbols``, scanning left to right without overlaps.

    ``('a', 'a', 'a')`` with ``('a', 'a')`` gives ``('aa', 'a')``: the scan consumes both symbols
    of a match before it looks for the next one. Symbols can be strings (word-level BPE) or
    token ids (byte-level BPE); the rule is the same.
    """
    first, second = pair
    merged: list[S] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == first and symbols[i + 1] == second:
            merged.append(new_symbol)
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def merge_symbols(symbols: Word, pair: Pair) -> Word:
    """Merge ``pair`` in one spelled word: the two strings become one symbol."""
    return replace_pair(symbols, pair, pair[0] + pair[1])


def merge_pair(word_freq: WordFreq, pair: Pair) -> WordFreq:
    """Return a new corpus with ``pair`` merged in every word (left to right, non-overlapping)."""
    return {merge_symbols(word, pair): freq for word, freq in word_freq.items()}


def best_pair(pair_counts: dict[Pair, int], tie_break: TieBreak = "first") -> Pair:
    """The pair to merge next: the highest count (or score), ties settled by ``tie_break``.

    ``"first"`` keeps the pair seen first when the corpus is scanned in order (the order of
    ``pair_counts``); ``"lexicographic"`` takes the smallest pair, as Python compares tuples.
    """
    if not pair_counts:
        raise ValueError("there are no pairs to merge: every word is a single symbol")
    if tie_break == "first":
        return max(pair_counts, key=pair_counts.__getitem__)  # max keeps the first of equals
    if tie_break == "lexicographic":
        return min(pair_counts, key=lambda pair: (-pair_counts[pair], pair))
    raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")


@dataclass(frozen=True)
class MergeStep(Generic[S]):
    """One round of training, with everything needed to replay it on screen."""

    number: int
    """1 for the first merge."""
    pair_counts: dict[tuple[S, S], int]
    """All pair counts before this merge, in first-seen order: the values the pair was chosen by
    (a trainer with its own ``score``, such as WordPiece, records its scores here)."""
    pair: tuple[S, S]
    count: int
    """The chosen pair's entry in ``pair_counts``."""
    word_freq: dict[tuple[S, ...], int]
    """The corpus after this merge."""
    new_symbol: S

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
    for number in range(1, num_merges + 1):
        pair_counts = count_pairs(word_freq)
        if not pair_counts:
            return
        scores = pair_counts if score is None else score(pair_counts, word_freq)
        pair = best_pair(scores, tie_break)
        if pair_counts[pair] < min_count:
            return
        symbol = new_symbol(pair)
        word_freq = {replace_pair(word, pair, symbol): freq for word, freq in word_freq.items()}
        yield MergeStep(number, scores, pair, scores[pair], word_freq, symbol)


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


def check_merge_count(num_merges: object, what: str = "num_merges") -> int:
    if isinstance(num_merges, bool) or not isinstance(num_merges, int):
        raise TypeError(f"{what} must be an int, got {type(num_merges).__name__}")
    if num_merges < 0:
        raise ValueError(f"{what} must be 0 or more, got {num_merges}")
    return num_merges


def check_tie_break(tie_break: object) -> None:
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")


def train_bpe(
    text: str,
    num_merges: int,
    *,
    tie_break: TieBreak = "first",
    method: Literal["naive", "fast"] = "naive",
) -> TrainingResult:
    """Learn up to ``num_merges`` merges from ``text``, recording every step.

    Ties go to the pair seen first (``"first"``) or to the smallest pair (``"lexicographic"``).
    Stops early when no pair is left. ``method="fast"`` learns the same merges with the
    incremental trainer of ``bpelab.fast`` and records no per-step tables.
    """
    _require_str(text)
    check_merge_count(num_merges)
    check_tie_break(tie_break)
    word_freq = get_word_frequencies(text)
    if method == "fast":
        from bpelab.fast import train_words_fast

        return train_words_fast(word_freq, num_merges, tie_break=tie_break)
    if method != "naive":
        raise ValueError(f"method must be 'naive' or 'fast', got {method!r}")
    steps = list(learn_merges(word_freq, num_merges, new_symbol=lambda p: p[0] + p[1], tie_break=tie_break))
    return TrainingResult(
        merges=[(step.pair, step.new_symbol) for step in steps],
        word_freq=steps[-1].word_freq if steps else word_freq,
        steps=steps,
        initial_word_freq=word_freq,
        tie_break=tie_break,
        stopped_early=len(steps) < num_merges,
    )


def encode_word(word: str, merges: list[Merge]) -> list[str]:
    """Spell ``word`` as characters plus ``</w>``, then replay ``merges`` in the order they were learned.

    >>> encode_word("low", [(("l", "o"), "lo"), (("lo", "w"), "low")])
    ['low', '</w>']
    """
    _require_str(word, "word")
    symbols: Word = (*word, END_OF_WORD)
    for pair, _new in merges:
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def decode_words(symbols: list[str]) -> str:
    """Join symbols back into text: ``</w>`` becomes a space between words."""
    return "".join(symbols).replace(END_OF_WORD, " ").rstrip(" ")
