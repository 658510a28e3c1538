"""Lesson 14 checkers: the number that scores fairness, and the choice parity-aware BPE makes at each merge.

In the lesson's order:

- ``check_gini(fn)``: exercise 1, ``gini(values) -> float``, the Gini coefficient of per-language costs
  (``bpelab.analysis.fairness.gini``).
- ``check_parity_next_pair(fn)``: exercise 2, ``parity_next_pair(tokens, pair_counts) -> (language, pair)``: the
  language with the most tokens on the parallel text (ties: the one listed first) and its most
  frequent pair (ties: the pair seen first); a language whose best pair occurs only once, or that has no
  pair at all, passes its turn to the next worst (that merge would save one token for a whole vocabulary row); ``None`` when no
  language has a pair occurring twice. What ``bpelab.parity.train_parity_aware`` does before every merge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bpelab.analysis.fairness import gini as reference_gini
from bpelab.exercises.core import Case, CheckResult, Exercise, same_as, when
from bpelab.parity import worst_first
from bpelab.words import best_pair

# ---- exercise 2: the parity-aware choice of the next pair -------------------------------------------

PairCounts = Mapping[str, Mapping[tuple[Any, Any], int]]


def reference_parity_next_pair(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """The worst-off language that has a pair occurring at least twice, and that pair."""
    for language in worst_first(tokens):
        counts = dict(pair_counts[language])
        if counts:
            pair = best_pair(counts)
            if counts[pair] >= 2:
                return language, pair
    return None


def _global_pair(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """Standard BPE's choice: the pair most frequent over all languages together."""
    total: dict[tuple, int] = {}
    for counts in pair_counts.values():
        for pair, n in counts.items():
            total[pair] = total.get(pair, 0) + n
    if not total or max(total.values()) < 2:
        return None
    pair = max(total, key=total.__getitem__)
    return max(tokens, key=tokens.__getitem__), pair


