"""Lesson 04 checker: the training loop, ``train(text, num_merges) -> list of merges``.

Compared with ``bpelab.train_bpe(text, num_merges).merges``: each merge is ``((a, b), a + b)``;
ties go to the pair seen first; the loop stops early when no pair is left.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.helper_stubs import check_naming_stub_helpers
from bpelab.exercises.pair_merging import (
    MERGE_PAIR,
    MERGE_SYMBOLS,
    missing_name_hint,
    name_wrong_helpers,
    new_dict_wanted,
    overlapping_merge,
    right_to_left_merge,
)
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH, made_up_words
from bpelab.patterns import split_text
from bpelab.words import (
    END_OF_WORD,
    Merge,
    Pair,
    Word,
    WordFreq,
    best_pair,
    count_pairs,
    get_word_frequencies,
    learn_merges,
    merge_pair,
    train_bpe,
)


def reference_train(text: str, num_merges: int) -> list[Merge]:
    """The answer a learner's ``train`` must give: ``train_bpe(text, num_merges).merges``."""
    return train_bpe(text, num_merges).merges


def _loop(
    word_freq: WordFreq,
    num_merges: int,
    pick: Callable[[dict[Pair, int]], Pair] = best_pair,
    keep: bool = True,
    *,
    merge_word: Callable[[Word, Pair], Word] | None = None,
    count: Callable[[WordFreq], dict[Pair, int]] = count_pairs,
    carry_counts: bool = False,
    fewest_pairs: int = 1,
) -> list[Merge]:
    """The training loop with one part done another way: how the pair is picked (the shape of a tie-rule mistake),
    ``keep=False`` (``merge_pair``'s result thrown away), how one word is merged, how pairs are counted, or
    ``carry_counts`` (the counts dict made once, before the loop, and added to at every step), or ``fewest_pairs``
    (the loop stops when fewer pairs than that are left: 2 is ``if len(pairs) <= 1: break``)."""
    merges: list[Merge] = []
    counts: dict[Pair, int] = {}
    for _ in range(num_merges):
        if carry_counts:
            for pair, n in count(word_freq).items():
                counts[pair] = counts.get(pair, 0) + n
        else:
            counts = count(word_freq)
        if len(counts) < fewest_pairs:
            break
        pair = pick(counts)
        merges.append((pair, pair[0] + pair[1]))
        if keep and merge_word is not None:
            word_freq = {merge_word(word, pair): freq for word, freq in word_freq.items()}
        elif keep:
            word_freq = merge_pair(word_freq, pair)
    return merges


def _count_without_overlaps(word_freq: WordFreq) -> dict[Pair, int]:
    """Pair counts that skip past a counted pair of two equal symbols: (a, a) counted once in aaa, not twice."""
    counts: dict[Pair, int] = {}
    for word, freq in word_freq.items():
        i = 0
        while i < len(word) - 1:
            pair = (word[i], word[i + 1])
            counts[pair] = counts.get(pair, 0) + freq
            i += 2 if word[i] == word[i + 1] else 1
    return counts


def _count_once_per_word(word_freq: WordFreq) -> dict[Pair, int]:
    """Each distinct pair of a word counted once (``set(zip(word, word[1:]))``): (a, a) once in aaa."""
    counts: dict[Pair, int] = {}
    for word, freq in word_freq.items():
        for pair in dict.fromkeys(zip(word, word[1:])):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def _train_with(**how: Any) -> Callable[[str, int], list[Merge]]:
    return lambda text, num_merges: _loop(get_word_frequencies(text), num_merges, **how)


def _shortest_pair_wins(counts: dict[Pair, int]) -> Pair:
    """Ties to the pair whose merged symbol is shortest (then the first seen)."""
    return max(counts, key=lambda p: (counts[p], -len(p[0] + p[1])))


def _last_of_ties(counts: dict[Pair, int]) -> Pair:
    """Ties to the pair seen last: ``max`` over the pairs in reverse, a ``>=`` in a loop, ``sorted(...)[-1]``."""
    return max(reversed(list(counts)), key=counts.__getitem__)


