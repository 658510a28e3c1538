"""Wrong answers a fourth fresh reader wrote for the checkers of lessons 09 and 10, each refused with the hint that
names its mistake: the premium of normalised or stripped sentences, of sentences cut off by zip() or averaged per
sentence, or read from the course's own token_tax; the room for an answer counted line by line, or negative when
there is no system prompt, or None; a bytes-per-character ratio rounded up; and rewrites of lesson 10's prompt that
ask for a summary in other words."""

from __future__ import annotations

import math
import unicodedata
from types import SimpleNamespace

import pytest

from bpelab.analysis.tax import premium_table, token_tax
from bpelab.exercises.practice import (
    check_bytes_per_char,
    check_premium,
    check_room_for_answer,
)
from bpelab.exercises.toy_encoders import cl100k_encode, encodings_let_go_after


def hint_of(capsys) -> str:
    out = capsys.readouterr().out
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


# ---- lesson 09: premium --------------------------------------------------------------------------------------


def _total(texts, encode):
    return sum(len(encode(t)) for t in texts)


def premium_of_nfc(texts_by_language, encode, language, reference="en"):
    """Each sentence NFC-normalised before it is encoded."""
    nfc = [unicodedata.normalize("NFC", t) for t in texts_by_language[language]]
    return _total(nfc, encode) / _total([unicodedata.normalize("NFC", t) for t in texts_by_language[reference]], encode)


def premium_of_stripped(texts_by_language, encode, language, reference="en"):
    """Each sentence stripped of the spaces at its ends before it is encoded."""
    return _total([t.strip() for t in texts_by_language[language]], encode) / _total(
        [t.strip() for t in texts_by_language[reference]], encode
    )


def premium_zipped(texts_by_language, encode, language, reference="en"):
    """zip() pairs the sentences, so a language with more sentences than the reference loses the extra ones."""
    pairs = list(zip(texts_by_language[language], texts_by_language[reference]))
    return sum(len(encode(a)) for a, _ in pairs) / sum(len(encode(b)) for _, b in pairs)


def premium_of_means(texts_by_language, encode, language, reference="en"):
    """The ratio of the MEAN tokens per sentence."""
    mean = lambda texts: _total(texts, encode) / len(texts)  # noqa: E731
    return mean(texts_by_language[language]) / mean(texts_by_language[reference])


def premium_from_token_tax(texts_by_language, encode, language, reference="en"):
    """The lesson's own token_tax (imported in lesson 09's first cell) does all the work."""
    tax = token_tax(texts_by_language, {"t": SimpleNamespace(encode=encode)}, reference=reference)
    return float(tax.set_index("language").loc[language, "premium"])


def premium_from_premium_table(texts_by_language, encode, language, reference="en"):
    grid = premium_table(token_tax(texts_by_language, {"t": SimpleNamespace(encode=encode)}, reference=reference))
    return float(grid.loc[language, "t"])


def test_the_reviewers_evidence_tells_the_three_apart():
    """cl100k on the reviewer's texts: exact 4.5, NFC 3.5, strip 3.5 (so the checker needs a case for each)."""
    texts = {"en": ["the cafe"], "fr": ["le cafe\u0301 ", "  la fe\u0301e"]}
    with encodings_let_go_after("cl100k_base"):
        exact = _total(texts["fr"], cl100k_encode) / _total(texts["en"], cl100k_encode)
        assert exact == 4.5
        assert premium_of_nfc(texts, cl100k_encode, "fr") == 3.5
        assert premium_of_stripped(texts, cl100k_encode, "fr") == 3.5


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (premium_of_nfc, "unicodedata.normalize"),
        (premium_of_stripped, "strip()"),
        (premium_zipped, "zip()"),
        (premium_of_means, "mean"),
    ],
    ids=["NFC", "strip", "zip", "mean per sentence"],
)
def test_premium_wrong_answers_are_refused_with_their_hint(capsys, wrong, hint):
    result = check_premium(wrong)
    assert not result.passed
    assert hint in hint_of(capsys)


@pytest.mark.parametrize("course", [premium_from_token_tax, premium_from_premium_table], ids=["token_tax", "table"])
def test_premium_from_the_course_is_refused(capsys, course):
    result = check_premium(course)
    assert not result.passed
    assert "course's" in capsys.readouterr().out


# ---- lesson 09: bytes_per_char rounded up ---------------------------------------------------------------------


