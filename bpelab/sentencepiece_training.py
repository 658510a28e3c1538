"""SentencePiece's BPE training, step for step as ``SentencePieceTrainer.train(model_type="bpe")`` runs it.

The C++ is ``src/trainer_interface.cc`` (``LoadSentences``: lines, normalizing, the characters kept by
``character_coverage``; ``SplitSentencesByWhitespace``; ``IsValidSentencePiece``; ``InitMetaPieces``) and
``src/bpe_model_trainer.cc`` (``Trainer::Train``) in github.com/google/sentencepiece. What differs from the
course's own trainer (lesson 04, ``bpelab.words``):

- words are counted after the text is normalized: each starts with ``▁`` (the dummy prefix or a space);
- characters outside ``character_coverage`` become one unknown mark (U+2585) that never joins anything;
- a pair may not join what SentencePiece forbids: two Unicode scripts (Hiragana and Katakana count as Han),
  a digit and a non-digit, ``▁`` anywhere but at the start, more than ``max_sentencepiece_length`` characters;
- the best pair: the most frequent, then the shorter piece, then the smaller string; a piece made again by
  another route ("aa"+"a" and "a"+"aa") is dropped and costs no place;
- overlapping occurrences count twice ("aaa" holds "aa" twice) although only one can be merged;
- the pieces: ``<unk>``, ``<s>``, ``</s>``, the 256 byte pieces with byte_fallback, the merged pieces in the
  order they were made (score: minus their place), then the kept characters, most frequent first.

Where the C++ approximates, this module says so: it looks for the best pair only among *active* pairs, the
most frequent ``max(1000, 5%)`` of all pairs known, chosen again every 100 merges (``UpdateActiveSymbols``);
pairs tied at that cut-off are admitted in an order this module cannot know (a hash map's), so it admits all
of them. The two trainers can part only when one of those tied pairs would win inside the next 100 merges.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import cache

import regex

from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_model import ModelFile, ModelType, NormalizerSpec, Piece, PieceType, TrainerSpec
from bpelab.sentencepiece_text import SPACE, byte_piece, normalize

UNKNOWN_MARK = "\u2585"
"""``kUNKChar``: stands for every character outside the coverage while training."""
BOUNDARY = "\t"
"""``kUPPBoundaryChar``: a tab never joins anything (it is never a kept character)."""
UPDATE_EVERY = 100
"""``kUpdateActiveSymbolsInteval``: the active pairs are chosen again after this many pieces."""
MIN_ACTIVE, ACTIVE_SHARE = 1000, 0.05

_SCRIPT_NAMES = (
    "Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki "
    "Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee "
    "Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan "
    "Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati "
    "Gunjala_Gondi Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic "
    "Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi "
    "Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian "
    "Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui "
    "Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari "
    "Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic "
    "Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage "
    "Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan "
    "Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri "
    "Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan "
    "Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square Inherited"
)
"""Unicode's scripts by name (Common is what none of them matches); names this ``regex`` lacks are skipped."""
_SCRIPTS = tuple(_SCRIPT_NAMES.split())


def _known(name: str) -> bool:
    try:
        regex.compile(rf"\p{{Script={name}}}")
        return True
    except regex.error:
        return False


_SCRIPT_PATTERN = regex.compile("|".join(rf"(?P<{n}>\p{{Script={n}}})" for n in _SCRIPTS if _known(n)))


@cache
def script_of(char: str) -> str:
    """The Unicode script as ``IsValidSentencePiece`` uses it: kana count as Han, the rest is "Common"."""
    match = _SCRIPT_PATTERN.match(char)
    name = match.lastgroup if match and match.lastgroup else "Common"
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


