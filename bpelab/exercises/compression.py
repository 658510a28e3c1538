"""Checkers for lesson 08 (compression curves).

- ``check_bytes_per_token(fn)``: ``bytes_per_token(tokenizer, text) -> float``
- ``check_count_unused(fn)``: ``count_unused(tokenizer, text) -> int``
- ``check_smallest_vocab_size(vocab_size, tokenizer, text, production=..., within=0.10)``: not a
  function but a number the learner chooses. It measures the tokenizer cut to that size against
  a production tokenizer on the same text, says how close it is, and whether a smaller
  vocabulary would also do (the smallest one is the goal: every token costs parameters), and
  recognises the smallest size counted without the 256 byte tokens (a number of merges) or with them twice.

The small cases are hand-checkable: a tokenizer with no merges (1.0 byte per token), one trained
on ``"abababab"`` (merges ``a``+``b``, then ``ab``+``ab``), one that learned ``ï`` (2 bytes).
"""

from __future__ import annotations

import contextlib
import io
import operator
from collections.abc import Callable

from bpelab.analysis.compression import bytes_per_token, smallest_vocab_size
from bpelab.byte_level import BPETokenizer
from bpelab.exercises import runaway
from bpelab.exercises.core import MAX_STEPS, Attempt, Case, CheckResult, Exercise, recording, same_as, when
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


def _ids(tokenizer: BPETokenizer, text: str) -> list[int]:
    return tokenizer.encode(text)


# ---- bytes per token ------------------------------------------------------------------------


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
        Case((_paragraph(), PARAGRAPH), note="a tokenizer trained on the paragraph, on the paragraph"),
        Case((_paragraph(), MIXED_SCRIPTS), note="the same tokenizer on text in other scripts"),
    ],
    diagnosers=[
        same_as(
            lambda tokenizer, text: len(_ids(tokenizer, text)) / len(text.encode("utf-8")),
            "upside down: bytes ÷ tokens, not tokens ÷ bytes (more compression = a larger number)",
        ),
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
            lambda tokenizer, text: len(text.encode("utf-8")) // len(_ids(tokenizer, text)),
            "// rounds down to a whole number; use / for the exact ratio",
        ),
        when(
            lambda a: isinstance(a.got, float) and a.got != a.expected and a.got == round(a.expected, 2),
            "right, but rounded: return the exact ratio and round only when you show a number (print, table, plot)",
        ),
    ],
    hint="encode the text with tokenizer.encode(text), then len(text.encode('utf-8')) / len(ids)",
)


def check_bytes_per_token(fn: Callable[..., float], *, record: bool = True) -> CheckResult:
    """Lesson 08, exercise 1."""
    return BYTES_PER_TOKEN.check(fn, record=record)


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


COUNT_UNUSED = Exercise(
    name="count_unused",
    call="count_unused(tokenizer, text)",
    reference=count_unused,
    cases=lambda: [
        Case((BPETokenizer(), "aab"), 254, "no merges: 256 byte tokens, of which 'a' and 'b' are used"),
        Case((BPETokenizer(), "héé"), 253, "no merges: 'h' and the 2 bytes of é are used"),
        Case((_abab(), "abababab"), 257, "encode gives 'abab' twice: 'a', 'b' and 'ab' are inside it, not used"),
        Case((_abab(), "abab ab"), 255, "'abab', ' ' and 'ab' are used"),
        Case((_paragraph(), PARAGRAPH), note="a tokenizer trained on the paragraph, on the paragraph"),
        Case((_paragraph(), MIXED_SCRIPTS), note="the same tokenizer on text in other scripts"),
        Case(
            (_paragraph(), "\t" + PARAGRAPH.replace(". ", ".\n") + "\n\n"),
            note="lines, and whitespace at both ends: their tokens are used too",
        ),
    ],
    diagnosers=[
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
        same_as(_with_parts, "a token is used only if encode emits it; the pieces inside a longer token are not used"),
        same_as(
            lambda tokenizer, text: len(tokenizer.vocab) - len(set(text.encode("utf-8"))),
            "you counted the text's bytes as the used tokens; the used tokens are the ids encode returns",
        ),
    ],
    hint="the ids of tokenizer.vocab that are not in set(tokenizer.encode(text)): len(set(vocab) - set(ids))",
)


def check_count_unused(fn: Callable[..., int], *, record: bool = True) -> CheckResult:
    """Lesson 08, exercise 2."""
    return COUNT_UNUSED.check(fn, record=record)


