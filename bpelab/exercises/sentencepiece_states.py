"""Cases for lesson 16's ``next_merge``, taken from real encodings: every state of the symbols on the way.

Hand-made cases test one rule each; answers that are right on all of them can still be wrong on real text (a scan
of only the first 20 positions, a refusal of pieces with two digits or of pieces starting with '<'). So each text
below is encoded merge by merge (``replay_sentencepiece``, the lesson's merge stepper's replay), and the list of
symbols before every merge, and after the last, is a case. The scores are the model's, cut down to the pieces that
can still form from those symbols: runs of whole neighbouring symbols, two characters or more (no other piece can
ever form there, so the answer is the same; it is checked to be, against the whole vocabulary and against the
replay's own choice, when the cases are built). The cut keeps a check run short: the engine copies and compares
every case's arguments.

Three models: Mistral 7B v0.1 (``load_sentencepiece("mistral_v1")``); a small model trained by the course's
``train_sentencepiece_bpe`` at its default settings on a text with numbers, which holds pieces of several digits
('12', '▁2024', '▁1234') that Mistral's model (trained to split digits) lacks; and a small model trained with
permissive settings (no split by number or script, pieces up to 64 characters), whose pieces join what a learner
may think never joins: a letter and a digit ('▁mp3'), a word and its punctuation ('▁Hello,'), lower and upper case
('▁camelCase'), a tab or a carriage return, characters outside the BMP ('▁😀😀'), a word of 34 letters, and
'▁internationalizations', made by merging 's' onto '▁internationalization', a left symbol of 21 characters. The
trainer splits its text into lines, so no piece of it holds a newline. Everything is fixed (no sampling), and built
once, at the first check.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
from bpelab.corpora import load_parallel
from bpelab.exercises.cases import Case
from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_training import train_sentencepiece_bpe

MISTRAL_TEXTS = (
    "The quick brown fox jumps over the lazy dog while the cat sleeps.",
    "<div>[1]</div>",
    "[INST] What is 2+2? [/INST]",
    "In 2024, 1,234 people paid $56.78 each.",
    "東京でラーメンを食べました",
    "cafe\u0301 and naïve déjà vu",
    "def square(x):\n    return x ** 2  # x*x",
    "zero\u200bwidth \u200bspace, a\u200djoiner and \ufeffBOM",
    "x=[] if a<>b or c<?>d",
    "hi  ",
    "x = 1   ",
    "line one\r\r\nline two",
)
"""A long English sentence (more than 40 symbols, its best pair far right at some steps), markup and [INST]-like
brackets, ordinary pieces enclosed in brackets ('[]' id 2002, '<>' id 28675, '<?>' id 25955: no special tokens),
numbers, Japanese (kanji and kana, one piece each: Mistral's model joins no two characters of this text, though
it joins some of other CJK text, '数据' or '一个'), a combining accent (U+0301), code,
and format characters (category Cf: U+200B, U+200D, U+FEFF), one of which Mistral joins ('▁' + U+200B, id 15758). The
last two end in spaces: their last merges join '▁' symbols at the very end ('hi  ' ends as ['▁hi', '▁▁'], 'x = 1   '
as [..., '1', '▁▁▁'], as sentencepiece 0.2.3 encodes them), so an answer that drops a trailing '▁' fails them. The
last joins two carriage returns into '\\r\\r' (id 21259, score -21000), the one piece of Mistral's 32,000 made of
whitespace other than '▁' only: an answer that skips a whitespace-only piece (``not piece.strip()``) fails it."""

NUMBERS_LINE = "in 2024 and 2025 we sold 1234 cups, 12 a day"
NUMBERS_VOCAB_SIZE = 58
NUMBERS_PIECES = ("12", "▁2024", "▁1234")
"""Pieces the model trained on ``NUMBERS_LINE`` (40 times) must hold: checked when it is trained."""

NUMBERS_TEXTS = ("12 cups in 2024, 1234 in 2025",)

MIXED_LINES = (
    "my mp3 and h2o, covid19 on 4K A4 paper.",
    "Hello, world. e.g. camelCase iPhone McDonald",
    "col\tumn\tdata\r",
    "emoji 😀😀 and 𝔘𝔫𝔦 math",
    "supercalifragilisticexpialidocious",
    "internationalization internationalizations",
)
MIXED_TIMES = 30
MIXED_VOCAB_SIZE = 200
MIXED_SETTINGS: dict[str, Any] = {
    "split_by_number": False,
    "split_by_unicode_script": False,
    "max_sentencepiece_length": 64,
    "character_coverage": 1.0,
}
"""Keyword arguments of ``train_sentencepiece_bpe`` (and of SentencePieceTrainer, which a test trains alike)."""
MIXED_PIECES = (
    "▁mp3", "▁covid19", "▁4K", "▁A4", "▁h2o,", "▁Hello,", "▁world.", "▁e.g.", "▁camelCase", "▁iPhone", "▁McDonald",
    "▁col\tumn\tdata\r", "▁😀😀", "▁𝔘𝔫𝔦", "▁supercalifragilisticexpialidocious", "▁internationalization",
    "▁internationalizations",
)  # fmt: skip
"""Pieces the model trained on ``MIXED_LINES`` (each ``MIXED_TIMES`` times) with ``MIXED_SETTINGS`` must hold."""

MIXED_TEXTS = MIXED_LINES


def _numbers_model() -> SentencePieceBPE:
    """``train_sentencepiece_bpe`` at its default settings (split_digits=False) on ``NUMBERS_LINE`` x 40."""
    model = train_sentencepiece_bpe("\n".join([NUMBERS_LINE] * 40), NUMBERS_VOCAB_SIZE)
    missing = [piece for piece in NUMBERS_PIECES if piece not in model.mergeable]
    if missing:
        raise RuntimeError(f"the model trained on {NUMBERS_LINE!r} lacks {missing}: the digit cases would test nothing")
    return model


def _mixed_model() -> SentencePieceBPE:
    """``train_sentencepiece_bpe`` with ``MIXED_SETTINGS`` on ``MIXED_LINES``, each ``MIXED_TIMES`` times."""
    text = "\n".join(MIXED_LINES * MIXED_TIMES)
    model = train_sentencepiece_bpe(text, MIXED_VOCAB_SIZE, **MIXED_SETTINGS)
    missing = [piece for piece in MIXED_PIECES if piece not in model.mergeable]
    if missing:
        raise RuntimeError(f"the model trained on MIXED_LINES lacks {missing}: their cases would test nothing")
    return model


def _runs(symbols: list[str], longest: int) -> set[str]:
    """Every run of whole neighbouring symbols, two to ``longest`` characters long."""
    runs = set()
    for i in range(len(symbols)):
        run = ""
        for symbol in symbols[i:]:
            run += symbol
            if len(run) > longest:
                break
            if len(run) > 1:
                runs.add(run)
    return runs


def _cases_of(model: SentencePieceBPE, name: str, text: str) -> list[Case]:
    """A case for the symbols before each merge ``model`` makes on ``text``, and one for the symbols at the end."""
    everything = {piece: model.scores[i] for piece, i in model.mergeable.items()}
    longest = max(map(len, everything))
    replay = replay_sentencepiece(model, text)
    symbols = list(next(iter(replay.initial_word_freq)))
    merges = [(pair, at) for pair, _, at in replay.single_steps] + [(None, None)]
    cases = []
    for step, (pair, at) in enumerate(merges, start=1):
        runs = sorted((model.mergeable[run], run) for run in _runs(symbols, longest) if run in everything)
        scores = {run: everything[run] for _, run in runs}  # in the model's order, as its file lists them
        pairs = {left + right for left, right in zip(symbols, symbols[1:])}
        if any(piece in everything and piece not in scores for piece in pairs):
            raise RuntimeError(f"{name} on {text!r}, merge {step}: the cut-down scores lost a pair's piece")
        expected = at  # where the course's encoder merged (tests hold the lesson's reference next_merge equal to it)
        what = f"merge {step} of {len(merges) - 1}" if pair else "after its last merge, no pair forms a piece"
        cases.append(
            Case(
                (list(symbols), scores),
                expected,
                f"{name} encoding {text!r}, {what} (the pieces that can still form, with their scores)",
            )
        )
        if pair is not None and at is not None:
            symbols[at : at + 2] = [pair[0] + pair[1]]
    if symbols != replay.pieces and model.byte_fallback:
        raise RuntimeError(f"{name} on {text!r}: the states end in {symbols}, the encoder gives {replay.pieces}")
    return cases


@cache
def real_encoding_cases() -> tuple[Case, ...]:
    """Every state of every text above, Mistral's first; built once."""
    mistral = load_sentencepiece("mistral_v1")
    numbers = _numbers_model()
    cases = [case for text in MISTRAL_TEXTS for case in _cases_of(mistral, "Mistral 7B v0.1", text)]
    name = f"a model trained by train_sentencepiece_bpe on {NUMBERS_LINE!r} x 40, vocab size {NUMBERS_VOCAB_SIZE},"
    cases += [case for text in NUMBERS_TEXTS for case in _cases_of(numbers, name, text)]
    mixed = _mixed_model()
    name = (
        f"a model trained by train_sentencepiece_bpe (vocab size {MIXED_VOCAB_SIZE}, no split by number or script, "
        "pieces up to 64 characters) on text with 'mp3', 'Hello,', 'camelCase', tabs and emoji,"
    )
    cases += [case for text in MIXED_TEXTS for case in _cases_of(mixed, name, text)]
    return tuple(cases)


