"""Wrong answers a third fresh reader wrote for the checkers of lessons 00, 04 and 11, each refused with the hint that
names its mistake: merges that check only one boundary of the pair, digits skipped or counted as ints, the other
orders of the keys, float32 divided twice, integer scaling by 10**60, a missing import."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bpelab.exercises import check_merge_pair, check_merge_symbols
from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair
from bpelab.exercises.warmup import check_count_characters


def hint_of(capsys) -> str:
    out = capsys.readouterr().out
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


# ---- lesson 04: a merge that checks only one boundary of the pair ---------------------------------------------


def regex_left_only(symbols, pair):
    """Sennrich et al.'s merge without its (?!\\S) lookahead: the match may end inside a longer symbol."""
    bigram = re.escape(" ".join(pair))
    text = re.sub(r"(?<!\S)" + bigram, "".join(pair), " ".join(symbols))
    return tuple(text.split(" ")) if symbols else ()


def replace_with_leading_space(symbols, pair):
    """A space in front of the word and of the pair: the start is checked, the end is not."""
    if not symbols:
        return ()
    text = (" " + " ".join(symbols)).replace(" " + " ".join(pair), " " + "".join(pair))
    return tuple(text[1:].split(" "))


def startswith_next(symbols, pair):
    """pair[1] tested with startswith on the next symbol."""
    merged, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1].startswith(pair[1]):
            merged.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def regex_right_only(symbols, pair):
    """The mirror: (?!\\S) kept, (?<!\\S) dropped, so the match may start inside a longer symbol."""
    bigram = re.escape(" ".join(pair))
    text = re.sub(bigram + r"(?!\S)", "".join(pair), " ".join(symbols))
    return tuple(text.split(" ")) if symbols else ()


def endswith_previous(symbols, pair):
    merged, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i].endswith(pair[0]) and symbols[i + 1] == pair[1]:
            merged.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


LEFT_ONLY = [regex_left_only, replace_with_leading_space, startswith_next]
RIGHT_ONLY = [regex_right_only, endswith_previous]


def per_word(merge):
    return lambda word_freq, pair: {merge(word, pair): freq for word, freq in word_freq.items()}


