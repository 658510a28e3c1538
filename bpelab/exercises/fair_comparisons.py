"""Lesson 15 checkers: numbers cut from the right, and the loss that compares tokenizers fairly.

- ``check_group_digits(fn)``: ``group_digits(digits) -> list of str``, a run of digits cut into threes from the
  right, as people group thousands ("1234567" -> ["1", "234", "567"]): what the "threes from the right" rule of
  ``bpelab.digit_rules`` does inside a split pattern.
- ``check_bits_per_byte(fn)``: ``bits_per_byte(probabilities, text) -> float``, the bits a model needs for a
  text (``-log2`` of the probability it gave each token, added up) divided by the text's UTF-8 bytes. The
  reference is the package's ``bpelab.analysis.bits_per_byte.bits_per_byte``. No case has an empty text: the
  package refuses one by name (no bytes to divide by), so the exercise asks only texts that have bytes, and a
  learner's answer may raise or return anything there. The longest case is a text of a real length (12,000 tokens,
  probabilities of 1e-4 to 1e-2): an answer that reads only the first probabilities is named there, and so is one
  that multiplies them in chunks of 88 or more (a chunk of small ones rounds to 0.0). The last case, three tokens
  at 1e-200, names a chunk of any size from 2: any two of them multiply to 1e-400, which rounds to 0.0. A
  ``Fraction`` or a ``Decimal`` of the right value is refused (``floats_only``): the exercise asks for a float, as
  lesson 14's ``gini`` does, and names it with the same hint.
"""

from __future__ import annotations

import math
import random
import unicodedata
from typing import Any

from bpelab.analysis.bits_per_byte import bits_per_byte
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same, same_as, when
from bpelab.exercises.number_answers import adjusted, floats_only, low_precision, not_a_float, rounding_hint

# ---- exercise 1: digits in threes from the right ---------------------------------------------------


def group_digits(digits: str) -> list[str]:
    """``digits`` cut into groups of three counted from the right end; the first group takes what is left (1-3)."""
    import regex  # imported here: show_solution prints this function, and pasted in a lesson it runs as it is

    from bpelab.digit_rules import DIGIT_RULES

    return regex.findall(DIGIT_RULES["threes from the right"], digits)


def _from_the_left(digits: str) -> list[str]:
    return [digits[i : i + 3] for i in range(0, len(digits), 3)]


def _groups_last_first(digits: str) -> list[str]:
    return group_digits(digits)[::-1]


def _backwards_digits(digits: str) -> list[str]:
    """Cut the reversed string in threes and forget to turn each group (and the list) back."""
    backwards = digits[::-1]
    return [backwards[i : i + 3] for i in range(0, len(backwards), 3)]


def _reversed_groups_not_turned(digits: str) -> list[str]:
    """Cut the reversed string, put the groups back in order, but forget to turn each group around."""
    return _backwards_digits(digits)[::-1]


def _zeros_stripped(digits: str) -> list[str]:
    """Leading zeros stripped from the string (``lstrip("0")``), then grouped: other scripts' digits stay."""
    return group_digits(digits.lstrip("0"))


def _not_strings(attempt: Attempt) -> bool:
    """A list whose groups are numbers (``[1, 234, 567]``), not strings."""
    return isinstance(attempt.got, list) and any(not isinstance(group, str) for group in attempt.got)


def _first_group_stripped(empty: str | None) -> Any:
    """The first group's zeros stripped (``groups[0].lstrip("0")``), the run's own leading zeros with them; a first
    group of zeros only becomes ``empty`` (None: dropped). Padding with zeros to a multiple of three first gives the
    same groups, since the padding is zeros in front of that same first group."""

    def group(digits: str) -> list[str]:
        groups = group_digits(digits)
        if groups:
            groups[0] = groups[0].lstrip("0") or (empty or "")
        return [g for g in groups if g] if empty is None else groups

    return group


FIRST_GROUP_STRIPPED = [_first_group_stripped(empty) for empty in (None, "", "0")]


