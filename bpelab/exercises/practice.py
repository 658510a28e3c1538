"""Checkers for lessons 09 (the multilingual tax) and 10 (tokens in practice).

Lesson 09: ``check_bytes_per_char``, ``check_premium``.
Lesson 10: ``check_room_for_answer``, ``check_estimate_cost``, ``check_shorter_prompt``.

The first four run a learner's function on cases through the engine in ``core``. The last one
checks a piece of text, not a function: it measures how many tokens a rewritten prompt saves and
whether the rewrite still asks for everything the original asked for.
"""

from __future__ import annotations

import copy
import inspect
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from functools import cache

from bpelab.analysis.tax import token_tax
from bpelab.exercises.core import Attempt, Case, CheckResult, Diagnoser, Exercise, same_as, when
from bpelab.exercises.showing import kind, short
from bpelab.production import ENCODING_NAMES, load_encoding

# ---- encoders the cases pass to the learner's functions -------------------------------------
# Plain module-level functions: they read well in a report ("<function one_token_per_char>")
# and are cheap to copy, unlike a tiktoken Encoding.


def one_token_per_char(text: str) -> list[int]:
    """A character tokenizer: easy to count by hand."""
    return [ord(ch) for ch in text]


def one_token_per_word(text: str) -> list[str]:
    """One token per whitespace-separated word."""
    return text.split()


@cache
def _encoding(name: str):  # type: ignore[no-untyped-def]
    return load_encoding(name)


def cl100k_encode(text: str) -> list[int]:
    """GPT-4's tokenizer (cl100k_base), special-looking text counted as text."""
    return _encoding("cl100k_base").encode_ordinary(text)


def count_o200k_tokens(text: str) -> int:
    """How many tokens GPT-4o's tokenizer (o200k_base) makes of ``text``."""
    return len(_encoding("o200k_base").encode_ordinary(text))


def count_words(text: str) -> int:
    """Whitespace-separated words: a stand-in token counter that is easy to check by hand."""
    return len(text.split())


# Three sentences written for these checks, so that they never depend on data files.
SMALL_PARALLEL: dict[str, list[str]] = {
    "en": ["The bakery opens at six.", "Bring an umbrella, it may rain.", "My brother plays the violin."],
    "de": ["Die Bäckerei öffnet um sechs.", "Nimm einen Schirm mit, es könnte regnen.", "Mein Bruder spielt Geige."],
    "ru": ["Пекарня открывается в шесть.", "Возьми зонт, может пойти дождь.", "Мой брат играет на скрипке."],
    "ja": ["パン屋は六時に開く。", "雨が降るかもしれないから、傘を持っていって。", "兄はバイオリンを弾く。"],
}


# ---- adjusting an answer before the engine compares it -----------------------------------------


class _Adjusted:
    """The learner's function, its answer passed through ``adjust(got, expected)`` before the engine compares it.

    The engine compares numbers to within 1e-9 and counts ``95.0`` as ``95``; two exercises here need
    another rule (a tolerance, a whole number). The engine reads a function's signature, source and
    code object for its messages ("line 3 of your function"); those still lead to the learner's function.
    """

    def __init__(self, fn: Callable[..., object], reference: Callable[..., object], adjust: Callable[..., object]):
        self.__wrapped__ = fn  # inspect.signature and inspect.getsource follow it
        self.__code__ = getattr(getattr(fn, "__func__", fn), "__code__", None)
        self._reference, self._adjust = reference, adjust

    def __call__(self, *args: object) -> object:
        expected = self._reference(*copy.deepcopy(args))  # before the learner's code can change the arguments
        return self._adjust(self.__wrapped__(*args), expected)


def _adjusted(fn: object, reference: Callable[..., object], adjust: Callable[..., object], n_args: int) -> object:
    """``fn`` wrapped in ``_Adjusted``, or ``fn`` itself when the engine will refuse it before calling it
    (not callable, or its parameters don't fit), so that its own message (e.g. "a method needs self") stays."""
    if not callable(fn):
        return fn
    try:
        inspect.signature(fn).bind(*range(n_args))
    except (TypeError, ValueError):
        return fn
    return _Adjusted(fn, reference, adjust)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# ---- lesson 09: bytes per character ---------------------------------------------------------