# ---- choose a vocabulary size ---------------------------------------------------------------


def reference_search(tokenizer: BPETokenizer, text: str, goal: float) -> int | None:
    """The smallest size of ``tokenizer`` whose bytes per token on ``text`` reaches ``goal``."""
    return smallest_vocab_size(tokenizer, text, goal)


def _measured(tokenizer: BPETokenizer, text: str, size: int) -> float:
    return bytes_per_token(tokenizer.truncated(size), text)


def _search_cases() -> list[Case]:
    abab, paragraph = _abab(), _paragraph()
    return [
        Case(
            (abab, "abababab", 4.0), 258, "sizes 256, 257, 258 give 1, 2, 4 bytes per token: only the largest reaches 4"
        ),
        Case((abab, "abababab", 1.5), 257, "257 gives 2.0, 256 gives 1.0: 257 is the first to reach 1.5"),
        Case((abab, "abababab", 2.0), 257, "257 gives exactly 2.0: a size that equals the goal reaches it"),
        Case((abab, "abababab", 1.0), 256, "the 256 byte tokens alone give 1.0: no merge is needed"),
        *(
            Case((paragraph, PARAGRAPH, _measured(paragraph, PARAGRAPH, size)), note=f"the goal is what {size} gives")
            for size in (257, 300, 313)
        ),
        Case(
            (paragraph, MIXED_SCRIPTS, _measured(paragraph, MIXED_SCRIPTS, 314)),
            note="other scripts: many sizes give the same bytes per token, the answer is the first of them",
        ),
        Case((paragraph, MIXED_SCRIPTS, 1.01), note="other scripts, a goal between two sizes"),
        Case(
            (paragraph, PARAGRAPH, _measured(paragraph, PARAGRAPH, 290) + 1e-6),
            note="a goal a millionth above what 290 gives: 290 falls short of it, if only just",
        ),
    ]


def _falls_short_by_a_little(attempt: Attempt) -> bool:
    """The size returned misses the goal, but by less than 0.005 bytes per token (a rounded comparison)."""
    tokenizer, text, goal = attempt.args
    got = attempt.got
    if isinstance(got, bool) or not isinstance(got, int) or not 256 <= got <= 256 + len(tokenizer.merges):
        return False
    return goal - 0.005 <= _measured(tokenizer, text, got) < goal