@dataclass(eq=False)
class _Symbol:
    """A character or a pair of symbols; two routes to the same string are two symbols, as in the C++."""

    chars: str
    left: _Symbol | None = None
    right: _Symbol | None = None
    freq: int = 0
    positions: set[tuple[int, int, int]] = field(default_factory=set)


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
    normalization_rule_name="identity", ...)`` with these settings, as far as its active-pair shortcut allows
    (see the module's docstring).
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, got {type(vocab_size).__name__}")
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


def _learn(words: list[tuple[str, int]], kept: dict[str, int], rules: Rules, wanted: int) -> list[str]:
    """``bpe::Trainer::Train``'s main loop: the merged pieces, in the order they are made."""
    chars: dict[str, _Symbol] = {}
    pairs: dict[tuple[int, int], _Symbol] = {}  # the C++ symbols_cache_ (pairs only), keyed by the two symbols

    def char_symbol(c: str) -> _Symbol:
        if c not in chars:
            chars[c] = _Symbol(c, freq=kept.get(c, 1))
        return chars[c]

    sequences: list[list[_Symbol | None]] = [[char_symbol(c) for c in word] for word, _ in words]
    counts = [count for _, count in words]

    def pair_symbol(left: _Symbol | None, right: _Symbol | None) -> _Symbol | None:
        if left is None or right is None or UNKNOWN_MARK in (left.chars, right.chars):
            return None
        key = (id(left), id(right))
        symbol = pairs.get(key)
        if symbol is None:
            joined = left.chars + right.chars
            if not is_valid_piece(joined, rules):
                return None
            symbol = pairs[key] = _Symbol(joined, left, right)
        return symbol

    active: set[_Symbol] = set()

    def add_pair(sid: int, left: int, right: int) -> None:
        if left < 0 or right < 0:
            return
        symbol = pair_symbol(sequences[sid][left], sequences[sid][right])
        if symbol is not None:
            active.add(symbol)
            symbol.positions.add((sid, left, right))

    def frequency(symbol: _Symbol) -> int:
        """``ComputeFreq``: recounted (dropping stale positions) only when a merge next to it reset it to 0."""
        if symbol.freq == 0:
            stale = set()
            for sid, left, right in symbol.positions:
                if sequences[sid][left] is symbol.left and sequences[sid][right] is symbol.right:
                    symbol.freq += counts[sid]
                else:
                    stale.add((sid, left, right))
            symbol.positions -= stale
        return symbol.freq

    def reset(sid: int, left: int, right: int, best: _Symbol) -> None:
        if left < 0 or right < 0:
            return
        symbol = pair_symbol(sequences[sid][left], sequences[sid][right])
        if symbol is not None and symbol is not best:
            symbol.freq = 0

    def neighbour(sid: int, index: int, step: int) -> int:
        sequence = sequences[sid]
        index += step
        while 0 <= index < len(sequence) and sequence[index] is None:
            index += step
        return index if 0 <= index < len(sequence) else -1

    for sid, sequence in enumerate(sequences):
        for i in range(1, len(sequence)):
            add_pair(sid, i - 1, i)

    made: list[str] = []
    seen: set[str] = set()
    while len(made) < wanted:
        if len(made) % UPDATE_EVERY == 0:
            every = list(pairs.values())
            for symbol in every:
                frequency(symbol)
            size = min(max(MIN_ACTIVE, int((len(pairs) + len(chars)) * ACTIVE_SHARE)), len(every))
            if size == 0:
                break
            cut = sorted((s.freq for s in every), reverse=True)[size - 1]
            active = {s for s in every if s.freq >= cut}  # all tied at the cut-off (the C++ takes some of them)
        if not active:
            break
        best = min(active, key=lambda s: (-frequency(s), len(s.chars), s.chars))
        if best.chars in seen:  # the same piece by another route: dropped, no place taken
            pairs.pop((id(best.left), id(best.right)), None)
            active.discard(best)
            continue
        seen.add(best.chars)
        made.append(best.chars)
        for sid, left, right in sorted(best.positions):
            sequence = sequences[sid]
            if sequence[left] is None:
                continue  # taken by the previous, overlapping occurrence ("aaa")
            after, before = neighbour(sid, right, 1), neighbour(sid, left, -1)
            reset(sid, before, left, best)
            reset(sid, right, after, best)
            sequence[left], sequence[right] = best, None
            add_pair(sid, before, left)
            add_pair(sid, left, after)
        pairs.pop((id(best.left), id(best.right)), None)
        active.discard(best)
    return made
