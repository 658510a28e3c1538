"""Lesson 03 checker: ``most_frequent_pairs(pair_counts)``, every pair that shares the highest count.

Training merges one pair per step, so when several pairs tie for the top count it needs a rule
to pick one. Listing the tied pairs, in the order they were first met, is the first half of that
rule; ``bpelab.words.best_pair`` is the whole of it.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, NoReturn

from bpelab.corpora import read_corpus
from bpelab.exercises.core import Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH
from bpelab.words import Pair, best_pair, count_pairs, get_word_frequencies, merge_pair


def most_frequent_pairs(pair_counts: dict[Pair, int]) -> list[Pair]:
    """The pairs with the highest count, in the order of ``pair_counts`` (first seen); ``[]`` if there are none."""
    if not pair_counts:
        return []
    top = max(pair_counts.values())
    return [pair for pair, count in pair_counts.items() if count == top]


class InputReordered(TypeError):
    """Raised by a ``FirstSeenCounts`` that the learner's function tried to change."""


class FirstSeenCounts(dict):
    """Pair counts that refuse to be changed, even into the same items in another order.

    The engine ignores the order of an input whose answer's order does not matter, but here the dict's key order
    IS the first-seen order the tie rule reads: a function that pops the winners and puts them back, sorts the
    dict in place, or moves the winners to the end returns the right list and leaves the caller's counts
    reordered. One case hands the function this dict, so that such a change raises (and is named) instead.
    Copies (``dict(counts)``, ``counts.copy()``) are ordinary dicts, free to change."""

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise InputReordered(
            "this check's pair_counts cannot be changed (it was popped, deleted from, assigned to, cleared or "
            "updated): its key order is the first-seen order"
        )

    __setitem__ = __delitem__ = __ior__ = _refuse
    pop = popitem = clear = update = setdefault = _refuse

    def __deepcopy__(self, memo: dict) -> FirstSeenCounts:
        return FirstSeenCounts(copy.deepcopy(dict(self), memo))

    def __copy__(self) -> FirstSeenCounts:
        return FirstSeenCounts(dict(self))

    def __reduce__(self) -> tuple:
        return (FirstSeenCounts, (dict(self),))


def _all_count_once(attempt: Any) -> bool:
    """Every pair occurs once and the answer is empty: a function that wants a count of 2 or more."""
    counts = attempt.args[0]
    return attempt.got == [] and bool(counts) and max(counts.values()) == 1


def _pairs_of(text: str) -> dict[Pair, int]:
    return count_pairs(get_word_frequencies(text))


@cache
def _tie_at_611() -> dict[Pair, int]:
    """The pair counts of ``train_bpe(read_corpus("english_train"), 150)`` at step 22, those of 500 or more: two pairs
    tie at 611. Each count is made its own int object (``int(str(count))``), as counting makes it, so that an answer
    comparing counts with ``is`` sees two different objects for the tie, as it would in training."""
    word_freq = get_word_frequencies(read_corpus("english_train"))
    for _ in range(21):
        word_freq = merge_pair(word_freq, best_pair(count_pairs(word_freq)))
    return {pair: int(str(count)) for pair, count in count_pairs(word_freq).items() if count >= 500}


def _compared_by_identity(attempt: Any) -> bool:
    """The answer keeps only the tied pairs whose count is the very object ``max`` returned: ``count is top``."""
    counts, got = attempt.args[0], attempt.got
    if not counts or got == attempt.expected:
        return False
    top = max(counts.values())
    return isinstance(top, int) and top > 256 and got == [pair for pair, count in counts.items() if count is top]


def _skips_last_pair(attempt: Any) -> str | None:
    """The highest count taken over every pair but the last (``range(len(items) - 1)``, ``counts[:-1]``): on one pair
    alone, no count at all (``[]``, or ``max`` of nothing raising); otherwise the pairs that have that count."""
    counts, got, error = attempt.args[0], attempt.got, attempt.error
    if not counts or got == attempt.expected:
        return None
    values = list(counts.values())
    if len(values) == 1:
        skipped = got == [] or (isinstance(error, ValueError) and "empty" in str(error))
    else:
        top = max(values[:-1])
        skipped = error is None and got == [pair for pair, count in counts.items() if count == top]
    return SKIPS_LAST_HINT if skipped else None


SKIPS_LAST_HINT = (
    "your loop never looks at the last pair: range(len(items) - 1) (or counts[:-1]) stops one short, so a dict of "
    "one pair has no top at all and a highest count in the last pair is missed. Look at every count: "
    "top = max(pair_counts.values())"
)


def _empty_dict_error(attempt: Any) -> str | None:
    """``max`` of no counts raised, and pair_counts really is empty (not one pair with the last left out)."""
    error = attempt.error
    if isinstance(error, ValueError) and "empty" in str(error) and not attempt.args[0]:
        return "max() of an empty dict raises: return [] when pair_counts is empty"
    return None


