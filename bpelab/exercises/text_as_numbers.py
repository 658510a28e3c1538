"""Lesson 01 checkers: counting characters and UTF-8 bytes, and the character tokenizer.

``chars`` counts code points, as ``len(text)`` does: the waving hand with a skin tone, "👋🏽",
is 2 code points and 8 bytes. For the empty string ``bytes_per_char`` is ``0.0`` (there is
nothing to divide), exactly what ``bpelab.byte_count("")`` gives; an int there (``0``, or ``1`` from ``//`` or
from ``round(x)`` with no places) is refused, though the engine counts ``1`` where ``1.0`` is expected as right.
Two cases hold ``round(x, 2)`` to what it does on a half: 9 / 8 = 1.125 is exactly half-way, and Python's ``round``
takes it to the even digit (1.12), where rounding half up gives 1.13; 43 / 40 is stored a hair below 1.075, so
``round`` gives 1.07, where rounding its decimal text ``'1.075'`` gives 1.08.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from bpelab.exercises.comparing import is_whole
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, check_parts, on_error, same_as, when
from bpelab.exercises.number_answers import adjusted
from bpelab.exercises.samples import MIXED_SCRIPTS, PARAGRAPH
from bpelab.exercises.showing import kind, short, without_addresses
from bpelab.text import CharTokenizer, byte_count, utf8_bytes

_KEYS = ("chars", "bytes", "bytes_per_char")


def _bytes_per_char(text: str) -> float:
    return len(text.encode("utf-8")) / len(text) if text else 0.0


def _blank(text: object) -> bool:
    """Text of whitespace only, and not empty: spaces, tabs, new lines, the ideographic space U+3000."""
    return isinstance(text, str) and text != "" and not text.strip()


def _without(dropped: str) -> Callable[[str], str]:
    return lambda text: "".join(ch for ch in text if ch not in dropped)


# Ways a learner changes the text before counting or encoding it, each with its hint; every one breaks the round trip
# the character tokenizer promises, and changes the counts of byte_count.
_TEXT_CHANGES: list[tuple[Callable[[str], str], str]] = [
    *(
        (
            lambda text, form=form: unicodedata.normalize(form, text),
            "take the text as it is: unicodedata.normalize changes its characters (an e followed by the accent "
            "U+0301 becomes one é; NFKC also makes a no-break space a plain one): no normalising",
        )
        for form in ("NFC", "NFKC", "NFD", "NFKD")
    ),
    *(
        (
            change,
            "take the text as it is: '\\r\\n' (a Windows line end) is 2 characters, a carriage return and a new "
            "line; no \\r\\n cleaning, keep the '\\r'",
        )
        for change in (lambda text: text.replace("\r\n", "\n"), _without("\r"))
    ),
    (
        lambda text: text.replace("\u00a0", " "),
        "U+00A0, the no-break space, is a character of its own (code point 160), not ' ' (a plain space, 32): "
        "keep it as it is",
    ),
    (
        _without("\u200d\ufe0f"),
        "the zero-width joiner (U+200D) and the variation selector (U+FE0F) are characters too, invisible but in "
        "the text: keep every one",
    ),
    (
        _without("\u200d"),
        "the zero-width joiner (U+200D) is a character too: 👨‍👩‍👧 is five code points, three people joined by two "
        "U+200D; keep every one",
    ),
    (
        _without("\ufe0f"),
        "the variation selector (U+FE0F) is a character too: ❤️ is two code points, the heart and U+FE0F; keep it",
    ),
]


def _blank_hint(example: str) -> str:
    """The hint for a text of whitespace only treated as empty, with what the right answer gives on '   '."""
    return (
        f"a text of only spaces is not empty: {example}; only '' has no characters. Spaces, tabs and new lines "
        "count like any other character: no text.strip() or text.isspace() test"
    )


class _IntAnswer:
    """An int where bytes_per_char, a float, belongs: never equal to the expected float, shown as the int.

    The engine counts ``1`` where ``1.0`` is expected as right; the exercise asks for a float (``0.0`` for the empty
    text, and ``round(x, 2)`` of a ``/`` elsewhere), and an int is the trace of a ``//`` or a ``round(x)``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.value!r} (an int)"


