"""Lesson 16's twelfth fresh read (fixV): next_merge answers that never join a letter and a digit, a word and its
punctuation, lower and upper case, a tab, a character outside the BMP, or pieces longer than 17 characters passed;
byte_fallback answers that drop format characters (the ZWJ) or variation selectors passed; a newline guard got a
hint about another bug.

The checker now also tries every merge state of a model trained with permissive settings
(``bpelab.exercises.sentencepiece_states``), and byte_fallback cases with a ZWJ family and a variation selector."""

from __future__ import annotations

import re
import unicodedata

import pytest
import regex

from bpelab.exercises.sentencepiece import byte_fallback, check_byte_fallback, check_next_merge, next_merge
from bpelab.exercises.sentencepiece_states import (
    MIXED_LINES,
    MIXED_SETTINGS,
    MIXED_TIMES,
    MIXED_VOCAB_SIZE,
    _mixed_model,
    real_encoding_cases,
)
from tests.lesson16_solutions import hint, shown_solution


def _skipping(skip):
    """A next_merge written the lesson's way, that passes over a pair when ``skip(left, right)``."""

    def answer(symbols, scores):
        best, best_score = None, 0.0
        for i in range(len(symbols) - 1):
            a, b = symbols[i], symbols[i + 1]
            if skip(a, b):
                continue
            if a + b in scores and (best is None or scores[a + b] > best_score):
                best, best_score = i, scores[a + b]
        return best

    return answer


def letter_meets_digit(a, b):
    """Finding 1, the reviewer's guard."""
    return (a[-1].isdigit() and b[0].isalpha()) or (a[-1].isalpha() and b[0].isdigit())


def letter_and_digit_in_piece(a, b):
    piece = a + b
    return any(c.isalpha() for c in piece) and any(c.isdigit() for c in piece)


def letter_digit_regex(a, b):
    return regex.search(r"\p{L}\p{N}|\p{N}\p{L}", a + b) is not None


def letter_meets_punctuation(a, b):
    """Finding 2."""
    return a[-1].isalpha() and unicodedata.category(b[0]).startswith("P")


def lower_meets_upper(a, b):
    """Finding 3: camelCase never joined."""
    return a[-1].islower() and b[0].isupper()


def tab_or_return(a, b):
    return "\t" in a + b or "\r" in a + b


def outside_the_bmp(a, b):
    return any(ord(c) > 0xFFFF for c in a + b)


def longer_than(limit):
    return lambda a, b: len(a + b) > limit


def newline(a, b):
    """Finding 5's guards."""
    return "\n" in a + b


def not_printable(a, b):
    return not (a + b).isprintable()


def holds_whitespace(a, b):
    return any(c.isspace() for c in a + b)


# ---- the generated cases ---------------------------------------------------------------------------------------


def test_the_mixed_model_encodes_the_reviewers_texts_as_sentencepiece_would():
    """The reviewer's sentencepiece outputs (split_by_number=False, split_by_unicode_script=False)."""
    model = _mixed_model()
    assert model.encode_as_pieces("mp3 covid19") == ["▁mp3", "▁covid19"]
    assert model.encode_as_pieces("Hello, world.") == ["▁Hello,", "▁world."]


def test_the_generated_cases_hold_every_family():
    """Some state's winner joins each family; each expected answer is the reference's."""
    winners = []
    for case in real_encoding_cases():
        assert next_merge(*case.args) == case.expected
        if case.expected is not None:
            symbols = case.args[0]
            winners.append((symbols[case.expected], symbols[case.expected + 1]))
    for skip in (letter_meets_digit, letter_meets_punctuation, lower_meets_upper, tab_or_return, outside_the_bmp):
        assert any(skip(a, b) for a, b in winners), skip.__name__
    assert max(len(a + b) for a, b in winners) > 30
    assert not any("\n" in piece for piece in _mixed_model().mergeable)  # a newline filter changes nothing here


# ---- the wrong answers ------------------------------------------------------------------------------------------