@pytest.mark.parametrize("merge", LEFT_ONLY + RIGHT_ONLY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("corpus", [False, True], ids=["merge_symbols", "merge_pair"])
def test_a_merge_that_checks_one_boundary_is_refused_and_told_which(capsys, merge, corpus):
    assert merge(("a", "b", "c", "</w>"), ("a", "b")) == ("ab", "c", "</w>")  # right on an ordinary word
    check = check_merge_pair if corpus else check_merge_symbols
    result = check(per_word(merge) if corpus else merge, record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    if merge in LEFT_ONLY:
        assert "only the start of the longer symbol" in hint, hint
    else:
        assert "only the end of the longer symbol" in hint, hint


def test_the_boundary_cases_are_the_readers_examples():
    from bpelab.exercises.pair_merging import MERGE_SYMBOLS

    args = [case.args for case in MERGE_SYMBOLS.build_cases()]
    assert (("a", "bc", "</w>"), ("a", "b")) in args
    assert (("h", "e</w>"), ("h", "e")) in args
    assert regex_left_only(("a", "bc", "</w>"), ("a", "b")) == ("abc", "</w>")
    assert regex_left_only(("h", "e</w>"), ("h", "e")) == ("he</w>",)


# ---- lesson 00: digits ----------------------------------------------------------------------------------------


def skips_digits(text):
    counts = {}
    for ch in text:
        if ch.isdigit():
            continue
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def int_keys_for_digits(text):
    counts = {}
    for ch in text:
        key = int(ch) if ch.isdigit() else ch
        counts[key] = counts.get(key, 0) + 1
    return counts


@pytest.mark.parametrize("answer", [skips_digits, int_keys_for_digits], ids=lambda f: f.__name__)
def test_count_characters_digits_are_characters(capsys, answer):
    result = check_count_characters(answer, record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    assert "digit" in hint, hint


def last_seen_order(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.pop(ch, 0) + 1
    return counts


def reversed_order(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return dict(reversed(list(counts.items())))


def loop_from_the_end(text):
    counts = {}
    for ch in reversed(text):
        counts[ch] = counts.get(ch, 0) + 1
    return counts


@pytest.mark.parametrize(
    ("answer", "words"),
    [(last_seen_order, "last"), (reversed_order, "reversed"), (loop_from_the_end, "from the end")],
    ids=lambda x: getattr(x, "__name__", x),
)
def test_count_characters_other_orders_are_named(capsys, answer, words):
    result = check_count_characters(answer, record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    assert words in hint and "arbitrary" not in hint, hint


# ---- lesson 11: scores and a missing import -------------------------------------------------------------------


def counted(word_freq):
    singles, pairs = {}, {}
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    return singles, pairs


@pytest.mark.parametrize("order", ["ab", "ba"])
def test_float32_divided_twice_is_told_float32(capsys, order):
    def best_wordpiece_pair(word_freq):
        singles, pairs = counted(word_freq)
        f = np.float32
        if order == "ab":
            scores = {p: f(n) / f(singles[p[0]]) / f(singles[p[1]]) for p, n in pairs.items()}
        else:
            scores = {p: f(n) / f(singles[p[1]]) / f(singles[p[0]]) for p, n in pairs.items()}
        return max(scores, key=scores.get)

    result = check_best_wordpiece_pair(best_wordpiece_pair, record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    assert "float32" in hint and "divided twice" in hint and "integer division" not in hint, hint


@pytest.mark.parametrize("k", [44, 50, 60, 66])
def test_integer_scaling_by_a_big_power_of_ten_is_told_integer_division(capsys, k):
    def best_wordpiece_pair(word_freq):
        singles, pairs = counted(word_freq)
        scores = {p: n * 10**k // (singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
        return max(scores, key=scores.get)

    result = check_best_wordpiece_pair(best_wordpiece_pair, record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    assert "integer division" in hint and "Decimal" not in hint, hint


def test_the_lessons_solution_without_its_imports_is_told_to_run_the_first_cell(capsys):
    namespace: dict = {}
    exec(
        "from fractions import Fraction\n"
        "def best_wordpiece_pair(word_freq):\n"
        "    pairs = count_pairs(word_freq)\n"
        "    return max(pairs, key=pairs.get)\n",
        namespace,
    )
    result = check_best_wordpiece_pair(namespace["best_wordpiece_pair"], record=False)
    hint = hint_of(capsys)
    assert not result.passed, hint
    assert "first cell" in hint and "count_pairs" in hint and "from bpelab" in hint, hint


# ---- lesson 00's account of what ends a check ----------------------------------------------------------------------


def test_a_keyboard_interrupt_raised_by_the_function_ends_the_check():
    def interrupted(text):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check_count_characters(interrupted, record=False)


def test_a_call_waiting_outside_python_is_reported_when_it_returns(capsys):
    """Lesson 00: time.sleep(8) is reported after 8 seconds, as still running after 5 (the guard's limit)."""
    import time

    from bpelab.exercises.runaway import MAX_SECONDS

    assert MAX_SECONDS == 5
    waited = MAX_SECONDS + 1

    def sleeps(text):
        time.sleep(waited)
        return {}

    start = time.monotonic()
    result = check_count_characters(sleeps, record=False)
    took = time.monotonic() - start
    out = capsys.readouterr().out
    assert not result.passed and "still running after 5 seconds" in out, out
    assert took >= waited, took


# ---- lesson 11 cell 13: what the cases reject and what they let through, as the prose says ------------------------


def _wrong_somewhere(best) -> bool:
    from bpelab.exercises.beyond_bpe import BEST_PAIR, reference_best_wordpiece_pair

    return any(best(*case.args) != reference_best_wordpiece_pair(*case.args) for case in BEST_PAIR.build_cases()[1:])


def scaled(k):
    def best(word_freq):
        singles, pairs = counted(word_freq)
        scores = {p: n * 10**k // (singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
        return max(scores, key=scores.get)

    return best


def decimal_once(digits):
    from decimal import Decimal, localcontext

    def best(word_freq):
        singles, pairs = counted(word_freq)
        with localcontext() as context:
            context.prec = digits
            scores = {p: Decimal(n) / (Decimal(singles[p[0]]) * Decimal(singles[p[1]])) for p, n in pairs.items()}
        return max(scores, key=scores.get)

    return best


def test_every_fixed_power_of_ten_is_wrong_on_some_case():
    """Up to 66 on the counts of 3e14; 80 and 400 on the near tie of counts 10**200 (read 10)."""
    assert all(_wrong_somewhere(scaled(k)) for k in [*range(0, 67), 80, 400])


def test_a_decimal_of_fixed_precision_is_wrong_on_some_case():
    """28 digits on the counts of 3e14; 50 and 100, divided once, on the near tie of counts 10**200 (read 10)."""
    assert all(_wrong_somewhere(decimal_once(digits)) for digits in (28, 50, 100))


def test_the_3e14_case_is_one_28_digits_make_equal():
    from decimal import Decimal

    from bpelab.exercises.beyond_bpe import DECIMAL_COUNTS

    c = DECIMAL_COUNTS
    assert Decimal(1) / (Decimal(c) * Decimal(c)) == Decimal(1) / (Decimal(c - 1) * Decimal(c + 1))
    assert Decimal(1) / Decimal(c) / Decimal(c) == Decimal(1) / Decimal(c - 1) / Decimal(c + 1)
