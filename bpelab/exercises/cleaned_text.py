"""Lesson 08's cases and diagnosers for a text cleaned before it is measured or encoded (``check_bytes_per_token``,
``check_count_unused``). The cleanings and their hint are lesson 09's (``multilingual_tax.CLEANINGS``), with the
few more a learner measuring tokens tries: other tab widths, the byte order mark, the spaces at each line's end.
Also ``empty_text_answered``: bytes per token of the empty text must raise, as the library's does."""

from __future__ import annotations

import contextlib
import functools
import io
import math
import unicodedata
from collections.abc import Callable

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.core import MAX_STEPS, Attempt, Case, same_as
from bpelab.exercises.multilingual_tax import CLEANINGS, as_it_is
from bpelab.exercises.running import call
from bpelab.exercises.samples import PARAGRAPH


def _each_line(change: Callable[[str], str]) -> Callable[[str], str]:
    return lambda text: "\n".join(change(line) for line in text.split("\n"))


def _tabs_of(width: int) -> Callable[[str], str]:
    return lambda text: text.expandtabs(width)


MORE_CLEANINGS: dict[str, Callable[[str], str]] = {
    **{f"expandtabs({n}) makes 1 tab {n} spaces": _tabs_of(n) for n in (2, 4)},
    "removing U+FEFF (the byte order mark at the start of some files, 3 bytes) drops a character": lambda t: t.replace(
        "\ufeff", ""
    ),
    "rstrip() on each line drops the spaces and tabs at its end, which are bytes too": _each_line(str.rstrip),
    "strip() on each line drops the spaces and tabs at its ends, which are bytes too": _each_line(str.strip),
}

ALL_CLEANINGS = {**CLEANINGS, **MORE_CLEANINGS}
"""Every cleaning lesson 08's checkers name: lesson 09's, and ``MORE_CLEANINGS``."""

CRLF_TEXT = PARAGRAPH.replace(". ", ".\r\n") + "\r\n"
"""The paragraph in Windows lines (\\r\\n): replace('\\r\\n', '\\n') or replace('\\r', '') changes it."""

TABS_TEXT = "def area(width, height):\n\tif width > 0:\n\t\treturn width * height\n\treturn 0\n"
"""A tab-indented code snippet: expandtabs, at any width, changes it."""

JOINED_TEXT = "The family 👨\u200d👩\u200d👧\u200d👦 and the coder 👩\u200d💻 are each one emoji.\n"
"""Emoji joined by U+200D (the zero-width joiner, 3 bytes): removing it changes the text."""

BOM_TEXT = "\ufeff" + PARAGRAPH
"""The paragraph after a byte order mark (U+FEFF), as some editors save a file."""

LINE_ENDS_TEXT = "The keeper of the lighthouse  \n\tkept a logbook.\t\nEvery evening\u00a0\n"
"""Spaces and tabs at the ends of lines (a no-break space, U+00A0, only there): stripping each line changes it."""

CLEANED_TEXTS = (
    (LINE_ENDS_TEXT, "spaces and tabs at the ends of lines"),
    (CRLF_TEXT, "Windows line ends (\\r\\n), from a file saved on Windows"),
    (TABS_TEXT, "a code snippet indented with tabs"),
    (JOINED_TEXT, "emoji joined by U+200D, the zero-width joiner (3 bytes)"),
    (BOM_TEXT, "a byte order mark (U+FEFF, 3 bytes) before the paragraph"),
)
"""Texts that each cleaning changes (none of the other cases holds a \\r, a U+200D or a U+FEFF). The spaces at the
ends of lines come first: stripping each line also drops the \\r of a Windows line end, so on the \\r\\n text the two
cleanings agree, and only a case before it tells them apart."""


def cleaned_cases(tokenizer: BPETokenizer, what: str) -> list[Case]:
    """A case for each text of ``CLEANED_TEXTS`` with ``tokenizer``; ``what`` says what counts ("its bytes and
    tokens", "its tokens")."""
    return [Case((tokenizer, text), note=f"{note}: {what} count as they are") for text, note in CLEANED_TEXTS]


