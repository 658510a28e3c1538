"""Generated inputs for each exercise, built from its own input types (hypothesis strategies).

Every strategy leans on what makes a checker's life hard: tiny alphabets (so that pairs repeat and counts
tie), empty input, one language, leading zeros, several scripts and the zero-width joiner and non-joiner.
Each gives a tuple of arguments, as the exercise calls the function.
"""

from __future__ import annotations

import math
import warnings
from functools import cache
from typing import Any

from hypothesis import strategies as st

from bpelab.byte_level import BPETokenizer, TrainingStoppedEarly
from bpelab.patterns import PATTERNS
from bpelab.words import END_OF_WORD, WordFreq, count_pairs, train_bpe

SCRIPTS = "abcé ñ日本語Жя한국ةع்கமுதி\u200d\u200c\u0301"
"""Latin, accented, CJK, Cyrillic, Hangul, Arabic, Tamil (with its vowel signs), the zero-width joiner and
non-joiner, and a combining accent."""

PUNCTUATION = ".,!?'-=_;()…«»"

texts = st.text(alphabet=SCRIPTS + PUNCTUATION + "0123456789 \t\n", max_size=30)
word_texts = st.text(
    alphabet=SCRIPTS
    + "²½ﬁ👩👧ⅫⒶ🅐🄰🅰‿\x1c\x1f\xad\u200b\ufeff\u200e\u2060"
    + PUNCTUATION
    + "<>+$©"
    + "0123456789 \t\n\xa0\u3000",
    max_size=30,
)
"""For split_words: also the numbers that are \\w for re but not for regex (², ½) and a compatibility ligature (ﬁ),
which NFKC would change; a letter-like number (Ⅻ, Nl), an alphabetic symbol (Ⓐ, So) and a connector (‿, Pc), \\w for
regex though not letters, and 🅐, 🄰 and 🅰 (negative circled, squared, negative squared), Alphabetic though no
circled letter of the Ⓐ–ⓩ block; format characters
(Cf: the soft hyphen, the zero-width space, the byte-order mark, the left-to-right mark, the word joiner), neither
\\w nor \\s for regex, though \\p{Cf} holds them beside the two joiners; symbols (< > + $ ©, category S) that make
runs with the punctuation ('->', '(+)'); the no-break and ideographic spaces, whitespace beyond ASCII; and U+001C, U+001F, whitespace for str.split() but not
for regex's \\s."""
spaced_texts = st.text(alphabet="abé\u0301ﬁ²👩\u200d👧 \t\n\r\f\u00a0\u3000\x1c\x1f\u200b\ufeff", max_size=24)
"""For get_word_frequencies: every kind of whitespace str.split() splits on (U+001C and U+001F too, which regex's
\\s leaves out), combining accents, the ligature ﬁ and ² (which NFKC changes, NFC not), ZWJ emoji, and the zero-width
space and byte-order mark, which are not whitespace for str.split() though they show nothing."""
split_texts = st.text(alphabet=SCRIPTS + PUNCTUATION + "0123456789 \t\n\r\xa0\u2009\u3000\u2028", max_size=30)
"""For split_pieces: Windows line breaks, tabs, and whitespace beyond ASCII (no-break, thin, ideographic spaces,
the line separator), which a learner may rewrite before splitting."""
small_texts = st.text(alphabet="abab c\n", max_size=24)
beyond_u_ffff_texts = st.text(alphabet=SCRIPTS + "👍🙂\U0001f468\U0001f469\u2764\ufe0f\ufb01 \t\r\n", max_size=20)
"""Characters of 4 bytes (emoji), the variation selector, the ligature ﬁ (NFKC makes it two letters), the carriage
return and whitespace at the ends: lessons 00 and 09 count them."""
"""A two-letter alphabet and spaces: pairs repeat, counts tie."""
symbols = st.sampled_from(["a", "b", "c", "ab", "é", "日"])
words = st.lists(symbols, max_size=6).map(tuple)
pairs = st.tuples(symbols, symbols)
word_freqs = st.dictionaries(
    st.lists(symbols, min_size=1, max_size=6).map(lambda w: (*w, END_OF_WORD)), st.integers(1, 4), max_size=5
)
pair_counts = st.dictionaries(pairs, st.integers(1, 4), max_size=6)
merge_symbols_drawn = st.sampled_from(["a", "b", "c", "ab", "bc", "b</w>", "ca", "é", "日", ".", "(", "+"])
"""For lesson 04's merges: ('ab', 'c') and ('a', 'bc') spell the same text, and only one of them is the pair; 'bc'
and 'b</w>' start with 'b', 'ab' and 'ca' end with 'a' or 'b' (a merge that checks only one boundary of the pair
matches there); '.', '(' and '+' are symbols a regular expression built from the pair without re.escape reads as
operators."""
merge_pairs = st.tuples(merge_symbols_drawn, merge_symbols_drawn)
merge_words = st.lists(merge_symbols_drawn, max_size=6).map(tuple)
merge_word_freqs = st.dictionaries(
    st.lists(merge_symbols_drawn, min_size=1, max_size=6).map(lambda w: (*w, END_OF_WORD)),
    st.integers(1, 4),
    max_size=5,
)
long_texts = st.text(alphabet=SCRIPTS + PUNCTUATION + " \t\n", min_size=31, max_size=300)
runs_texts = st.text(alphabet="aaaaxy  ", max_size=20)
"""For lesson 04's training loop: runs of one letter (aaa), where merging right to left, overlapping merges and
pairs counted without overlaps each part from the reference."""
"""Longer than any other text here: counting only the start (text[:30]) shows."""