def _floats_per_char(got: object, expected: object) -> object:
    """An ``adjust`` for ``adjusted``: an int bytes_per_char becomes an ``_IntAnswer``; anything else stays."""
    if isinstance(got, dict) and is_whole(got.get("bytes_per_char")):
        return {key: _IntAnswer(value) if key == "bytes_per_char" else value for key, value in got.items()}
    return got


def _int_per_char(attempt: Attempt) -> str | None:
    """An int bytes_per_char: ``0`` for the empty text, or a ratio cut by ``//`` or rounded by ``round(x)``."""
    got = attempt.got
    if attempt.error is not None or not isinstance(got, dict) or not isinstance(got.get("bytes_per_char"), _IntAnswer):
        return None
    if attempt.args[0] == "":
        return (
            f"byte_count('') gave bytes_per_char {got['bytes_per_char'].value!r}, an int: the exercise asks for 0.0, "
            "a float like every other bytes_per_char: write `else 0.0`, not `else 0`"
        )
    floor, rounded = True, True
    for args, answer in [(attempt.args, got), *attempt.history()]:
        value = answer.get("bytes_per_char") if isinstance(answer, dict) else None
        if not isinstance(value, _IntAnswer) or not args[0]:
            continue
        n_bytes, n_chars = len(args[0].encode("utf-8")), len(args[0])
        floor = floor and value.value == n_bytes // n_chars
        rounded = rounded and value.value == round(n_bytes / n_chars)
    if rounded and not floor:
        return (
            "bytes_per_char is an int: round(x) with no places rounds to a whole number and gives an int; round to "
            "2 places: round(bytes / chars, 2)"
        )
    if floor and not rounded:
        return "bytes_per_char lost its decimals: use / (true division), not // (floor division), then round(bytes / chars, 2)"
    return "bytes_per_char is an int: it is a float, bytes divided by chars with /, rounded to 2 places: round(bytes / chars, 2)"


def _places(value: Decimal, rounding: str) -> float:
    return float(value.quantize(Decimal("0.01"), rounding=rounding))


def _rounded_another_way(attempt: Attempt) -> str | None:
    """bytes_per_char rounded half up (``math.floor(x * 100 + 0.5) / 100``, ``Decimal``'s ``ROUND_HALF_UP``), or from
    the float's decimal text (``Decimal(str(x))``), or by ``np.round`` (x * 100, a float, rounded half to even), where ``round(x, 2)`` gives another answer: on a ratio exactly
    half-way (9 / 8 = 1.125), or on one whose float lies a hair beside a half (43 / 40, below 1.075)."""
    if attempt.error is not None or not isinstance(attempt.got, dict) or "bytes_per_char" not in attempt.got:
        return None
    text, got, expected = attempt.args[0], attempt.got["bytes_per_char"], attempt.expected["bytes_per_char"]
    if not text or not isinstance(got, float) or got == expected:
        return None
    n_bytes, n_chars = len(text.encode("utf-8")), len(text)
    ratio = n_bytes / n_chars
    exact, stored, shown = Decimal(n_bytes) / Decimal(n_chars), Decimal(ratio), Decimal(repr(ratio))
    ways = {
        _places(exact, ROUND_HALF_UP),
        _places(stored, ROUND_HALF_UP),
        math.floor(ratio * 100 + 0.5) / 100,
        *(_places(shown, rounding) for rounding in (ROUND_HALF_UP, ROUND_HALF_EVEN)),
    }
    if got not in ways:
        return None
    division = f"{n_bytes} / {n_chars}"
    avoid = (
        "not np.round(x, 2) (numpy multiplies by 100 and rounds that float half to even, which can differ from "
        "round(x, 2)), math.floor(x * 100 + 0.5) / 100, Decimal's ROUND_HALF_UP or Decimal(str(x))"
    )
    if (Fraction(ratio) * 100).denominator == 2:
        return (
            f"bytes_per_char is rounded half up: {division} = {ratio!r} lies exactly half-way between two "
            f"hundredths, and round(x, 2) gives {expected!r} (Python's round takes a float exactly half-way to the "
            f"even digit, not up). Use round(bytes / chars, 2) itself, {avoid}"
        )
    side = "below" if stored < shown else "above"
    return (
        f"bytes_per_char is rounded as if {division} were exactly {ratio!r}, half-way between two hundredths: the "
        f"float {division} is a hair {side} {ratio!r} (a float is binary, and {ratio!r} has no exact one), so "
        f"round(x, 2) gives {expected!r} whichever way halves go (up, or to the even digit). Use round(bytes / chars, "
        f"2) itself, {avoid}"
    )


