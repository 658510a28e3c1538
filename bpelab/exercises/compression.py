"""Checkers for lesson 08 (compression curves).

- ``check_bytes_per_token(fn)``: ``bytes_per_token(tokenizer, text) -> float``
- ``check_count_unused(fn)``: ``count_unused(tokenizer, text) -> int``
- ``check_smallest_vocab_size(search, tokenizer, text, production=..., within=0.10)``: the learner's search
  ``smallest_vocab_size(tokenizer, text, goal) -> int`` (a number alone is refused: it can be right for one
  tokenizer only). The search runs on the checker's own tokenizers, texts and goals, then on the lesson's
  tokenizer, whose size it measures against a production tokenizer on the same text: how close it is, and whether
  a smaller vocabulary would also do (the smallest one is the goal: every token costs parameters). The search
  is judged by how many sizes it measures (``MeasuredTokenizer``), not by a clock; the clocks that still run
  (``runaway.MAX_SECONDS`` on each of the checker's small cases, ``SEARCH_SECONDS`` on the lesson's tokenizer)
  only stop a loop that never ends.

The small cases are hand-checkable: a tokenizer with no merges (1.0 byte per token), one trained
on ``"abababab"`` (merges ``a``+``b``, then ``ab``+``ab``), one that learned ``ï`` (2 bytes).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import math
import numbers
import operator
import re
import types
import unicodedata
import warnings
from collections.abc import Callable
from fractions import Fraction

from bpelab.analysis.compression import bytes_per_token, first_reaching, smallest_vocab_size
from bpelab.byte_level import BPETokenizer
from bpelab.corpora import read_corpus
from bpelab.exercises import runaway
from bpelab.exercises.cleaned_text import (
    SEARCH_CLEANINGS,
    SEARCH_TEXTS,
    cleaned_cases,
    cleaned_hint,
    cleaning_diagnosers,
    empty_text_answered,
)
from bpelab.exercises.comparing import same
from bpelab.exercises.core import (
    MAX_STEPS,
    Attempt,
    Case,
    CheckResult,
    Exercise,
    on_error,
    recording,
    same_as,
    when,
)
from bpelab.exercises.course_functions import code_names, unwrapped
from bpelab.exercises.diagnosers import right_for_another_call
from bpelab.exercises.running import Outcome, call
from bpelab.exercises.samples import MIXED_SCRIPTS, PARAGRAPH
from bpelab.exercises.showing import kind, short, without_addresses
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES


def _abab() -> BPETokenizer:
    """Trained on "abababab" with no split pattern: 256 = "a"+"b", 257 = "ab"+"ab"."""
    return BPETokenizer().train("abababab", 258)


def _i_diaeresis() -> BPETokenizer:
    """Trained on "ïïïï": its one merge joins the two UTF-8 bytes of "ï" (0xC3 0xAF)."""
    return BPETokenizer().train("ïïïï", 257)


def _paragraph() -> BPETokenizer:
    """Trained on the paragraph to 314 ids: every pair that occurs twice merged (58 merges), none left."""
    return BPETokenizer().train(PARAGRAPH, 314, pattern="cl100k")


def _blank_lines() -> BPETokenizer:
    """Trained on "one\\n\\ntwo\\n\\nthree\\n\\n" with GPT-4's split, which keeps "\\n\\n" as one piece: its one
    merge, 256, joins the two line breaks, a token that only a text encoded whole (not line by line) can use."""
    return BPETokenizer().train("one\n\ntwo\n\nthree\n\n", 257, pattern="cl100k")


def _with_special_token() -> BPETokenizer:
    """``_abab`` with the special token ``<|endoftext|>`` (id 258): 259 ids, one more than 256 + its 2 merges."""
    return BPETokenizer().train("abababab", 259, special_tokens=["<|endoftext|>"])


def _with_ten_special_tokens() -> BPETokenizer:
    """``_abab`` with ten special tokens: ``vocab_size`` is 268, but the sizes ``truncated`` takes end at 258."""
    return BPETokenizer().train("abababab", 268, special_tokens=[f"<|special {i}|>" for i in range(10)])


def _cdcd() -> BPETokenizer:
    """Trained on "cdcdcdcd": 2 merges, like ``_abab``, but neither applies to "abababab"."""
    return BPETokenizer().train("cdcdcdcd", 258)


@functools.lru_cache(maxsize=1)
def _lesson_code() -> str:
    """Lesson 08's code text, ``read_corpus("code")`` (52,437 characters)."""
    return read_corpus("code")


@functools.lru_cache(maxsize=1)
def _trained_on_code() -> BPETokenizer:
    """Lesson 08's ``code_bpe``, trained once per session: never handed to a learner's function (``_code_bpe``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TrainingStoppedEarly: it stops at 2,287 ids, as in the lesson
        return BPETokenizer().train(_lesson_code(), 10_000, pattern="cl100k")


def _code_bpe() -> BPETokenizer:
    """Lesson 08's ``code_bpe`` (``BPETokenizer().train(texts["code"], 10_000, pattern="cl100k")``, 2,287 ids): a copy
    of the cached one, so that a learner's function that changes its tokenizer changes only its own."""
    trained = _trained_on_code()
    return trained.truncated(256 + len(trained.merges))


def _in_pieces(tokenizer: BPETokenizer, text: str) -> list[int]:
    """A typical mistake: the text cut into whitespace-led chunks of the learner's own (``re.findall(r"\\s*\\S+|\\s+",
    text)``), each encoded alone: a token that runs from punctuation into the line break after it (GPT-4's split
    keeps '.\\n\\n' as one piece) never forms."""
    return [i for piece in re.findall(r"\s*\S+|\s+", text) for i in tokenizer.encode(piece)]


def _by_paragraphs(tokenizer: BPETokenizer, text: str) -> list[int]:
    """A typical mistake: the text split on blank lines (``text.split("\\n\\n")``), each part encoded alone: the
    blank lines themselves are never encoded, and no token spans them."""
    return [i for part in text.split("\n\n") for i in tokenizer.encode(part)]


PIECES_HINT = (
    "encoding the text in pieces of your own changes where tokens can form: encode the whole text at once, "
    "tokenizer.encode(text), and let the tokenizer's own split pattern cut it (GPT-4's keeps a punctuation mark "
    "with the line breaks after it, '.\n\n' one piece, so a token can span them)"
)


LONG_TEXT = PARAGRAPH * 12 + MIXED_SCRIPTS * 100
"""About 10,000 characters: English first, other scripts at the end, so a measure of only the start (text[:1000],
text[:5000]) gives another number than the whole text."""

WHOLE_TEXT_END = "\n¿Fin? ½ · 3 × 4 ≠ 11 ✓"
"""Characters found nowhere else in ``WHOLE_TEXT`` (nor in the paragraph or the other scripts), at its very end: their
byte tokens are used only by a function that encodes the text to its last character."""

WHOLE_TEXT = PARAGRAPH * 300 + MIXED_SCRIPTS * 2000 + WHOLE_TEXT_END
"""About 222,000 characters: English first, other scripts after, a few characters of its own at the end. Longer
than any prefix a function is likely to cut (text[:10000], text[:100000], text[:200000]): any prefix gives another
bytes per token (the share of other scripts grows to the end) and leaves the last characters' tokens unused."""

PREFIX_LENGTHS = (
    *(100, 200, 250, 256, 300, 400, 500, 512, 1000, 1024, 2000, 2048, 4096, 5000, 8192),
    *(10_000, 16_384, 20_000, 32_768, 50_000, 65_536, 100_000, 131_072, 200_000),
)
"""The lengths a function that measures only the start of the text is tried with (text[:n])."""


def _prefix_hint(n: int, text: str, what: str) -> str:
    return (
        f"you {what} only the start of the text, its first {n:,} characters (text[:{n}]): this text has "
        f"{len(text):,}. Use the whole text, however long"
    )


def _ids(tokenizer: BPETokenizer, text: str) -> list[int]:
    return tokenizer.encode(text)


REMEMBERED_HINT = (
    "seems to remember its results between calls, keyed by the text and something two tokenizers can share, such "
    "as len(tokenizer.merges) (two tokenizers of one size), id(tokenizer) or id(tokenizer.merges) (Python gives "
    "the id of a freed object to a new one, so a tokenizer cut back to another size can get the id of the one "
    "before it, and a tokenizer trained again keeps its id). Measure afresh at each call: encode the "
    "text with the tokenizer you are given"
)


def _an_earlier_answer(attempt: Attempt) -> object | None:
    """The answer is wrong, and is what an earlier check on the same text (another tokenizer) had to answer."""
    return right_for_another_call(attempt, bytes_per_token, key=1)


def _only_the_start(attempt: Attempt) -> str | None:
    """The answer is that of the text's first n characters, for one of ``PREFIX_LENGTHS`` shorter than the text."""
    tokenizer, text = attempt.args
    for n in PREFIX_LENGTHS:
        if n < len(text) and same(attempt.got, bytes_per_token(tokenizer, text[:n])):
            return _prefix_hint(n, text, "measured")
    return None


def _counted_only_the_start(attempt: Attempt) -> str | None:
    """``count_unused`` of the text's first n characters, for one of ``PREFIX_LENGTHS`` shorter than the text."""
    tokenizer, text = attempt.args
    lengths = [n for n in PREFIX_LENGTHS if n < len(text) and same(attempt.got, count_unused(tokenizer, text[:n]))]
    if len(lengths) == 1:
        return _prefix_hint(lengths[0], text, "encoded")
    if lengths:
        which = ", ".join(f"{n:,}" for n in lengths[:-1]) + f" or {lengths[-1]:,}"
        return (
            f"you encoded only the start of the text (text[:n]; n = {which} all give this count): this text has "
            f"{len(text):,} characters, and its last ones use tokens that occur nowhere before. Use the whole text, "
            "however long"
        )
    return None


_CHANGED_TOKENIZERS: dict[tuple, str] = {}
"""The calls of the learner's ``bytes_per_token`` in a check that changed the tokenizer they were given: keyed by
the text and the tokenizer's merges before the call, the tokenizer as the call left it."""


def _merges_of(tokenizer: object) -> tuple | None:
    merges = getattr(tokenizer, "merges", None)
    return tuple(merges.items()) if isinstance(merges, dict) else None


def _changed_its_tokenizer(attempt: Attempt) -> str | None:
    """A diagnoser: this call changed the tokenizer it was given (``tokenizer.merges.clear()``, a merge deleted or
    added) and measured the changed one; its answer may be another check's, but nothing was remembered."""
    tokenizer, text = attempt.args[:2]
    now = _CHANGED_TOKENIZERS.get((text, _merges_of(tokenizer)))
    if now is None:
        return None
    return (
        f"your function changed the tokenizer it was given (it is now {now}), then measured the changed one: "
        "leave the tokenizer as it is (the caller still needs it, and its merges are what you measure); encode the "
        "text with tokenizer.encode(text) and change nothing of the tokenizer"
    )


def _normalized(tokenizer: BPETokenizer, text: str, form: str) -> float:
    """A typical mistake: the text Unicode-normalized before it is measured."""
    changed = unicodedata.normalize(form, text)  # type: ignore[arg-type]
    return len(changed.encode("utf-8")) / len(tokenizer.encode(changed))


def normalized_hint(form: str, doing: str, do: str) -> str:
    """The hint for a text Unicode-normalized (``form``) before it is used: ``doing`` it ("measuring", "encoding"),
    where the function should ``do`` that with the text as it is."""
    return (
        f"you normalized the text (unicodedata.normalize('{form}', ...)) before {doing}: that changes its "
        "characters ('e' + a combining accent becomes 'é', the ligature 'ﬁ' becomes 'f' + 'i') and so its "
        f"bytes and tokens; {do} the text as it is, as encode receives it"
    )


NORMAL_FORMS = ("NFC", "NFKC", "NFD", "NFKD")


def _line_by_line(tokenizer: BPETokenizer, text: str) -> list[int]:
    """A typical mistake: the text encoded one line at a time, each keeping its line break
    (``text.splitlines(keepends=True)``): a token spanning a line break, such as "\\n\\n", is never used."""
    return [i for line in text.splitlines(keepends=True) for i in tokenizer.encode(line)]


# ---- bytes per token ------------------------------------------------------------------------


UPSIDE_DOWN_HINT = "upside down: bytes ÷ tokens, not tokens ÷ bytes (more compression = a larger number)"


