"""Lesson 11 checkers: WordPiece's choice of pair (here), and BERT's greedy way of encoding a word
(``wordpiece_encoding``).

- ``check_best_wordpiece_pair(fn)``: ``best_wordpiece_pair(word_freq) -> (a, b)``, the pair with the
  highest score count(AB) / (count(A) * count(B)), ties to the pair seen first.
- ``check_encode_wordpiece_word(fn)``: see ``bpelab.exercises.wordpiece_encoding``; imported here, so that a lesson
  imports both of its checkers from one place.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import re
from fractions import Fraction
from typing import Any

from bpelab.exercises.core import MAX_STEPS, Case, CheckResult, Exercise, on_error, run_checks, same_as, when
from bpelab.exercises.helper_stubs import name_stub_helpers
from bpelab.exercises.running import call
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH, made_up_words
from bpelab.exercises.training_loop import _count_without_overlaps
from bpelab.exercises.wordpiece_encoding import ENCODE_WORD, check_encode_wordpiece_word
from bpelab.wordpiece import (
    PREFIX,
    get_wordpiece_frequencies,
    symbol_counts,
    wordpiece_scores,
)
from bpelab.words import Pair, WordFreq, best_pair, count_pairs

# ---- exercise 1: the pair WordPiece merges next ---------------------------------------------------


def _scores(word_freq: WordFreq) -> dict[Pair, Any]:
    """Every pair's exact score (a ``Fraction``), in first-seen order; ``best_pair`` ranks them like counts."""
    return dict(wordpiece_scores(count_pairs(word_freq), word_freq))


def reference_best_wordpiece_pair(word_freq: WordFreq) -> Pair:
    """The pair with the highest score; of equal scores, the pair seen first."""
    return best_pair(_scores(word_freq))


def _most_frequent(word_freq: WordFreq) -> Pair:
    return best_pair(count_pairs(word_freq))


def _smallest_of_ties(word_freq: WordFreq) -> Pair:
    return best_pair(_scores(word_freq), "lexicographic")


def _float_scores(word_freq: WordFreq, score: Any) -> Pair:
    """The highest of ``score(n, count(A), count(B))`` computed in floating point, first of equal floats; numpy's
    overflow on counts of 10**200 stays silent (the learner's report is what they read, not numpy's warnings)."""
    import numpy as np

    singles = symbol_counts(word_freq)
    with np.errstate(all="ignore"):
        scores = {(a, b): score(n, singles[a], singles[b]) for (a, b), n in count_pairs(word_freq).items()}
    return max(scores, key=scores.__getitem__)


def _float_division(word_freq: WordFreq) -> Pair:
    """count / count(A) / count(B) in floating point: two divisions, each rounded, can split an exact tie."""
    return _float_scores(word_freq, lambda n, a, b: n / a / b)


def _float_division_b_first(word_freq: WordFreq) -> Pair:
    """count / count(B) / count(A): the same two roundings, in the other order."""
    return _float_scores(word_freq, lambda n, a, b: n / b / a)


def _one_division(word_freq: WordFreq) -> Pair:
    """n / (count(A) * count(B)): one correctly rounded division, yet two close scores can round to one float."""
    return _float_scores(word_freq, lambda n, a, b: n / (a * b))


def _log_of_one_division(word_freq: WordFreq) -> Pair:
    """log(n / (count(A) * count(B))): no more exact than the float it is taken of."""
    return _float_scores(word_freq, lambda n, a, b: math.log(n / (a * b)))


def _decimal(n: int, a: int, b: int, *, order: str) -> Any:
    """``Decimal`` scores at Python's default precision, 28 significant digits: each division rounds."""
    from decimal import Decimal

    if order == "ab":
        return Decimal(n) / Decimal(a) / Decimal(b)
    if order == "ba":
        return Decimal(n) / Decimal(b) / Decimal(a)
    return Decimal(n) / (Decimal(a) * Decimal(b))


def _longdouble(n: int, a: int, b: int, *, order: str) -> Any:
    """numpy's ``longdouble``: 64 bits of mantissa on x86 (80-bit extended), 113 on some other machines, 53 on others
    (where it is a plain float); each division rounds, and so does the product."""
    import numpy as np

    ld = np.longdouble
    if order == "ab":
        return ld(n) / ld(a) / ld(b)
    if order == "ba":
        return ld(n) / ld(b) / ld(a)
    return ld(n) / (ld(a) * ld(b))


def _rounded_number(number: Any, order: str) -> Any:
    return lambda word_freq: _float_scores(word_freq, lambda n, a, b: number(n, a, b, order=order))


