"""Lesson 11's second checker: BERT's greedy way of encoding a word with a WordPiece vocabulary.

``check_encode_wordpiece_word(fn)``: ``encode_wordpiece_word(word, vocab) -> ['un', '##aff', '##able']``, the longest
piece of the vocabulary first, from the left, each piece after the first with its ``##``; ``['[UNK]']`` for a word
that cannot be covered. The wrong answers below are each a way to get that wrong, with the hint that names it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import unicodedata
from functools import lru_cache
from typing import Any

import regex

from bpelab.exercises.core import MAX_STEPS, Case, CheckResult, Exercise, recording, same_as, when
from bpelab.exercises.diagnosers import right_for_another_call
from bpelab.exercises.helper_stubs import name_stub_helpers
from bpelab.exercises.running import call
from bpelab.exercises.samples import PARAGRAPH
from bpelab.exercises.showing import short
from bpelab.wordpiece import (
    PREFIX,
    UNK,
    encode_wordpiece,
    encode_wordpiece_word,
    train_wordpiece,
)


def reference_encode_wordpiece_word(word: str, vocab: set[str]) -> list[str]:
    """``bpelab.wordpiece.encode_wordpiece_word`` with ``[UNK]`` for an uncoverable word."""
    return encode_wordpiece_word(word, vocab)


def _greedy(
    word: str,
    vocab: set[str],
    *,
    longest: bool = True,
    prefix: str = PREFIX,
    first_prefix: str = "",
    partial: bool = False,
    prefix_from: int = 1,
    fallback: bool = False,
    first_fallback: bool = False,
    lower: bool = False,
) -> list[str]:
    """The greedy loop with one thing changed: the shape of a typical mistake. ``fallback``: a continuation whose
    ``##`` piece is missing is taken without it; ``first_fallback``: a first piece missing from the vocabulary is
    taken with ``##``; ``lower``: the word is lowercased first."""
    if lower:
        word = word.lower()
    pieces: list[str] = []
    start = 0
    while start < len(word):
        ends = range(len(word), start, -1) if longest else range(start + 1, len(word) + 1)
        marker = prefix if start >= prefix_from else first_prefix
        markers = (marker, "") if fallback and marker else (marker,)
        if first_fallback and start < prefix_from:
            markers = (marker, prefix)
        found = next(((e, m) for e in ends for m in markers if m + word[start:e] in vocab), None)
        if found is None:
            return pieces + [UNK] if partial else [UNK]
        end, used = found
        pieces.append(used + word[start:end])
        start = end
    return pieces


def _whole_word_either_way(word: str, vocab: set[str]) -> list[str]:
    """The whole word looked up first as it is and then with ``##`` (``word in vocab or "##" + word in vocab``), the
    greedy loop after that."""
    for whole in (word, PREFIX + word):
        if word and whole in vocab:
            return [whole]
    return _greedy(word, vocab)


FIRST_PIECE_HINT = (
    "the first piece of a word starts it, so it is looked up without '##' only: a piece without ## starts a word, "
    "and '##u' (or '##us') only continues one. When no piece without '##' fits the start of the word, return "
    "['[UNK]']; try '##' + word[start:end] only from start > 0 on"
)


def _greedy_on(symbols: list[str], vocab: set[str]) -> list[str]:
    """The greedy loop over ``symbols`` (grapheme clusters, or the characters of a normalized word) instead of the
    word's own characters: the shape of two typical mistakes."""
    pieces: list[str] = []
    start = 0
    while start < len(symbols):
        marker = PREFIX if start else ""
        end = next((e for e in range(len(symbols), start, -1) if marker + "".join(symbols[start:e]) in vocab), None)
        if end is None:
            return [UNK]
        pieces.append(marker + "".join(symbols[start:end]))
        start = end
    return pieces


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
"""The family emoji: man, zero-width joiner, woman, joiner, girl; five code points, one grapheme cluster."""

SMALL_VOCAB = {"un", "##aff", "##able", "a", "ab", "##b", "##c", "##bc", "##bcd", "h", "##u", "##g", "hug", "##s"}


