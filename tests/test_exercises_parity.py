"""The checkers of lesson 14: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import pytest

from bpelab.exercises.parity import check_gini, check_parity_next_pair


def report(capsys):
    return capsys.readouterr().out


# ---- parity_next_pair ---------------------------------------------------------------------------


def good_next_pair(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def globally_most_frequent(tokens, pair_counts):
    total = {}
    for counts in pair_counts.values():
        for pair, n in counts.items():
            total[pair] = total.get(pair, 0) + n
    if not total or max(total.values()) < 2:
        return None
    return max(tokens, key=tokens.get), max(total, key=total.get)


def best_compressed(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: tokens[lang]):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=counts.get)
    return None


def last_of_ties(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        best, top = None, 0
        for pair, n in counts.items():
            if n >= top:  # >= keeps the LAST of equal counts
                best, top = pair, n
        if top >= 2:
            return language, best
    return None


def sorted_ties(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return None


def last_language_of_ties(tokens, pair_counts):
    worst = max(tokens.values())
    language = [lang for lang in tokens if tokens[lang] == worst][-1]
    rest = {lang: n for lang, n in tokens.items() if lang != language}
    counts = pair_counts[language]
    if counts and max(counts.values()) >= 2:
        return language, max(counts, key=counts.get)
    return good_next_pair(rest, pair_counts)


def never_passes(tokens, pair_counts):
    language = max(tokens, key=tokens.get)
    counts = pair_counts[language]
    return (language, max(counts, key=counts.get)) if counts else None


def alphabetical_language_ties(tokens, pair_counts):
    for language, _ in sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0])):  # ties: by name
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def reverse_alphabetical_language_ties(tokens, pair_counts):
    for language, _ in sorted(tokens.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def more_than_twice(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] > 2:  # off by one: a pair seen twice is enough
                return language, pair
    return None


def worst_then_second_worst(tokens, pair_counts):
    order = sorted(tokens, key=lambda lang: -tokens[lang])
    counts = pair_counts[order[0]]
    if counts and max(counts.values()) >= 2:
        return order[0], max(counts, key=counts.get)
    elif len(order) > 1:
        counts = pair_counts[order[1]]
        if counts and max(counts.values()) >= 2:
            return order[1], max(counts, key=counts.get)
    return None


def stops_when_worst_is_stuck(tokens, pair_counts):
    language = max(tokens, key=tokens.get)
    counts = pair_counts[language]
    if counts:
        pair = max(counts, key=counts.get)
        if counts[pair] >= 2:
            return language, pair
    return None


def returns_inside_the_loop(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=counts.get)
        else:
            return None  # gives up on the first language instead of passing the turn


def greatest_of_tied_pairs(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=lambda pair: (counts[pair], pair))
    return None


def language_pair_swapped(tokens, pair_counts):
    found = good_next_pair(tokens, pair_counts)
    return None if found is None else (found[1], found[0])


def stops_at_a_language_with_no_pairs(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if not counts:
            return None  # gives up at a language with no pairs instead of passing its turn
        pair = max(counts, key=counts.get)
        if counts[pair] >= 2:
            return language, pair
    return None


def breaks_at_a_language_with_no_pairs(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if not counts:
            break
        pair = max(counts, key=counts.get)
        if counts[pair] >= 2:
            return language, pair
    return None


def all_pairs_added_up(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts and sum(counts.values()) >= 2:  # counts all its pairs, not its best one
            return language, max(counts, key=counts.get)
    return None


def several_pairs_or_one_twice(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if len(counts) >= 2 or counts[pair] >= 2:
                return language, pair
    return None


def tie_to_the_bigger_pair(tokens, pair_counts):
    def key(lang):
        counts = pair_counts[lang]
        return (-tokens[lang], -max(counts.values(), default=0))  # equal tokens: the bigger best pair first

    for language in sorted(tokens, key=key):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def test_next_pair_right_answer_passes(capsys):
    assert check_parity_next_pair(good_next_pair).passed
    assert report(capsys).startswith("✅ parity_next_pair: all")


def test_next_pair_stub_is_not_yet(capsys):
    def parity_next_pair(tokens, pair_counts):
        # your code here
        ...

    assert check_parity_next_pair(parity_next_pair).status == "not yet"


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (globally_most_frequent, "that is standard BPE"),
        (best_compressed, "FEWEST tokens, the best compressed"),
        (last_of_ties, "seen LAST"),
        (sorted_ties, "smallest pair"),
        (last_language_of_ties, "the one listed first gets the merge"),
        (never_passes, "pass the turn to the next worst language"),
        (language_pair_swapped, "the language first"),
        (alphabetical_language_ties, "alphabetically"),
        (reverse_alphabetical_language_ties, "reverse alphabetical"),
        (more_than_twice, "at least twice (>= 2)"),
        (worst_then_second_worst, "only the two worst languages a turn"),
        (stops_when_worst_is_stuck, "the paper's reference code does"),
        (returns_inside_the_loop, "the paper's reference code does"),
        (greatest_of_tied_pairs, "the GREATEST pair"),
        (stops_at_a_language_with_no_pairs, "no pair at all"),
        (breaks_at_a_language_with_no_pairs, "no pair at all"),
        (all_pairs_added_up, "its BEST pair"),
        (several_pairs_or_one_twice, "its BEST pair"),
        (tie_to_the_bigger_pair, "whose best pair is more frequent"),
    ],
)
def test_next_pair_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_parity_next_pair(wrong).passed
    assert hint in report(capsys)


def test_next_pair_crash_is_a_message(capsys):
    def crashes(tokens, pair_counts):
        return pair_counts["zz"]

    assert not check_parity_next_pair(crashes).passed
    assert "KeyError" in report(capsys)


# ---- gini ---------------------------------------------------------------------------------------


def good_gini(values):
    n, total = len(values), sum(values)
    if n == 0 or total == 0:
        return 0.0
    return sum(abs(a - b) for a in values for b in values) / (2 * n * total)


def sorted_formula(values):
    xs, n = sorted(values), len(values)
    if not n or not sum(xs):
        return 0.0
    return sum((2 * (i + 1) - n - 1) * x for i, x in enumerate(xs)) / (n * sum(xs))


@pytest.mark.parametrize("right", [good_gini, sorted_formula])
def test_gini_right_answers_pass(capsys, right):
    assert check_gini(right).passed
    assert report(capsys).startswith("✅ gini: all")


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda v: 2 * good_gini(v), "twice too big"),
        (lambda v: good_gini(v) * len(v) / (len(v) - 1) if len(v) > 1 else 0.0, "n(n - 1)"),
        (lambda v: good_gini(v) * sum(v) / len(v) if v else 0.0, "divide by the mean too"),
        (
            lambda v: (
                (sum((x - sum(v) / len(v)) ** 2 for x in v) / len(v)) ** 0.5 / (sum(v) / len(v))
                if v and sum(v)
                else 0.0
            ),
            "coefficient of variation",
        ),
    ],
)
def test_gini_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_gini(wrong).passed
    assert hint in report(capsys)


def test_gini_division_by_zero_is_a_message(capsys):
    def gini(values):
        return sum(abs(a - b) for a in values for b in values) / (2 * len(values) * sum(values))

    assert not check_gini(gini).passed
    assert "ZeroDivisionError" in report(capsys)


# ---- the mistakes a fresh read found accepted (issue 29) ---------------------------------------------


def threshold_on_all_languages(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if sum(other.get(pair, 0) for other in pair_counts.values()) >= 2:  # every language's count, added up
                return language, pair
    return None


def three_worst_only(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang])[:3]:
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def first_wins_unless_three_tie(tokens, pair_counts):
    order = sorted(tokens, key=lambda lang: -tokens[lang])
    tied = [lang for lang in order if tokens[lang] == tokens[order[0]]]
    if len(tied) >= 3:  # two tied keep their order; three or more are taken from the end
        order = tied[::-1] + order[len(tied) :]
    for language in order:
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def languages_through_a_set(tokens, pair_counts):
    for language in sorted(set(tokens), key=lambda lang: -tokens[lang]):  # a set: its order comes from hashes
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def pairs_through_a_set(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            top = max(counts.values())
            if top >= 2:
                return language, next(iter({pair for pair in counts if counts[pair] == top}))
    return None


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (threshold_on_all_languages, "added up over all languages"),
        (three_worst_only, "only the three worst languages a turn"),
        (first_wins_unless_three_tie, "three or more languages tie"),
    ],
)
def test_next_pair_mistakes_found_later_get_their_hint(capsys, wrong, hint):
    assert not check_parity_next_pair(wrong).passed
    assert hint in report(capsys)


def languages_through_a_remaining_set(tokens, pair_counts):
    remaining = set(tokens)
    while remaining:
        top = max(tokens[lang] for lang in remaining)
        tied = {lang for lang in remaining if tokens[lang] == top}  # a set comprehension over a set
        for language in tied:
            counts = pair_counts[language]
            if counts and max(counts.values()) >= 2:
                return language, max(counts, key=counts.get)
        remaining -= tied
    return None


SEEDS = ["0", "1", "2", "3", "4", "5", "6", "7"]

_UNDER_A_SEED = """
import contextlib, io
from tests import test_exercises_parity as t
from bpelab.exercises.parity import check_parity_next_pair
for name in ["languages_through_a_set", "languages_through_a_remaining_set", "pairs_through_a_set", "sorted_ties",
             "alphabetical_language_ties"]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        result = check_parity_next_pair(getattr(t, name), record=False)
    hint = [line for line in out.getvalue().splitlines() if line.lstrip().startswith("hint:")]
    print(name, result.passed, hint[0] if hint else "")
