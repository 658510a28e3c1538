"""Lesson 08, fourteenth fresh read (fixAI): hints of the search and count_unused checkers that named the wrong bug
(a goal scaled by 0.9 a second time told it ignores its text, a rounded goal told to trace its loop, a helper on
text[:5000] named 2,000, a hint quoting another check's answer than the one shown, a right but slow count_unused
told it loops). Each wrong answer is written as the learner would; each right one is the lesson's shown solution."""

from __future__ import annotations

import time

import pytest

from bpelab.byte_level import BPETokenizer
from bpelab.exercises import compression
from bpelab.exercises.cases import Attempt
from bpelab.exercises.compression import check_count_unused, check_smallest_vocab_size
from bpelab.exercises.samples import PARAGRAPH, made_up_words
from tests.shown_solutions import shown_solution

bytes_per_token = shown_solution("08", "685f61b7", "bytes_per_token")


def _hint(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   hint:"))


def _small_english_bpe() -> BPETokenizer:
    """127 sizes: the paragraph and 150 made-up words, trained until no pair occurs twice."""
    return BPETokenizer().train(PARAGRAPH + made_up_words(), 382, pattern="cl100k")


def _check_search(search, capsys) -> tuple[bool, str]:
    passed = check_smallest_vocab_size(
        search, _small_english_bpe(), PARAGRAPH, production="cl100k_base", within=0.6, record=False
    ).passed
    return passed, capsys.readouterr().out


def _search(comparison: str, helper=bytes_per_token, before: str = ""):
    """The lesson's binary search, with the learner's own comparison (and lines before the loop)."""
    namespace = {"bytes_per_token": helper, "math": __import__("math")}
    exec(
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        + before
        + "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        f"        if {comparison}:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    return namespace["my_smallest_vocab_size"]


MEASURE = "bytes_per_token(tokenizer.truncated(middle), text)"


def test_the_lesson_s_search_passes(capsys):
    search = shown_solution("08", "b1601561", "my_smallest_vocab_size", bytes_per_token=bytes_per_token)
    passed, out = _check_search(search, capsys)
    assert passed, out


# ---- finding 1: the 0.9 applied twice ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comparison", "before", "way"),
    [
        (f"{MEASURE} >= 0.9 * goal", "", "too loose"),
        (f"{MEASURE} >= goal", "    goal = goal * 0.9\n", "too loose"),
        (f"{MEASURE} >= goal * (1 - 0.10)", "", "too loose"),
        (f"{MEASURE} >= goal / 0.9", "", "too strict"),
    ],
)
def test_a_goal_scaled_by_0_9_again_is_told_so(comparison, before, way, capsys):
    passed, out = _check_search(_search(comparison, before=before), capsys)
    assert not passed, out
    hint = _hint(out)
    assert "0.9" in hint and "already" in hint and way in hint, out
    assert "does not use its own" not in hint, out


# ---- finding 2: a rounded goal --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("goal", "named"),
    [
        ("round(goal)", "round(goal)"),
        ("int(goal)", "int(goal)"),
        ("round(goal, 1)", "round(goal, 1)"),
        ("round(goal, 2)", "round(goal, 2)"),
        ("math.ceil(goal)", "math.ceil(goal)"),
    ],
)
def test_a_rounded_goal_is_told_so(goal, named, capsys):
    passed, out = _check_search(_search(f"{MEASURE} >= {goal}"), capsys)
    assert not passed, out
    hint = _hint(out)
    assert "the goal" in hint and named in hint, out
    assert "Follow low, high and middle" not in hint and "does not use its own" not in hint, out
    assert "loop" not in hint, out


def test_a_rounded_measure_is_still_told_its_own_hint(capsys):
    passed, out = _check_search(_search(f"round({MEASURE}, 2) >= goal"), capsys)
    assert not passed, out
    assert "you rounded the bytes per token" in _hint(out), out


