"""SentencePiece's BPE training, step for step as ``SentencePieceTrainer.train(model_type="bpe")`` runs it.

The C++ is that of sentencepiece 0.2.3, the version ``requirements.txt`` pins: ``src/trainer_interface.cc``
(``LoadSentences``: lines, normalizing, the characters kept by ``character_coverage``;
``SplitSentencesByWhitespace``; ``IsValidSentencePiece``; ``InitMetaPieces``) and ``src/bpe_model_trainer.cc``
(``Trainer::Train``, ``AcceptSymbol``, ``AddNewPair``, ``ResetFreq``) and its ``QueueEntryComparator`` in
``src/bpe_model_trainer.h``, in github.com/google/sentencepiece. What differs from the course's own trainer
(lesson 04, ``bpelab.words``):

- words are counted after the text is normalized: each starts with ``▁`` (the dummy prefix or a space);
- characters outside ``character_coverage`` become one unknown mark (U+2585) that never joins anything;
- a pair may not join what SentencePiece forbids: two scripts of SentencePiece's own table
  (``bpelab.sentencepiece_scripts``; Hiragana, Katakana and ``ー`` count as Han, a mark of the Inherited script
  takes the script before it), a digit and a non-digit, ``▁`` anywhere but at the start, more than
  ``max_sentencepiece_length`` characters;
- the best pair comes off a priority queue over every pair: the most frequent, then the shorter piece, then the
  smaller string; a piece made again by another route ("aa"+"a" and "a"+"aa") is dropped and costs no place;
- a pair's count is kept up to date as merges go: plus the word's count where a merge makes it, minus where a
  merge takes one of its symbols; overlapping occurrences count twice ("aaa" holds "aa" twice) although only one
  can be merged;
- the pieces: ``<unk>``, ``<s>``, ``</s>``, the 256 byte pieces with byte_fallback, the merged pieces in the
  order they were made (score: minus their place), then the kept characters, most frequent first.

Releases up to 0.2.1 searched only an *active* share of the pairs (``UpdateActiveSymbols``: the most frequent,
as many as the larger of 1,000 and 5 % of ``symbols_cache_.size()`` (single characters as well as pairs), at most
all the pairs, chosen again every 100 merges; ``AddNewPair`` also adds to it every pair a merge creates, line 124
of ``bpe_model_trainer.cc`` at commit 2734490); 0.2.2 replaced that with the queue, so the two releases can learn
different pieces from one text. This module follows 0.2.3. One choice it cannot copy: two routes to one piece tied
at the top of the queue ("aa"+"a" and "a"+"aa" with the same count) are queued by ``AcceptSymbol`` through
``AddNewPair``, position by position, and ``std::priority_queue`` keeps no insertion order among equal entries;
this module takes the route it queued first.
"""

from __future__ import annotations

import heapq
import itertools
import struct
from dataclasses import dataclass, field

from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_model import ModelFile, ModelType, NormalizerSpec, Piece, PieceType, TrainerSpec
from bpelab.sentencepiece_scripts import sentencepiece_script
from bpelab.sentencepiece_text import SPACE, byte_piece, normalize

UNKNOWN_MARK = "\u2585"
"""``kUNKChar``: stands for every character outside the coverage while training."""
BOUNDARY = "\x1f"
"""``kPretokenizationBoundaryChar`` (U+001F in 0.2.3, ``trainer_interface.cc`` line 72): never kept, never joins.

A tab is an ordinary character to the trainer."""
FREQ_BITS = 64
"""A pair's count is a ``uint64_t`` in the C++: taking a word's count from a count of 0 wraps around."""


def script_of(char: str) -> str:
    """The script as ``IsValidSentencePiece`` uses it: SentencePiece's table, with kana and ``ー`` as Han."""
    name = sentencepiece_script(char)
    return "Han" if name in ("Hiragana", "Katakana") or char == "\u30fc" else name


def is_decimal_digit(char: str) -> bool:
    """``is_unicode_decimal_number``: ASCII and full-width digits only."""
    return "0" <= char <= "9" or "\uff10" <= char <= "\uff19"


@dataclass(frozen=True)
class Rules:
    """The trainer settings that decide which pieces may exist."""

    max_length: int = 16
    split_by_unicode_script: bool = True
    split_by_number: bool = True
    split_digits: bool = False