ROUNDED_ENOUGH = 0.005
"""How far a bytes-per-character answer may be from the exact ratio: an answer rounded to 2 places passes."""


def bytes_per_char(texts: list[str]) -> float:
    """UTF-8 bytes of all the texts ÷ their characters, not rounded (0.0 for no characters)."""
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def _close(a: object, b: object) -> bool:
    return _is_number(a) and _is_number(b) and abs(a - b) <= ROUNDED_ENOUGH + 1e-9  # type: ignore[operator]


def _within_rounding(got: object, expected: object) -> object:
    """An answer within 0.005 of the exact ratio counts as the exact ratio (round only when you show a number)."""
    return expected if _close(got, expected) else got


def _mean_of_ratios(texts: list[str]) -> float:
    ratios = [len(t.encode("utf-8")) / len(t) for t in texts if t]
    return sum(ratios) / len(ratios) if ratios else 0.0


def _upside_down(texts: list[str]) -> float:
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    return sum(map(len, texts)) / n_bytes if n_bytes else 0.0


def _like(variant: Callable[[list[str]], float]) -> Callable[..., bool]:
    """The answer is (to within rounding) what ``variant`` gives, and ``variant`` is wrong here."""
    return lambda a: _close(a.got, variant(*a.args)) and not _close(variant(*a.args), a.expected)


def _rounded_too_far(attempt) -> bool:  # type: ignore[no-untyped-def]
    got, expected = attempt.got, attempt.expected
    return _is_number(got) and any(got == round(expected, places) for places in (0, 1))


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
        Case((["👍a"],), 2.5, "an emoji takes 4 bytes"),
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
            _rounded_too_far,
            "rounded too far: return the exact ratio (round only when you show a number; "
            "2 places is the most the checker accepts)",
        ),
    ],
    hint="add up len(t.encode('utf-8')) and len(t) over all texts and divide; 0.0 when there are no characters",
)


def check_bytes_per_char(fn: Callable[[list[str]], float]) -> CheckResult:
    """Lesson 09, exercise 1. The exact ratio passes, and so does any answer within 0.005 of it (2 places)."""
    return BYTES_PER_CHAR.check(_adjusted(fn, bytes_per_char, _within_rounding, 1))


def _rounded_places(got: object, expected: float) -> int | None:
    """The number of decimal places the answer was rounded (or cut) to, if it is the exact cost rounded."""
    if not _is_number(got) or got == expected:
        return None
    for places in range(9, -1, -1):  # the most places that explain it: 0.0 is 0.004 rounded to 2 places
        scale = 10**places
        if any(got == way(expected * scale) / scale for way in (round, math.floor, math.ceil, math.trunc)):
            return places
    return None


def _rounding_hint(what: str, why: str) -> Diagnoser:
    """A diagnoser for an answer that is the exact ``what`` rounded (or cut) to some number of places."""

    def diagnose(attempt: Attempt) -> str | None:
        places = None if attempt.error is not None else _rounded_places(attempt.got, attempt.expected)
        if places is None:
            return None
        return f"the exact {what} rounded to {places} decimal place{'s' if places != 1 else ''}: don't round. {why}"

    return diagnose


# ---- lesson 09: the premium -----------------------------------------------------------------


class _Encoder:
    """Wraps an encode function so that ``token_tax`` (which wants an object) can use it."""

    def __init__(self, encode: Callable[[str], Sequence[object]]) -> None:
        self.encode = encode


def premium(
    texts_by_language: dict[str, list[str]],
    encode: Callable[[str], Sequence[object]],
    language: str,
    reference: str = "en",
) -> float:
    """Total tokens of ``language`` ÷ total tokens of ``reference``, each text encoded on its own."""
    tax = token_tax(texts_by_language, {"t": _Encoder(encode)}, reference=reference)
    premiums: dict[str, float] = dict(zip(tax["language"], tax["premium"]))
    return float(premiums[language])


