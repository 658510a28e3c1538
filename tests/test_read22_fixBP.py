"""Read 22, fix BP: the checkers of lessons 09 and 10.

tokens_saved let a rewrite cleaned of its invisible characters (or tabs, or Windows line ends) through, and
room_for_answer a system prompt cleaned of them: no case put those characters there. U+200C (zero-width non-joiner),
U+2060 (word joiner), U+200E/U+200F (direction marks) and U+202F (narrow no-break space) could be dropped or made a
space in bytes_per_char, premium, room_for_answer and tokens_saved. premium let NFC on the reference only through.
estimate_cost's hint for a cost rounded up showed an example the rounding did not change, and called a cut-off
"rounded".
"""

from __future__ import annotations

import math
import unicodedata

import pytest

import bpelab
from bpelab.exercises.multilingual_tax import check_bytes_per_char
from bpelab.exercises.practice import check_premium, check_tokens_saved
from bpelab.exercises.token_costs import check_estimate_cost, check_room_for_answer
from tests.shown_solutions import shown_solution


def _flat(text: str) -> str:
    return " ".join(text.split())


def _refused(check, fn, capsys) -> str:
    result = check(fn, record=False)
    out = _flat(capsys.readouterr().out)
    assert not result.passed, out
    return out


def _passed(check, fn, capsys) -> None:
    result = check(fn, record=False)
    assert result.passed, capsys.readouterr().out


# ---- finding 1: tokens_saved, the rewrite alone cleaned ---------------------------------------------------------------

_REWRITE_CLEANINGS = {
    "U+00A0": lambda t: t.replace("\u00a0", " "),
    "U+FE0F": lambda t: t.replace("\ufe0f", ""),
    "U+200B": lambda t: t.replace("\u200b", ""),
    "\\r\\n": lambda t: t.replace("\r\n", "\n"),
    "U+200D": lambda t: t.replace("\u200d", ""),
    "U+FEFF": lambda t: t.lstrip("\ufeff"),
    "tab": lambda t: t.replace("\t", " "),
    "U+00AD": lambda t: t.replace("\u00ad", ""),
    "U+200C": lambda t: t.replace("\u200c", ""),
}


@pytest.mark.parametrize("named", sorted(_REWRITE_CLEANINGS))
def test_tokens_saved_rewrite_cleaned_alone_is_refused_and_named(named, capsys):
    clean = _REWRITE_CLEANINGS[named]

    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(clean(rewrite)))
        return (before - after) / before

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert named in out, out
    assert "rewrite" in out, out


def test_tokens_saved_shown_solution_still_passes(capsys):
    _passed(check_tokens_saved, shown_solution("10", "697bbab0", "tokens_saved"), capsys)


# ---- finding 2: room_for_answer, the system prompt alone cleaned ------------------------------------------------------

_SYSTEM_CLEANINGS = {
    "U+00A0": lambda t: t.replace("\u00a0", " "),
    "U+00AD": lambda t: t.replace("\u00ad", ""),
    "U+FE0F": lambda t: t.replace("\ufe0f", ""),
    "U+200C": lambda t: t.replace("\u200c", ""),
    "U+2060": lambda t: t.replace("\u2060", ""),
    "U+200E": lambda t: t.replace("\u200e", ""),
    "U+200F": lambda t: t.replace("\u200f", ""),
    "U+202F": lambda t: t.replace("\u202f", " "),
}


@pytest.mark.parametrize("named", sorted(_SYSTEM_CLEANINGS))
@pytest.mark.parametrize("where", ["system", "user", "both"])
def test_room_for_answer_cleaned_prompt_is_refused_and_named(named, where, capsys):
    clean = _SYSTEM_CLEANINGS[named]

    def room_for_answer(system, user, context_window, count_tokens):
        if where in ("system", "both"):
            system = clean(system)
        if where in ("user", "both"):
            user = clean(user)
        return max(0, context_window - count_tokens(system) - count_tokens(user))

    out = _refused(check_room_for_answer, room_for_answer, capsys)
    assert named in out, out


def test_room_for_answer_shown_solution_still_passes(capsys):
    _passed(check_room_for_answer, shown_solution("10", "e1467e07", "room_for_answer"), capsys)