BYTES_PER_TOKEN = Exercise(
    name="bytes_per_token",
    call="bytes_per_token(tokenizer, text)",
    reference=bytes_per_token,
    cases=lambda: [
        Case((BPETokenizer(), "hello"), 1.0, "no merges: one token per byte"),
        Case((BPETokenizer(), "héllo"), 1.0, "no merges: é is 2 bytes and 2 tokens"),
        Case((_abab(), "abababab"), 4.0, "'abab' twice: 8 bytes in 2 tokens"),
        Case((_abab(), "abab ab"), 7 / 3, "'abab', ' ', 'ab': 7 bytes in 3 tokens"),
        Case((_i_diaeresis(), "ïïï"), 2.0, "each ï is one token of 2 bytes: 6 bytes in 3 tokens"),
        Case(
            (_abab(), " abab\n"),
            2.0,
            "a space and a new line at the ends are bytes of the text too: ' ', 'abab', '\\n' are 6 bytes in 3 tokens",
        ),
        Case(
            (BPETokenizer(), "abababab"),
            1.0,
            "the text of an earlier check, with another tokenizer (no merges): the answer depends on both",
        ),
        Case(
            (_abab(), "abababab ab"),
            11 / 4,
            "'abab', 'abab', ' ', 'ab': 11 bytes in 4 tokens, 2.75 (which round() makes 3, and // makes 2)",
        ),
        Case(
            (_blank_lines(), "ab\n\ncd\n"),
            7 / 6,
            "a tokenizer that learned the token '\\n\\n': 'a', 'b', '\\n\\n', 'c', 'd', '\\n' are 7 bytes in 6 tokens",
        ),
        Case((_paragraph(), PARAGRAPH), note="a tokenizer trained on the paragraph, on the paragraph"),
        Case((_paragraph(), MIXED_SCRIPTS), note="the same tokenizer on text in other scripts"),
        Case(
            (_abab(), "abe\u0301"),
            5 / 4,
            "'e' followed by a combining accent (U+0301, 2 bytes): 'ab', 'e' and the accent's 2 bytes are 5 bytes in "
            "4 tokens (the one character 'é', U+00E9, would be another text)",
        ),
        Case(
            (_abab(), "ab\ufb01"),
            5 / 4,
            "the ligature 'ﬁ' (U+FB01, one character of 3 bytes): 'ab' and its 3 bytes are 5 bytes in 4 tokens",
        ),
        Case(
            (_cdcd(), "abababab"),
            1.0,
            "the text of check 3 with another tokenizer of 2 merges (learned on 'cdcdcdcd'): neither merge applies, "
            "8 bytes in 8 tokens",
        ),
        Case(
            (_paragraph(), LONG_TEXT),
            note=f"a long text ({len(LONG_TEXT):,} characters: the paragraph 12 times, then other scripts): all of "
            "it counts",
        ),
        Case(
            (_paragraph(), WHOLE_TEXT),
            note=f"a very long text ({len(WHOLE_TEXT):,} characters: the paragraph 300 times, then other scripts, "
            "then a few characters of its own): all of it counts, to the last character",
        ),
        Case(
            (_code_bpe(), _lesson_code()),
            note=f"the lesson's code_bpe on the lesson's code ({len(_lesson_code()):,} characters), encoded whole: "
            "some of its tokens run from a punctuation mark into the line break after it",
        ),
        *cleaned_cases(_paragraph(), "its bytes and tokens"),
    ],
    diagnosers=[
        _changed_its_tokenizer,  # before the remembered answers: a tokenizer changed in place gives another's answer
        when(
            lambda a: _an_earlier_answer(a) is not None,
            "you gave the answer of an earlier check on the same text with another tokenizer: your function "
            + REMEMBERED_HINT,
        ),
        _only_the_start,
        *(
            same_as(
                lambda tokenizer, text, form=form: _normalized(tokenizer, text, form),
                normalized_hint(form, "measuring", "measure"),
            )
            for form in NORMAL_FORMS
        ),
        *(
            same_as(
                lambda tokenizer, text, form=form: (
                    len(unicodedata.normalize(form, text).encode("utf-8")) / len(_ids(tokenizer, text))
                ),
                f"you counted the bytes of the normalized text (unicodedata.normalize('{form}', ...)) but encoded the "
                "text as given: the two are different texts ('e' + a combining accent has 3 bytes, 'é' 2); count the "
                "bytes of the text as it is, len(text.encode('utf-8'))",
            )
            for form in ("NFC", "NFKC", "NFD", "NFKD")
        ),
        *cleaning_diagnosers(lambda tokenizer, text: len(text.encode("utf-8")) / len(_ids(tokenizer, text))),
        same_as(
            lambda tokenizer, text: len(text.replace(" ", "").encode("utf-8")) / len(_ids(tokenizer, text)),
            "you left out the spaces when counting bytes: a space is a byte of the text too (and encode spends "
            "tokens on it); count len(text.encode('utf-8')) over the whole text",
        ),
        same_as(
            lambda tokenizer, text: (
                sum(len(word.encode("utf-8")) for word in text.split()) / len(_ids(tokenizer, text))
            ),
            "you counted the bytes of the words (text.split()), which leaves out the spaces and line breaks between "
            "them: they are bytes of the text too; count len(text.encode('utf-8')) over the whole text",
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) / len(_line_by_line(tokenizer, text)),
            "you encoded the text line by line: a token that spans a line break ('\\n\\n', which GPT-4's split "
            "keeps as one piece) is then never used; encode the whole text at once",
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) / len(_in_pieces(tokenizer, text)),
            "you encoded the text in whitespace-led chunks of your own (re.findall(r'\\s*\\S+|\\s+', text), or "
            "text.split() with the spaces put back), each chunk alone: " + PIECES_HINT,
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) / len(_by_paragraphs(tokenizer, text)),
            "you encoded the text paragraph by paragraph (text.split('\\n\\n')), each part alone: " + PIECES_HINT,
        ),
        same_as(lambda tokenizer, text: len(_ids(tokenizer, text)) / len(text.encode("utf-8")), UPSIDE_DOWN_HINT),
        same_as(
            lambda tokenizer, text: len(text) / len(_ids(tokenizer, text)),
            "len(text) counts characters; count UTF-8 bytes with len(text.encode('utf-8'))",
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) / len(set(_ids(tokenizer, text))),
            "you divided by the number of DIFFERENT tokens; divide by all of them, len(ids)",
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) / len(_ids(tokenizer, text.strip())),
            "you encoded text.strip(): the spaces and new lines at the ends are part of the text, and encode "
            "spends tokens on them; encode the text as it is",
        ),
        same_as(
            lambda tokenizer, text: round(len(text.encode("utf-8")) / len(_ids(tokenizer, text))),
            "round() with no number of digits returns a whole number (the nearest one): return the exact ratio, and "
            "round only when you show a number (print, table, plot)",
        ),
        same_as(
            lambda tokenizer, text: len(text.encode("utf-8")) // len(_ids(tokenizer, text)),
            "your ratio lost its fraction, cut down to a whole number (as int(), // and math.floor all do): return "
            "the exact ratio, bytes / tokens with /, and round only when you show a number",
        ),
        same_as(
            lambda tokenizer, text: math.ceil(len(text.encode("utf-8")) / len(_ids(tokenizer, text))),
            "math.ceil rounds up to a whole number (2.75 becomes 3): return the exact ratio, bytes / tokens with /, "
            "and round only when you show a number",
        ),
        when(
            lambda a: (
                isinstance(a.got, float)
                and isinstance(a.expected, float)
                and a.got != a.expected
                and any(a.got == round(a.expected, digits) for digits in range(1, 16))
            ),
            "right, but rounded (to some number of decimals): return the exact ratio and round only when you show "
            "a number (print, table, plot)",
        ),
    ],
    hint="encode the text with tokenizer.encode(text), then len(text.encode('utf-8')) / len(ids)",
)


def check_bytes_per_token(fn: Callable[..., float], *, record: bool = True) -> CheckResult:
    """Lesson 08, exercise 1: the checker's cases, then one tokenizer object trained again in place (same id, same
    number of merges, other merges) on one text, which a function that remembers its answers gets wrong."""
    with recording(record):
        _CHANGED_TOKENIZERS.clear()
        with recording(False):
            result = BYTES_PER_TOKEN.run(_fractions_as_floats(fn) if callable(fn) else fn)
        _CHANGED_TOKENIZERS.clear()
        if result.passed:
            remembered = (
                _retrained_in_place(fn, result.checks)
                or _cut_back_one_after_another(fn, result.checks)
                or _rounded_finely(fn, result.checks)
                or empty_text_answered(fn, result.checks)
            )
            if remembered is not None:
                print(remembered)
                return CheckResult(False, result.name, result.checks + 1, result.checks + 1, "failed", remembered)
        print(result.message)
        return CheckResult(result.passed, result.name, result.failed_case, result.checks, result.status, result.message)


def _fractions_as_floats(fn: Callable[..., float]) -> Callable[..., object]:
    """``fn``, with a ``Fraction`` it returns turned into the float nearest it: the exact ratio as a Fraction
    (``Fraction(len(data), len(ids))``) is right, and the cases compare floats (``comparing.same`` leaves Fractions
    out). A call that changes the merges of the tokenizer it is given is noted in ``_CHANGED_TOKENIZERS``."""

    @functools.wraps(fn)
    def as_float(*args: object, **kwargs: object) -> object:
        before = _merges_of(args[0]) if len(args) == 2 else None
        try:
            got = fn(*args, **kwargs)
        finally:
            if before is not None and _merges_of(args[0]) != before:
                _CHANGED_TOKENIZERS[(args[1], before)] = short(args[0])
        return float(got) if isinstance(got, Fraction) else got

    return as_float


CUT_BACK_SIZES = (2_000, 1_500, 1_000, 500, 300)
"""The sizes ``_cut_back_one_after_another`` cuts code_bpe back to, in turn, as the lesson's curve does."""


def _cut_back_one_after_another(fn: Callable[..., float], checks: int) -> str | None:
    """The message when ``fn``, given code_bpe cut back to one size after another on the start of the lesson's code
    (each tokenizer freed before the next is made, so that Python may give the next one the ids of the last one's
    objects), gives an earlier size's answer: it remembers results by an id, such as id(tokenizer.merges). Any other
    wrong answer is left to the cases' own diagnosers."""
    text = _lesson_code()[:3_000]
    full = _code_bpe()
    expected = [bytes_per_token(full.truncated(size), text) for size in CUT_BACK_SIZES]
    for number, (size, right) in enumerate(zip(CUT_BACK_SIZES, expected), 1):
        args = (full.truncated(size), text)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(fn, args, MAX_STEPS)
        del args  # the tokenizer is freed here, before the next size is cut, as in the lesson's loops
        earlier = expected[: number - 1]
        if (
            outcome.error is None
            and not outcome.runaway
            and not same(outcome.got, right)
            and any(same(outcome.got, answer) for answer in earlier)
        ):
            said = ", ".join(f"{s:,}" for s in CUT_BACK_SIZES[:number])
            return (
                f"❌ bytes_per_token: your function passed all {checks} checks, but given the lesson's code_bpe cut "
                f"back to {said} tokens in turn (tokenizer.truncated(size), one after another, as the lesson's curve "
                f"does) on the first {len(text):,} characters of the lesson's code, it answered {short(outcome.got)} "
                f"for {size:,} tokens, where {right!r} is right.\n"
                f"   hint:     your function {REMEMBERED_HINT}"
            )
    return None


def _retrained_in_place(fn: Callable[..., float], checks: int) -> str | None:
    """The message when ``fn`` answers right for a tokenizer on "abababab", then, once that same object is trained
    again on other text, gives its old answer: it remembers results by something the two share."""
    tokenizer = _abab()
    for text, expected, what in (
        ("abababab", 4.0, "trained on 'abababab'"),
        ("abababab", 1.0, "then trained again, in place, on 'cdcdcdcd'"),
    ):
        if expected == 1.0:
            tokenizer.train("cdcdcdcd", 258)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(fn, (tokenizer, text), MAX_STEPS)
        if outcome.error is None and not outcome.runaway and not same(outcome.got, expected):
            return (
                f"❌ bytes_per_token: your function passed all {checks} checks, but called twice on 'abababab' with "
                f"ONE tokenizer object, {what}, it answered {short(outcome.got)} where {expected} is right.\n"
                f"   hint:     your function {REMEMBERED_HINT}"
            )
    return None


def _rounded_finely(fn: Callable[..., float], checks: int) -> str | None:
    """The message when ``fn`` passed the cases, which compare within a billionth (``comparing.same``), but does not
    return the exact ratio on 'ab a' (4 bytes, 3 tokens): the float 4 / 3 = 1.3333333333333333 itself, or a
    ``Fraction`` equal to 4/3. Any computation from the two whole numbers gives that float exactly (bytes / tokens,
    sum(lengths) / len(ids), statistics.mean or numpy's mean of the tokens' lengths: each is the float nearest the
    exact ratio); a ratio rounded to any number of decimals up to 15, or to 16 significant digits, is another float.
    (Rounded to 16 decimals or more it is the same float: a float of 1 or more is a multiple of 2**-52, coarser
    than 1e-16.)"""
    exact = 4 / 3
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = call(fn, (_abab(), "ab a"), MAX_STEPS)
    got = outcome.got
    if outcome.error is not None or outcome.runaway or isinstance(got, bool) or not isinstance(got, numbers.Real):
        return None
    if got == (Fraction(4, 3) if isinstance(got, Fraction) else exact):
        return None
    digits = next((d for d in range(1, 16) if got == round(exact, d)), None)
    significant = next((d for d in range(1, 17) if got == float(f"{exact:.{d}g}")), None)
    how = (
        f" (round(ratio, {digits}) gives exactly that)"
        if digits is not None
        else f" (the ratio to {significant} significant digits gives exactly that)"
        if significant is not None
        else ""
    )
    return (
        f"❌ bytes_per_token: your function passed all {checks} checks, which compare within a billionth, but on "
        f"'ab a' with the tokenizer trained on 'abababab' ('ab', ' ', 'a': 4 bytes in 3 tokens) it answered "
        f"{got!r} where 4 / 3 is {exact!r}{how}: this check wants the exact ratio.\n"
        "   hint:     you rounded the ratio (to some number of decimals or digits, such as round(ratio, 12) 'to "
        "remove float noise'): return the exact ratio, bytes / tokens with /, and round only when you show a "
        "number (print, table, plot)"
    )


