"""Lesson 10's shortening exercise: ``check_tokens_saved`` checks the learner's measure of a rewrite.

The exercise has two parts. The measure is checked: ``tokens_saved(original, rewrite, encoding_name)``, the share
of the original's tokens a rewrite saves, counted with that tiktoken encoding, is one number that a checker can
compute and compare. The rewrite itself is not: whether a shorter prompt still asks for what the wordy one asked
is a question of meaning, which no word list decides ('not in French' holds the word French; 'Resúmela en
francés' holds none of the English words), so the lesson leaves it to the learner, with a checklist, and no tick.

Every case's answer is written out from token counts taken with tiktoken's ``encode_ordinary`` (the counts stand in
each case's note; ``tests/test_read14_fixAH.py`` counts them again with tiktoken), not from the reference.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Literal

from bpelab.exercises.comparing import same
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.multilingual_tax import (
    DIRECTION_MARKS,
    FRENCH_SPACES_AND_JOINER,
    INVISIBLE_CLEANINGS,
    LINE_ENDS_AND_JOINERS,
    PERSIAN_NON_JOINER,
    as_it_is,
)
from bpelab.exercises.number_answers import adjusted, divisor_nudged, exactly, is_number, rounding_hint
from bpelab.exercises.toy_encoders import encoding_named, encodings_let_go_after
from bpelab.production import load_encoding

WORDY_PROMPT = (
    "Hello there! I hope you are having a really good day today. I was wondering whether you might "
    "possibly be able to help me out with a little task, if it is not too much trouble for you. What I "
    "would really like you to do, if at all possible, is to read the customer review that I am going to "
    "paste in below this message very carefully, and then, once you have read it, write a short summary "
    "of it for me. Please make absolutely sure that the summary is not any longer than three sentences in "
    "total. It would also be really great if you could tell me whether the overall feeling of the review "
    "is positive, negative, or somewhere in between, which is to say neutral. And one more thing: could "
    "you please write the summary in French, because the team who will read it works in our office in "
    "Lyon? Thank you so much in advance for all of your help, I really do appreciate it a lot!"
)
"""A prompt that says a few things in many words (lesson 10's shortening exercise)."""

SHORT_PROMPT = (
    "Summarise the customer review below in French, in at most three sentences, "
    "and say whether it is positive, negative or neutral."
)
"""The lesson's own rewrite of ``WORDY_PROMPT``, the one it measures."""

CHECKLIST = (
    "a summary (not a translation, not the whole review)",
    "of the customer review that follows",
    "at most three sentences",
    "written in French",
    "whether the review is positive, negative or neutral",
)
"""What ``WORDY_PROMPT`` asks for: the lesson shows it for the learner to read a rewrite against. Nothing checks it."""


def tokens_saved(original: str, rewrite: str, encoding_name: str) -> float:
    """The share of ``original``'s tokens that ``rewrite`` saves, counted with the encoding ``encoding_name`` as
    ordinary text: (before - after) / before; negative when the rewrite is longer, 1.0 when it is empty."""
    encoding = load_encoding(encoding_name)
    before = len(encoding.encode_ordinary(original))
    after = len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def _count(encoding_name: str) -> Callable[[str], int]:
    return lambda text: len(encoding_named(encoding_name).encode_ordinary(text))


def _measured(count: Callable[[str, str], int], measure: Callable[[int, int], object]) -> Callable[..., object]:
    """A wrong version: ``measure(before, after)`` on the counts ``count(text, encoding_name)`` gives."""
    return lambda original, rewrite, name: measure(count(original, name), count(rewrite, name))


def _tokens(text: str, name: str) -> int:
    return _count(name)(text)


def _always(fixed: str) -> Callable[[str, str], int]:
    """A count that ignores the encoding asked for and always counts with ``fixed``."""
    return lambda text, name: _tokens(text, fixed)


def _share(before: int, after: int) -> float:
    return (before - after) / before


def _with_specials(text: str, name: str) -> int:
    return len(encoding_named(name).encode(text, allowed_special="all"))


_ENDOFTEXT = "Summarize the text <|endoftext|> below."
_RUSSIAN = "Кратко перескажите отзыв ниже по-французски, не больше трёх предложений."
_RUSSIAN_SHORT = "Перескажи отзыв."
_SPACED = "Summarise  this  review,  please."
_LIST = "Summarise this review:\n- in French\n- in three sentences\n"
_FULL_WIDTH = "\uff33\uff55\uff4d\uff4d\uff41\uff52\uff49\uff53\uff45 this review."  # Summarise, full-width letters
_LIGATURE = "Summarise this review in \ufb01ve sentences."  # the ligature U+FB01 (fi)

_JOINED = "Team: 👩\u200d💻👨\u200d👩\u200d👧, please summarise this review."
_BOM = "\ufeffPlease summarise this review."
_INVISIBLE = "Please\u00a0summarise\u00a0this re\u00adview \u2705\ufe0f"  # no-break spaces, a soft hyphen, ✅️

_TEAM_WITH_BOM = "\ufeffTeam: 👩\u200d💻👨\u200d👩\u200d👧, summarise."  # a byte-order mark, 3 zero-width joiners
_ZERO_WIDTH_SPACES = "Summarise\u200bthis\u200breview."
_CRLF_REWRITE = "Summarise the review -\r\n\r\nthanks"
_TABBED_REWRITE = "Name:\tAnn\tSummarise."

_SPACES_COST = (
    "spaces and line breaks are sent too, and cost tokens (sections 3 and 5: a double space, a new line and "
    "spaces at the ends each change the count)"
)


def _both(change: Callable[[str], str]) -> Callable[[str, str], int]:
    """A count of the text after ``change`` (applied to every text: the original and the rewrite)."""
    return lambda text, name: _tokens(change(text), name)


def _tabs_made(spaces: str) -> Callable[[str], str]:
    return lambda text: text.replace("\t", spaces)


def _saved_parts(original: str, rewrite: str, name: str) -> tuple[int, int]:
    """The share's numerator and divisor: before - after, and before."""
    before = _tokens(original, name)
    return before - _tokens(rewrite, name), before


_NORMALISED: dict[Literal["NFC", "NFD", "NFKC", "NFKD"], str] = {
    "NFKC": "a full-width letter or a ligature such as \ufb01 becomes plain letters",
    "NFKD": "a full-width letter or a ligature such as \ufb01 becomes plain letters",
    "NFC": "a letter and its combining accent, e + U+0301, become one character, é",
    "NFD": "é becomes two characters, e and a combining accent",
}

_ZERO_WIDTH = "an invisible character is sent too, and costs tokens"
_TABS = "a tab is sent too, and has other tokens than spaces"

_TAB_CHANGES: tuple[Callable[[str], str], ...] = (
    *(functools.partial(str.expandtabs, tabsize=n) for n in (8, 4, 2)),
    *(_tabs_made(" " * n) for n in (1, 2, 4, 8)),
)

_INVISIBLE_OR_TABS: list[tuple[str, Callable[[str], str], str]] = [
    ("dropping the zero-width space U+200B (.replace('\\u200b', ''))", lambda t: t.replace("\u200b", ""), _ZERO_WIDTH),
    ("making the zero-width space U+200B a space", lambda t: t.replace("\u200b", " "), _ZERO_WIDTH),
    *(("turning tabs into spaces (.expandtabs(), .replace('\\t', ' '))", change, _TABS) for change in _TAB_CHANGES),
]
"""Changes to invisible characters and tabs, each with its name and why it changes the count."""


_REWRITE_CHANGES: tuple[tuple[str, Callable[[str], str]], ...] = (
    *(
        (f"rewrite.{how}", change)
        for how, change in (
            ("rstrip('\\n') drops its new line at the end", lambda t: t.rstrip("\n")),
            ("strip('\\n') drops its new lines at the ends", lambda t: t.strip("\n")),
            ("strip() drops the spaces, tabs and new lines at its ends", str.strip),
            ("rstrip() drops the spaces, tabs and new lines at its end", str.rstrip),
        )
    ),
    *(("rewrite.expandtabs() turns its tabs into spaces", change) for change in _TAB_CHANGES),
)
"""Changes made to the rewrite only (the original is counted as it is), each named by what it does, so that the hint
reads "...: rewrite.strip() drops the spaces, tabs and new lines at its ends, and changed text has other tokens"."""


_REWRITE_CLEANINGS: dict[str, Callable[[str], str]] = {
    **LINE_ENDS_AND_JOINERS,
    **INVISIBLE_CLEANINGS,
    "lstrip('\\ufeff') drops the byte order mark U+FEFF": lambda t: t.lstrip("\ufeff"),
    "making the zero-width space U+200B a space changes a character": lambda t: t.replace("\u200b", " "),
}
"""Invisible characters and line ends cleaned in the rewrite only, each with what the cleaning changes."""


def _by_lines(text: str, name: str) -> int:
    return sum(_tokens(line, name) for line in text.splitlines())


def _blank_is_empty(original: str, rewrite: str, name: str) -> float:
    """A rewrite of only spaces taken for an empty one."""
    return 1.0 if not rewrite.strip() else tokens_saved(original, rewrite, name)


_FRENCH_SHORT = "Résumez l'avis ci-dessous en français, en trois phrases au plus : positif, négatif ou neutre ?"

_ENCODE_RAISES = (
    "encode() refuses text that spells a special token ('<|endoftext|>' here): a prompt is text, whatever it "
    "holds, so count it with encode_ordinary(text)"
)


def _encode_refused(attempt: Attempt) -> str | None:
    """tiktoken's ``encode`` raised on text that spells a special token."""
    if isinstance(attempt.error, ValueError) and "special token" in str(attempt.error):
        return _ENCODE_RAISES
    return None


def _empty_rewrite(attempt: Attempt) -> str | None:
    """An empty rewrite answered with anything but 1.0: refused, or counted as saving nothing."""
    if attempt.args[1] != "" or attempt.got == attempt.expected:
        return None
    if attempt.error is not None and not isinstance(attempt.error, ZeroDivisionError):
        return (
            f"an empty rewrite is a rewrite too ({type(attempt.error).__name__} here): it has 0 tokens, so it "
            "saves all of the original's, 1.0"
        )
    if attempt.error is None and is_number(attempt.got) and attempt.got == 0:
        return "an empty rewrite has 0 tokens: it saves ALL of the original's, 1.0, not nothing"
    return None


def _divided_by_rewrite(attempt: Attempt) -> str | None:
    """The saving measured against an empty rewrite's 0 tokens."""
    if isinstance(attempt.error, ZeroDivisionError) and attempt.args[1] == "":
        return _AGAINST_REWRITE
    return None


def _against_rewrite(attempt: Attempt) -> str | None:
    """The saving measured against the rewrite's count, (before - after) / after, on every case where that can be
    computed (the rewrite has tokens): a guard such as ``if after else 1.0`` for the empty rewrite changes nothing."""
    if attempt.error is not None:
        return None
    compared = 0
    for (original, rewrite, name), got in [(attempt.args, attempt.got), *attempt.history()]:
        before, after = _tokens(original, name), _tokens(rewrite, name)
        if after == 0:
            continue
        if not same(got, (before - after) / after):
            return None
        compared += 1
    return _AGAINST_REWRITE if compared else None


_AGAINST_REWRITE = (
    "you measured the saving against the rewrite's count: divide by the ORIGINAL's, (before - after) / before, the "
    "share of what you had that is gone"
)


def _percent(attempt: Attempt) -> bool:
    got, expected = attempt.got, attempt.expected
    return is_number(got) and is_number(expected) and got != expected and abs(got - 100 * expected) <= 0.5


TOKENS_SAVED = Exercise(
    name="tokens_saved",
    call="tokens_saved(original, rewrite, encoding_name)",
    reference=tokens_saved,
    cases=lambda: [
        Case(
            ("Could you please summarise this review for me?", "Summarise this review.", "o200k_base"),
            (10 - 6) / 10,
            "10 → 6 tokens (8 → 3 words, 46 → 22 characters)",
        ),
        Case(
            (_RUSSIAN, _RUSSIAN_SHORT, "o200k_base"),
            (21 - 6) / 21,
            "Russian, GPT-4o: 21 → 6 tokens (GPT-4's cl100k_base: 33 → 9; 133 → 30 bytes)",
        ),
        Case(
            (_RUSSIAN, _RUSSIAN_SHORT, "cl100k_base"),
            (33 - 9) / 33,
            "the same Russian texts, GPT-4's cl100k_base: 33 → 9 tokens (GPT-4o: 21 → 6)",
        ),
        Case(
            ("in at most three sentences", "max. 3 sent.", "o200k_base"),
            (5 - 6) / 5,
            "an abbreviation: 26 → 12 characters, but 5 → 6 tokens: a NEGATIVE saving",
        ),
        Case(
            ("Summarise this review.", "Could you please summarise this review for me?", "o200k_base"),
            (6 - 10) / 6,
            "a longer rewrite: 6 → 10 tokens, a negative saving",
        ),
        Case(
            (_ENDOFTEXT, "Summarize the text below.", "o200k_base"),
            (14 - 7) / 14,
            "'<|endoftext|>' typed in the original, ordinary text: 14 → 7 tokens (read as the special token, 9)",
        ),
        Case(
            (_ENDOFTEXT, "Summarize the text below.", "cl100k_base"),
            (13 - 7) / 13,
            "the same with GPT-4's cl100k_base: 13 → 7 tokens",
        ),
        Case(
            ("Summarise this review.", "<|endoftext|>", "cl100k_base"),
            (6 - 7) / 6,
            "'<|endoftext|>' as the rewrite, ordinary text: 6 → 7 tokens (read as the special token, 1)",
        ),
        Case(
            ("Summarise this review.", "Summarise this review.", "o200k_base"),
            0.0,
            "the same text, 6 → 6 tokens: nothing saved",
        ),
        Case(("Summarise this review.", "", "o200k_base"), 1.0, "an empty rewrite: 6 → 0 tokens, all saved"),
        Case(
            (_SPACED, "Summarise this review.  ", "o200k_base"),
            (11 - 7) / 11,
            "double spaces in the original, two spaces at the end of the rewrite, counted as they are: 11 → 7 tokens "
            "(stripped, the rewrite is 6; with single spaces, the original is 8)",
        ),
        Case(
            ("Summarise this review.", "   ", "o200k_base"),
            (6 - 1) / 6,
            "a rewrite of three spaces is not empty: 6 → 1 tokens (the spaces are one token)",
        ),
        Case(
            (_LIST, "French summary,\n3 sentences", "o200k_base"),
            (15 - 5) / 15,
            "line breaks in both texts: 15 → 5 tokens (counted line by line, 13 → 5; with the breaks made spaces, "
            "13 → 6)",
        ),
        Case(
            (_FULL_WIDTH, "Summarise it.", "o200k_base"),
            (16 - 5) / 16,
            "full-width letters (U+FF33 ...) in the original, as sent: 16 → 5 tokens (normalised with NFKC, 6 → 5)",
        ),
        Case(
            (_LIGATURE, "Summarise in \ufb01ve.", "cl100k_base"),
            (11 - 8) / 11,
            "the ligature \ufb01 (U+FB01) in both texts, GPT-4's cl100k_base: 11 → 8 tokens (normalised with NFKC, "
            "9 → 6)",
        ),
        Case(
            ("Re\u0301sume\u0301 this review in franc\u0327ais.", "Re\u0301sume\u0301 it.", "o200k_base"),
            (11 - 6) / 11,
            "é and ç written as a letter and a combining mark (U+0301, U+0327), as sent: 11 → 6 tokens "
            "(normalised with NFC, 6 → 3)",
        ),
        Case(
            ("Summarise the review -\r\n\r\nthanks", "Summarise it.", "o200k_base"),
            (8 - 5) / 8,
            "Windows line ends (\\r\\n) in the original, as sent: 8 → 5 tokens (with \\n for each, 7 → 5)",
        ),
        Case(
            ("Name:\tAnn\nRole:\tEditor\nPlease summarise the review.", "Summarise.", "o200k_base"),
            (15 - 4) / 15,
            "tabs in the original, as sent: 15 → 4 tokens (with expandtabs(), 16 → 4)",
        ),
        Case(
            ("Summarise\u200b this\u200b review.", "Summarise.", "o200k_base"),
            (8 - 4) / 8,
            "zero-width spaces (U+200B) in the original, invisible but sent: 8 → 4 tokens (without them, 6 → 4)",
        ),
        Case(
            (_JOINED, "Summarise.", "o200k_base"),
            (22 - 4) / 22,
            "👩‍💻 and 👨‍👩‍👧 hold zero-width joiners (U+200D), invisible but sent: 22 → 4 tokens (without them, 19 → 4)",
        ),
        Case(
            (_BOM, "Summarise.", "o200k_base"),
            (7 - 4) / 7,
            "a byte-order mark (U+FEFF) at the start of the original, invisible but sent: 7 → 4 tokens (without it, "
            "6 → 4)",
        ),
        Case(
            (_INVISIBLE, "Summarise.", "o200k_base"),
            (12 - 4) / 12,
            "no-break spaces (U+00A0), a soft hyphen (U+00AD) and the variation selector of ✅️ (U+FE0F), as sent: "
            "12 → 4 tokens (with spaces for the no-break ones, 9; without the soft hyphen, 10; without U+FE0F, 11)",
        ),
        Case(
            ("Could you please summarise this review for me?", "Summarise:\tit\n", "o200k_base"),
            (10 - 6) / 10,
            "a tab and a new line at the end of the rewrite, as sent: 10 → 6 tokens (without the new line, 5; with "
            "expandtabs(), 7)",
        ),
        Case(
            ("Name: Ann. Please summarise the review.", _TABBED_REWRITE, "o200k_base"),
            (10 - 8) / 10,
            "tabs in the rewrite, as sent: 10 → 8 tokens (with a space for each tab, 7; with expandtabs(), 9)",
        ),
        Case(
            (WORDY_PROMPT, _INVISIBLE, "o200k_base"),
            (192 - 12) / 192,
            "no-break spaces (U+00A0), a soft hyphen (U+00AD) and U+FE0F in the rewrite, as sent: 192 → 12 tokens "
            "(with spaces for the no-break ones, 9; without the soft hyphen, 10; without U+FE0F, 11)",
        ),
        Case(
            (WORDY_PROMPT, _ZERO_WIDTH_SPACES, "o200k_base"),
            (192 - 8) / 192,
            "zero-width spaces (U+200B) in the rewrite, invisible but sent: 192 → 8 tokens (without them, or with "
            "spaces for them, 6)",
        ),
        Case(
            (WORDY_PROMPT, _CRLF_REWRITE, "o200k_base"),
            (192 - 8) / 192,
            "Windows line ends (\\r\\n) in the rewrite, as sent: 192 → 8 tokens (with \\n for each, 7)",
        ),
        Case(
            (WORDY_PROMPT, _TEAM_WITH_BOM, "o200k_base"),
            (192 - 20) / 192,
            "a byte-order mark (U+FEFF) and zero-width joiners (U+200D) in the rewrite, invisible but sent: "
            "192 → 20 tokens (without the mark, 19; without the joiners, 17)",
        ),
        Case(
            (
                "Summarise in Persian: " + PERSIAN_NON_JOINER,
                "\u062e\u0644\u0627\u0635\u0647 \u06a9\u0646: " + PERSIAN_NON_JOINER,
                "o200k_base",
            ),
            (10 - 9) / 10,
            "Persian می‌خواهم holds a zero-width non-joiner (U+200C) in both texts, sent and counted: 10 → 9 tokens "
            "(without it, 9 → 8)",
        ),
        Case(
            (FRENCH_SPACES_AND_JOINER, "Prix : 5 €", "o200k_base"),
            (10 - 5) / 10,
            "French narrow no-break spaces (U+202F) and a word joiner (U+2060) in the original, as sent: 10 → 5 "
            "tokens (with spaces for the narrow ones, 8; without the joiner, 9)",
        ),
        Case(
            (DIRECTION_MARKS, "ABC-123", "o200k_base"),
            (7 - 3) / 7,
            "right-to-left marks (U+200F) and a left-to-right mark (U+200E) in the original, as sent: 7 → 3 tokens "
            "(without the right-to-left ones, 5; without the left-to-right one, 6)",
        ),
        Case(
            (WORDY_PROMPT, SHORT_PROMPT, "o200k_base"),
            (192 - 27) / 192,
            "the lesson's wordy prompt and its own rewrite, GPT-4o: 192 → 27 tokens",
        ),
        Case(
            (WORDY_PROMPT, _FRENCH_SHORT, "cl100k_base"),
            (192 - 28) / 192,
            "the wordy prompt and a French rewrite, GPT-4's cl100k_base: 192 → 28 tokens (GPT-4o: 192 → 24)",
        ),
    ],
    diagnosers=[
        _empty_rewrite,
        _divided_by_rewrite,
        _against_rewrite,
        same_as(
            _blank_is_empty,
            "a rewrite of only spaces is not empty: it is sent, and its spaces cost tokens (one here), so it saves "
            "less than all; only an empty rewrite, '', saves 1.0 (no `if not rewrite.strip()`)",
        ),
        *(
            same_as(
                _measured(_both(change), _share),
                f"{_SPACES_COST}: count each text as it is, don't strip it (strip(), rstrip(), lstrip())",
            )
            for change in (str.strip, str.rstrip, str.lstrip)
        ),
        same_as(
            _measured(_both(lambda t: " ".join(t.split())), _share),
            f"{_SPACES_COST}: ' '.join(text.split()) makes every run of spaces and line breaks one space and drops "
            "those at the ends; count each text as it is",
        ),
        same_as(
            _measured(_by_lines, _share),
            f"count each text whole: cut into lines (splitlines()), its line breaks are not counted, and {_SPACES_COST}",
        ),
        *(
            same_as(
                _measured(_both(functools.partial(unicodedata.normalize, form)), _share),
                f"unicodedata.normalize('{form}', ...) changes the text ({what}), and changed text has other "
                "tokens: count each text as it is sent",
            )
            for form, what in _NORMALISED.items()
        ),
        *(
            same_as(
                lambda original, rewrite, name, f=form, o=on_original: _share(
                    _tokens(unicodedata.normalize(f, original) if o else original, name),
                    _tokens(rewrite if o else unicodedata.normalize(f, rewrite), name),
                ),
                f"you normalised one of the two texts only (unicodedata.normalize('{form}', ...) on the "
                f"{'original' if on_original else 'rewrite'}): it changes that text ({what}), and changed text has "
                "other tokens; count each text as it is sent",
            )
            for form, what in _NORMALISED.items()
            for on_original in (True, False)
        ),
        *(same_as(_measured(_both(change), _share), as_it_is(what)) for what, change in LINE_ENDS_AND_JOINERS.items()),
        *(
            same_as(
                _measured(_both(change), _share),
                f"count each text as it is sent: {what} changes it, and changed text has other tokens ({why})",
            )
            for what, change, why in _INVISIBLE_OR_TABS
        ),
        *(
            same_as(_measured(_both(change), _share), as_it_is(what))
            for what, change in {
                **INVISIBLE_CLEANINGS,
                "lstrip('\\ufeff') drops the byte order mark U+FEFF": lambda t: t.lstrip("\ufeff"),
            }.items()
        ),
        *(
            same_as(
                lambda original, rewrite, name, c=change: _share(_tokens(original, name), _tokens(c(rewrite), name)),
                f"count the rewrite as it is sent, as you count the original: {what}, and changed text has other "
                "tokens",
            )
            for what, change in _REWRITE_CHANGES
        ),
        *(
            same_as(
                lambda original, rewrite, name, c=change: _share(_tokens(original, name), _tokens(c(rewrite), name)),
                f"count the rewrite as it is sent, as you count the original (every character, invisible or not): "
                f"{what} in the rewrite, and changed text has other tokens",
            )
            for what, change in _REWRITE_CLEANINGS.items()
        ),
        *(
            same_as(
                _measured(_both(change), _share),
                f"count each text as it is sent: {what} changes it (capitals have other tokens than small letters: "
                "'HELLO' is 2 tokens in GPT-4o, 'hello' 1)",
            )
            for what, change in ((".lower()", str.lower), (".casefold()", str.casefold))
        ),
        same_as(
            _measured(_tokens, lambda b, a: (a - b) / b),
            "the sign is flipped: a rewrite that is SHORTER saves a positive share, (before - after) / before, not "
            "(after - before) / before",
        ),
        same_as(
            _measured(_tokens, lambda b, a: a / b),
            "that is the share the rewrite KEEPS (after / before); the share saved is what is gone, "
            "(before - after) / before",
        ),
        same_as(
            _measured(_tokens, lambda b, a: b - a),
            "that is the number of tokens saved; return the share of the original's tokens: divide it by before",
        ),
        same_as(
            _measured(_tokens, lambda b, a: max(0, (b - a) / b)),
            "a rewrite longer than the original saves a negative share: return it as it is (no max(0, ...)), "
            "so that a rewrite that costs more shows it",
        ),
        when(
            lambda a: is_number(a.expected) and a.expected < 0 and a.got == 0,
            "this rewrite has MORE tokens than the original: the saving is negative, not 0 (don't clip it)",
        ),
        same_as(
            _measured(_tokens, lambda b, a: abs(b - a) / b),
            "a rewrite longer than the original saves a negative share: don't take abs()",
        ),
        same_as(
            _measured(_tokens, lambda b, a: (b - a) // b),
            "// is integer division (it gives 0 or -1 here): divide with /, the share is a fraction",
        ),
        when(_percent, "return the share as a fraction (0.25), not a percentage (25): don't multiply by 100"),
        same_as(
            _measured(lambda text, name: len(text.split()), _share),
            "text.split() counts words, not tokens: count with the encoding, "
            "len(bpelab.load_encoding(encoding_name).encode_ordinary(text))",
        ),
        same_as(
            _measured(lambda text, name: len(text), _share),
            "len(text) counts characters, not tokens: count with the encoding, "
            "len(bpelab.load_encoding(encoding_name).encode_ordinary(text))",
        ),
        same_as(
            _measured(lambda text, name: len(text.encode("utf-8")), _share),
            "len(text.encode('utf-8')) counts bytes, not tokens: count with the encoding, "
            "len(bpelab.load_encoding(encoding_name).encode_ordinary(text))",
        ),
        *(
            same_as(
                _measured(_always(fixed), _share),
                f"you always count with {fixed}: count with the encoding the call names, "
                "bpelab.load_encoding(encoding_name) (GPT-4's cl100k_base and GPT-4o's o200k_base count Russian "
                "differently)",
            )
            for fixed in ("o200k_base", "cl100k_base")
        ),
        same_as(
            _measured(_with_specials, _share),
            "encode(text, allowed_special=...) turns the typed '<|endoftext|>' into ONE special token; the prompt is "
            "text: count it with encode_ordinary(text)",
        ),
        _encode_refused,
        divisor_nudged(_saved_parts, "share", "before", "to within 4 units in the last place of a float"),
        rounding_hint(
            "share",
            "Two rewrites that round alike can differ by a token; round only when you show the number (f'{saved:.0%}')",
            tokens_saved,
        ),
    ],
    hint="count both texts with encode_ordinary, then (before - after) / before",
    max_seconds=30.0,
    runaway_hint=(
        "a right answer ends in well under a second once its vocabulary is loaded, and loading one takes a few "
        "seconds at most, even on a busy server: look for a loop that never ends (a `while` whose condition never "
        "becomes false). To load each vocabulary once, use bpelab.load_encoding(encoding_name), which this check has "
        "already loaded"
    ),
)


def check_tokens_saved(fn: Callable[..., float], *, record: bool = True) -> CheckResult:
    """Lesson 10, exercise 3: the learner's ``tokens_saved``. The answer must be the exact share to within 4 units
    in the last place ((before - after) / before and 1 - after / before may differ by one), so a rounded share
    passes only where rounding changed nothing. Its cases encode with GPT-4's and GPT-4o's vocabularies, loaded
    once for the check and let go after it."""
    with encodings_let_go_after("o200k_base", "cl100k_base"):
        return TOKENS_SAVED.check(adjusted(fn, tokens_saved, exactly(ulps=4), 3), record=record)