def _largest_pair_wins(text: str, num_merges: int) -> list[Merge]:
    return _loop(get_word_frequencies(text), num_merges, lambda c: max(c, key=lambda p: (c[p], p)))


def _largest_pair_whatever_its_count(text: str, num_merges: int) -> list[Merge]:
    """``max(counts)``: the largest key, as Python compares tuples of strings; the counts play no part."""
    return _loop(get_word_frequencies(text), num_merges, max)


def _result_dropped(text: str, num_merges: int) -> list[Merge]:
    """``merge_pair(word_freq, pair)`` called without ``word_freq =``: the same pair wins every round."""
    return _loop(get_word_frequencies(text), num_merges, keep=False)


def _first_merge_only(text: str, num_merges: int) -> list[Merge] | None:
    """``return merges`` indented inside the loop: one merge at most, and None when the loop never runs."""
    return reference_train(text, 1) if num_merges > 0 else None


def _first_merge_only_then_after(text: str, num_merges: int) -> list[Merge]:
    """The same, with a second ``return merges`` after the loop: [] for zero merges."""
    return reference_train(text, min(num_merges, 1))


RETURN_INSIDE_HINT = (
    "only the first merge came back: is your `return` indented inside the loop? Return the merges after the loop "
    "has run num_merges times"
)


def _stops_below_two(text: str, num_merges: int) -> list[Merge]:
    """Lesson 04 §8's third stopping rule (``min_count=2``), which this exercise does not ask for."""
    steps = learn_merges(get_word_frequencies(text), num_merges, new_symbol=lambda p: p[0] + p[1], min_count=2)
    return [(s.pair, s.new_symbol) for s in steps]


def _unweighted(text: str, num_merges: int) -> list[Merge]:
    word_freq = dict.fromkeys(get_word_frequencies(text), 1)
    return [(s.pair, s.new_symbol) for s in learn_merges(word_freq, num_merges, new_symbol=lambda p: p[0] + p[1])]


def _counted_once(text: str, num_merges: int) -> list[Merge]:
    counts = count_pairs(get_word_frequencies(text))
    ranked = sorted(counts, key=lambda p: -counts[p])  # sorted() is stable: ties keep first-seen order
    return [(pair, pair[0] + pair[1]) for pair in ranked[:num_merges]]


def _split_on_one_space(text: str, num_merges: int) -> list[Merge]:
    """``text.split(" ")``: newlines and tabs stay inside words, and two spaces make an empty word ``('</w>',)``."""
    word_freq: WordFreq = {}
    for word in text.split(" "):
        symbols = (*word, END_OF_WORD)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return _loop(word_freq, num_merges, lambda c: max(c, key=c.__getitem__))


def _punctuation_split_off(text: str, num_merges: int) -> list[Merge]:
    """Lesson 04 splits its real English text with ``\\w+|[^\\w\\s]+`` before training: right there, wrong here."""
    return _loop(get_word_frequencies(" ".join(split_text(text, r"\w+|[^\w\s]+"))), num_merges)


def _marker_glued(text: str, num_merges: int) -> list[Merge]:
    """Words spelled as subword-nmt spells them, the marker glued to the last letter: ``('l', 'o', 'w</w>')``."""
    word_freq: WordFreq = {}
    for word in text.split():
        symbols = (*word[:-1], word[-1] + END_OF_WORD)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return _loop(word_freq, num_merges)


def _space_in_new_symbol(attempt: Attempt) -> bool:
    """Some new symbol is ``a + ' ' + b``, the pair as subword-nmt writes it in its merges file."""
    return any(
        isinstance(merge, tuple)
        and len(merge) == 2
        and isinstance(merge[0], tuple)
        and len(merge[0]) == 2
        and merge[1] == f"{merge[0][0]} {merge[0][1]}"
        for merge in attempt.got
    )


MARKER_PROBE = ("ab xb yb", 1)
"""A case whose only right first merge is ('b', '</w>'): a loop that never merges '</w>' here left the marker out."""


def _uses_marker(merges: Any) -> bool:
    return any(END_OF_WORD in str(new) for _, new in merges)