@lru_cache(maxsize=1)
def _trained_vocab() -> frozenset[str]:
    """120 WordPiece merges learned from the sample paragraph (punctuation split off)."""
    return frozenset(train_wordpiece(" ".join(PARAGRAPH.replace(",", " ,").replace(".", " .").split()), 120).vocab)


LONG_PIECE_VOCAB = {
    "internationalization",
    "inter",
    "##national",
    "##ization",
    "un",
    "##internationalizable",
    "##inter",
    "##nationalizable",
    "i",
    "##n",
}
"""Pieces far longer than any other vocabulary's here (9 characters at most), for an encoder that caps their length."""

HILL = "Taumatawhakatangihangakoauauotamateaturipukakapikimaungahoronukupokaiwhenuakitanatahu"
"""The Māori name of a hill in New Zealand, 85 letters: a piece longer than any cap a learner is likely to pick."""

LONGER_PIECE_VOCAB = {
    "counterrevolutionaries",
    "counter",
    "##revolution",
    "##revolutionaries",
    "##aries",
    HILL,
    "Taumata",
    "##whakatangihanga",
}
"""Whole words of 22 and 85 characters as pieces, beside shorter ones: a cap of 20 (or of 64) finds the shorter."""


EMPTY_CONTINUATION_VOCAB = {"S", "##e", PREFIX}
"""A vocabulary holding "##" itself, the empty continuation, as ``train_wordpiece`` learns it from text with "## "
headings (20 merges of "## Setup\\n## Usage\\nsee the ## section, a and b\\n" three times): on "Sex", 'S' and '##e'
fit, nothing fits 'x', so the word is [UNK] (Hugging Face's WordPiece agrees); an encoder that also tries the empty
piece word[start:start] finds '##' there, and its start never moves."""

EMPTY_PIECE_HINT = (
    "your inner loop also tries the empty piece, word[start:start] (end going down to start, as in "
    "range(len(word), start - 1, -1)): with '##' itself in the vocabulary (a vocabulary trained on text with '## ' "
    "headings has it), '##' + '' fits, start stays where it is, and the loop never ends. Try end from len(word) "
    "down to start + 1 only: range(len(word), start, -1)"
)


def _capped_piece(attempt: Any) -> bool:
    """The answer is wrong on a case whose expected answer uses a piece longer than any piece the learner returned."""
    longest_expected = max((len(piece.removeprefix(PREFIX)) for piece in attempt.expected), default=0)
    longest_got = max((len(str(piece).removeprefix(PREFIX)) for piece in attempt.got), default=0)
    return longest_expected >= 15 and longest_got < longest_expected


REMEMBERED_HINT = (
    "your function seems to remember its answers between calls, keyed without the vocabulary itself: by the word "
    "alone, or by the word and something two vocabularies can share, such as len(vocab) (two vocabularies of one "
    "size) or id(vocab) (a set changed in place keeps its id, and Python gives the id of a freed object to a new "
    "one). Encode afresh at each call, with the vocabulary you are given"
)


def _answer_for_another_vocab(attempt: Any) -> bool:
    """A wrong answer that is the right one for the same word with another check's vocabulary: the function
    remembers its answers keyed without the vocabulary."""
    return right_for_another_call(attempt, reference_encode_wordpiece_word, key=0) is not None


def _vocab_changed_in_place(encode: Any, checks: int) -> str | None:
    """The message when ``encode`` answers right for "hug" with one set, then, once that same set object is changed
    in place ('hug' taken out, 'h' and '##ug' put in: same id, same size), gives its old answer: it remembers its
    answers by something the two share (id(vocab), len(vocab))."""
    vocab = {"hug", "##s", "x"}
    for expected, what in ((["hug"], "holding 'hug'"), (["h", "##ug"], "then changed in place to hold 'h' and '##ug'")):
        if expected != ["hug"]:
            vocab.difference_update({"hug", "x"})
            vocab.update({"h", "##ug"})
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(encode, ("hug", vocab), MAX_STEPS)
        if outcome.error is None and not outcome.runaway and outcome.got != expected:
            return (
                f"❌ encode_wordpiece_word: your function passed all {checks} checks, but called twice on 'hug' with "
                f"ONE vocabulary set (3 pieces), {what}, it answered {short(outcome.got)} where {expected} is right.\n"
                f"   hint:     {REMEMBERED_HINT}"
            )
    return None