def _diagnose_first_group_stripped(attempt: Attempt) -> str | None:
    """Names zeros stripped off the first group (after padding or not): ``'07700'`` gives ``['7', '700']``."""
    if not any(same_as(variant, "x")(attempt) for variant in FIRST_GROUP_STRIPPED):
        return None
    return (
        "you stripped the zeros off the first group ('07700' gave ['7', '700']): lstrip('0') there also takes the "
        "run's own leading zeros, which are digits like any other. Keep every group as cut; if you padded with "
        "zeros to a multiple of three, take off only the padding you added, groups[0][padding:]"
    )


def _plain_strings(value: Any) -> Any:
    """``value`` with every ``str`` subclass (``numpy.str_``) made a ``str``, inside lists and tuples too."""
    if isinstance(value, str):
        return str(value)
    if type(value) in (list, tuple):
        return type(value)(_plain_strings(v) for v in value)
    return value


def _holds_a_str_subclass(value: Any) -> bool:
    if isinstance(value, str):
        return type(value) is not str
    return type(value) in (list, tuple) and any(_holds_a_str_subclass(v) for v in value)


def numpy_strings(attempt: Attempt) -> bool:
    """The right answer, with ``numpy.str_`` (from a numpy array) where ``str`` belongs: the groups of
    ``group_digits``, the language of lesson 14's ``parity_next_pair`` (``names[i]`` of ``np.array(list(tokens))``).
    The engine compares strings by type too, so the answer is refused; this names why."""
    got = attempt.got
    return _holds_a_str_subclass(got) and same(_plain_strings(got), attempt.expected)


def _through_int(attempt: Attempt) -> bool:
    """The groups of ``f"{int(digits):,}"``: leading zeros gone, and other scripts' digits turned into ASCII, where
    that changes the groups (not an answer whose values are right)."""
    digits, got = attempt.args[0], attempt.got
    if not (bool(digits) and digits.isdigit() and isinstance(got, list)):
        return False
    values = [str(g) for g in got]
    return values != attempt.expected and values == f"{int(digits):,}".split(",")


def _ascii_digits_only(attempt: Attempt) -> bool:
    """Nothing found in digits of another script, as ``[0-9]`` finds nothing in ``١٢٣``."""
    digits = attempt.args[0]
    return attempt.got in ([], [""]) and bool(digits) and not digits.isascii()


def _turned_into_ascii(attempt: Attempt) -> bool:
    """The right groups of the digits turned into ASCII (``unicodedata.digit``, ``int()``, ``str.translate``): every
    digit kept, leading zeros too, but not the script the text was written in."""
    digits, got = attempt.args[0], attempt.got
    if digits.isascii() or not isinstance(got, list) or not isinstance(attempt.expected, list):
        return False
    as_ascii = ["".join(str(unicodedata.digit(c)) for c in group) for group in attempt.expected]
    return [str(g) for g in got] == as_ascii


def _crash_on_nothing(attempt: Attempt) -> str | None:
    """A crash on "" (``digits[0]``, ``max(digits)``, a division by ``len(digits)``): the empty string needs no cut."""
    if attempt.error is None or attempt.args[0] != "":
        return None
    return (
        f"your function raised {type(attempt.error).__name__} on an empty string: a string with no digits has no "
        "groups, so return [] for it (before any digits[0], max(...) or division by len(digits))"
    )


INT_HINT = (
    "int() drops leading zeros ('007' becomes 7) and turns other scripts' digits into ASCII: "
    "cut the string itself, counting from its right end"
)


