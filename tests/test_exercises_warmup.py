"""The warm-up checker of lesson 00: right answers pass, typical wrong ones get the hint meant for them."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest

from bpelab.exercises.warmup import check_count_characters, count_characters


def test_reference_on_hand_checked_examples():
    assert count_characters("banana") == {"b": 1, "a": 3, "n": 2}
    assert list(count_characters("banana")) == ["b", "a", "n"], "first-seen order"
    assert count_characters("") == {}
    assert count_characters("a a") == {"a": 2, " ": 1}
    assert count_characters("🙂🙂") == {"🙂": 2}


def test_a_correct_learner_function_passes(capsys):
    def learner(text):
        out = {}
        for ch in text:
            out[ch] = out.get(ch, 0) + 1
        return out

    assert check_count_characters(learner)
    assert check_count_characters(lambda text: Counter(text)), "a Counter is a dict: accepted"
    assert capsys.readouterr().out.count("✅ count_characters: all 18 checks passed.") == 2


def test_the_stub_is_not_yet(capsys):
    def stub(text):
        # your code here
        ...

    result = check_count_characters(stub)
    assert not result and result.status == "not yet"
    assert capsys.readouterr().out.startswith("⏳ count_characters: not yet")


def _report(fn, capsys) -> str:
    result = check_count_characters(fn)
    assert not result
    return capsys.readouterr().out


def test_typical_mistakes_get_their_own_hint(capsys):
    def always_one(text):
        return {ch: 1 for ch in text}

    def no_spaces(text):
        return dict(Counter(text.replace(" ", "")))

    def lower_case(text):
        return dict(Counter(text.lower()))

    def one_short(text):
        return {ch: n - 1 for ch, n in Counter(text).items()}

    assert "add one to the count each time" in _report(always_one, capsys)
    assert "spaces are characters too" in _report(no_spaces, capsys)
    assert "'A' and 'a' are different" in _report(lower_case, capsys)
    assert "one short" in _report(one_short, capsys)


def test_a_crashing_function_is_reported_not_raised(capsys):
    def crashes(text):
        return {ch: text.count() for ch in text}  # count() needs an argument: TypeError

    report = _report(crashes, capsys)
    assert "TypeError" in report and "count_characters('banana')" in report


def test_the_order_is_checked_and_the_wrong_order_is_named(capsys):
    """The prose asks for first-appearance order (issue 9 item 14): sorted, most_common and set orders fail."""

    def alphabetical(text):
        return dict(sorted(Counter(text).items()))

    def most_common(text):
        return dict(Counter(text).most_common())

    def through_a_set(text):
        return {ch: text.count(ch) for ch in set(text)}

    def backwards(text):  # first-seen order reversed: named since the third fresh read
        return dict(reversed(Counter(text).items()))

    def shuffled_once(text):  # an order no diagnoser knows: the general hint
        counts = Counter(text)
        keys = list(counts)
        return {k: counts[k] for k in keys[1::2] + keys[::2]}

    assert "in alphabetical order" in _report(alphabetical, capsys)
    assert "most frequent character first" in _report(most_common, capsys)
    assert "first appear, reversed" in _report(backwards, capsys)
    assert "not in the order the characters first appear" in _report(shuffled_once, capsys)
    # A set's order depends on string hashing; across the six cases it matches first-seen order only by a fluke
    # far rarer than one in a million.
    assert "first appear" in _report(through_a_set, capsys)


def test_skipping_the_last_character_is_named(capsys):
    """range(len(text) - 1) stops one character early: the hint names the missing last character."""

    def skips_last(text):
        counts = {}
        for i in range(len(text) - 1):
            counts[text[i]] = counts.get(text[i], 0) + 1
        return counts

    assert "the last character of the text is never counted" in _report(skips_last, capsys)


# ---- leaks found by a fresh read (issue 29): each wrong answer written as a learner would -----------------


def test_stripping_the_text_is_rejected_and_named(capsys):
    """Spaces and new lines at the ends of a text are characters too; no case had any."""

    def strips(text):
        return dict(Counter(text.strip()))

    report = _report(strips, capsys)
    assert "strip()" in report and "at the start and end" in report, report


def test_dropping_new_lines_and_tabs_is_rejected_and_named(capsys):
    def no_line_breaks(text):
        counts = {}
        for ch in text:
            if ch not in "\n\t":
                counts[ch] = counts.get(ch, 0) + 1
        return counts

    report = _report(no_line_breaks, capsys)
    assert "new lines and tabs are characters too" in report, report


def test_keeping_only_printable_characters_is_rejected_and_named(capsys):
    def printable_only(text):
        return dict(Counter(ch for ch in text if ch.isprintable()))

    report = _report(printable_only, capsys)
    assert "isprintable()" in report, report


def test_dropping_invisible_joiners_and_selectors_is_rejected_and_named(capsys):
    """👨‍👩‍👧 is five code points (three people, two zero-width joiners), ❤️ two (a heart, a variation selector)."""

    def visible_only(text):
        return dict(Counter(ch for ch in text if ch not in "\u200d\ufe0f"))

    report = _report(visible_only, capsys)
    assert "zero-width joiner" in report and "U+200D" in report, report


def test_float_counts_are_rejected_and_named(capsys):
    """{'b': 1.0} equals {'b': 1} in Python, and the engine compares numbers loosely: a count is a whole number."""

    def float_counts(text):
        counts = {}
        for ch in text:
            counts[ch] = counts.get(ch, 0.0) + 1.0
        return counts

    report = _report(float_counts, capsys)
    assert "1.0 (a float)" in report and "whole numbers" in report, report


def test_every_new_case_is_hand_checked():
    assert count_characters(" a\tb\n") == {" ": 1, "a": 1, "\t": 1, "b": 1, "\n": 1}
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert count_characters(family + "\u2764\ufe0f") == {
        "\U0001f468": 1,
        "\u200d": 2,
        "\U0001f469": 1,
        "\U0001f467": 1,
        "\u2764": 1,
        "\ufe0f": 1,
    }


def test_a_call_waiting_outside_python_is_waited_for(capsys, monkeypatch):
    """Lesson 00 says so: the guards stop Python code, and time.sleep waits in C, so the report comes when the sleep
    ends (here 2 s, with the clock's limit at 0.5 s). If the engine (runaway.py) learns to cut a sleep short, this
    test fails: then change lesson 00's section 5 too."""
    import time

    from bpelab.exercises import runaway

    monkeypatch.setattr(runaway, "MAX_SECONDS", 0.5)
    start = time.monotonic()
    report = _report(lambda text: time.sleep(2) or {}, capsys)
    assert time.monotonic() - start >= 2.0
    assert "still running after 0.5 seconds" in report, report


# ---- leaks found by a second fresh read of lessons 00, 09 and 10 -----------------------------------------------


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda text: dict(Counter(unicodedata.normalize("NFC", text))), "unicodedata.normalize"),
        (lambda text: dict(Counter(unicodedata.normalize("NFKC", text))), "unicodedata.normalize"),
        (lambda text: dict(Counter(text[:12])), "only the first"),
        (lambda text: dict(Counter(text[:30])), "only the first"),
        (lambda text: dict(Counter(text[:1000])), "only the first"),
        (lambda text: dict(Counter(text.replace("\r", ""))), "'\\r'"),
    ],
    ids=["NFC", "NFKC", "first 12", "first 30", "first 1000", "no carriage return"],
)
def test_normalising_cutting_and_dropping_carriage_returns_are_rejected_and_named(capsys, wrong, hint):
    """No case had a decomposed or compatibility character, a '\\r', or more than 11 characters."""
    report = _report(wrong, capsys)
    assert hint in report, report


def nested_loops(text):
    """The textbook quadratic answer: for each character, count its matches with an inner loop (right, slow)."""
    counts = {}
    for ch in text:
        n = 0
        for other in text:
            if other == ch:
                n = n + 1
        counts[ch] = n
    return counts


def nested_while_loops(text):
    """The same with indexes and while loops: about three traced lines per step of the inner loop."""
    counts = {}
    i = 0
    while i < len(text):
        n = 0
        j = 0
        while j < len(text):
            if text[j] == text[i]:
                n += 1
            j += 1
        counts[text[i]] = n
        i += 1
    return counts


@pytest.mark.parametrize("fn", [nested_loops, nested_while_loops])
def test_a_correct_quadratic_answer_passes(capsys, fn):
    assert check_count_characters(fn, record=False), capsys.readouterr().out


def test_an_endless_loop_is_still_stopped(capsys):
    def endless(text):
        counts, i = {}, 0
        while i < len(text):
            counts[text[i]] = counts.get(text[i], 0) + 1  # i never moves on
        return counts

    out = _report(endless, capsys)
    assert "check 1 of" in out and "did not finish" in out, out