def _looks_like_one_pair(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(isinstance(s, str) for s in value)


def _with_counts(attempt: Any) -> bool:
    """A dict of pairs and counts, or a list of ``(pair, count)`` items, where a list of pairs belongs."""
    got = attempt.got
    if isinstance(got, dict):
        return True
    return (
        isinstance(got, list)
        and bool(got)
        and all(isinstance(item, tuple) and len(item) == 2 and _looks_like_one_pair(item[0]) for item in got)
    )


MOST_FREQUENT_PAIRS = Exercise(
    name="most_frequent_pairs",
    call="most_frequent_pairs(pair_counts)",
    reference=most_frequent_pairs,
    cases=lambda: [
        Case(({("a", "b"): 3, ("b", "c"): 1},), [("a", "b")], "one clear winner: still a list"),
        Case(
            ({("s", "t"): 2, ("t", "e"): 1, ("p", "e"): 2},), [("s", "t"), ("p", "e")], "a tie: both, first seen first"
        ),
        Case(({},), [], "no pairs at all: an empty list"),
        Case(({("x", "y"): 4, ("y", "z"): 4, ("z", "x"): 4},), [("x", "y"), ("y", "z"), ("z", "x")], "everything tied"),
        Case(
            ({("b", "a"): 1, ("a", "b"): 5, ("c", "a"): 5, ("a", "c"): 2},),
            [("a", "b"), ("c", "a")],
            "keep the dict's order, not alphabetical order",
        ),
        Case((_pairs_of(CLASSIC_TEXT),), note="the classic corpus: low ×5, lower ×2, newest ×3, widest ×2"),
        Case((_pairs_of("step pest pets"),), note="three anagrams"),
        Case((_pairs_of(PARAGRAPH),), note="a paragraph of English"),
        Case(
            (_pairs_of("ab"),),
            [("a", "b"), ("b", "</w>")],
            "the word 'ab' once: each pair occurs once, so both tie at the top with a count of 1",
        ),
        Case(
            (FirstSeenCounts({("b", "a"): 1, ("a", "b"): 5, ("c", "a"): 2, ("c", "d"): 5}),),
            [("a", "b"), ("c", "d")],
            "a tie in the caller's dict, which must come back unchanged, in its order too",
        ),
        Case(({("a", "b"): 4},), [("a", "b")], "exactly one pair: it has the highest count"),
        Case(
            ({("a", "b"): 1, ("b", "</w>"): 2},),
            [("b", "</w>")],
            "the highest count is the last pair's: look at every pair, the last one too",
        ),
        Case(
            (_tie_at_611(),),
            [("f", "</w>"), ("r", "e")],
            "the pair counts of english_train at step 22 of train_bpe (those of 500 or more): ('f', '</w>') and "
            "('r', 'e') tie at 611",
        ),
    ],
    diagnosers=[
        on_error(
            InputReordered,
            "your function changed pair_counts (popped, deleted, assigned or sorted its keys), even if it put "
            "the same counts back: the dict's key order is the first-seen order that breaks ties, so the caller's "
            "next tie would go to another pair. Read pair_counts without changing it (or work on a copy, "
            "dict(pair_counts))",
        ),
        when(
            _all_count_once,
            "the highest count is 1 here (every pair occurs once), and 1 is still the highest: return every pair "
            "that has it; deciding whether a pair seen once is worth merging is not this function's job",
        ),
        _skips_last_pair,
        _empty_dict_error,
        when(
            lambda a: _looks_like_one_pair(a.got),
            "you returned one pair: return a list of ALL the pairs with the highest count, even if there is only one",
            any_type=True,
        ),
        when(
            lambda a: isinstance(a.got, int) and not isinstance(a.got, bool),
            "you returned the highest count itself: return the pairs that have it",
            any_type=True,
        ),
        when(
            _with_counts,
            "return a list of the pairs only, without their counts: [pair for pair, count in "
            "pair_counts.items() if count == top]",
            any_type=True,
        ),
        when(
            _compared_by_identity,
            "a tie above 256 lost its second pair: you compared the counts with `is`, which asks whether two ints "
            "are the same object, not the same number. Python keeps one shared object for each small int (-5 to "
            "256), so `is` happened to work on small counts; two counts of 611 are two objects. Compare numbers "
            "with ==: count == top",
        ),
        same_as(
            lambda pc: sorted(most_frequent_pairs(pc)),
            "the right pairs, but sorted: keep them in the order of pair_counts (the order they were first seen)",
        ),
        same_as(
            lambda pc: sorted(pc, key=pc.__getitem__, reverse=True),
            "you returned every pair, sorted by count: keep only those whose count equals the highest count",
        ),
        same_as(
            lambda pc: [p for p, c in pc.items() if c == min(pc.values())] if pc else [],
            "those are the pairs with the LOWEST count: use max, not min",
        ),
    ],
    hint="top = max(pair_counts.values()); then keep every pair whose count == top, in the dict's order",
)


def check_most_frequent_pairs(most_frequent_pairs: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``most_frequent_pairs(pair_counts) -> list of pairs``; prints one report."""
    return MOST_FREQUENT_PAIRS.check(most_frequent_pairs, record=record)