"""


@pytest.mark.slow
def test_a_tie_broken_through_a_set_is_rejected_and_named_under_every_hash_seed():
    """A set of strings iterates in an order that PYTHONHASHSEED decides: the checker must reject such an answer, and
    name it, under every seed, and tell the deterministic tie rules apart from it under every seed too."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for seed in SEEDS:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _UNDER_A_SEED], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
        for name in ["languages_through_a_set", "languages_through_a_remaining_set", "pairs_through_a_set"]:
            assert lines[name].startswith("False"), f"seed {seed}: {name} passed"
            assert "a set" in lines[name] and "smallest" not in lines[name], f"seed {seed}: {lines[name]}"
        assert "languages" in lines["languages_through_a_remaining_set"]
        assert "languages" in lines["languages_through_a_set"] and "pairs" in lines["pairs_through_a_set"]
        assert "smallest pair" in lines["sorted_ties"], f"seed {seed}: {lines['sorted_ties']}"
        assert "alphabetically" in lines["alphabetical_language_ties"], f"seed {seed}"


def _visible_gini_answers():
    return {
        (10, 10, 10): 0.0,
        (0, 0, 0, 12): 0.75,
        (1, 3): 0.25,
        (3, 1): 0.25,
        (2, 4, 6): 2 / 9,
        (): 0.0,
        (7,): 0.0,
        (0, 0): 0.0,
        tuple(SIXTEEN): good_gini(SIXTEEN),
    }


