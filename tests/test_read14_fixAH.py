"""Read 14, fix AH: lesson 10's exercise 3 measures a rewrite (``tokens_saved``) and leaves its meaning to the learner.

The old checker searched a rewrite for keywords: it passed a keyword list, "two sentences, not three" and the lesson's
own contradictory prompt, and failed right rewrites in other words. Now the checked part is a function, strictly
checked: each wrong measure below is written as a learner would write it, refused, and named by its hint.
"""

from __future__ import annotations

import math
import re

import nbformat
import pytest
import tiktoken

import bpelab
from bpelab.course.course_map import LESSONS
from bpelab.course.grading import count_cases
from bpelab.course.lesson_exercises import find_exercises
from bpelab.exercises import EXERCISES
from bpelab.exercises.practice import CHECKLIST, SHORT_PROMPT, WORDY_PROMPT, check_tokens_saved, tokens_saved
from tests.shown_solutions import shown_solution

LESSON = "notebooks/10_tokens_in_practice.ipynb"


def _right(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    before = len(encoding.encode_ordinary(original))
    after = len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def _refused(fn, capsys):
    result = check_tokens_saved(fn, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


# ---- the cases: every written answer is tiktoken's own count, taken here again ------------------------------------


def test_every_case_answer_is_tiktokens_count():
    for case in EXERCISES["tokens_saved"].cases():
        original, rewrite, name = case.args
        encoding = tiktoken.get_encoding(name)
        before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
        assert case.expected == (before - after) / before, case.note
        assert f"{before} → {after} tokens" in case.note, case.note


def test_the_cases_tell_the_two_encodings_apart_and_hold_the_traps():
    cases = EXERCISES["tokens_saved"].cases()
    o200k, cl100k = tiktoken.get_encoding("o200k_base"), tiktoken.get_encoding("cl100k_base")
    differ = [c for c in cases if len(o200k.encode_ordinary(c.args[0])) != len(cl100k.encode_ordinary(c.args[0]))]
    assert {c.args[2] for c in differ} == {"o200k_base", "cl100k_base"}
    assert any("<|endoftext|>" in c.args[0] for c in cases) and any("<|endoftext|>" in c.args[1] for c in cases)
    assert any(c.expected < 0 for c in cases) and any(c.args[1] == "" for c in cases)


# ---- right answers pass -------------------------------------------------------------------------------------------


def test_the_shown_solution_and_other_right_answers_pass(capsys):
    shown = shown_solution("10", "697bbab0", "tokens_saved")
    assert check_tokens_saved(shown, record=False).passed, capsys.readouterr().out

    def kept_subtracted(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        return 1 - len(encoding.encode_ordinary(rewrite)) / len(encoding.encode_ordinary(original))

    def special_text_allowed_as_text(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode(original, disallowed_special=()))
        after = len(encoding.encode(rewrite, disallowed_special=()))
        return (before - after) / before

    for right in (_right, kept_subtracted, special_text_allowed_as_text):
        assert check_tokens_saved(right, record=False).passed, capsys.readouterr().out


# ---- each wrong answer, refused with its own hint -----------------------------------------------------------------


def words(original, rewrite, encoding_name):
    return (len(original.split()) - len(rewrite.split())) / len(original.split())


def characters(original, rewrite, encoding_name):
    return (len(original) - len(rewrite)) / len(original)


def utf8_bytes(original, rewrite, encoding_name):
    return (len(original.encode("utf-8")) - len(rewrite.encode("utf-8"))) / len(original.encode("utf-8"))


def always_gpt4o(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding("o200k_base")
    before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def always_gpt4(original, rewrite, encoding_name):
    encoding = tiktoken.get_encoding("cl100k_base")
    before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def with_encode(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    before, after = len(encoding.encode(original)), len(encoding.encode(rewrite))
    return (before - after) / before


def specials_allowed(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    before = len(encoding.encode(original, allowed_special="all"))
    after = len(encoding.encode(rewrite, allowed_special="all"))
    return (before - after) / before


def _counts(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    return len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))


def against_rewrite(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return (before - after) / after


def percent(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return (before - after) / before * 100


def rounded_percent(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return round(100 * (before - after) / before)


def integer_division(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return (before - after) // before


def rounded(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return round((before - after) / before, 2)


def clipped(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return max(0, (before - after) / before)


def clipped_by_if(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    saved = (before - after) / before
    if saved < 0:
        return 0.0
    return saved


def absolute(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return abs(before - after) / before


def empty_saves_nothing(original, rewrite, encoding_name):
    if not rewrite:
        return 0.0
    before, after = _counts(original, rewrite, encoding_name)
    return (before - after) / before


def empty_refused(original, rewrite, encoding_name):
    if not rewrite.strip():
        raise ValueError("the rewrite is empty")
    before, after = _counts(original, rewrite, encoding_name)
    return (before - after) / before


def share_kept(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return after / before


def tokens_not_share(original, rewrite, encoding_name):
    before, after = _counts(original, rewrite, encoding_name)
    return before - after


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (words, "counts words, not tokens"),
        (characters, "counts characters, not tokens"),
        (utf8_bytes, "counts bytes, not tokens"),
        (always_gpt4o, "you always count with o200k_base"),
        (always_gpt4, "you always count with cl100k_base"),
        (with_encode, "encode() refuses text that spells a special token"),
        (specials_allowed, "turns the typed '<|endoftext|>' into ONE special token"),
        (against_rewrite, "you measured the saving against the rewrite's count"),
        (percent, "not a percentage (25): don't multiply by 100"),
        (rounded_percent, "not a percentage (25): don't multiply by 100"),
        (integer_division, "// is integer division"),
        (rounded, "the exact share rounded to 2 decimal places: don't round"),
        (clipped, "saves a negative share: return it as it is (no max(0, ...))"),
        (clipped_by_if, "the saving is negative, not 0 (don't clip it)"),
        (absolute, "don't take abs()"),
        (empty_saves_nothing, "an empty rewrite has 0 tokens: it saves ALL of the original's, 1.0"),
        (empty_refused, "an empty rewrite is a rewrite too (ValueError here)"),
        (share_kept, "that is the share the rewrite KEEPS"),
        (tokens_not_share, "that is the number of tokens saved"),
    ],
    ids=lambda value: getattr(value, "__name__", "hint"),
)
def test_each_wrong_measure_is_refused_with_its_hint(wrong, hint, capsys):
    assert hint in _refused(wrong, capsys)


def test_a_check_stopped_while_an_encoding_loads_names_the_load():
    """tiktoken.get_encoding reads a whole vocabulary the first time: the exercise's own clock leaves room for it
    (tests/test_exercise_clock.py holds that a slow first call passes), and the hint of a call stopped all the same
    says that a load takes seconds, not half a minute, and how to load once."""
    hint = EXERCISES["tokens_saved"].runaway_hint
    assert "loading one takes a few seconds at most" in hint and "bpelab.load_encoding(encoding_name)" in hint


def test_a_stub_is_not_yet(capsys):
    def tokens_saved(original: str, rewrite: str, encoding_name: str) -> float:
        # your code here
        ...

    assert check_tokens_saved(tokens_saved, record=False).status == "not yet"


def test_the_course_function_itself_is_refused(capsys):
    assert not check_tokens_saved(tokens_saved, record=False).passed


# ---- the lesson: a measured example, a checklist, and no check on meaning -----------------------------------------


def _lesson():
    return nbformat.read(LESSON, as_version=4)


def _section_9(notebook):
    sources = [cell.source for cell in notebook.cells]
    start = next(i for i, s in enumerate(sources) if "\n## 9. " in s)
    end = next(i for i, s in enumerate(sources) if s.startswith("## 10. "))
    return notebook.cells[start:end]


def test_the_lesson_checks_the_measure_and_leaves_the_meaning_to_the_learner():
    notebook = _lesson()
    exercises = {e.name: e for e in find_exercises(notebook, LESSON)}
    assert list(exercises) == ["estimate_cost", "room_for_answer", "tokens_saved"]
    exercise = exercises["tokens_saved"]
    assert exercise.names == ("tokens_saved",) and exercise.check == exercise.stub + 1
    assert exercise.solution == exercise.check + 1
    section = "\n".join(cell.source for cell in _section_9(notebook))
    for gone in ("MUST_KEEP", "mentions(", "check_shorter_prompt", "KEYWORDS_ONLY"):
        assert gone not in section
    for item in CHECKLIST:
        assert item in section or "CHECKLIST" in section
    assert "count_tokens(SHORT_PROMPT)" in section  # the measured example, computed
    assert "max. 3 sent." in section  # an abbreviation that costs more, computed
    assert re.search(r"cannot (judge|tell|decide)", section)


def test_the_lessons_example_saving_is_computed_in_a_cell():
    cells = _section_9(_lesson())
    outputs = "".join(
        output.get("text", "") for cell in cells if cell.cell_type == "code" for output in cell.get("outputs", [])
    )
    o200k = tiktoken.get_encoding("o200k_base")
    before, after = len(o200k.encode_ordinary(WORDY_PROMPT)), len(o200k.encode_ordinary(SHORT_PROMPT))
    assert f"{before} → {after} tokens" in outputs
    assert f"{(before - after) / before:.0%}" in outputs
    assert len(o200k.encode_ordinary("max. 3 sent.")) > len(o200k.encode_ordinary("in at most three sentences"))


def test_objectives_recap_and_course_map_name_the_new_exercise():
    notebook = _lesson()
    assert "measure what a shorter prompt saves" in notebook.cells[0].source
    assert "judge" in notebook.cells[0].source
    recap = next(cell.source for cell in notebook.cells if cell.source.startswith("## Recap"))
    assert "(before − after) / before" in recap
    lesson10 = next(lesson for lesson in LESSONS if lesson.number == "10")
    assert lesson10.checkers[-1] == ("check_tokens_saved", "tokens_saved")


def test_the_teachers_export_holds_every_case_visible():
    assert count_cases("check_tokens_saved") == (33, 0)  # fix AM +5, fix AT +4, fix BC +4, fix BP +8
    assert count_cases("check_shorter_prompt") == (0, 0)
    assert math.isclose(tokens_saved(WORDY_PROMPT, SHORT_PROMPT, "o200k_base"), (192 - 27) / 192)
