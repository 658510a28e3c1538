"""An exercise's own clock (``Exercise.max_seconds``): a right answer that loads a vocabulary itself is not a runaway.

Lesson 10's ``tokens_saved`` is naturally written with ``tiktoken.get_encoding(encoding_name)`` inside the function;
the first call loads the vocabulary, about a second on a quiet machine and several on a class's busy JupyterHub. The
engine's 5-second clock stopped such a right answer there. The slow load is stood for by a sleep on the first call,
so that the test does not depend on the machine's speed."""

from __future__ import annotations

import time

import tiktoken

from bpelab.exercises import runaway
from bpelab.exercises.core import Case, Exercise
from bpelab.exercises.shorter_prompt import TOKENS_SAVED, check_tokens_saved


def _slow_first_call(seconds: float):
    loaded: dict[str, tiktoken.Encoding] = {}

    def tokens_saved(original, rewrite, encoding_name):
        if encoding_name not in loaded:
            time.sleep(seconds)  # a vocabulary loading on a busy machine
            loaded[encoding_name] = tiktoken.get_encoding(encoding_name)
        encoding = loaded[encoding_name]
        before = len(encoding.encode_ordinary(original))
        return (before - len(encoding.encode_ordinary(rewrite))) / before

    return tokens_saved


def test_a_right_tokens_saved_whose_first_call_takes_longer_than_the_engines_clock_passes():
    assert TOKENS_SAVED.max_seconds is not None and TOKENS_SAVED.max_seconds > runaway.MAX_SECONDS
    result = check_tokens_saved(_slow_first_call(runaway.MAX_SECONDS + 1.5), record=False)
    assert result.passed, result.message


def test_an_endless_loop_is_still_stopped_and_the_report_names_the_exercises_clock():
    def tokens_saved(original, rewrite, encoding_name):
        while True:
            time.sleep(0.5)  # an endless loop that runs few lines: only the clock stops it

    result = check_tokens_saved(tokens_saved, record=False)
    assert not result.passed
    assert f"still running after {TOKENS_SAVED.max_seconds:g} seconds" in result.message, result.message


def test_an_exercise_without_its_own_clock_keeps_the_engines():
    def double(x):
        return 2 * x

    plain = Exercise(name="clock_plain_double", call="double(x)", reference=double, cases=[Case((2,), 4)])
    assert plain.max_seconds is None

    def sleepy(x):
        time.sleep(runaway.MAX_SECONDS + 1)
        return 2 * x

    result = plain.run(sleepy, record=False)
    assert not result.passed
    assert f"still running after {runaway.MAX_SECONDS:g} seconds" in result.message, result.message