SIXTEEN = [531, 595, 630, 642, 710, 634, 620, 715, 783, 621, 1093, 712, 939, 754, 790, 756]


def gini_table_lookup(values):
    return _visible_gini_answers()[tuple(values)]  # the answers of the checks printed so far, looked up


def gini_table_or_zero(values):
    return _visible_gini_answers().get(tuple(values), 0.0)


@pytest.mark.parametrize("table", [gini_table_lookup, gini_table_or_zero])
def test_gini_a_table_of_the_first_cases_fails_and_is_named(capsys, table):
    assert not check_gini(table).passed
    assert "a table" in report(capsys)


def test_gini_generated_cases_are_the_same_every_run():
    from bpelab.exercises.parity import GINI

    first, second = GINI.build_cases(), GINI.build_cases()
    assert [c.args for c in first] == [c.args for c in second]
    assert len(first) >= 20


# ---- the mistakes a second fresh read found accepted or misnamed ---------------------------------------------


def ties_in_pair_counts_order(tokens, pair_counts):
    for language in sorted(pair_counts, key=lambda lang: -tokens[lang]):  # pair_counts' order, not tokens'
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def second_language_read_by_position(tokens, pair_counts):
    order = sorted(tokens, key=lambda lang: -tokens[lang])
    worst, second = order[0], order[1]  # there may be one language only
    for language in [worst, second, *order[2:]]:
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=counts.get)
    return None


def more_distinct_pairs_on_a_tie(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: (-tokens[lang], -len(pair_counts[lang]))):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=counts.get)
    return None


def fewer_distinct_pairs_on_a_tie(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: (-tokens[lang], len(pair_counts[lang]))):
        counts = pair_counts[language]
        if counts and max(counts.values()) >= 2:
            return language, max(counts, key=counts.get)
    return None


def stops_one_short(tokens, pair_counts):
    order = sorted(tokens, key=lambda lang: -tokens[lang])
    for i in range(len(order) - 1):  # never reaches the last language
        counts = pair_counts[order[i]]
        if counts and max(counts.values()) >= 2:
            return order[i], max(counts, key=counts.get)
    return None


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (ties_in_pair_counts_order, "in the order pair_counts lists them"),
        (second_language_read_by_position, "tokens may hold a single language"),
        (more_distinct_pairs_on_a_tie, "MORE distinct pairs"),
        (fewer_distinct_pairs_on_a_tie, "FEWER distinct pairs"),
        (stops_one_short, "the best off (fewest tokens), never got a turn"),
    ],
)
def test_next_pair_mistakes_a_second_read_found_get_their_hint(capsys, wrong, hint):
    assert not check_parity_next_pair(wrong, record=False).passed
    out = report(capsys)
    assert hint in out
    assert "three or more" not in out and "without reaching `return`" not in out


