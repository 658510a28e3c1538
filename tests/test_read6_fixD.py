"""Wrong answers a sixth fresh reader found the checkers of lesson 09 accepting, each refused now: a bytes-per-
character ratio that counts each distinct text once (set(texts), dict.fromkeys), one that skips texts of only
spaces, and a premium whose reference, when none is given, is the dict's first language instead of English. The
lesson's shown solutions still pass."""

from __future__ import annotations

import pytest

from bpelab.exercises.practice import check_bytes_per_char, check_premium


def hint_of(capsys) -> str:
    out = capsys.readouterr().out
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


# ---- lesson 09: bytes_per_char ---------------------------------------------------------------------------------


def the_solution(texts):
    """The lesson's shown solution (cell 15)."""
    chars = sum(len(t) for t in texts)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    return n_bytes / chars if chars else 0.0


def each_text_once_by_set(texts):
    return the_solution(list(set(texts)))


def each_text_once_in_order(texts):
    return the_solution(list(dict.fromkeys(texts)))


def blank_texts_skipped(texts):
    return the_solution([t for t in texts if t.strip()])


def test_the_known_answers_by_hand():
    """["日本", "日本", "ab"]: 3 + 3 bytes twice and 2 ASCII = 14 bytes / 6 characters; ["日本", "   "]: 9 / 5."""
    assert the_solution(["日本", "日本", "ab"]) == 14 / 6
    assert each_text_once_by_set(["日本", "日本", "ab"]) == 2.0
    assert the_solution(["日本", "   "]) == 9 / 5
    assert blank_texts_skipped(["日本", "   "]) == 3.0


@pytest.mark.parametrize("wrong", [each_text_once_by_set, each_text_once_in_order])
def test_a_ratio_counting_each_distinct_text_once_is_refused(wrong, capsys):
    assert not check_bytes_per_char(wrong, record=False).passed
    assert "occurs twice" in hint_of(capsys)


def test_a_ratio_skipping_texts_of_only_spaces_is_refused(capsys):
    assert not check_bytes_per_char(blank_texts_skipped, record=False).passed
    assert "only spaces" in hint_of(capsys)


def test_the_shown_bytes_per_char_solution_passes():
    assert check_bytes_per_char(the_solution, record=False).passed


# ---- lesson 09: premium ----------------------------------------------------------------------------------------


def the_premium_solution(texts_by_language, encode, language, reference="en"):
    """The lesson's shown solution (cell 27)."""
    tokens = sum(len(encode(t)) for t in texts_by_language[language])
    reference_tokens = sum(len(encode(t)) for t in texts_by_language[reference])
    return tokens / reference_tokens


def premium_against_the_first_language(texts_by_language, encode, language, reference=None):
    reference = reference or next(iter(texts_by_language))
    return the_premium_solution(texts_by_language, encode, language, reference)


def test_a_premium_against_the_dicts_first_language_by_default_is_refused(capsys):
    assert not check_premium(premium_against_the_first_language, record=False).passed
    assert "first language" in hint_of(capsys)


def test_the_shown_premium_solution_passes():
    assert check_premium(the_premium_solution, record=False).passed