def is_valid_piece(piece: str, rules: Rules) -> bool:
    """``TrainerInterface::IsValidSentencePiece`` (whitespace as a prefix, split_by_whitespace on)."""
    if not piece or len(piece) > rules.max_length:
        return False
    previous: str | None = None  # None: any script
    for i, char in enumerate(piece):
        if char in (UNKNOWN_MARK, "\0", BOUNDARY, " ") or 0xD800 <= ord(char) <= 0xDFFF:
            return False
        if char == SPACE:
            if i > 0:
                return False
            continue
        script: str | None = script_of(char)
        if script == "Inherited":
            script = previous
        if not rules.split_by_number and is_decimal_digit(char):
            script = None
        if rules.split_digits and is_decimal_digit(char) and len(piece) > 1:
            return False
        if rules.split_by_unicode_script and script is not None and previous is not None and previous != script:
            return False
        previous = script
    return True


def _float32(x: float) -> float:
    value: float = struct.unpack("<f", struct.pack("<f", x))[0]
    return value


def kept_characters(sentences: list[str], coverage: float) -> dict[str, int]:
    """The characters kept, each with its count: the most frequent first until ``coverage`` of all is reached."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        for char in sentence:
            if char != "\0":
                counts[char] = counts.get(char, 0) + 1
    total = sum(counts.values())
    kept: dict[str, int] = {}
    covered = 0
    for char, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if _float32(covered / total) >= _float32(coverage):
            break
        covered += count
        if char != BOUNDARY:
            kept[char] = count
    return kept


def count_words(sentences: list[str]) -> list[tuple[str, int]]:
    """``SplitSentencesByWhitespace``: each word starts at the sentence's start or at a ``▁``; by count, then string."""
    counts: dict[str, int] = {}
    for sentence in sentences:
        starts = [0] + [i for i, c in enumerate(sentence) if c == SPACE and i > 0]
        for a, b in zip(starts, starts[1:] + [len(sentence)]):
            counts[sentence[a:b]] = counts.get(sentence[a:b], 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


LIMITS = {
    "character_coverage": (0.98, 1.0),
    "max_sentencepiece_length": (1, 512),
    "max_sentence_length": (10, 1 << 30),
}
"""The ranges ``VerifySpec`` allows (``src/trainer_interface.cc`` lines 94-99 of 0.2.3, ``CHECK_RANGE``; the
coverage is compared as the float32 the ``TrainerSpec`` holds). ``vocab_size`` must be above 0 (line 78)."""


def _within_sentencepiece_limits(vocab_size: int, coverage: float, max_piece: int, max_sentence: int) -> None:
    """Refuse what ``SentencePieceTrainer`` refuses before it trains, naming the limit."""
    if vocab_size <= 0:
        raise ValueError(
            f"vocab_size must be above 0, got {vocab_size} (SentencePieceTrainer refuses it too: "
            "trainer_interface.cc line 78)"
        )
    given = {"character_coverage": _float32(coverage), "max_sentencepiece_length": max_piece}
    given["max_sentence_length"] = max_sentence
    for name, (low, high) in LIMITS.items():
        if not low <= given[name] <= high:
            shown = {"character_coverage": coverage, "max_sentencepiece_length": max_piece}.get(name, max_sentence)
            raise ValueError(
                f"{name} must be from {low} to {high}, got {shown} (SentencePieceTrainer refuses it too: "
                f"VerifySpec, trainer_interface.cc lines 94-99 of sentencepiece 0.2.3)"
            )


def train_sentencepiece_bpe(
    text: str,
    vocab_size: int,
    *,
    byte_fallback: bool = False,
    character_coverage: float = 0.9995,
    max_sentencepiece_length: int = 16,
    split_by_unicode_script: bool = True,
    split_by_number: bool = True,
    split_digits: bool = False,
    max_sentence_length: int = 4192,
) -> SentencePieceBPE:
    """SentencePiece's BPE trained on ``text`` (one sentence a line) with the 'identity' normalizer.

    The same pieces, in the same order, with the same scores as ``SentencePieceTrainer.train(model_type="bpe",
    normalization_rule_name="identity", ...)`` of sentencepiece 0.2.3 with these settings (see the module's
    docstring for the one tie it cannot copy). Settings SentencePieceTrainer refuses before it trains (``LIMITS``)
    raise ValueError here too.
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, got {type(vocab_size).__name__}")
    _within_sentencepiece_limits(vocab_size, character_coverage, max_sentencepiece_length, max_sentence_length)
    rules = Rules(max_sentencepiece_length, split_by_unicode_script, split_by_number, split_digits)
    spec = NormalizerSpec(name="identity")
    meta = ["<unk>", "<s>", "</s>"] + ([byte_piece(b) for b in range(256)] if byte_fallback else [])
    lines = [
        line
        for line in text.split("\n")
        if line and len(line.encode("utf-8")) <= max_sentence_length and UNKNOWN_MARK not in line
    ]
    sentences = []
    for line in lines:
        normalized = normalize(list(line), spec)
        for piece in sorted(meta, key=len, reverse=True):  # meta pieces in the text become boundaries
            normalized = normalized.replace(piece, BOUNDARY)
        if normalized:
            sentences.append(normalized)
    if not sentences:
        raise ValueError("the text has no line to train on (every line is empty, too long or holds U+2585)")
    kept = kept_characters(sentences, character_coverage)
    merges_wanted = vocab_size - len(meta) - len(kept)
    if merges_wanted < 0:
        raise ValueError(
            f"vocab_size {vocab_size} is smaller than the {len(meta)} meta pieces and {len(kept)} characters "
            "kept: raise vocab_size or lower character_coverage"
        )
    words = [("".join(c if c in kept else UNKNOWN_MARK for c in word), count) for word, count in count_words(sentences)]
    merged = _learn(words, kept, rules, merges_wanted)
    if len(merged) < merges_wanted:
        raise ValueError(
            f"vocab_size {vocab_size} is too large for this text: only {len(meta) + len(kept) + len(merged)} pieces "
            "can be made (SentencePiece says 'Vocabulary size too high')"
        )
    final = merged + sorted(kept, key=lambda c: (-kept[c], c))
    pieces = [Piece("<unk>", 0.0, PieceType.UNKNOWN), Piece("<s>", 0.0, PieceType.CONTROL)]
    pieces += [Piece("</s>", 0.0, PieceType.CONTROL)]
    pieces += [Piece(p, 0.0, PieceType.BYTE) for p in meta[3:]]
    pieces += [Piece(p, _float32(-i), PieceType.NORMAL) for i, p in enumerate(final)]
    trainer = TrainerSpec(
        model_type=ModelType.BPE,
        vocab_size=vocab_size,
        character_coverage=character_coverage,
        byte_fallback=byte_fallback,
        split_digits=split_digits,
        max_sentencepiece_length=max_sentencepiece_length,
    )
    return SentencePieceBPE(ModelFile(pieces, trainer, spec))


@dataclass(eq=False)
class _Symbol:
    """A character or a pair of symbols; two routes to the same string are two symbols, as in the C++."""

    chars: str
    key: int
    left: _Symbol | None = None
    right: _Symbol | None = None
    freq: int = 0
    active: bool = True
    pending: bool = False
    stale: bool = True  # ``needs_recomputation``
    unknown: bool = False
    positions: list[tuple[int, int, int]] = field(default_factory=list)


class _Queue:
    """``std::priority_queue`` with ``QueueEntryComparator``: most frequent, then fewest characters, then smallest."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, str, int, _Symbol]] = []
        self._order = itertools.count()

    def push(self, symbol: _Symbol) -> None:
        entry = (-symbol.freq, len(symbol.chars), symbol.chars, next(self._order), symbol)
        heapq.heappush(self._heap, entry)

    def best(self) -> _Symbol | None:
        """``Train``'s inner loop: drop entries of taken symbols and stale counts until a current one is on top."""
        while self._heap:
            minus_freq, _, _, _, symbol = self._heap[0]
            heapq.heappop(self._heap)
            if not symbol.active:
                continue
            if symbol.stale:
                _compute_freq(symbol)
                self.push(symbol)
                continue
            if -minus_freq != symbol.freq:
                continue
            return symbol
        return None


def _compute_freq(symbol: _Symbol) -> None:
    """``ComputeFreq``: the count is already current; a pair counted down to 0 forgets its places."""
    if symbol.stale:
        if symbol.freq == 0:
            symbol.positions = []
        symbol.stale = False


def _learn(words: list[tuple[str, int]], kept: dict[str, int], rules: Rules, wanted: int) -> list[str]:
    """``bpe::Trainer::Train``'s main loop: the merged pieces, in the order they are made."""
    mask = (1 << FREQ_BITS) - 1
    cache: dict[object, _Symbol] = {}  # symbols_cache_: a character by itself, a pair by its two symbols' keys
    pair_keys: dict[tuple[int, int], int] = {}  # the C++ hashes two keys into one; here each pair gets a number
    valid: dict[str, bool] = {}

    def char_symbol(c: str) -> _Symbol:
        if c not in cache:
            cache[c] = _Symbol(c, ord(c), freq=kept.get(c, 1), unknown=c == UNKNOWN_MARK)
        return cache[c]

    def pair_symbol(left: _Symbol | None, right: _Symbol | None) -> _Symbol | None:
        """``GetPairSymbol``: made once per pair of symbols (again after the pair was taken), None if invalid."""
        if left is None or right is None or left.unknown or right.unknown:
            return None
        key = pair_keys.setdefault((left.key, right.key), 0x110000 + len(pair_keys))
        symbol = cache.get(key)
        if symbol is None:
            joined = left.chars + right.chars
            if joined not in valid:
                valid[joined] = is_valid_piece(joined, rules)
            if not valid[joined]:
                return None
            symbol = cache[key] = _Symbol(joined, key, left, right)
        return symbol

    for c in kept:
        char_symbol(c)
    sequences: list[list[_Symbol | None]] = [[char_symbol(c) for c in word] for word, _ in words]
    counts = [n for _, n in words]
    pending: list[_Symbol] = []

    def add_pair(sid: int, left: int, right: int) -> None:
        """``AddNewPair``: one more place, the word's count added."""
        if left < 0 or right < 0:
            return
        symbol = pair_symbol(sequences[sid][left], sequences[sid][right])
        if symbol is not None:
            symbol.positions.append((sid, left, right))
            symbol.freq = (symbol.freq + counts[sid]) & mask
            if not symbol.pending:
                symbol.pending = True
                pending.append(symbol)

    def reset(sid: int, left: int, right: int, best: _Symbol) -> None:
        """``ResetFreq``: a neighbouring pair loses this place; the word's count is taken off."""
        if left < 0 or right < 0:
            return
        symbol = pair_symbol(sequences[sid][left], sequences[sid][right])
        if symbol is not None and symbol is not best:
            symbol.freq = (symbol.freq - counts[sid]) & mask
            symbol.stale = True

    def neighbour(sid: int, index: int, step: int) -> int:
        sequence = sequences[sid]
        index += step
        while 0 <= index < len(sequence) and sequence[index] is None:
            index += step
        return index if 0 <= index < len(sequence) else -1

    queue = _Queue()

    def push_pending() -> None:
        for symbol in pending:
            symbol.pending = False
            if symbol.active:
                _compute_freq(symbol)
                queue.push(symbol)
        pending.clear()

    for sid, sequence in enumerate(sequences):  # InitSymbolsAndBigrams: same counts and places, words in order
        for i in range(1, len(sequence)):
            add_pair(sid, i - 1, i)
    push_pending()

    made: list[str] = []
    seen: set[str] = set()
    while len(made) < wanted:
        best = queue.best()
        if best is None:
            break
        if best.chars in seen:  # the same piece by another route: dropped, no place taken
            cache.pop(best.key, None)
            best.active = False
            best.positions = []
            continue
        seen.add(best.chars)
        made.append(best.chars)
        for sid, left, right in best.positions:  # AcceptSymbol
            sequence = sequences[sid]
            if sequence[left] is not best.left or sequence[right] is not best.right:
                continue  # taken by an earlier, overlapping occurrence ("aaa"), or a stale place
            after, before = neighbour(sid, right, 1), neighbour(sid, left, -1)
            reset(sid, before, left, best)
            reset(sid, right, after, best)
            sequence[left], sequence[right] = best, None
            add_pair(sid, before, left)
            add_pair(sid, left, after)
        cache.pop(best.key, None)
        best.active = False
        best.positions = []
        push_pending()
    return made
