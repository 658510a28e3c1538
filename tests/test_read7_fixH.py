"""Wrong answers a seventh fresh reader found the checkers of lessons 09 and 10 accepting, each refused now: a room
for the answer that strips the system prompt, counts it line by line or skips one of only spaces; a premium whose
sentences lose their new lines; a learner's room for the answer that ignores the counting function it is given.
And the shorter-prompt checker no longer calls a longer rewrite "shorter". The lessons' shown solutions still pass."""

from __future__ import annotations

import nbformat
import pytest
import tiktoken

from bpelab.exercises.practice import check_premium, check_room_for_answer
from bpelab.exercises.toy_encoders import encodings_let_go_after


def hint_of(capsys) -> str:
    out = capsys.readouterr().out
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


# ---- lesson 10: room_for_answer, the system prompt ---------------------------------------------------------------


def the_room_solution(system, user, context_window, count_tokens):
    """The lesson's shown solution (cell 22)."""
    return max(0, context_window - count_tokens(system) - count_tokens(user))


def system_stripped(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system.strip()) - count_tokens(user))


def system_rstripped(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system.rstrip()) - count_tokens(user))


def system_line_by_line(system, user, context_window, count_tokens):
    return max(0, context_window - sum(count_tokens(line) for line in system.splitlines()) - count_tokens(user))


def blank_system_skipped(system, user, context_window, count_tokens):
    used = count_tokens(system) if system.strip() else 0
    return max(0, context_window - used - count_tokens(user))


def test_the_new_cases_counts_by_tiktoken():
    """The counts the new cases' notes give, from tiktoken itself (an independent implementation): each mistake
    gives another number there."""
    enc = tiktoken.get_encoding("o200k_base")
    n = lambda text: len(enc.encode_ordinary(text))  # noqa: E731
    assert (n("  Be brief.  "), n("Be brief."), n("What is BPE?")) == (5, 3, 5)
    rules = "Rules:\n- be brief\n- no lists"
    assert (n(rules), sum(n(line) for line in rules.splitlines())) == (9, 8)
    assert n("   ") == 1


@pytest.mark.parametrize("wrong", [system_stripped, system_rstripped])
def test_a_stripped_system_prompt_is_refused(wrong, capsys):
    assert not check_room_for_answer(wrong, record=False).passed
    hint = hint_of(capsys)
    assert "system prompt" in hint and "strip" in hint


def test_a_system_prompt_counted_line_by_line_is_refused(capsys):
    assert not check_room_for_answer(system_line_by_line, record=False).passed
    hint = hint_of(capsys)
    assert "count_tokens(system)" in hint and "lines" in hint


def test_a_system_prompt_of_only_spaces_skipped_is_refused(capsys):
    assert not check_room_for_answer(blank_system_skipped, record=False).passed
    assert "only spaces" in hint_of(capsys)


def test_the_shown_room_solution_passes():
    assert check_room_for_answer(the_room_solution, record=False).passed


def ignores_the_counter_given(system, user, context_window, counter):
    """The parameter is named `counter`, but the notebook's own count_tokens (GPT-4o's) does the counting."""
    enc = tiktoken.get_encoding("o200k_base")
    return max(0, context_window - len(enc.encode_ordinary(system)) - len(enc.encode_ordinary(user)))


def test_a_room_that_ignores_the_counting_function_passed_in_is_named(capsys):
    with encodings_let_go_after("o200k_base"):
        assert not check_room_for_answer(ignores_the_counter_given, record=False).passed
    hint = hint_of(capsys)
    assert "passed in" in hint and "counter" in hint


# ---- lesson 09: premium, new lines -------------------------------------------------------------------------------


def the_premium_solution(texts_by_language, encode, language, reference="en"):
    """The lesson's shown solution (cell 27)."""
    tokens = sum(len(encode(t)) for t in texts_by_language[language])
    reference_tokens = sum(len(encode(t)) for t in texts_by_language[reference])
    return tokens / reference_tokens


def _each(change):
    def wrong(texts_by_language, encode, language, reference="en"):
        changed = {code: [change(t) for t in texts] for code, texts in texts_by_language.items()}
        return the_premium_solution(changed, encode, language, reference)

    return wrong


@pytest.mark.parametrize(
    "wrong",
    [_each(lambda s: s.strip("\n")), _each(lambda s: s.rstrip("\n")), _each(lambda s: s.replace("\n", " "))],
    ids=["strip-newlines", "rstrip-newlines", "newlines-to-spaces"],
)
def test_a_premium_whose_sentences_lose_their_new_lines_is_refused(wrong, capsys):
    assert not check_premium(wrong, record=False).passed
    assert "new line" in hint_of(capsys)


def test_the_shown_premium_solution_passes():
    assert check_premium(the_premium_solution, record=False).passed


def test_the_new_premium_case_counts_by_tiktoken():
    """GPT-4's counts behind the new case's note: 3 + 3 tokens with the new lines, 3 + 2 with them made spaces."""
    enc = tiktoken.get_encoding("cl100k_base")
    n = lambda text: len(enc.encode_ordinary(text))  # noqa: E731
    assert (n("the cafe"), n("le cafe\n"), n("la\nfee"), n("le cafe "), n("la fee")) == (2, 3, 3, 3, 2)


def test_a_premium_rounded_to_2_places_is_refused_and_exercise_2_says_so(capsys):
    """Exercise 1 accepts 2 places; exercise 2 does not, and its text says so (cell 24 of lesson 09)."""
    rounded = lambda *args, **kwargs: round(the_premium_solution(*args, **kwargs), 2)  # noqa: E731
    assert not check_premium(rounded, record=False).passed
    assert "rounded to 2 decimal places" in hint_of(capsys)
    nb = nbformat.read("notebooks/09_multilingual_tax.ipynb", as_version=4)
    exercise_2 = next(c.source for c in nb.cells if c.get("id") == "17eccf39")
    assert "accepts no rounded premium (not even to 2 places" in exercise_2


# ---- lesson 13: a text that contains every text of UNLIKE ------------------------------------------------------


def test_lesson_13_says_what_to_do_when_the_text_contains_both_unlike_texts():
    from bpelab.course.corpora import read_corpus

    nb = nbformat.read("notebooks/13_your_tokenizer_for_real.ipynb", as_version=4)
    source = next(c.source for c in nb.cells if c.get("id") == "6521e8e8")
    default = 'TRAIN = read_corpus("english_train") + read_corpus("english_more")'
    assert default in source
    source = source.replace(default, 'TRAIN = read_corpus("code") + read_corpus("english_heldout")')
    with pytest.raises(ValueError, match=r"contains every text of UNLIKE .*read_corpus\(\"parallel:ja\"\)"):
        exec(source, {"read_corpus": read_corpus})