GROUP_DIGITS = Exercise(
    name="group_digits",
    call="group_digits(digits)",
    reference=group_digits,
    cases=lambda: [
        Case(("1234567",), ["1", "234", "567"], "seven digits: the short group comes first"),
        Case(("123456",), ["123", "456"], "six digits: two full groups"),
        Case(("1234",), ["1", "234"], "four digits: 1 | 234, as in 1,234"),
        Case(("12",), ["12"], "two digits: one short group"),
        Case(("7",), ["7"], "one digit"),
        Case(("1000000",), ["1", "000", "000"], "a million: zeros are digits too"),
        Case(("0012345",), ["0", "012", "345"], "leading zeros are digits too: 0 | 012 | 345"),
        Case(("07700",), ["07", "700"], "the longest run in the lesson's unseen text: 07 | 700"),
        Case(("",), [], "no digits at all: no groups"),
        Case(("123",), ["123"], "three digits: one full group"),
        Case(("12345678",), ["12", "345", "678"], "eight digits: 12 | 345 | 678"),
        Case(("987654321",), ["987", "654", "321"], "nine digits: three full groups"),
        Case(("000123456789",), ["000", "123", "456", "789"], "twelve digits, three zeros first: four full groups"),
        Case(("١٢٣٤٥",), ["١٢", "٣٤٥"], "Arabic-Indic digits: a str of 5 characters, grouped the same way"),
        Case(("98765432109876543210",), note="twenty digits"),
    ],
    diagnosers=[
        when(
            numpy_strings,
            "the right groups, but of type numpy.str_ (from a numpy array), not str: return plain strings, "
            "[str(g) for g in groups] or array.tolist()",
        ),
        same_as(
            _from_the_left,
            "you grouped from the LEFT (123 | 456 | 7), as GPT-4's pattern does: count the groups from the right "
            "end, so that the short group is the first one",
        ),
        same_as(
            _groups_last_first,
            "the right groups, in reverse order: the group holding the first digits comes first in the list",
        ),
        same_as(
            _backwards_digits,
            "these are the digits read backwards: if you reverse the string to cut it, turn every group and "
            "the list back around afterwards",
        ),
        same_as(
            _reversed_groups_not_turned,
            "the groups are in the right order, but each one is written backwards: reverse each group back",
        ),
        when(
            lambda a: a.got == [""] and a.args[0] == "",
            "an empty string has no groups: return [] (a list with one empty string claims one group)",
        ),
        when(
            _not_strings,
            "return the groups as strings ('012', not 12): a group is a piece of the text, and as a number it "
            "loses its leading zeros",
        ),
        same_as(
            _zeros_stripped,
            "leading zeros were dropped ('07700' gave ['7', '700']): a zero at the start of a run is a digit "
            "like any other, keep it and cut the whole string",
        ),
        _diagnose_first_group_stripped,
        when(
            _turned_into_ascii,
            "the right groups, but in ASCII digits: '١٢٣٤٥' (Arabic-Indic) gave ['12', '345'], not ['١٢', '٣٤٥']. "
            "Turning the digits into numbers (unicodedata.digit, int(), str.translate) changes the text: cut the "
            "string itself, counting from its right end",
        ),
        when(_through_int, INT_HINT),
        on_error(ValueError, INT_HINT + "; an empty string has no groups: return []", contains="int()"),
        _crash_on_nothing,
        when(
            _ascii_digits_only,
            "[0-9] matches only the ASCII digits; '١٢٣٤٥' (Arabic-Indic) is digits too: \\d, str.isdigit() or "
            "plain slicing of the string take every script's digits",
        ),
    ],
    hint="the first group has len(digits) % 3 digits (or 3 if that is 0); after it, every group has 3",
)


