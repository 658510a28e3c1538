"""WordPiece (lesson 11): BERT's subword vocabulary, trained beside BPE on the same words.

It differs from word-level BPE (``bpelab.words``) in three ways, and shares everything else
(the pair counts, the left-to-right merge, the training loop ``learn_merges``):

1. **Spelling.** A word is cut into characters, and every character after the first carries the
   continuation prefix ``##``: "hug" is ``('h', '##u', '##g')``. There is no end-of-word marker;
   a piece *without* ``##`` is what starts a word.
2. **The score.** Instead of the most frequent pair, merge the pair with the highest

       score(A, B) = count(AB) / (count(A) * count(B))

   where each count is weighted by word frequency, as in BPE. A frequent pair of common parts
   scores low; a pair whose parts are rare but almost always appear together scores high.
   Scores are kept as exact fractions (``fractions.Fraction``), so that equal scores are really
   equal and not float noise. Ties go to the pair seen first when the corpus is scanned in order
   (``tie_break="first"``), or to the smallest pair (``"lexicographic"``), exactly as in BPE.
   The merged symbol is A followed by B without B's ``##``: ``'##u' + '##g' -> '##ug'``.
3. **Encoding.** BERT does not replay merges. It keeps only the vocabulary and cuts each word
   greedily from the left, always taking the longest piece in the vocabulary (continuation pieces
   after the first); a word it cannot cover at some point becomes the single token ``[UNK]``.

Google never published the WordPiece trainer. Schuster and Nakajima (2012) describe it as adding
the unit that most increases the likelihood of the training data; the score here is the simple
form usually taught for it, and within one step it ranks the pairs exactly as their pointwise
mutual information does. Hugging Face ``tokenizers``' own ``WordPieceTrainer`` instead runs its
BPE trainer (most frequent pair) with the ``##`` prefix. Its WordPiece *encoder* is BERT's, and it
gives exactly the tokens that ``encode_wordpiece`` gives for the same vocabulary (a test checks it).
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from dataclasses import dataclass, field
from fractions import Fraction

from bpelab.merge_bar import merge_bar
from bpelab.words import (
    Pair,
    TieBreak,
    TrainingResult,
    WordFreq,
    _require_str,
    check_merge_count,
    check_tie_break,
    learn_merges,
)

PREFIX = "##"
"""Marks a piece that continues a word (BERT's ``continuing_subword_prefix``)."""
UNK = "[UNK]"
MAX_CHARS_PER_WORD = 100
"""Longer words become ``[UNK]`` without trying: Hugging Face ``tokenizers``' default (``max_input_chars_per_word``
in ``tokenizers/src/models/wordpiece/mod.rs``). BERT's own ``WordpieceTokenizer`` (google-research/bert,
``tokenization.py``) allows 200 characters."""


def spell_word(word: str) -> tuple[str, ...]:
    """The first character as it is, every later one with ``##``.

    >>> spell_word("hug")
    ('h', '##u', '##g')
    """
    return (word[0], *(PREFIX + ch for ch in word[1:])) if word else ()


def get_wordpiece_frequencies(text: str) -> WordFreq:
    """Split on whitespace (as ``get_word_frequencies`` does) and spell each word with ``##``, counted
    in first-seen order.

    >>> get_wordpiece_frequencies("hug hugs hug")
    {('h', '##u', '##g'): 2, ('h', '##u', '##g', '##s'): 1}
    """
    _require_str(text)
    word_freq: WordFreq = {}
    for word in text.split():
        symbols = spell_word(word)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return word_freq


def merged_symbol(pair: Pair) -> str:
    """A then B without B's ``##``: ``('h', '##u') -> 'hu'``, ``('##u', '##g') -> '##ug'``."""
    first, second = pair
    return first + second.removeprefix(PREFIX)


def symbol_counts(word_freq: WordFreq) -> dict[str, int]:
    """How often each symbol occurs, weighted by its word's count, in first-seen order."""
    counts: dict[str, int] = {}
    for word, freq in word_freq.items():
        for symbol in word:
            counts[symbol] = counts.get(symbol, 0) + freq
    return counts


def wordpiece_scores(pair_counts: dict[Pair, int], word_freq: WordFreq) -> dict[Pair, Fraction]:
    """Each pair's score count(AB) / (count(A) * count(B)) as an exact fraction, in the pairs' order."""
    singles = symbol_counts(word_freq)
    return {pair: Fraction(count, singles[pair[0]] * singles[pair[1]]) for pair, count in pair_counts.items()}


@dataclass
class WordPieceResult(TrainingResult):
    """What ``train_wordpiece`` learned, shaped like BPE's ``TrainingResult``.

    ``steps[k].pair_counts`` holds the *scores* before merge k + 1 and ``steps[k].count`` the
    winning score (``Fraction``); ``score_name`` tells the merge stepper to call them that.
    """

    unk_token: str = field(default=UNK)
    score_name = "score"

    def __repr__(self) -> str:
        learned = ", ".join(f"{a}+{b}" for (a, b), _ in self.merges[:6]) + (", ..." if len(self.merges) > 6 else "")
        return f"WordPieceResult({len(self.merges)} merges [{learned}], {len(self.vocab)} tokens)"

    @property
    def vocab(self) -> dict[str, int]:
        """Token to id: ``[UNK]`` first, then the alphabet and the merged symbols, each once."""
        tokens = dict.fromkeys([self.unk_token, *self.vocabulary])
        return {token: i for i, token in enumerate(tokens)}

    def encode(self, text: str) -> list[str]:
        """``encode_wordpiece(text, self.vocab)``."""
        return encode_wordpiece(text, self.vocab, unk_token=self.unk_token)


def train_wordpiece(
    text: str,
    num_merges: int | None = None,
    *,
    vocab_size: int | None = None,
    tie_break: TieBreak = "first",
    progress: bool = False,
) -> WordPieceResult:
    """Learn WordPiece merges from ``text``: ``num_merges`` of them, or until the vocabulary
    (``[UNK]``, the alphabet and the merged symbols) holds ``vocab_size`` tokens. Give one of the two.

    Words are split on whitespace, like ``train_bpe``, so the two can be compared on the same text.
    Training stops early when no pair is left. It runs the plain loop of ``learn_merges`` (every
    pair recounted after every merge), so keep the text small: ``progress=True`` shows a bar.
    """
    _require_str(text)
    check_tie_break(tie_break)
    if (num_merges is None) == (vocab_size is None):
        raise ValueError("give either num_merges or vocab_size (one of them), e.g. train_wordpiece(text, 100)")
    word_freq = get_wordpiece_frequencies(text)
    alphabet = dict.fromkeys(s for word in word_freq for s in word)
    if vocab_size is not None:
        check_merge_count(vocab_size, "vocab_size")
        smallest = len(alphabet) + 1
        if vocab_size < smallest:
            raise ValueError(
                f"vocab_size must be at least {smallest}: [UNK] plus the {len(alphabet)} characters of the text "
                f"(first and ## forms); got {vocab_size}"
            )
    else:
        check_merge_count(num_merges)
    tokens = set(alphabet)  # each token once, should two merges ever spell the same string

    def full() -> bool:
        return vocab_size is not None and len(tokens) + 1 >= vocab_size

    steps = []
    limit = sys.maxsize if num_merges is None else num_merges
    total = limit if vocab_size is None else vocab_size - len(tokens) - 1
    with merge_bar(total, progress) as bar:
        if not full():
            for step in learn_merges(
                word_freq, limit, new_symbol=merged_symbol, tie_break=tie_break, score=wordpiece_scores
            ):
                steps.append(step)
                tokens.add(step.new_symbol)
                bar.update()
                if full():
                    break
    stopped_early = not full() if vocab_size is not None else len(steps) < limit
    return WordPieceResult(
        merges=[(step.pair, step.new_symbol) for step in steps],
        word_freq=steps[-1].word_freq if steps else word_freq,
        steps=steps,
        initial_word_freq=word_freq,
        tie_break=tie_break,
        stopped_early=stopped_early,
    )


def encode_wordpiece_word(
    word: str,
    vocab: Collection[str],
    *,
    unk_token: str = UNK,
    max_chars_per_word: int = MAX_CHARS_PER_WORD,
) -> list[str]:
    """One word, cut greedily from the left, the longest piece in ``vocab`` first (BERT's rule).

    Pieces after the first are looked up with ``##`` in front. If no piece fits at some point,
    the whole word becomes ``[unk_token]``: BERT never returns half a word.

    >>> encode_wordpiece_word("hugs", {"hug", "##s", "h", "##u", "##g"})
    ['hug', '##s']
    """
    _require_str(word, "word")
    if len(word) > max_chars_per_word:
        return [unk_token]
    pieces: list[str] = []
    start = 0
    while start < len(word):
        prefix = PREFIX if start > 0 else ""
        for end in range(len(word), start, -1):  # longest first
            candidate = prefix + word[start:end]
            if candidate in vocab:
                pieces.append(candidate)
                start = end
                break
        else:
            return [unk_token]
    return pieces


def encode_wordpiece(
    text: str,
    vocab: Collection[str],
    *,
    unk_token: str = UNK,
    max_chars_per_word: int = MAX_CHARS_PER_WORD,
) -> list[str]:
    """Split ``text`` on whitespace and encode every word with ``encode_wordpiece_word``.

    ``vocab`` is any collection of tokens (a set, a list, a dict token -> id); lists are turned into
    a set once, so each lookup is fast.
    """
    _require_str(text)
    if isinstance(vocab, str) or not isinstance(vocab, Collection):
        raise TypeError(f"vocab must be a collection of tokens (a set, list or dict), got {type(vocab).__name__}")
    lookup = vocab if isinstance(vocab, (set, frozenset, dict)) else frozenset(vocab)
    tokens: list[str] = []
    for word in text.split():
        tokens.extend(encode_wordpiece_word(word, lookup, unk_token=unk_token, max_chars_per_word=max_chars_per_word))
    return tokens