WRONG = {
    "a letter next to a digit": (letter_meets_digit, "letter and a digit"),
    "a piece with a letter and a digit": (letter_and_digit_in_piece, "letter and a digit"),
    "\\p{L}\\p{N} in the piece": (letter_digit_regex, "letter and a digit"),
    "a letter before punctuation": (letter_meets_punctuation, "punctuation"),
    "lower case before upper case": (lower_meets_upper, "case-boundary"),
    "a tab or a carriage return": (tab_or_return, "\\t"),
    "outside the BMP": (outside_the_bmp, "BMP"),
    "a newline": (newline, "newline"),
    "not printable": (not_printable, "isprintable"),
    "whitespace": (holds_whitespace, "isspace"),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_the_wrong_next_merge_fails_with_its_hint(name, capsys):
    skip, words = WRONG[name]
    assert not check_next_merge(_skipping(skip), record=False).passed
    line = hint(capsys.readouterr().out)
    assert words in line, line
    assert "need not be pieces" not in line


@pytest.mark.parametrize("cap", [17, 20, 30])
def test_a_cap_on_piece_length_fails_and_the_hint_gives_its_value(cap, capsys):
    assert not check_next_merge(_skipping(longer_than(cap)), record=False).passed
    line = hint(capsys.readouterr().out)
    found = re.search(r"a cap of (\d+)(?: to (\d+))? characters", line)
    assert found, line
    low, high = int(found[1]), int(found[2] or found[1])
    assert low <= cap <= high


def test_the_shown_next_merge_passes():
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed


# ---- byte fallback ----------------------------------------------------------------------------------------------


def _spelled(pieces, vocab):
    """A right byte_fallback, written here (the checker refuses the course's own function)."""
    out = []
    for piece in pieces:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def format_characters_dropped(pieces, vocab):
    """Finding 4: unicodedata.category(c) != 'Cf' removes the ZWJ."""
    kept = ["".join(c for c in p if unicodedata.category(c) != "Cf") for p in pieces]
    return _spelled([p for p in kept if p], vocab)


def variation_selectors_dropped(pieces, vocab):
    kept = ["".join(c for c in p if not 0xFE00 <= ord(c) <= 0xFE0F) for p in pieces]
    return _spelled([p for p in kept if p], vocab)


def unk_kept(pieces, vocab):
    return [x for p in pieces for x in ([p] if p == "<unk>" else _spelled([p], vocab))]


def space_kept(pieces, vocab):
    return [x for p in pieces for x in ([p] if p == " " else _spelled([p], vocab))]


def known_repeat_collapsed(pieces, vocab):
    """A known '▁' right after itself written once."""
    out = []
    for i, p in enumerate(pieces):
        if p in vocab and i and pieces[i - 1] == p and not p.strip("▁"):
            continue
        out += _spelled([p], vocab)
    return out


BYTE_WRONG = {
    "format characters dropped": (format_characters_dropped, "U+200D"),
    "variation selectors dropped": (variation_selectors_dropped, "U+FE0F"),
    "a literal '<unk>' kept": (unk_kept, None),
    "a ' ' kept": (space_kept, None),
    "a known '▁' after itself collapsed": (known_repeat_collapsed, None),
}


@pytest.mark.parametrize("name", list(BYTE_WRONG))
def test_the_wrong_byte_fallback_fails(name, capsys):
    answer, words = BYTE_WRONG[name]
    assert not check_byte_fallback(answer, record=False).passed
    if words:
        line = hint(capsys.readouterr().out)
        assert words in line, line


def test_the_zwj_family_is_eighteen_bytes():
    """Finding 4's count: 👨, 👩, 👧 four bytes each, the ZWJ (U+200D) three, twice."""
    family = ["👨", "\u200d", "👩", "\u200d", "👧"]
    out = byte_fallback(family, set())
    assert len(out) == 18
    assert out.count("<0xE2>") == 2 and out[4:7] == ["<0xE2>", "<0x80>", "<0x8D>"]


def test_the_shown_byte_fallback_passes():
    assert check_byte_fallback(shown_solution("a16e0c02", "byte_fallback"), record=False).passed


def test_the_mixed_model_is_sentencepiece_trainers(tmp_path):
    """The same pieces, in the same order, as SentencePieceTrainer with the same options (sentencepiece 0.2.3)."""
    from tests.test_sentencepiece_training import train_with_sentencepiece

    text = "\n".join(MIXED_LINES * MIXED_TIMES)
    reference, _ = train_with_sentencepiece(text, tmp_path, MIXED_VOCAB_SIZE, **MIXED_SETTINGS)
    model = _mixed_model()
    assert list(zip(model.pieces, model.scores)) == [(piece, score) for piece, score, _ in reference]
