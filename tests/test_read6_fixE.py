"""Findings of the sixth fresh read of lessons 05 and 07: wrong answers that passed their checkers, hints that named
the wrong cause, and GPT-4o's letter rule stated with its contraction suffix, tried on generated text."""

from __future__ import annotations

import itertools
import unicodedata

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.exercises.real_tokenizers import check_find_parents, check_split_pieces
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.patterns import PATTERNS
from bpelab.words import END_OF_WORD, merge_symbols


def _hint(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.strip().startswith("hint:"))


# ---- lesson 07, find_parents: the lesson's loop, but started from characters -----------------------


def _parents_from_characters(token, ranks):
    limit = ranks[token]
    parts = [c.encode() for c in token.decode("utf-8")]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def _lessons_find_parents(token, ranks):
    """Lesson 07's shown solution (cell 129)."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def test_starting_from_characters_is_rejected_and_named(capsys) -> None:
    # by hand: 'é' is one character, so the loop starts from one part and never splits it into b'\xc3' + b'\xa9'
    ranks = {b"\xc3\xa9": 300, **{bytes([i]): i for i in range(256)}}
    assert _parents_from_characters(b"\xc3\xa9", ranks) == (b"\xc3\xa9",)
    assert _lessons_find_parents(b"\xc3\xa9", ranks) == (b"\xc3", b"\xa9")
    assert not check_find_parents(_parents_from_characters, record=False).passed
    assert "single bytes" in _hint(capsys.readouterr().out)


def test_the_lessons_find_parents_still_passes() -> None:
    assert check_find_parents(_lessons_find_parents, record=False).passed


# ---- lesson 07, split_pieces: no pieces for a text of only whitespace ------------------------------


def _split_skipping_blank_text(text, pattern):
    return regex.findall(pattern, text) if text.strip() else []


def test_no_pieces_for_a_text_of_only_whitespace_is_rejected(capsys) -> None:
    assert regex.findall(PATTERNS["gpt2"], "   ") == ["   "]  # GPT-2's \s++$ takes the run
    assert not check_split_pieces(_split_skipping_blank_text, record=False).passed
    assert "only whitespace" in _hint(capsys.readouterr().out)


def test_the_lessons_split_pieces_still_passes() -> None:
    assert check_split_pieces(lambda text, pattern: regex.findall(pattern, text), record=False).passed


# ---- lesson 05, encode_word ----------------------------------------------------------------------


def _lessons_encode_word(word, merges):
    """Lesson 05's shown solution (cell 12)."""
    symbols = (*word, "</w>")
    for pair, _new in merges:
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def _nfc_first(word, merges):
    return _lessons_encode_word(unicodedata.normalize("NFC", word), merges)


def test_normalising_the_word_to_nfc_is_rejected_and_named(capsys) -> None:
    assert _nfc_first("cafe\u0301", []) == ["c", "a", "f", "\xe9", "</w>"]  # by hand: NFC joins e + U+0301
    assert not check_encode_word(_nfc_first, record=False).passed
    assert "NFC" in _hint(capsys.readouterr().out)


def test_the_lessons_encode_word_still_passes() -> None:
    assert check_encode_word(_lessons_encode_word, record=False).passed


def _in_place_then_two_steps(word, merges):
    """Merges in place, then steps i += 2: the list got one shorter, so the symbol after the new one is skipped."""
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        i = 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [new]
                i += 2
            else:
                i += 1
    return symbols


def test_merging_in_place_then_stepping_two_is_named(capsys) -> None:
    # by hand: a|a|a|a merges at 0 -> aa|a|a, then i = 2 skips the 'a' at 1, so the pair at 1-2 is never looked at
    assert _in_place_then_two_steps("aaaa", [(("a", "a"), "aa")]) == ["aa", "a", "a", "</w>"]
    assert not check_encode_word(_in_place_then_two_steps, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "i += 2" in hint and "in place" in hint


def _last_symbol_never_appended(word, merges):
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        merged, i = [], 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                merged.append(new)
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def test_a_loop_that_never_appends_the_last_symbol_is_named(capsys) -> None:
    # by hand: l|o|w|</w> with ('l', 'o'): lo, then w; the loop stops at i = 3 and '</w>' is never appended
    assert _last_symbol_never_appended("low", [(("l", "o"), "lo")]) == ["lo", "w"]
    assert not check_encode_word(_last_symbol_never_appended, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "last symbol" in hint and "start from list(word)" not in hint


# ---- lesson 07, section 3: GPT-4o's letters, contractions included --------------------------------

_O200K = PATTERNS["o200k"]
_CAPITAL = regex.compile(r"[\p{Lu}\p{Lt}]")
_SECOND_CLASS = regex.compile(r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]")
_CONTRACTION_END = regex.compile(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)$")
_LETTERS_MARKS_APOSTROPHES = (
    st.lists(
        st.one_of(
            st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me"]),
            st.sampled_from(
                ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ll", "'", "a", "A", "x"]
            ),
        ),
        min_size=1,
        max_size=12,
    )
    .map("".join)
    .filter(lambda t: regex.fullmatch(r"[\p{L}\p{M}']+", t) is not None)
)


@settings(max_examples=600, deadline=None)
@given(_LETTERS_MARKS_APOSTROPHES)
def test_gpt4o_cuts_letters_before_a_capital_or_after_a_contraction(text: str) -> None:
    """Lesson 07, section 3, as it now says: in a run of letters, marks and apostrophes, a piece of GPT-4o's pattern
    that holds a letter or mark and ends before another ends either with a contraction ('s, 't, 're, 've, 'm, 'll,
    'd, any case) or with a letter of the second class (lower case, without case, or a mark) before a capital; and
    a capital that follows a lower-case letter always starts a piece."""
    pieces = regex.findall(_O200K, text)
    assert "".join(pieces) == text
    ends = list(itertools.accumulate(len(p) for p in pieces))
    for piece, end in zip(pieces, ends):
        if end == len(text) or not regex.match(r"[\p{L}\p{M}]", text[end]) or not regex.search(r"[\p{L}\p{M}]", piece):
            continue
        before_a_capital = _CAPITAL.match(text[end]) and _SECOND_CLASS.match(text[end - 1])
        assert _CONTRACTION_END.search(piece) or before_a_capital, (text, pieces)
    after_lower = {i for i in range(1, len(text)) if _CAPITAL.match(text[i]) and regex.match(r"\p{Ll}", text[i - 1])}
    assert after_lower <= set(ends), (text, pieces)


def test_the_lessons_contraction_examples() -> None:
    """The examples the lesson computes: a piece ending before a lower-case letter, a capital followed by lower case
    cut."""
    assert regex.findall(_O200K, "I'mma") == ["I'm", "ma"]
    assert regex.findall(_O200K, "don'tcha") == ["don't", "cha"]
    assert regex.findall(_O200K, "it'sabc") == ["it's", "abc"]
    assert regex.findall(_O200K, "WE'REnot") == ["WE'RE", "not"]