# The last code point of each UTF-8 size: 1 byte up to U+007F, 2 up to U+07FF, 3 up to U+FFFF, 4 above (lesson 01's
# table of edges). A byte_count that sizes characters by these limits can be off by one at any of them.
_SIZE_LIMITS = (0x7F, 0x7FF, 0xFFFF)
_SIZE_NAMES = ("one byte", "two", "three", "four")


def _sized(text: str, limits: tuple[int, ...]) -> int:
    """The bytes of ``text`` counted from its code points, with ``limits`` as the last code point of each size."""
    return sum(1 + sum(ord(ch) > limit for limit in limits) for ch in text)


def _limit_off_by_one(attempt: Attempt) -> str | None:
    """'bytes' counted from the code points with a size limit off by one (``cp <= 0x80``, ``cp < 0x7FF``, ...): right
    everywhere but at a character on a limit (U+007F, U+0080; U+07FF, U+0800; U+FFFF, U+10000)."""
    got, text = attempt.got, attempt.args[0]
    if attempt.error is not None or not isinstance(got, dict) or not isinstance(text, str):
        return None
    if not is_whole(got.get("bytes")) or got["bytes"] == attempt.expected["bytes"]:
        return None
    shifted = sorted(itertools.product((-1, 0, 1), repeat=len(_SIZE_LIMITS)), key=lambda s: sum(map(abs, s)))
    for shifts in shifted[1:]:
        limits = tuple(limit + shift for limit, shift in zip(_SIZE_LIMITS, shifts))
        if _sized(text, limits) != got["bytes"]:
            continue
        edges = [f"U+{limit:04X} and U+{limit + 1:04X}" for limit, shift in zip(_SIZE_LIMITS, shifts) if shift]
        sizes = "; ".join(
            f"U+{limit:04X} is {_SIZE_NAMES[k]}, U+{limit + 1:04X} {_SIZE_NAMES[k + 1]}"
            for k, limit in enumerate(_SIZE_LIMITS)
        )
        return (
            f"'bytes' is off at a character at a size limit ({', '.join(edges)}): {sizes}. Each limit is the last "
            "code point of its size, so compare with cp <= 0x7F, cp <= 0x7FF, cp <= 0xFFFF (or < 0x80, < 0x800, "
            "< 0x10000); or let Python count: len(text.encode('utf-8'))"
        )
    return None


_WIDER_ENCODINGS = ("utf-16", "utf-16-le", "utf-32", "utf-32-le")


def _wider_encoding(attempt: Attempt) -> str | None:
    """'bytes' is the size in UTF-16 or UTF-32 on this case and on every other: an answer that only meets one of them
    on a case or two (2 bytes for every non-ASCII character gives '日本語' the UTF-16 size, 6) is another mistake."""
    got = attempt.got
    if attempt.error is not None or not isinstance(got, dict) or got.get("bytes") == attempt.expected["bytes"]:
        return None
    answers = [(attempt.args, got), *attempt.history()]
    for encoding in _WIDER_ENCODINGS:
        if all(
            isinstance(answer, dict) and answer.get("bytes") == len(args[0].encode(encoding))
            for args, answer in answers
        ):
            return "'bytes' is the size in UTF-16 or UTF-32; the course counts UTF-8: len(text.encode('utf-8'))"
    return None