# ---- unused tokens --------------------------------------------------------------------------


def count_unused(tokenizer: BPETokenizer, text: str) -> int:
    """How many ids of the vocabulary never come out of ``tokenizer.encode(text)``."""
    return len(set(tokenizer.vocab) - set(tokenizer.encode(text)))


def _with_parts(tokenizer: BPETokenizer, text: str) -> int:
    """A typical mistake: a token inside a longer one counted as used."""
    parents = {new: pair for pair, new in tokenizer.merges.items()}
    used, todo = set(), list(tokenizer.encode(text))
    while todo:
        i = todo.pop()
        if i not in used:
            used.add(i)
            todo.extend(parents.get(i, ()))
    return len(set(tokenizer.vocab) - used)


def _single_pieces(attempt: Attempt) -> str | None:
    """The text encoded one character at a time, or its bytes taken as the ids: only tokens of one character (or
    one byte) counted as used. On a check where the two give the same number, both are named."""
    tokenizer, text = attempt.args
    by_character = len(set(tokenizer.vocab) - {i for character in text for i in tokenizer.encode(character)})
    by_byte = len(tokenizer.vocab) - len(set(text.encode("utf-8")))
    whole = "encode the whole text at once: the used tokens are the ids tokenizer.encode(text) returns"
    if same(attempt.got, by_character) and same(attempt.got, by_byte):
        return (
            "you counted as used only tokens of one character or one byte: you encoded the text one character at a "
            "time, or took its bytes (text.encode('utf-8')) as the ids; a merged token that spans several "
            f"characters, such as 'abab', is then never counted. {whole[0].upper()}{whole[1:]}"
        )
    if same(attempt.got, by_character):
        return (
            "you encoded the text one character at a time: a merged token that spans several characters, such as "
            f"'abab', is then never used; {whole}"
        )
    if same(attempt.got, by_byte):
        return "you counted the text's bytes as the used tokens; the used tokens are the ids encode returns"
    return None


UNUSED_REMEMBERED_HINT = (
    "your function seems to remember its counts between calls, keyed without the tokenizer itself: by the text "
    "alone, or by the text and something two tokenizers can share, such as len(tokenizer.vocab) or "
    "len(tokenizer.merges) (two tokenizers of one size), or id(tokenizer) (a tokenizer trained again in place keeps "
    "its id, and Python gives the id of a freed object to a new one). Count afresh at each call: encode the text "
    "with the tokenizer you are given"
)


def _without_specials(tokenizer: BPETokenizer, text: str) -> int:
    """A typical mistake: the vocabulary's size taken as 256 + len(merges), which leaves out the special tokens."""
    return 256 + len(tokenizer.merges) - len(set(_ids(tokenizer, text)))


WITHOUT_SPECIALS_HINT = (
    "256 + len(tokenizer.merges) leaves out the special tokens (such as <|endoftext|>), which the vocabulary holds "
    "too: count over tokenizer.vocab itself, len(set(tokenizer.vocab) - set(ids))"
)


def _without_specials_everywhere(attempt: Attempt) -> bool:
    """The answer is 256 + len(merges) minus the used ids, here and on every other check. On a tokenizer with a
    special token that can equal another tokenizer's count of the same text, which would read as a remembered count:
    a function that remembers gives a wrong count on some check without special tokens, this formula never does."""
    return same(attempt.got, _without_specials(*attempt.args)) and all(
        same(got, _without_specials(*args)) for args, got in attempt.history()
    )


def _count_of_another_tokenizer(attempt: Attempt) -> bool:
    """The count is wrong, and is the right one for the same text with another check's tokenizer: the function
    remembers its counts keyed without the tokenizer."""
    return right_for_another_call(attempt, count_unused, key=1) is not None


def _unused_retrained_in_place(fn: Callable[..., int], checks: int) -> str | None:
    """The message when ``fn`` counts right for a tokenizer on "abababab", then, once that same object is trained
    again on "cdcdcdcd" (same id, same size, other merges), gives its old count: it remembers counts by something the
    two share (id(tokenizer), its size)."""
    tokenizer = _abab()
    for expected, what in ((257, "trained on 'abababab'"), (256, "then trained again, in place, on 'cdcdcdcd'")):
        if expected == 256:
            tokenizer.train("cdcdcdcd", 258)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(fn, (tokenizer, "abababab"), MAX_STEPS)
        if outcome.error is None and not outcome.runaway and not same(outcome.got, expected):
            return (
                f"❌ count_unused: your function passed all {checks} checks, but called twice on 'abababab' with ONE "
                f"tokenizer object (258 ids), {what}, it answered {short(outcome.got)} where {expected} is right.\n"
                f"   hint:     {UNUSED_REMEMBERED_HINT}"
            )
    return None


COUNT_UNUSED = Exercise(
    name="count_unused",
    call="count_unused(tokenizer, text)",
    reference=count_unused,
    cases=lambda: [
        Case((BPETokenizer(), "aab"), 254, "no merges: 256 byte tokens, of which 'a' and 'b' are used"),
        Case((BPETokenizer(), "héé"), 253, "no merges: 'h' and the 2 bytes of é are used"),
        Case((_abab(), "abababab"), 257, "encode gives 'abab' twice: 'a', 'b' and 'ab' are inside it, not used"),
        Case((_abab(), "abab ab"), 255, "'abab', ' ' and 'ab' are used"),
        Case(
            (_cdcd(), "abababab"),
            256,
            "'abababab' again, with another tokenizer of the same size (258 ids, trained on 'cdcdcdcd'): neither of "
            "its merges applies, so only 'a' and 'b' are used",
        ),
        Case((_paragraph(), PARAGRAPH), note="a tokenizer trained on the paragraph, on the paragraph"),
        Case((_paragraph(), MIXED_SCRIPTS), note="the same tokenizer on text in other scripts"),
        Case(
            (_paragraph(), "\t" + PARAGRAPH.replace(". ", ".\n") + "\n\n"),
            note="lines, and whitespace at both ends: their tokens are used too",
        ),
        Case(
            (_blank_lines(), "ab\n\ncd\n"),
            251,
            "a tokenizer that learned '\\n\\n' (257 ids): 'a', 'b', '\\n\\n', 'c', 'd' and '\\n' are used, 251 are not",
        ),
        Case((_abab(), ""), 258, "no text: no token is used, all 258 are unused"),
        Case(
            (_with_special_token(), "abab ab"),
            256,
            "a tokenizer with a special token, <|endoftext|>: its vocabulary holds 256 bytes, 2 merges and the "
            "special token, 259 ids; 'abab', ' ' and 'ab' are used, 256 are not",
        ),
        Case(
            (_paragraph(), WHOLE_TEXT),
            note=f"a very long text ({len(WHOLE_TEXT):,} characters), whose last characters occur nowhere before: "
            "their tokens are used too",
        ),
        Case(
            (_code_bpe(), _lesson_code()),
            note=f"the lesson's code_bpe on the lesson's code ({len(_lesson_code()):,} characters), encoded whole: "
            "some of its tokens run from a punctuation mark into the line break after it",
        ),
        *cleaned_cases(_paragraph(), "its tokens"),
        Case(
            (_abab(), "abe\u0301"),
            254,
            "'e' followed by a combining accent (U+0301, 2 bytes): 'ab', 'e' and the accent's 2 bytes are used, 254 "
            "are not (the one character 'é', U+00E9, would be another text, with other tokens)",
        ),
    ],
    diagnosers=[
        *cleaning_diagnosers(count_unused),
        *(
            same_as(
                lambda tokenizer, text, form=form: count_unused(tokenizer, unicodedata.normalize(form, text)),
                normalized_hint(form, "encoding", "encode"),
            )
            for form in NORMAL_FORMS
        ),
        same_as(
            lambda tokenizer, text: count_unused(tokenizer, text.strip()),
            "you encoded a changed text (text.strip(), or line by line): its spaces and line breaks are text too, "
            "and their tokens are used; encode the text as it is",
        ),
        same_as(
            lambda tokenizer, text: count_unused(tokenizer, "".join(text.splitlines())),
            "you encoded a changed text (line by line, or text.strip()): its spaces and line breaks are text too, "
            "and their tokens are used; encode the text as it is",
        ),
        same_as(
            lambda tokenizer, text: len(set(tokenizer.vocab) - set(_line_by_line(tokenizer, text))),
            "you encoded the text line by line: a token that spans a line break ('\\n\\n', which GPT-4's split "
            "keeps as one piece) is then never used; encode the whole text at once",
        ),
        *(
            same_as(
                lambda tokenizer, text, strip=strip: count_unused(tokenizer, strip(text)),
                "you encoded text.rstrip() (or text.rstrip('\\n')), the text without its trailing whitespace: the "
                "spaces and line breaks at its end are text too, and their tokens are used; encode the text as it is",
            )
            for strip in (str.rstrip, lambda text: text.rstrip("\n"))
        ),
        same_as(
            lambda tokenizer, text: len(
                set(tokenizer.vocab) - {i for word in text.split() for i in tokenizer.encode(word)}
            ),
            "you encoded the words of text.split(), one by one: split on whitespace drops the spaces and line breaks "
            "between them, so their tokens (' ', '\\n', and a token that joins a space to the word after it) are "
            "never counted as used; encode the whole text at once",
        ),
        *(
            same_as(
                lambda tokenizer, text, lines=lines: count_unused(tokenizer, "\n".join(dict.fromkeys(lines(text)))),
                "you dropped duplicate lines (dict.fromkeys, or a set, of the text's lines) before encoding: a line "
                "that repeats, even an empty one, is text too, and dropping it changes the line breaks around it, "
                "and so the tokens that form; encode the text as it is",
            )
            for lines in (lambda text: text.split("\n"), str.splitlines)
        ),
        same_as(
            lambda tokenizer, text: len(set(tokenizer.vocab) - set(_in_pieces(tokenizer, text))),
            "you encoded the text in whitespace-led chunks of your own (re.findall(r'\\s*\\S+|\\s+', text), or "
            "text.split() with the spaces put back), each chunk alone: " + PIECES_HINT,
        ),
        same_as(
            lambda tokenizer, text: len(set(tokenizer.vocab) - set(_by_paragraphs(tokenizer, text))),
            "you encoded the text paragraph by paragraph (text.split('\\n\\n')), each part alone: " + PIECES_HINT,
        ),
        # a text encoded in parts (above, and one character at a time) can give another tokenizer's count: those
        # first; then a remembered count, before the count-formula hints it can match by chance ('256 + merges')
        _single_pieces,
        when(_without_specials_everywhere, WITHOUT_SPECIALS_HINT),
        when(_count_of_another_tokenizer, UNUSED_REMEMBERED_HINT),
        same_as(
            lambda tokenizer, text: len(set(_ids(tokenizer, text))),
            "that is the number of tokens USED; subtract it from the size of the vocabulary",
        ),
        same_as(
            lambda tokenizer, text: len(tokenizer.vocab) - len(_ids(tokenizer, text)),
            "a token used ten times is still one used token: count the different ids (a set)",
        ),
        same_as(
            lambda tokenizer, text: len(tokenizer.merges) - len({i for i in _ids(tokenizer, text) if i >= 256}),
            "the 256 byte tokens belong to the vocabulary too: count over tokenizer.vocab",
        ),
        same_as(_without_specials, WITHOUT_SPECIALS_HINT),
        same_as(_with_parts, "a token is used only if encode emits it; the pieces inside a longer token are not used"),
        _counted_only_the_start,
    ],
    hint="the ids of tokenizer.vocab that are not in set(tokenizer.encode(text)): len(set(vocab) - set(ids))",
)


SLOW_PROBE_CHARACTERS = 1_000
"""How much of the text a count_unused the guards stopped is tried again on: a right count there means it is slow,
not endless. A right answer that encodes the whole text once per id of the vocabulary takes about 20 seconds on the
very long text (hundreds of encodings of 221,823 characters) and far more on the lesson's code with code_bpe; on the
first 1,000 characters, well under a second."""

STOPPED = ("did not finish: it was still running after", "did not finish: it ran more than")
"""How the engine's report says the clock or the line counter stopped the call (``checking.runaway_lines``)."""


