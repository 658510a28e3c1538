"""Lessons 00, 02, 03 and 04, fifteenth fresh read (fixAK): hints that named the wrong bug, a wrong answer that passed,
and sentences that said more (or less) than their cells show.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug."""

from __future__ import annotations

import re
import string

import nbformat
import pytest
import regex

from bpelab.exercises import check_get_word_frequencies
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.word_frequencies import GET_WORD_FREQUENCIES
from tests.shown_solutions import lesson_path


def hint_of(out: str) -> str:
    """The report's hint lines, joined (the report wraps long hints)."""
    return " ".join(out.split())


def _counted(words):
    counts = {}
    for word in words:
        key = tuple(word) + ("</w>",)
        counts[key] = counts.get(key, 0) + 1
    return counts


def _cells(lesson):
    return nbformat.read(lesson_path(lesson), as_version=4).cells


# ---- findings 1 and 8: ASCII whitespace is not text.split(' ') ---------------------------------------------------


def split_at_string_whitespace(text):
    return _counted([w for w in re.split(f"[{string.whitespace}]+", text) if w])


def split_at_listed_whitespace(text):
    return _counted([w for w in re.split(r"[ \t\n\r\f\v]+", text) if w])


def split_at_ascii_s(text):
    return _counted([w for w in re.split(r"\s+", text, flags=re.ASCII) if w])


def findall_ascii_non_space(text):
    return _counted(re.findall(r"\S+", text, re.ASCII))


@pytest.mark.parametrize(
    "wrong",
    [split_at_string_whitespace, split_at_listed_whitespace, split_at_ascii_s, findall_ascii_non_space],
)
def test_ascii_whitespace_is_not_called_split_at_the_space(wrong, capsys):
    assert not check_get_word_frequencies(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "check 7 of" in out, out
    assert "text.split(' ')" not in out, out
    assert "ASCII" in out and "U+00A0 (no-break space), U+3000 (ideographic space)" in out, out
    assert "True for them" in out


def test_split_at_the_space_keeps_its_hint(capsys):
    def split_at_space(text):
        return _counted([w for w in text.split(" ") if w])

    assert not check_get_word_frequencies(split_at_space, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "you split with text.split(' '), at the space character only" in out, out
    assert "U+0009 (tab), U+000A (line feed) stayed inside your words" in out, out


def test_one_character_is_it_not_them(capsys):
    """A hand list that misses only the form feed: one character, named by what it does, told 'it'."""

    def split_missing_form_feed(text):
        return _counted([w for w in re.split(r"[ \t\n\r\v\xa0\u3000]+", text) if w])

    assert not check_get_word_frequencies(split_missing_form_feed, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "U+000C (form feed) stayed inside your words, but str.isspace() is True for it," in out, out


# ---- finding 2: re.split keeps empty strings ----------------------------------------------------------------------


def re_split_runs(text):
    return _counted(re.split(r"\s+", text))


def re_split_each(text):
    return _counted(re.split(r"\s", text))


@pytest.mark.parametrize("wrong", [re_split_runs, re_split_each])
def test_re_split_without_dropping_empty_strings_is_named(wrong, capsys):
    assert not check_get_word_frequencies(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "check 4 of" in out, out
    assert "text.split(' ')" not in out, out
    assert "re.split" in out and "empty string" in out and "drop" in out, out


# ---- finding 8 in split_words: tab and newline by name ------------------------------------------------------------


def test_split_words_names_tab_and_line_feed(capsys):
    def listed_space(text):
        return regex.findall(r"\w+|[^\w ]+", text)

    assert not check_split_words(listed_space, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "U+0009 (tab), U+000A (line feed) are whitespace for \\s" in out, out
    assert "a control character" not in out, out


# ---- finding 3: the underscore is not "ASCII only" ---------------------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        r"[\p{L}\p{N}]+|[^\p{L}\p{N}\s]+",
        r"[\p{L}\p{M}\p{Nd}]+|[^\p{L}\p{M}\p{Nd}\s]+",
        r"[\p{Alphabetic}\p{M}\p{Nd}\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Join_Control}\s]+",
    ],
)
def test_a_class_without_the_underscore_is_told_so(pattern, capsys):
    def without_underscore(text):
        return regex.findall(pattern, text)

    assert not check_split_words(without_underscore, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "check 7 of" in out, out
    assert "like [A-Za-z]" not in out, out
    assert "_ (U+005F)" in out and "\\p{Pc}" in out, out


@pytest.mark.parametrize("pattern", [r"[A-Za-z0-9]+|[^A-Za-z0-9\s]+", r"[A-Za-z]+|[^A-Za-z\s]+"])
def test_english_letters_only_keep_their_hint(pattern, capsys):
    assert not check_split_words(lambda text: re.findall(pattern, text), record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "like [A-Za-z]" in out, out


# ---- finding 9: more than 1,001 words ----------------------------------------------------------------------------


def test_split_with_a_maximum_is_refused(capsys):
    def split_at_most_1000(text):
        return _counted(text.split(None, 1000))

    assert max(len(case.args[0].split()) for case in GET_WORD_FREQUENCIES.build_cases()) > 1001
    assert not check_get_word_frequencies(split_at_most_1000, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "maxsplit" in out, out


# ---- finding 4: lesson 03, a pair that ends in the space byte ----------------------------------------------------


def _cell(lesson, cell_id):
    return next(cell for cell in _cells(lesson) if cell.id == cell_id)


def _output(cell):
    return "".join(out.get("text", "") for out in cell.outputs)


def test_lesson_03_tests_whitespace_as_the_pattern_does():
    code = _cell("03", "3b7c2e10")
    assert "bytes([a]).isspace()" not in code.source and "piece.isspace()" not in code.source
    assert "\\u3000" in code.source and "\\u2028" in code.source and "\\u00a0" in code.source
    out = _output(code)
    assert "whitespace only: False" not in out and out.count("whitespace only: True") == 2, out
    assert "128 is the last UTF-8 byte of U+3000" in out, out
    prose = _cell("03", "115bcdf3").source
    assert "last UTF-8 byte" in prose and "never with a letter" not in prose


# ---- finding 5: lesson 04, what '<' decides --------------------------------------------------------------------


def test_lesson_04_says_when_the_end_marker_wins_a_tie():
    prose = _cell("04", "cell-38").source
    assert "can win ties early" not in prose
    assert "same first symbol" in prose


# ---- finding 6: lesson 02, joining the pieces with spaces --------------------------------------------------------


def test_lesson_02_says_what_joining_with_spaces_loses():
    prose = _cell("02", "bc6cbdc2").source
    assert "U+001C" in prose and "U+001F" in prose
    out = _output(_cell("02", "f7a8b9c0"))
    assert "5 pieces" in out and "3 words" in out, out


# ---- finding 7: lesson 04, which stepper -------------------------------------------------------------------------


def test_lesson_04_plot_names_its_stepper():
    code = _cell("04", "cell-49").source
    assert "of the stepper above" not in code and "real_stepper" in code
