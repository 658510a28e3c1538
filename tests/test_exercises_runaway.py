"""A learner's runaway function never hangs a checker: every kind of endless loop becomes a message within seconds.

The learner's functions below are the worst a notebook sees: a loop on one line (Python 3.11 reports no line
event for a jump back to the same line), a string that grows at every step (each step slower than the last while
a tracer runs), memory that doubles, a comprehension over ``itertools.count()``, a bare ``except:`` that catches
the checker's stop as well. Each test runs under an alarm, so that a checker that hangs fails the test instead of the run.
"""

from __future__ import annotations

import itertools
import signal
import sys
import time

import pytest

from bpelab.exercises import runaway
from bpelab.exercises.warmup import COUNT_CHARACTERS, check_count_characters


class Hung(Exception):
    pass


@pytest.fixture(autouse=True)
def alarm():
    """Fail (rather than hang) a check that is still running after 60 seconds."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def ring(signum, frame):
        raise Hung("the checker was still running after 60 s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def quick_limits(monkeypatch):
    """A one-second clock, so that the tests of the watchdog take seconds, not minutes (the mechanism is the same)."""
    monkeypatch.setattr(runaway, "MAX_SECONDS", 1.0)
    monkeypatch.setattr(runaway, "GRACE_SECONDS", 0.5)


def count_characters(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


# fmt: off
def one_line_loop(text):
    while True: pass  # noqa: E701
# fmt: on


def two_line_loop(text):
    while True:
        x = 1  # noqa: F841


def string_building(text):
    s = ""
    while True:
        s += "x"


def string_doubling(text):
    s = text
    while True:
        s = s + s


def counting_forever(text):
    return {i: 1 for i in itertools.count()}


def calls_itself(text):
    return calls_itself(text)


def skips_without_moving_on(text):
    counts = {}
    i = 0
    while i < len(text):
        try:
            counts[text[i]] += 1
        except:  # noqa: E722  (it catches the checker's stop too)
            continue  # a new character's KeyError: and i never moves on
        i += 1
    return counts


def retries_forever(text):
    while True:
        try:
            return int(text)
        except:  # noqa: E722
            pass


def checked(fn, capsys):
    start = time.monotonic()
    result = check_count_characters(fn)
    seconds = time.monotonic() - start
    return result, capsys.readouterr().out, seconds


def test_a_one_line_endless_loop_is_stopped_within_ten_seconds(capsys):
    """The issue's case, with the real limits: before, no checker ever returned from it on Python 3.11."""
    result, out, seconds = checked(one_line_loop, capsys)
    assert not result and result.status == "failed"
    # the clock's message on 3.11 (no line events); on 3.12+ the line counter sees the loop and may come first
    assert "did not finish" in out and "endless loop" in out
    assert seconds < 10, f"the report took {seconds:.1f} s"


def test_the_usual_endless_loop_still_gets_the_line_count_message(capsys, monkeypatch):
    """Where the line counter sees the loop, it answers with the same words on every machine (on an ordinary one,
    in about a second: before the clock; the clock is set far off here, so a busy test machine cannot come first)."""
    monkeypatch.setattr(runaway, "MAX_SECONDS", 60.0)
    result, out, _ = checked(two_line_loop, capsys)
    assert not result
    assert f"more than {COUNT_CHARACTERS.max_steps:,} lines of Python" in out  # this exercise's own allowance


@pytest.mark.parametrize(
    ("fn", "said"),
    [
        (one_line_loop, "did not finish"),
        (string_building, "did not finish"),
        (counting_forever, "did not finish"),
        (skips_without_moving_on, "did not finish"),
        (retries_forever, "did not finish"),
    ],
    ids=["one line", "string building", "comprehension over count()", "bare except, continue", "bare except, retry"],
)
def test_every_runaway_becomes_a_message(fn, said, capsys, quick_limits):
    result, out, seconds = checked(fn, capsys)
    assert not result and result.status == "failed"
    assert out.startswith("❌ count_characters: check 1 of") and said in out
    assert seconds < 10, f"the report took {seconds:.1f} s"
    # Nothing is left behind: the next check runs as usual (no late stop lands in it, the tracer is gone).
    assert check_count_characters(count_characters)
    assert sys.gettrace() is None


