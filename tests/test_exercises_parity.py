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