def one(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple]:
    return strategy.map(lambda value: (value,))


@st.composite
def merge_lists(draw: st.DrawFn) -> list[tuple[tuple[str, str], str]]:
    """Merges as ``train_bpe`` learns them, from a generated text, often listed in another order (reversed or
    shuffled, as lesson 05 section 3 replays them), where a merge's parts may be built only by a later merge; or
    made up, possibly never applying."""
    if draw(st.booleans()):
        learned = list(train_bpe(draw(small_texts), draw(st.integers(0, 8))).merges)
        order = draw(st.sampled_from(["learned", "reversed", "shuffled"]))
        if order == "reversed":
            return learned[::-1]
        return draw(st.permutations(learned)) if order == "shuffled" else learned
    made = draw(st.lists(pairs, max_size=5))
    return [((a, b), a + b) for a, b in made]


@st.composite
def word_and_merges(draw: st.DrawFn) -> tuple[str, list[tuple[tuple[str, str], str]]]:
    """A word and merges; often a word of the very text the merges were learned from, the merges listed in another
    order (reversed or shuffled, as lesson 05 section 3 replays them), so that a merge's parts are built only by a
    later merge and replaying once, in order, differs from merging until nothing changes."""
    text = draw(small_texts)
    if text.split() and draw(st.booleans()):
        learned = list(train_bpe(text, draw(st.integers(1, 8))).merges)
        order = draw(st.sampled_from(["reversed", "shuffled"]))
        merges = learned[::-1] if order == "reversed" else draw(st.permutations(learned))
        return draw(st.sampled_from(text.split())), merges
    return draw(st.text(alphabet="abé", max_size=6)), draw(merge_lists())


@st.composite
def byte_merges(draw: st.DrawFn) -> dict[tuple[int, int], int]:
    """Merges over byte ids, each new id 256, 257, ... joining two ids that exist before it."""
    merges: dict[tuple[int, int], int] = {}
    for new in range(256, 256 + draw(st.integers(0, 6))):
        ids = st.one_of(st.sampled_from([97, 98, 0xC3, 0xA9, 0xE6]), st.integers(0, new - 1))
        pair = (draw(ids), draw(ids))
        if pair in merges:  # a pair is merged once: a second draw of it ends the list (no id is left out)
            break
        merges[pair] = new
    return merges


