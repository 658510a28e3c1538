"""Checkers for lesson 10's numbers: the room left for an answer in the context window, and what a request costs."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from decimal import Decimal

from bpelab.exercises.cases import Diagnoser
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.multilingual_tax import (
    DIRECTION_MARKS,
    FRENCH_SPACES_AND_JOINER,
    INVISIBLE_CLEANINGS,
    LINE_ENDS_AND_JOINERS,
    PERSIAN_NON_JOINER,
    as_it_is,
)
from bpelab.exercises.number_answers import FloatAnswer, adjusted, exactly, is_number, rounding_hint
from bpelab.exercises.toy_encoders import count_o200k_tokens, count_words, encodings_let_go_after


def room_for_answer(system: str, user: str, context_window: int, count_tokens: Callable[[str], int]) -> int:
    """Tokens left for the answer once the system and user prompts are in the window; 0 if they fill it."""
    return max(0, context_window - count_tokens(system) - count_tokens(user))


_COUNTS_WITH_GPT_4O = same_as(
    lambda s, u, w, count: max(0, w - count_o200k_tokens(s) - count_o200k_tokens(u)), "counts with GPT-4o's tokenizer"
)


def _own_counter(attempt: Attempt) -> str | None:
    """The learner's answers are GPT-4o's counts whatever counting function the check passes in: the function
    ignores its fourth argument (lesson 10's own count_tokens, section 1, counts with GPT-4o), named by the
    learner's own name for it."""
    if _COUNTS_WITH_GPT_4O(attempt) is None:
        return None
    name = attempt.parameters[3] if len(attempt.parameters) > 3 else "count_tokens"
    return (
        f"your function counts with GPT-4o's tokenizer (the lesson's own count_tokens?), not with `{name}`, the "
        f"counting function passed in: call `{name}(system)` and `{name}(user)`, so that it counts as the caller "
        "asks (these checks pass in a word counter too)"
    )


# A tab, a ligature (ﬃ) and twenty new lines in a row: each change below but .lower() gives other tokens ("HELLO"
# is the case for that).
_AS_SENT = "Name:\tAnn" + "\n" * 20 + "Oﬃce:\tB12"

_TABS = "turning tabs into spaces (.expandtabs(), .replace('\\t', ' '))"

# Ways to change a prompt before counting it, each named as the hint will name it.
_CHANGED_TEXT: tuple[tuple[str, Callable[[str], str]], ...] = (
    (".lower()", str.lower),
    (".casefold()", str.casefold),
    (".upper()", str.upper),
    *(
        (f"unicodedata.normalize('{form}', ...)", lambda t, f=form: unicodedata.normalize(f, t))
        for form in ("NFKC", "NFKD", "NFC", "NFD")
    ),
    *(
        (f"dropping the zero-width space U+200B ({how})", change)
        for how, change in (
            (".replace('\\u200b', '')", lambda t: t.replace("\u200b", "")),
            ("or making it a space", lambda t: t.replace("\u200b", " ")),
        )
    ),
    *(
        (f"dropping the byte-order mark U+FEFF ({how})", change)
        for how, change in (
            (".replace('\\ufeff', '')", lambda t: t.replace("\ufeff", "")),
            (".lstrip('\\ufeff')", lambda t: t.lstrip("\ufeff")),
        )
    ),
    *((f"{what} (count it as it is: invisible, it is sent)", change) for what, change in INVISIBLE_CLEANINGS.items()),
    (".replace('\\n\\n', '\\n')", lambda t: t.replace("\n\n", "\n")),
    *((_TABS, lambda t, n=n: t.expandtabs(n)) for n in (2, 4, 8)),
    *((_TABS, lambda t, n=n: t.replace("\t", " " * n)) for n in (1, 2, 4, 8)),
)


def _changed_before_counting(name: str, change: Callable[[str], str], hint: str = "") -> list[Diagnoser]:
    """Diagnosers for an answer that changes the system prompt, the user's message or both before counting."""
    hint = hint or (
        f"count each prompt whole and as it is sent: {name} changes the text, and changed text has other tokens "
        "(the model reads what was sent, capitals, tabs, ligatures and new lines included)"
    )
    return [
        same_as(lambda s, u, w, count, c=change: max(0, w - count(c(s)) - count(u)), hint),
        same_as(lambda s, u, w, count, c=change: max(0, w - count(s) - count(c(u))), hint),
        same_as(lambda s, u, w, count, c=change: max(0, w - count(c(s)) - count(c(u))), hint),
    ]


ROOM_FOR_ANSWER = Exercise(
    name="room_for_answer",
    call="room_for_answer(system, user, context_window, count_tokens)",
    reference=room_for_answer,
    cases=lambda: [
        Case(("Be brief.", "What is BPE?", 100, count_words), 95, "2 + 3 words in a window of 100"),
        Case(("", "one two three", 10, count_words), 7, "no system prompt"),
        Case(("a b c d e f", "g h i j k", 8, count_words), 0, "the prompts overflow the window: 0, never negative"),
        Case(("a b c", "d e f g h", 8, count_words), 0, "the prompts fill the window exactly"),
        Case(("", "a b c d e", 3, count_words), 0, "no system prompt, and the message alone overflows the window: 0"),
        Case(
            ("Answer in French", "Hello there", 50, count_o200k_tokens),
            45,
            "GPT-4o: 3 + 2 tokens (joined by a new line they would be 6)",
        ),
        Case(
            ("Be brief:", "2024-03-15", 50, count_o200k_tokens),
            41,
            "GPT-4o: 3 + 6 tokens (joined by a space they would be 10)",
        ),
        Case(
            ("Be brief.", "What is BPE?", 50, count_o200k_tokens),
            42,
            "GPT-4o: 3 + 5 tokens (written straight after each other they would be 7)",
        ),
        Case(
            ("Be brief.", "  What is BPE?  ", 50, count_o200k_tokens),
            40,
            "GPT-4o: 3 + 7 tokens (the spaces at the ends of the question are tokens too; stripped it would be 5)",
        ),
        Case(
            ("Be brief.", "List the names:\n- Ann\n- Bob\n", 50, count_o200k_tokens),
            37,
            "GPT-4o: 3 + 10 tokens; the message has several lines (counted line by line it would be 8)",
        ),
        Case(
            ("Be brief.", "Title?\n\nOnce upon a time.\nThe end.\n", 50, count_o200k_tokens),
            37,
            "GPT-4o: 3 + 10 tokens; a blank line and a new line at the end (line by line, keeping each line's "
            "new line, it would be 11)",
        ),
        Case(
            ("Be brief.", "Hello\n\nWorld", 50, count_o200k_tokens),
            44,
            "GPT-4o: 3 + 3 tokens; the message has two paragraphs (counted paragraph by paragraph it would be 2)",
        ),
        Case(
            ("  Be brief.  ", "What is BPE?", 50, count_o200k_tokens),
            40,
            "GPT-4o: 5 + 5 tokens (the spaces at the ends of the system prompt are tokens too; stripped it would be 3)",
        ),
        Case(
            ("Rules:\n- be brief\n- no lists", "What is BPE?", 50, count_o200k_tokens),
            36,
            "GPT-4o: 9 + 5 tokens; the system prompt has several lines (counted line by line it would be 8)",
        ),
        Case(
            ("   ", "What is BPE?", 50, count_o200k_tokens),
            44,
            "GPT-4o: 1 + 5 tokens; a system prompt of only spaces is sent too, and costs a token",
        ),
        Case(
            ("Be brief.", "   ", 50, count_o200k_tokens),
            46,
            "GPT-4o: 3 + 1 tokens; a user message of only spaces is sent too, and costs a token",
        ),
        Case(
            ("Rules:\n- be brief\n", "Hi", 50, count_o200k_tokens),
            43,
            "GPT-4o: 6 + 1 tokens; the new line at the end of the system prompt is a token too (without it, 5)",
        ),
        Case(
            ("Be brief.", "HELLO", 50, count_o200k_tokens),
            45,
            "GPT-4o: 3 + 2 tokens; the message as it is sent ('hello' would be 1)",
        ),
        Case(
            ("HELLO", "Hi", 50, count_o200k_tokens),
            47,
            "GPT-4o: 2 + 1 tokens; the system prompt as it is sent ('hello' would be 1)",
        ),
        Case(
            ("Be brief.", "Name:\tAnn", 50, count_o200k_tokens),
            43,
            "GPT-4o: 3 + 4 tokens; the tab as it is sent (with a space for it the message would be 3)",
        ),
        Case(
            ("Name:\tAnn", "Hi", 50, count_o200k_tokens),
            45,
            "GPT-4o: 4 + 1 tokens; the tab as it is sent (with a space for it the system prompt would be 3)",
        ),
        Case(
            ("Be brief.", _AS_SENT, 50, count_o200k_tokens),
            34,
            "GPT-4o: 3 + 13 tokens; a tab, a ligature and twenty new lines, counted as they are sent",
        ),
        Case(
            (_AS_SENT, "Hi", 50, count_o200k_tokens),
            36,
            "GPT-4o: 13 + 1 tokens; a tab, a ligature and twenty new lines, counted as they are sent",
        ),
        Case(
            ("Be brief.", "Re\u0301sume\u0301 en franc\u0327ais", 50, count_o200k_tokens),
            39,
            "GPT-4o: 3 + 8 tokens; é and ç written as a letter and a combining mark (U+0301, U+0327), as sent "
            "(normalised to NFC the message would be 3)",
        ),
        Case(
            ("Re\u0301ponds en franc\u0327ais.", "Hi", 50, count_o200k_tokens),
            40,
            "GPT-4o: 9 + 1 tokens; combining marks in the system prompt, as sent (normalised to NFC it would be 6)",
        ),
        Case(
            ("Réponds en français.", "Hi", 50, count_o200k_tokens),
            43,
            "GPT-4o: 6 + 1 tokens; é and ç as single characters, as sent (normalised to NFD it would be 9)",
        ),
        Case(
            ("Be brief.", "Réponds en français.", 50, count_o200k_tokens),
            41,
            "GPT-4o: 3 + 6 tokens; é and ç as single characters in the message, as sent (normalised to NFD it would "
            "be 9)",
        ),
        Case(
            ("Be brief.", "Name:\u200bAnn", 50, count_o200k_tokens),
            43,
            "GPT-4o: 3 + 4 tokens; a zero-width space (U+200B) is invisible but sent, and costs a token (without it, 3)",
        ),
        Case(
            ("Hi\u200b", "What is BPE?", 50, count_o200k_tokens),
            43,
            "GPT-4o: 2 + 5 tokens; a zero-width space at the end of the system prompt (without it, 1 + 5)",
        ),
        Case(
            ("Be brief.", "\ufeffHello", 50, count_o200k_tokens),
            45,
            "GPT-4o: 3 + 2 tokens; a byte-order mark (U+FEFF) at the start of the message is invisible but sent, and "
            "costs a token (without it, 1)",
        ),
        Case(
            ("\ufeffBe brief.", "Hi", 50, count_o200k_tokens),
            45,
            "GPT-4o: 4 + 1 tokens; a byte-order mark (U+FEFF) at the start of the system prompt (without it, 3 + 1)",
        ),
        Case(
            ("Be brief.", "Sign here -\r\n\r\n", 50, count_o200k_tokens),
            43,
            "GPT-4o: 3 + 4 tokens; each Windows line end (\\r\\n) is 2 characters, as sent (with \\n for each, 3)",
        ),
        Case(
            ("Be brief.", "Line one\rLine two", 50, count_o200k_tokens),
            42,
            "GPT-4o: 3 + 5 tokens; a lone carriage return (\\r) is a character, as sent (dropped, 4)",
        ),
        Case(
            ("Sign here -\r\n\r\n", "Hi", 50, count_o200k_tokens),
            45,
            "GPT-4o: 4 + 1 tokens; Windows line ends in the system prompt, as sent (with \\n for each, 3)",
        ),
        Case(
            ("Be brief.", "Team: 👩\u200d💻👨\u200d👩\u200d👧", 50, count_o200k_tokens),
            32,
            "GPT-4o: 3 + 15 tokens; 👩‍💻 and 👨‍👩‍👧 hold zero-width joiners (U+200D), sent and counted (without them, 12)",
        ),
        Case(
            ("Team: 👩\u200d💻👨\u200d👩\u200d👧", "Hi", 50, count_o200k_tokens),
            34,
            "GPT-4o: 15 + 1 tokens; zero-width joiners (U+200D) in the system prompt, sent and counted (without "
            "them, 12)",
        ),
        Case(
            ("Be brief.", "Please\u00a0summarise\u00a0this re\u00adview \u2705\ufe0f", 50, count_o200k_tokens),
            35,
            "GPT-4o: 3 + 12 tokens; no-break spaces (U+00A0), a soft hyphen (U+00AD) and the variation selector of "
            "✅️ (U+FE0F), as sent (with spaces for the no-break ones, 9; without the soft hyphen, 10; without "
            "U+FE0F, 11)",
        ),
        Case(
            ("Be brief.", "Reply in Persian: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", 50, count_o200k_tokens),
            39,
            "GPT-4o: 3 + 8 tokens; Persian writes می‌خواهم with a zero-width non-joiner (U+200C), sent and counted "
            "(without it, 7)",
        ),
        Case(
            ("Please\u00a0summarise\u00a0this re\u00adview \u2705\ufe0f", "Hi", 50, count_o200k_tokens),
            37,
            "GPT-4o: 12 + 1 tokens; no-break spaces, a soft hyphen and U+FE0F in the system prompt, as sent (with "
            "spaces for the no-break ones, 9; without the soft hyphen, 10; without U+FE0F, 11)",
        ),
        Case(
            ("Reply in Persian: " + PERSIAN_NON_JOINER, "Hi", 50, count_o200k_tokens),
            41,
            "GPT-4o: 8 + 1 tokens; a zero-width non-joiner (U+200C) in the system prompt, sent and counted (without "
            "it, 7)",
        ),
        Case(
            ("Be brief.", FRENCH_SPACES_AND_JOINER, 50, count_o200k_tokens),
            37,
            "GPT-4o: 3 + 10 tokens; French narrow no-break spaces (U+202F) and a word joiner (U+2060), as sent "
            "(with spaces for the narrow ones, 8; without the joiner, 9)",
        ),
        Case(
            (FRENCH_SPACES_AND_JOINER, "Hi", 50, count_o200k_tokens),
            39,
            "GPT-4o: 10 + 1 tokens; narrow no-break spaces (U+202F) and a word joiner (U+2060) in the system "
            "prompt, as sent (with spaces for the narrow ones, 8; without the joiner, 9)",
        ),
        Case(
            ("Be brief.", DIRECTION_MARKS, 50, count_o200k_tokens),
            40,
            "GPT-4o: 3 + 7 tokens; right-to-left marks (U+200F) and a left-to-right mark (U+200E), invisible but "
            "sent (without the right-to-left ones, 5; without the left-to-right one, 6)",
        ),
        Case(
            (DIRECTION_MARKS, "Hi", 50, count_o200k_tokens),
            42,
            "GPT-4o: 7 + 1 tokens; direction marks (U+200F, U+200E) in the system prompt, as sent (without the "
            "right-to-left ones, 5; without the left-to-right one, 6)",
        ),
        Case(("Be brief.", "What is BPE?", 9, count_o200k_tokens), 1, "GPT-4o: 3 + 5 tokens in 9: exactly 1 left"),
        Case(("Be brief.", "What is BPE?", 8, count_o200k_tokens), 0, "GPT-4o: 3 + 5 tokens in 8: none left"),
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
        _own_counter,
        when(
            lambda a: isinstance(a.got, FloatAnswer),
            "tokens are counted in whole numbers: return an int, not a float (a `/` somewhere, or a float "
            "window? the room is context_window - count_tokens(system) - count_tokens(user))",
        ),
        *(
            same_as(
                lambda s, u, w, count, g=guard: (w - count(s) - count(u)) if g(w - count(s) - count(u)) else 0,
                "one token left is room too: return 0 only when nothing is left, max(0, context_window - ...) "
                "(a test such as `room > 1` drops the last token)",
            )
            for guard in (lambda r: r > 1, lambda r: r >= 2)
        ),
        same_as(
            lambda s, u, w, count: w - count(s) - count(u),
            "the prompts already overflow here, so no room is left: return 0, never a negative number (max(0, ...))",
        ),
        when(
            lambda a: a.got is None and a.expected == 0,
            "None is not a number of tokens: when nothing is left for the answer, return 0",
        ),
        when(
            lambda a: a.expected == 0 and is_number(a.got) and a.got < 0,
            "no room is left here: return 0, never a negative number (max(0, ...), whatever the system prompt is)",
        ),
        *(
            same_as(
                lambda s, u, w, count, lines=lines: max(0, w - count(s) - sum(count(line) for line in lines(u))),
                "count the user's message whole, count_tokens(user): cut into lines, it is not what the message "
                "costs (the new lines are tokens too, or join the tokens beside them)",
            )
            for lines in (
                lambda u: u.split("\n"),
                lambda u: u.split("\n\n"),
                lambda u: u.splitlines(),
                lambda u: u.splitlines(keepends=True),
            )
        ),
        *(
            same_as(
                lambda s, u, w, count, lines=lines: max(0, w - sum(count(line) for line in lines(s)) - count(u)),
                "count the system prompt whole, count_tokens(system): cut into lines, it is not what the prompt "
                "costs (the new lines are tokens too, or join the tokens beside them)",
            )
            for lines in (
                lambda s: s.split("\n"),
                lambda s: s.splitlines(),
                lambda s: s.splitlines(keepends=True),
            )
        ),
        same_as(
            lambda s, u, w, count: max(0, w - (count(s) if s.strip() else 0) - count(u)),
            "a system prompt of only spaces is sent too, and costs tokens: count it (no `if system.strip()`)",
        ),
        *(
            same_as(
                lambda s, u, w, count, strip=strip: max(0, w - count(strip(s)) - count(u)),
                "the spaces and new lines at the ends of the system prompt are sent too, and cost tokens: count it "
                "as it is, don't strip() it",
            )
            for strip in (str.strip, str.rstrip, str.lstrip)
        ),
        *(
            same_as(
                lambda s, u, w, count, strip=strip: max(0, w - count(s) - count(strip(u))),
                "the spaces and new lines at the ends of the user's message are sent too, and cost tokens: count the "
                "user's message as it is, don't strip it (strip(), rstrip(), lstrip())",
            )
            for strip in (str.strip, str.rstrip, str.lstrip)
        ),
        same_as(
            lambda s, u, w, count: max(0, w - count(s) - (count(u) if u.strip() else 0)),
            "a user message of only spaces is sent too, and costs tokens: count it (no `if user.strip()`)",
        ),
        *(
            same_as(
                lambda s, u, w, count, strip=strip: max(0, w - count(strip(s, "\n")) - count(u)),
                "the new lines at the ends of the system prompt are sent too, and cost tokens: count it as it is, "
                "don't strip('\\n') it",
            )
            for strip in (str.strip, str.rstrip, str.lstrip)
        ),
        *(diagnoser for name, change in _CHANGED_TEXT for diagnoser in _changed_before_counting(name, change)),
        *(  # lesson 09's hint for the same clean-ups
            diagnoser
            for what, change in LINE_ENDS_AND_JOINERS.items()
            for diagnoser in _changed_before_counting(what, change, as_it_is(what))
        ),
        same_as(
            lambda s, u, w, count: max(0, w - len(s) - len(u)),
            "len(text) counts characters; count tokens with count_tokens(text)",
        ),
        same_as(lambda s, u, w, count: max(0, w - count(u)), "the system prompt takes room too: subtract it as well"),
        same_as(
            lambda s, u, w, count: max(0, w - count(s.strip()) - count(u.strip())),
            "the spaces and new lines at the ends of a prompt are sent too, and cost tokens: count each prompt as "
            "it is, don't strip() it",
        ),
        *(
            same_as(
                lambda s, u, w, count, sep=separator: max(0, w - count(s + sep + u)),
                "count each prompt on its own, count_tokens(system) and count_tokens(user): joined into one text, "
                "the tokenizer cuts differently where they meet, so the count is not what the two messages cost",
            )
            for separator in ("\n", " ", "")
        ),
        same_as(
            lambda s, u, w, count: count(s) + count(u),
            "that is the size of the prompts; return what is LEFT of the window",
        ),
    ],
    hint="context_window minus count_tokens(system) minus count_tokens(user), and 0 if that is negative",
)


def _no_floats(got: object, expected: object) -> object:
    """The engine counts 95.0 as 95; a count of tokens must be an int, so a float never passes."""
    return FloatAnswer(got) if isinstance(got, float) else got


def check_room_for_answer(fn: Callable[..., int], *, record: bool = True) -> CheckResult:
    """Lesson 10, exercise 2. The answer must be an int: a float such as 95.0 is refused with its own hint."""
    with encodings_let_go_after("o200k_base"):
        return ROOM_FOR_ANSWER.check(adjusted(fn, room_for_answer, _no_floats, 4), record=record)


def estimate_cost(input_tokens: int, output_tokens: int, input_price: float, output_price: float) -> float:
    """Dollars for one request; prices are in dollars per million tokens, as price lists give them."""
    return (input_tokens * input_price + output_tokens * output_price) / 1_000_000


def _whole_dollars(attempt: Attempt) -> str | None:
    """An answer that is every exact cost made a whole number, named by how: round() goes to the nearest whole
    number and gives an int, int() and math.floor() cut the fraction off and give an int, // cuts it off and
    gives a float when a price is a float."""
    if attempt.error is not None:
        return None
    answers = [(attempt.args, attempt.got), *attempt.history()]
    costs = [(estimate_cost(*args), got) for args, got in answers]
    if not all(is_number(got) for _, got in costs) or all(got == cost for cost, got in costs):
        return None
    ints = all(isinstance(got, int) for _, got in costs)
    if all(got == math.floor(cost) for cost, got in costs):
        if ints:
            return (
                "int() and math.floor() cut off everything after the point (a cost of $0.004 becomes 0): "
                "return the exact cost, not a whole number of dollars"
            )
        return "// divides and rounds down to a whole number (a cost of $0.004 becomes 0.0): divide with /"
    if all(got == round(cost) for cost, got in costs):
        return (
            "round() with no number of places rounds to the nearest whole number of dollars ($0.004 becomes 0, "
            "$1.50 becomes 2): return the exact cost, and round only when you show it"
        )
    return None


def _dollars(cost: float) -> str:
    """A cost written out in full, as a price list would: 4.6125e-06 as 0.0000046125."""
    return format(Decimal(repr(cost)), "f")


def _cut_at_places(way: Callable[[float], int], attempt: Attempt) -> tuple[int, float, float] | None:
    """Every answer is the exact cost, or the exact cost taken to the same number of places by ``way``
    (math.ceil: rounded up; math.floor: cut off), and one of them is not the exact cost: (places, an exact cost
    ``way`` changed, what it became). When ``way`` is math.floor, one answer must also differ from the cost
    rounded to those places, so that a rounding that happens to go down is not called a cut."""
    if attempt.error is not None:
        return None
    costs = [(estimate_cost(*args), got) for args, got in [(attempt.args, attempt.got), *attempt.history()]]
    if not all(is_number(got) for _, got in costs) or all(got == cost for cost, got in costs):
        return None
    for places in range(0, 10):
        scale = 10**places
        if not all(got == cost or got == way(cost * scale) / scale for cost, got in costs):
            continue
        if way is math.floor and all(got == cost or got == round(cost, places) for cost, got in costs):
            return None
        cost, got = next((cost, got) for cost, got in costs if got != cost)
        return places, cost, got
    return None


def _rounded_up(attempt: Attempt) -> str | None:
    """Every answer is the exact cost rounded UP to the same number of places (math.ceil(cost * 100) / 100), and
    one of them is not the exact cost; the hint shows one of the learner's own costs that the rounding changed."""
    found = _cut_at_places(math.ceil, attempt)
    if found is None:
        return None
    places, cost, got = found
    scale = 10**places
    return (
        f"rounded UP to {places} decimal place{'s' if places != 1 else ''} (math.ceil(cost * {scale}) / {scale}): "
        f"${_dollars(cost)} becomes {_dollars(got)}; return the exact cost, and round only when you show it"
    )


def _cut_off(attempt: Attempt) -> str | None:
    """Every answer is the exact cost cut off after the same number of places, 1 or more (math.floor(cost * 1e6)
    / 1e6 or int(...)), and one of them is not the exact cost (0 places is ``_whole_dollars``)."""
    found = _cut_at_places(math.floor, attempt)
    if found is None or found[0] == 0:
        return None
    places, cost, got = found
    scale = 10**places
    return (
        f"cut off after {places} decimal place{'s' if places != 1 else ''} (math.floor(cost * {scale}) / {scale} "
        f"or int(...)), not rounded: ${_dollars(cost)} becomes {_dollars(got)}; return the exact cost, and round "
        "only when you show it"
    )


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
        Case((1_500_000, 0, 1.0, 4.0), 1.5, "a million and a half input tokens at $1 per million: $1.50"),
        Case((123, 0, 0.0375, 0.15), 0.0000046125, "123 tokens at $0.0375 per million: $0.0000046125"),
        Case((1, 1, 0.01875, 0.075), 0.00000009375, "1 token at $0.01875 and 1 at $0.075 per million: $0.00000009375"),
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
        _whole_dollars,
        _rounded_up,
        _cut_off,
        rounding_hint(
            "cost",
            "One request often costs a fraction of a cent, and rounded requests add up to a wrong bill; round only "
            "when you show the number",
            estimate_cost,
        ),
    ],
    hint="(input_tokens × input_price + output_tokens × output_price) ÷ 1,000,000",
)


def check_estimate_cost(fn: Callable[..., float], *, record: bool = True) -> CheckResult:
    """Lesson 10, exercise 1. An exact number of another kind (a ``Decimal``) is judged as the float it stands for;
    the answer must be the exact cost to within 4 units in the last place (the order of the sums and products),
    so a rounded cost passes only where rounding changed nothing."""
    return ESTIMATE_COST.check(adjusted(fn, estimate_cost, exactly(ulps=4), 4), record=record)