def _marker_missing(attempt: Attempt) -> bool:
    """No merge involves '</w>' here, where the answer has one, nor on ``MARKER_PROBE``, where the first merge must
    (a loop with another bug merges '</w>' there)."""
    if not _uses_marker(attempt.expected) or _uses_marker(attempt.got):
        return False
    probe = [got for args, got in [(attempt.args, attempt.got), *attempt.history()] if tuple(args) == MARKER_PROBE]
    return bool(probe) and isinstance(probe[0], list) and not _uses_marker(probe[0])


def _prefix_right(attempt: Any, extra: int) -> bool:
    got, expected = attempt.got, attempt.expected
    n = min(len(got), len(expected))
    return len(got) - len(expected) == extra and got[:n] == expected[:n]


LETTERLESS_TEXT = "0070 0070 0070 - - - - ... ... ab"
"""A text with words of digits and of punctuation: a table that skips them, or strips '0070' to '70', trains
other merges."""


def _table_of(words: list[str]) -> WordFreq:
    word_freq: WordFreq = {}
    for word in words:
        symbols = (*word, END_OF_WORD)
        word_freq[symbols] = word_freq.get(symbols, 0) + 1
    return word_freq


def _letterless_tables(text: str) -> list[WordFreq]:
    """The tables a get_word_frequencies that skips words without a letter (or only digits, or only punctuation),
    or strips a number's leading zeros, makes of ``text``; only those that differ from the right one."""
    words = text.split()
    tables = [
        _table_of([w for w in words if not skip(w)])
        for skip in (
            lambda w: not any(ch.isalpha() for ch in w),
            str.isdigit,
            lambda w: w in string.punctuation,
            lambda w: not any(ch.isalnum() for ch in w),
        )
    ]
    tables.append(_table_of([w.lstrip("0") or w for w in words]))
    right = get_word_frequencies(text)
    return [table for table in tables if table != right]


def _trained_on_a_letterless_table(attempt: Attempt) -> bool:
    text, num_merges = attempt.args
    return any(attempt.got == _loop(table, num_merges) for table in _letterless_tables(text))


LETTERLESS_HINT = (
    "your table lost or changed the words without a letter: get_word_frequencies counts every word of "
    "text.split(), digits and punctuation too ('0070', '-', '...'), each spelled as it is ('0070' keeps its "
    "zeros); train on that table"
)