ENCODE_WORD = Exercise(
    name="encode_wordpiece_word",
    call="encode_wordpiece_word(word, vocab)",
    reference=reference_encode_wordpiece_word,
    solution=(encode_wordpiece_word,),
    course_functions=(encode_wordpiece_word, encode_wordpiece),  # a text of one word is that word
    cases=lambda: [
        Case(("hug", SMALL_VOCAB), ["hug"], "the whole word is in the vocabulary"),
        Case(("hug", {"hug", "x"}), ["hug"], "the same word with another vocabulary of two pieces"),
        Case(
            ("hug", {"h", "##ug"}),
            ["h", "##ug"],
            "the same word again, with another vocabulary of two pieces, without 'hug': the answer depends on the "
            "vocabulary, not only on the word",
        ),
        Case(("hugs", SMALL_VOCAB), ["hug", "##s"], "a piece after the first is looked up with '##' in front"),
        Case(("unaffable", SMALL_VOCAB), ["un", "##aff", "##able"], "three pieces"),
        Case(("abc", SMALL_VOCAB), ["ab", "##c"], "longest first: 'ab' beats 'a', so '##bc' is never tried"),
        Case(
            ("abcd", SMALL_VOCAB),
            [UNK],
            "'ab' is taken first, then '##c', and nothing fits 'd': the whole word becomes [UNK] "
            "(although 'a' + '##bcd' would have covered it: greedy never goes back)",
        ),
        Case(("hugz", SMALL_VOCAB), [UNK], "a character not in the vocabulary: one [UNK] for the whole word"),
        Case(("uh", SMALL_VOCAB), [UNK], "'##u' is in the vocabulary but 'u' (a word start) is not"),
        Case(
            ("us", {"##u", "##s", "h"}),
            [UNK],
            "'##u' and '##s' are in the vocabulary, but a word starts with a piece without '##', and 'u' is not there",
        ),
        Case(
            ("us", {"##us"}),
            [UNK],
            "'##us' is in the vocabulary, but it continues a word; 'us', which would start one, is not there",
        ),
        Case(
            ("ha", SMALL_VOCAB),
            [UNK],
            "'h' starts the word; 'a' is in the vocabulary, but the 'a' that continues a word must be '##a', not there",
        ),
        Case(("Hug", SMALL_VOCAB), [UNK], "'hug' is in the vocabulary, but 'H' is another character than 'h'"),
        Case(("a", SMALL_VOCAB), ["a"], "a one-letter word"),
        Case(
            ("aaa", {"a", "##a"}),
            ["a", "##a", "##a"],
            "every piece after the first continues the word, the second one too: '##a' from position 1 on",
        ),
        Case(("aa", {"a"}), [UNK], "'a' may start a word; the second 'a' continues it and needs '##a', not there"),
        Case(("", SMALL_VOCAB), [], "an empty word: nothing to cover, no pieces (and nothing unknown)"),
        Case(
            ("a" * 100, {"a", "##a"}),
            ["a"] + ["##a"] * 99,
            "a word of 100 characters is encoded like any other (Hugging Face gives [UNK] only above 100)",
        ),
        Case(("keeper", _trained_vocab()), note="a vocabulary trained on a paragraph"),
        Case(("lighthouses", _trained_vocab()), note="a vocabulary trained on a paragraph"),
        Case(("grandsons", _trained_vocab()), note="a vocabulary trained on a paragraph"),
        Case(
            ("internationalization", LONG_PIECE_VOCAB),
            ["internationalization"],
            "a piece of 20 characters, in the vocabulary: the longest piece is the whole word",
        ),
        Case(
            ("uninternationalizable", LONG_PIECE_VOCAB),
            ["un", "##internationalizable"],
            "a continuing piece of 19 characters, taken whole",
        ),
        Case(
            ("counterrevolutionaries", LONGER_PIECE_VOCAB),
            ["counterrevolutionaries"],
            "a piece of 22 characters, the whole word: longer than 'counter' + '##revolutionaries'",
        ),
        Case(
            (HILL, LONGER_PIECE_VOCAB),
            [HILL],
            "a piece of 85 characters, the whole word (a hill's name in New Zealand): pieces are as long as the "
            "vocabulary makes them",
        ),
        Case(
            ("cafe\u0301", {"c", "##a", "##f", "##e", "##\u0301"}),
            ["c", "##a", "##f", "##e", "##\u0301"],
            "'e' and a combining accent (U+0301): two code points, so two characters of the str, and the accent "
            "is a piece of its own, '##\u0301' (Hugging Face's WordPiece gives the same 5 pieces)",
        ),
        Case(
            (FAMILY, {"\U0001f468", "##\u200d", "##\U0001f469", "##\U0001f467"}),
            ["\U0001f468", "##\u200d", "##\U0001f469", "##\u200d", "##\U0001f467"],
            "the family emoji: man, zero-width joiner, woman, joiner, girl, five code points drawn as one; each is "
            "a piece (Hugging Face's WordPiece gives the same 5)",
        ),
        Case(
            ("a" * 100, {"a" * 100, "a", "##a"}),
            ["a" * 100],
            "a piece of 100 characters, the whole word: as long as a word may be, so a cap on the length of a piece "
            "shorter than that finds 'a' + '##a' ... instead",
        ),
        Case(
            ("Sex", EMPTY_CONTINUATION_VOCAB),
            [UNK],
            "'##' itself is in the vocabulary (train_wordpiece learns it from text with '## ' headings): 'S' and "
            "'##e' fit, nothing fits 'x', so the word is [UNK]; the empty piece, '##' + '', is no piece of the word",
        ),
        Case(
            ("caf\u00e9", {"c", "##a", "##f", "##\u00e9"}),
            ["c", "##a", "##f", "##\u00e9"],
            "'\u00e9' typed as one character (U+00E9), and the vocabulary holds '##\u00e9': NFD would make it 'e' + a "
            "combining accent, which it lacks",
        ),
        Case(
            ("\ufb01x", {"\ufb01", "##x"}),
            ["\ufb01", "##x"],
            "the ligature '\ufb01' (U+FB01) is one character and a piece: NFKC or NFKD would make it 'f' + 'i'",
        ),
    ],
    diagnosers=[
        when(
            lambda a: isinstance(a.got, str),
            "return a list of pieces, e.g. ['hug', '##s'], not one string",
            any_type=True,
        ),
        when(_answer_for_another_vocab, REMEMBERED_HINT),  # before the cap: a remembered answer is short pieces too
        when(
            lambda a: a.args[0] == "" and a.got == [UNK],
            "an empty word has no pieces: return [] (there is nothing to cover, so nothing is unknown)",
        ),
        when(
            lambda a: len(a.args[0]) == 100 and a.got == [UNK] and a.expected != [UNK],
            "a word of 100 characters is encoded: the exercise needs no length limit, and Hugging Face's "
            "(max_input_chars_per_word = 100) gives [UNK] only to longer words (len(word) > 100, not >= 100)",
        ),
        when(
            _capped_piece,
            "a piece may be as long as the word itself: a cap on the piece length (end from start + 10 down, say) "
            "misses longer pieces in the vocabulary; try end from len(word) down to start + 1",
            any_type=False,
        ),
        same_as(
            lambda w, v: _greedy(w, v, partial=True),
            "when nothing fits, BERT gives up on the whole word: return ['[UNK]'] alone, not the pieces found so far",
        ),
        same_as(
            lambda w, v: _greedy(w, v, longest=False),
            "you took the shortest piece that fits; WordPiece takes the longest: try end = len(word) first, "
            "then shorter",
        ),
        same_as(
            lambda w, v: _greedy(w, v, prefix=""),
            "pieces after the first must be looked up (and returned) with '##' in front, e.g. '##s'",
        ),
        same_as(
            lambda w, v: _greedy(w, v, prefix_from=2),
            "the piece at position 1 continues the word too: every piece after the first gets '##' "
            "(start > 0, not start > 1)",
        ),
        same_as(
            lambda w, v: _greedy(w, v, first_prefix=PREFIX),
            "the first piece of a word has no '##': only the pieces that continue a word do",
        ),
        same_as(lambda w, v: _greedy(w, v, first_fallback=True), FIRST_PIECE_HINT),
        same_as(_whole_word_either_way, FIRST_PIECE_HINT),
        same_as(
            lambda w, v: _greedy(w, v, fallback=True),
            "a piece after the first must be found with '##' in front: when '##a' is not in the vocabulary, 'a' "
            "(which starts a word) does not fit there either, so try a shorter piece or give up with ['[UNK]']",
        ),
        same_as(
            lambda w, v: _greedy_on(regex.findall(r"\X", w), v),
            "you split the word into grapheme clusters (what is drawn as one character, regex's \\X): WordPiece "
            "works on the str's characters, its code points, so 'e' + a combining accent is two characters and "
            "the family emoji five; go through word[start:end] as it is",
        ),
        *(
            same_as(
                lambda w, v, form=form: _greedy_on(list(unicodedata.normalize(form, w)), v),
                f"you normalized the word (unicodedata.normalize('{form}', ...)): {change}, which the vocabulary "
                "lacks; normalizing, if a model wants it, happens before WordPiece: look the word up as it is",
            )
            for form, change in (
                ("NFC", "'e' + a combining accent became 'é'"),
                ("NFKC", "'e' + a combining accent became 'é' (and the ligature 'ﬁ' 'f' + 'i')"),
                ("NFD", "'é' became 'e' + a combining accent"),
                ("NFKD", "'é' became 'e' + a combining accent (and the ligature 'ﬁ' 'f' + 'i')"),
            )
        ),
        same_as(
            lambda w, v: _greedy(w, v, lower=True),
            "look the word up exactly as it is written: you changed its case, and 'Hug' is not 'hug' (a cased "
            "vocabulary keeps both; lowercasing, if a model wants it, happens before WordPiece)",
        ),
    ],
    hint="start = 0; while start < len(word): try end from len(word) down to start + 1, candidate = word[start:end] "
    "with '##' in front unless start == 0; take the first candidate in vocab and move start to end; if none "
    "fits, return ['[UNK]']",
)


