"""Lesson 03 checker: ``count_pairs(word_freq)``, every adjacent pair weighted by its word's count.

Order matters: pairs come back in the order they are first met (words in the dict's order, each
word left to right), because training settles ties by that order.
"""

from __future__ import annotations

from typing import Any

from bpelab.exercises.core import Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.samples import PARAGRAPH, made_up_words
from bpelab.words import END_OF_WORD, WordFreq, count_pairs, get_word_frequencies

CLASSIC_WORD_FREQ: WordFreq = {
    ("l", "o", "w", "</w>"): 5,
    ("l", "o", "w", "e", "r", "</w>"): 2,
    ("n", "e", "w", "e", "s", "t", "</w>"): 3,
    ("w", "i", "d", "e", "s", "t", "</w>"): 2,
}
CLASSIC_PAIR_COUNTS = {  # counted by hand, in first-seen order
    ("l", "o"): 7,
    ("o", "w"): 7,
    ("w", "</w>"): 5,
    ("w", "e"): 5,
    ("e", "r"): 2,
    ("r", "</w>"): 2,
    ("n", "e"): 3,
    ("e", "w"): 3,
    ("e", "s"): 5,
    ("s", "t"): 5,
    ("t", "</w>"): 5,
    ("w", "i"): 2,
    ("i", "d"): 2,
    ("d", "e"): 2,
}


def _counts(word_freq: WordFreq, pairs_of: Any, weight: bool = True) -> dict:
    """Count pairs with a different idea of "the pairs of a word": the shape of a learner's mistake."""
    counts: dict = {}
    for word, freq in word_freq.items():
        for pair in pairs_of(word):
            counts[pair] = counts.get(pair, 0) + (freq if weight else 1)
    return counts


def _stops_early(word_freq: WordFreq) -> dict:
    return _counts(word_freq, lambda w: [(w[i], w[i + 1]) for i in range(len(w) - 2)])


def _starts_late(word_freq: WordFreq) -> dict:
    return _counts(word_freq, lambda w: [(w[i], w[i + 1]) for i in range(1, len(w) - 1)])


def _skips_marker(word_freq: WordFreq) -> dict:
    """``if '</w>' in pair: continue``: the pairs with the end-of-word marker left out. On words spelled letter by
    letter this equals stopping one pair early; a symbol merged with its marker ('w</w>') tells them apart."""
    return _counts(word_freq, lambda w: [pair for pair in zip(w, w[1:]) if END_OF_WORD not in pair])


def _unweighted(word_freq: WordFreq) -> dict:
    return _counts(word_freq, lambda w: list(zip(w, w[1:])), weight=False)


def _assigned(word_freq: WordFreq) -> dict:
    """``counts[pair] = freq``: each pair keeps the count of the last place it was seen."""
    counts: dict = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = freq
    return counts


def _reversed_keys(attempt: Any) -> bool:
    """Every pair turned round ((b, a) for (a, b)) gives the expected counts: ``zip(word[1:], word)``."""
    got, expected = attempt.got, attempt.expected
    return (
        bool(expected)
        and got != expected
        and all(isinstance(key, tuple) and len(key) == 2 for key in got)
        and {(b, a): n for (a, b), n in got.items()} == expected
    )


def _across_words(attempt: Any) -> bool:
    """A pair starts with '</w>' (it joins the end of one word to the next) and every other pair is a pair of the
    words: the counting ran on past the words' ends, not pairs turned round or another mistake."""
    got, expected = attempt.got, attempt.expected
    joined = [key for key in got if isinstance(key, tuple) and key[:1] == (END_OF_WORD,)]
    return bool(joined) and all(key in expected for key in got if key not in joined)


THREE_AND_A_RUN: WordFreq = {
    ("a", "b", "a", "b", "a", "b", "</w>"): 2,
    ("a", "a", "a", "a", "a", "a", "</w>"): 1,
}
"""A pair three times in one word, and a run of six: a count that stops after two of a word's pairs fails here."""


def _once_per_word(word_freq: WordFreq) -> dict:
    return _counts(word_freq, lambda w: list(dict.fromkeys(zip(w, w[1:]))))