BYTE_COUNT = Exercise(
    name="byte_count",
    call="byte_count(text)",
    reference=byte_count,
    solution=(utf8_bytes, byte_count),
    cases=lambda: [
        Case(("hello",), {"chars": 5, "bytes": 5, "bytes_per_char": 1.0}, "plain ASCII: one byte per character"),
        Case(("héllo",), {"chars": 5, "bytes": 6, "bytes_per_char": 1.2}, "'é' takes 2 bytes"),
        Case(
            ("日本語",),
            {"chars": 3, "bytes": 9, "bytes_per_char": 3.0},
            "Chinese/Japanese characters take 3 bytes each",
        ),
        Case(("🙂",), {"chars": 1, "bytes": 4, "bytes_per_char": 4.0}, "an emoji takes 4 bytes"),
        Case(("héllo wörld",), {"chars": 11, "bytes": 13, "bytes_per_char": 1.18}, "13 / 11 rounded to 2 places"),
        Case(
            ("café bar",),
            {"chars": 8, "bytes": 9, "bytes_per_char": 1.12},
            "9 / 8 = 1.125, exactly half-way: round(x, 2) takes it to the even digit",
        ),
        Case(
            ("Mañana, señor: el niño come pan y queso.",),
            {"chars": 40, "bytes": 43, "bytes_per_char": 1.07},
            "43 / 40: the float is a hair below 1.075, so round(x, 2) gives 1.07",
        ),
        Case(
            ("👋🏽",),
            {"chars": 2, "bytes": 8, "bytes_per_char": 4.0},
            "a waving hand with a skin tone is 2 code points",
        ),
        Case(
            ("",),
            {"chars": 0, "bytes": 0, "bytes_per_char": 0.0},
            "the empty string: 0.0 bytes per character, as bpelab.byte_count gives",
        ),
        Case((" hi ",), {"chars": 4, "bytes": 4, "bytes_per_char": 1.0}, "the spaces at both ends count too"),
        Case(("   ",), {"chars": 3, "bytes": 3, "bytes_per_char": 1.0}, "three spaces: 3 characters, not empty"),
        Case(
            ("\u3000",),
            {"chars": 1, "bytes": 3, "bytes_per_char": 3.0},
            "the ideographic space (U+3000): whitespace, 1 character of 3 bytes",
        ),
        Case(
            ("one\r\ntwo\r\n",),
            {"chars": 10, "bytes": 10, "bytes_per_char": 1.0},
            "Windows line ends: '\\r\\n' is 2 characters",
        ),
        Case(
            ("cafe\u0301",),
            {"chars": 5, "bytes": 6, "bytes_per_char": 1.2},
            "an e and a combining accent (U+0301): 2 characters, 1 + 2 bytes",
        ),
        Case((MIXED_SCRIPTS,), note="a mix of scripts"),
        Case((PARAGRAPH + " " + MIXED_SCRIPTS,), note="a longer text"),
        Case(
            ("\x7f\x80",),
            {"chars": 2, "bytes": 3, "bytes_per_char": 1.5},
            "at the first size limit: U+007F is the last one-byte character, U+0080 the first of two bytes",
        ),
        Case(
            ("\u07ff\u0800",),
            {"chars": 2, "bytes": 5, "bytes_per_char": 2.5},
            "at the second size limit: U+07FF is the last two-byte character, U+0800 the first of three bytes",
        ),
        Case(
            ("\uffff\U00010000",),
            {"chars": 2, "bytes": 7, "bytes_per_char": 3.5},
            "at the third size limit: U+FFFF is the last three-byte character, U+10000 the first of four bytes",
        ),
    ],
    diagnosers=[
        when(
            lambda a: a.got.get("chars") == len(a.args[0].encode("utf-8")) != a.expected["chars"],
            "'chars' is the number of bytes: chars counts characters (code points), len(text); only 'bytes' is "
            "len(text.encode('utf-8')) ('héllo' has 5 characters and 6 bytes)",
            any_type=False,
        ),
        _int_per_char,
        same_as(
            lambda text: byte_count(text.strip()),
            "spaces, tabs and new lines at the start and end of the text are characters too: don't strip() the "
            "text (' hi ' has 4 characters)",
        ),
        when(
            lambda a: _blank(a.args[0]) and (a.got["chars"] == 0 or a.got["bytes_per_char"] == 0.0),
            _blank_hint("'   ' has 3 characters and 3 bytes, 1.0 byte per character"),
            any_type=False,
        ),
        *(same_as(lambda text, change=change: byte_count(change(text)), hint) for change, hint in _TEXT_CHANGES),
        on_error(
            ZeroDivisionError,
            "the empty string has 0 characters, so bytes / chars divides by zero: "
            "return 0.0 for bytes_per_char when there are no characters (as bpelab.byte_count does)",
        ),
        when(
            lambda a: isinstance(a.got, (tuple, list)) and len(a.got) == 3,
            "return a dict with the keys 'chars', 'bytes' and 'bytes_per_char', not three values in a row",
        ),
        when(
            lambda a: set(a.got) != set(_KEYS),
            "use exactly the keys 'chars', 'bytes' and 'bytes_per_char'",
            any_type=False,
        ),
        _limit_off_by_one,
        when(
            lambda a: a.got["bytes"] == len(a.args[0]) != a.expected["bytes"],
            "'bytes' equals the number of characters: you counted characters, not bytes; use len(text.encode('utf-8'))",
            any_type=False,
        ),
        when(
            lambda a: a.got["bytes"] == sum(1 if ord(ch) < 0x80 else 2 for ch in a.args[0]) != a.expected["bytes"],
            "'bytes' counts 2 bytes for every non-ASCII character: in UTF-8 an ASCII character takes 1 byte, accented "
            "Latin letters (and Greek, Cyrillic, Arabic) 2, most other scripts 3 (日 and क are 3 bytes each), emoji 4; "
            "let Python count: len(text.encode('utf-8'))",
            any_type=False,
        ),
        _wider_encoding,
        when(
            lambda a: isinstance(a.got["bytes_per_char"], str),
            "bytes_per_char is a str: use round(bytes / chars, 2), which gives a number (f-strings are for printing)",
            any_type=False,
        ),
        when(
            lambda a: a.got["bytes_per_char"] == _bytes_per_char(a.args[0]) != a.expected["bytes_per_char"],
            "bytes_per_char is not rounded: use round(bytes / chars, 2)",
            any_type=False,
        ),
        _rounded_another_way,
        when(
            lambda a: (
                a.args[0] != ""
                and a.got["bytes_per_char"] != a.expected["bytes_per_char"]
                and abs(a.got["bytes_per_char"] - round(len(a.args[0]) / len(a.args[0].encode("utf-8")), 2)) < 1e-9
            ),
            "bytes_per_char is upside down: it is bytes divided by chars, not chars divided by bytes",
            any_type=False,
        ),
        when(
            lambda a: (
                a.args[0] != ""
                and (a.got["chars"], a.got["bytes"]) == (a.expected["chars"], a.expected["bytes"])
                and a.got["bytes_per_char"] != a.expected["bytes_per_char"]
                and a.got["bytes_per_char"] == len(a.args[0].encode("utf-8")) // len(a.args[0])
            ),
            "bytes_per_char lost its decimals: use / (true division), not // (floor division)",
            any_type=False,
        ),
    ],
    hint="chars is len(text), bytes is len(text.encode('utf-8')), bytes_per_char is round(bytes / chars, 2)",
)