def _integer_scaled(scale: Any) -> Any:
    """count(AB) * S // (count(A) * count(B)): a whole number per pair, with ``scale(singles, pairs)`` giving S (the
    number of symbols or of pairs in the corpus, or a power of ten); the highest, first of equal numbers."""

    def best(word_freq: WordFreq) -> Pair:
        singles, pairs = symbol_counts(word_freq), count_pairs(word_freq)
        factor = scale(singles, pairs)
        scores = {(a, b): n * factor // (singles[a] * singles[b]) for (a, b), n in pairs.items()}
        return max(scores, key=scores.__getitem__)

    return best


def _inverted_integer_division(word_freq: WordFreq) -> Pair:
    """-(count(A) * count(B) // count(AB)): the score turned upside down to stay in whole numbers, then cut with
    ``//``; the highest, first of equal numbers."""
    singles, pairs = symbol_counts(word_freq), count_pairs(word_freq)
    scores = {(a, b): -(singles[a] * singles[b] // n) for (a, b), n in pairs.items()}
    return max(scores, key=scores.__getitem__)


def _any_log(log: Any, *, product: bool) -> Any:
    """``log`` (math's or numpy's, natural, base 2 or 10) of n minus that of count(A) * count(B) (``product``) or of
    each count in turn: each logarithm is a rounded float, so equal fractions can give unequal scores."""
    if product:
        return lambda word_freq: _float_scores(word_freq, lambda n, a, b: log(n) - log(a * b))
    return lambda word_freq: _float_scores(word_freq, lambda n, a, b: log(n) - log(a) - log(b))


def _logarithms() -> list[Any]:
    import numpy as np

    logs = (math.log, math.log2, math.log10, np.log, np.log2, np.log10)
    return [_any_log(log, product=product) for log in logs for product in (False, True)]


NUMPY_BIG_INT_HINT = (
    "numpy's functions (np.log, np.log2, np.log10 ...) work on numbers of fixed size and refuse a Python int "
    "beyond 64 bits, and counts here go far past that (a word seen 2**61 times, products of counts past 2**64); "
    "a logarithm is a rounded float anyway, which can split an exact tie. Keep the scores exact: "
    "Fraction(n, count(A) * count(B)), or cross-multiply"
)

INVERTED_INTEGER_DIVISION_HINT = (
    "you turned the score upside down and cut it with integer division, count(A) * count(B) // count(AB): // "
    "drops what is after the point, so 9 // 2 and 4 // 1 are both 4 although 2/9 is less than 1/4, and the false "
    "tie goes to the pair seen first. Compare exact fractions, Fraction(n, count(A) * count(B)), or cross-multiply: "
    "n1 * (a2 * b2) > n2 * (a1 * b1)"
)

CORPUS_SCALES: list[Any] = [lambda singles, pairs: sum(singles.values()), lambda singles, pairs: sum(pairs.values())]
"""The factors a learner multiplies by before dividing with ``//`` (as in count(AB) * N // (count(A) * count(B))): the
number of symbols or of pairs in the corpus; the diagnosers also try the powers of ten up to 10**80."""


def _float32(word_freq: WordFreq) -> Pair:
    """numpy's float32 (24 bits): counts in the thousands already make close scores equal."""
    import numpy as np

    return _float_scores(word_freq, lambda n, a, b: np.float32(n) / (np.float32(a) * np.float32(b)))


def _float32_divided(order: str) -> Any:
    """numpy's float32 divided twice, count(A) first (``order == "ab"``) or count(B) first."""
    import numpy as np

    f = np.float32
    if order == "ab":
        return lambda word_freq: _float_scores(word_freq, lambda n, a, b: f(n) / f(a) / f(b))
    return lambda word_freq: _float_scores(word_freq, lambda n, a, b: f(n) / f(b) / f(a))


def _skips_one_symbol_words(word_freq: WordFreq) -> Pair:
    """A word of one symbol skipped before counting symbols (it has no pair), so its symbol goes uncounted."""
    return _exact_best(count_pairs(word_freq), symbol_counts({w: f for w, f in word_freq.items() if len(w) > 1}))


def _rounded(digits: int) -> Any:
    """Scores rounded to ``digits`` decimals (as a table shows them): close scores become a false tie."""
    return lambda word_freq: _float_scores(word_freq, lambda n, a, b: round(n / (a * b), digits))


def _exact_best(pairs: dict[Pair, int], singles: dict[str, int]) -> Pair:
    scores = {(a, b): Fraction(n, singles[a] * singles[b]) for (a, b), n in pairs.items()}
    return max(scores, key=scores.__getitem__)


def _unweighted_symbols(word_freq: WordFreq) -> Pair:
    """Pairs counted with ``count_pairs`` (weighted), symbols counted once per distinct word (the missing freq)."""
    return _exact_best(count_pairs(word_freq), symbol_counts(dict.fromkeys(word_freq, 1)))


def _unweighted_pairs(word_freq: WordFreq) -> Pair:
    """Symbols weighted by their words' counts, pairs counted once per distinct word."""
    return _exact_best(count_pairs(dict.fromkeys(word_freq, 1)), symbol_counts(word_freq))


def _symbols_once_per_word(word_freq: WordFreq) -> Pair:
    """count(A) adds a word's freq once however often A occurs in it (``for symbol in set(word)``)."""
    singles: dict[str, int] = {}
    for word, freq in word_freq.items():
        for symbol in dict.fromkeys(word):
            singles[symbol] = singles.get(symbol, 0) + freq
    return _exact_best(count_pairs(word_freq), singles)


def _pairs_once_per_word(word_freq: WordFreq) -> Pair:
    """count(AB) adds a word's freq once however often AB occurs in it."""
    pairs: dict[Pair, int] = {}
    for word, freq in word_freq.items():
        for pair in dict.fromkeys(zip(word, word[1:])):
            pairs[pair] = pairs.get(pair, 0) + freq
    return _exact_best(pairs, symbol_counts(word_freq))


def _sum_of_counts(word_freq: WordFreq) -> Pair:
    """count(AB) / (count(A) + count(B)): a sum where the product belongs."""
    singles = symbol_counts(word_freq)
    scores = {(a, b): Fraction(n, singles[a] + singles[b]) for (a, b), n in count_pairs(word_freq).items()}
    return max(scores, key=scores.__getitem__)


def _counted_in_pairs(word_freq: WordFreq, *, by_side: bool) -> Pair:
    """Symbol counts read off the pairs: A where it starts a pair and B where it ends one (``by_side``), or A and B
    wherever they stand in a pair (a symbol inside a word twice, a one-symbol word never)."""
    pairs = count_pairs(word_freq)
    left: dict[str, int] = {}
    right: dict[str, int] = {}
    for (a, b), n in pairs.items():
        left[a] = left.get(a, 0) + n
        right[b] = right.get(b, 0) + n
    if by_side:
        scores = {(a, b): Fraction(n, left[a] * right[b]) for (a, b), n in pairs.items()}
    else:
        both = {s: left.get(s, 0) + right.get(s, 0) for s in {*left, *right}}
        scores = {(a, b): Fraction(n, both[a] * both[b]) for (a, b), n in pairs.items()}
    return max(scores, key=scores.__getitem__)


def _counted_without_overlaps(word_freq: WordFreq) -> Pair:
    """Pairs counted skipping past a counted pair of two equal symbols: (##a, ##a) once in x ##a ##a ##a, not twice."""
    return _exact_best(_count_without_overlaps(word_freq), symbol_counts(word_freq))


def _shortest_of_ties(word_freq: WordFreq) -> Pair:
    """Of equal scores, the pair with the fewest characters (the first such pair of those)."""
    scores = _scores(word_freq)
    top = max(scores.values())
    return min((pair for pair, score in scores.items() if score == top), key=lambda p: len(p[0]) + len(p[1]))


SHORTEST_HINT = (
    "your ties go to the shortest pair (the fewest characters); this course takes the pair seen first, whatever "
    "its length: max(scores, key=scores.get) over the pairs in the order count_pairs meets them keeps the first "
    "of equal scores"
)


def _ties_by_position(word_freq: WordFreq) -> Pair:
    """Pairs collected position by position across the words (every word's first pair, then every word's second
    pair, ...), so of equal scores the pair earliest in its word wins, not the pair seen first word by word."""
    pairs: dict[Pair, int] = {}
    for position in range(max((len(word) for word in word_freq), default=0) - 1):
        for word, freq in word_freq.items():
            if position < len(word) - 1:
                pair = (word[position], word[position + 1])
                pairs[pair] = pairs.get(pair, 0) + freq
    return _exact_best(pairs, symbol_counts(word_freq))


OVERLAP_HINT = (
    "a pair is counted at every place it occurs, overlapping places too: in x ##a ##a ##a the pair (##a, ##a) "
    "occurs twice (count every adjacent pair, for pair in zip(word, word[1:]), as count_pairs does); counting it "
    "without overlaps, skipping past a counted pair, is for merging, not for counting"
)

POSITION_ORDER_HINT = (
    "your ties go to the pair met first when the pairs are collected position by position across the words (every "
    "word's first pair, then every word's second pair, ...): the pair seen first is the one met first when you go "
    "through the words in order, each left to right (all of xab's pairs before cd's), as count_pairs does"
)


def _prefix_pooled(word_freq: WordFreq) -> Pair:
    """Symbols counted with the ``##`` stripped, so ``e`` and ``##e`` share one count."""
    pooled: dict[str, int] = {}
    for symbol, n in symbol_counts(word_freq).items():
        pooled[symbol.removeprefix(PREFIX)] = pooled.get(symbol.removeprefix(PREFIX), 0) + n
    singles = {symbol: pooled[symbol.removeprefix(PREFIX)] for symbol in symbol_counts(word_freq)}
    return _exact_best(count_pairs(word_freq), singles)


def _last_of_ties(word_freq: WordFreq) -> Pair:
    scores = _scores(word_freq)
    return max(reversed(list(scores)), key=scores.__getitem__)


def _by_symbols_first_seen(word_freq: WordFreq) -> Pair:
    """Of equal scores, the pair whose first symbol (then second) appears earliest in the words: not the pair seen
    first, which can start with a symbol met later."""
    scores = _scores(word_freq)
    order = {symbol: i for i, symbol in enumerate(symbol_counts(word_freq))}
    top = max(scores.values())
    return min((pair for pair, score in scores.items() if score == top), key=lambda p: (order[p[0]], order[p[1]]))


def _words_in_order(order: Any) -> Any:
    """The pair seen first among equal scores, when the words are gone through in ``order(word_freq)``, another
    order than the one given (sorted by length, alphabetically, by count, reversed)."""

    def best(word_freq: WordFreq) -> Pair:
        return reference_best_wordpiece_pair({word: word_freq[word] for word in order(word_freq)})

    return best


WORD_ORDERS = (
    lambda word_freq: sorted(word_freq, key=len),
    lambda word_freq: sorted(word_freq, key=len, reverse=True),
    lambda word_freq: sorted(word_freq),
    lambda word_freq: sorted(word_freq, key=word_freq.get, reverse=True),
    lambda word_freq: list(reversed(list(word_freq))),
)

WORD_ORDER_HINT = (
    "your ties go to the pair seen first when the words are taken in another order than given (sorted by length, "
    "by count, alphabetically, or reversed?): go through word_freq in its own order, each word left to right, as "
    "count_pairs does, and keep the first of equal scores"
)


def _answer_for_other_counts(attempt: Any) -> bool:
    """A wrong pair that scores at most half the right one's (no rounding or precision explains that), and is the
    answer for the same words with other counts, given on another check, where every check whose words come for the
    first time (other than this one's) was answered right: the function remembers its answers keyed by the words
    without their counts (tuple(word_freq)), and is otherwise right."""
    (word_freq,) = attempt.args
    scores = _scores(word_freq)
    got = tuple(attempt.got) if isinstance(attempt.got, (tuple, list)) else None
    if got not in scores or scores[got] * 2 > scores[attempt.expected]:
        return False
    history = attempt.history()
    seen: list[set] = [set(word_freq)]
    for (other,), answer in history:  # a cache is right wherever its words come for the first time
        if set(other) not in seen:
            seen.append(set(other))
            if not isinstance(answer, (tuple, list)) or tuple(answer) != reference_best_wordpiece_pair(other):
                return False
    return any(
        set(other) == set(word_freq) and other != word_freq and reference_best_wordpiece_pair(other) == got
        for (other,), _ in history
    )


CACHE_HINT = (
    "your function seems to remember its answers between calls, keyed by the words without their counts (such as "
    "tuple(word_freq) or frozenset(word_freq)): the same words with other counts get the pair of an earlier call. "
    "The counts decide the scores: compute the pair afresh at each call (or key a cache by the counts too, "
    "tuple(word_freq.items()))"
)


def _unweighted(word_freq: WordFreq) -> Pair:
    return reference_best_wordpiece_pair(dict.fromkeys(word_freq, 1))


def _lowest_score(word_freq: WordFreq) -> Pair:
    scores = _scores(word_freq)
    return min(scores, key=scores.__getitem__)


def _has_top_score(word_freq: WordFreq, got: Any, *, as_floats: bool = False) -> bool:
    """``got`` has the highest score here, exactly (or, ``as_floats``, as far as a float can tell)."""
    scores = _scores(word_freq)
    if not (isinstance(got, tuple) and got in scores):
        return False
    if as_floats:
        return float(scores[got]) == float(max(scores.values()))
    return scores[got] == max(scores.values())


def _tied_with_answer(attempt: Any) -> bool:
    """The learner's pair has exactly the winning score here, and a pair with the highest score (as far as floats
    can tell) on every other case: the scores are right, only the tie rule went wrong (a wrong formula that lands
    on a tied pair here is not)."""
    (word_freq,) = attempt.args
    if attempt.got == attempt.expected or not _has_top_score(word_freq, attempt.got):
        return False
    return all(_has_top_score(args[0], got, as_floats=True) for args, got in attempt.history())


TIE_HINT = (
    "your pair has exactly the same score as the answer: a tie. The pair seen first must win: "
    "max(scores, key=scores.get) keeps the first of equal scores. Compare exact fractions "
    "(fractions.Fraction) or cross-multiply: float division can split a tie"
)

FLOAT_HINT = (
    "the scores tie exactly here, but your float division split the tie: n / count(A) / count(B) rounds "
    "twice, and 1 / 3 / 11 != 1 / 11 / 3 (in either order of division some tie splits). Keep the scores exact: "
    "Fraction(n, count(A) * count(B))"
)

LOG_HINT = (
    "your scores are logarithms (math.log, log2 or log10, numpy's too, of the product or of each count), and a "
    "logarithm is a float (53 bits), rounded at every step: where two scores tie exactly, your logarithms split the "
    "tie (equal fractions such as 1/(1·10) and 1/(2·5) come out unequal), and where they nearly tie they can make "
    "one (symbol counts 134,217,728 and 134,217,728 against 134,217,727 and 134,217,729: products 2**54 and "
    "2**54 - 1 with the same logarithm), and the false tie goes to the pair seen first. Keep the scores exact: "
    "Fraction(n, count(A) * count(B)), or cross-multiply"
)

BIG_FLOAT_HINT = (
    "your scores are floats, and floats round: with symbol counts 134,217,728 and 134,217,728 against 134,217,727 "
    "and 134,217,729 the products are 2**54 and 2**54 - 1, and a float (53 bits) gives 1 / 2**54 and "
    "1 / (2**54 - 1) as the same number (their logarithms too), so the false tie goes to the pair seen first. "
    "Keep the scores exact: Fraction(n, count(A) * count(B)), or cross-multiply"
)

FLOAT32_HINT = (
    "your scores are float32 numbers (numpy), which keep only 24 bits, about 7 digits: 1/(3500·3500) and "
    "1/(3499·3501) come out equal, and the false tie goes to the pair seen first. Keep the scores exact: "
    "Fraction(n, count(A) * count(B)), or cross-multiply"
)

FLOAT32_DIVIDED_HINT = (
    "your scores are float32 numbers (numpy), which keep only 24 bits, about 7 digits, and you divided twice: "
    "1 / 1 / 49 and 1 / 7 / 7 both equal 1/49, yet as float32 the second comes out larger, so the exact tie is split "
    "(and close scores such as 1/(3500·3500) and 1/(3499·3501) come out equal). Keep the scores exact: "
    "Fraction(n, count(A) * count(B)), or cross-multiply"
)

ONE_SYMBOL_HINT = (
    "a word of one symbol has no pair, but its symbol still counts: count(A) goes through every word, the "
    "one-symbol words too (don't skip them before counting symbols)"
)

ROUNDED_HINT = (
    "you rounded the scores (round(score, k), or cut them with an integer division, n * 10**k // (count(A) * "
    "count(B))): two different scores that agree to k decimals become the same "
    "number, 1/10000 and 1/9999 to 7 decimals, 1/(2500·2500) and 1/(2499·2501) to 13, 1/10**10 and "
    "1/(10**10 - 1) to 19, and the false tie goes to the pair seen first. Compare exact scores "
    "(fractions.Fraction); round only to print"
)

DECIMAL_HINT = (
    "your scores are Decimals, which round every division to 28 digits (Python's default precision): "
    "1 / 1 / 18 and 1 / 6 / 3 both equal 1/18, yet come out different in the last digit, so a tie is split; "
    "and with symbol counts of about 3·10**14 two different scores round to one. Keep the scores exact: "
    "Fraction(n, count(A) * count(B)), or cross-multiply"
)

LONGDOUBLE_HINT = (
    "your scores are numpy longdoubles, which round like floats, only with a few more bits (64 on most PCs): "
    "1 / 1 / 18 and 1 / 6 / 3 both equal 1/18, yet come out different, so a tie is split; and with symbol counts "
    "near 2**60 two different scores round to one. Keep the scores exact: Fraction(n, count(A) * count(B)), or "
    "cross-multiply"
)

INTEGER_DIVISION_HINT = (
    "integer division truncates: count(AB) * N // (count(A) * count(B)) cuts off what is after the point, so two "
    "different scores become the same whole number (1/10 and 1/9 times 60 are both 6 and something), and the false "
    "tie goes to the pair seen first. Compare exact fractions (fractions.Fraction), or cross-multiply: "
    "n1 * (a2 * b2) > n2 * (a1 * b1)"
)

HUGE_COUNTS = 2**60
"""The symbol counts of the near tie that no float, longdouble (64 or 113 bits) or 28-digit Decimal keeps apart:
products 2**120 and 2**120 - 1."""

BIG_COUNTS = 2**27
"""The symbol counts of the case where one float division turns a near tie into a tie."""

LARGE_COUNT = 100_000
"""From this word count on, a call the guards stop, or one that Python refuses the memory for, repeated the words by
their counts: the straightforward answer with += freq does a few steps per distinct word, whatever the counts."""


REPEATED_COUNT = 2**61
"""The count of the first case's one word: ``[word] * count`` would need 8 * 2**61 = 2**64 bytes, so Python refuses it
at once (MemoryError) instead of filling the memory, and a loop over ``range(count)`` meets the line counter in about
a second. Checked first, it stops an answer that repeats each word before the cases with counts of 2**27 and more,
where ``words += [word] * freq`` grew the process by about 3 GB in one C call no guard can interrupt."""

DECIMAL_COUNTS = 3 * 10**14
"""The symbol counts of the near tie that a 28-digit Decimal makes equal (products 9·10**28 and 9·10**28 - 1) while
count(AB) · 10**k // (count(A) · count(B)) keeps it apart for k of about 60 and more: the case that tells the two
mistakes apart."""

LONGDOUBLE_COUNTS = 2**35
"""The symbol counts of the near tie that a 28-digit Decimal keeps apart and a 64-bit longdouble does not: products
2**70 and 2**70 - 1."""

ENORMOUS_COUNTS = 10**200
"""The symbol counts of the near tie no fixed-size number keeps apart: products 10**400 and 10**400 - 1, whose scores
differ in about the 800th decimal. A score multiplied by 10**k before ``//`` needs k of about 800 to tell them apart,
a ``Decimal`` a precision of about 400 digits; Python's ints and ``Fraction`` are exact at any size."""

GIGANTIC_COUNTS = 10**2000
"""The symbol counts of a near tie past the 10**200 one: products 10**4000 and 10**4000 - 1, whose scores differ in
about the 8000th decimal, past a factor of 10**1000 before ``//`` or a ``Decimal`` precision of 1000 digits. Python's
ints and ``Fraction`` still compare them in microseconds."""


def _written(value: int, text: str) -> int:
    """``value`` as an int that shows itself as ``text``, the expression it was written as (10**100000 - 1): Python
    refuses to print an int of more than 4,300 digits, and the checker's report shows each case's input. Arithmetic
    on it gives plain ints."""
    shown = type("Count", (int,), {"__slots__": (), "__repr__": lambda self: text, "__str__": lambda self: text})
    return shown(value)


COLOSSAL_COUNTS = 10**100_000
"""The symbol count of the checker's last near tie: a 1, ##b 10**100,000 against c 1, ##d 10**100,000 - 1, whose scores
differ in about the 200,000th decimal, past a factor of 10**199,999 before ``//`` or a ``Decimal`` precision of
100,000 digits: no precision a learner would write. One count of each pair is 1, so each product is a small number
times a big one, and the exact ``Fraction`` scores are made and compared in well under a millisecond."""

FIXED_PRECISION_HINT = (
    "your scores are exact only to a fixed number of digits (a power of ten before an integer division, "
    "n * 10**k // (count(A) * count(B)), or Decimals at a precision you raised, or any other number of fixed "
    "width): with symbol counts of 10**200 the products are 10**400 and 10**400 - 1, whose two scores agree to "
    "about 800 decimals, and counts can be larger still, so two different scores come out equal and the false tie "
    "goes to the pair seen first. Whatever the precision, some counts are past it: only exact scores are right "
    "for every count. Compare exact scores: Fraction(n, count(A) * count(B)), or cross-multiply, "
    "n1 * (a2 * b2) > n2 * (a1 * b1)"
)


def _enormous_false_tie(attempt: Any) -> bool:
    """The answer on a case with symbol counts of 10**200 or more is the pair seen first, which an inexact score
    ties."""
    singles = symbol_counts(attempt.args[0])
    return max(singles.values()) >= ENORMOUS_COUNTS // 2 and tuple(attempt.got) == ("a", "##b")


REPEAT_HINT = (
    "use the counts, do not repeat the words: a word seen freq times adds freq to each of its symbols and pairs "
    "(singles[symbol] += freq); a list with the word repeated freq times ([word] * freq, or a loop over "
    "range(freq)) grows with the counts, and a corpus's counts can be huge"
)


def slow_hint(largest: int) -> str:
    """The hint for a call stopped on a case whose largest word count is ``largest``."""
    return f"too slow on counts of {largest:,}: {REPEAT_HINT}"


def _repeated_words(attempt: Any) -> str | None:
    """Python refused a list as long as a huge count (MemoryError, or OverflowError past 2**63): the words were
    repeated by their counts."""
    error = attempt.error
    if not isinstance(error, (MemoryError, OverflowError)):
        return None
    return REPEAT_HINT if max(attempt.args[0].values(), default=0) >= LARGE_COUNT else None


UNWEIGHTED_SYMBOLS_HINT = (
    "your symbol counts ignore how often each word occurs: count(A) must add the word's freq for every "
    "time A appears in it, as count_pairs does for pairs (for word, freq in word_freq.items(): ... += freq)"
)

LESSON_11_IMPORTS = {
    "Counter": "collections",
    "Fraction": "fractions",
    "count_pairs": "bpelab",
    "get_word_frequencies": "bpelab",
    "get_wordpiece_frequencies": "bpelab.wordpiece",
    "symbol_counts": "bpelab.wordpiece",
    "wordpiece_scores": "bpelab.wordpiece",
}
"""What lesson 11's first cell imports that the exercises may use, and from where."""


def missing_import_hint(attempt: Any) -> str | None:
    """A ``NameError`` on a name lesson 11's first cell imports: the solution run in a kernel where that cell did
    not run."""
    error = attempt.error
    if not isinstance(error, NameError):
        return None
    name = getattr(error, "name", None) or next(iter(re.findall(r"name '(\w+)'", str(error))), None)
    if name not in LESSON_11_IMPORTS:
        return None
    return (
        f"{name} is not defined where your function runs: run the lesson's first cell, which imports {name} (from "
        f"{LESSON_11_IMPORTS[name]} import {name}), then your function's cell, then this check"
    )


BEST_PAIR = Exercise(
    name="best_wordpiece_pair",
    call="best_wordpiece_pair(word_freq)",
    reference=reference_best_wordpiece_pair,
    solution=(reference_best_wordpiece_pair, symbol_counts, wordpiece_scores),
    course_functions=(wordpiece_scores,),  # the scores already computed: only max() would be left to write
    inputs_ordered=True,  # a tie goes to the pair seen first: reordering word_freq would change the next answer
    cases=lambda: [
        Case(
            ({("a", "##b"): REPEATED_COUNT},),
            ("a", "##b"),
            "one word, one pair, seen 2**61 = 2,305,843,009,213,693,952 times: the only pair there is; a list with the "
            "word repeated that often could never be built",
        ),
        Case(({("a", "##b"): 1},), ("a", "##b"), "one word, one pair"),
        Case(
            ({("h", "##u", "##g"): 3, ("p", "##u", "##g"): 1, ("h", "##u", "##g", "##s"): 1},),
            ("h", "##u"),
            "hug ×3, pug, hugs: all four pairs score exactly 1/5, so the pair seen first wins",
        ),
        Case(
            ({("h", "##u", "##g"): 3, ("h", "##u"): 1},),
            ("h", "##u"),
            "h 4, ##u 4, ##g 3: (h, ##u) scores 4/16 = 1/4, (##u, ##g) scores 3/12 = 1/4: a tie",
        ),
        Case(
            ({("z", "##y"): 1, ("a", "##c"): 1, ("m", "##n"): 1},),
            ("z", "##y"),
            "three pairs, each scoring 1/(1·1) = 1: the first seen wins, not the smallest nor the last",
        ),
        Case(
            ({("a", "##b", "##c"): 1, ("d", "##e"): 1},),
            ("a", "##b"),
            "abc, de: every pair scores 1/(1·1) = 1; going through the words in the order given, (a, ##b) is seen "
            "first, though de is the shorter word",
        ),
        Case(
            ({("h", "##ug"): 1, ("p", "##u"): 1},),
            ("h", "##ug"),
            "h ##ug, p ##u: both pairs score 1/(1·1) = 1; (h, ##ug) is seen first, though (p, ##u) is the shorter pair",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 1},),
            ("c", "##d"),
            "ab, cd and the one-symbol word a: a 2, ##b 1, so (a, ##b) scores 1/2; (c, ##d) scores 1/(1·1) = 1",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 2, ("##b",): 10, ("c",): 10, ("##d",): 2},),
            ("a", "##b"),
            "a 3, ##b 11, c 11, ##d 3: both pairs score exactly 1/33, so the pair seen first wins "
            "(as floats, 1 / 3 / 11 and 1 / 11 / 3 differ in the last digit)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 9, ("##b",): 9, ("c",): 1, ("##d",): 1},),
            ("c", "##d"),
            "the same six words with other counts, a 10, ##b 10, c 2, ##d 2: (a, ##b) scores 1/100, (c, ##d) 1/4, "
            "far more: the counts, not the words alone, decide",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 10, ("##b",): 2, ("c",): 2, ("##d",): 10},),
            ("a", "##b"),
            "a 11, ##b 3, c 3, ##d 11: both pairs score exactly 1/33 again, the counts the other way round "
            "(as floats, 1 / 11 / 3 and 1 / 3 / 11 differ in the last digit)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("##b",): 9, ("c",): 1, ("##d",): 4},),
            ("a", "##b"),
            "a 1, ##b 10, c 2, ##d 5: both pairs score exactly 1/10, so the pair seen first wins",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("##b",): 48, ("c",): 6, ("##d",): 6},),
            ("a", "##b"),
            "a 1, ##b 49, c 7, ##d 7: both pairs score exactly 1/49, so the pair seen first wins (as float32, "
            "1 / 1 / 49 is less than 1 / 7 / 7, in either order of division)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 99, ("##b",): 99, ("c",): 98, ("##d",): 100},),
            ("c", "##d"),
            "a 100, ##b 100, c 99, ##d 101: (a, ##b) scores 1/10000, (c, ##d) 1/9999, a little more",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 2499, ("##b",): 2499, ("c",): 2498, ("##d",): 2500},),
            ("c", "##d"),
            "a 2,500, ##b 2,500, c 2,499, ##d 2,501: 2,499 · 2,501 = 6,249,999 is one less than 2,500², so "
            "(c, ##d) scores a little more (rounded to 13 decimals or fewer, the two scores are equal)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 3499, ("##b",): 3499, ("c",): 3498, ("##d",): 3500},),
            ("c", "##d"),
            "a 3,500, ##b 3,500, c 3,499, ##d 3,501: 3,499 · 3,501 = 12,249,999 is one less than 3,500², so "
            "(c, ##d) scores a little more (as float32, 24 bits, the two scores are equal)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 99_999, ("##b",): 99_999, ("c",): 99_998, ("##d",): 100_000},),
            ("c", "##d"),
            "a 100,000, ##b 100,000, c 99,999, ##d 100,001: the products are 10**10 and 10**10 - 1, so (c, ##d) "
            "scores a little more (rounded to 19 decimals or fewer, the two scores are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): BIG_COUNTS - 1,
                    ("##b",): BIG_COUNTS - 1,
                    ("c",): BIG_COUNTS - 2,
                    ("##d",): BIG_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 134,217,728 (2**27), ##b 134,217,728, c 134,217,727, ##d 134,217,729: the products are 2**54 and "
            "2**54 - 1, so (c, ##d) scores a little more (as floats, 1 / 2**54 and 1 / (2**54 - 1) are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): 10**7 - 1,
                    ("##b",): 10**7 - 1,
                    ("c",): 10**7 - 11,
                    ("##d",): 10**7 + 9,
                },
            ),
            ("c", "##d"),
            "a 10**7, ##b 10**7, c 10**7 - 10, ##d 10**7 + 10: the products are 10**14 and 10**14 - 100, so (c, ##d) "
            "scores a little more (floats and their logarithms keep the two scores apart; times 10**20 and cut to a "
            "whole number with //, they are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): 2**26 - 1,
                    ("##b",): 2**26 - 1,
                    ("c",): 2**26 - 2,
                    ("##d",): 2**26,
                },
            ),
            ("c", "##d"),
            "a 2**26, ##b 2**26, c 2**26 - 1, ##d 2**26 + 1: the products are 2**52 and 2**52 - 1, so (c, ##d) scores "
            "a little more (a float still keeps 1 / 2**52 and 1 / (2**52 - 1) apart; times 10**k and cut to a whole "
            "number with //, k up to 31, they are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): 10**11 - 1,
                    ("##b",): 10**11 - 1,
                    ("c",): 10**11 - 65,
                    ("##d",): 10**11 + 63,
                },
            ),
            ("c", "##d"),
            "a 10**11, ##b 10**11, c 10**11 - 64, ##d 10**11 + 64: the products are 10**22 and 10**22 - 4,096, so "
            "(c, ##d) scores a little more (a 64-bit longdouble keeps the two scores apart, a float does not, and "
            "times 10**40 cut to a whole number with // they are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): LONGDOUBLE_COUNTS - 1,
                    ("##b",): LONGDOUBLE_COUNTS - 1,
                    ("c",): LONGDOUBLE_COUNTS - 2,
                    ("##d",): LONGDOUBLE_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 2**35, ##b 2**35, c 2**35 - 1, ##d 2**35 + 1: the products are 2**70 and 2**70 - 1, so (c, ##d) scores "
            "a little more (a 28-digit Decimal keeps the two scores apart; a 64-bit longdouble makes them equal)",
        ),
        Case(
            ({("a", "##b"): 1, ("c", "##d"): 1, ("a",): 1, ("##b",): 4, ("c",): 2, ("##d",): 2, ("e",): 47},),
            ("c", "##d"),
            "a 2, ##b 5, c 3, ##d 3, e 47: (a, ##b) scores 1/10, (c, ##d) 1/9, a little more (times the 60 symbols, "
            "both are 6 and something: cut to whole numbers, the two scores are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("e", "##f"): 1,
                    ("##b",): 17,
                    ("c",): 2,
                    ("##d",): 5,
                    ("e",): 5,
                    ("##f",): 2,
                },
            ),
            ("a", "##b"),
            "a 1, ##b 18, c 3, ##d 6, e 6, ##f 3: all three pairs score exactly 1/18, so the pair seen first wins "
            "(Decimal's 28 digits, or numpy's longdouble, divided twice, give the others a little more)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("e", "##f"): 1,
                    ("##b",): 38,
                    ("c",): 2,
                    ("##d",): 12,
                    ("e",): 12,
                    ("##f",): 2,
                },
            ),
            ("a", "##b"),
            "a 1, ##b 39, c 3, ##d 13, e 13, ##f 3: all three pairs score exactly 1/39, so the pair seen first wins "
            "(a float, or a 113-bit longdouble, divided twice, gives another a little more)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): 10**20 - 1,
                    ("##b",): 10**20 - 1,
                    ("c",): 10**20 - 4 * 10**6 - 1,
                    ("##d",): 10**20 + 4 * 10**6 - 1,
                },
            ),
            ("c", "##d"),
            "a 10**20, ##b 10**20, c 10**20 - 4·10**6, ##d 10**20 + 4·10**6: the products are 10**40 and "
            "10**40 - 16·10**12, so (c, ##d) scores a little more (a 28-digit Decimal keeps the two scores apart; "
            "times 10**k and cut to a whole number with //, k up to 66, they are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): DECIMAL_COUNTS - 1,
                    ("##b",): DECIMAL_COUNTS - 1,
                    ("c",): DECIMAL_COUNTS - 2,
                    ("##d",): DECIMAL_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 3·10**14, ##b 3·10**14, c 3·10**14 - 1, ##d 3·10**14 + 1: the products are 9·10**28 and 9·10**28 - 1, "
            "so (c, ##d) scores a little more (a 28-digit Decimal makes the two scores equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): HUGE_COUNTS - 1,
                    ("##b",): HUGE_COUNTS - 1,
                    ("c",): HUGE_COUNTS - 2,
                    ("##d",): HUGE_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 2**60, ##b 2**60, c 2**60 - 1, ##d 2**60 + 1: the products are 2**120 and 2**120 - 1, so (c, ##d) "
            "scores a little more (as floats, longdoubles or 28-digit Decimals the two scores are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): ENORMOUS_COUNTS - 1,
                    ("##b",): ENORMOUS_COUNTS - 1,
                    ("c",): ENORMOUS_COUNTS - 2,
                    ("##d",): ENORMOUS_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 10**200, ##b 10**200, c 10**200 - 1, ##d 10**200 + 1: the products are 10**400 and 10**400 - 1, so "
            "(c, ##d) scores a little more (the two scores agree to about 800 decimals: times 10**k and cut with //, "
            "or as Decimals, they are equal unless k or the precision is in the hundreds)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("c", "##d"): 1,
                    ("a",): GIGANTIC_COUNTS - 1,
                    ("##b",): GIGANTIC_COUNTS - 1,
                    ("c",): GIGANTIC_COUNTS - 2,
                    ("##d",): GIGANTIC_COUNTS,
                },
            ),
            ("c", "##d"),
            "a 10**2000, ##b 10**2000, c 10**2000 - 1, ##d 10**2000 + 1: the products are 10**4000 and "
            "10**4000 - 1, so (c, ##d) scores a little more (the two scores agree to about 8000 decimals: times "
            "10**1000 and cut with //, or as 1000-digit Decimals, they are equal)",
        ),
        Case(
            (
                {
                    ("a", "##b"): 1,
                    ("##b",): _written(COLOSSAL_COUNTS - 1, "10**100000 - 1"),
                    ("c", "##d"): 1,
                    ("##d",): _written(COLOSSAL_COUNTS - 2, "10**100000 - 2"),
                },
            ),
            ("c", "##d"),
            "a 1, ##b 10**100000, c 1, ##d 10**100000 - 1: (a, ##b) scores 1/10**100000, (c, ##d) "
            "1/(10**100000 - 1), a little more (the two scores agree to about 200,000 decimals: at any fixed "
            "precision a program would use, they are equal; exact fractions tell them apart)",
        ),
        Case(
            ({("a", "##b"): 2, ("a",): 1, ("##b",): 1, ("c", "##d"): 1, ("##d",): 3},),
            ("c", "##d"),
            "a 3, ##b 3, c 1, ##d 4: (a, ##b) scores 2/9, (c, ##d) 1/4, a little more (turned upside down and cut "
            "to whole numbers, 9 // 2 and 4 // 1 are both 4)",
        ),
        Case(
            ({("a", "##b", "##b"): 1, ("c", "##d"): 1},),
            ("c", "##d"),
            "abb, cd: ##b occurs twice, so count(##b) = 2 and (a, ##b) scores 1/(1·2); (c, ##d) scores 1/(1·1)",
        ),
        Case(
            ({("a", "##c"): 1, ("a", "##d", "##c", "##d", "##c"): 1},),
            ("##d", "##c"),
            "ac, adcdc: (##d, ##c) occurs twice in adcdc; with a 2, ##c 3, ##d 2 it scores 2/(2·3) = 1/3, "
            "(a, ##d) only 1/(2·2) = 1/4",
        ),
        Case(
            (get_wordpiece_frequencies(CLASSIC_TEXT),),
            ("w", "##i"),
            "the classic corpus: (w, ##i) scores 2/(2·2) = 1/2, (l, ##o) only 7/(7·7) = 1/7",
        ),
        Case(
            ({("t", "##h", "##e"): 10, ("t", "##h", "##a", "##t"): 6, ("o", "##x"): 1},),
            ("o", "##x"),
            "(t, ##h) occurs 16 times, but (o, ##x) scores 1/(1·1) = 1: rare parts win",
        ),
        Case(
            ({("b",): 1, ("b", "##c", "##a"): 2, ("a", "##c", "##b", "##a"): 2},),
            ("a", "##c"),
            "b, bca ×2, acba ×2: b 3, ##c 4, ##a 4, a 2, ##b 2; (a, ##c), (##c, ##b) and (##b, ##a) all score "
            "2/(2·4) = 1/4, and (a, ##c) is the pair seen first, though its symbol a first appears after ##c",
        ),
        Case((get_wordpiece_frequencies(PARAGRAPH),), note="a paragraph of English"),
        Case((get_wordpiece_frequencies(made_up_words()),), note="150 made-up words"),
        Case(
            ({("x", "##a", "##a", "##a"): 1, ("x",): 5, ("x", "##q"): 2, ("p", "##q"): 1, ("p",): 1},),
            ("##a", "##a"),
            "xaaa, x ×5, xq ×2, pq, p: (##a, ##a) occurs twice in xaaa, at both overlapping places, so with ##a 3 it "
            "scores 2/(3·3) = 2/9; (p, ##q) scores 1/(2·3) = 1/6, less (counted once, (##a, ##a) would score 1/9)",
        ),
        Case(
            ({("x", "##a", "##b"): 1, ("x",): 5, ("c", "##d"): 1},),
            ("##a", "##b"),
            "xab, x ×5, cd: (##a, ##b) and (c, ##d) both score 1/(1·1) = 1; going through the words in order, each "
            "left to right, (##a, ##b) is seen first (it is the second pair of xab, but xab comes before cd)",
        ),
    ],
    diagnosers=[
        missing_import_hint,
        _repeated_words,
        on_error(TypeError, NUMPY_BIG_INT_HINT, "which has no callable"),  # a ufunc given an int past 64 bits
        when(
            lambda a: not isinstance(a.got, (tuple, list)) or len(a.got) != 2,
            "return the pair itself, a tuple of two symbols such as ('w', '##i'), not its score",
            any_type=True,
        ),
        when(_answer_for_other_counts, CACHE_HINT),
        same_as(
            _most_frequent,
            "you picked the most frequent pair, as BPE does; WordPiece divides the pair's "
            "count by count(A) · count(B), the counts of its two symbols",
        ),
        same_as(_lowest_score, "you picked the lowest score: WordPiece merges the pair with the highest"),
        same_as(
            _sum_of_counts,
            "you divided by count(A) + count(B); the score divides by their product, count(A) · count(B)",
        ),
        same_as(
            _unweighted,
            "your counts ignore how often each word occurs: weight every pair and every symbol by its word's count",
        ),
        same_as(_unweighted_symbols, UNWEIGHTED_SYMBOLS_HINT),
        same_as(
            _unweighted_pairs,
            "your pair counts ignore how often each word occurs: add the word's freq for every pair in it "
            "(count_pairs does)",
        ),
        same_as(
            _symbols_once_per_word,
            "a symbol that occurs twice in a word counts twice: count(A) adds the word's freq for every time A "
            "appears in it (go through the word itself, not set(word))",
        ),
        same_as(
            _pairs_once_per_word,
            "a pair that occurs twice in a word counts twice: count(AB) adds the word's freq for every time AB "
            "appears in it, as count_pairs does",
        ),
        same_as(_counted_without_overlaps, OVERLAP_HINT),
        same_as(
            lambda word_freq: _counted_in_pairs(word_freq, by_side=True),
            "you counted A only where it starts a pair and B only where it ends one: count(A) counts every "
            "occurrence of the symbol in the words, wherever it stands",
        ),
        same_as(
            lambda word_freq: _counted_in_pairs(word_freq, by_side=False),
            "you counted the symbols from the pairs, so a symbol inside a word counts twice (it is in two pairs) "
            "and a word of one symbol not at all: count each symbol of each word once, weighted by the word's count",
        ),
        same_as(
            _last_of_ties, "your ties go to the pair seen last (a `>=` where `>` belongs?): the pair seen first wins"
        ),
        same_as(
            _smallest_of_ties,
            "your ties go to the alphabetically smallest pair; this course takes the pair seen "
            "first: max(scores, key=scores.get) keeps the first of equal scores",
        ),
        same_as(
            _by_symbols_first_seen,
            "your ties go to the pair whose symbols first appear earliest in the words (its first symbol, then its "
            "second); this course takes the pair seen first, the first of the tied pairs met going through the words "
            "in order, which can start with a symbol met later: max(scores, key=scores.get) over the pairs in the "
            "order count_pairs meets them keeps it",
        ),
        *(same_as(_words_in_order(order), WORD_ORDER_HINT) for order in WORD_ORDERS),
        same_as(_shortest_of_ties, SHORTEST_HINT),
        same_as(_ties_by_position, POSITION_ORDER_HINT),
        same_as(
            _prefix_pooled,
            "your symbol counts put a letter and the same letter inside a word together: '##e' and 'e' are two "
            "different symbols (the ## marks a piece that continues a word), so count each as it is written",
        ),
        same_as(_skips_one_symbol_words, ONE_SYMBOL_HINT),
        when(_enormous_false_tie, FIXED_PRECISION_HINT, any_type=False),  # only an answer right on every other case
        same_as(_inverted_integer_division, INVERTED_INTEGER_DIVISION_HINT),
        *(same_as(_float32_divided(order), FLOAT32_DIVIDED_HINT) for order in ("ab", "ba")),  # before the scaled ones
        # every logarithm before the integer divisions: the logarithm of a product can agree with count * N // ...
        # on every case, and a learner who took logarithms did not divide
        *(same_as(log_scores, LOG_HINT) for log_scores in (*_logarithms(), _log_of_one_division)),
        *(same_as(_integer_scaled(scale), INTEGER_DIVISION_HINT) for scale in CORPUS_SCALES),
        same_as(_float_division, FLOAT_HINT),
        same_as(_float_division_b_first, FLOAT_HINT),
        *(same_as(_rounded_number(_decimal, order), DECIMAL_HINT) for order in ("ab", "ba", "one")),
        same_as(_float32, FLOAT32_HINT),
        same_as(_one_division, BIG_FLOAT_HINT),
        # after every float variant: where longdouble is a plain float (Windows, macOS on ARM), a float's hint comes first
        *(same_as(_rounded_number(_longdouble, order), LONGDOUBLE_HINT) for order in ("ab", "ba", "one")),
        *(same_as(_rounded(digits), ROUNDED_HINT) for digits in range(1, 20)),
        *(same_as(_integer_scaled(lambda singles, pairs, k=k: 10**k), INTEGER_DIVISION_HINT) for k in range(1, 81)),
        when(_tied_with_answer, TIE_HINT),
    ],
    hint="count the pairs (count_pairs) and the single symbols, both weighted by word count; score each pair "
    "count(AB) / (count(A) · count(B)); return the pair with the highest score, the first one on ties",
)


