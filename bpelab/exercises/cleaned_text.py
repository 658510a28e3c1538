"""Lesson 08's cases and diagnosers for a text cleaned before it is measured or encoded (``check_bytes_per_token``,
``check_count_unused``). The cleanings and their hint are lesson 09's (``multilingual_tax.CLEANINGS``), with the
few more a learner measuring tokens tries: other tab widths, the byte order mark, the spaces at each line's end.
Also ``empty_text_answered``: bytes per token of the empty text must raise, as the library's does."""

from __future__ import annotations

import contextlib
import io
import math
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
