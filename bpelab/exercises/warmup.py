"""Lesson 00's warm-up exercise: count each character of a text, to meet the checkers before the real work.

Counting things in a dict, in the order they first appear, is the move every later lesson makes
(word frequencies in 02, pair counts in 03), so the warm-up practises exactly that.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.helper_stubs import check_naming_stub_helpers
from bpelab.exercises.number_answers import FloatAnswer, adjusted
from bpelab.exercises.samples import MIXED_SCRIPTS, PARAGRAPH


def count_characters(text: str) -> dict[str, int]:
    """How often each character occurs in ``text``, keys in first-seen order (spaces count too)."""
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def _answers(attempt: Attempt) -> list[dict]:
    """What came back on this case and on every other case where a dict came back."""
    others = [got for _, got in attempt.history() if isinstance(got, dict)]
    return [attempt.got, *others]


def _whole_counts(got: object, expected: object) -> object:
    """A count is a whole number: a float count (``1.0``, from ``+ 1.0`` or a ``/``) never passes, though Python
    finds ``{'b': 1.0} == {'b': 1}``; it is shown as the float it is."""
    if isinstance(got, dict) and any(isinstance(n, float) for n in got.values()):
        return {ch: FloatAnswer(n) if isinstance(n, float) else n for ch, n in got.items()}
    return got


def _float_counts(attempt: Attempt) -> bool:
    return isinstance(attempt.got, dict) and any(isinstance(n, FloatAnswer) for n in attempt.got.values())


def _without(dropped: str):  # type: ignore[no-untyped-def]
    return lambda text: count_characters("".join(ch for ch in text if ch not in dropped))


def _start_lengths(text: str, got: object) -> set[int]:
    """Every n for which ``got`` is the count of ``text[:n]`` (n = len(text) for a whole count), built as it grows."""
    lengths, counts = set(), {}  # type: ignore[var-annotated]
    for n in range(len(text) + 1):
        if counts == got:
            lengths.add(n)
        if n < len(text):
            counts[text[n]] = counts.get(text[n], 0) + 1
    return lengths


def _counted_only_the_start(attempt: Attempt) -> bool:
    """Every answer is the count of the same first few characters of its text (a slice such as text[:30])."""
    text = attempt.args[0]
    answers = [(attempt.args, attempt.got), *attempt.history()]
    common = set(range(1, len(text)))
    for args, got in answers:
        lengths = _start_lengths(args[0], got)
        if len(args[0]) in lengths:  # the whole text counted: so is every longer slice of it
            lengths |= set(range(len(args[0]), len(text)))
        common &= lengths
    return bool(common)


def _alphabetical(attempt: Attempt) -> bool:
    return all(list(got) == sorted(got) for got in _answers(attempt))


def _most_common_first(attempt: Attempt) -> bool:
    return all(list(got.values()) == sorted(got.values(), reverse=True) for got in _answers(attempt))


def _in_order(order):  # type: ignore[no-untyped-def]
    """A test: on every case that came back as a dict, the keys are in ``order(text)``'s order (an order other than
    first-seen that a learner's loop gives)."""

    def test(attempt: Attempt) -> bool:
        answers = [(attempt.args, attempt.got), *((a, g) for a, g in attempt.history() if isinstance(g, dict))]
        return all(list(got) == order(args[0]) for args, got in answers)

    return test


def _last_seen(text: str) -> list[str]:
    return list(dict.fromkeys(reversed(text)))[::-1]


def _first_seen_reversed(text: str) -> list[str]:
    return list(dict.fromkeys(text))[::-1]


def _through_a_set(text: str) -> list[str]:
    """The order a loop over ``set(text)`` visits the characters in, in this process (it depends on string hashing)."""
    return list(set(text))


def _first_seen_from_the_end(text: str) -> list[str]:
    return list(dict.fromkeys(reversed(text)))


def _byte_counts(text: str) -> dict[int, int]:
    """A learner's count of the bytes of ``text.encode('utf-8')`` (lesson 00 shows the encoding just before)."""
    counts: dict[int, int] = {}
    for byte in text.encode("utf-8"):
        counts[byte] = counts.get(byte, 0) + 1
    return counts


def _int_keys(attempt: Attempt) -> list[int]:
    got = attempt.got
    return [key for key in got if isinstance(key, int) and not isinstance(key, bool)] if isinstance(got, dict) else []


