"""Read 19, fix BC: lessons 09, 10 and 13.

Lesson 10's tokens_saved says "count each text as it is, every character included", yet a learner who dropped the
zero-width joiner, the byte order mark, a variation selector or a soft hyphen, made a no-break space a space, or
stripped the rewrite's new line or expanded its tabs passed every check. Lesson 09's bytes_per_char and premium and
lesson 10's room_for_answer let some of the same cleanings through. Each wrong answer below is written as a learner
would write it; the checker must refuse it and its hint must name the cleaning. Then a few realistic mistakes that got
only the general hint, and the prose of lesson 10 (a space before a word) and lesson 13 (the � in the longest tokens).
"""

from __future__ import annotations

import math
import unicodedata

import nbformat
import pytest

import bpelab
from bpelab.exercises.practice import (
    check_bytes_per_char,
    check_estimate_cost,
    check_premium,
    check_room_for_answer,
    check_tokens_saved,
)
from tests.shown_solutions import lesson_path, shown_solution


def _refused(check, fn, capsys) -> str:
    result = check(fn, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


def _passed(check, fn, capsys) -> None:
    result = check(fn, record=False)
    out = capsys.readouterr().out
    assert result.passed, out


# ---- lesson 10, tokens_saved: every character counts --------------------------------------------------------------


def _saved_after(change_original, change_rewrite):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(change_original(original)))
        after = len(encoding.encode_ordinary(change_rewrite(rewrite)))
        return (before - after) / before

    return tokens_saved


def _same(text):
    return text


def _both(change):
    return _saved_after(change, change)


TOKENS_SAVED_CLEANINGS = [
    (_both(lambda t: t.replace("\u200d", "")), "U+200D"),
    (_both(lambda t: t.replace("\ufeff", "")), "U+FEFF"),
    (_both(lambda t: t.lstrip("\ufeff")), "U+FEFF"),
    (_both(lambda t: t.replace("\u00a0", " ")), "U+00A0"),
    (_both(lambda t: t.replace("\ufe0f", "")), "U+FE0F"),
    (_both(lambda t: t.replace("\u00ad", "")), "U+00AD"),
    (_saved_after(_same, lambda t: t.rstrip("\n")), "rstrip('\\n')"),
    (_saved_after(_same, lambda t: t.expandtabs()), "expandtabs"),
    (_both(str.expandtabs), "expandtabs"),
    (_both(str.lower), ".lower()"),
    (_both(str.casefold), ".casefold()"),
]


@pytest.mark.parametrize(("wrong", "named"), TOKENS_SAVED_CLEANINGS)
def test_tokens_saved_refuses_each_cleaning_and_names_it(wrong, named, capsys):
    out = _refused(check_tokens_saved, wrong, capsys)
    assert named in out, out


def test_tokens_saved_refuses_the_sign_flipped(capsys):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(rewrite))
        return (after - before) / before

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert "sign" in out and "(before - after) / before" in out, out


def test_tokens_saved_shown_solution_still_passes(capsys):
    _passed(check_tokens_saved, shown_solution("10", "697bbab0", "tokens_saved"), capsys)


# ---- lesson 09, bytes_per_char ------------------------------------------------------------------------------------


def _ratio_after(change):
    def bytes_per_char(texts):
        texts = [change(t) for t in texts]
        chars = sum(len(t) for t in texts)
        return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0

    return bytes_per_char


BYTES_PER_CHAR_CLEANINGS = [
    (_ratio_after(lambda t: t.replace("\ufeff", "")), "U+FEFF"),
    (_ratio_after(lambda t: t.replace("\u200b", "")), "U+200B"),
    (_ratio_after(lambda t: t.replace("\ufe0f", "")), "U+FE0F"),
    (_ratio_after(lambda t: t.replace("\u00ad", "")), "U+00AD"),
    (_ratio_after(lambda t: t.replace("\u00a0", " ")), "U+00A0"),
    (_ratio_after(lambda t: unicodedata.normalize("NFC", t)), "NFC"),
]


@pytest.mark.parametrize(("wrong", "named"), BYTES_PER_CHAR_CLEANINGS)
def test_bytes_per_char_refuses_each_cleaning_and_names_it(wrong, named, capsys):
    out = _refused(check_bytes_per_char, wrong, capsys)
    assert named in out, out


@pytest.mark.parametrize("separator", [" ", "\n"])
def test_bytes_per_char_names_texts_joined(separator, capsys):
    def bytes_per_char(texts):
        text = separator.join(texts)
        return len(text.encode("utf-8")) / len(text) if text else 0.0

    out = _refused(check_bytes_per_char, bytes_per_char, capsys)
    assert "join" in out, out