def _slow_not_endless(fn: Callable[..., int], result: CheckResult) -> str | None:
    """The hint when the guards stopped ``fn`` on a check, and on the first ``SLOW_PROBE_CHARACTERS`` of that check's
    text it gives the right count: it is right but slow (the engine's hint would call it a loop that never ends)."""
    if result.passed or result.failed_case is None or not any(stop in result.message for stop in STOPPED):
        return None
    cases = COUNT_UNUSED.build_cases()
    if not 1 <= result.failed_case <= len(cases):
        return None
    tokenizer, text = cases[result.failed_case - 1].args
    start = text[:SLOW_PROBE_CHARACTERS]
    if len(start) == len(text):
        return None
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = call(fn, copy.deepcopy((tokenizer, start)), MAX_STEPS)
    expected = count_unused(tokenizer, start)
    if outcome.error is not None or outcome.runaway or not same(outcome.got, expected):
        return None
    ids = len(tokenizer.vocab)
    return (
        f"it seems too slow, not an endless loop: on the first {len(start):,} characters of this text your function "
        f"gives the right count ({expected}), but on all {len(text):,} the check stopped it. What makes it slow is "
        f"usually going over the whole text once per id of the vocabulary ({ids:,} ids here): tokenizer.encode(text) "
        f"inside the loop over the ids encodes the text {ids:,} times, and a loop of yours over all the text's ids "
        f"inside that loop reads them {ids:,} times. Encode the text once, before any loop, and compare sets: "
        "len(set(tokenizer.vocab) - set(tokenizer.encode(text)))"
    )


def check_count_unused(fn: Callable[..., int], *, record: bool = True) -> CheckResult:
    """Lesson 08, exercise 2: the checker's cases, then one tokenizer object trained again in place (same id, same
    size, other merges) on one text, which a function that remembers its counts gets wrong. A right answer the guards
    stopped (slow, not endless) is told so, not that it loops."""
    with recording(record):
        with recording(False):
            result = COUNT_UNUSED.run(fn)
        if result.passed:
            remembered = _unused_retrained_in_place(fn, result.checks)
            if remembered is not None:
                print(remembered)
                return CheckResult(False, result.name, result.checks + 1, result.checks + 1, "failed", remembered)
        message = result.message
        slow = _slow_not_endless(fn, result)
        if slow is not None:
            lines = [line for line in message.split("\n") if not line.startswith("   hint:")]
            message = "\n".join([*lines, f"   hint:     {slow}"])
        print(message)
        return CheckResult(result.passed, result.name, result.failed_case, result.checks, result.status, message)


# ---- choose a vocabulary size ---------------------------------------------------------------


MAX_MEASUREMENTS = 60
"""Sizes one call of the learner's search may measure (calls of ``tokenizer.truncated``). A binary search over
lesson 08's 6,754 sizes measures 13 (one that also measures ``middle - 1`` at each step, 26); one that tries the
sizes one by one from either end measures hundreds or thousands. The check counts measurements, not seconds: the
clocks that still run are margins only an endless loop reaches. The line limit (``runaway.MAX_STEPS``) starts again at each
measurement: a correct ``bytes_per_token`` written as a loop over the text's characters runs about 4 lines a
character, which over 25 measurements of lesson 08's held-out text would pass the limit, and the verdict must not
depend on how exercise 1 was written."""

SEARCH_SECONDS = 300.0
"""The clock for the search on the lesson's tokenizer. Measurements are counted, so the clock is there only for a
loop that measures nothing and that the line counter cannot see (a loop on one line): on a 2-core machine shared
with other work, 60 measurements of lesson 08's held-out text near the largest size took about 5 seconds."""


class TooManyMeasurements(Exception):
    """Raised by ``MeasuredTokenizer.truncated`` past ``MAX_MEASUREMENTS``: the search measures too much."""


class MeasuredTokenizer(BPETokenizer):
    """A ``BPETokenizer`` that counts the sizes a search measures, and refuses to measure more than
    ``MAX_MEASUREMENTS``: a search that is slow or never ends is stopped by the work it did, not by a clock."""

    _measured: list[int]
    """How many times ``truncated`` was called; one list shared with the tokenizers it cuts back."""

    _sizes: list[int]
    """The sizes measured, in order (so that a search stopped at the limit is told how it stepped)."""

    @classmethod
    def of(cls, tokenizer: BPETokenizer) -> MeasuredTokenizer:
        """The same merges and vocabulary (shared, not copied), with a count starting at 0."""
        measured = cls.__new__(cls)
        measured.__dict__.update(tokenizer.__dict__)
        measured._measured = [0]
        measured._sizes = []
        return measured

    def truncated(self, vocab_size: int) -> BPETokenizer:
        runaway.new_line_allowance()  # the line limit counts from the last measurement: the count is the guard
        self._measured[0] += 1
        self._sizes.append(vocab_size)
        if self._measured[0] > MAX_MEASUREMENTS:
            raise TooManyMeasurements(
                f"more than {MAX_MEASUREMENTS} sizes measured (calls of tokenizer.truncated) "
                f"on a tokenizer of {256 + len(self.merges) - 255:,} sizes"
            )
        smaller = super().truncated(vocab_size)
        smaller._measured = self._measured  # type: ignore[attr-defined]
        smaller._sizes = self._sizes  # type: ignore[attr-defined]
        return smaller

    @property
    def measurements(self) -> int:
        return self._measured[0]

    @property
    def sizes(self) -> list[int]:
        """The sizes measured so far, in order."""
        return list(self._sizes)

    def __repr__(self) -> str:  # the learner sees the tokenizer, not the counting
        return super().__repr__().replace(type(self).__name__, "BPETokenizer", 1)


def reference_search(tokenizer: BPETokenizer, text: str, goal: float) -> int | None:
    """The smallest size of ``tokenizer`` whose bytes per token on ``text`` reaches ``goal``."""
    return smallest_vocab_size(tokenizer, text, goal)


def _measured(tokenizer: BPETokenizer, text: str, size: int) -> float:
    return bytes_per_token(tokenizer.truncated(size), text)


def _goal_at(tokenizer: BPETokenizer, text: str, size: int) -> float:
    """The goal "what ``size`` gives": the float nearest the exact ratio at ``size`` that is not above it. Exercise 1
    accepts the exact ratio as a ``Fraction`` as well as the float bytes / tokens gives, and that float can lie just
    above the exact ratio (142 / 129 rounds up): as a goal it would refuse the ``Fraction`` that reaches it exactly.
    This float is reached by both, and by no smaller size (whose ratio is lower by far more than a float's step)."""
    exact = Fraction(len(text.encode("utf-8")), len(tokenizer.truncated(size).encode(text)))
    goal = float(exact)
    return goal if Fraction(goal) <= exact else math.nextafter(goal, -math.inf)


def _just_above(tokenizer: BPETokenizer, text: str, size: int) -> float:
    """The float one step above what ``size`` gives (bytes / tokens, within half a step of the exact ratio): that size
    falls short of it, as a float or as an exact ``Fraction``, and a search that compares with a margin
    (``>= goal - 1e-14``) takes it all the same."""
    return math.nextafter(_measured(tokenizer, text, size), math.inf)


def _search_cases() -> list[Case]:
    abab, paragraph = _abab(), _paragraph()
    counted_abab, counted_paragraph = MeasuredTokenizer.of(abab), MeasuredTokenizer.of(paragraph)
    return [
        Case(
            (counted_abab, "abababab", 4.0),
            258,
            "sizes 256, 257, 258 give 1, 2, 4 bytes per token: only the largest reaches 4",
        ),
        Case((counted_abab, "abababab", 1.5), 257, "257 gives 2.0, 256 gives 1.0: 257 is the first to reach 1.5"),
        Case((counted_abab, "abababab", 2.0), 257, "257 gives exactly 2.0: a size that equals the goal reaches it"),
        Case((counted_abab, "abababab", 1.0), 256, "the 256 byte tokens alone give 1.0: no merge is needed"),
        *(
            Case(
                (counted_paragraph, PARAGRAPH, _goal_at(paragraph, PARAGRAPH, size)),
                note=f"the goal is what {size} gives",
            )
            for size in (257, 300, 313)
        ),
        Case(
            (counted_paragraph, MIXED_SCRIPTS, _goal_at(paragraph, MIXED_SCRIPTS, 314)),
            note="other scripts: many sizes give the same bytes per token, the answer is the first of them",
        ),
        Case((counted_paragraph, MIXED_SCRIPTS, 1.01), note="other scripts, a goal between two sizes"),
        Case(
            (counted_paragraph, PARAGRAPH, _measured(paragraph, PARAGRAPH, 290) + 1e-6),
            note="a goal a millionth above what 290 gives: 290 falls short of it, if only just",
        ),
        *(
            Case(
                (counted_paragraph, PARAGRAPH, _measured(paragraph, PARAGRAPH, size) + 1e-12),
                note=f"a goal a millionth of a millionth above what {size} gives "
                f"({_measured(paragraph, PARAGRAPH, size):.12f}…), which rounding to {digits} decimals lifts past "
                f"the goal: {size} falls short of it, if only just",
            )
            for size, digits in ((293, "5, 6, 7, 8, 10 or 11"), (296, "9"))
        ),
        Case(
            (counted_paragraph, PARAGRAPH, _just_above(paragraph, PARAGRAPH, 299)),
            note=f"a goal just above what 299 gives ({_measured(paragraph, PARAGRAPH, 299)!r}), by the smallest "
            "step a float can take: 299 falls short of it, if only just, and any margin, however small, lets it pass",
        ),
        Case(
            (counted_paragraph, PARAGRAPH, 1.01),
            257,
            "the goal of check 9 on another text: English reaches 1.01 bytes per token at 257, the other scripts "
            "at 266",
        ),
        Case(
            (counted_abab, "ïïïïabab", 1.3),
            258,
            "a text of both: 'ab' (257) gives 1.2 bytes per token, 'abab' (258) 1.33",
        ),
        Case(
            (MeasuredTokenizer.of(_i_diaeresis()), "ïïïïabab", 1.3),
            257,
            "the same text and goal on another tokenizer, which learned 'ï': 257 gives 1.5 bytes per token",
        ),
        Case(
            (MeasuredTokenizer.of(_with_ten_special_tokens()), "abababab", 4.0),
            258,
            "the tokenizer of check 1 with ten special tokens: vocab_size is 268, but its sizes (256 + its 2 "
            "merges) end at 258",
        ),
        *(
            Case(
                (counted_paragraph, text, _goal_at(paragraph, text, size)),
                note=f"{note}; the goal is what {size} gives on the text as it is, every character included",
            )
            for text, size, note in SEARCH_TEXTS
        ),
    ]


_NO_ANSWER = object()
"""What a cleaned search gives when the cleaned text is empty: no answer equals it."""


def _on_cleaned_text(change: Callable[[str], str]) -> Callable[[BPETokenizer, str, float], object]:
    """The search done right, on the text changed by ``change`` (cleaned, normalized) before it is measured."""

    def search(tokenizer: BPETokenizer, text: str, goal: float) -> object:
        changed = change(text)
        return reference_search(_plain(tokenizer), changed, goal) if changed else _NO_ANSWER

    return search


def _cleaned_search(attempt: Attempt) -> str | None:
    """A diagnoser: the answers are those of the search done right on the text cleaned (or Unicode-normalized) one
    way, on this check and on every other check answered; every such cleaning is named. A search whose cleaned text
    reaches the goal at no size may return None or the largest size (the lesson's loop returns `high`)."""
    if attempt.error is not None:
        return None

    def agrees(search: Callable[..., object], args: tuple, got: object) -> bool:
        answer = search(*args)
        return same(got, answer) or (answer is None and same(got, _largest(args[0])))

    whats = [
        what
        for what, change in SEARCH_CLEANINGS.items()
        if agrees(search := _on_cleaned_text(change), attempt.args, attempt.got)
        and not agrees(search, attempt.args, attempt.expected)
        and all(agrees(search, args, got) for args, got in attempt.history())
    ]
    return cleaned_hint(whats) if whats else None


def _largest(tokenizer: BPETokenizer) -> int:
    return 256 + len(tokenizer.merges)


def _a_size(attempt: Attempt) -> int | None:
    """The answer as a size of the case's tokenizer, or None when it is no whole number in its range."""
    got = attempt.got
    if isinstance(got, bool) or not isinstance(got, int) or not 256 <= got <= _largest(attempt.args[0]):
        return None
    return got


def _falls_short_by_a_little(attempt: Attempt) -> bool:
    """The size returned misses the goal, but by less than 0.005 bytes per token (a rounded comparison)."""
    tokenizer, text, goal = attempt.args
    size = _a_size(attempt)
    return size is not None and goal - 0.005 <= _measured(tokenizer, text, size) < goal