def _premium_variant(per_text: Callable[[str, Callable[[str], Sequence[object]]], float]):  # type: ignore[no-untyped-def]
    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        return sum(per_text(t, encode) for t in texts_by_language[language]) / sum(
            per_text(t, encode) for t in texts_by_language[reference]
        )

    return variant


def _mean_of_premiums(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
    pairs = list(zip(texts_by_language[language], texts_by_language[reference]))
    return sum(len(encode(a)) / len(encode(b)) for a, b in pairs) / len(pairs)


def _joined(separator: str):  # type: ignore[no-untyped-def]
    def variant(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        return len(encode(separator.join(texts_by_language[language]))) / len(
            encode(separator.join(texts_by_language[reference]))
        )

    return variant


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
        Case((SMALL_PARALLEL, one_token_per_char, "ru", "de"), note="Russian against German, by characters"),
        *(
            Case((SMALL_PARALLEL, cl100k_encode, code, "en"), note=f"{code!r} with GPT-4's tokenizer")
            for code in ("de", "ru", "ja")
        ),
    ],
    diagnosers=[
        same_as(
            lambda t, encode, language, reference="en": premium(t, encode, reference, language),
            "upside down: divide the language's tokens by the REFERENCE's tokens",
        ),
        same_as(
            _mean_of_premiums, "you averaged the premium of each sentence; add up all tokens first, then divide once"
        ),
        same_as(
            _premium_variant(lambda text, encode: len(text)), "you counted characters; count tokens: len(encode(text))"
        ),
        same_as(_joined(""), "you joined the sentences into one text; encode each sentence on its own and add up"),
        same_as(_joined(" "), "you joined the sentences into one text; encode each sentence on its own and add up"),
        same_as(_joined("\n"), "you joined the sentences into one text; encode each sentence on its own and add up"),
        same_as(
            lambda t, encode, language, reference="en": premium(t, encode, language, "en"),
            "use the `reference` argument, not always 'en'",
        ),
        same_as(_floor_premium, "// rounds down to a whole number; use / for the exact ratio"),
        _rounding_hint("premium", "a premium is a ratio: return it exact, and round only when you show it"),
    ],
    hint="sum(len(encode(t)) for t in texts_by_language[language]) ÷ the same sum for the reference language",
)


def check_premium(fn: Callable[..., float]) -> CheckResult:
    """Lesson 09, exercise 2."""
    return PREMIUM.check(fn)


# ---- lesson 10: the context budget ----------------------------------------------------------


def room_for_answer(system: str, user: str, context_window: int, count_tokens: Callable[[str], int]) -> int:
    """Tokens left for the answer once the system and user prompts are in the window; 0 if they fill it."""
    return max(0, context_window - count_tokens(system) - count_tokens(user))


ROOM_FOR_ANSWER = Exercise(
    name="room_for_answer",
    call="room_for_answer(system, user, context_window, count_tokens)",
    reference=room_for_answer,
    cases=lambda: [
        Case(("Be brief.", "What is BPE?", 100, count_words), 95, "2 + 3 words in a window of 100"),
        Case(("", "one two three", 10, count_words), 7, "no system prompt"),
        Case(("a b c d e f", "g h i j k", 8, count_words), 0, "the prompts overflow the window: 0, never negative"),
        Case(("a b c", "d e f g h", 8, count_words), 0, "the prompts fill the window exactly"),
        Case(
            (
                "You are a careful assistant who answers in English.",
                "Summarise the report below in five bullet points.",
                4096,
                count_o200k_tokens,
            ),
            note="GPT-4o's tokenizer",
        ),
    ],
    diagnosers=[
        when(
            lambda a: isinstance(a.got, _FloatAnswer),
            "tokens are counted in whole numbers: return an int, not a float (a `/` somewhere, or a float "
            "window? the room is context_window - count_tokens(system) - count_tokens(user))",
        ),
        same_as(
            lambda s, u, w, count: w - count(s) - count(u),
            "the prompts already overflow here, so no room is left: return 0, never a negative number (max(0, ...))",
        ),
        same_as(
            lambda s, u, w, count: max(0, w - len(s) - len(u)),
            "len(text) counts characters; count tokens with count_tokens(text)",
        ),
        same_as(lambda s, u, w, count: max(0, w - count(u)), "the system prompt takes room too: subtract it as well"),
        same_as(
            lambda s, u, w, count: count(s) + count(u),
            "that is the size of the prompts; return what is LEFT of the window",
        ),
    ],
    hint="context_window minus count_tokens(system) minus count_tokens(user), and 0 if that is negative",
)