def check_byte_count(byte_count: Any, *, record: bool = True) -> CheckResult:
    """Check ``byte_count(text) -> {'chars', 'bytes', 'bytes_per_char'}`` (rounded to 2 places; 0.0 for "")."""
    return BYTE_COUNT.check(adjusted(byte_count, BYTE_COUNT.reference, _floats_per_char, 1), record=record)


_TEXTS = [
    "hi",
    "",
    "é",
    "日本",
    "🙂",
    "a b\n",
    "👋🏽",
    "cafe\u0301",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f",
    "one\r\ntwo\r\n",
    "100\u00a0km",
    "  \t\n",
    " hi ",
]

CHAR_ENCODE = Exercise(
    name="char_encode",
    call="encode(text)",
    reference=CharTokenizer().encode,
    solution=(CharTokenizer,),
    cases=lambda: [
        Case(("hi",), [104, 105], "two ASCII letters"),
        Case(("",), [], "the empty text has no tokens"),
        Case(("é",), [233], "one character, code point 233 (two bytes in UTF-8, but one id)"),
        Case(("日本",), [26085, 26412], "Chinese characters have large code points"),
        Case(("🙂",), [128578], "an emoji is one code point"),
        Case(("a b\n",), [97, 32, 98, 10], "spaces and newlines are characters too"),
        Case(("👋🏽",), [128075, 127997], "a hand with a skin tone is two code points"),
        Case(("cafe\u0301",), [99, 97, 102, 101, 769], "an e and a combining accent (U+0301) are 2 ids"),
        Case(
            ("\U0001f468\u200d\U0001f469\u200d\U0001f467",),
            [128104, 8205, 128105, 8205, 128103],
            "a family: 3 people joined by 2 zero-width joiners (U+200D, 8205)",
        ),
        Case(("\u2764\ufe0f",), [10084, 65039], "a red heart: the heart and a variation selector (U+FE0F)"),
        Case(("a\r\nb",), [97, 13, 10, 98], "a Windows line end '\\r\\n' is 2 characters"),
        Case(("100\u00a0km",), [49, 48, 48, 160, 107, 109], "a no-break space (U+00A0) is 160, not 32"),
        Case(("  \t\n",), [32, 32, 9, 10], "only spaces, a tab and a new line: 4 characters, 4 ids"),
        Case((MIXED_SCRIPTS,), note="a mix of scripts"),
    ],
    diagnosers=[
        when(lambda a: _blank(a.args[0]) and a.got == [], _blank_hint("encode('   ') is [32, 32, 32]")),
        *(
            same_as(lambda text, change=change: [ord(ch) for ch in change(text)], hint)
            for change, hint in _TEXT_CHANGES
        ),
        same_as(
            lambda text: list(text.encode("utf-8")),
            "you returned the UTF-8 byte values, not code points: use ord(ch) for each character",
        ),
        same_as(lambda text: list(text), "you returned the characters themselves; the ids are numbers: ord(ch)"),
        same_as(lambda text: [hex(ord(ch)) for ch in text], "return the numbers ord(ch) themselves, not hex strings"),
        when(lambda a: isinstance(a.got, str), "return a list of numbers, one per character, not a str"),
    ],
    hint="one id per character: [ord(ch) for ch in text]",
)