@cache
def trained(text: str, vocab_size: int, special: bool = False) -> BPETokenizer:
    """A small tokenizer; asking for more merges than the text has is fine (it stops early). ``special``: with the
    special token ``<|endoftext|>``, which the vocabulary holds beside the bytes and the merges."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrainingStoppedEarly)
        return BPETokenizer().train(text, vocab_size, special_tokens=["<|endoftext|>"] if special else None)


TRAINING_TEXTS = (
    "abababab",
    "ïïïïabab",
    "the cat sat on the mat; the cat ate",
    "ممممم ааа ббб αααβ",
    "a\n\nb\n\nc\n\n",
)
"""The last one gives a merge of two line breaks: a text encoded line by line never uses it."""


@st.composite
def tokenizer_and_text(draw: st.DrawFn, *, empty: bool = True) -> tuple[BPETokenizer, str]:
    """A small tokenizer, some with the special token ``<|endoftext|>`` (then one id more, so the merges are the same:
    ``256 + len(merges)`` is not their size), and a text: often its own training text, where its merges apply and
    bytes per token is rarely a whole number, or a generated one (``empty``: perhaps empty)."""
    training, special = draw(st.sampled_from(TRAINING_TEXTS)), draw(st.booleans())
    tokenizer = trained(training, draw(st.integers(256, 270)) + special, special)
    text = draw(st.one_of(st.just(training), texts, st.just(training + " " + training[::-1])))
    return tokenizer, text if text or empty else training


@st.composite
def vocab_and_ids(draw: st.DrawFn) -> tuple[dict[int, bytes], list[int]]:
    from bpelab.exercises.byte_level import build_vocab

    vocab = build_vocab(draw(byte_merges()))
    return vocab, draw(st.lists(st.sampled_from(sorted(vocab)), max_size=8))


@st.composite
def token_and_ranks(draw: st.DrawFn) -> tuple[bytes, dict[bytes, int]]:
    """A token of a small byte-level vocabulary, and the whole vocabulary's ranks (possibly with an orphan)."""
    tokenizer = trained(draw(st.sampled_from(TRAINING_TEXTS)), draw(st.integers(258, 270)))
    ranks = {token: rank for rank, token in tokenizer.vocab.items()}
    if draw(st.booleans()):  # an extra token no merge builds (like Llama 3's orphans), or a shuffled rank
        extra = draw(st.binary(min_size=2, max_size=4))
        if extra not in ranks:
            ranks[extra] = len(ranks)
    long = sorted(t for t in ranks if len(t) >= 2)
    if not long:
        ranks[b"ab"] = len(ranks)
        long = [b"ab"]
    if draw(st.booleans()):  # the same ranks listed in another order: an answer must read the rank values
        ranks = dict(draw(st.permutations(list(ranks.items()))))
    return draw(st.sampled_from(long)), ranks


languages = st.sampled_from(["en", "fr", "ta", "am"])
parity_languages = st.sampled_from(["en", "fr", "ta", "am", "hi", "ka", "tam", "amharic"])  # names of other lengths too


@st.composite
def parity_states(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, dict[tuple[str, str], int]]]:
    """Tokens per language (ties of two or more likely, one language possible) and each language's pair counts:
    often a language with no pairs at all, or with several pairs each seen once (both must pass their turn), ahead
    of one that can merge; up to six languages, so that the fourth or fifth worst can be the first with a pair seen
    twice, and pairs shared between languages (a pair seen once in one language and again in another). pair_counts
    lists the languages in an order of its own, often not that of tokens (only tokens' order breaks a tie)."""
    names = draw(st.lists(parity_languages, min_size=1, max_size=6, unique=True))
    tokens = {name: draw(st.integers(1, 4)) for name in names}
    stuck: st.SearchStrategy[dict[tuple[str, str], int]] = st.one_of(
        st.just({}), st.dictionaries(pairs, st.just(1), min_size=2, max_size=3)
    )
    some = st.dictionaries(pairs, st.integers(1, 3), max_size=3)
    counts = {name: draw(st.one_of(stuck, some)) for name in names}
    listing = draw(st.permutations(names))
    return tokens, {name: counts[name] for name in listing}


digits = st.one_of(
    st.text(alphabet="0123456789", max_size=12),
    st.text(alphabet="0", max_size=5),
    st.text(alphabet="٠١٢٣٤٥٦٧٨٩", max_size=7),
)


@st.composite
def probabilities_and_text(draw: st.DrawFn) -> tuple[list[float], str]:
    text = draw(texts.filter(bool))
    n = draw(st.integers(1, 5))
    return draw(st.lists(st.sampled_from([1.0, 0.5, 0.25, 0.1, 0.3, 0.02]), min_size=n, max_size=n)), text


def _counter(name: str):  # type: ignore[no-untyped-def]
    from bpelab.exercises import toy_encoders

    return getattr(toy_encoders, name)


counters = st.sampled_from(["count_words", "count_o200k_tokens"]).map(_counter)
encoders = st.sampled_from(["one_token_per_char", "one_token_per_word", "cl100k_encode"]).map(_counter)