TRAIN = Exercise(
    name="train",
    call="train(text, num_merges)",
    reference=reference_train,
    checker="check_training_loop",
    solution=(best_pair, learn_merges, train_bpe),
    course_functions=(learn_merges, train_bpe),
    cases=lambda: [
        Case(
            ("ba ba", 1),
            [(("b", "a"), "ba")],
            "a tie: ('b', 'a') and ('a', '</w>') both occur 2 times, and the pair seen first, ('b', 'a'), wins "
            "(the alphabetically smallest would be ('a', '</w>'))",
        ),
        Case(
            ("ab ab", 5),
            [(("a", "b"), "ab"), (("ab", "</w>"), "ab</w>")],
            "stop when no pair is left: only 2 merges are possible",
        ),
        Case(("ab ab", 0), [], "zero merges"),
        Case(
            ("aaaa", 2),
            [(("a", "a"), "aa"), (("aa", "aa"), "aaaa")],
            "merges never overlap: ('a', 'a', 'a', 'a', '</w>') becomes ('aa', 'aa', '</w>')",
        ),
        Case(
            ("aaa", 2),
            [(("a", "a"), "aa"), (("aa", "a"), "aaa")],
            "left to right, without overlaps: ('a', 'a', 'a', '</w>') becomes ('aa', 'a', '</w>'), whose first pair "
            "is ('aa', 'a') (right to left would give ('a', 'aa', '</w>'), overlapping merges ('aa', 'aa', 'a', '</w>'))",
        ),
        Case(
            ("aaa aaa xy xy xy", 1),
            [(("a", "a"), "aa")],
            "(a, a) occurs twice in each aaa (both of its overlapping places count), 4 times in all; (x, y) 3 times",
        ),
        Case(
            MARKER_PROBE,
            [(("b", "</w>"), "b</w>")],
            "all three words end in b: ('b', '</w>') occurs 3 times, every other pair once",
        ),
        Case(
            (CLASSIC_TEXT, 3),
            [(("l", "o"), "lo"), (("lo", "w"), "low"), (("low", "</w>"), "low</w>")],
            "the classic corpus; the third merge is a tie between pairs seen 5 times, won by the first seen",
        ),
        Case((CLASSIC_TEXT, 10), note="the classic corpus, 10 merges"),
        Case(("the cat sat on the mat the cat ate the rat", 6), note="a short sentence, 6 merges"),
        Case((PARAGRAPH, 25), note="a paragraph of English, 25 merges"),
        Case((made_up_words(), 30), note="150 made-up words, 30 merges"),
        Case(
            ("ab\nab ab", 3),
            [(("a", "b"), "ab"), (("ab", "</w>"), "ab</w>")],
            "a newline also separates words: 3 times the word 'ab', so only 2 merges are possible",
        ),
        Case(("to  be\tor\nnot  to\tbe", 8), note="words separated by two spaces, a tab and a newline"),
        Case(
            (LETTERLESS_TEXT, 8),
            note="words without a letter are words too: '0070', '-' and '...' are trained on (each becomes one "
            "symbol, '-</w>' first)",
        ),
    ],
    diagnosers=[
        missing_name_hint,
        on_error(
            ValueError,
            "there are no pairs left to merge: stop the loop when the pair counts are empty (if not counts: break)",
            contains="empty",
        ),
        on_error(
            IndexError,
            "when no pair is left there is nothing to take from the sorted counts: stop the loop "
            "when the pair counts are empty (if not counts: break)",
            contains="list index out of range",
        ),
        same_as(
            lambda text, n: [pair for pair, _ in reference_train(text, n)],
            "each merge should be ((a, b), a + b), e.g. (('l', 'o'), 'lo'): you returned only the pairs",
        ),
        when(
            _space_in_new_symbol,
            "a new symbol has a space inside: it is a + b, joined with nothing between, (('l', 'o'), 'lo'), not "
            "'l o' (subword-nmt's merges file writes the pair with a space, but the symbol it makes is 'lo')",
            any_type=False,
        ),
        same_as(
            _marker_glued,
            "you glued '</w>' to the last character ('w</w>', as subword-nmt spells words): here '</w>' is a "
            "symbol of its own after the last character, as get_word_frequencies spells it: tuple(word) + ('</w>',)",
        ),
        when(_trained_on_a_letterless_table, LETTERLESS_HINT, any_type=False),
        same_as(
            _punctuation_split_off,
            "you split punctuation off the words before training (\\w+|[^\\w\\s]+, as lesson 04 does for its real "
            "text): this exercise trains on get_word_frequencies(text), which splits on whitespace only, so 'cat.' "
            "stays one word",
        ),
        when(
            lambda a: any(not isinstance(new, str) for _, new in a.got),
            "the new symbol of each merge should be the string a + b, e.g. (('l', 'o'), 'lo')",
            any_type=False,
        ),
        same_as(
            lambda text, n: train_bpe(text, n, tie_break="lexicographic").merges,
            "your ties go to the alphabetically smallest pair; this course takes the pair seen first "
            "(max(counts, key=counts.get) keeps the first of equal counts)",
        ),
        same_as(
            _train_with(pick=_last_of_ties),
            "your ties go to the pair seen last (a `>=` where `>` belongs, max over the pairs reversed, or "
            "sorted(...)[-1]); this course takes the pair seen first: max(counts, key=counts.get) keeps the first "
            "of equal counts",
        ),
        same_as(
            _largest_pair_wins,
            "your ties go to the alphabetically largest pair (max over (count, pair)); "
            "this course takes the pair seen first: max(counts, key=counts.get)",
        ),
        same_as(
            _result_dropped,
            "the same pair is merged again and again: every round counted the pairs of the words as the text spells "
            "them, unmerged. Either word_freq = get_word_frequencies(text) stands inside the loop, so the table is "
            "made again from the text every round (make it once, before the loop), or merge_pair's result was "
            "thrown away (merge_pair returns a new dict and leaves word_freq as it was: word_freq = "
            "merge_pair(word_freq, pair))",
        ),
        same_as(
            _largest_pair_whatever_its_count,
            "max(counts) compares the pairs themselves (the alphabetically largest wins), not their counts: "
            "pick the most frequent pair with max(counts, key=counts.get)",
        ),
        same_as(
            _stops_below_two,
            "your loop stopped when the best pair occurs only once (lesson 04 §8's rule 'no pair occurs twice'); "
            "this exercise asks for num_merges merges, stopping early only when no pair is left at all",
        ),
        same_as(
            _train_with(fewest_pairs=2),
            "your loop stopped while one pair was still left (if len(pairs) <= 1: break, or < 2): that last pair "
            "is merged too; stop only when no pair is left at all, if not pairs: break",
        ),
        same_as(
            _counted_once,
            "you counted the pairs only once, before the loop: count again after every merge, "
            "because each merge changes which pairs exist",
        ),
        same_as(
            _split_on_one_space,
            "you split the text with text.split(' '): a newline or a tab then stays inside a word, and two spaces "
            "make an empty word; text.split() splits on any run of whitespace, as get_word_frequencies does",
        ),
        same_as(
            _unweighted, "your pair counts ignore how often each word occurs: weight each pair by its word's count"
        ),
        same_as(
            _train_with(merge_word=right_to_left_merge),
            "you merged each word from right to left: scan left to right, so ('a', 'a', 'a', '</w>') merging "
            "('a', 'a') becomes ('aa', 'a', '</w>') and the next pair is ('aa', 'a'), not ('a', 'aa')",
        ),
        same_as(
            _train_with(merge_word=overlapping_merge),
            "your merges overlap: after merging a pair, skip BOTH of its symbols (i += 2); with i += 1 the second "
            "symbol is used again, so ('a', 'b', '</w>') becomes ('ab', 'b', '</w>') and words grow",
        ),
        same_as(
            _train_with(count=_count_without_overlaps),
            "a pair is counted at every place it occurs, overlapping places too: (a, a) is counted twice in aaa "
            "(count every adjacent pair, for pair in zip(word, word[1:])); only merging skips past a merged pair",
        ),
        same_as(
            _train_with(count=_count_once_per_word),
            "a pair that occurs twice in a word counts twice (weighted by the word's count): (a, a) is counted "
            "twice in aaa; don't count set(zip(word, word[1:]))",
        ),
        same_as(
            _train_with(carry_counts=True),
            "your pair counts carry over from one step to the next: start from an empty dict inside the loop "
            "(counts = {} at every step, or counts = count_pairs(word_freq)), so that a merged pair and the pairs "
            "it broke up are gone",
        ),
        same_as(
            _train_with(pick=_shortest_pair_wins),
            "your ties go to the shortest pair; this course takes the pair seen first "
            "(max(counts, key=counts.get) keeps the first of equal counts)",
        ),
        same_as(_first_merge_only, RETURN_INSIDE_HINT),
        same_as(_first_merge_only_then_after, RETURN_INSIDE_HINT),
        when(
            _marker_missing,
            "none of your merges involves the end-of-word marker '</w>': spell each word as "
            "tuple(word) + ('</w>',) before training",
            any_type=False,
        ),
        when(
            lambda a: _prefix_right(a, 1),
            "one merge too many: the loop should run num_merges times (range(num_merges))",
            any_type=False,
        ),
        when(
            lambda a: _prefix_right(a, -1),
            "one merge too few: the loop should run num_merges times (range(num_merges))",
            any_type=False,
        ),
    ],
    hint="repeat num_merges times: counts = count_pairs(word_freq); stop if empty; pair = max(counts, key=counts.get); "
    "record (pair, pair[0] + pair[1]); word_freq = merge_pair(word_freq, pair)",
)


def check_training_loop(train: Any, *, record: bool = True) -> CheckResult:
    """Check ``train(text, num_merges) -> [((a, b), a + b), ...]`` against ``bpelab.train_bpe(...).merges``."""
    helpers = [("merge_symbols", MERGE_SYMBOLS, lambda fn: fn), ("merge_pair", MERGE_PAIR, new_dict_wanted)]
    return check_naming_stub_helpers(
        TRAIN, train, record=record, rewrite=lambda result: name_wrong_helpers(result, train, helpers)
    )