CHAR_DECODE = Exercise(
    name="char_decode",
    call="decode(ids)",
    reference=CharTokenizer().decode,
    solution=(CharTokenizer,),
    cases=lambda: [
        Case(([104, 105],), "hi", "two ASCII letters"),
        Case(([],), "", "no ids give the empty text"),
        Case(([233],), "é", "233 is the code point of 'é'"),
        Case(([72, 233, 108, 108, 111],), "Héllo", "a word with an accent"),
        Case(([26085, 26412],), "日本", "Chinese characters"),
        Case(([128578],), "🙂", "an emoji"),
        Case(([128075, 127997],), "👋🏽", "two code points, one visible symbol"),
        Case(([99, 97, 102, 101, 769],), "cafe\u0301", "an e and a combining accent (U+0301): 2 characters"),
        Case(([32, 32, 10],), "  \n", "two spaces and a new line: a text, not an empty one"),
        Case((CharTokenizer().encode(MIXED_SCRIPTS),), note="a mix of scripts"),
    ],
    diagnosers=[
        when(lambda a: _blank(a.expected) and a.got == "", _blank_hint("decode([32, 32, 32]) is '   '")),
        *(
            same_as(lambda ids, change=change: change("".join(chr(i) for i in ids)), hint)
            for change, hint in _TEXT_CHANGES
        ),
        same_as(
            lambda ids: [chr(i) for i in ids],
            "you returned a list of characters: join them into one str with ''.join(...)",
        ),
        same_as(
            lambda ids: " ".join(chr(i) for i in ids),
            "you put spaces between the characters: join with '' (the empty string), not ' '",
        ),
        on_error(
            ValueError,
            "the ids are code points (up to 1,114,111), not bytes: turn each one into a character with chr(i)",
            contains="range(0, 256)",
        ),
        on_error(
            UnicodeDecodeError, "the ids are code points, not UTF-8 bytes: turn each one into a character with chr(i)"
        ),
        same_as(
            lambda ids: "".join(str(i) for i in ids),
            "you joined the numbers as digits: turn each id into its character with chr(i)",
        ),
    ],
    hint="one character per id: ''.join(chr(i) for i in ids)",
)