# ---- finding 3: U+200C, U+2060, U+200E, U+200F and U+202F in lesson 09 and tokens_saved -------------------------------

_NEW_INVISIBLES = {name: _SYSTEM_CLEANINGS[name] for name in ("U+200C", "U+2060", "U+200E", "U+200F", "U+202F")}


@pytest.mark.parametrize("named", sorted(_NEW_INVISIBLES))
def test_bytes_per_char_cleaned_is_refused_and_named(named, capsys):
    clean = _NEW_INVISIBLES[named]

    def bytes_per_char(texts):
        texts = [clean(t) for t in texts]
        chars = sum(len(t) for t in texts)
        return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0

    out = _refused(check_bytes_per_char, bytes_per_char, capsys)
    assert named in out, out


@pytest.mark.parametrize("named", sorted(_NEW_INVISIBLES))
def test_premium_cleaned_is_refused_and_named(named, capsys):
    clean = _NEW_INVISIBLES[named]

    def premium(texts_by_language, encode, language, reference="en"):
        def total(code):
            return sum(len(encode(clean(t))) for t in texts_by_language[code])

        return total(language) / total(reference)

    out = _refused(check_premium, premium, capsys)
    assert named in out, out


@pytest.mark.parametrize("named", sorted(_NEW_INVISIBLES))
def test_tokens_saved_both_cleaned_is_refused_and_named(named, capsys):
    clean = _NEW_INVISIBLES[named]

    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(clean(original)))
        after = len(encoding.encode_ordinary(clean(rewrite)))
        return (before - after) / before

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert named in out, out


def test_lesson_09_shown_solutions_still_pass(capsys):
    _passed(check_bytes_per_char, shown_solution("09", "2af417a5", "bytes_per_char"), capsys)
    _passed(check_premium, shown_solution("09", "f2f02465", "premium"), capsys)


# ---- finding 4: premium, NFC on the reference only --------------------------------------------------------------------


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_premium_normalising_the_reference_only_is_refused_and_named(form, capsys):
    def premium(texts_by_language, encode, language, reference="en"):
        ours = sum(len(encode(t)) for t in texts_by_language[language])
        theirs = sum(len(encode(unicodedata.normalize(form, t))) for t in texts_by_language[reference])
        return ours / theirs

    out = _refused(check_premium, premium, capsys)
    assert "normalize" in out and "reference" in out, out


# ---- finding 5: estimate_cost, rounded up or cut off at 6 places ------------------------------------------------------


def test_ceil_at_six_places_hint_shows_a_cost_it_changes(capsys):
    def estimate_cost(input_tokens, output_tokens, input_price, output_price):
        return math.ceil((input_tokens * input_price + output_tokens * output_price) / 1_000_000 * 1e6) / 1e6

    out = _refused(check_estimate_cost, estimate_cost, capsys)
    assert "rounded UP to 6 decimal places" in out, out
    assert "$0.004 becomes 0.004" not in out, out
    _assert_example_changed(out)


def _assert_example_changed(out: str) -> None:
    import re

    match = re.search(r"\$([0-9.]+) becomes ([0-9.]+)", out)
    assert match, out
    before, after = match.groups()
    assert float(before) != float(after), out
    assert "e-" not in before + after, out


def test_floor_at_six_places_is_named_cut_off(capsys):
    def estimate_cost(input_tokens, output_tokens, input_price, output_price):
        return math.floor((input_tokens * input_price + output_tokens * output_price) / 1_000_000 * 1e6) / 1e6

    out = _refused(check_estimate_cost, estimate_cost, capsys)
    assert "cut off" in out and "6 decimal places" in out, out
    assert "rounded to 6" not in out, out
    _assert_example_changed(out)


def test_round_at_six_places_is_not_called_a_cut(capsys):
    def estimate_cost(input_tokens, output_tokens, input_price, output_price):
        return round((input_tokens * input_price + output_tokens * output_price) / 1_000_000, 6)

    out = _refused(check_estimate_cost, estimate_cost, capsys)
    assert "cut off" not in out, out


def test_estimate_cost_shown_solution_still_passes(capsys):
    _passed(check_estimate_cost, shown_solution("10", "a623ba85", "estimate_cost"), capsys)