def _slow_not_endless(result: CheckResult, best_wordpiece_pair: Any) -> CheckResult:
    """A call the guards stopped on a case with word counts of 100,000 or more (the first case has 2**61), that
    finishes on the same words counted once each: work that grows with the counts (a loop over range(freq)), not an
    endless loop, so its hint says that instead of the engine's. A call that does not finish on counts of 1 either
    loops without end (a `while` whose index never moves): the engine's hint, which says so, stays."""
    if "did not finish" not in result.message or result.failed_case is None:
        return result
    word_freq = BEST_PAIR.build_cases()[result.failed_case - 1].args[0]
    largest = max(word_freq.values())
    if largest < LARGE_COUNT:
        return result
    with contextlib.redirect_stdout(io.StringIO()):
        once = call(best_wordpiece_pair, (dict.fromkeys(word_freq, 1),), MAX_STEPS)
    if once.runaway:
        return result
    lines = result.message.split("\n")
    lines = [f"   hint:     {slow_hint(largest)}" if line.startswith("   hint:") else line for line in lines]
    return dataclasses.replace(result, message="\n".join(lines))


def check_best_wordpiece_pair(best_wordpiece_pair: Any, *, record: bool = True) -> CheckResult:
    """Check ``best_wordpiece_pair(word_freq) -> (a, b)`` against ``bpelab.wordpiece``."""
    result = _slow_not_endless(
        run_checks(BEST_PAIR.name, [(BEST_PAIR, best_wordpiece_pair)], record=record), best_wordpiece_pair
    )
    result = name_stub_helpers(result, best_wordpiece_pair)
    print(result.message)
    return result


__all__ = ["BEST_PAIR", "ENCODE_WORD", "check_best_wordpiece_pair", "check_encode_wordpiece_word"]
