"""Lesson 02 checker: ``split_words(text)``, pre-tokenization with the regex ``\\w+|[^\\w\\s]+``.

Runs of word characters (letters, digits, ``_``) become one piece, runs of anything else that is
not whitespace (punctuation, symbols) another; whitespace separates pieces and is dropped. The
cases avoid combining marks, where Python's ``re`` and the ``regex`` module disagree about ``\\w``,
so a learner may use either module.
"""

from __future__ import annotations

import re
from typing import Any

from bpelab.exercises.core import Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.samples import PARAGRAPH
from bpelab.patterns import split_text

WORDS_AND_PUNCTUATION = r"\w+|[^\w\s]+"
"""Lesson 02's split pattern: words, or runs of punctuation; whitespace only separates."""


def split_words(text: str) -> list[str]:
    """``text`` cut into words and runs of punctuation, in order, whitespace dropped."""
    return split_text(text, WORDS_AND_PUNCTUATION)


ASCII_ONLY_PATTERNS = (
    r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+",
    r"[A-Za-z0-9]+|[^A-Za-z0-9\s]+",
    r"[A-Za-z]+|[^A-Za-z\s]+",
)
"""Patterns a learner writes when "word character" means the English alphabet (and perhaps digits)."""


def _ascii_only(attempt: Any) -> bool:
    """The pieces are what an English-letters-only pattern, or ``\\w`` under ``re.ASCII``, finds in this text."""
    text = attempt.args[0]
    found = [re.findall(pattern, text) for pattern in ASCII_ONLY_PATTERNS]
    return attempt.got in [*found, re.findall(WORDS_AND_PUNCTUATION, text, re.ASCII)]


def _got_list(attempt: Any) -> list:
    return attempt.got if isinstance(attempt.got, list) else []


SPLIT_WORDS = Exercise(
    name="split_words",
    call="split_words(text)",
    reference=split_words,
    cases=[
        Case(("Hello, world!",), ["Hello", ",", "world", "!"], "punctuation comes off the words"),
        Case(("",), [], "no text, no pieces"),
        Case(("  spaced   out  ",), ["spaced", "out"], "whitespace only separates; it never becomes a piece"),
        Case(("Wait... what?!",), ["Wait", "...", "what", "?!"], "a run of punctuation stays together"),
        Case(("isn't",), ["isn", "'", "t"], "the apostrophe is punctuation too"),
        Case(("x=3.14; y_2",), ["x", "=", "3", ".", "14", ";", "y_2"], "digits and _ are word characters"),
        Case(("tab\tand\nnewline",), ["tab", "and", "newline"], "tabs and newlines are whitespace"),
        Case(("Grüße, naïve café!",), ["Grüße", ",", "naïve", "café", "!"], "accented letters are word characters"),
        Case(("日本語です。",), ["日本語です", "。"], "so are Chinese and Japanese characters"),
        Case((PARAGRAPH,), note="a paragraph of English"),
    ],
    diagnosers=[
        when(
            lambda attempt: "" in _got_list(attempt),
            "empty strings '' among the pieces: re.split returns what lies BETWEEN the matches (empty where a match "
            "touches the start, the end or another match); re.findall(r'\\w+|[^\\w\\s]+', text) returns the "
            "matches themselves",
        ),
        same_as(
            lambda text: re.split(r"\s+", text),
            "re.split(r'\\s+', text) cuts at whitespace only, so punctuation stays on the words (and the ends can "
            "give ''): use re.findall(r'\\w+|[^\\w\\s]+', text), which returns the matches themselves",
        ),
        when(
            _ascii_only,
            "your pattern counts only some characters as word characters (like [A-Za-z]), so the others were cut "
            "off the words: \\w matches a letter of any alphabet (ü, é, 日), a digit or _",
        ),
        same_as(
            lambda text: text.split(),
            "that is text.split(): punctuation is still stuck to the words; use re.findall(r'\\w+|[^\\w\\s]+', text)",
        ),
        same_as(
            lambda text: re.findall(r"\w+", text),
            "the punctuation is missing: add the second alternative, "
            "|[^\\w\\s]+, so runs of punctuation become pieces too",
        ),
        same_as(
            lambda text: re.findall(r"\w+|[^\w\s]", text),
            "each punctuation mark became its own piece: add + after [^\\w\\s] so a run like '...' stays together",
        ),
        same_as(
            lambda text: re.findall(r"\w+|\W+", text),
            "some pieces contain whitespace: \\W also matches spaces; "
            "use [^\\w\\s] (neither a word character nor whitespace)",
        ),
        same_as(
            lambda text: re.findall(r"\w|[^\w\s]+", text),
            "every letter became its own piece: add + after \\w so a run of letters stays one word",
        ),
        same_as(lambda text: [piece.lower() for piece in split_words(text)], "keep the case as it is: don't lowercase"),
        when(
            lambda attempt: isinstance(attempt.got, (set, frozenset)),
            "you returned a set, which forgets order and repeats: return the list that re.findall gives",
            any_type=True,
        ),
        when(
            lambda attempt: _got_list(attempt) == sorted(set(attempt.expected)) != attempt.expected,
            "you returned the distinct pieces, sorted: return every piece, in the order it appears",
        ),
    ],
    hint="re.findall(r'\\w+|[^\\w\\s]+', text) returns every match, left to right, as a list",
)


def check_split_words(split_words: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``split_words(text) -> list[str]``; prints one report and returns the result."""
    return SPLIT_WORDS.check(split_words, record=record)