FALLBACK_TEXTS = (
    "x\r\ny",
    "a\x0b\x0cb\x1b\x7f\x1c\x1f",
    "x\xa0y\u3000z",
    "I 😂\u200b",
    "👨\u200d👩\u200d👧",
    "a\u200bb \u200bc\ufeffd",
)
"""Texts whose pieces Mistral 7B v0.1 holds though their characters look unusual: a carriage return (id 28801) next to
a newline (no piece: its byte), the control characters 0B, 0C, 1B, 7F, 1C and 1F, the spaces U+00A0 (id 29000) and
U+3000, the emoji '😂' outside the BMP (id 29196), the format characters U+200B, U+200D (the joiner of a family emoji
whose people are no pieces), U+FEFF, and '▁' + U+200B (id 15758)."""


@cache
def real_fallback_cases() -> tuple[tuple[str, Case], ...]:
    """For each of ``FALLBACK_TEXTS``: Mistral's pieces before byte fallback (``merge_pieces``), the pieces of them
    its vocabulary holds (the rest of its 32,000 changes nothing, and would fill a report), and what its encoder
    shows. Built once, at the first check."""
    mistral = load_sentencepiece("mistral_v1")
    cases = []
    for text in FALLBACK_TEXTS:
        pieces = mistral.merge_pieces(mistral.normalize(text))
        vocab = {p for p in pieces if mistral.piece_to_id.get(p, mistral.unk_id) != mistral.unk_id}
        expected = mistral.encode_as_pieces(text)
        held = ", ".join(repr(p) for p in sorted(vocab, key=pieces.index))
        note = (
            f"Mistral 7B v0.1 encoding {text!r}: its vocabulary (cut down to the pieces of this text it holds) has "
            f"{held}, each kept whole whatever its characters"
        )
        cases.append((text, Case((pieces, vocab), expected, note)))
    return tuple(cases)