def test_next_pair_cases_list_pair_counts_in_another_order_and_hold_one_language():
    from bpelab.exercises.parity import PARITY_NEXT_PAIR

    states = [case.args for case in PARITY_NEXT_PAIR.build_cases()]
    assert sum(list(tokens) != list(counts) for tokens, counts in states) >= 10
    assert sum(len(tokens) == 1 for tokens, _ in states) >= 2


# ---- a second read: costs rounded to whole numbers are not a table, a Decimal is a type ------------------


def gini_of_whole_costs(values):
    return good_gini([int(v) for v in values])  # right on every list of whole numbers


def gini_of_rounded_costs(values):
    return good_gini([round(v) for v in values])


def gini_with_floored_pair_sum(values):
    n, total = len(values), sum(values)
    if n == 0 or total == 0:
        return 0.0
    return (sum(abs(a - b) for a in values for b in values) // 1) / (2 * n * total)


@pytest.mark.parametrize("rounding", [gini_of_whole_costs, gini_of_rounded_costs, gini_with_floored_pair_sum])
def test_gini_costs_rounded_to_whole_numbers_are_named_not_called_a_table(capsys, rounding):
    assert rounding([0.5, 1.5]) != pytest.approx(0.25) or rounding([1.632, 2.913, 0.661]) != pytest.approx(
        good_gini([1.632, 2.913, 0.661])
    )
    assert not check_gini(rounding).passed
    out = report(capsys)
    assert "whole numbers" in out and "a table" not in out, out


def gini_as_decimal(values):
    from decimal import Decimal

    return Decimal(good_gini(values))  # the right value, in the wrong type


def gini_as_fraction(values):
    from fractions import Fraction

    n, total = len(values), sum(values)
    return (
        Fraction(0)
        if not n or not total
        else Fraction(sum(abs(a - b) for a in values for b in values)) / (2 * n * Fraction(total))
    )


@pytest.mark.parametrize("typed", [gini_as_decimal, gini_as_fraction])
def test_gini_a_decimal_or_a_fraction_gets_a_type_hint(capsys, typed):
    assert not check_gini(typed).passed
    out = report(capsys)
    assert "float(" in out and "a table" not in out, out


def gini_rounded(values):
    return round(good_gini(values), 6)


def test_gini_a_rounded_answer_is_told_it_is_rounded(capsys):
    assert not check_gini(gini_rounded).passed
    out = report(capsys)
    assert "round" in out and "a table" not in out, out


def test_gini_a_table_of_the_examples_with_one_value_changed_is_still_a_table(capsys):
    answers = _visible_gini_answers()

    def table_right_on_whole_numbers_it_knows(values):
        return answers.get(tuple(values), good_gini(values) if len(values) % 2 else 0.3)

    assert not check_gini(table_right_on_whole_numbers_it_knows).passed
    assert "a table" in report(capsys)


# ---- numpy numbers: compared as numbers, at the check's tolerance ------------------------------


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_gini_a_numpy_float_of_less_precision_is_refused(capsys, dtype):
    """np.float16 and np.float32 are no subclasses of float: they used to be compared with numpy's ``==`` at their own
    precision, so ``np.float16(gini)`` (2/9 comes back as 0.22216796875, 4e-4 off) passed every check."""
    np = pytest.importorskip("numpy")
    to = getattr(np, dtype)
    assert abs(float(to(2 / 9)) - 2 / 9) / (2 / 9) > 1e-9  # the value differs by more than the check allows

    def gini(values):
        return to(good_gini(values))

    assert not check_gini(gini).passed
    out = report(capsys)
    assert f"{dtype} precision" in out and "Return float(...)" not in out, out


def test_gini_a_numpy_float64_passes(capsys):
    np = pytest.importorskip("numpy")

    def gini(values):
        return np.float64(good_gini(values))

    assert check_gini(gini).passed


def gini_in_float32(values):
    """The right formula, computed in float32: right to about 7 digits."""
    import numpy as np

    costs = np.array(values, dtype=np.float32)
    n, total = len(costs), costs.sum()
    if n == 0 or total == 0:
        return 0.0
    return np.abs(costs[:, None] - costs[None, :]).sum() / (2 * n * total)


@pytest.mark.parametrize("wrap", [lambda g: g, lambda g: float(g)], ids=["float32 result", "float() of it"])
def test_gini_computed_in_float32_is_told_float32_precision_not_the_formula(capsys, wrap):
    """float(...) around a float32 result keeps its error: the hint names the precision, not the type or the formula."""
    pytest.importorskip("numpy")

    def gini(values):
        return wrap(gini_in_float32(values))

    assert not check_gini(gini).passed
    out = report(capsys)
    assert "float32" in out and "float64" in out and "2 * n * n * mean" not in out, out
    assert "Return float(...)" not in out, out