@pytest.mark.skipif(runaway.resident_memory() is None, reason="no way to read the process's memory here")
def test_memory_that_doubles_is_stopped_by_the_memory_limit(capsys, monkeypatch):
    monkeypatch.setattr(runaway, "MAX_MEMORY", 64 * 2**20)
    monkeypatch.setattr(runaway, "MAX_SECONDS", 30.0)
    result, out, _ = checked(string_doubling, capsys)
    assert not result
    assert "more than 64 MB of memory" in out and "s = s + s" in out


def test_endless_recursion_is_named(capsys):
    result, out, _ = checked(calls_itself, capsys)
    assert not result and "RecursionError" in out and "keeps calling itself" in out


def test_a_debuggers_tracer_is_back_after_a_stopped_call(capsys, quick_limits):
    def debugger(frame, event, arg):
        return None

    sys.settrace(debugger)
    try:
        checked(one_line_loop, capsys)
        assert sys.gettrace() is debugger
    finally:
        sys.settrace(None)


def test_the_learners_globals_and_prints_still_work_in_a_guarded_call(capsys):
    """The call runs in the caller's own thread: what it changes and prints lands where it always did."""
    seen = []

    def counts_and_notes(text):
        seen.append(text)
        print("looking at", repr(text))
        return count_characters(text)

    assert check_count_characters(counts_and_notes)
    assert seen and "looking at" in capsys.readouterr().out


def test_the_clocks_message_says_how_long_and_what_to_look_for(capsys, quick_limits):
    """An exercise that counts no lines (max_steps=None) is still stopped, by the clock, with the clock's words."""
    from bpelab.exercises.core import EXERCISES, Case, Exercise

    exercise = Exercise(name="clock_demo", call="f(text)", reference=len, cases=[Case(("abc",), 3)], max_steps=None)
    try:
        result = exercise.check(two_line_loop)
    finally:
        del EXERCISES["clock_demo"]
    out = capsys.readouterr().out
    assert not result and "still running after 1 seconds" in out and "`while True:` needs a `break`" in out


def test_after_a_memory_error_the_diagnosers_history_calls_no_more_cases():
    """A function that ran out of memory on one case would likely do so again, slowly, on the larger ones: the
    history a diagnoser asks for stops there, as it does after a call stopped by the clock."""
    from bpelab.exercises.core import Case, Exercise, when

    calls = []

    def runs_out(n):
        calls.append(n)
        if n == 1:
            return 0  # wrong on the first case: a diagnoser then asks for the others
        raise MemoryError

    exercise = Exercise(
        name="memory_history_probe",
        call="probe(n)",
        reference=lambda n: n,
        cases=[Case((1,)), Case((2,)), Case((3,))],
        diagnosers=[when(lambda attempt: len(attempt.history()) > 99, "never said")],
    )
    result = exercise.run(runs_out, record=False)
    assert not result.passed and "check 1 of 3 failed" in result.message
    assert calls == [1, 2], calls


def test_lines_of_pythons_own_library_are_not_the_learners(monkeypatch):
    """A right gini written with ``statistics.mean`` over a generator passed or failed with the machine's load: the
    counter followed every line of ``statistics`` (fresh read 13). Its lines are not counted now, so a limit far
    below what ``statistics`` runs is not reached; the learner's generator it calls back still is."""
    import statistics

    def mean_of_range():
        return statistics.mean(x for x in range(2_000))

    assert runaway.call_guarded(mean_of_range, (), max_steps=6_000) == 999.5
    with pytest.raises(runaway.Runaway):  # the generator's own lines: one per item
        runaway.call_guarded(lambda: statistics.mean(x for x in itertools.count()), (), max_steps=6_000)


def test_the_library_folders_are_where_statistics_and_installed_packages_live():
    import statistics

    import regex

    assert statistics.__file__.startswith(runaway.LIBRARY_DIRECTORIES)
    assert regex.__file__.startswith(runaway.LIBRARY_DIRECTORIES)
    assert not __file__.startswith(runaway.UNTRACED)