def _characters_per_token(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The binary search done right, but measuring characters per token instead of bytes per token (when no size
    reaches the goal, the largest, where such a search ends)."""
    largest = 256 + len(tokenizer.merges)
    return next(
        (size for size in range(256, largest + 1) if len(text) / len(tokenizer.truncated(size).encode(text)) >= goal),
        largest,
    )


def _strictly_above(tokenizer: BPETokenizer, text: str, goal: float) -> int:
    """The smallest size whose bytes per token is strictly above the goal (``>`` for ``>=``)."""
    largest = 256 + len(tokenizer.merges)
    return next((size for size in range(256, largest + 1) if _measured(tokenizer, text, size) > goal), largest)


SEARCH = Exercise(
    name="smallest_vocab_size",
    call="smallest_vocab_size(tokenizer, text, goal)",
    reference=reference_search,
    solution=(smallest_vocab_size,),
    course_functions=(smallest_vocab_size,),
    cases=_search_cases,
    diagnosers=[
        same_as(
            _characters_per_token,
            "you measured characters per token (len(text)); the goal is in bytes per token: "
            "len(text.encode('utf-8')) / len(ids)",
        ),
        when(
            _falls_short_by_a_little,
            "that size falls short of the goal, by less than 0.005 bytes per token: compare the exact numbers, "
            "bytes per token >= goal, with no rounding and no margin",
        ),
        same_as(
            _strictly_above,
            "a size whose bytes per token EQUALS the goal reaches it: compare with >=, not >",
        ),
        when(
            lambda a: isinstance(a.got, int) and isinstance(a.expected, int) and a.got == a.expected + 1,
            "one more than the smallest: when the middle size reaches the goal, it may be the answer, so keep it "
            "(high = middle), don't step past it",
        ),
        when(
            lambda a: isinstance(a.got, int) and isinstance(a.expected, int) and a.got == a.expected - 1,
            "one less than the smallest: that size does not reach the goal; return the first size that does",
        ),
        when(
            lambda a: isinstance(a.got, int) and isinstance(a.expected, int) and a.got > a.expected,
            "a size that reaches the goal, but not the smallest: a binary search keeps `high` at a size that "
            "reaches the goal and `low` above every size that does not, and stops when they meet",
        ),
    ],
    hint="low, high = 256, tokenizer.vocab_size; while low < high: middle = (low + high) // 2; if the middle "
    "reaches the goal, high = middle, else low = middle + 1; return high",
)


def _report(passed: bool, status: str, message: str) -> CheckResult:
    print(message)
    return CheckResult(passed, "smallest_vocab_size", None if passed else 1, 1, status, message)


def _counted_wrong(vocab_size: int, smallest: int | None) -> str | None:
    """The message for an answer that is the smallest size counted without (or twice with) the 256
    byte tokens, else None. A vocabulary size is 256 byte tokens + the merges."""
    name = "smallest_vocab_size"
    if smallest is None or smallest == 256:
        return None
    if vocab_size == smallest - 256:
        return (
            f"❌ {name}: {vocab_size:,} is a number of merges, not a vocabulary size.\n"
            f"   the vocabulary also holds the 256 byte tokens: {vocab_size:,} merges make "
            f"{smallest:,} tokens (256 + {vocab_size:,}).\n"
            "   hint:     a vocabulary size counts tokens: 256 + the number of merges, as `truncated(size)` takes it"
        )
    if vocab_size == smallest + 256:
        return (
            f"❌ {name}: {vocab_size:,} is 256 more than {smallest:,}, the size that reaches the goal.\n"
            "   if you added 256 for the byte tokens: `truncated(size)` already counts them, so a size that "
            "reaches the goal there is the answer as it is.\n"
            "   hint:     256 + the number of merges is the vocabulary size; add the 256 only once"
        )
    return None


def check_smallest_vocab_size(
    vocab_size: object,
    tokenizer: BPETokenizer,
    text: str,
    *,
    production: str = "cl100k_base",
    within: float = 0.10,
    record: bool = True,
) -> CheckResult:
    """Is ``tokenizer.truncated(vocab_size)`` within ``within`` (a fraction) of ``production``'s
    bytes per token on ``text``, and is ``vocab_size`` the SMALLEST size that is?

    ``vocab_size`` may be the learner's search instead of its result: a function
    ``smallest_vocab_size(tokenizer, text, goal) -> int``. Then the search itself is checked first, on other
    tokenizers, texts and goals (an off-by-one search can land on the right number for one tokenizer), and its
    answer for ``tokenizer`` and ``text`` is then measured as a number would be.

    Prints how close the chosen size comes and returns the result; never raises. Bytes per token
    never falls as merges are added (``bpelab.analysis.compression``), so "the smallest" is exact: a size
    that reaches the goal is the smallest exactly when one fewer token does not.
    ``record=False``: a pass does not tick the course map (a lesson showing what the checker says).
    """
    with recording(record):
        if callable(vocab_size):
            return _check_search(vocab_size, tokenizer, text, production, within)
        return _check_smallest_vocab_size(vocab_size, tokenizer, text, production, within)


def _check_search(
    search: Callable[..., object], tokenizer: BPETokenizer, text: str, production: str, within: float
) -> CheckResult:
    """The learner's search on the checker's cases, then its answer for the lesson's tokenizer and text."""
    result = SEARCH.run(search, record=False)
    if not result.passed:
        print(result.message)
        return CheckResult(False, result.name, result.failed_case, result.checks, result.status, result.message)
    try:
        goal = bytes_per_token(production, text) * (1 - within)
    except Exception:  # an unknown production tokenizer or bad text: the number's checks say what is wrong
        return _check_smallest_vocab_size(None, tokenizer, text, production, within)
    outcome = call(search, (tokenizer, text, goal), MAX_STEPS)
    if outcome.error is not None or outcome.runaway:
        return _report(False, "failed", _search_failed(result.checks, outcome, tokenizer))
    with contextlib.redirect_stdout(io.StringIO()):
        number = _check_smallest_vocab_size(outcome.got, tokenizer, text, production, within)
    first, *rest = number.message.split("\n")
    searched = f"   search:   your search also passed all {result.checks} checks on other tokenizers, texts and goals"
    message = "\n".join([first, searched, *rest])
    print(message)
    return CheckResult(number.passed, number.name, number.failed_case, number.checks, number.status, message)


def _search_failed(checks: int, outcome: Outcome, tokenizer: BPETokenizer) -> str:
    """The message for a search that passed the checks, then raised or did not finish on the lesson's tokenizer."""
    first = f"❌ smallest_vocab_size: your search passed {checks} checks, but on this tokenizer and text it "
    if outcome.error is not None:
        message = without_addresses(str(outcome.error))[:200]
        where = f" ({outcome.where})" if outcome.where else ""
        return first + f"raised {type(outcome.error).__name__}: {message}{where}".rstrip(": ")
    sizes = f"{tokenizer.vocab_size - 256:,} sizes to choose from"
    limit = (
        f"ran more than {MAX_STEPS:,} lines of your Python"
        if outcome.runaway == "steps"
        else f"was still running after {runaway.MAX_SECONDS:g} seconds"
        if outcome.runaway == "time"
        else f"took more than {runaway.MAX_MEMORY // 2**20:,} MB of memory"
    )
    return (
        first + f"did not finish: it {limit}.\n"
        f"   hint:     this tokenizer has {sizes}, and each measurement encodes the whole text: a search that "
        "tries the sizes one by one takes minutes here. Halve the range at each step (about a dozen "
        "measurements); and check that every loop ends"
    )


def _check_smallest_vocab_size(
    vocab_size: object, tokenizer: BPETokenizer, text: str, production: str, within: float
) -> CheckResult:
    name = "smallest_vocab_size"
    try:
        if vocab_size is None or vocab_size is Ellipsis:
            return _report(
                False,
                "not yet",
                f"⏳ {name}: not yet — pass your search, my_smallest_vocab_size (the function itself, not "
                "its result), once its body returns a size; then run this check again.",
            )
        if isinstance(vocab_size, float) and vocab_size.is_integer():
            vocab_size = int(vocab_size)
        elif not isinstance(vocab_size, (bool, int)) and hasattr(vocab_size, "__index__"):
            vocab_size = operator.index(vocab_size)  # a whole number of another type, numpy's int64
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
            return _report(
                False,
                "failed",
                f"❌ {name}: expected a whole number of tokens such as 2000, "
                f"got {kind(vocab_size)} {short(vocab_size)}.",
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
        largest = 256 + len(tokenizer.merges)
        theirs = bytes_per_token(production, text)
        goal = theirs * (1 - within)
        label = FRIENDLY_NAMES.get(production, production)
        smallest = smallest_vocab_size(tokenizer, text, goal)
        counting = _counted_wrong(vocab_size, smallest)
        if counting:
            return _report(False, "failed", counting)
        if not 256 <= vocab_size <= largest:
            return _report(
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
        goal_line = (
            f"   goal:     at least {goal:.4f} bytes per token ({1 - within:.0%} of the {theirs:.4f} of {label})"
        )
        if ours < goal:
            if measure(largest) < goal:
                return _report(
                    False,
                    "failed",
                    "\n".join(
                        [
                            f"❌ {name}: no size of this tokenizer gets within {within:.0%} of {label} on this text.",
                            f"   yours:    {line(vocab_size, ours)}",
                            f"   largest:  {line(largest, measure(largest))}",
                            goal_line,
                            "   hint:     its training text ran out of pairs that occur twice; choose another text, "
                            "a looser `within`, or train on more text",
                        ]
                    ),
                )
            return _report(
                False,
                "failed",
                "\n".join(
                    [
                        f"❌ {name}: not yet within {within:.0%} of {label}.",
                        f"   yours:    {line(vocab_size, ours)}",
                        goal_line,
                        "   hint:     compression grows with the vocabulary: try a larger size",
                    ]
                ),
            )
        if vocab_size > 256 and measure(vocab_size - 1) >= goal:
            return _report(
                False,
                "failed",
                "\n".join(
                    [
                        f"❌ {name}: within {within:.0%}, but not the smallest size that is.",
                        f"   yours:    {line(vocab_size, ours)}",
                        goal_line,
                        f"   also:     {vocab_size - 1:,} tokens reach the goal too, so a smaller vocabulary will do",
                        "   hint:     bisect: keep a size that is too small and one that works, try halfway, repeat",
                    ]
                ),
            )
        return _report(
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
    except Exception as err:  # never raise on a learner's input
        message = without_addresses(str(err))
        return _report(
            False,
            "checker error",
            f"⚠️ {name}: could not measure ({type(err).__name__}: {message}). "
            "Pass the tokenizer you trained and a non-empty text.",
        )


__all__ = [
    "SEARCH",
    "check_bytes_per_token",
    "check_count_unused",
    "check_smallest_vocab_size",
    "count_unused",
]
