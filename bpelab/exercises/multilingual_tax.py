"""Checkers for lesson 09 (the multilingual tax): ``check_bytes_per_char`` and ``check_premium``."""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

import regex

from bpelab.analysis.tax import premium_table, token_tax
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.number_answers import (
    NearAnswer,
    adjusted,
    as_float,
    divisor_nudged,
    exactly,
    is_number,
    low_precision,
    nudge_in_code,
    rounding_hint,
    the_nudge,
)
from bpelab.exercises.toy_encoders import (
    SMALL_PARALLEL,
    cl100k_encode,
    encodings_let_go_after,
    one_token_per_char,
    one_token_per_word,
)

ROUNDED_ENOUGH = 0.005
"""The farthest an accepted bytes-per-character answer lies from the exact ratio: the ratio rounded to 2 places.
Only the exact ratio and its correct roundings to 2 or more places pass (``_accepted``), not any number this near."""


def bytes_per_char(texts: list[str]) -> float:
    """UTF-8 bytes of all the texts ÷ their characters, not rounded (0.0 for no characters)."""
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def _exact_ratio(texts: list[str]) -> Fraction:
    """The ratio as a fraction of ints, exactly (0 for no characters)."""
    chars = sum(len(t) for t in texts)
    return Fraction(sum(len(t.encode("utf-8")) for t in texts), chars) if chars else Fraction(0)


def _close(a: object, b: object) -> bool:
    """Within 0.005: how the diagnosers compare an answer with a mistake's (an accepted answer comes back to them
    as the exact ratio, so they cannot ask for the same rounding)."""
    return is_number(a) and is_number(b) and abs(a - b) <= ROUNDED_ENOUGH + 1e-9  # type: ignore[operator]


def _accepted(got: object, exact: Fraction | float) -> bool:
    """``got`` is the exact ratio (the float nearest it: what dividing the two ints gives) or a correct rounding of it
    to k >= 2 places: the float of a k-place decimal within half a unit of the k-th place (half-up and half-even
    both land there; a cut-off or a nudged number does not)."""
    if not is_number(got):
        return False
    exact = Fraction(exact)
    if float(got) == float(exact):  # type: ignore[arg-type]
        return True
    for places in range(2, 18):
        scale = 10**places
        for whole in (math.floor(exact * scale), math.ceil(exact * scale)):
            decimal = Fraction(whole, scale)
            if abs(decimal - exact) * 2 * scale <= 1 and float(decimal) == float(got):  # type: ignore[arg-type]
                return True
    return False


def _near_but_not_rounded(attempt: Attempt) -> bool:
    """Every answer lies within 0.005 of the exact ratio, and one is neither the ratio nor a rounding of it."""
    answers = _answers(attempt)
    return any(not _accepted(got, _exact_ratio(*args)) for (args, got), _ in zip(_calls(attempt), answers)) and all(
        _close(got, exact) for got, exact in answers
    )


class LittleOff(NearAnswer):
    """A float within the engine's 1e-9 of the exact ratio that is neither it nor a correct rounding of it: refused.
    When a tiny number added to the divisor or to the ratio puts it there, ``_nudged`` says so; otherwise the
    engine's near-answer hint (a product with 1 / n, a sum of parts: rounding in the last digits) is given."""


def _totals(texts: list[str]) -> tuple[int, int]:
    """The ratio's numerator and divisor: total bytes and total characters."""
    return sum(len(t.encode("utf-8")) for t in texts), sum(len(t) for t in texts)


def _nudged(attempt: Attempt) -> str | None:
    """The answer is a little off because a tiny number (1e-12, ``sys.float_info.epsilon`` ...) was added to the
    divisor or to the ratio: the same number on every case answered (``the_nudge``)."""
    if attempt.error is not None:
        return None
    value = attempt.got.value if isinstance(attempt.got, LittleOff) else attempt.got
    nudge = the_nudge(_totals, _calls(attempt))
    if nudge is None:
        return None
    return (
        f"a little off: your {value!r} is very near the exact ratio {attempt.expected!r}, but "
        "neither it nor it rounded (correctly, to 2 or more places), and only those pass, compared exactly. A tiny "
        f"number added to the divisor (a guard against 0) or to the ratio shifts it ({nudge_in_code(nudge, 'chars')} "
        "gives your number): guard the 0 with `if chars` instead, and divide the two whole numbers with `/`"
    )


def _within_rounding(got: object, exact: Fraction) -> object:
    """The exact ratio correctly rounded to 2 or more places counts as the exact ratio (round only when you show a
    number); an exact number of another kind (a ``Fraction``, a ``Decimal``) is judged as the float it stands for.
    Any other number is compared exactly: one within the engine's 1e-9 of the ratio becomes a ``LittleOff``, which
    equals no expected answer (``exactly()``, as ``check_premium`` compares)."""
    got = as_float(got)
    if _accepted(got, exact):
        return float(exact)
    near = exactly()(got, float(exact))
    return LittleOff(near.value, near.expected) if isinstance(near, NearAnswer) else near


def _mean_of_ratios(texts: list[str]) -> float:
    ratios = [len(t.encode("utf-8")) / len(t) for t in texts if t]
    return sum(ratios) / len(ratios) if ratios else 0.0


def _upside_down(texts: list[str]) -> float:
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    return sum(map(len, texts)) / n_bytes if n_bytes else 0.0


