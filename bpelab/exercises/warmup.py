"""Lesson 00's warm-up exercise: count each character of a text, to meet the checkers before the real work.

Counting things in a dict, in the order they first appear, is the move every later lesson makes
(word frequencies in 02, pair counts in 03), so the warm-up practises exactly that.
"""

from __future__ import annotations

from bpelab.exercises.core import Case, CheckResult, Exercise, same_as


def count_characters(text: str) -> dict[str, int]:
    """How often each character occurs in ``text``, keys in first-seen order (spaces count too)."""
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


COUNT_CHARACTERS = Exercise(
    name="count_characters",
    call="count_characters(text)",
    reference=count_characters,
    cases=[
        Case(("banana",), {"b": 1, "a": 3, "n": 2}, "one word"),
        Case(("",), {}, "empty text: nothing to count"),
        Case(("a a",), {"a": 2, " ": 1}, "a space is a character too"),
        Case(("Aa",), {"A": 1, "a": 1}, "capitals are different characters"),
        Case(("héllo wörld",)),
        Case(("🙂🙂!",), {"🙂": 2, "!": 1}, "an emoji is one character in Python"),
    ],
    diagnosers=[
        same_as(lambda text: count_characters(text.replace(" ", "")), "spaces are characters too: count them"),
        same_as(lambda text: count_characters(text.lower()), "keep capitals as they are: 'A' and 'a' are different"),
        same_as(
            lambda text: {ch: n - 1 for ch, n in count_characters(text).items()},
            "every count is one short: the first time you meet a character, its count becomes 1",
        ),
        same_as(
            lambda text: dict.fromkeys(count_characters(text), 1),
            "every count is 1: add one to the count each time you meet the character again",
        ),
    ],
    hint="loop over the text one character at a time and add 1 to that character's entry in a dict",
)


def check_count_characters(count_characters) -> CheckResult:
    """Check a learner's ``count_characters(text)``; prints one report and returns the result."""
    return COUNT_CHARACTERS.check(count_characters)