def _to_two_places(way):
    """The ratio cut to 2 places with ``way`` (math.ceil or math.floor) instead of being returned exact."""

    def answer(texts):
        chars = sum(len(t) for t in texts)
        return way(sum(len(t.encode("utf-8")) for t in texts) * 100 / chars) / 100 if chars else 0.0

    return answer


def test_bytes_per_char_rounded_up_is_named_as_ceil(capsys):
    result = check_bytes_per_char(_to_two_places(math.ceil))
    assert not result.passed
    hint = hint_of(capsys)
    assert "math.ceil" in hint and "floor" not in hint


def test_bytes_per_char_cut_down_is_still_named_as_floor(capsys):
    result = check_bytes_per_char(_to_two_places(math.floor))
    assert not result.passed
    assert "math.floor" in hint_of(capsys)


# ---- lesson 10: room_for_answer -------------------------------------------------------------------------------


def room_line_by_line(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system) - sum(count_tokens(line) for line in user.split("\n")))


def room_negative_without_system(system, user, context_window, count_tokens):
    if system:
        return max(0, context_window - count_tokens(system) - count_tokens(user))
    return context_window - count_tokens(user)


def room_or_none(system, user, context_window, count_tokens):
    room = context_window - count_tokens(system) - count_tokens(user)
    return room if room > 0 else None


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (room_line_by_line, "line"),
        (room_negative_without_system, "never a negative number"),
        (room_or_none, "None is not a number of tokens"),
    ],
    ids=["line by line", "negative without a system prompt", "None"],
)
def test_room_for_answer_wrong_answers_are_refused_with_their_hint(capsys, wrong, hint):
    result = check_room_for_answer(wrong)
    assert not result.passed
    assert hint in hint_of(capsys)


def test_room_or_none_is_not_told_a_path_misses_return(capsys):
    check_room_for_answer(room_or_none)
    assert "without reaching `return`" not in hint_of(capsys)


# ---- the lessons' own code -------------------------------------------------------------------------------------


def _run_cells(lesson: str, cell_ids: list[str]) -> dict:
    """The lesson's code cells with these ids, in this order (one may come twice), in one namespace."""
    import warnings

    import nbformat

    cells = {cell.id: cell.source for cell in nbformat.read(f"notebooks/{lesson}", as_version=4).cells}
    namespace: dict = {}
    with warnings.catch_warnings():  # the lesson's own warning filter stays inside this test
        for cell_id in cell_ids:
            exec(compile(cells[cell_id], f"{lesson} cell {cell_id}", "exec"), namespace)
    return namespace


def test_lesson_10_roles_name_what_the_rule_computes(capsys):
    """$, + and = are no word character, nor is an emoji with its variation selector U+FE0F (a Mark to Unicode,
    but default ignorable) or a lone ZWJ; an accent is still a word character; an empty text keeps the columns."""
    lesson = _run_cells("10_tokens_in_practice.ipynb", ["8227818f", "c186cd74"])
    role, breakdown = lesson["role"], lesson["breakdown"]
    for text in ("$", " +", "=", " ❤️", "\u200d", "\ufe0f"):
        assert role(text.encode(), "a") == "no word character", text
    assert role("\u0301".encode(), "e") == "continues a word"  # a combining accent glued to its letter
    assert role(" é".encode(), "") == "starts a word"
    empty = breakdown("")
    assert list(empty.columns) == ["id", "text", "bytes", "role"] and empty["role"].tolist() == []


def test_lesson_13_gpt4_cell_runs_twice(capsys):
    """The cell that frees GPT-4's vocabulary at its end loads it itself, so running it again is no NameError."""
    lesson = _run_cells(
        "13_your_tokenizer_for_real.ipynb", ["669bf538", "40d6ac48", "digits-in-tokenizers", "digits-in-tokenizers"]
    )
    assert "gpt4" not in lesson and "gpt4_ranks" not in lesson
    assert capsys.readouterr().out.count("4 digits: GPT-4's ids for 905 of 9,000") == 2


def test_lesson_13_parting_tie_compares_whole_pairs_when_both_start_alike(capsys):
    """On ' xc xb' repeated, both trainers' picks start with Ġx: the ids of both tokens show tokenizers' is smaller."""
    from tests.test_lesson13 import run_sections_1_and_2

    last = run_sections_1_and_2(" xc xb" * 30, capsys).strip().splitlines()[-1]
    assert "bpelab takes ('Ġx', 'c'), tokenizers ('Ġx', 'b')" in last
    assert "{('Ġx', 'c'): (257, 67), ('Ġx', 'b'): (257, 66)}" in last