COUNT_PAIRS = Exercise(
    name="count_pairs",
    call="count_pairs(word_freq)",
    reference=count_pairs,
    order_matters=True,
    order_hint=(
        "the right counts, but in a different order: count pairs in the order you meet them (words in the "
        "dict's order, each word left to right); don't sort or go through a set: training breaks ties by this order"
    ),
    cases=lambda: [
        Case(({("a", "b", "</w>"): 1},), {("a", "b"): 1, ("b", "</w>"): 1}, "one word, two pairs"),
        Case(
            ({("c", "a", "t", "</w>"): 2, ("d", "o", "g", "</w>"): 1},),
            {("c", "a"): 2, ("a", "t"): 2, ("t", "</w>"): 2, ("d", "o"): 1, ("o", "g"): 1, ("g", "</w>"): 1},
            "each pair counts as often as its word",
        ),
        Case(({("a", "a", "a", "</w>"): 1},), {("a", "a"): 2, ("a", "</w>"): 1}, "the same pair twice in one word"),
        Case(({("x", "</w>"): 4},), {("x", "</w>"): 4}, "a one-letter word still has one pair"),
        Case(
            ({("ab</w>",): 3, ("a", "b", "</w>"): 1},),
            {("a", "b"): 1, ("b", "</w>"): 1},
            "a word that is already one symbol has no pairs",
        ),
        Case(({},), {}, "an empty corpus"),
        Case((CLASSIC_WORD_FREQ,), CLASSIC_PAIR_COUNTS, "the classic corpus: low ×5, lower ×2, newest ×3, widest ×2"),
        Case(
            ({("lo", "w</w>"): 5, ("lo", "w", "e", "r", "</w>"): 2},),
            {("lo", "w</w>"): 5, ("lo", "w"): 2, ("w", "e"): 2, ("e", "r"): 2, ("r", "</w>"): 2},
            "after merges, symbols can be longer than one letter: 'w</w>' is one symbol, and ('lo', 'w</w>') a pair "
            "like any other",
        ),
        Case(
            (THREE_AND_A_RUN,),
            note="('a', 'b') three times in one word, ('a', 'a') five times in a run of six a's: count every one",
        ),
        Case((get_word_frequencies(PARAGRAPH),), note="a paragraph of English"),
        Case((get_word_frequencies(made_up_words()),), note="150 made-up words"),
    ],
    diagnosers=[
        on_error(
            TypeError,
            "a dict key must be a tuple, not a list: a list can change, so it cannot be a key; make each pair a "
            "tuple, counts[(word[i], word[i + 1])]",
            contains="unhashable type: 'list'",
        ),
        on_error(
            IndexError,
            "word[i + 1] ran past the end of the word: a word of n symbols has n - 1 pairs, "
            "so loop over range(len(word) - 1)",
        ),
        same_as(
            _skips_marker,
            "the pairs with the end-of-word marker are missing: ('w', '</w>') is a pair like any other, count it too "
            "(merging it is how BPE learns that a piece ends a word)",
        ),
        same_as(
            _stops_early,
            "it looks like your loop stops one pair early: the last pair of each word is missing "
            "(a word of n symbols has n - 1 pairs: range(len(word) - 1)), or you skipped the pairs whose second "
            "symbol ends in '</w>' (count them too)",
        ),
        same_as(
            _starts_late, "your loop starts one pair late: the first pair of each word is missing (start at i = 0)"
        ),
        when(
            lambda a: any(isinstance(k, str) for k in a.got),
            "the keys should be pairs (tuples) like ('l', 'o'), not joined strings like 'lo'",
            any_type=False,
        ),
        when(
            _reversed_keys,
            "your pairs are reversed: ('b', 'a') where the word has 'a' then 'b'. A pair is (a symbol, the symbol "
            "after it): zip(word, word[1:]), not zip(word[1:], word)",
            any_type=False,
        ),
        when(
            _across_words,
            "you counted pairs across word boundaries (a pair that starts with '</w>' joins two words): "
            "count inside each word only",
            any_type=False,
        ),
        same_as(
            _assigned,
            "each pair kept only the count of the last place you saw it: counts[pair] = freq replaces the count; "
            "add to it instead, counts[pair] = counts.get(pair, 0) + freq (or += on a Counter)",
        ),
        same_as(_unweighted, "your counts ignore how often each word occurs: add the word's count (freq), not 1"),
        same_as(
            _once_per_word,
            "you counted each pair once per word, but a pair can occur more than once: "
            "('a', 'a') occurs twice in ('a', 'a', 'a', '</w>')",
        ),
    ],
    hint="for each word and its count: for each i in range(len(word) - 1), add the count to counts[(word[i], word[i + 1])]",
)


def check_count_pairs(count_pairs: Any, *, record: bool = True) -> CheckResult:
    """Check ``count_pairs(word_freq) -> {(a, b): count}``, weighted by word counts, in first-seen order."""
    return COUNT_PAIRS.check(count_pairs, record=record)