@st.composite
def parallel_texts(draw: st.DrawFn) -> tuple[dict[str, list[str]], Any, str, str]:
    names = draw(st.lists(languages, min_size=1, max_size=3, unique=True))
    n = draw(st.integers(1, 3))
    sentences = st.one_of(texts, st.sampled_from(["ab", "\ufb01x", "Ab"])).filter(str.strip)  # repeats, a ligature
    by_language = {name: draw(st.lists(sentences, min_size=n, max_size=n)) for name in names}
    return by_language, draw(encoders), draw(st.sampled_from(names)), draw(st.sampled_from(names))


@st.composite
def wordpiece_ties(draw: st.DrawFn) -> tuple[WordFreq]:
    """Two or three words of one pair each, beside one-symbol words that set each symbol's count (1 to 40): products
    such as 1·18, 3·6 and 6·3 tie exactly, and Decimal's, numpy's longdouble's or float's divisions split some."""
    word_freq: WordFreq = {}
    names = [("a", "##b"), ("c", "##d"), ("e", "##f")][: draw(st.integers(2, 3))]
    for pair in names:
        word_freq[pair] = 1
    for pair in names:
        for symbol in pair:
            extra = draw(st.integers(0, 39))
            if extra:
                word_freq[(symbol,)] = extra
    return (word_freq,)


@st.composite
def wordpiece_vocabs(draw: st.DrawFn) -> tuple[str, set[str]]:
    """A short word over a tiny alphabet, or a word of 15 to 20 characters whose vocabulary may hold long pieces (an
    encoder that caps the piece length misses them)."""
    if draw(st.booleans()):
        word = draw(st.text(alphabet="abc", min_size=1, max_size=6))
        pieces = draw(st.lists(st.text(alphabet="abc", min_size=1, max_size=3), max_size=8))
    else:
        word = draw(st.text(alphabet="ab", min_size=15, max_size=20))
        cuts = sorted(draw(st.lists(st.integers(1, len(word) - 1), max_size=2, unique=True)))
        bounds = [0, *cuts, len(word)]
        pieces = [word[a:b] for a, b in zip(bounds, bounds[1:])]
        pieces += draw(st.lists(st.text(alphabet="ab", min_size=1, max_size=3), max_size=4))
    vocab = {draw(st.sampled_from(["", "##"])) + piece for piece in pieces}
    return word, vocab


@st.composite
def rank_merges(draw: st.DrawFn) -> tuple[list[int], dict[tuple[int, int], int]]:
    """Ids over a small alphabet and merges whose new id is their rank (ties in position, chains of merges)."""
    merges: dict[tuple[int, int], int] = {}
    for rank in range(10, 10 + draw(st.integers(0, 6))):
        ids = st.one_of(st.integers(0, 3), st.integers(10, rank - 1)) if rank > 10 else st.integers(0, 3)
        merges.setdefault((draw(ids), draw(ids)), rank)
    return draw(st.lists(st.integers(0, 3), max_size=10)), merges


@st.composite
def gini_values(draw: st.DrawFn) -> tuple[list[float]]:
    return (draw(st.lists(st.one_of(st.integers(0, 9), st.sampled_from([0.5, 2.5])), max_size=6)),)


@st.composite
def search_goals(draw: st.DrawFn) -> tuple[BPETokenizer, str, float]:
    """A tokenizer, a text, and a goal: exactly what one size gives (so that ``>`` and ``>=`` differ), a little
    less, or a millionth or a trillionth more (so that a comparison rounded to 5 or more decimals falls short)."""
    from bpelab.analysis.compression import bytes_per_token

    training = draw(st.sampled_from(TRAINING_TEXTS))
    tokenizer = trained(training, draw(st.integers(256, 270)))
    text = draw(st.one_of(st.just(training), texts.filter(bool), st.just(training + " " + training[::-1])))
    size = draw(st.integers(256, 256 + len(tokenizer.merges)))
    goal = bytes_per_token(tokenizer.truncated(size), text) - draw(
        st.sampled_from([0.0, 0.0, 1e-6, -1e-6, -1e-12, 0.01])
    )
    return tokenizer, text, min(goal, bytes_per_token(tokenizer, text))  # the full tokenizer reaches it


# ---- lesson 16: SentencePiece (its own block: other lessons' strategies are added above it) -------------------