class _FloatAnswer:
    """A float where a whole number of tokens belongs; never equal to the expected int, shown as the float."""

    def __init__(self, value: float) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.value!r} (a float)"


def _no_floats(got: object, expected: object) -> object:
    """The engine counts 95.0 as 95; a count of tokens must be an int, so a float never passes."""
    return _FloatAnswer(got) if isinstance(got, float) else got


def check_room_for_answer(fn: Callable[..., int]) -> CheckResult:
    """Lesson 10, exercise 1. The answer must be an int: a float such as 95.0 is refused with its own hint."""
    return ROOM_FOR_ANSWER.check(_adjusted(fn, room_for_answer, _no_floats, 4))


# ---- lesson 10: cost ------------------------------------------------------------------------


def estimate_cost(input_tokens: int, output_tokens: int, input_price: float, output_price: float) -> float:
    """Dollars for one request; prices are in dollars per million tokens, as price lists give them."""
    return (input_tokens * input_price + output_tokens * output_price) / 1_000_000


ESTIMATE_COST = Exercise(
    name="estimate_cost",
    call="estimate_cost(input_tokens, output_tokens, input_price, output_price)",
    reference=estimate_cost,
    cases=lambda: [
        Case((1_000_000, 0, 2.0, 8.0), 2.0, "a million input tokens cost the input price"),
        Case((0, 1_000_000, 2.0, 8.0), 8.0, "a million output tokens cost the output price"),
        Case((2_000, 500, 1.0, 4.0), 0.004, "2,000 × $1 + 500 × $4, per million"),
        Case((0, 0, 3.0, 15.0), 0.0, "nothing sent, nothing paid"),
        Case((12_345, 678, 0.5, 1.5)),
    ],
    diagnosers=[
        same_as(
            lambda i, o, pi, po: (i * pi + o * po) / 1_000, "the prices are per MILLION tokens: divide by 1,000,000"
        ),
        same_as(lambda i, o, pi, po: i * pi + o * po, "the prices are per million tokens: divide by 1,000,000"),
        same_as(
            lambda i, o, pi, po: (i + o) * pi / 1_000_000, "output tokens have their own (higher) price: output_price"
        ),
        same_as(
            lambda i, o, pi, po: (i * po + o * pi) / 1_000_000,
            "the prices are swapped: input tokens pay input_price, output tokens pay output_price",
        ),
        same_as(
            lambda i, o, pi, po: (i * pi + o * po) // 1_000_000,
            "// divides and rounds down to a whole number (a cost of $0.004 becomes 0.0): divide with /",
        ),
        _rounding_hint(
            "cost",
            "One request often costs a fraction of a cent, and rounded requests add up to a wrong bill; round only "
            "when you show the number",
        ),
    ],
    hint="(input_tokens × input_price + output_tokens × output_price) ÷ 1,000,000",
)


def check_estimate_cost(fn: Callable[..., float]) -> CheckResult:
    """Lesson 10, exercise 2."""
    return ESTIMATE_COST.check(fn)


# ---- lesson 10: shorten a prompt, measured --------------------------------------------------

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

MUST_KEEP: dict[str, tuple[str, ...]] = {
    "a summary": ("summar", "resum", "synthes"),
    "of the review": ("review", "avis", "critique", "commentaire"),
    "three": ("three", "3", "trois"),
    "sentences": ("sentence", "phrase"),
    "in French": ("french", "francais"),
    "positive": ("positi",),
    "negative": ("negati",),
    "neutral": ("neutr",),
}
"""What the short prompt must still mention: each item with the word beginnings that count (English or French,
accents ignored). Only mentions are checked, not meaning: see ``check_shorter_prompt``."""