def test_bytes_per_char_names_utf16_code_units(capsys):
    def bytes_per_char(texts):
        n_bytes = sum(len(t.encode("utf-8")) for t in texts)
        chars = sum(len(t.encode("utf-16-le")) // 2 for t in texts)
        return n_bytes / chars if chars else 0.0

    out = _refused(check_bytes_per_char, bytes_per_char, capsys)
    assert "UTF-16" in out and "character" in out, out


def test_bytes_per_char_shown_solution_still_passes(capsys):
    _passed(check_bytes_per_char, shown_solution("09", "2af417a5", "bytes_per_char"), capsys)


# ---- lesson 09, premium -------------------------------------------------------------------------------------------


def _premium_of(count):
    def premium(texts_by_language, encode, language, reference="en"):
        return sum(count(t, encode) for t in texts_by_language[language]) / sum(
            count(t, encode) for t in texts_by_language[reference]
        )

    return premium


def _tokens_after(change):
    return _premium_of(lambda t, encode: len(encode(change(t))))


PREMIUM_MISTAKES = [
    (_tokens_after(lambda t: t.replace("\ufeff", "")), "U+FEFF"),
    (_tokens_after(lambda t: t.replace("\u200b", "")), "U+200B"),
    (_tokens_after(lambda t: t.replace("\ufe0f", "")), "U+FE0F"),
    (_tokens_after(lambda t: t.replace("\u00ad", "")), "U+00AD"),
    (_tokens_after(lambda t: t.replace("\u00a0", " ")), "U+00A0"),
    (_premium_of(lambda t, encode: len(t.split())), "words"),
    (_premium_of(lambda t, encode: len(t.encode("utf-8"))), "bytes"),
    (_premium_of(lambda t, encode: len(set(encode(t)))), "set("),
]


@pytest.mark.parametrize(("wrong", "named"), PREMIUM_MISTAKES)
def test_premium_refuses_each_mistake_and_names_it(wrong, named, capsys):
    out = _refused(check_premium, wrong, capsys)
    assert named in out, out


def test_premium_names_premium_minus_one(capsys):
    def premium(texts_by_language, encode, language, reference="en"):
        a = sum(len(encode(t)) for t in texts_by_language[language])
        b = sum(len(encode(t)) for t in texts_by_language[reference])
        return a / b - 1

    out = _refused(check_premium, premium, capsys)
    assert "- 1" in out, out


def test_premium_shown_solution_still_passes(capsys):
    _passed(check_premium, shown_solution("09", "f2f02465", "premium"), capsys)


# ---- lesson 10, room_for_answer -----------------------------------------------------------------------------------


def _room_after(change_system, change_user):
    def room_for_answer(system, user, context_window, count_tokens):
        return max(0, context_window - count_tokens(change_system(system)) - count_tokens(change_user(user)))

    return room_for_answer


ROOM_MISTAKES = [
    (_room_after(_same, lambda t: t.replace("\u00a0", " ")), "U+00A0"),
    (_room_after(lambda t: t.replace("\u00a0", " "), lambda t: t.replace("\u00a0", " ")), "U+00A0"),
    (_room_after(lambda t: t.replace("\ufe0f", ""), lambda t: t.replace("\ufe0f", "")), "U+FE0F"),
    (_room_after(_same, lambda t: t.replace("\u00ad", "")), "U+00AD"),
    (_room_after(_same, lambda t: t.replace("\u200c", "")), "U+200C"),
    (_room_after(_same, str.strip), "user's message as it is, don't strip"),
    (_room_after(_same, str.rstrip), "user's message as it is, don't strip"),
]


@pytest.mark.parametrize(("wrong", "named"), ROOM_MISTAKES)
def test_room_for_answer_refuses_each_mistake_and_names_it(wrong, named, capsys):
    out = _refused(check_room_for_answer, wrong, capsys)
    assert named in out, out


def test_room_for_answer_shown_solution_still_passes(capsys):
    _passed(check_room_for_answer, shown_solution("10", "e1467e07", "room_for_answer"), capsys)


# ---- lesson 10, estimate_cost: a rounding up is named so ----------------------------------------------------------


def test_estimate_cost_names_rounding_up(capsys):
    def estimate_cost(input_tokens, output_tokens, input_price, output_price):
        cost = (input_tokens * input_price + output_tokens * output_price) / 1_000_000
        return math.ceil(cost * 100) / 100

    out = _refused(check_estimate_cost, estimate_cost, capsys)
    assert "ceil" in out and "UP" in out, out


def test_estimate_cost_shown_solution_still_passes(capsys):
    _passed(check_estimate_cost, shown_solution("10", "a623ba85", "estimate_cost"), capsys)


# ---- the prose ------------------------------------------------------------------------------------------------------


def _cell(lesson: str, cell_id: str) -> str:
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id).source


def test_lesson_10_scopes_the_space_before_a_word():
    text = _cell("10", "a1bd6862")
    assert "**A space before a word is part of the word's token.**" not in text
    assert "Amharic" in text and "English" in text


def test_lesson_10_counts_the_spaces_that_stand_alone():
    cells = nbformat.read(lesson_path("10"), as_version=4).cells
    assert any(c.cell_type == "code" and "load_parallel" in c.source and "spaces_alone" in c.source for c in cells)


def test_lesson_13_explains_the_replacement_character():
    text = _cell("13", "8ceffbf2")
    assert "U+FFFD" in text and "partway through a character" in text
