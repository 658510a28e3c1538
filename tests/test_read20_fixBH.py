"""Lessons 00-04, twentieth fresh read (fixBH): byte_count at the UTF-8 size limits, its chars counted in bytes, its
2-bytes-for-every-non-ASCII answer and when the UTF-16/32 hint fires; merge_symbols and merge_pair when the merged
symbol is forgotten; lesson 03's whitespace runs and its question about pairs with a space; lesson 01's keycap emoji.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Right answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import nbformat
import pytest

from bpelab.exercises import check_byte_count, check_merge_pair, check_merge_symbols
from tests.shown_solutions import lesson_path, shown_solution


def hint_of(out: str) -> str:
    """The report, its lines joined (the report wraps long hints)."""
    return " ".join(out.split())


def _cell(lesson, cell_id):
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id)


def _output(cell) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


def _prose(lesson, cell_id) -> str:
    return " ".join(_cell(lesson, cell_id).source.split())


# ---- finding 1: byte_count computed from the code-point ranges, a limit off by one ----------------------------------


def _from_code_points(one, two, three, inclusive=True):
    """A learner's byte_count that sizes each character by its code point, with the limits it was written with."""

    def byte_count(text):
        n_bytes = 0
        for ch in text:
            cp = ord(ch)
            if (cp <= one) if inclusive else (cp < one):
                n_bytes += 1
            elif (cp <= two) if inclusive else (cp < two):
                n_bytes += 2
            elif (cp <= three) if inclusive else (cp < three):
                n_bytes += 3
            else:
                n_bytes += 4
        n_chars = len(text)
        per_char = round(n_bytes / n_chars, 2) if n_chars else 0.0
        return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}

    return byte_count


def below_0x80_inclusive(text):  # cp <= 0x80
    return _from_code_points(0x80, 0x7FF, 0xFFFF)(text)


def below_0x7f(text):  # cp < 0x7F
    n_bytes = sum(1 if ord(ch) < 0x7F else 2 if ord(ch) <= 0x7FF else 3 if ord(ch) <= 0xFFFF else 4 for ch in text)
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def below_0x7ff(text):  # cp < 0x7FF
    n_bytes = sum(1 if ord(ch) <= 0x7F else 2 if ord(ch) < 0x7FF else 3 if ord(ch) <= 0xFFFF else 4 for ch in text)
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def below_0x800_inclusive(text):  # cp <= 0x800
    return _from_code_points(0x7F, 0x800, 0xFFFF)(text)


def below_0xffff(text):  # cp < 0xFFFF
    n_bytes = sum(1 if ord(ch) <= 0x7F else 2 if ord(ch) <= 0x7FF else 3 if ord(ch) < 0xFFFF else 4 for ch in text)
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def below_0x10000_inclusive(text):  # cp <= 0x10000
    return _from_code_points(0x7F, 0x7FF, 0x10000)(text)


def next_class_inclusive(text):  # all three written as <=, with the first code point of the next class
    return _from_code_points(0x80, 0x800, 0x10000)(text)


OFF_BY_ONE = [
    below_0x80_inclusive,
    below_0x7f,
    below_0x7ff,
    below_0x800_inclusive,
    below_0xffff,
    below_0x10000_inclusive,
    next_class_inclusive,
]


def test_the_right_limits_pass():
    assert check_byte_count(_from_code_points(0x7F, 0x7FF, 0xFFFF), record=False).passed
    assert check_byte_count(_from_code_points(0x80, 0x800, 0x10000, inclusive=False), record=False).passed
    assert check_byte_count(shown_solution("01", "66d0d7f6", "byte_count"), record=False).passed