def check_group_digits(group_digits: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``group_digits(digits) -> list of groups``; prints one report."""
    return GROUP_DIGITS.check(group_digits, record=record)


# ---- exercise 2: bits per byte ------------------------------------------------------------------------


def _per_character(probabilities: list[float], text: str) -> float:
    return -sum(math.log2(p) for p in probabilities) / len(text)


def _per_token(probabilities: list[float], text: str) -> float:
    return -sum(math.log2(p) for p in probabilities) / len(probabilities)


def _natural_log(probabilities: list[float], text: str) -> float:
    return -sum(math.log(p) for p in probabilities) / len(text.encode("utf-8"))


def _no_minus(probabilities: list[float], text: str) -> float:
    return sum(math.log2(p) for p in probabilities) / len(text.encode("utf-8"))


def _probabilities_added(probabilities: list[float], text: str) -> float:
    return -math.log2(sum(probabilities)) / len(text.encode("utf-8"))


def _floor_divided(probabilities: list[float], text: str) -> float:
    """The bits divided with ``//`` (floor division): the fraction of a bit per byte is dropped."""
    return -sum(math.log2(p) for p in probabilities) // len(text.encode("utf-8"))


def _multiplied_first(attempt: Attempt) -> str | None:
    """The case's probabilities multiply to 0.0 in floating point, and the answer failed or came back infinite:
    the product was taken before the log (``-log2(math.prod(p))``), which short cases cannot tell apart."""
    product_is_zero = math.prod(attempt.args[0]) == 0.0
    infinite = isinstance(attempt.got, float) and math.isinf(attempt.got)
    if not (product_is_zero and (attempt.error is not None or infinite)):
        return None
    return (
        "the product of many probabilities rounds to 0.0 (300 tokens at 1/16 make 2**-1200, below the smallest "
        "float), and log2(0) fails (math) or is -inf (numpy): take log2 of each probability and add those up"
    )


def _real_length_text() -> tuple[list[float], str]:
    """``REAL_LENGTH`` tokens of a text about four bytes each, with the probabilities a language model gives a text
    it finds hard: drawn between 1e-4 and 1e-2 (seeded, the same on every run), and a passage of 200 tokens at about
    1e-4 (random digits, a name never seen), where any 88 probabilities in a row multiply to less than the smallest
    float."""
    rng = random.Random(15)
    probabilities = [10 ** rng.uniform(-4, -2) for _ in range(REAL_LENGTH)]
    start = REAL_LENGTH // 2
    probabilities[start : start + 200] = [rng.uniform(5e-5, 2e-4) for _ in range(200)]
    words = ["the", "café’s", "menu", "costs", "1,234", "naïve", "über", "猫", "and", "tokens", "bytes", "—"]
    text = " ".join(rng.choice(words) for _ in range(REAL_LENGTH))
    return probabilities, text


REAL_LENGTH = 12_000
"""Tokens in the checker's longest case: an answer that adds up only the first few thousand probabilities (a slice,
a loop that stops early) is right on every shorter case."""


def _first_probabilities_only(attempt: Attempt) -> str | None:
    """The bits of the first probabilities only (``probabilities[:1000]``) over the whole text's bytes."""
    probabilities, text = attempt.args
    got = attempt.got
    if attempt.error is not None or not isinstance(got, (int, float)) or len(probabilities) <= 400:
        return None
    size = len(text.encode("utf-8"))
    bits = 0.0
    for first, p in enumerate(probabilities[:-1], start=1):
        bits -= math.log2(p)
        if first >= 2 and same(float(got), bits / size):
            return (
                f"your answer is the bits of the first {first:,} probabilities only: this text has "
                f"{len(probabilities):,} tokens, and every one of them costs bits. Add up -log2(p) for every "
                "probability, with no slice or count that stops early"
            )
    return None


def _multiplied_in_chunks(attempt: Attempt) -> str | None:
    """Right on a case whose whole product is 0.0 (300 tokens at 1/16), failed or infinite on the real-length case:
    the probabilities were multiplied a chunk at a time (``math.prod(probabilities[i : i + 100])``) before the log,
    and a chunk of small probabilities rounds to 0.0."""
    infinite = isinstance(attempt.got, float) and math.isinf(attempt.got)
    if not (attempt.error is not None or infinite) or math.prod(attempt.args[0]) != 0.0:
        return None
    if not any(math.prod(args[0]) == 0.0 and same(got, bits_per_byte(*args)) for args, got in attempt.history()):
        return None
    return (
        "you multiplied the probabilities in chunks before taking log2 (a product of 50 or 100 at a time): that was "
        "right on 300 tokens at 1/16, but a chunk of small probabilities multiplies to less than the smallest float "
        "(about 5e-324), and rounds to 0.0: 100 probabilities of 1e-4 make 1e-400, and so do just two of 1e-200. "
        "log2(0) fails (math) or is -inf (numpy), and no chunk size is safe: take log2 of each probability and add "
        "those up"
    )


_ROUNDED = rounding_hint(
    "bits per byte",
    "The check allows only for floating-point error (a relative difference of about 1e-9): return the value as "
    'computed and round only where you print it (f"{b:.3f}")',
    reference=bits_per_byte,
)


BITS_PER_BYTE = Exercise(
    name="bits_per_byte",
    call="bits_per_byte(probabilities, text)",
    reference=bits_per_byte,
    cases=lambda: [
        Case(([0.5, 0.5], "ab"), 1.0, "two tokens of one byte, each a coin flip: 1 bit each, 2 bits for 2 bytes"),
        Case(([0.5] * 4, "abcdefgh"), 0.5, "four tokens of two bytes, 1 bit each: 4 bits for 8 bytes"),
        Case(([0.25], "é"), 1.0, "é is ONE character but TWO bytes in UTF-8: 2 bits for 2 bytes"),
        Case(([0.125, 0.5], "猫 cat"), 4 / 7, "猫 is 3 bytes: 3 + 1 bits for 7 bytes"),
        Case(([1.0], "the"), 0.0, "a token the model was sure of costs nothing"),
        Case(([0.5], "🤖"), 0.25, "🤖 is one character of FOUR bytes (F0 9F A4 96): 1 bit for 4 bytes"),
        Case(
            ([0.5, 0.25], "e\u0301"),
            1.0,
            "the text 'e\\u0301', an e and a combining accent (U+0301): 3 bytes as the text has them, not the 2 of "
            "the one character é",
        ),
        Case(([0.1, 0.02, 0.3, 0.05], "the café’s menu"), note="four tokens, accents and a curly apostrophe"),
        Case(
            ([1 / 16] * 300, "ab" * 300),
            2.0,
            "300 tokens of two bytes, 4 bits each: 1,200 bits for 600 bytes (a real text has thousands of tokens)",
        ),
        Case(
            ([0.1, 0.02, 0.3, 0.05] * 100, "the café’s menu. " * 100),
            note="400 tokens, four probabilities a hundred times over; the text is 'the café’s menu. ' a hundred times",
        ),
        Case(
            _real_length_text(),
            note=f"a text of a real length: {REAL_LENGTH:,} tokens, most given 1e-4 to 1e-2, a passage of 200 at "
            "about 1e-4",
        ),
        Case(
            ([1e-200] * 3, "abc"),
            note="three tokens the model all but ruled out, 1e-200 each (a float holds them; any two multiply to "
            "1e-400, which rounds to 0.0)",
        ),
    ],
    diagnosers=[
        not_a_float("math.log2 and / (they give a float)"),
        same_as(
            _floor_divided,
            "you divided with // (floor division), which drops the fraction: 0.57 bits per byte becomes 0.0. "
            "Divide with /, which keeps it",
        ),
        _ROUNDED,
        low_precision("math.log2 of each probability, added up) or in float64 (np.float64)"),
        _first_probabilities_only,
        _multiplied_in_chunks,
        _multiplied_first,
        on_error(
            ZeroDivisionError,
            "you divided by zero, yet no text here is empty: count every UTF-8 byte of the text, "
            "len(text.encode('utf-8')), the bytes of non-ASCII characters included",
        ),
        when(
            lambda a: isinstance(a.got, (int, float)) and a.got < 0,
            "the answer is negative: log2 of a probability is at most 0, so the bits are MINUS its sum",
        ),
        same_as(_per_token, "that is bits per TOKEN: divide by the number of bytes of the text, not of tokens"),
        same_as(
            _per_character,
            "you divided by the number of characters: the exercise asks for bits per UTF-8 byte, "
            "len(text.encode('utf-8')), the unit whose count is the sum of a byte-level tokenizer's token lengths",
        ),
        same_as(_natural_log, "that is in nats (natural log): bits need log base 2, math.log2"),
        same_as(
            _probabilities_added,
            "add up the -log2 of each probability, not the probabilities themselves",
        ),
    ],
    hint="bits = -sum(math.log2(p) for p in probabilities); then divide by len(text.encode('utf-8'))",
)


def check_bits_per_byte(bits_per_byte: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``bits_per_byte(probabilities, text) -> float``; prints one report. A ``Fraction`` or a
    ``Decimal`` is refused (``floats_only``), where the engine would find ``Fraction(x) == x``."""
    return BITS_PER_BYTE.check(adjusted(bits_per_byte, BITS_PER_BYTE.reference, floats_only, 2), record=record)