def _best_compressed(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """The language with the FEWEST tokens."""
    reversed_tokens = {language: -n for language, n in tokens.items()}
    return reference_parity_next_pair(reversed_tokens, pair_counts)


def _other_tie_rule(pick: Any) -> Any:
    """The parity-aware choice with another rule among pairs of equal count: ``pick`` takes the list of
    tied pairs, in first-seen order."""

    def choose(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
        for language in worst_first(tokens):
            counts = dict(pair_counts[language])
            if counts and max(counts.values()) >= 2:
                top = max(counts.values())
                return language, pick([p for p, n in counts.items() if n == top])
        return None

    return choose


_last_of_equal_pairs = _other_tie_rule(lambda tied: tied[-1])
"""Ties between pairs go to the pair seen last (a loop with >=, or sorted(...)[-1])."""
_smallest_of_equal_pairs = _other_tie_rule(min)
"""Ties between pairs go to the smallest pair, as sorting the pairs would do."""
_greatest_of_equal_pairs = _other_tie_rule(max)
"""Ties between pairs go to the greatest pair: ``max(counts, key=lambda p: (counts[p], p))``, the paper's code's rule."""


def _last_of_equal_languages(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    order = list(reversed(list(tokens)))
    return reference_parity_next_pair({language: tokens[language] for language in order}, pair_counts)


def _languages_by_name(*, reverse: bool) -> Any:
    """The parity-aware choice with ties between languages broken by name (sorting (tokens, name) pairs)."""

    def choose(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
        order = sorted(tokens, reverse=reverse)
        return reference_parity_next_pair({language: tokens[language] for language in order}, pair_counts)

    return choose


_alphabetical_languages = _languages_by_name(reverse=False)
"""``sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0]))``: equal token counts in alphabetical order."""
_reverse_alphabetical_languages = _languages_by_name(reverse=True)
"""``sorted(tokens.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)``: equal counts in reverse order of name."""


def _stops_when_stuck(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """The paper's reference code's rule: only the worst language is asked; None when its best pair occurs < 2 times."""
    language = worst_first(tokens)[0]
    counts = dict(pair_counts[language])
    if counts and counts[best_pair(counts)] >= 2:
        return language, best_pair(counts)
    return None


def _no_turn_passing(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """Always the worst language, even when its best pair occurs once (or it has none)."""
    language = worst_first(tokens)[0]
    counts = dict(pair_counts[language])
    return (language, best_pair(counts)) if counts else None


def _stops_at_no_pairs(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """A language with no pairs at all ends the search (``if not counts: return None``, or ``break``)."""
    for language in worst_first(tokens):
        counts = dict(pair_counts[language])
        if not counts:
            return None
        if counts[best_pair(counts)] >= 2:
            return language, best_pair(counts)
    return None


def _all_pairs_counted(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """The test is on all the language's pairs together (``sum(counts.values()) >= 2``, or ``len(counts) >= 2 or
    best >= 2``), not on its best pair: two pairs seen once each pass it."""
    for language in worst_first(tokens):
        counts = dict(pair_counts[language])
        if counts and sum(counts.values()) >= 2:
            return language, best_pair(counts)
    return None


def _bigger_pair_among_tied(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """Languages tied on tokens are taken in order of their best pair's count, the more frequent first."""
    order = sorted(tokens, key=lambda language: (-tokens[language], -max(pair_counts[language].values(), default=0)))
    return reference_parity_next_pair({language: tokens[language] for language in order}, pair_counts)


def _seen_more_than_twice(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """A pair must occur three times or more (``> 2`` or ``>= 3`` where ``>= 2`` belongs)."""
    for language in worst_first(tokens):
        counts = dict(pair_counts[language])
        if counts and counts[best_pair(counts)] >= 3:
            return language, best_pair(counts)
    return None


def _two_worst_only(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """Only the worst language and the next one get a turn."""
    return reference_parity_next_pair({language: tokens[language] for language in worst_first(tokens)[:2]}, pair_counts)


def _most_pairs(tokens: Mapping[str, int], pair_counts: PairCounts) -> tuple[str, tuple] | None:
    """The language whose best pair is the most frequent of all (the richest language, not the poorest)."""
    best = None
    for language in tokens:
        counts = dict(pair_counts[language])
        if counts:
            pair = best_pair(counts)
            if counts[pair] >= 2 and (best is None or counts[pair] > best[2]):
                best = (language, pair, counts[pair])
    return None if best is None else (best[0], best[1])


TOKENS = {"en": 40, "am": 95, "ta": 120, "fr": 52}
COUNTS = {
    "en": {("t", "h"): 9, ("h", "e"): 8, ("a", "n"): 3},
    "am": {("ሰ", "ዓ"): 4, ("ዓ", "ት"): 4},
    "ta": {("க", "ு"): 3, ("ல", "்"): 5, ("ம", "்"): 5},
    "fr": {("l", "e"): 6, ("t", "h"): 2},
}
"""A small hand-made state: Tamil is worst off (120 tokens), English best off; English's pairs are
the most frequent anywhere."""

PARITY_NEXT_PAIR = Exercise(
    name="parity_next_pair",
    call="parity_next_pair(tokens, pair_counts)",
    reference=reference_parity_next_pair,
    cases=lambda: [
        Case(
            ({"en": 10, "ta": 30}, {"en": {("t", "h"): 5}, "ta": {("ம", "்"): 3}}),
            ("ta", ("ம", "்")),
            "Tamil needs 30 tokens, English 10: Tamil is worst off and gets its most frequent pair",
        ),
        Case(
            ({"en": 40, "ta": 120}, {"en": {("t", "h"): 9}, "ta": {("க", "ு"): 2, ("ம", "்"): 5}}),
            ("ta", ("ம", "்")),
            "English's pair is more frequent (9), but the merge goes to the worst-off language, Tamil",
        ),
        Case(
            (TOKENS, COUNTS),
            ("ta", ("ல", "்")),
            "Tamil (120 tokens) is worst off; its pairs ('ல', '்') and ('ம', '்') tie at 5: the first seen wins, "
            "although ('ம', '்') is the smaller",
        ),
        Case(
            ({"am": 70, "ta": 70, "en": 20}, {"am": {("ሰ", "ዓ"): 4}, "ta": {("ம", "்"): 6}, "en": {("t", "h"): 9}}),
            ("am", ("ሰ", "ዓ")),
            "Amharic and Tamil tie at 70 tokens: the language listed first (Amharic) gets the merge",
        ),
        Case(
            ({"ta": 70, "am": 70, "en": 20}, {"ta": {("ம", "்"): 6}, "am": {("ሰ", "ዓ"): 4}, "en": {("t", "h"): 9}}),
            ("ta", ("ம", "்")),
            "the same tie listed the other way round: Tamil is listed first now, so Tamil gets the merge "
            "(the order of the dict, not the alphabet, breaks the tie)",
        ),
        Case(
            ({"am": 70, "ta": 70, "en": 20}, {"am": {("ሰ", "ዓ"): 6}, "ta": {("ம", "்"): 4}, "en": {("t", "h"): 9}}),
            ("am", ("ሰ", "ዓ")),
            "Amharic and Tamil tie at 70 tokens, Amharic listed first: Amharic gets the merge, and here its best "
            "pair (6) is also larger than Tamil's (4); neither the alphabet nor the size of the pair breaks the tie",
        ),
        Case(
            ({"en": 30, "ta": 90, "am": 60}, {"en": {("t", "h"): 4}, "ta": {("ம", "்"): 1}, "am": {("ሰ", "ዓ"): 3}}),
            ("am", ("ሰ", "ዓ")),
            "Tamil is worst off but its best pair occurs once: merging it would save one token for a vocabulary "
            "row used once, so the next worst, Amharic, gets the merge",
        ),
        Case(
            ({"en": 10, "ta": 30}, {"en": {("t", "h"): 5}, "ta": {("ம", "்"): 2}}),
            ("ta", ("ம", "்")),
            "Tamil's best pair occurs exactly twice: that is enough (at least twice), so Tamil gets it",
        ),
        Case(
            (
                {"en": 10, "ta": 30, "am": 25, "fr": 12},
                {"en": {("t", "h"): 4}, "ta": {("ம", "்"): 1}, "am": {("ሰ", "ዓ"): 1}, "fr": {("l", "e"): 3}},
            ),
            ("fr", ("l", "e")),
            "Tamil's and Amharic's best pairs occur once: the turn passes on to the third worst, French",
        ),
        Case(
            ({"ta": 30, "en": 10}, {"ta": {}, "en": {("t", "h"): 5}}),
            ("en", ("t", "h")),
            "Tamil is worst off but has no pair at all (every word one token): it passes its turn, and English "
            "gets the merge",
        ),
        Case(
            ({"ta": 30, "en": 10}, {"ta": {("ம", "்"): 1, ("க", "ு"): 1}, "en": {("t", "h"): 5}}),
            ("en", ("t", "h")),
            "Tamil has two pairs, each seen once: its best pair still occurs only once, so it passes its turn "
            "to English",
        ),
        Case(
            ({"en": 5, "fr": 5}, {"en": {("a", "b"): 1}, "fr": {}}),
            None,
            "no language has a pair that occurs twice: return None (training stops)",
        ),
        Case(
            (
                {"de": 12, "el": 30, "ka": 29},
                {"de": {(101, 110): 6}, "el": {(206, 177): 4, (207, 132): 4}, "ka": {(225, 131): 11}},
            ),
            note="byte ids as symbols, Greek just ahead of Georgian",
        ),
    ],
    diagnosers=[
        when(
            lambda a: isinstance(a.got, tuple) and len(a.got) == 2 and isinstance(a.got[0], tuple),
            "return (language, pair), the language first: e.g. ('ta', ('ம', '்'))",
        ),
        same_as(
            _global_pair,
            "you picked the pair that is most frequent over all languages together: that is standard BPE. "
            "Parity-aware BPE looks only at the pair counts of the worst-off language",
        ),
        same_as(
            _best_compressed,
            "you picked the language with the FEWEST tokens, the best compressed one; the merge goes to the "
            "language with the MOST tokens on the parallel text",
        ),
        same_as(
            _most_pairs,
            "you picked the language whose best pair is most frequent: the richest language, not the poorest. "
            "Choose the language by its tokens first, then its pair",
        ),
        same_as(
            _last_of_equal_pairs,
            "on equal counts you kept the pair seen LAST; keep the one seen first (max(counts, key=counts.get) "
            "does, since max keeps the first of equals)",
        ),
        same_as(
            _smallest_of_equal_pairs,
            "on equal counts you took the smallest pair (sorting); the course's rule is the pair seen first",
        ),
        same_as(
            _greatest_of_equal_pairs,
            "on equal counts you took the GREATEST pair (max over (count, pair)): that is the paper's reference "
            "code's rule; the course's rule is the pair seen first (max(counts, key=counts.get))",
        ),
        same_as(
            _last_of_equal_languages,
            "two languages tie on tokens: the one listed first gets the merge (sorted(..., key=...) is stable; "
            "max(tokens, key=tokens.get) keeps the first too)",
        ),
        same_as(
            _alphabetical_languages,
            "two languages tie on tokens and you took them alphabetically (sorting (-tokens, name) pairs): the "
            "one listed first in tokens gets the merge; sort the names by tokens alone (sorted is stable)",
        ),
        same_as(
            _reverse_alphabetical_languages,
            "two languages tie on tokens and you took them in reverse alphabetical order (sorting (tokens, name) "
            "pairs with reverse=True, or max over them): the one listed first in tokens gets the merge; sort the "
            "names by tokens alone (sorted is stable)",
        ),
        same_as(
            _stops_when_stuck,
            "when the worst language's best pair occurs fewer than twice you returned None: that stops training, "
            "as the paper's reference code does. The course's rule passes the turn: try the next worst language, "
            "and return None only when no language has a pair seen twice",
        ),
        same_as(
            _no_turn_passing,
            "when the worst language's best pair occurs only once (or it has no pair), skip it (merging it would "
            "save one token for a vocabulary row used once): pass the turn to the next worst language, and return "
            "None when no language has a pair seen twice",
        ),
        same_as(
            _stops_at_no_pairs,
            "a language with no pair at all (every word already one token) passes its turn like one whose best "
            "pair occurs once: you stopped there (return None, or break); go on to the next worst language",
        ),
        same_as(
            _all_pairs_counted,
            "a language passes its turn when its BEST pair occurs fewer than twice, however many pairs it has: "
            "you tested all its pairs together (sum(counts.values()) or len(counts)); test counts[pair] >= 2 "
            "for the pair you return",
        ),
        same_as(
            _bigger_pair_among_tied,
            "two languages tie on tokens and you gave the merge to the one whose best pair is more frequent: the "
            "one listed first in tokens gets it, whatever its pairs; sort the names by tokens alone (sorted is "
            "stable)",
        ),
        same_as(
            _seen_more_than_twice,
            "a pair seen exactly twice is merged too: the rule is at least twice (>= 2); you asked for more",
        ),
        same_as(
            _two_worst_only,
            "you gave only the two worst languages a turn: go on down the whole list, worst first, until a "
            "language has a pair seen twice",
        ),
    ],
    hint="go through the languages from most tokens to fewest (sorted(tokens, key=lambda l: -tokens[l])); "
    "for the first whose best pair (max(counts, key=counts.get)) occurs at least twice, return (language, pair)",
)


def check_parity_next_pair(parity_next_pair: Any, *, record: bool = True) -> CheckResult:
    """Check ``parity_next_pair(tokens, pair_counts) -> (language, pair) or None``."""
    return PARITY_NEXT_PAIR.check(parity_next_pair, record=record)


# ---- exercise 1: the Gini coefficient -------------------------------------------------------------


def _pairs_sum(values: list[float]) -> float:
    return float(sum(abs(a - b) for a in values for b in values))


def _without_half(values: list[float]) -> float:
    n, total = len(values), sum(values)
    return _pairs_sum(values) / (n * total) if n and total else 0.0


def _sample_version(values: list[float]) -> float:
    n, total = len(values), sum(values)
    return _pairs_sum(values) / (2 * (n - 1) * total) if n > 1 and total else 0.0


def _not_relative(values: list[float]) -> float:
    n = len(values)
    return _pairs_sum(values) / (2 * n * n) if n else 0.0


def _coefficient_of_variation(values: list[float]) -> float:
    n = len(values)
    if not n or not sum(values):
        return 0.0
    mean = sum(values) / n
    return float((sum((v - mean) ** 2 for v in values) / n) ** 0.5 / mean)


def _neighbours_only(values: list[float]) -> float:
    """Differences between neighbours in the list, not between every two values."""
    n, total = len(values), sum(values)
    if n < 2 or not total:
        return 0.0
    return sum(abs(a - b) for a, b in zip(values, values[1:])) / (2 * n * total / n)


GINI = Exercise(
    name="gini",
    call="gini(values)",
    reference=lambda values: reference_gini(values),
    solution=(reference_gini,),
    course_functions=(reference_gini,),
    cases=lambda: [
        Case(([10, 10, 10],), 0.0, "every language pays the same: no inequality, 0.0"),
        Case(([0, 0, 0, 12],), 0.75, "one of four pays everything: (n - 1) / n = 0.75"),
        Case(([1, 3],), 0.25, "two values: |1 - 3| twice over ordered pairs = 4; 2 × 2² × mean 2 = 16; 4 / 16"),
        Case(([3, 1],), 0.25, "the same values in another order: the same answer"),
        Case(([2, 4, 6],), 2 / 9, "pairs' differences 2, 4, 2 (twice each) = 16; 2 × 3² × mean 4 = 72; 16/72"),
        Case(([],), 0.0, "no values: 0.0"),
        Case(([7],), 0.0, "one value: 0.0"),
        Case(([0, 0],), 0.0, "all costs 0: 0.0, not a division by zero"),
        Case(
            ([531, 595, 630, 642, 710, 634, 620, 715, 783, 621, 1093, 712, 939, 754, 790, 756],),
            note="sixteen languages' token counts",
        ),
    ],
    diagnosers=[
        same_as(
            _without_half,
            "your answer is twice too big: each pair is counted twice (i, j and j, i), so divide by 2 × n² × mean",
        ),
        same_as(
            _sample_version,
            "you divided by n(n - 1) (the 'sample' Gini); the usual (population) Gini is over "
            "all n² ordered pairs: divide by 2 × n² × mean",
        ),
        same_as(
            _not_relative,
            "divide by the mean too: the Gini coefficient is relative, so doubling every cost must leave it unchanged",
        ),
        same_as(
            _coefficient_of_variation,
            "that is the standard deviation over the mean (coefficient of "
            "variation); the Gini uses the mean ABSOLUTE difference between every two values",
        ),
        same_as(_neighbours_only, "compare every value with every other, not only neighbours in the list"),
    ],
    hint="sum(abs(a - b) for a in values for b in values) / (2 * n * n * mean); return 0.0 for no values or "
    "a total of 0",
)


def check_gini(gini: Any, *, record: bool = True) -> CheckResult:
    """Check ``gini(values) -> float`` against ``bpelab.analysis.fairness.gini``."""
    return GINI.check(gini, record=record)