def _same_text(text: str) -> str:
    return text


CHAR_ROUND_TRIP = Exercise(
    name="char_round_trip",
    call="decode(encode(text))",
    reference=_same_text,
    solution=(CharTokenizer,),
    cases=lambda: [
        Case((text,), text) for text in [*_TEXTS, "naïve café", "tab\tand\nnewline", MIXED_SCRIPTS, PARAGRAPH]
    ],
    diagnosers=[
        when(lambda a: _blank(a.args[0]) and a.got == "", _blank_hint("decode(encode('   ')) is '   '")),
        *(same_as(change, hint) for change, hint in _TEXT_CHANGES),
    ],
    hint="decoding what you encoded must give back exactly the text you started with",
)


class _RoundTrip:
    """decode(encode(text)) as one callable (an object, so error locations point at the learner's code)."""

    def __init__(self, encode: Any, decode: Any) -> None:
        self.encode, self.decode = encode, decode

    def __call__(self, text: str) -> Any:
        return self.decode(self.encode(text))

    def __repr__(self) -> str:
        return "decode(encode(...))"


def check_char_encode(encode: Any, *, record: bool = True) -> CheckResult:
    """Check ``encode(text) -> list[int]``: one code point per character."""
    return CHAR_ENCODE.check(encode, record=record)


def check_char_decode(decode: Any, *, record: bool = True) -> CheckResult:
    """Check ``decode(ids) -> str``: the inverse of ``encode``."""
    return CHAR_DECODE.check(decode, record=record)


def check_char_tokenizer(tokenizer: Any, decode: Any = None, *, record: bool = True) -> CheckResult:
    """Check a character tokenizer: encode, decode, and the round trip, counted as one exercise.

    Three ways to call it, whichever the notebook used:
    ``check_char_tokenizer(MyTokenizer)`` (a class, created with no arguments),
    ``check_char_tokenizer(my_tokenizer)`` (an object with ``encode`` and ``decode`` methods), or
    ``check_char_tokenizer(encode, decode)`` (two functions).
    """
    name = "char_tokenizer"
    if decode is not None:
        encode = tokenizer
    else:
        obj = tokenizer
        if isinstance(tokenizer, type):
            try:
                obj = tokenizer()
            except (Exception, SystemExit) as err:
                return _stop(
                    name,
                    f"could not create your tokenizer: {tokenizer.__name__}() raised "
                    f"{type(err).__name__}: {without_addresses(str(err))}\n   hint:     the checker creates it with no arguments; "
                    "give __init__ no parameters besides self",
                )
        encode, decode = getattr(obj, "encode", None), getattr(obj, "decode", None)
        if encode is None or decode is None:
            return _stop(
                name,
                f"expected a tokenizer with encode and decode methods, or two functions, but got "
                f"{kind(tokenizer)} {short(tokenizer)}.\n   hint:     call it as check_char_tokenizer(CharTokenizer) "
                "for a class, or check_char_tokenizer(encode, decode) for two functions",
            )
    parts = [(CHAR_ENCODE, encode), (CHAR_DECODE, decode)]
    if callable(encode) and callable(decode):
        parts.append((CHAR_ROUND_TRIP, _RoundTrip(encode, decode)))
    return check_parts(name, parts, record=record)


def _stop(name: str, problem: str) -> CheckResult:
    message = f"❌ {name}: {problem}"
    print(message)
    return CheckResult(False, name, 1, 0, "failed", message)
