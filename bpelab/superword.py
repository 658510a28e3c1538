"""Superword tokens (lesson 14): BPE that may merge across spaces once it has learned the words.

A tokenizer with one of lesson 07's split patterns cuts text into words before it merges, so in text written
with spaces no token holds two words: " of" and " the" are tokens, " of the" is not. Liu et al. (2025,
"SuperBPE: Space Travel for Language Models", arXiv:2503.13423) train in two stages:

1. **Subwords.** Ordinary BPE with whitespace pre-tokenization, up to a *transition point*
   (a number of merges).
2. **Superwords.** Training carries on from where stage 1 left the text, but the text is no longer
   cut at spaces, so a merge may join " of" and " the". Only a few cuts remain (``SUPERWORD_PATTERN``):
   numbers, runs of two or more characters that are neither whitespace, letters nor numbers (punctuation,
   symbols such as emoji, and combining marks where two or more of these stand together: Hindi's ``लोगों`` is cut
   before ``ों``, a vowel sign and a nasal sign, while one mark alone, such as the vowel sign of ``से``, stays
   with its letter), runs of spaces, and
   every line break (the seven characters Unicode's line-breaking algorithm, UAX #14, ends a line at:
   ``\n``, ``\r``, ``\v``, ``\f``, U+0085, U+2028, U+2029), so no token holds text from two lines.

The result is an ordinary ``BPETokenizer`` whose pattern is the stage-2 pattern: encoding cuts text
at those few places and merges each piece by rank. Stage 2 starts from each piece encoded with
stage 1's merges in exactly that way, so training and encoding always agree.
"""

from __future__ import annotations

import warnings

import regex

from bpelab.byte_level import BPETokenizer, TrainingStoppedEarly, count_pretokens
from bpelab.fast import IncrementalTrainer
from bpelab.merging import check_merge_count
from bpelab.patterns import pattern_name_of, resolve_pattern

LINE_BREAKS = "\n\v\f\r\x85\u2028\u2029"
"""The characters Unicode's line-breaking algorithm (UAX #14) ends a line at (classes BK, CR, LF and NL)."""

SUPERWORD_PATTERN = r" ?\p{N}+| ?[^\s\p{L}\p{N}]{2,}|\s*[\n\v\f\r\x85\u2028\u2029]\s*| +(?!\S)"
"""Where stage 2 still cuts: numbers (as GPT-2's pattern has them), runs of 2+ characters that are not
whitespace, letters or numbers (punctuation, symbols, combining marks: a mark alone between letters stays with
them), every line break with the whitespace around it, runs of spaces before more whitespace or the end.
Everything between two cuts (words, a single punctuation mark, the spaces between them) is one piece."""

_BRIDGES_SPACE = regex.compile(r"\S\s")


def train_superbpe(
    text: str,
    vocab_size: int,
    *,
    transition: int,
    pattern: str | None = "gpt2",
    superword_pattern: str = SUPERWORD_PATTERN,
    progress: bool = False,
) -> BPETokenizer:
    """Train ``transition`` merges as ordinary BPE with ``pattern``, then the rest up to ``vocab_size``
    on pieces cut only by ``superword_pattern`` (see the module docstring).

    ``transition`` equal to ``vocab_size - 256`` gives ordinary BPE (no superword stage); 0 gives BPE
    without whitespace pre-tokenization from the first merge. Ties go to the pair seen first; a stage
    stops early when no pair occurs twice (check ``stopped_early``).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    total = check_merge_count(vocab_size - 256 if isinstance(vocab_size, int) else vocab_size, "vocab_size - 256")
    check_merge_count(transition, "transition")
    if transition > total:
        raise ValueError(
            f"transition ({transition}) must be at most vocab_size - 256 ({total}): it is how many of the merges "
            "are learned before merges across spaces are allowed"
        )
    with warnings.catch_warnings():  # stage 1 running out of pairs is no reason to stop: stage 2 may find more
        warnings.simplefilter("ignore", TrainingStoppedEarly)
        stage1 = BPETokenizer().train(text, 256 + transition, pattern=pattern, progress=progress)
    counts = count_pretokens(text, superword_pattern)
    trainer: IncrementalTrainer[int] = IncrementalTrainer(
        [tuple(stage1.encode_piece(piece)) for piece in counts], list(counts.values())
    )
    next_id = iter(range(256 + len(stage1.merges), 256 + total))
    for pair, new_id, _count in trainer.learn(
        total - len(stage1.merges), lambda _pair: next(next_id), min_count=2, progress=progress
    ):
        stage1.merges[pair] = new_id
        stage1.vocab[new_id] = stage1.vocab[pair[0]] + stage1.vocab[pair[1]]
    stage1.pattern, stage1.pattern_name = superword_pattern, None
    stage1.requested_vocab_size = vocab_size
    stage1.clear_cache()
    return stage1


def is_superword(token: bytes) -> bool:
    """True when a token bridges whitespace: a whitespace character (Unicode's, so a no-break space or an
    ideographic space counts) after one that is not, as in b" of the" or b"the ", which whitespace
    pre-tokenization could never produce. Bytes that are not a whole character count as one non-space."""
    return _BRIDGES_SPACE.search(token.decode("utf-8", "replace")) is not None


def with_split(tokenizer: BPETokenizer, pattern: str | None) -> BPETokenizer:
    """A copy of ``tokenizer`` with the same merges and another split pattern (a name or a regex).

    It takes a SuperBPE tokenizer apart: with ``"gpt2"`` its merges meet text cut at every space, as
    ordinary BPE's do, so comparing the two says how much of a difference comes from the merges and how
    much from the split. The tokenizer given is left as it is.
    """
    if not isinstance(tokenizer, BPETokenizer):
        raise TypeError(f"tokenizer must be a BPETokenizer, got {type(tokenizer).__name__}")
    copy = tokenizer.truncated(256 + len(tokenizer.merges))
    copy.pattern, copy.pattern_name = resolve_pattern(pattern), pattern_name_of(pattern)
    return copy


def superword_tokens(tokenizer: BPETokenizer) -> list[bytes]:
    """The tokenizer's learned tokens that bridge whitespace, in the order they were learned."""
    return [tokenizer.vocab[new_id] for new_id in tokenizer.merges.values() if is_superword(tokenizer.vocab[new_id])]


__all__ = ["LINE_BREAKS", "SUPERWORD_PATTERN", "is_superword", "superword_tokens", "train_superbpe", "with_split"]