def _empty_piece_named(result: CheckResult, encode_wordpiece_word: Any) -> CheckResult:
    """A call the guards stopped on the case whose vocabulary holds '##', that finishes with [UNK] once '##' is taken
    out of that vocabulary: the encoder tries the empty piece, so its hint says that instead of the engine's."""
    if "did not finish" not in result.message or result.failed_case is None:
        return result
    word, vocab = ENCODE_WORD.build_cases()[result.failed_case - 1].args
    if PREFIX not in vocab:
        return result
    with contextlib.redirect_stdout(io.StringIO()):
        without = call(encode_wordpiece_word, (word, set(vocab) - {PREFIX}), MAX_STEPS)
    if without.error is not None or without.runaway or without.got != [UNK]:
        return result
    lines = result.message.split("\n")
    lines = [f"   hint:     {EMPTY_PIECE_HINT}" if line.startswith("   hint:") else line for line in lines]
    return dataclasses.replace(result, message="\n".join(lines))


def check_encode_wordpiece_word(encode_wordpiece_word: Any, *, record: bool = True) -> CheckResult:
    """Check ``encode_wordpiece_word(word, vocab) -> ['hug', '##s']`` against BERT's greedy rule; then one vocabulary
    set changed in place between two calls, which a function that remembers its answers gets wrong."""
    with recording(record):
        with recording(False):
            result = _empty_piece_named(ENCODE_WORD.run(encode_wordpiece_word), encode_wordpiece_word)
            result = name_stub_helpers(result, encode_wordpiece_word)
            remembered = _vocab_changed_in_place(encode_wordpiece_word, result.checks) if result.passed else None
        if remembered is not None:
            result = CheckResult(False, result.name, result.checks + 1, result.checks + 1, "failed", remembered)
        else:
            result = dataclasses.replace(result)  # made again here, so that a pass is recorded when `record` says so
        print(result.message)
        return result