@pytest.mark.parametrize("wrong", OFF_BY_ONE, ids=lambda f: f.__name__)
def test_byte_count_refuses_a_limit_off_by_one(wrong, capsys):
    assert not check_byte_count(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "size limit" in out and "U+007F is one byte, U+0080 two" in out, out
    assert "UTF-16" not in out and "counted characters" not in out, out


def test_the_hint_names_the_limit_that_is_off(capsys):
    check_byte_count(below_0xffff, record=False)
    out = hint_of(capsys.readouterr().out)
    assert "size limit (U+FFFF and U+10000)" in out, out


# ---- finding 2: chars counted in bytes ------------------------------------------------------------------------------


def chars_in_bytes(text):
    chars = len(text.encode("utf-8"))
    n_bytes = len(text.encode("utf-8"))
    per_char = round(n_bytes / chars, 2) if chars else 0.0
    return {"chars": chars, "bytes": n_bytes, "bytes_per_char": per_char}


def floor_division(text):
    chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = n_bytes // chars if chars else 0.0
    return {"chars": chars, "bytes": n_bytes, "bytes_per_char": float(per_char)}


def test_chars_counted_in_bytes_gets_its_own_hint(capsys):
    assert not check_byte_count(chars_in_bytes, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "// (floor division)" not in out, out
    assert "'chars' is the number of bytes" in out and "len(text)" in out, out


def test_the_floor_division_hint_still_fires(capsys):
    assert not check_byte_count(floor_division, record=False).passed
    assert "not // (floor division)" in hint_of(capsys.readouterr().out)


# ---- finding 3: 2 bytes for every non-ASCII character; the UTF-16/32 hint only when every case agrees --------------


def two_for_non_ascii(text):
    n_bytes = sum(1 if ord(ch) < 128 else 2 for ch in text)
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def in_utf16(text):
    n_bytes = len(text.encode("utf-16-le"))
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def in_utf32(text):
    n_bytes = len(text.encode("utf-32"))
    n_chars = len(text)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0}


def test_two_bytes_for_every_non_ascii_character_gets_its_own_hint(capsys):
    assert not check_byte_count(two_for_non_ascii, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "UTF-16" not in out, out
    assert "2 bytes for every" in out and "3" in out and "emoji" in out, out


@pytest.mark.parametrize("wrong", [in_utf16, in_utf32], ids=lambda f: f.__name__)
def test_the_utf16_hint_still_fires_on_utf16_and_utf32(wrong, capsys):
    assert not check_byte_count(wrong, record=False).passed
    assert "'bytes' is the size in UTF-16 or UTF-32" in hint_of(capsys.readouterr().out)


# ---- finding 4: the merged symbol forgotten --------------------------------------------------------------------------


def forgot_the_merged_symbol(symbols, pair):
    merged = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def last_symbol_dropped(symbols, pair):
    merged = []
    skip = False
    for i in range(len(symbols) - 1):
        if skip:
            skip = False
            continue
        if (symbols[i], symbols[i + 1]) == pair:
            merged.append(symbols[i] + symbols[i + 1])
            skip = True
        else:
            merged.append(symbols[i])
    return tuple(merged)


def merge_pair_forgetting(word_freq, pair):
    merged = {}
    for word, count in word_freq.items():
        new_word = forgot_the_merged_symbol(word, pair)
        merged[new_word] = merged.get(new_word, 0) + count
    return merged


def merge_pair_dropping_the_last(word_freq, pair):
    return {last_symbol_dropped(word, pair): count for word, count in word_freq.items()}


def test_merge_symbols_names_the_forgotten_merged_symbol(capsys):
    assert not check_merge_symbols(forgot_the_merged_symbol, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "last symbol" not in out, out
    assert "merged symbol" in out and "'ab'" in out, out


def test_merge_pair_names_the_forgotten_merged_symbol(capsys):
    assert not check_merge_pair(merge_pair_forgetting, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "last symbol" not in out, out
    assert "merged symbol" in out, out


def test_the_last_symbol_hint_still_fires(capsys):
    assert not check_merge_symbols(last_symbol_dropped, record=False).passed
    assert "when the last symbol is not part of a merge" in hint_of(capsys.readouterr().out)
    assert not check_merge_pair(merge_pair_dropping_the_last, record=False).passed
    assert "when the last symbol is not part of a merge" in hint_of(capsys.readouterr().out)


# ---- finding 5: lesson 03, a whitespace run that ends in a tab or a new line ----------------------------------------


def test_lesson_03_says_only_a_final_space_joins_the_next_word():
    prose = _prose("03", "115bcdf3")
    assert "gives the last space to the next word" not in prose
    assert "only a final space" in prose.lower() or "only when the run ends in a space" in prose, prose


def test_lesson_03_computes_a_run_that_ends_in_a_tab_and_one_in_new_lines():
    code = _cell("03", "3b7c2e10")
    out = _output(code)
    assert "['aab', ' ', '\\t', 'aab']" in out, out
    assert "['aab', '\\n', '\\n', 'aab']" in out, out


# ---- finding 6: lesson 03, which pairs contain a space -----------------------------------------------------------


def test_lesson_03_asks_which_pairs_contain_a_space():
    prose = _prose("03", "62fbb706")
    assert "which pair contains a space" not in prose and "which pairs contain a space?" in prose, prose


# ---- finding 7: lesson 01, the keycap emoji -------------------------------------------------------------------------


def test_lesson_01_says_the_emoji_of_a_digit_is_a_keycap_sequence():
    prose = _prose("01", "emoji-bytes-said")
    assert "drawn as emoji only with U+FE0F (the variation selector) after them" not in prose
    assert "U+20E3" in prose and "keycap" in prose, prose
