"""Lesson 02's split_words checker: the reference (the `regex` module) and where Python's re parts from it, and
typical mistakes get their hint, whichever module the learner used."""

from __future__ import annotations

import re

import pytest
import regex

from bpelab.exercises.pre_tokenization import SPLIT_WORDS, WORDS_AND_PUNCTUATION, check_split_words, split_words


def test_reference_on_hand_checked_examples():
    assert split_words("Hello, world!") == ["Hello", ",", "world", "!"]
    assert split_words("Wait... what?!") == ["Wait", "...", "what", "?!"]
    assert split_words("isn't") == ["isn", "'", "t"]
    assert split_words(" \t\n") == []


RE_PARTS_FROM_REGEX = {"नमस्ते", "می\u200cخواهم", "👩\u200d👩\u200d👧"}
"""The cases in which Python's `re` finds other pieces than the reference (the `regex` module): marks that combine
with a letter, the zero-width non-joiner and joiner (lesson 02, section 3b)."""


def test_re_parts_from_the_reference_exactly_on_the_cases_that_try_it():
    for case in SPLIT_WORDS.build_cases():
        by_re = re.findall(WORDS_AND_PUNCTUATION, case.args[0])
        assert (by_re != case.expected) == (case.args[0] in RE_PARTS_FROM_REGEX), case.note


def test_a_correct_function_passes(capsys):
    assert check_split_words(lambda text: regex.findall(r"\w+|[^\w\s]+", text))
    assert "✅ split_words: all 13 checks passed." in capsys.readouterr().out


def test_the_stub_is_not_yet(capsys):
    def split_words(text):
        # your code here
        ...

    result = check_split_words(split_words)
    assert not result and result.status == "not yet"
    assert capsys.readouterr().out.startswith("⏳ split_words: not yet")


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda text: text.split(), "punctuation is still stuck to the words"),
        (lambda text: re.findall(r"\w+", text), "the punctuation is missing"),
        (lambda text: re.findall(r"\w+|[^\w\s]", text), "add + after [^\\w\\s]"),
        (lambda text: re.findall(r"\w+|\W+", text), "\\W also matches spaces"),
        (lambda text: re.findall(r"\w|[^\w\s]+", text), "every letter became its own piece"),
        (lambda text: [p.lower() for p in re.findall(r"\w+|[^\w\s]+", text)], "don't lowercase"),
        (lambda text: set(re.findall(r"\w+|[^\w\s]+", text)), "you returned a set"),
        (lambda text: sorted(set(re.findall(r"\w+|[^\w\s]+", text))), "the distinct pieces, sorted"),
        # issue 9 item 26: an English-letters-only pattern, and re.split instead of re.findall
        (lambda text: re.findall(r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+", text), "\\w matches a letter of any alphabet"),
        (lambda text: re.findall(r"[a-zA-Z]+|[^a-zA-Z\s]+", text), "only some characters as word characters"),
        (lambda text: re.findall(r"\w+|[^\w\s]+", text, re.ASCII), "only some characters as word characters"),
        (lambda text: re.split(r"\W+", text), "re.split returns what lies BETWEEN the matches"),
        (lambda text: re.split(r"(\W+)", text), "re.split returns what lies BETWEEN the matches"),
        (lambda text: re.split(r"\s+", text), "cuts at whitespace only"),
        # the same mistakes run by the regex module, as lesson 02 now shows it
        (lambda text: regex.findall(r"\w+", text), "the punctuation is missing"),
        (lambda text: regex.findall(r"\w+|[^\w\s]", text), "add + after [^\\w\\s]"),
        (lambda text: [p.lower() for p in regex.findall(r"\w+|[^\w\s]+", text)], "don't lowercase"),
        (lambda text: re.findall(r"\w+|[^\w\s]+", text), "Run the pattern with the regex module"),
    ],
)
def test_typical_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_split_words(wrong)
    report = capsys.readouterr().out
    assert not result and result.status == "failed"
    assert hint in report, report


def test_a_generator_expression_is_not_called_yield(capsys):
    """(m for m in …) is a generator too, but the learner wrote no `yield`: name what they wrote."""
    result = SPLIT_WORDS.run(lambda text: (piece for piece in re.findall(WORDS_AND_PUNCTUATION, text)))
    assert not result.passed
    assert "`yield`" not in result.message, result.message
    assert "generator expression" in result.message and "square brackets" in result.message, result.message