SP_SYMBOLS = st.sampled_from(
    ["\u2581", "\u2581\u2581", "a", "b", "ab", "bc", "\u2581a", "\u2581th", "e", "é", "\u2581internationaliz", "本"]
)
"""Symbols whose joins collide ("a"+"b" and "ab" alone, "a"+"bc" beside "ab"), runs of SentencePiece's space mark,
and symbols of several characters, so that a symbol's index and its place in the text differ; joins with '▁' inside
or at the end ("▁a▁th", "e▁"), joins longer than 16 characters (a 16-character symbol and anything) and joins of two
scripts ("本a"): pieces the trainer's rules would not learn, which the encoder merges all the same."""

SP_SCORES = st.sampled_from(
    [0.0, -0.0, -1.0, -2.0, -1e9, -1e9, -2e10, 3.5]
    + [math.nextafter(0.0, 1.0), math.nextafter(-1.0, 0.0), math.nextafter(-1e9, 0.0)]
)
"""Zero and minus zero (SentencePieceTrainer's first piece scores -0.0), and many ties: Mistral's fifteen '▁'
pieces all score -1e9, whatever their length; a score below any starting value a learner might pick; and scores
one float step above 0, -1 and -1e9, so that a comparison within any tolerance picks another pair."""


@st.composite
def long_symbols_and_scores(draw: st.DrawFn) -> tuple[list[str], dict[str, float]]:
    """10 to 30 symbols, many of their pairs pieces with scores that dip and rise (several local bests, the best
    anywhere, often past the fifth symbol and the third piece), three-symbol joins in the scores (no pair, however
    they score), and pieces that exist only with their '▁' or only without it: an answer that stops early, joins
    three symbols or drops the '▁' differs on these."""
    symbols = draw(
        st.lists(st.sampled_from(list("abcdefgh") + ["\u2581a", "\u2581", "\u2581\u2581"]), min_size=10, max_size=30)
    )
    joins = [a + b for a, b in zip(symbols, symbols[1:])]
    triples = ["".join(symbols[i : i + 3]) for i in range(len(symbols) - 2)]
    chosen = draw(st.lists(st.sampled_from(joins), min_size=3, max_size=12))
    chosen += draw(st.lists(st.sampled_from(triples), max_size=2))
    chosen += [piece.lstrip("\u2581") for piece in draw(st.lists(st.sampled_from(joins), max_size=2))]
    scores = {piece: -float(draw(st.integers(0, 12))) for piece in chosen if piece}
    if draw(st.booleans()):  # the best piece late: after the others have risen and fallen
        late = draw(st.integers(len(joins) // 2, len(joins) - 1))
        scores[joins[late]] = 1.0
        if late + 1 < len(joins) and joins[late + 1] != joins[late]:  # the next one above it by one float step
            scores[joins[late + 1]] = math.nextafter(1.0, math.inf)
    return symbols, scores


@st.composite
def symbols_and_scores(draw: st.DrawFn) -> tuple[list[str], dict[str, float]]:
    """Symbols and piece scores: ties between pieces of different lengths or counts (every piece ties half the
    time), pieces that start at a symbol boundary without being a pair of symbols, winners past index 0; a quarter
    of the time long lists (``long_symbols_and_scores``)."""
    if draw(st.integers(0, 3)) == 0:
        return draw(long_symbols_and_scores())
    symbols = draw(st.lists(SP_SYMBOLS, max_size=8))
    if draw(st.booleans()):  # the last pair again: a piece that stands twice, tied with one that stands once
        symbols += symbols[-2:]
    joins = [a + b for a, b in zip(symbols, symbols[1:])]
    prefixes = [a + b[:1] for a, b in zip(symbols, symbols[1:]) if len(b) > 1]  # "a" + "bc" -> "ab": no pair
    chosen = draw(st.lists(st.sampled_from(joins + prefixes + ["ab", "\u2581\u2581", "\u2581" * 3, "x"]), max_size=6))
    scores = draw(st.sampled_from([SP_SCORES, st.just(-1.0)]))  # half the time every piece ties
    return symbols, {piece: draw(scores) for piece in chosen}


@st.composite
def pieces_and_vocab(draw: st.DrawFn) -> tuple[list[str], set[str]]:
    """Pieces in every script (one-byte to four-byte characters), some in the vocabulary, in any order (known
    pieces after unknown ones), unknown pieces of several characters some of which are pieces ('▁€'), a piece
    that ends in a newline ('a\\n' beside 'a'), pieces that differ only in case ('▁The', '▁the'), and text that looks
    like a byte piece ('<0x41>'), NUL and other control characters ('a\\x00b': a C string would stop at it)."""
    single = st.sampled_from(list(SCRIPTS + "\n🤖€"))
    several = st.sampled_from(
        [
            "\u2581€",
            "a日",
            "\u2581\u2581",
            "é\u2581",
            "a\n",
            "\u2581The",
            "\u2581the",
            "A",
            "<0x41>",
            "<0x0A>",
            "a\x00b",  # NUL and control bytes fall back too
            "\x00",
            "\t\x1b\x7f\x85",
        ]
    )
    pieces = draw(st.lists(st.one_of(single, SP_SYMBOLS, several), max_size=7))
    characters = sorted({c for piece in pieces for c in piece})
    vocab = set(draw(st.lists(st.sampled_from(pieces + characters), max_size=5))) if pieces else set()
    if draw(st.booleans()):  # a lone '▁' or '▁▁' missing from the vocabulary; a piece whose other case is a piece
        pieces.append(draw(st.sampled_from(["\u2581", "\u2581\u2581"])))
        vocab -= {"\u2581", "\u2581\u2581"}
        if vocab:
            pieces.insert(0, draw(st.sampled_from(sorted(vocab))).swapcase())
    return pieces, vocab


SENTENCEPIECE_STRATEGIES: dict[str, st.SearchStrategy[tuple]] = {
    "next_merge": symbols_and_scores(),
    "byte_fallback": pieces_and_vocab(),
}


STRATEGIES: dict[str, st.SearchStrategy[tuple]] = {
    "count_characters": one(st.one_of(texts, beyond_u_ffff_texts, long_texts)),
    "byte_count": one(texts),
    "char_encode": one(texts),
    "char_decode": one(st.lists(st.sampled_from([ord(c) for c in SCRIPTS + "\n0"]), max_size=8)),
    "split_words": one(word_texts),
    "get_word_frequencies": one(st.one_of(small_texts, texts, spaced_texts)),
    "count_pairs": one(word_freqs),
    "most_frequent_pairs": one(pair_counts),
    "merge_symbols": st.tuples(merge_words, merge_pairs),
    "merge_pair": st.tuples(merge_word_freqs, merge_pairs),
    "train": st.tuples(st.one_of(small_texts, texts, runs_texts), st.integers(0, 8)),
    "encode_word": word_and_merges(),
    "decode_words": one(st.lists(st.sampled_from(["a", "b", "ab", END_OF_WORD, "a" + END_OF_WORD, " "]), max_size=6)),
    "build_vocab": one(byte_merges()),
    "decode_ids": vocab_and_ids(),
    "split_pieces": st.tuples(
        split_texts, st.sampled_from([PATTERNS[n] for n in ("gpt2", "cl100k", "o200k", "llama3")])
    ),
    "find_parents": token_and_ranks(),
    "bytes_per_token": tokenizer_and_text(empty=False),
    "count_unused": tokenizer_and_text(),
    "smallest_vocab_size": search_goals(),
    "bytes_per_char": one(st.lists(st.one_of(texts, beyond_u_ffff_texts), max_size=4)),
    "premium": parallel_texts(),
    "estimate_cost": st.tuples(
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.sampled_from([0.0, 0.0375, 0.15, 2.5, 10.0]),
        st.sampled_from([0.6, 10.0]),
    ),
    "room_for_answer": st.tuples(texts, texts, st.integers(0, 40), counters),
    "tokens_saved": st.tuples(
        st.one_of(texts.filter(bool), texts.map(lambda t: t + "<|endoftext|>")),
        st.one_of(texts, texts.map(lambda t: "<|endoftext|>" + t)),
        st.sampled_from(["o200k_base", "cl100k_base"]),
    ),
    "best_wordpiece_pair": st.one_of(one(word_freqs.filter(lambda wf: bool(count_pairs(wf)))), wordpiece_ties()),
    "encode_wordpiece_word": wordpiece_vocabs(),
    "pair_count_changes": st.tuples(words, words, st.integers(1, 4)),
    "merge_lowest_rank": rank_merges(),
    "byte_level_text": one(st.binary(max_size=8)),
    "gini": gini_values(),
    "parity_next_pair": parity_states(),
    "group_digits": one(digits),
    "bits_per_byte": probabilities_and_text(),
    **SENTENCEPIECE_STRATEGIES,
}
"""Arguments for each exercise, by the exercise's name."""