def _characters_per_token(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The search done right, but measuring characters per token instead of bytes per token (when no size
    reaches the goal, the largest, where such a search ends)."""
    largest = _largest(tokenizer)
    return first_reaching(256, largest, lambda size: len(text) / len(tokenizer.truncated(size).encode(text)) >= goal)


def _strictly_above(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The smallest size whose bytes per token is strictly above the goal (``>`` for ``>=``)."""
    return first_reaching(256, _largest(tokenizer), lambda size: _measured(tokenizer, text, size) > goal)


def _never_tries_256(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The search started at ``low = 257`` (or a loop ``while high - low > 1`` from 256, which gives the same
    answers): the bytes alone are never measured."""
    return first_reaching(257, _largest(tokenizer), lambda size: _measured(tokenizer, text, size) >= goal)


def _never_tries_the_largest(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The search started at ``high = tokenizer.vocab_size - 1``: the full tokenizer is never a candidate."""
    return first_reaching(256, _largest(tokenizer) - 1, lambda size: _measured(tokenizer, text, size) >= goal)


def _steps_below_the_middle(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """``high = middle - 1`` when the middle reaches the goal: the middle itself, perhaps the answer, is dropped."""
    low, high = 256, _largest(tokenizer)
    while low < high:
        middle = (low + high) // 2
        if _measured(tokenizer, text, middle) >= goal:
            high = middle - 1
        else:
            low = middle + 1
    return high


def _branches_swapped(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """``low`` moves up when the middle reaches the goal, ``high`` down when it does not: the halves swapped."""
    low, high = 256, _largest(tokenizer)
    while low < high:
        middle = (low + high) // 2
        if _measured(tokenizer, text, middle) >= goal:
            low = middle + 1
        else:
            high = middle
    return high


def _returns_the_middle(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The lesson's loop, returning ``middle`` (the last size measured) instead of ``high``."""
    low, high = 256, _largest(tokenizer)
    middle = high
    while low < high:
        middle = (low + high) // 2
        if _measured(tokenizer, text, middle) >= goal:
            high = middle
        else:
            low = middle + 1
    return middle


def _rounded(digits: int, both: bool) -> Callable[[BPETokenizer, str, float], int]:
    """The lesson's search comparing ``round(bytes per token, digits)`` with the goal (rounded too when ``both``)."""

    def search(tokenizer: BPETokenizer, text: str, goal: float) -> int:
        target = round(goal, digits) if both else goal
        return first_reaching(
            256, _largest(tokenizer), lambda size: round(_measured(tokenizer, text, size), digits) >= target
        )

    return search


ROUNDED_DIGITS = range(1, 16)
"""The roundings a search is tried with: a float holds 15 to 17 significant digits, so rounding to 15 decimals
can still change a bytes per token of 1 to 9 (rounding to 12 "to remove float noise" is a habit)."""

_ROUNDINGS = {
    (digits, both): same_as(_rounded(digits, both), "") for digits in ROUNDED_DIGITS for both in (False, True)
}


def _against(change: Callable[[float], float]) -> Callable[[BPETokenizer, str, float], int]:
    """The lesson's search comparing the exact bytes per token with ``change(goal)`` instead of the goal."""

    def search(tokenizer: BPETokenizer, text: str, goal: float) -> int:
        target = change(goal)
        return first_reaching(256, _largest(tokenizer), lambda size: _measured(tokenizer, text, size) >= target)

    return search


WITHIN_AGAIN = (
    "the goal your search is given already holds the 0.9: it is the bytes per token to reach, as it is (on "
    "english_bpe the checker passes 0.9 × GPT-4's bytes per token, the lesson's 0.9 * gpt4_held; its own checks "
    "pass other goals)"
)

_GOAL_SCALED = [
    same_as(
        _against(lambda goal: 0.9 * goal),
        "you applied the 0.9 a second time: you compare with 0.9 * goal (or goal * (1 - within)), but "
        + WITHIN_AGAIN
        + ". So your goal is too loose by a factor of 0.9 (81% of GPT-4 instead of 90%), and the size found is too "
        "small; compare with `goal` itself: bytes per token >= goal",
    ),
    same_as(
        _against(lambda goal: goal / 0.9),
        "you divided the goal by 0.9: "
        + WITHIN_AGAIN
        + ". So your goal is too strict by a factor of 0.9 (all of GPT-4's instead of 90%), and the size found is too "
        "large; compare with `goal` itself: bytes per token >= goal",
    ),
]


def _rounded_to(digits: int) -> Callable[[float], float]:
    return lambda goal: round(goal, digits)


GOAL_ROUNDINGS: dict[str, Callable[[float], float]] = {
    "round(goal)": round,
    "int(goal)": int,
    "math.floor(goal)": math.floor,
    "math.ceil(goal)": math.ceil,
    **{f"round(goal, {digits})": _rounded_to(digits) for digits in range(1, 5)},
}
"""The roundings of the goal alone a search is tried with (its bytes per token exact)."""

_GOAL_ROUNDED = {written: same_as(_against(how), "") for written, how in GOAL_ROUNDINGS.items()}


def _rounded_goal(attempt: Attempt) -> str | None:
    """The search's answers are those of one that rounds the goal (and not its measurements) before comparing;
    every rounding that agrees on all the checks is named."""
    matches = [written for written, diagnose in _GOAL_ROUNDED.items() if diagnose(attempt) is not None]
    if not matches:
        return None
    which = matches[0] if len(matches) == 1 else " or ".join(matches) + ": these checks cannot tell which"
    return (
        f"you rounded the goal ({which}) before comparing: the goal is a number to reach as it is given "
        f"({attempt.args[2]!r} on this check), and a rounded goal is another number, below it or above it, so the "
        "search stops at the size that reaches that other number; compare with the goal itself, no rounding: "
        "bytes per token >= goal"
    )


def _digits_in_words(digits: list[int]) -> str:
    return ", ".join(map(str, digits[:-1])) + f" or {digits[-1]}" if len(digits) > 1 else str(digits[0])


def _rounded_search(attempt: Attempt) -> str | None:
    """The search's answers are those of one that rounds before comparing. Several roundings often agree on every
    check, so all of them are named, not the first; and when the rounding is in the learner's bytes_per_token
    (exercise 1, whose checker cannot see rounding to 9 decimals or more), that function is named."""
    matches = [key for key, diagnose in _ROUNDINGS.items() if diagnose(attempt) is not None]
    if not matches:
        return None
    in_helper = _helper_rounds()
    if in_helper is not None:
        return (
            f"your bytes_per_token (exercise 1), which this search calls, returns the ratio rounded "
            f"(round(..., {in_helper})): exercise 1's checker cannot see a rounding to 9 decimals or more, but this "
            "check can: on some of its goals a rounded ratio reaches the goal where the exact one falls short, or "
            "the other way round. Return the exact ratio from bytes_per_token, round only when you show a number, then run "
            "exercise 1's cell and this one again"
        )
    digits = sorted({digits for digits, _ in matches})
    both = all(both for _, both in matches)
    which = (
        f"round(..., {digits[0]})"
        if len(digits) == 1
        else f"round(..., n), with n = {_digits_in_words(digits)}: these checks cannot tell which"
    )
    return (
        f"you rounded the bytes per token ({which}){' and the goal' if both else ''} before comparing: a rounded "
        "number can fall below the goal or reach it when the exact one does not; compare the exact numbers, bytes "
        "per token >= goal"
    )


def _helper_rounds() -> int | None:
    """The number of decimals the learner's ``bytes_per_token`` (a global of the search being checked) rounds to,
    or None: it returns the exact ratio, or is not there."""
    if not _CHECKED:
        return None
    helper = _learners_helper(_CHECKED[-1])
    if helper is None:
        return None
    paragraph, candidates, changed = _paragraph(), set(ROUNDED_DIGITS), False
    for size in (290, 293, 296, 300):
        exact = _measured(paragraph, PARAGRAPH, size)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(helper, (paragraph.truncated(size), PARAGRAPH), MAX_STEPS)
        if outcome.error is not None or outcome.runaway or not isinstance(outcome.got, float):
            return None
        changed = changed or outcome.got != exact
        candidates &= {digits for digits in ROUNDED_DIGITS if outcome.got == round(exact, digits)}
    return min(candidates) if candidates and changed else None


def _from_vocab_size(attempt: Attempt) -> str | None:
    """The search asked for a size past ``256 + len(merges)`` on a tokenizer with special tokens: it started at
    ``high = tokenizer.vocab_size``, which counts them."""
    error, tokenizer = attempt.error, attempt.args[0]
    if not isinstance(error, ValueError) or "vocab_size must be" not in str(error):
        return None
    specials = tokenizer.vocab_size - _largest(tokenizer)
    if specials <= 0:
        return None
    return (
        f"tokenizer.vocab_size ({tokenizer.vocab_size}) counts this tokenizer's {specials} special tokens too, but "
        f"truncated(size) cuts back merges only: its sizes run from 256 to 256 + len(tokenizer.merges) "
        f"({_largest(tokenizer)}). Start at high = 256 + len(tokenizer.merges), not tokenizer.vocab_size"
    )


_CHECKED: list[Callable[..., object]] = []
"""The search ``check_smallest_vocab_size`` is checking (a diagnoser sees its answers, not the function)."""


def _a_key_without_tokenizer(key: object) -> bool:
    """A size, or a tuple of a size with numbers and texts (size, goal, text, id(tokenizer)): a key that holds no
    tokenizer, so two tokenizers of one size share it (an id is a number, which Python gives again once its object
    is gone)."""
    parts = key if isinstance(key, tuple) else (key,)
    return any(isinstance(part, int) and not isinstance(part, bool) for part in parts) and all(
        isinstance(part, (int, float, str)) and not isinstance(part, bool) for part in parts
    )


def _measurements(kept: dict) -> bool:
    """A dict of measurements: every value a number (a bytes per token), every key one without a tokenizer."""
    return bool(kept) and all(
        isinstance(value, (int, float)) and not isinstance(value, bool) and _a_key_without_tokenizer(key)
        for key, value in kept.items()
    )


def _what_a_key_holds(kept: dict) -> str:
    parts = [part for key in kept for part in (key if isinstance(key, tuple) else (key,))]
    if all(isinstance(part, int) for part in parts):
        return "the size alone, not by the tokenizer itself"
    if any(isinstance(part, str) for part in parts):
        return "numbers and the text, not by the tokenizer itself"
    return "numbers alone, not by the tokenizer itself"


def _dicts_kept(function: object) -> list[tuple[str, dict]]:
    """The dicts a function keeps between calls, with their names: the globals its code uses, its default
    arguments, the variables of the function it was made in; and those of the global functions it calls."""
    found: list[tuple[str, dict]] = []
    functions, seen = [unwrapped(function)], set()
    while functions:
        fn = functions.pop()
        code = getattr(fn, "__code__", None)
        if code is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        names = code_names(code)
        values = [(name, getattr(fn, "__globals__", {}).get(name)) for name in names]
        values += list(zip(code.co_varnames[code.co_argcount - len(fn.__defaults__ or ()) :], fn.__defaults__ or ()))
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            with contextlib.suppress(ValueError):  # an empty cell raises
                values.append((name, cell.cell_contents))
        for name, value in values:
            if isinstance(value, dict):
                found.append((name, value))
            elif isinstance(value, types.FunctionType) and len(seen) < 20:
                functions.append(value)
    return found


def _shared_cache(attempt: Attempt) -> str | None:
    """The search keeps measurements in a dict that outlives a call (a global, a default argument, a variable of
    the function it was made in), keyed by numbers and texts but no tokenizer: a later call, on another tokenizer
    or text, reads an earlier call's measurements."""
    if not _CHECKED:
        return None
    for name, kept in _dicts_kept(_CHECKED[-1]):
        if _measurements(kept):
            return (
                f"your search (or a function it calls) keeps its measurements in `{name}`, a dict shared between "
                f"calls and keyed by {_what_a_key_holds(kept)} (an id, such as id(tokenizer) or "
                "id(tokenizer.merges), is a number too, which Python gives again to a new object once the old one "
                "is freed): a later call, with another tokenizer (of the same size, or one that got a freed one's "
                "id) or another text, reads the bytes per token an earlier call measured. Make the dict inside the "
                "function (a new one for each call)"
            )
    return None


def _learners_helper(search: Callable[..., object]) -> Callable[..., object] | None:
    """The learner's ``bytes_per_token`` (exercise 1) that ``search`` calls, or None (it measures otherwise); a
    ``Fraction`` it returns comes back as the float nearest it, as in exercise 1's checker."""
    code = getattr(unwrapped(search), "__code__", None)
    helper = getattr(unwrapped(search), "__globals__", {}).get("bytes_per_token")
    if code is None or "bytes_per_token" not in code_names(code) or not callable(helper) or helper is bytes_per_token:
        return None
    return _fractions_as_floats(helper)  # judged as exercise 1 judges it: an exact Fraction is the exact ratio


def _right_at_first(helper: Callable[..., object]) -> bool:
    """``helper`` gives the exact bytes per token on its first calls with a fresh tokenizer (trained on 'abababab'):
    11 / 4 on 'abababab ab', 4 / 3 on 'ab a'. Only then can a wrong answer later come from a memory; a helper wrong
    from the start (tokens ÷ bytes, distinct ids) is named by the size it fails at."""
    for text, exact in (("abababab ab", 11 / 4), ("ab a", 4 / 3)):
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(helper, (_abab(), text), MAX_STEPS)
        if outcome.error is not None or outcome.runaway or not same(outcome.got, exact):
            return False
    return True


def _wrong_helper(search: Callable[..., object], tokenizer: BPETokenizer, text: str, sizes: list[int]) -> str | None:
    """The hint when the search's ``bytes_per_token`` (exercise 1) is wrong: it remembers answers (a tokenizer
    trained again in place gets its old one), or gives another number than the exact one for one of ``sizes`` of
    ``tokenizer`` on ``text`` (the check's own input). A rounding has its own hint (``_rounded_search``)."""
    helper = _learners_helper(search)
    if helper is None or _helper_rounds() is not None:
        return None
    remembered = None
    if _right_at_first(helper):  # else wrong from its first call: the size below names it
        remembered = _retrained_in_place(helper, 0) or _cut_back_one_after_another(helper, 0)  # type: ignore[arg-type]
    if remembered is not None:
        return (
            "your bytes_per_token (exercise 1), which this search calls, is what goes wrong, not the search: it "
            + REMEMBERED_HINT
            + "; then run exercise 1's cell and this one again"
        )
    plain = _plain(tokenizer)
    for size in sizes:
        if not 256 <= size <= _largest(plain):
            continue
        smaller = plain.truncated(size)
        exact = bytes_per_token(smaller, text)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(helper, (smaller, text), MAX_STEPS)
        if outcome.error is None and not outcome.runaway and not same(outcome.got, exact):
            starts = _prefix_lengths(helper, plain, text, [size])
            ids = smaller.encode(text)
            upside_down = same(outcome.got, len(ids) / len(text.encode("utf-8")))
            distinct = same(outcome.got, len(text.encode("utf-8")) / len(set(ids)))
            why = (
                f": it is {UPSIDE_DOWN_HINT}, so the search compares with the goal a number that shrinks as the "
                "tokenizer grows"
                if upside_down
                else ": it divides by the number of DIFFERENT tokens, len(set(ids)); divide by all of them, len(ids)"
                if distinct
                else f": it measures only the text's first {starts[0]:,} characters (text[:{starts[0]}]), and this text "
                f"has {len(text):,}; measure the whole text"
                if len(starts) == 1
                else f": it measures only the start of the text (text[:n]; n = {_numbers_in_words(starts)} give "
                f"these numbers), and this text has {len(text):,}; measure the whole text"
                if starts
                else ""
            )
            return (
                f"your bytes_per_token (exercise 1), which this search calls, is what goes wrong, not the search: "
                f"for {size:,} tokens on this text it gives {short(outcome.got)}, where the exact bytes per token is "
                f"{exact!r}{why}. Fix exercise 1 (run check_bytes_per_token(bytes_per_token) again), then run this "
                "check again"
            )
    return None


def _numbers_in_words(numbers: list[int]) -> str:
    return ", ".join(f"{n:,}" for n in numbers[:-1]) + f" or {numbers[-1]:,}" if len(numbers) > 1 else f"{numbers[0]:,}"


def _prefix_lengths(
    helper: Callable[..., object], tokenizer: BPETokenizer, text: str, sizes: list[int] | tuple[int, ...] = ()
) -> list[int]:
    """The lengths n of ``PREFIX_LENGTHS`` (shorter than ``text``) for which ``helper`` gives, at each of ``sizes``
    and a few other sizes of ``tokenizer``, the bytes per token of text[:n]. One size can leave several: on a text
    that repeats a paragraph, 300 tokens give the same ratio on its first 2,000 and 5,000 characters; the other
    sizes tell them apart, and when none does, every length left is named."""
    largest = _largest(tokenizer)
    tried = [*sizes, largest, (256 + largest) // 2, 257, (3 * 256 + largest) // 4]
    candidates = [n for n in PREFIX_LENGTHS if n < len(text)]
    for checked, size in enumerate(dict.fromkeys(size for size in tried if 256 <= size <= largest)):
        if checked and len(candidates) <= 1:
            break  # one length left after a size has been compared (or none)
        smaller = tokenizer.truncated(size)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(helper, (smaller, text), MAX_STEPS)
        if outcome.error is not None or outcome.runaway:
            break
        candidates = [n for n in candidates if same(outcome.got, bytes_per_token(smaller, text[:n]))]
    return candidates


def _helper_is_wrong(attempt: Attempt) -> str | None:
    """A diagnoser: the check failed because the learner's ``bytes_per_token`` is wrong on this check's input."""
    if not _CHECKED:
        return None
    tokenizer, text, _ = attempt.args
    sizes = [size for size in (_a_size(attempt), attempt.expected) if isinstance(size, int)]
    sizes += [size - 1 for size in sizes]
    return _wrong_helper(_CHECKED[-1], tokenizer, text, sizes)


def _none_compared(attempt: Attempt) -> str | None:
    """A comparison met None: the search's ``bytes_per_token`` (exercise 1) is most likely still the stub."""
    error = attempt.error
    if not isinstance(error, TypeError) or "NoneType" not in str(error) or "not supported" not in str(error):
        return None
    return (
        "a comparison met None: the bytes_per_token your search calls returned None, probably because exercise 1 "
        "is still the stub; finish exercise 1 (check_bytes_per_token passes), then run this check again"
    )


def _same_on_every_check(attempt: Attempt) -> str | None:
    """The search gives one number whatever it is given: a size written in, or one computed from globals."""
    answers = [got for _, got in attempt.history()]
    if len(answers) < 3 or any(not same(got, attempt.got) for got in answers):
        return None
    return (
        f"your search returned {short(attempt.got)} on every check, whatever tokenizer, text and goal it was "
        "given: compute the size from its own three parameters (not from english_bpe, the lesson's text, or a "
        "number found earlier)"
    )


PARAMETERS = ("tokenizer", "text", "goal")

INSTEAD = {
    "tokenizer": "cut back `tokenizer`, the one it is given (tokenizer.truncated(middle), up to 256 + "
    "len(tokenizer.merges)), not english_bpe",
    "text": 'measure `text`, the one it is given, not texts["held-out text"] or another text of the lesson\'s',
    "goal": "compare with `goal`, the one it is given, not a number of the lesson's such as 0.9 * gpt4_held",
}


def _plain(tokenizer: BPETokenizer) -> BPETokenizer:
    """The same tokenizer without the counting: what the checker measures must not count against the search."""
    plain = BPETokenizer.__new__(BPETokenizer)
    plain.__dict__.update({key: value for key, value in tokenizer.__dict__.items() if key != "_measured"})
    return plain


def _ignores(
    parameter: str, *, out_of_reach: bool = False, falls_short: bool = False
) -> Callable[[Attempt], str | None]:
    """A diagnoser: the search returns the same size for checks that differ in ``parameter`` alone (and whose
    answers differ), on every such group of checks: it uses a value of the lesson's (a global) instead of its own
    parameter. Its loop may be right; "follow low, high and middle" would send the learner the wrong way.
    ``out_of_reach``: only when that size is not a size of some tokenizer it was given (``english_bpe``'s sizes on
    the checker's small tokenizers), which an off-by-one search never returns.
    ``falls_short``: only when that size falls short of the goal on the text of one of the checks. A search that
    measures its own text returns a size it saw reach the goal, however few sizes it tries: one that tries only
    256, 356, 456, … returns the largest size of the checker's small tokenizers whatever the text, and that size
    reaches every goal of those checks."""
    position = PARAMETERS.index(parameter)

    def key(args: tuple) -> tuple:
        return tuple(
            tuple(value.merges.items()) if isinstance(value, BPETokenizer) else value
            for index, value in enumerate(args)
            if index != position
        )

    def diagnose(attempt: Attempt) -> str | None:
        groups: dict[tuple, list[tuple[tuple, object]]] = {}
        for args, got in [(attempt.args, attempt.got), *attempt.history()]:
            groups.setdefault(key(args), []).append((args, got))
        compared = []
        for members in groups.values():
            answers = {reference_search(_plain(args[0]), args[1], args[2]) for args, _ in members}
            if len(members) < 2 or len(answers) < 2:
                continue  # nothing to tell: one check, or the same answer whatever that parameter is
            if any(not same(got, members[0][1]) for _, got in members):
                return None
            compared.append(members)
        if not compared or (
            out_of_reach
            and all(_a_size(Attempt(args, None, got)) is not None for group in compared for args, got in group)
        ):
            return None
        if falls_short and not any(_short_of_the_goal(args, got) for group in compared for args, got in group):
            return None
        mine = [group for group in compared if any(args is attempt.args for args, _ in group)]
        if mine:
            said = f"your search returned {short(attempt.got)} for checks that differ only in their {parameter}"
        else:  # this check is in no group compared: the answer quoted is theirs, not this one's (shown as `got`)
            group = compared[0]
            others = {2: "two", 3: "three"}.get(len(group), str(len(group)))
            said = (
                f"your search returned {short(attempt.got)} here, and {short(group[0][1])} on {others} other checks "
                f"that differ only in their {parameter}"
            )
        return (
            f"{said} (and whose answers differ): it does not use its own `{parameter}`. Its loop may be right; "
            f"{INSTEAD[parameter]}"
        )

    return diagnose


def _short_of_the_goal(args: tuple, got: object) -> bool:
    """``got`` is a size of the check's tokenizer that falls short of the check's goal on its text."""
    size = _a_size(Attempt(args, None, got))
    if size is None:
        return False
    tokenizer, text, goal = args
    return _measured(_plain(tokenizer), text, size) < goal


def _tries_only_some_sizes(attempt: Attempt) -> str | None:
    """On every check the search returned a size that reaches the goal, and more than once not the smallest, by
    more than one size: it measures only some sizes (steps of 100, doublings, the sizes of the curve's table) and
    returns the first of them that reaches the goal. A size that is always one too large is another mistake."""
    size, expected = _a_size(attempt), attempt.expected
    if size is None or not isinstance(expected, int) or size <= expected:
        return None
    answers = [(attempt.args, attempt.got), *attempt.history()]
    pairs: list[tuple[int, int]] = []  # (the size returned, the smallest that reaches the goal), check by check
    for args, got in answers:
        size_returned = _a_size(Attempt(args, None, got))
        smallest = reference_search(_plain(args[0]), args[1], args[2])
        if smallest is None or size_returned is None or size_returned < smallest:
            return None  # no size reaches the goal, a number out of reach, or a size that falls short of it
        pairs.append((size_returned, smallest))
    if sum(got > smallest for got, smallest in pairs) < 2 or all(got - smallest <= 1 for got, smallest in pairs):
        return None
    return (
        f"your search returned {size:,}, which reaches the goal, but so does {expected:,}, a smaller size. On "
        "every check your search returned a size that reaches the goal, but not always the smallest: it seems to "
        "try only some sizes (steps of 100, doublings 256, 512, …, the sizes of the curve's table) and return the "
        "first of them that reaches the goal. The smallest size lies between the last size that falls short and "
        "the first that reaches the goal: try every size between those two, or halve the range between them until "
        "it is one size wide (binary search: high = middle when the middle reaches the goal, else low = middle + 1)"
    )


def _in_merges(attempt: Attempt) -> str | None:
    got, expected = attempt.got, attempt.expected
    if isinstance(got, bool) or not isinstance(got, int) or not isinstance(expected, int) or got != expected - 256:
        return None
    return (
        f"{got:,} is a number of merges, not a vocabulary size: the vocabulary also holds the 256 byte tokens, "
        f"so {got:,} merges make {expected:,} tokens; return 256 + the merges, the size `truncated(size)` takes"
    )


def _counted_twice(attempt: Attempt) -> str | None:
    got, expected = attempt.got, attempt.expected
    if isinstance(got, bool) or not isinstance(got, int) or not isinstance(expected, int) or got != expected + 256:
        return None
    return (
        f"{got:,} is 256 more than {expected:,}, the first size that reaches the goal: `truncated(size)` already "
        "counts the 256 byte tokens, so the size that reaches the goal is the answer as it is"
    )


def _out_of_reach(attempt: Attempt) -> str | None:
    got = attempt.got
    if isinstance(got, bool) or not isinstance(got, int) or _a_size(attempt) is not None:
        return None
    return (
        f"{got:,} is not a size of this tokenizer: its sizes run from 256 (bytes only) to "
        f"{_largest(attempt.args[0]):,} (256 + len(tokenizer.merges))"
    )


def _where_it_lands(attempt: Attempt) -> str | None:
    """Neutral: what the size returned measures, and which size is the first to reach the goal."""
    size, expected = _a_size(attempt), attempt.expected
    if size is None or not isinstance(expected, int):
        return None
    tokenizer, text, goal = attempt.args
    value = _measured(tokenizer, text, size)
    if value < goal:
        return (
            f"{size:,} falls short of the goal ({value:.4f} < {goal:.4f} bytes per token); the first size that "
            f"reaches it is {expected:,}. Follow low, high and middle through this check by hand"
        )
    return (
        f"{size:,} reaches the goal, but so does {expected:,}, a smaller size: the first that reaches it is "
        f"{expected:,}. Follow low, high and middle through this check by hand"
    )


SEARCH = Exercise(
    name="smallest_vocab_size",
    call="smallest_vocab_size(tokenizer, text, goal)",
    reference=reference_search,
    solution=(smallest_vocab_size,),
    course_functions=(smallest_vocab_size, first_reaching),
    cases=_search_cases,
    diagnosers=[
        on_error(
            TooManyMeasurements,
            "a search this small should measure each size at most once: does every step move `low` up or "
            "`high` down (low = middle + 1, high = middle)? The check counts the sizes your search measures, "
            "not seconds",
        ),
        _from_vocab_size,  # before the ValueError of any size out of range
        on_error(
            ValueError,
            "your search asked tokenizer.truncated for a size it does not have: the sizes run from 256 to "
            "256 + len(tokenizer.merges); check where `low` and `high` start and how `middle` is computed "
            "((low + high) // 2)",
            contains="vocab_size must be",
        ),
        on_error(
            NameError,
            "bytes_per_token is not defined yet: your search calls exercise 1's function, so run exercise 1's cell "
            "(bytes_per_token) first, then this one (or measure with library_bytes_per_token, imported in the "
            "lesson's first cell)",
            contains="'bytes_per_token'",
        ),
        on_error(
            NameError,
            "library_bytes_per_token is not defined (was the kernel restarted?): run the lesson's first cell, "
            "which imports it, then this one",
            contains="'library_bytes_per_token'",
        ),
        _none_compared,
        _helper_is_wrong,  # before the search's own mistakes: a wrong exercise 1 makes a right search look wrong
        _cleaned_search,  # the search is right, on a cleaned text
        _shared_cache,  # before the checks that differ in one parameter: such a search answers alike on them
        _same_on_every_check,
        _in_merges,
        _counted_twice,
        _ignores("tokenizer", out_of_reach=True),  # english_bpe's sizes, out of the checker's tokenizers' reach
        _out_of_reach,
        same_as(
            _characters_per_token,
            "you measured characters per token (len(text)); the goal is in bytes per token: "
            "len(text.encode('utf-8')) / len(ids)",
        ),
        *_GOAL_SCALED,  # before the rounding and margins: each is tried on every check, so only what happened is named
        _rounded_goal,
        when(
            _falls_short_by_a_little,
            "that size falls short of the goal, by less than 0.005 bytes per token: compare the exact numbers, "
            "bytes per token >= goal, with no rounding and no margin",
        ),
        _rounded_search,  # after: a margin and a rounding of both can agree on every case
        same_as(_strictly_above, "a size whose bytes per token EQUALS the goal reaches it: compare with >=, not >"),
        same_as(
            _never_tries_256,
            "your search never measures 256, the bytes alone, which is the answer when no merge is needed: "
            "start at low = 256 and loop while low < high (a loop that stops when low and high are one apart "
            "never measures `low`)",
        ),
        same_as(
            _never_tries_the_largest,
            "your search never tries the largest size, 256 + len(tokenizer.merges) (all merges), which is the "
            "answer when only the full tokenizer reaches the goal: start at high = 256 + len(tokenizer.merges)",
        ),
        same_as(
            _steps_below_the_middle,
            "when the middle size reaches the goal, it may itself be the smallest that does: keep it "
            "(high = middle), not high = middle - 1",
        ),
        same_as(
            _branches_swapped,
            "the two branches are swapped: when the middle size reaches the goal, the answer is that size or a "
            "smaller one (high = middle); when it falls short, the answer is larger (low = middle + 1)",
        ),
        same_as(
            _returns_the_middle,
            "you return `middle`, the last size measured; when the loop ends, low == high is the answer: return high",
        ),
        # after the named slips, some of which also answer alike on two texts (a search that never moves `high`);
        # the goal first: with a goal of its own no text reaches it, and every text gets the same answer
        _ignores("goal"),
        _ignores("text", falls_short=True),  # a search that tries only some sizes answers alike on two texts too
        _ignores("tokenizer"),
        _tries_only_some_sizes,
        _where_it_lands,
    ],
    hint="low, high = 256, 256 + len(tokenizer.merges); while low < high: middle = (low + high) // 2; if the middle "
    "reaches the goal, high = middle, else low = middle + 1; return high",
)


def _result(passed: bool, status: str, message: str) -> CheckResult:
    return CheckResult(passed, "smallest_vocab_size", None if passed else 1, 1, status, message)


def _report(passed: bool, status: str, message: str) -> CheckResult:
    print(message)
    return _result(passed, status, message)


def check_smallest_vocab_size(
    search: object,
    tokenizer: BPETokenizer,
    text: str,
    *,
    production: str = "cl100k_base",
    within: float = 0.10,
    record: bool = True,
) -> CheckResult:
    """Check the learner's search ``smallest_vocab_size(tokenizer, text, goal) -> int``: first on the checker's
    own tokenizers, texts and goals (a number, or an off-by-one search, can be right for one tokenizer only),
    then on ``tokenizer`` and ``text`` with the goal ``within`` (a fraction) of ``production``'s bytes per token.

    On the lesson's tokenizer the search may measure at most ``MAX_MEASUREMENTS`` sizes: the check counts
    measurements, not seconds, so a busy machine does not change the verdict. Prints how close the size found
    comes and whether one fewer token would do, and returns the result; never raises. Bytes per token never
    falls as merges are added (``bpelab.analysis.compression``), so "the smallest" is exact: a size that reaches
    the goal is the smallest exactly when one fewer token does not.
    ``record=False``: a pass does not tick the course map (a lesson showing what the checker says).
    """
    name = "smallest_vocab_size"
    with recording(record):
        if search is None or search is Ellipsis:
            return _report(
                False,
                "not yet",
                f"⏳ {name}: not yet — pass your search, my_smallest_vocab_size (the function itself, not "
                "its result), once its body returns a size; then run this check again.",
            )
        if not callable(search):
            number = isinstance(search, (int, float)) or hasattr(search, "__index__")
            return _report(
                False,
                "failed",
                f"❌ {name}: expected your search, the function my_smallest_vocab_size, but got "
                f"{kind(search)} {short(search)}.\n"
                + (
                    "   problem:  a number can be right for this one tokenizer and text; the check runs your "
                    "search on its own tokenizers, texts and goals first\n"
                    if number
                    else ""
                )
                + f"   hint:     pass the function itself, without calling it: check_{name}(my_smallest_vocab_size, "
                'english_bpe, texts["held-out text"], ...)',
            )
        if production not in ENCODING_NAMES:
            return _report(
                False,
                "failed",
                f"❌ {name}: unknown production tokenizer {production!r}; choose from {', '.join(ENCODING_NAMES)}.",
            )
        if isinstance(within, bool) or not isinstance(within, (int, float)) or not 0 <= within < 1:
            return _report(
                False,
                "failed",
                f"❌ {name}: `within` must be a fraction from 0 to 1, such as 0.10 for 10%; got {short(within)}.",
            )
        try:
            theirs = bytes_per_token(production, text)
            if not isinstance(tokenizer, BPETokenizer):
                raise TypeError(f"expected the BPETokenizer you trained, got {kind(tokenizer)}")
        except Exception as err:  # never raise on a learner's input
            return _report(
                False,
                "checker error",
                f"⚠️ {name}: could not measure ({type(err).__name__}: {without_addresses(str(err))}). "
                "Pass the tokenizer you trained and a non-empty text.",
            )
        return _check_search(search, tokenizer, text, theirs, production, within)


def _check_search(
    search: Callable[..., object], tokenizer: BPETokenizer, text: str, theirs: float, production: str, within: float
) -> CheckResult:
    """The learner's search on the checker's cases, then its answer for the lesson's tokenizer and text."""
    unfinished = _unfinished_helper(search)
    if unfinished:
        return _report(False, "not yet", unfinished)
    _CHECKED.append(search)
    try:
        result = SEARCH.run(search, record=False)
    finally:
        _CHECKED.pop()
    if not result.passed:
        print(result.message)
        return CheckResult(False, result.name, result.failed_case, result.checks, result.status, result.message)
    remembered = _twice_on_one_tokenizer(search, result.checks) or _search_after_training_again(search, result.checks)
    if remembered:
        return _report(False, "failed", remembered)
    goal = theirs * (1 - within)
    counted = MeasuredTokenizer.of(tokenizer)
    outcome = call(search, (counted, text, goal), MAX_STEPS, SEARCH_SECONDS)
    if outcome.error is not None or outcome.runaway:
        return _report(False, "failed", _search_failed(result.checks, outcome, tokenizer, counted.sizes))
    number = _judge_size(outcome.got, tokenizer, text, theirs, production, within)
    if not number.passed and isinstance(outcome.got, int):
        helper = _wrong_helper(search, tokenizer, text, [outcome.got, outcome.got - 1, outcome.got + 1])
        if helper is not None:
            kept = [line for line in number.message.split("\n") if not line.startswith("   hint:")]
            number = _result(False, "failed", "\n".join([*kept, f"   hint:     {helper}"]))
    first, *rest = number.message.split("\n")
    searched = (
        f"   search:   your search also passed all {result.checks} checks on other tokenizers, texts and goals; "
        f"here it measured {counted.measurements} of the {_largest(tokenizer) - 255:,} sizes "
        f"(the check counts measurements, not seconds: at most {MAX_MEASUREMENTS})"
    )
    message = "\n".join([first, searched, *rest])
    print(message)
    return CheckResult(number.passed, number.name, number.failed_case, number.checks, number.status, message)


def _reversed_paragraph() -> BPETokenizer:
    """Trained on the paragraph written backwards to 314 ids: 58 merges, as many as ``_paragraph``'s, but others:
    on the paragraph it first reaches 1.01 bytes per token at 261, where ``_paragraph`` does at 257."""
    return BPETokenizer().train(PARAGRAPH[::-1], 314, pattern="cl100k")


def _twice_on_one_tokenizer(search: Callable[..., object], checks: int) -> str | None:
    """The message when the search, called in a row with one tokenizer object and two texts, then with another
    tokenizer of the same size on the first text, answers a call wrong: it keeps measurements between calls, keyed
    without the text or without the tokenizer. The checker's cases cannot see all of that (each call gets a copy
    of the tokenizer, so a cache keyed by the tokenizer object never hits); the lesson's next steps can (english_bpe
    on the training text after the held-out text, code_bpe of the same size on the held-out text). A last call on
    a long text, then on a very long one, catches a search (or its bytes_per_token) that measures only the start of
    the text: the checker's cases are shorter than 1,000 characters, the lesson's held-out text is not, and its
    training text is longer still (310,236 characters). Every prefix of ``WHOLE_TEXT`` in ``PREFIX_LENGTHS`` that
    is shorter than it (up to text[:200000]) gives another answer for this goal."""
    tokenizer = MeasuredTokenizer.of(_paragraph())
    calls = [
        (tokenizer, PARAGRAPH, 1.01, "the paragraph with the goal 1.01"),
        (tokenizer, MIXED_SCRIPTS, 1.01, "text in other scripts with the same goal"),
        (tokenizer, MIXED_SCRIPTS, _goal_at(_paragraph(), MIXED_SCRIPTS, 300), "that text with another goal"),
        (
            MeasuredTokenizer.of(_reversed_paragraph()),
            PARAGRAPH,
            1.01,
            "the paragraph and the goal of call 1 with ANOTHER tokenizer of the same size (58 merges, learned on the "
            "paragraph written backwards)",
        ),
        (
            tokenizer,
            LONG_TEXT,
            _goal_at(_paragraph(), LONG_TEXT, 300),
            f"a long text ({len(LONG_TEXT):,} characters, the paragraph 12 times, then other scripts), the goal what "
            "300 gives",
        ),
        (
            tokenizer,
            WHOLE_TEXT,
            _goal_at(_paragraph(), WHOLE_TEXT, 300),
            f"a very long text ({len(WHOLE_TEXT):,} characters, the paragraph 300 times, then other scripts), the "
            "goal what 300 gives",
        ),
    ]
    for number, (given, text, goal, _) in enumerate(calls, 1):
        expected = reference_search(_plain(given), text, goal)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(search, (given, text, goal), MAX_STEPS, SEARCH_SECONDS)
        if outcome.error is not None or outcome.runaway or same(outcome.got, expected):
            continue
        kept = [name for name, value in _dicts_kept(search) if value]
        where = f"`{kept[0]}`, a dict shared between calls" if kept else "something shared between calls"
        said = "; ".join(f"call {i} {what}" for i, (_, _, _, what) in enumerate(calls[:number], 1))
        helper = _wrong_helper(search, given, text, [expected] if isinstance(expected, int) else [])
        return (
            f"❌ smallest_vocab_size: your search passed all {checks} checks, each on a tokenizer of its own, but "
            f"called {number} times in a row (as the lesson calls english_bpe on two texts, then code_bpe, of the "
            f"same size, on one of them; the last two calls on long texts), it answered {short(outcome.got)} on call {number} where {expected:,} is "
            f"right.\n"
            f"   problem:  {said}; "
            + (
                "the search is right, but the bytes_per_token it calls is not\n"
                if helper
                else f"call {number} does not measure the whole text: measure all of `text`, not text[:n]\n"
                if text is LONG_TEXT or text is WHOLE_TEXT
                else f"call {number} seems to read what an earlier call measured, kept in {where}\n"
            )
            + "   hint:     "
            + (
                helper
                or (
                    "a bytes per token is that of the whole text: measure the `text` the search is given, all of "
                    "it, not a sample of its start (text[:n], text[:50_000]), however long the text"
                    if text is LONG_TEXT or text is WHOLE_TEXT
                    else "a measurement depends on the tokenizer, the size AND the text: make the dict inside the "
                    "function (a new one for each call), so that no call reads another's measurements"
                )
            )
        )
    return None


def _search_after_training_again(search: Callable[..., object], checks: int) -> str | None:
    """The message when the search answers right for a tokenizer trained on "abababab", then, once that same object
    is trained again in place on "babababa" (same id, same size, other merges), gives its old answer on the same
    text and goal: it keeps measurements keyed by something the two share, such as id(tokenizer)."""
    tokenizer = MeasuredTokenizer.of(_abab())
    for expected, what in ((257, "trained on 'abababab'"), (258, "then trained again, in place, on 'babababa'")):
        if expected == 258:
            tokenizer.train("babababa", 258)
        with contextlib.redirect_stdout(io.StringIO()):
            outcome = call(search, (tokenizer, "abababab", 2.0), MAX_STEPS, SEARCH_SECONDS)
        if outcome.error is None and not outcome.runaway and not same(outcome.got, expected):
            return (
                f"❌ smallest_vocab_size: your search passed all {checks} checks, but called twice on 'abababab' with "
                f"the goal 2.0 and ONE tokenizer object, {what}, it answered {short(outcome.got)} where {expected} is "
                "right ('ab' + 'ab' reaches 2.0 at 257; after 'babababa', 'a', 'baba', 'ba', 'b' reach it at 258).\n"
                "   hint:     your search seems to keep measurements between calls, keyed by something a tokenizer "
                "trained again keeps, such as id(tokenizer) and the size: measure afresh at each call (make the dict "
                "inside the function)"
            )
    return None


def _unfinished_helper(search: Callable[..., object]) -> str | None:
    """The "not yet" message when the search calls a ``bytes_per_token`` of the learner's that returns None."""
    code = getattr(unwrapped(search), "__code__", None)
    helper = getattr(unwrapped(search), "__globals__", {}).get("bytes_per_token")
    if code is None or "bytes_per_token" not in code_names(code) or not callable(helper) or helper is bytes_per_token:
        return None
    with contextlib.redirect_stdout(io.StringIO()):
        outcome = call(helper, (BPETokenizer(), "ab"), MAX_STEPS)
    if outcome.error is not None or outcome.runaway or outcome.got is not None:
        return None
    return (
        "⏳ smallest_vocab_size: not yet — your search calls bytes_per_token, which returned None (exercise 1 is "
        "still the stub?): finish exercise 1 first (check_bytes_per_token passes), then run this check again."
    )


def _how_it_stepped(measured: list[int]) -> str:
    """What the sizes a search measured show of how it moved: one by one, by steps of one width, or otherwise."""
    shown = ", ".join(f"{size:,}" for size in measured[:5]) + (", …" if len(measured) > 5 else "")
    steps = [b - a for a, b in zip(measured, measured[1:])]
    if not steps:
        return f"it measured {shown}"
    run = next((i for i, step in enumerate(steps) if step != steps[0]), len(steps))
    if abs(steps[0]) == 1 and run >= len(steps) - 1:
        way = "up" if steps[0] > 0 else "down"
        return f"it measured {shown}: the sizes one by one, going {way}"
    if steps[0] != 0 and run >= 5:
        way = "up" if steps[0] > 0 else "down"
        return (
            f"it measured {shown}: {run + 1} sizes in steps of {abs(steps[0]):,} going {way}, then "
            f"{len(measured) - run - 1} more"
        )
    return f"it measured {shown}"


def _search_failed(checks: int, outcome: Outcome, tokenizer: BPETokenizer, measured: list[int]) -> str:
    """The message for a search that passed the checks, then raised or did not finish on the lesson's tokenizer;
    ``measured``: the sizes it measured, in order."""
    first = f"❌ smallest_vocab_size: your search passed {checks} checks, but on this tokenizer and text it "
    sizes = f"{_largest(tokenizer) - 255:,} sizes to choose from"
    if isinstance(outcome.error, TooManyMeasurements):
        return (
            first + f"measured more than {MAX_MEASUREMENTS} sizes (calls of tokenizer.truncated), and was stopped.\n"
            f"   problem:  {_how_it_stepped(measured)}: {len(measured)} measurements, where at most "
            f"{MAX_MEASUREMENTS} are allowed\n"
            f"   hint:     this tokenizer has {sizes}, and each measurement encodes the whole text. Halve the range "
            "at each step, from the first size measured on (a search that halves 256 to the largest size measures "
            f"about a dozen). The check counts measurements, not seconds: at most {MAX_MEASUREMENTS}, on any machine"
        )
    if outcome.error is not None:
        message = without_addresses(str(outcome.error))[:200]
        where = f" ({outcome.where})" if outcome.where else ""
        return first + f"raised {type(outcome.error).__name__}: {message}{where}".rstrip(": ")
    limit = (
        f"ran more than {MAX_STEPS:,} lines of your Python without measuring a size"
        if outcome.runaway == "steps"
        else f"was still running after {SEARCH_SECONDS:g} seconds"
        if outcome.runaway == "time"
        else f"took more than {runaway.MAX_MEMORY // 2**20:,} MB of memory"
    )
    return (
        first + f"did not finish: it {limit}.\n"
        "   hint:     probably a loop that never ends: check that every loop ends, and that each step of the "
        f"search moves `low` up or `high` down (this tokenizer has {sizes})"
    )


def _judge_size(
    vocab_size: object, tokenizer: BPETokenizer, text: str, theirs: float, production: str, within: float
) -> CheckResult:
    """The size the search found for the lesson's tokenizer: how close it comes, and whether it is the smallest."""
    name = "smallest_vocab_size"
    if isinstance(vocab_size, float) and vocab_size.is_integer():
        vocab_size = int(vocab_size)
    elif not isinstance(vocab_size, (bool, int)) and hasattr(vocab_size, "__index__"):
        vocab_size = operator.index(vocab_size)  # a whole number of another type, numpy's int64
    if vocab_size is None and bytes_per_token(tokenizer.truncated(_largest(tokenizer)), text) < theirs * (1 - within):
        return _best_it_can(None, tokenizer, text, theirs, production, within)
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        returned = "None" if vocab_size is None else f"{kind(vocab_size)} {short(vocab_size)}"
        return _result(
            False,
            "failed",
            f"❌ {name}: your search returned {returned}; expected a whole number of tokens such as 2000.",
        )
    largest = _largest(tokenizer)
    goal = theirs * (1 - within)
    label = FRIENDLY_NAMES.get(production, production)
    if not 256 <= vocab_size <= largest:
        return _result(
            False,
            "failed",
            f"❌ {name}: {vocab_size:,} is out of reach: this tokenizer's sizes run "
            f"from 256 (bytes only) to {largest:,} (all {largest - 256:,} merges).",
        )

    def measure(size: int) -> float:
        return bytes_per_token(tokenizer.truncated(size), text)

    def line(size: int, value: float) -> str:
        return (
            f"{size:,} tokens (256 bytes + {size - 256:,} merges): {value:.4f} bytes per token, "
            f"{value / theirs:.2%} of {label}"
        )

    ours = measure(vocab_size)
    goal_line = f"   goal:     at least {goal:.4f} bytes per token ({1 - within:.0%} of the {theirs:.4f} of {label})"
    if ours < goal:
        full = measure(largest)
        if full < goal and vocab_size == largest:
            return _best_it_can(vocab_size, tokenizer, text, theirs, production, within)
        if full < goal:
            return _result(
                False,
                "failed",
                _out_of_reach_message(vocab_size, ours, full, largest, goal, line, goal_line, label, within, theirs),
            )
        return _result(
            False,
            "failed",
            "\n".join(
                [
                    f"❌ {name}: not yet within {within:.0%} of {label}.",
                    f"   yours:    {line(vocab_size, ours)}",
                    goal_line,
                    "   hint:     the size your search returned falls short of the goal: a search must return a "
                    "size it has seen reach it",
                ]
            ),
        )
    if vocab_size > 256 and measure(vocab_size - 1) >= goal:
        return _result(
            False,
            "failed",
            "\n".join(
                [
                    f"❌ {name}: within {within:.0%}, but not the smallest size that is.",
                    f"   yours:    {line(vocab_size, ours)}",
                    goal_line,
                    f"   also:     {vocab_size - 1:,} tokens reach the goal too, so a smaller vocabulary will do",
                ]
            ),
        )
    return _result(
        True,
        "passed",
        "\n".join(
            [
                f"✅ {name}: {vocab_size:,} is the smallest vocabulary within {within:.0%} of {label} on this text.",
                f"   yours:    {line(vocab_size, ours)}",
                goal_line,
                *([f"   one less: {line(vocab_size - 1, measure(vocab_size - 1))}"] if vocab_size > 256 else []),
            ]
        ),
    )


def _best_it_can(
    vocab_size: int | None, tokenizer: BPETokenizer, text: str, theirs: float, production: str, within: float
) -> CheckResult:
    """No size reaches the goal on this text, and the search answered as the reference does (None) or with the
    largest size, as the lesson's loop does: it did what it could, and it passed the checker's own cases first. The
    message says why the goal is out of reach (``_out_of_reach_message``, whose first line is the verdict)."""
    largest = _largest(tokenizer)
    full = bytes_per_token(tokenizer.truncated(largest), text)
    label = FRIENDLY_NAMES.get(production, production)
    goal = theirs * (1 - within)

    def line(size: int, value: float) -> str:
        return (
            f"{size:,} tokens (256 bytes + {size - 256:,} merges): {value:.4f} bytes per token, "
            f"{value / theirs:.2%} of {label}"
        )

    goal_line = f"   goal:     at least {goal:.4f} bytes per token ({1 - within:.0%} of the {theirs:.4f} of {label})"
    _, _, largest_line, _, hint = _out_of_reach_message(
        largest, full, full, largest, goal, line, goal_line, label, within, theirs
    ).split("\n")
    returned = "None (no size reaches it)" if vocab_size is None else f"{vocab_size:,}, the largest size"
    return _result(
        True,
        "passed",
        "\n".join(
            [
                f"✅ smallest_vocab_size: no size of this tokenizer gets within {within:.0%} of {label} on this "
                f"text, and your search answered {returned}: the best it can do.",
                largest_line,
                goal_line,
                hint.replace("   hint:     ", "   why:      ", 1),
            ]
        ),
    )


def _out_of_reach_message(
    vocab_size: int,
    ours: float,
    full: float,
    largest: int,
    goal: float,
    line: Callable[[int, float], str],
    goal_line: str,
    label: str,
    within: float,
    theirs: float,
) -> str:
    """No size reaches the goal: say so with both numbers, the `within` that the full tokenizer would meet, and, for
    a text the merges hardly touch, why."""
    needed = math.ceil((1 - full / theirs) * 10_000) / 10_000
    why = (
        f" All {largest - 256:,} merges leave this text at almost one token per byte: its merges join pairs of its "
        "training text, and this text is unlike the text it was trained on (another script, only spaces, …), so they "
        "hardly apply."
        if full < 1.1
        else ""
    )
    return "\n".join(
        [
            f"❌ smallest_vocab_size: no size of this tokenizer gets within {within:.0%} of {label} on this text.",
            f"   yours:    {line(vocab_size, ours)}",
            f"   largest:  {line(largest, full)}",
            goal_line,
            f"   hint:     the goal, {goal:.4f} bytes per token, is above the {full:.4f} that the full tokenizer "
            f"({largest:,} tokens) reaches on this text, so no size reaches it; your search cannot do better."
            + why
            + f" A `within` of {needed:.2%} or more (within={needed:g}) puts the goal in reach; so would a tokenizer "
            "trained on more text, or one more like this text",
        ]
    )


__all__ = [
    "MAX_MEASUREMENTS",
    "SEARCH",
    "MeasuredTokenizer",
    "TooManyMeasurements",
    "check_bytes_per_token",
    "check_count_unused",
    "check_smallest_vocab_size",
    "count_unused",
]