KEYWORDS_ONLY = (
    "This checker only looks for the words of each item (in English or French); it cannot read what your prompt "
    "asks for: 'not in French' mentions French too. Read your prompt once more yourself."
)


def _folded(text: str) -> str:
    """Lower case without accents, so that 'Résumé' and 'FRANÇAIS' match 'resum' and 'francais'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _missing(text: str, must_keep: Mapping[str, Sequence[str]]) -> list[str]:
    folded = _folded(text)
    return [item for item, options in must_keep.items() if not any(_folded(option) in folded for option in options)]


def check_shorter_prompt(
    short_prompt: object,
    *,
    original: str = WORDY_PROMPT,
    must_keep: Mapping[str, Sequence[str]] = MUST_KEEP,
    encoding: str = "o200k_base",
    target: float = 0.5,
) -> CheckResult:
    """Measure a rewritten prompt: tokens before and after, the saving, and whether it still MENTIONS every
    item of ``must_keep``. Passes when nothing is missing and at least ``target`` (a fraction) of the tokens
    are saved. A keyword check, said so in every report: it does not understand the prompt, so a prompt that
    mentions an item to contradict it ("not in French") passes too. Prints the report and returns the
    result; never raises."""
    name = "shorter_prompt"
    try:
        if (
            short_prompt is None
            or short_prompt is Ellipsis
            or (isinstance(short_prompt, str) and not short_prompt.strip())
        ):
            return _report(
                False,
                name,
                "not yet",
                f"⏳ {name}: not yet — write your shorter prompt as a string in `short_prompt` and run its cell, "
                "then run this check again.",
            )
        if not isinstance(short_prompt, str):
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: expected your prompt as a string (str), got {kind(short_prompt)} {short(short_prompt)}.",
            )
        if encoding not in ENCODING_NAMES:
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: unknown encoding {encoding!r}; choose from {', '.join(ENCODING_NAMES)}.",
            )
        count = lambda text: len(_encoding(encoding).encode_ordinary(text))  # noqa: E731
        before, after = count(original), count(short_prompt)
        saved = before - after
        share = saved / before if before else 0.0
        lines = [f"   tokens ({encoding}): {before} → {after}; saved {saved} ({share:.0%})"]
        if short_prompt.strip() == original.strip():
            return _report(
                False,
                name,
                "not yet",
                f"⏳ {name}: not yet — `short_prompt` is still the original prompt. Rewrite it and run its cell, "
                "then run this check again.\n" + lines[0],
            )
        missing = _missing(short_prompt, must_keep)
        if missing:
            lines.append(f"   missing:  your prompt no longer mentions: {', '.join(missing)}")
            lines.append("   hint:     cut the politeness and repetition, not the instructions")
            return _report(
                False, name, "failed", f"❌ {name}: shorter, but something the task needs is gone.\n" + "\n".join(lines)
            )
        if share < target:
            lines.append(f"   goal:     save at least {target:.0%} (at most {int(before * (1 - target))} tokens)")
            lines.append(
                "   hint:     greetings, thanks and 'I was wondering whether you could possibly' carry no instruction"
            )
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: everything is still mentioned; now make it shorter.\n" + "\n".join(lines),
            )
        return _report(
            True,
            name,
            "passed",
            f"✅ {name}: every item is still mentioned ({', '.join(must_keep)}), in {share:.0%} fewer tokens.\n"
            + lines[0]
            + f"\n   note:     {KEYWORDS_ONLY}",
        )
    except Exception as err:  # never raise on a learner's input
        return _report(
            False,
            name,
            "checker error",
            f"⚠️ {name}: the checker itself failed ({type(err).__name__}: {err}). This is a bug in bpelab; please report it.",
        )


def _report(passed: bool, name: str, status: str, message: str) -> CheckResult:
    print(message)
    return CheckResult(passed, name, None if passed else 1, 1, status, message)


__all__ = [
    "KEYWORDS_ONLY",
    "MUST_KEEP",
    "WORDY_PROMPT",
    "check_bytes_per_char",
    "check_estimate_cost",
    "check_premium",
    "check_room_for_answer",
    "check_shorter_prompt",
]