def cleaning_diagnosers(measure: Callable[[BPETokenizer, str], object]) -> list[Callable[[Attempt], str | None]]:
    """A diagnoser for each cleaning: the answers are those of ``measure`` on the cleaned text."""
    return [
        same_as(
            lambda tokenizer, text, change=change: measure(tokenizer, change(text)),
            f"you cleaned the text before encoding it; encode it as it is, as encode receives it, and {as_it_is(what)}",
        )
        for what, change in ALL_CLEANINGS.items()
    ]


def empty_text_answered(fn: Callable[..., object], checks: int) -> str | None:
    """The message when ``fn`` returns something for the empty text instead of raising: bytes per token is 0 bytes
    in 0 tokens there, undefined, and the library raises ValueError (a division by zero raises ZeroDivisionError,
    which is as good). A number such as 0.0 would lie below the floor of 1.0 that every text reaches."""
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = call(fn, (BPETokenizer(), ""), MAX_STEPS)
    got = outcome.got
    if outcome.error is not None or outcome.runaway or (isinstance(got, float) and math.isnan(got)):
        return None  # NaN (numpy's mean of no lengths) says "undefined" too, and no comparison takes it for a ratio
    return (
        f"❌ bytes_per_token: your function passed all {checks} checks, but on the empty text '' (0 bytes in 0 "
        f"tokens) it returned {outcome.got!r}.\n"
        "   hint:     bytes per token of an empty text is undefined (0 / 0): raise an error, as the library does "
        f"(ValueError), or let the division raise ZeroDivisionError; {_why_not(got)}"
    )


def _why_not(got: object) -> str:
    """Why ``got``, returned for the empty text, is no answer: said of what it is."""
    if got is None:
        return (
            "None is not a number: a caller that compares or adds it fails far from here, with a TypeError that "
            "does not say the text was empty"
        )
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return f"{type(got).__name__} is not a number, and would pass for an answer"
    if math.isinf(got):
        return (
            f"{got!r} is infinity, not a measurement: it would beat every goal (>= any number) and swamp any mean it "
            "is part of"
        )
    if got < 0:
        return "a negative number is no ratio of two counts, and would pass for a measurement"
    if got == 1:
        return (
            f"{got!r} is the floor that every text reaches (a token holds at least one byte): it would pass for a "
            "measurement, that of a text whose every byte is a token"
        )
    if got < 1:
        return (
            f"a number such as {got!r} for it would lie below the floor of 1.0 that every text reaches, and would "
            "pass for a measurement"
        )
    return f"{got!r} would pass for a measurement of a text that is not there"


SHORT_BOM_TEXT = "\ufeffThe keeper of the lighthouse kept a logbook."
"""A sentence after a byte order mark: short, so that the mark's 3 bytes move the smallest size that reaches a goal
(on ``BOM_TEXT``, the whole paragraph, they never do)."""

LEADING_LINES_TEXT = "\n\n\n\nThe keeper of the lighthouse kept a logbook. \n\n"
"""Blank lines before a sentence, a space and line breaks after it: stripping either end changes it."""

TRAILING_LINES_TEXT = " \nThe keeper of the lighthouse kept a logbook.\n\n \n\n\n"
"""A space and a line break before a sentence, line breaks and a line of one space after it."""

DECOMPOSED_TEXT = (
    "The keeper\u2019s cafe\u0301 served cre\u0300me bru\u0302le\u0301e and pa\u0302te\u0301 on the \ufb01rst "
    "\ufb02oor."
)
"""Accents written as a letter and a combining mark (e + U+0301), and the ligatures ﬁ and ﬂ: NFC and NFKC change it."""

COMPOSED_TEXT = (
    "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e: the keeper of the lighthouse kept a logbook on the \ufb01rst \ufb02oor."
)
"""Accented letters of one character each (é is U+00E9), and the ligatures ﬁ and ﬂ: NFD, NFKD and NFKC change it."""