def _digit_keys(attempt: Attempt) -> bool:
    """Every int key is a digit of the text (``int(ch)``): 7 where the text has '7'."""
    keys = _int_keys(attempt)
    return bool(keys) and all(0 <= key <= 9 and str(key) in attempt.args[0] for key in keys)


def _swapped_keys(attempt: Attempt) -> bool:
    """The counts are the keys and the characters the values: ``{n: ch}``."""
    got, text = attempt.got, attempt.args[0]
    return (
        isinstance(got, dict)
        and bool(got)
        and all(isinstance(key, int) for key in got)
        and all(isinstance(value, str) and value and value in text for value in got.values())
    )


def _non_ascii_bytes(attempt: Attempt) -> bool:
    """The int keys are UTF-8 bytes of the text's non-ASCII characters (195 and 169 for 'é'), the rest characters."""
    keys = _int_keys(attempt)
    non_ascii_bytes = set("".join(ch for ch in attempt.args[0] if not ch.isascii()).encode("utf-8", "surrogatepass"))
    return bool(keys) and all(key in non_ascii_bytes for key in keys)


def _code_points(text: str) -> dict[int, int]:
    """A learner's count keyed by ``ord(ch)``, each character's code point (98 for 'b', 233 for 'é')."""
    return {ord(ch): n for ch, n in count_characters(text).items()}


LONG_TEXT = "\n".join([PARAGRAPH, MIXED_SCRIPTS] * 2 + [MIXED_SCRIPTS]) + "\nThe end."
"""The longest case, 1,006 characters: it catches a count of only the start of the text whenever the cut is
shorter than that (text[:30], text[:1000], any cut below 1,006 characters). A longer cut such as text[:2000] counts
the whole of every case and passes. The text is not made longer to catch it, because the textbook quadratic answer
(for each character, an inner loop over the whole text: about 1,006² steps of two or three lines) must end within
``MAX_LINES``."""

MAX_LINES = 8_000_000
"""This exercise's line allowance: four times the engine's, so that the quadratic answer passes (2.1 to 3.2 million
traced lines on ``LONG_TEXT``, and 4.1 million for a loop written out in four lines: for each character, a ``while``
over the text with its own index), while an endless loop, stopped on the first case, still ends in a few seconds."""