LONG_FALLBACK_LANGUAGE = "am"
"""Lesson 09's story in Amharic, its sentences joined by spaces: Mistral 7B v0.1 holds few of its characters, so
byte fallback happens from its first pieces to its last, over more pieces (2,191) than Python's default recursion
limit (1,000) allows calls."""


@cache
def long_fallback_case() -> Case:
    """Lesson 09's Amharic story through Mistral 7B v0.1, as ``real_fallback_cases`` builds its cases: the pieces
    before byte fallback, the pieces of them its vocabulary holds, and what its encoder shows. Built once."""
    mistral = load_sentencepiece("mistral_v1")
    text = " ".join(load_parallel()[LONG_FALLBACK_LANGUAGE])
    pieces = mistral.merge_pieces(mistral.normalize(text))
    vocab = {p for p in pieces if mistral.piece_to_id.get(p, mistral.unk_id) != mistral.unk_id}
    expected = mistral.encode_as_pieces(text)
    note = (
        f"Mistral 7B v0.1 encoding lesson 09's story in Amharic ({len(text):,} characters): {len(pieces):,} pieces, "
        f"{sum(p not in vocab for p in pieces):,} of them unknown from the first to the last, {len(expected):,} "
        "pieces out; every piece is written, however long the list"
    )
    return Case((pieces, vocab), expected, note)