# ---- finding 3: a helper on text[:5000] is named 5,000 -----------------------------------------------------------


def _first(n: int):
    def measure(tokenizer, text):
        text = text[:n]
        return len(text.encode("utf-8")) / len(tokenizer.encode(text))

    return measure


@pytest.mark.parametrize("n", [2000, 5000])
def test_a_helper_on_the_first_n_characters_is_named_with_its_own_n(n, capsys):
    passed, out = _check_search(_search(f"{MEASURE} >= goal", helper=_first(n)), capsys)
    assert not passed, out
    hint = _hint(out)
    assert "your bytes_per_token" in hint, out
    assert f"text[:{n}]" in hint, out
    other = {2000: "5000", 5000: "2000"}[n]
    assert f"text[:{other}]" not in hint, out


def test_a_prefix_named_only_by_lengths_that_fit_every_size():
    """On the long text, 300 tokens give the same bytes per token on its first 2,000 and 5,000 characters; the other
    sizes tell them apart."""
    paragraph = compression._paragraph()
    text = compression.LONG_TEXT
    smaller = paragraph.truncated(300)
    assert library(smaller, text[:2000]) == library(smaller, text[:5000])  # the tie the old hint fell into
    assert compression._prefix_lengths(_first(5000), paragraph, text) == [5000]


def library(tokenizer, text):
    return compression.bytes_per_token(tokenizer, text)


# ---- finding 4: the hint's number is the one shown -----------------------------------------------------------------


def test_ignores_names_the_checks_it_compared_not_the_failing_one():
    """Called on a check outside the groups it compared, `_ignores` says the other checks' answer as theirs."""
    paragraph = compression._paragraph()
    goal = 1.01
    group = [((paragraph, PARAGRAPH, goal), 256), ((paragraph, compression.MIXED_SCRIPTS, goal), 256)]
    attempt = Attempt((paragraph, PARAGRAPH, 1.05), 257, 258, None, lambda: group)
    hint = compression._ignores("text")(attempt)
    assert hint is not None
    assert "returned 258 here" in hint and "256 on two other checks" in hint, hint


# ---- finding 5: a right but slow count_unused is told it is slow, not that it loops ---------------------------------


def encodes_once_per_id(tokenizer, text):
    return sum(1 for i in tokenizer.vocab if i not in tokenizer.encode(text))


def test_a_slow_but_right_count_unused_is_told_it_is_slow(monkeypatch, capsys):
    """Stopped by the guards on the long text (the clock is made short here, not waited for), a function that gives
    the right count on a shorter text is told it is slow, with what makes it so."""
    monkeypatch.setattr(compression, "SLOW_PROBE_CHARACTERS", 300)
    slow = {"stopped": False}

    def sleepy(tokenizer, text):
        if len(text) > 50_000:
            slow["stopped"] = True
            for _ in range(3_000):  # stopped by the clock after 5 seconds: stands for the 20-second right answer
                time.sleep(0.01)
        return encodes_once_per_id(tokenizer, text)

    result = check_count_unused(sleepy, record=False)
    out = capsys.readouterr().out
    assert slow["stopped"] and not result.passed, out
    hint = _hint(out)
    assert "too slow" in hint and "not an endless loop" in hint, out
    assert "encode" in hint and "once" in hint, out


def test_a_count_unused_that_loops_forever_keeps_the_endless_loop_hint(capsys):
    def endless(tokenizer, text):
        used = set(tokenizer.encode(text))
        i = 0
        while i < len(tokenizer.vocab):
            if i in used:
                continue  # the counter is not moved on
            i += 1
        return len(tokenizer.vocab) - len(used)

    result = check_count_unused(endless, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    hint = _hint(out)
    assert "too slow" not in hint and "endless loop" in hint, out


def test_the_lesson_s_count_unused_passes():
    assert check_count_unused(shown_solution("08", "f1bf594d", "count_unused"), record=False).passed