COUNT_CHARACTERS = Exercise(
    name="count_characters",
    call="count_characters(text)",
    reference=count_characters,
    order_matters=True,
    order_hint=(
        "the right counts, but not in the order the characters first appear: loop over the text itself and add "
        "each character to the dict when you first meet it"
    ),
    order_diagnosers=[
        when(
            _alphabetical,
            "the right counts, but in alphabetical order: the exercise asks for the order the characters first "
            "appear ('banana' gives b, a, n); don't sort the keys",
        ),
        when(
            _most_common_first,
            "the right counts, but the most frequent character first (as most_common() gives them): keep the "
            "order the characters first appear ('banana' gives b, a, n)",
        ),
        when(
            _in_order(_first_seen_from_the_end),
            "the right counts, but in the order the characters first appear when the text is read from the end "
            "('banana' gives a, n, b): loop over the text from its start, for ch in text, not reversed(text)",
        ),
        when(
            _in_order(_first_seen_reversed),
            "the right counts, but the order the characters first appear, reversed ('banana' gives n, a, b): "
            "keep the dict's order as it is, without reversed()",
        ),
        when(
            _in_order(_last_seen),
            "the right counts, but in the order each character was last seen ('banana' gives b, n, a): a key you "
            "delete or pop and insert again moves to the end; add 1 to its count in place, counts[ch] = "
            "counts.get(ch, 0) + 1, and it keeps its place",
        ),
        when(
            _in_order(_through_a_set),
            "the right counts, but in the order of a set: a loop over set(text) visits the characters in an arbitrary "
            "order (it changes with Python's string hashing), not the order they first appear; loop over the text "
            "itself and add each character to the dict when you first meet it",
        ),
    ],
    cases=[
        Case(("banana",), {"b": 1, "a": 3, "n": 2}, "one word"),
        Case(("",), {}, "empty text: nothing to count"),
        Case(("a a",), {"a": 2, " ": 1}, "a space is a character too"),
        Case(("Aa",), {"A": 1, "a": 1}, "capitals are different characters"),
        Case(("héllo wörld",)),
        Case(("🙂🙂!",), {"🙂": 2, "!": 1}, "an emoji is one character in Python"),
        Case(
            (" one\ttwo\n",),
            {" ": 1, "o": 2, "n": 1, "e": 1, "\t": 1, "t": 1, "w": 1, "\n": 1},
            "a space at the start, a tab, a new line at the end: all characters",
        ),
        Case(
            ("\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f",),
            {"\U0001f468": 1, "\u200d": 2, "\U0001f469": 1, "\U0001f467": 1, " ": 1, "\u2764": 1, "\ufe0f": 1},
            "a family emoji is 5 characters (3 people joined by 2 zero-width joiners, U+200D), a red heart 2 "
            "(the heart and a variation selector, U+FE0F)",
        ),
        Case(
            ("line one\r\nline two\r\n",),
            {"l": 2, "i": 2, "n": 3, "e": 3, " ": 2, "o": 2, "\r": 2, "\n": 2, "t": 1, "w": 1},
            "Windows line ends: '\\r\\n' is 2 characters, a carriage return and a new line",
        ),
        Case(
            ("cafe\u0301 \ufb01",),
            {"c": 1, "a": 1, "f": 1, "e": 1, "\u0301": 1, " ": 1, "\ufb01": 1},
            "an e and a combining accent (U+0301) are 2 characters; the ligature \ufb01 (U+FB01) is 1",
        ),
        Case(("  \t",), {" ": 2, "\t": 1}, "only spaces and a tab: 3 characters to count, not an empty text"),
        Case(
            ("100\u00a0km",),
            {"1": 1, "0": 2, "\u00a0": 1, "k": 1, "m": 1},
            "a no-break space (U+00A0) is a character of its own, not ' '",
        ),
        Case(
            ("\ufeffhello",),
            {"\ufeff": 1, "h": 1, "e": 1, "l": 2, "o": 1},
            "a byte order mark (U+FEFF) at the start, invisible but a character",
        ),
        Case(
            ("one\u200btwo",),
            {"o": 2, "n": 1, "e": 1, "\u200b": 1, "t": 1, "w": 1},
            "a zero-width space (U+200B), invisible but a character",
        ),
        Case(("0070",), {"0": 3, "7": 1}, "digits are characters too: '0' three times, '7' once"),
        Case(("1234567",), {d: 1 for d in "1234567"}, "seven digits, seven characters"),
        Case(
            ("Room 101, 2nd floor",),
            {"R": 1, "o": 4, "m": 1, " ": 3, "1": 2, "0": 1, ",": 1, "2": 1, "n": 1, "d": 1, "f": 1, "l": 1, "r": 1},
            "digits among letters, a space and a comma: each one a character, counted as it is",
        ),
        Case(
            (LONG_TEXT,),
            note=f"a long text ({len(LONG_TEXT):,} characters, several lines, several scripts): count it to the end",
        ),
    ],
    diagnosers=[
        on_error(
            KeyError,
            "a key must exist before += : counts[ch] += 1 first reads counts[ch], and a character met for the first "
            "time has no key yet. Use counts[ch] = counts.get(ch, 0) + 1, which reads 0 for a new character",
        ),
        when(
            _float_counts,
            "counts are whole numbers: return ints (1, not 1.0); a float comes from adding 1.0, starting at 0.0, or a /",
        ),
        same_as(
            lambda text: count_characters(text.strip()),
            "spaces, tabs and new lines at the start and end of the text are characters too: don't strip() the text",
        ),
        when(
            lambda a: a.args[0] != "" and not a.args[0].strip() and a.got == {},
            "a text of only spaces is not empty: '  \\t' has 3 characters to count, {' ': 2, '\\t': 1}; only '' "
            "gives {}. The loop needs no test first: no text.strip() or text.isspace() check",
        ),
        same_as(_without("\n\t"), "new lines and tabs are characters too ('\\n', '\\t'): count them"),
        same_as(
            _without("\r"),
            "'\\r' (the carriage return of Windows line ends, '\\r\\n') is a character too: count it",
        ),
        *(
            same_as(
                lambda text, form=form: count_characters(unicodedata.normalize(form, text)),
                "count the text as it is: unicodedata.normalize changes its characters (an e followed by U+0301 "
                "becomes one é; NFKC makes the ligature \ufb01 two letters, f and i)",
            )
            for form in ("NFC", "NFKC", "NFD", "NFKD")
        ),
        when(
            _counted_only_the_start,
            "only the first characters of the text are counted: loop over the whole text, for ch in text",
        ),
        same_as(
            lambda text: count_characters("".join(ch for ch in text if ch.isprintable())),
            "new lines, tabs and invisible characters such as the zero-width joiner are not isprintable(), but they "
            "are characters of the text: count every one",
        ),
        same_as(
            lambda text: count_characters(text.replace("\u00a0", " ")),
            "U+00A0, the no-break space, is a character of its own, not ' ' (a plain space): count it as it is",
        ),
        *(
            same_as(
                variant,
                "U+FEFF (the byte order mark some editors put at the start of a file) is a character too, invisible "
                "but in the text: count it",
            )
            for variant in (
                lambda text: count_characters(text.removeprefix("\ufeff")),
                lambda text: count_characters(text.lstrip("\ufeff")),
                _without("\ufeff"),
            )
        ),
        same_as(
            _without("\u200b"),
            "the zero-width space (U+200B) is a character too, invisible but in the text: count it",
        ),
        same_as(
            _without("\u200d\ufe0f"),
            "the zero-width joiner (U+200D) and the variation selector (U+FE0F) are characters too: Python counts "
            "each code point, and 👨‍👩‍👧 is five of them (three people, two U+200D)",
        ),
        same_as(
            _without("\u200d"),
            "the zero-width joiner (U+200D) is a character too: Python counts each code point, and 👨‍👩‍👧 is five of "
            "them (three people, two U+200D)",
        ),
        same_as(lambda text: count_characters(text.replace(" ", "")), "spaces are characters too: count them"),
        same_as(
            lambda text: count_characters("".join(ch for ch in text if not ch.isdigit())),
            "digits are characters too ('0', '7'): count them like any other character",
        ),
        same_as(
            _byte_counts,
            "you counted the bytes of text.encode('utf-8'), whose keys are numbers (98 for 'b'), not the characters: "
            "loop over the text itself, for ch in text, so that each key is a character ('b') and é counts once, "
            "not as its two bytes",
        ),
        same_as(
            _code_points,
            "keys are the characters themselves, not ord(ch): ord('b') is 98, the character's code point, and "
            "{98: 1} != {'b': 1}. Use the character as the key, counts[ch] = counts.get(ch, 0) + 1",
        ),
        when(
            _swapped_keys,
            "keys and values are swapped: the counts are the keys and the characters the values ({3: 'a'}). "
            "Each key is a character and its value how often it occurs ({'a': 3}); swapped, two characters with the "
            "same count would overwrite each other",
        ),
        when(
            _non_ascii_bytes,
            "the number keys are the UTF-8 bytes of the non-ASCII characters (é is two bytes, 195 and 169): "
            "count each character as itself, for ch in text, so that é is one key, 'é', counted once",
        ),
        when(
            _digit_keys,
            "a digit is a character, and its key is the string it is: '7', not the number 7 (int(ch) makes it a "
            "number, and {7: 1} != {'7': 1})",
        ),
        same_as(lambda text: count_characters(text.lower()), "keep capitals as they are: 'A' and 'a' are different"),
        same_as(
            lambda text: {ch: n + 1 for ch, n in count_characters(text).items()},
            "every count is one too many: get's default is the count before this character: 0, not 1 (a new "
            "character has been seen 0 times before), counts[ch] = counts.get(ch, 0) + 1",
        ),
        same_as(
            lambda text: {ch: n - 1 for ch, n in count_characters(text).items()},
            "every count is one short: the first time you meet a character, its count becomes 1",
        ),
        same_as(
            lambda text: count_characters(text[:-1]),
            "the last character of the text is never counted: loop over every character, for ch in text "
            "(range(len(text) - 1) stops one short)",
        ),
        same_as(
            lambda text: dict.fromkeys(count_characters(text), 1),
            "every count is 1: add one to the count each time you meet the character again",
        ),
    ],
    hint="loop over the text one character at a time and add 1 to that character's entry in a dict",
    max_steps=MAX_LINES,
)


def check_count_characters(count_characters: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``count_characters(text)``; prints one report and returns the result."""
    return check_naming_stub_helpers(
        COUNT_CHARACTERS,
        adjusted(count_characters, COUNT_CHARACTERS.reference, _whole_counts, 1),
        record=record,
        learners=count_characters,
    )