SEARCH_TEXTS = (
    (LINE_ENDS_TEXT, 290, "spaces and tabs at the ends of lines"),
    (CRLF_TEXT, 286, "Windows line ends (\\r\\n), from a file saved on Windows"),
    (TABS_TEXT, 257, "a code snippet indented with tabs"),
    (JOINED_TEXT, 265, "emoji joined by U+200D, the zero-width joiner (3 bytes)"),
    (SHORT_BOM_TEXT, 276, "a byte order mark (U+FEFF, 3 bytes) before a sentence"),
    (LEADING_LINES_TEXT, 290, "blank lines before the text, a space and line breaks after it"),
    (TRAILING_LINES_TEXT, 288, "a line break before the text, blank lines after it"),
    (DECOMPOSED_TEXT, 269, "accents as combining marks (e + U+0301) and the ligatures ﬁ, ﬂ"),
    (DECOMPOSED_TEXT, 283, "accents as combining marks (e + U+0301) and the ligatures ﬁ, ﬂ"),
    (COMPOSED_TEXT, 277, "accented letters of one character each (é, U+00E9) and the ligatures ﬁ, ﬂ"),
)
"""Lesson 08's search cases on cleaned texts: (text, the size whose bytes per token is the goal, what it holds). At
that size each cleaning that changes the text moves the answer (on one of these texts at least), so that a search
measuring a cleaned text is refused; the texts and sizes are chosen so that the first case a cleaning fails tells it
from the others where it can. The ends of lines come before the Windows line ends, as in ``CLEANED_TEXTS``."""

WHITESPACE_CLEANINGS: dict[str, Callable[[str], str]] = {
    "text.strip() drops the spaces and line breaks at both ends of the text, which are bytes too": str.strip,
    "text.lstrip() drops the spaces and line breaks at its start, which are bytes too": str.lstrip,
    "text.rstrip() drops the spaces and line breaks at its end, which are bytes too": str.rstrip,
    "text.rstrip('\\n') drops the line breaks at its end, which are bytes too": lambda t: t.rstrip("\n"),
    "' '.join(text.split()) makes each run of spaces, tabs and line breaks one space": lambda t: " ".join(t.split()),
    "dropping the blank lines drops their line breaks, which are bytes too": lambda t: "\n".join(
        line for line in t.split("\n") if line.strip()
    ),
    "dropping the blank lines (text.splitlines()) drops their line breaks and the last one, which are bytes too": (
        lambda t: "\n".join(line for line in t.splitlines() if line.strip())
    ),
}
"""Whitespace a search's text loses before it is measured."""

NORMAL_FORM_CLEANINGS: dict[str, Callable[[str], str]] = {
    f"unicodedata.normalize('{form}', ...) {does}": functools.partial(unicodedata.normalize, form)  # type: ignore[arg-type]
    for form, does in (
        ("NFC", "joins a letter and its combining accent (e + U+0301, 3 bytes) into one character (é, 2 bytes)"),
        (
            "NFKC",
            "joins a letter and its combining accent into one character, and makes the ligature ﬁ (3 bytes) f + i "
            "(2 bytes)",
        ),
        ("NFD", "splits é (2 bytes) into e and a combining accent (3 bytes)"),
        ("NFKD", "splits é into e and a combining accent, and makes the ligature ﬁ f + i"),
    )
}
"""The Unicode normal forms, each with what it changes."""

SEARCH_CLEANINGS = {**ALL_CLEANINGS, **WHITESPACE_CLEANINGS, **NORMAL_FORM_CLEANINGS}
"""Every cleaning lesson 08's search checker (``check_smallest_vocab_size``) names."""


def cleaned_hint(whats: list[str]) -> str:
    """The hint for a search that measures a cleaned text: ``whats`` say what each cleaning that gives its answers
    changes (the first, and up to two more that give the same answers on every check)."""
    also = "".join(f"; or {what}" for what in whats[1:3])
    same = "" if len(whats) == 1 else f", which give{'s' if len(whats) == 2 else ''} the same answers on these checks"
    return (
        f"you cleaned the text before measuring it ({whats[0]}{also}{same}): the goal is for the text as it is, "
        "every character included; measure `text` as it is, as encode receives it"
    )