def _three_bytes_at_most(texts: list[str]) -> float:
    """Section 2's table taken as the whole rule: 1, 2 or 3 bytes by code point, so an emoji counts as 3, not 4."""
    chars = sum(len(t) for t in texts)
    n_bytes = sum(1 if ord(ch) < 0x80 else 2 if ord(ch) < 0x800 else 3 for t in texts for ch in t)
    return n_bytes / chars if chars else 0.0


def _by_graphemes(texts: list[str]) -> float:
    """Characters counted as they look (grapheme clusters, \\X): an e and its combining accent count as one."""
    chars = sum(len(regex.findall(r"\X", t)) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def _stripped(texts: list[str]) -> float:
    return bytes_per_char([t.strip() for t in texts])


UTF8_LIMITS = (0x80, 0x800, 0x10000)
"""The first code point that takes 2, 3 and 4 bytes in UTF-8."""

EDGES = ("U+007F takes 1 byte, U+0080 2", "U+07FF takes 2 bytes, U+0800 3", "U+FFFF takes 3 bytes, U+10000 4")


def _counted_by_hand(limits: tuple[int, int, int]) -> Callable[[list[str]], float]:
    """Bytes read off the code point with hand-written limits: ``o < limits[0]`` is 1 byte, and so on (``o < 0x7F``
    or ``o <= 0x80`` where ``o < 0x80`` belongs puts that edge one off)."""

    def size(o: int) -> int:
        return next((n for n, top in enumerate(limits, 1) if o < top), 4)

    def variant(texts: list[str]) -> float:
        chars = sum(len(t) for t in texts)
        return sum(size(ord(ch)) for t in texts for ch in t) / chars if chars else 0.0

    return variant


def _off_by_one_limits() -> list[tuple[tuple[int, int, int], tuple[int, ...]]]:
    """Every hand-written set of limits with one or more edges one off (o <= 0x80, o < 0x7FF ...), and which."""
    found = []
    for one, two, three in itertools.product((0, -1, 1), repeat=3):
        if one or two or three:
            limits = (UTF8_LIMITS[0] + one, UTF8_LIMITS[1] + two, UTF8_LIMITS[2] + three)
            found.append((limits, tuple(i for i, off in enumerate((one, two, three)) if off)))
    return found


def _edge_off_by_one(attempt: Attempt) -> str | None:
    """The answers are those of a byte count read off the code point with one or more range edges one off."""
    for limits, wrong in _off_by_one_limits():
        if _like(_counted_by_hand(limits))(attempt):
            edges = "; ".join(EDGES[i] for i in wrong)
            return (
                f"a character at the edge of a UTF-8 range was counted in the wrong range ({edges}): a limit is "
                "one off (`<` where `<=` belongs, or the other way round); let Python count, len(t.encode('utf-8'))"
            )
    return None


def _without_combining_marks(texts: list[str]) -> float:
    return bytes_per_char(["".join(ch for ch in t if not unicodedata.combining(ch)) for t in texts])


def _cut_at(way: Callable[[float], int]) -> Callable[[Attempt], int | None]:
    """The number of places k (3 or more) at which every answer is the exact ratio cut by ``way`` (down:
    math.floor or int(); up: math.ceil), or a correct rounding of it; one answer is not a rounding."""

    def places(attempt: Attempt) -> int | None:
        calls = _calls(attempt)
        if not all(is_number(got) for _, got in calls):
            return None
        answers = [(got, _exact_ratio(*args)) for args, got in calls]
        if all(_accepted(got, exact) for got, exact in answers):
            return None
        for k in range(3, 16):
            scale = 10**k
            if all(_accepted(got, exact) or got == way(float(exact) * scale) / scale for got, exact in answers):
                return k
        return None

    return places


def _cut_deeper(attempt: Attempt) -> str | None:
    """A cut (floor or ceil) at 3 or more places, named with its places."""
    down = _cut_at(math.floor)(attempt)
    if down is not None:
        return (
            f"cut off at {down} places (int(x * 10**{down}) / 10**{down} or math.floor) rather than rounded: that "
            "can land one unit of the last place away (int(x * 1000) / 1000 gives 1.666 for 5/3 = 1.666…, "
            "where rounding gives 1.667); return the exact ratio (round only when you show a number)"
        )
    up = _cut_at(math.ceil)(attempt)
    if up is not None:
        return (
            f"rounded UP at {up} places (math.ceil(x * 10**{up}) / 10**{up}): that can land one unit of the last place "
            "away (math.ceil(x * 1e4) / 1e4 gives 1.3334 for 4/3 = 1.3333…, where rounding gives 1.3333); "
            "return the exact ratio (round only when you show a number)"
        )
    return None


def _without_end_new_lines(texts: list[str]) -> float:
    return bytes_per_char([t.rstrip("\n") for t in texts])


def _each_text_once(texts: list[str]) -> float:
    """Each distinct text counted once (``set(texts)`` or ``dict.fromkeys(texts)``)."""
    return bytes_per_char(list(dict.fromkeys(texts)))


def _blank_texts_skipped(texts: list[str]) -> float:
    """Texts of only spaces left out (``if t.strip()``)."""
    return bytes_per_char([t for t in texts if t.strip()])


CLEANINGS = {
    "replace('\\r\\n', '\\n') makes the 2 characters of a Windows line end 1": lambda t: t.replace("\r\n", "\n"),
    "replace('\\r', '') drops the carriage returns, and they are characters": lambda t: t.replace("\r", ""),
    "removing U+200D (the zero-width joiner inside 👩‍💻) drops a character of 3 bytes": lambda t: t.replace(
        "\u200d", ""
    ),
    "expandtabs() makes 1 tab several spaces": str.expandtabs,
    "casefold() makes 'ß' (1 character, 2 bytes) 'ss' (2 characters)": str.casefold,
    "replace('\\r\\n', '\\n') makes the 2 characters of a Windows line end 1, and removing U+200D (the zero-width "
    "joiner inside 👩‍💻) drops a character of 3 bytes": lambda t: t.replace("\r\n", "\n").replace("\u200d", ""),
}
"""Ways of cleaning a text before counting it, each with what it changes (``bytes_per_char`` names them)."""

INVISIBLE_CLEANINGS = {
    "removing U+FEFF (the byte order mark at the start of some files, 3 bytes) drops a character": lambda t: t.replace(
        "\ufeff", ""
    ),
    "removing U+200B (the zero-width space, 3 bytes) drops a character": lambda t: t.replace("\u200b", ""),
    "removing U+200C (the zero-width non-joiner, 3 bytes) drops a character": lambda t: t.replace("\u200c", ""),
    "removing U+FE0F (the variation selector after ✅ in ✅️, 3 bytes) drops a character": lambda t: t.replace(
        "\ufe0f", ""
    ),
    "removing U+00AD (the soft hyphen, 2 bytes) drops a character": lambda t: t.replace("\u00ad", ""),
    "replace('\\u00a0', ' ') makes the no-break space U+00A0 (2 bytes) a space (1 byte)": lambda t: t.replace(
        "\u00a0", " "
    ),
    "removing U+2060 (the word joiner, 3 bytes) drops a character": lambda t: t.replace("\u2060", ""),
    "removing U+200E (the left-to-right mark, 3 bytes) drops a character": lambda t: t.replace("\u200e", ""),
    "removing U+200F (the right-to-left mark, 3 bytes) drops a character": lambda t: t.replace("\u200f", ""),
    "replace('\\u202f', ' ') makes the narrow no-break space U+202F (3 bytes) a space (1 byte)": lambda t: t.replace(
        "\u202f", " "
    ),
}
"""Invisible characters dropped (or a no-break space made a space) before counting, each with what it changes:
lesson 09's bytes_per_char and premium and lesson 10's room_for_answer and tokens_saved name them (``as_it_is``)."""

LINE_ENDS_AND_JOINERS = {what: change for what, change in CLEANINGS.items() if "\\r" in what or "U+200D" in what}
"""The cleanings of ``CLEANINGS`` that change a Windows line end or drop the zero-width joiner: lesson 09's premium
and lesson 10's room_for_answer and tokens_saved refuse them too, with the same hint (``as_it_is``)."""


def _joined_texts(separator: str) -> Callable[[list[str]], float]:
    """The texts joined into one with ``separator`` before they are counted."""
    return lambda texts: bytes_per_char([separator.join(texts)])


def _utf16_units(texts: list[str]) -> float:
    """Characters counted in UTF-16 code units: an emoji above U+FFFF counts twice."""
    chars = sum(len(t.encode("utf-16-le")) // 2 for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


NORMAL_FORMS = "NFC joins an e and its combining accent into one é, NFD splits é in two, NFKC makes ﬁ two letters"

INVISIBLES = [
    "\ufeffNo\u00a0way\u00a0out",
    "a\u200bb\u200bc",
    "\u2600\ufe0f\u2601\ufe0f\u2602\ufe0f",
    "co\u00adop\u00ader",
]
"""Texts holding invisible characters: a byte order mark (U+FEFF) once, a zero-width space (U+200B) twice, the
variation selector U+FE0F three times, a soft hyphen (U+00AD) and a no-break space (U+00A0) twice each, so that
dropping each kind (or making the no-break space a space) gives another ratio."""

PERSIAN_NON_JOINER = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
"""Persian می‌خواهم ('I want'): a zero-width non-joiner (U+200C) keeps its prefix apart from the verb."""

FRENCH_SPACES_AND_JOINER = "Prix\u202f: 5\u202f€, Section\u20605"
"""French puts a narrow no-break space (U+202F) before a colon and between a number and its unit, twice here; a word
joiner (U+2060) once keeps 'Section' and its number on one line."""

DIRECTION_MARKS = "\u200f\u05e9\u05dc\u05d5\u05dd\u200f ABC\u200e-123"
"""Hebrew שלום with a right-to-left mark (U+200F) on each side, and a left-to-right mark (U+200E) once in 'ABC-123':
dropping either kind gives another count."""

INVISIBLES_NOTE = (
    "invisible characters are characters too: a byte order mark U+FEFF (3 bytes), zero-width spaces U+200B (3), "
    "the variation selector U+FE0F of ☀️ (3), a soft hyphen U+00AD (2) and a no-break space U+00A0 (2, not 1)"
)


def _cleaned(change: Callable[[str], str]) -> Callable[[list[str]], float]:
    """The ratio of the texts changed by ``change`` before they are counted."""
    return lambda texts: bytes_per_char([change(t) for t in texts])


def as_it_is(what: str) -> str:
    """The hint for a text cleaned before it is counted: ``what`` says what the cleaning changes."""
    return f"count the text as it is: every character, \\r and U+200D included; no cleaning ({what})"


def _calls(attempt: Attempt) -> list[tuple[tuple, object]]:
    """(arguments, what came back) on this case and on every other case the function answered; on the other cases
    a number a little off (``LittleOff``) as its float, so that a mistake shown on this case is still named."""
    others = [(args, got.value if isinstance(got, NearAnswer) else got) for args, got in attempt.history()]
    return [(attempt.args, attempt.got), *others]


def _answers(attempt: Attempt) -> list[tuple[object, float]]:
    """(what came back, the exact ratio) on this case and on every other case the function answered."""
    return [(got, bytes_per_char(*args)) for args, got in _calls(attempt)]


def _like(variant: Callable[[list[str]], float]) -> Callable[[Attempt], bool]:
    """The answers are (to within rounding) what ``variant`` gives, here and on every other case answered, and
    ``variant`` is wrong here."""

    def like(attempt: Attempt) -> bool:
        if _close(variant(*attempt.args), attempt.expected):
            return False
        return all(_close(got, variant(*args)) for args, got in _calls(attempt))

    return like


def _every_answer(rule: Callable[[float], float]) -> Callable[[Attempt], bool]:
    """Every answer is ``rule(exact ratio)`` (an int() or a // gives math.floor), and one of them is wrong."""

    def holds(attempt: Attempt) -> bool:
        answers = _answers(attempt)
        return all(is_number(got) and got == rule(exact) for got, exact in answers) and any(
            got != exact for got, exact in answers
        )

    return holds


def _cut_to_two_places(way: Callable[[float], int]) -> Callable[[Attempt], bool]:
    """Every answer is the exact ratio cut to 2 places by ``way`` (down: math.floor or int(); up: math.ceil), or
    close enough; one of them is too far."""

    def holds(attempt: Attempt) -> bool:
        answers = _answers(attempt)
        return any(not _close(got, exact) for got, exact in answers) and all(
            is_number(got) and (_close(got, exact) or abs(got - way(exact * 100) / 100) < 1e-9)  # type: ignore[operator]
            for got, exact in answers
        )

    return holds


def _rounded_too_far(attempt: Attempt) -> bool:
    """Every answer is the exact ratio rounded (or cut) to 1 place, or right; one of them is wrong."""
    answers = _answers(attempt)
    return any(got != exact for got, exact in answers) and all(
        got == exact
        or (is_number(got) and any(got == way(exact * 10) / 10 for way in (round, math.floor, math.ceil, math.trunc)))
        for got, exact in answers
    )


BYTES_PER_CHAR = Exercise(
    name="bytes_per_char",
    call="bytes_per_char(texts)",
    reference=bytes_per_char,
    cases=lambda: [
        Case((["hello"],), 1.0, "ASCII only: one byte per character"),
        Case((["日本", "ab"],), 2.0, "2 CJK characters (3 bytes each) and 2 ASCII: 8 bytes / 4 characters"),
        Case((["héllo"],), 1.2, "é takes 2 bytes"),
        Case((["日", "abc"],), 1.5, "totals, not an average: 6 bytes / 4 characters"),
        Case((["añb"],), 4 / 3, "4 bytes / 3 characters = 1.333…; 1.33 (rounded to 2 places) is accepted too"),
        Case((["Привет"],), 2.0, "Cyrillic: 2 bytes per letter"),
        Case(
            (["cafe\u0301"],),
            1.2,
            "an e and a combining accent (U+0301, 2 bytes) are 2 characters to len(): 6 bytes / 5 characters",
        ),
        Case(
            (["👍a"],),
            2.5,
            "an emoji takes 4 bytes and is 1 character to len() (2 in UTF-16 code units): 5 bytes / 2 characters",
        ),
        Case(([" 日本 "],), 2.0, "a space at each end: 8 bytes / 4 characters"),
        Case((["\x7f\x80"],), 1.5, "U+007F is the last 1-byte character, U+0080 the first 2-byte one: 3 bytes / 2"),
        Case((["\u07ff\u0800"],), 2.5, "U+07FF is the last 2-byte character, U+0800 the first 3-byte one: 5 bytes / 2"),
        Case(
            (["\uffff\U00010000"],),
            3.5,
            "U+FFFF is the last 3-byte character, U+10000 the first 4-byte one: 7 bytes / 2",
        ),
        Case((["é"],), 2.0, "a single character: 2 bytes / 1 character"),
        Case(
            (["日本\nab\n", "é\n"],),
            13 / 8,
            "new lines are characters too, in the middle and at the end of a text: 13 bytes / 8 characters",
        ),
        Case(
            (["日本", "日本", "ab"],),
            14 / 6,
            "a text that occurs twice counts twice: 14 bytes / 6 characters = 2.333…",
        ),
        Case((["日本", "   "],), 1.8, "a text of only spaces has characters too (1 byte each): 9 bytes / 5 characters"),
        Case((["日本", ""],), note="an empty text after others adds nothing: the ratio of the others"),
        Case((["", "abc"],), note="an empty text first adds nothing: the ratio of the others"),
        Case((["日本\r\nab\r"],), note="a Windows line end (\\r\\n) is 2 characters, and a lone \\r 1"),
        Case((["👩\u200d💻 ok"],), note="👩‍💻 is 3 characters: 👩, the zero-width joiner U+200D (3 bytes), 💻"),
        Case((["日\tb"],), note="a tab is 1 character (1 byte), however wide it is drawn"),
        Case((["straße"],), note="'ß' is 1 character of 2 bytes"),
        Case((INVISIBLES,), note=INVISIBLES_NOTE),
        Case(
            ([PERSIAN_NON_JOINER],),
            note="Persian می‌خواهم holds a zero-width non-joiner (U+200C, 3 bytes), invisible but a character",
        ),
        Case(
            ([FRENCH_SPACES_AND_JOINER],),
            note="two narrow no-break spaces (U+202F, 3 bytes each, not 1) and a word joiner (U+2060, 3 bytes)",
        ),
        Case(
            ([DIRECTION_MARKS],),
            note="two right-to-left marks (U+200F) and a left-to-right mark (U+200E), 3 bytes each",
        ),
        Case(([],), 0.0, "no texts at all"),
        Case((["", ""],), 0.0, "only empty texts"),
        *(Case((texts,), note=f"the check sentences in {code!r}") for code, texts in SMALL_PARALLEL.items()),
    ],
    diagnosers=[
        when(
            _like(_mean_of_ratios),
            "you averaged each text's ratio; divide the TOTAL bytes by the TOTAL characters instead",
        ),
        when(_like(_upside_down), "upside down: bytes ÷ characters, not characters ÷ bytes"),
        same_as(
            lambda texts: 1.0 if texts and "".join(texts) else 0.0,
            "len(text) counts characters; count bytes with len(text.encode('utf-8'))",
        ),
        when(
            _like(_three_bytes_at_most),
            "a character above U+FFFF (an emoji such as 👍) takes 4 bytes in UTF-8, not 3: let Python count the "
            "bytes, len(t.encode('utf-8'))",
        ),
        when(
            _like(_by_graphemes),
            "count characters as len() does, one per code point: a combining accent (U+0301) after an e is a "
            "character of its own, though you see one letter (\\X counts what you see)",
        ),
        when(
            _like(_stripped),
            "spaces and new lines at the ends of a text are characters too (1 byte each): don't strip() the texts",
        ),
        _edge_off_by_one,
        when(
            _like(_without_combining_marks),
            "a combining accent (U+0301 after an e) is a character of its own, of 2 bytes: count it, don't drop "
            "the marks (no unicodedata.combining filter)",
        ),
        when(
            lambda a: a.got == 0.0 and sum(len(t) for t in a.args[0]) == 1,
            "one character is enough for a ratio: return 0.0 only when there are no characters at all",
        ),
        when(
            lambda a: a.got == 0.0 and "" in a.args[0] and any(a.args[0]),
            "an empty text adds nothing (0 bytes, 0 characters): leave it out of the totals, or let it add its "
            "0s; only when ALL the texts together have 0 characters is the answer 0.0 (test the total, `if chars`)",
        ),
        *(when(_like(_cleaned(change)), as_it_is(what)) for what, change in CLEANINGS.items()),
        *(when(_like(_cleaned(change)), as_it_is(what)) for what, change in INVISIBLE_CLEANINGS.items()),
        *(
            when(
                _like(_cleaned(partial(unicodedata.normalize, form))),
                f"unicodedata.normalize('{form}', ...) changes the characters before you count them ({NORMAL_FORMS}): "
                "count each text as it is",
            )
            for form in ("NFC", "NFKC", "NFD", "NFKD")
        ),
        *(
            when(
                _like(_joined_texts(separator)),
                f"you joined the texts with {separator!r} first: each join adds a character (and a byte) that is in no "
                "text; add up each text's bytes and characters on their own",
            )
            for separator in (" ", "\n", ", ")
        ),
        when(
            _like(_utf16_units),
            "the bytes are right, the characters are not: you counted UTF-16 code units (len(t.encode('utf-16-le')) "
            "// 2), where an emoji above U+FFFF such as 👍 is 2 units but 1 character to len(); count characters "
            "with len(t)",
        ),
        when(
            _like(_each_text_once),
            "a text that occurs twice is counted once here: don't go through set(texts) or dict.fromkeys(texts); "
            "every text counts, as often as it occurs",
        ),
        when(
            _like(_blank_texts_skipped),
            "a text of only spaces has characters too (1 byte each): don't skip it (no `if t.strip()`)",
        ),
        when(
            _like(_without_end_new_lines),
            "a new line is a character too (1 byte): don't strip the new lines off the texts",
        ),
        when(
            _every_answer(math.floor),
            "// (and int()) round down to a whole number: divide with / and return the exact ratio",
        ),
        when(
            _every_answer(round),
            "round() with no number of places rounds to a whole number: return the exact ratio (round only when "
            "you show a number; the checker accepts a correct rounding to 2 places or more, no fewer)",
        ),
        when(
            _cut_to_two_places(math.floor),
            "cut off at 2 places (int(x * 100) / 100 or math.floor) rather than rounded: that can land 0.01 away; "
            "return the exact ratio (round only when you show a number)",
        ),
        when(
            _cut_to_two_places(math.ceil),
            "rounded UP at 2 places (math.ceil(x * 100) / 100): that can land 0.01 away; "
            "return the exact ratio (round only when you show a number)",
        ),
        _cut_deeper,
        when(
            _rounded_too_far,
            "rounded too far: return the exact ratio (round only when you show a number; "
            "the checker accepts a correct rounding to 2 places or more, no fewer)",
        ),
        _nudged,
        rounding_hint(
            "ratio",
            "Return the exact ratio, and round only when you show a number; the checker accepts a correct rounding "
            "to 2 places or more, not a cut-off or a rounding up",
            bytes_per_char,
        ),
        low_precision("len() and / on the two whole numbers, as they come)"),
        when(
            _near_but_not_rounded,
            "close to the exact ratio, but neither it nor it rounded (correctly, to 2 or more places): something "
            "shifts the ratio a little (a character or byte too many or too few?); return total bytes ÷ total "
            "characters, exactly",
        ),
    ],
    hint="add up len(t.encode('utf-8')) and len(t) over all texts and divide; 0.0 when there are no characters",
)


def check_bytes_per_char(fn: Callable[[list[str]], float], *, record: bool = True) -> CheckResult:
    """Lesson 09, exercise 1. The exact ratio passes, and so does the ratio correctly rounded (half-up or half-even)
    to 2 or more places; no other number, however near."""
    return BYTES_PER_CHAR.check(adjusted(fn, _exact_ratio, _within_rounding, 1), record=record)


def premium(
    texts_by_language: dict[str, list[str]],
    encode: Callable[[str], Sequence[object]],
    language: str,
    reference: str = "en",
) -> float:
    """Total tokens of ``language`` ÷ total tokens of ``reference``, each text encoded on its own. Unlike
    ``token_tax`` (a table of every language, sentence by sentence parallel), the two languages may cut the same
    content into different numbers of sentences: every sentence counts."""
    for code in (language, reference):
        if code not in texts_by_language:
            raise KeyError(
                f"no texts for the language {code!r}; the languages given are {', '.join(texts_by_language)}"
            )
    reference_tokens = sum(len(encode(t)) for t in texts_by_language[reference])
    if not reference_tokens:
        raise ValueError(f"the reference language {reference!r} has 0 tokens, so no premium can be computed")
    return sum(len(encode(t)) for t in texts_by_language[language]) / reference_tokens


def _premium_variant(per_text: Callable[[str, Callable[[str], Sequence[object]]], float]):  # type: ignore[no-untyped-def]
    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        return sum(per_text(t, encode) for t in texts_by_language[language]) / sum(
            per_text(t, encode) for t in texts_by_language[reference]
        )

    return variant


def _mean_of_premiums(divide_by_pairs: bool):  # type: ignore[no-untyped-def]
    """The mean of each sentence's premium, divided by the number of pairs zip() made or of the language's
    sentences (the two differ when the languages have different numbers of sentences)."""

    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        pairs = list(zip(texts_by_language[language], texts_by_language[reference]))
        n = len(pairs) if divide_by_pairs else len(texts_by_language[language])
        return sum(len(encode(a)) / len(encode(b)) for a, b in pairs) / n

    return variant


def _joined(separator: str):  # type: ignore[no-untyped-def]
    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        return len(encode(separator.join(texts_by_language[language]))) / len(
            encode(separator.join(texts_by_language[reference]))
        )

    return variant


def _reference_changed(change: Callable[[str], str]):  # type: ignore[no-untyped-def]
    """The right premium, but with only the reference's texts changed by ``change`` before they are encoded."""

    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        changed = dict(texts_by_language)
        changed[reference] = [change(t) for t in texts_by_language[reference]]
        return premium(changed, encode, language, reference)

    return variant


def _each_text(change: Callable[[str], str]):  # type: ignore[no-untyped-def]
    """The right premium, but of texts changed by ``change`` (lower-cased, normalised) before they are encoded."""

    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        changed = {code: [change(t) for t in texts] for code, texts in texts_by_language.items()}
        return premium(changed, encode, language, reference)

    return variant


def _zipped(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    pairs = list(zip(texts_by_language[language], texts_by_language[reference]))
    return sum(len(encode(a)) for a, _ in pairs) / sum(len(encode(b)) for _, b in pairs)


def _ratio_of_means(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    def mean(texts):  # type: ignore[no-untyped-def]
        return sum(len(encode(t)) for t in texts) / len(texts)

    return mean(texts_by_language[language]) / mean(texts_by_language[reference])


def _each_sentence_once(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    return sum(len(encode(t)) for t in set(texts_by_language[language])) / sum(
        len(encode(t)) for t in set(texts_by_language[reference])
    )


def _skipping_blank(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    def total(texts):  # type: ignore[no-untyped-def]
        return sum(len(encode(t)) for t in texts if t.strip())

    return total(texts_by_language[language]) / total(texts_by_language[reference])


def _reference_the_first_language(texts_by_language, encode, language, reference=None):  # type: ignore[no-untyped-def]
    """No reference given: measured against the dict's first language, not English."""
    return premium(texts_by_language, encode, language, reference or next(iter(texts_by_language)))


def _reference_not_english_by_default(attempt: Attempt) -> str | None:
    """Called with three arguments, the function raised (no default) or measured against another language."""
    if len(attempt.args) != 3:
        return None
    return (
        "called without a reference, the premium is against English: give `reference` the default 'en', "
        "def premium(texts_by_language, encode, language, reference='en')"
    )


def _premium_parts(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    """The premium's numerator and divisor: the two languages' total tokens."""
    return (
        sum(len(encode(t)) for t in texts_by_language[language]),
        sum(len(encode(t)) for t in texts_by_language[reference]),
    )


def _floor_premium(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    return sum(len(encode(t)) for t in texts_by_language[language]) // sum(
        len(encode(t)) for t in texts_by_language[reference]
    )


PREMIUM = Exercise(
    name="premium",
    call="premium(texts_by_language, encode, language, reference)",
    reference=premium,
    cases=lambda: [
        Case(
            ({"en": ["ab", "c"], "xx": ["abcd", "ef"]}, one_token_per_char, "xx", "en"), 2.0, "6 characters against 3"
        ),
        Case(
            ({"en": ["a", "abcd"], "xx": ["ab", "a"]}, one_token_per_char, "xx", "en"),
            0.6,
            "3 tokens against 5: a language can be cheaper than the reference",
        ),
        Case(
            ({"en": ["one two", "three"], "xx": ["uno dos tres cuatro", "cinco seis"]}, one_token_per_word, "xx", "en"),
            2.0,
            "6 words against 3",
        ),
        Case(
            ({"en": ["ab", "cd"], "xx": ["abc", "def"]}, one_token_per_char, "en", "xx"),
            note="English measured against another reference: 4 tokens against 6",
        ),
        Case(
            ({"en": ["ab", "ab"], "xx": ["abc", "d"]}, one_token_per_char, "xx", "en"),
            1.0,
            "a sentence that occurs twice counts twice: 4 tokens against 4",
        ),
        Case(
            ({"en": ["ab"], "xx": ["\ufb01x"]}, one_token_per_char, "xx", "en"),
            1.0,
            "the ligature \ufb01 (U+FB01) is 1 character, so 1 token here: 2 tokens against 2",
        ),
        Case(
            ({"en": ["ab", "c"], "xx": ["abc"]}, one_token_per_char, "xx", "en"),
            1.0,
            "the same content in a different number of sentences (a translation may join two sentences into one, or "
            "split one in two): every sentence counts, 3 tokens against 3",
        ),
        Case(
            ({"en": ["the cafe"], "fr": ["le cafe\u0301", "la fe\u0301e"]}, cl100k_encode, "fr", "en"),
            note="GPT-4's tokenizer: é written as e + a combining accent (U+0301), as some texts come",
        ),
        Case(
            ({"en": ["the cafe\u0301, the caf\u00e9"], "fr": ["le cafe"]}, cl100k_encode, "fr", "en"),
            note="GPT-4's tokenizer: the reference writes é both ways, e + a combining accent (U+0301) and one "
            "character, as texts from several sources come: 6 tokens as sent (5 normalised to NFC, 7 to NFD)",
        ),
        Case(
            ({"en": ["THE CAFE"], "fr": ["le cafe"]}, cl100k_encode, "fr", "en"),
            note="GPT-4's tokenizer: the reference in capitals, 'THE CAFE', is 3 tokens ('the cafe' would be 2)",
        ),
        Case(
            ({"en": ["the cafe"], "fr": ["le cafe ", "  la fee"]}, cl100k_encode, "fr", "en"),
            note="GPT-4's tokenizer: spaces at the ends of the sentences are tokens too",
        ),
        Case(
            ({"en": ["ab"], "xx": ["a\nb", "c\n"]}, one_token_per_char, "xx", "en"),
            2.5,
            "a new line inside a sentence or at its end is a character, so a token here: 5 tokens against 2",
        ),
        Case(
            ({"en": ["the cafe"], "fr": ["le cafe\n", "la\nfee"]}, cl100k_encode, "fr", "en"),
            3.0,
            "GPT-4's tokenizer: new lines are tokens too, 6 tokens against 2 (with each new line made a space, 5)",
        ),
        Case(
            ({"en": ["the cafe"], "fr": ["le\tcafe", "la fee"]}, cl100k_encode, "fr", "en"),
            note="GPT-4's tokenizer: a tab is a token of its own, where a space joins the word after it",
        ),
        Case(
            ({"en": ["ab"], "xx": ["ab", "   "]}, one_token_per_char, "xx", "en"),
            2.5,
            "a sentence of only spaces is sent too, and costs tokens: 5 tokens against 2",
        ),
        Case(
            ({"en": ["ab"], "xx": ["a\r\nb", "c\r"]}, one_token_per_char, "xx", "en"),
            note="a Windows line end (\\r\\n) is 2 characters, so 2 tokens here, and a lone \\r 1",
        ),
        Case(
            ({"en": ["ab"], "xx": ["👩\u200d💻"]}, one_token_per_char, "xx", "en"),
            note="👩‍💻 is 3 characters (👩, the zero-width joiner U+200D, 💻), so 3 tokens here",
        ),
        Case(
            ({"en": ["No way out, see the cafe."], "xx": [*INVISIBLES, "re\u00adview"]}, cl100k_encode, "xx", "en"),
            note=f"GPT-4's tokenizer: {INVISIBLES_NOTE}; each costs tokens",
        ),
        Case(
            (
                {
                    "en": ["I want it.", "Price: 5 EUR, section 5."],
                    "xx": [PERSIAN_NON_JOINER, FRENCH_SPACES_AND_JOINER],
                },
                cl100k_encode,
                "xx",
                "en",
            ),
            note="GPT-4's tokenizer: a zero-width non-joiner (U+200C), narrow no-break spaces (U+202F) and a word "
            "joiner (U+2060), each sent and counted",
        ),
        Case(
            ({"en": ["Hello ABC-123"], "xx": [DIRECTION_MARKS]}, cl100k_encode, "xx", "en"),
            note="GPT-4's tokenizer: right-to-left marks (U+200F) and a left-to-right mark (U+200E), sent and counted",
        ),
        Case((SMALL_PARALLEL, one_token_per_char, "ru", "de"), note="Russian against German, by characters"),
        *(
            Case((SMALL_PARALLEL, cl100k_encode, code, "en"), note=f"{code!r} with GPT-4's tokenizer")
            for code in ("de", "ru", "ja")
        ),
        Case(
            ({"en": ["ab"], "de": ["abcdef"], "xx": ["abc"]}, one_token_per_char, "xx"),
            1.5,
            "no reference given: it is English by default (reference='en'), 3 tokens against 2",
        ),
        Case(
            ({"de": ["abc"], "en": ["ab"], "xx": ["abcd"]}, one_token_per_char, "xx"),
            2.0,
            "no reference given: English, wherever it stands in the dict (here second), 4 tokens against 2",
        ),
    ],
    diagnosers=[
        same_as(
            lambda t, encode, language, reference="en": premium(t, encode, reference, language),
            "upside down: divide the language's tokens by the REFERENCE's tokens",
        ),
        *(
            same_as(
                _mean_of_premiums(by_pairs),
                "you averaged the premium of each sentence; add up all tokens first, then divide once",
            )
            for by_pairs in (True, False)
        ),
        same_as(
            _premium_variant(lambda text, encode: len(text)), "you counted characters; count tokens: len(encode(text))"
        ),
        *(
            same_as(
                _joined(separator),
                "you joined the sentences into one text: that is the other way to measure a premium (section 4), "
                "not the one this exercise asks for; encode each sentence on its own and add up",
            )
            for separator in ("", " ", "\n")
        ),
        same_as(
            lambda t, encode, language, reference="en": premium(t, encode, language, "en"),
            "use the `reference` argument, not always 'en'",
        ),
        same_as(
            _skipping_blank,
            "a sentence of only spaces is sent too, and costs tokens: don't skip it (no `if t.strip()`)",
        ),
        same_as(
            _reference_the_first_language,
            "called without a reference, the premium is against English, not the dict's first language: give "
            "`reference` the default 'en', def premium(texts_by_language, encode, language, reference='en')",
        ),
        _reference_not_english_by_default,
        same_as(_floor_premium, "// rounds down to a whole number; use / for the exact ratio"),
        same_as(
            _zipped,
            "zip() stops at the shorter list, so sentences of one language were left out: a language may need more "
            "(or fewer) sentences for the same content; add up ALL its sentences, and all of the reference's",
        ),
        same_as(
            _ratio_of_means,
            "you divided the mean tokens per sentence: when the languages have different numbers of sentences that "
            "is not the premium; add up all tokens of each language and divide the totals",
        ),
        same_as(
            _each_sentence_once,
            "a sentence that occurs twice is counted once here: don't go through set(texts); every sentence counts",
        ),
        *(
            same_as(
                variant,
                "encode each sentence as it is, the reference's too: lower() changes the tokens (and the count); "
                "with GPT-4's tokenizer the reference 'THE CAFE' is 3 tokens, 'the cafe' 2",
            )
            for variant in (_each_text(str.lower), _reference_changed(str.lower))
        ),
        same_as(
            _each_text(str.strip),
            "encode each sentence as it is: spaces at its ends are tokens too, and strip() removes them",
        ),
        *(
            same_as(
                _each_text(change),
                "encode each sentence as it is: its new lines are sent too and cost tokens; strip('\\n'), "
                "rstrip('\\n') or replace('\\n', ' ') changes them",
            )
            for change in (
                lambda t: t.strip("\n"),
                lambda t: t.rstrip("\n"),
                lambda t: t.replace("\n", " "),
                lambda t: " ".join(t.splitlines()),
            )
        ),
        *(
            same_as(
                _each_text(change),
                "encode each sentence as it is: a tab is sent too, and costs other tokens than a space; "
                "replace('\\t', ' ') or expandtabs() changes them",
            )
            for change in (lambda t: t.replace("\t", " "), str.expandtabs)
        ),
        *(
            same_as(
                _each_text(partial(unicodedata.normalize, form)),
                "encode each sentence as it is: unicodedata.normalize changes its characters, and so its tokens",
            )
            for form in ("NFC", "NFKC", "NFD", "NFKD")
        ),
        *(
            same_as(
                _reference_changed(partial(unicodedata.normalize, form)),
                f"encode each sentence as it is, the reference's too: unicodedata.normalize('{form}', ...) on the "
                "reference's sentences changes their characters, and so their tokens (and the premium)",
            )
            for form in ("NFC", "NFKC", "NFD", "NFKD")
        ),
        *(same_as(_each_text(change), as_it_is(what)) for what, change in LINE_ENDS_AND_JOINERS.items()),
        *(same_as(_each_text(change), as_it_is(what)) for what, change in INVISIBLE_CLEANINGS.items()),
        same_as(
            lambda t, encode, language, reference="en": premium(t, encode, language, reference) - 1,
            "that is how much MORE the language costs (premium - 1, the '+25%' of a table): the premium is the ratio "
            "itself, 1.0 for parity with English; don't subtract 1",
        ),
        same_as(
            _premium_variant(lambda text, encode: len(text.split())),
            "you counted words (text.split()); count tokens: len(encode(text))",
        ),
        same_as(
            _premium_variant(lambda text, encode: len(text.encode("utf-8"))),
            "you counted bytes (len(text.encode('utf-8'))); count tokens: len(encode(text))",
        ),
        same_as(
            _premium_variant(lambda text, encode: len(set(encode(text)))),
            "you counted distinct token ids (len(set(encode(text)))): a token that occurs twice costs twice; count "
            "them all, len(encode(text))",
        ),
        divisor_nudged(_premium_parts, "premium", "reference_tokens", "exactly"),
        rounding_hint("premium", "a premium is a ratio: return it exact, and round only when you show it", premium),
    ],
    hint="sum(len(encode(t)) for t in texts_by_language[language]) ÷ the same sum for the reference language",
    course_functions=(token_tax, premium_table),  # the lesson's own table of premiums: nothing left to write
)


def check_premium(fn: Callable[..., float], *, record: bool = True) -> CheckResult:
    """Lesson 09, exercise 2. An exact number of another kind (a ``Fraction``) is judged as the float it stands for;
    the premium is a ratio of ints, so the answer must be its float exactly (``round(x, 9)`` does not pass)."""
    with encodings_let_go_after("cl100k_base"):
        return PREMIUM.check(adjusted(fn, premium, exactly(), 4), record=record)
