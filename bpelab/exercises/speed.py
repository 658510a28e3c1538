"""Lesson 12 checkers: the two ideas that make BPE fast, each as one small function.

- ``check_pair_count_changes(fn)``: ``pair_count_changes(old_word, new_word, freq) -> {pair: change}``,
  how the pair counts move when one word (occurring ``freq`` times) is rewritten by a merge: the
  update the incremental trainer makes instead of recounting the corpus.
- ``check_merge_lowest_rank(fn)``: ``merge_lowest_rank(ids, merges) -> ids``, encoding one piece by
  merging the adjacent pair with the lowest rank (the smallest new id), leftmost on ties, until no
  adjacent pair has one: what ``bpelab.merging.merge_by_rank`` does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bpelab.exercises.core import Case, CheckResult, Exercise, same_as, when
from bpelab.merging import merge_by_rank
from bpelab.words import Pair, Word, replace_pair

# ---- exercise 1: the change in pair counts when one word is rewritten ------------------------------


def reference_pair_count_changes(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    """Every pair of the old word goes out, every pair of the new word comes in, ``freq`` times each;
    pairs whose change adds up to 0 are left out. Pairs appear in the order they are first met."""
    changes: dict[Pair, int] = {}
    for pair in zip(old_word, old_word[1:]):
        changes[pair] = changes.get(pair, 0) - freq
    for pair in zip(new_word, new_word[1:]):
        changes[pair] = changes.get(pair, 0) + freq
    return {pair: change for pair, change in changes.items() if change}


def _with_zeros(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    changes: dict[Pair, int] = {}
    for pair in zip(old_word, old_word[1:]):
        changes[pair] = changes.get(pair, 0) - freq
    for pair in zip(new_word, new_word[1:]):
        changes[pair] = changes.get(pair, 0) + freq
    return changes


def _unweighted(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    return reference_pair_count_changes(old_word, new_word, 1)


def _upside_down(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    return {pair: -change for pair, change in reference_pair_count_changes(old_word, new_word, freq).items()}


def _only_gains(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    """What Counter's unary + or Counter subtraction leaves: the negative changes are dropped."""
    return {
        pair: change for pair, change in reference_pair_count_changes(old_word, new_word, freq).items() if change > 0
    }


def _sets(old_word: Word, new_word: Word, freq: int) -> dict[Pair, int]:
    """Each pair once per word, as if a word could not hold the same pair twice."""
    old, new = set(zip(old_word, old_word[1:])), set(zip(new_word, new_word[1:]))
    return {**{pair: -freq for pair in old - new}, **{pair: freq for pair in new - old}}


CHANGES = Exercise(
    name="pair_count_changes",
    call="pair_count_changes(old_word, new_word, freq)",
    reference=reference_pair_count_changes,
    cases=lambda: [
        Case(
            (("c", "a", "t", "</w>"), ("c", "at", "</w>"), 1),
            {("c", "a"): -1, ("a", "t"): -1, ("t", "</w>"): -1, ("c", "at"): 1, ("at", "</w>"): 1},
            "cat once, after the merge a + t: three pairs go, two new ones come",
        ),
        Case(
            (("c", "a", "t", "</w>"), ("c", "at", "</w>"), 3),
            {("c", "a"): -3, ("a", "t"): -3, ("t", "</w>"): -3, ("c", "at"): 3, ("at", "</w>"): 3},
            "the same word occurring 3 times: every change counts 3 times",
        ),
        Case(
            (("t", "h", "e", "</w>"), ("th", "e", "</w>"), 4),
            {("t", "h"): -4, ("h", "e"): -4, ("th", "e"): 4},
            "('e', '</w>') is there before and after: its count does not change, so leave it out",
        ),
        Case(
            (("a", "a", "a", "</w>"), ("aa", "a", "</w>"), 2),
            {("a", "a"): -4, ("aa", "a"): 2},
            "('a', 'a') occurred twice in the old word (-2 × 2); ('a', '</w>') is unchanged",
        ),
        Case((("l", "o", "w"), ("l", "o", "w"), 5), {}, "a word the merge did not touch: nothing changes"),
        Case(
            (("a", "b", "a", "b"), ("ab", "ab"), 1),
            {("a", "b"): -2, ("b", "a"): -1, ("ab", "ab"): 1},
            "two merges in one word",
        ),
        Case(
            ((104, 101, 108, 108, 111), (104, 101, 256, 111), 7), note="byte ids: 'hello' after merging l + l into 256"
        ),
        Case(
            (tuple("mississippi") + ("</w>",), replace_pair(tuple("mississippi") + ("</w>",), ("s", "s"), "ss"), 2),
            note="mississippi after merging s + s",
        ),
    ],
    diagnosers=[
        same_as(
            _with_zeros,
            "leave out the pairs whose change is 0: they are in the word before and after the merge, "
            "so their counts stay as they were",
        ),
        same_as(_unweighted, "every change counts as many times as the word occurs: subtract and add freq, not 1"),
        same_as(
            _upside_down,
            "the signs are the wrong way round: the old word's pairs go out (minus), "
            "the new word's pairs come in (plus)",
        ),
        same_as(
            _only_gains,
            "the old word's pairs are missing: they go out with a minus sign, and Counter's unary + and "
            "Counter subtraction (a - b) drop every count that is 0 or less. Use a plain dict, or "
            "Counter.subtract / update, and keep the negative changes",
        ),
        same_as(
            _sets,
            "a word can hold the same pair more than once, e.g. ('a', 'a') twice in ('a', 'a', 'a'): "
            "go through zip(word, word[1:]) and count every occurrence",
        ),
        when(lambda a: any(isinstance(k, str) for k in a.got), "the keys should be pairs (tuples), like ('c', 'at')"),
    ],
    hint="changes = {}; for each pair in zip(old_word, old_word[1:]) subtract freq; for each pair in "
    "zip(new_word, new_word[1:]) add freq; return the pairs whose change is not 0",
)


def check_pair_count_changes(pair_count_changes: Any, *, record: bool = True) -> CheckResult:
    """Check ``pair_count_changes(old_word, new_word, freq) -> {pair: change}``."""
    return CHANGES.check(pair_count_changes, record=record)


# ---- exercise 2: encoding by lowest rank ----------------------------------------------------------


def reference_merge_lowest_rank(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """``merge_by_rank`` with the ranks read from a merges dict ``{(a, b): new_id}``."""
    return merge_by_rank(list(ids), lambda a, b: merges.get((a, b)))


def _one_pass(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """Merge the lowest pair once, and stop."""
    ranked = [(merges[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in merges]
    if not ranked:
        return list(ids)
    rank, i = min(ranked)
    return list(ids[:i]) + [rank] + list(ids[i + 2 :])


def _loop(ids: list[int], merges: dict[tuple[int, int], int], pick: Any) -> list[int]:
    parts = list(ids)
    while True:
        ranked = [(merges[pair], i) for i, pair in enumerate(zip(parts, parts[1:])) if pair in merges]
        if not ranked:
            return parts
        rank, i = pick(ranked)
        parts[i : i + 2] = [rank]


def _highest_first(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    return _loop(ids, merges, max)


def _rightmost_on_ties(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    return _loop(ids, merges, lambda ranked: min(ranked, key=lambda r: (r[0], -r[1])))


def _dict_order(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """Replay every merge in the order the dict lists them, which need not be the order they were learned."""
    parts = list(ids)
    for pair, new_id in merges.items():
        parts = list(replace_pair(tuple(parts), pair, new_id))
    return parts


def _sorted_pairs(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """Replay every merge in the order of its pair, as ``sorted(merges.items())`` gives them: by the ids, not the rank."""
    parts = list(ids)
    for pair, new_id in sorted(merges.items()):
        parts = list(replace_pair(tuple(parts), pair, new_id))
    return parts


def _smallest_pair_first(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """Merge, again and again, the pair with the smallest ids among those that have a rank: ``min(pairs)`` with no
    key compares the pairs themselves."""
    parts = list(ids)
    while ranked := [pair for pair in zip(parts, parts[1:]) if pair in merges]:
        parts = list(replace_pair(tuple(parts), min(ranked), merges[min(ranked)]))
    return parts


SMALLEST_PAIR_HINT = "min(pairs) with no key compares the pairs themselves, by their ids, not by when they were learned"
LOWEST_RANK_FIX = (
    "Merge the pair with the lowest new id first: min(pairs, key=lambda pair: merges.get(pair, float('inf')))"
)


def _by_pair_ids(attempt: Any) -> str | None:
    """The pair with the smallest ids taken first, again and again, or every merge replayed in the order of its pair:
    the two give one answer on most inputs, so the hint names what every answer fits (on one check alone, the
    leftmost pair with a rank can give the same answer)."""

    def fits(wrong: Any) -> bool:
        return attempt.got == wrong(*attempt.args) and all(got == wrong(*args) for args, got in attempt.history())

    looped, replayed = fits(_smallest_pair_first), fits(_sorted_pairs)
    if looped and replayed:
        return (
            "you took the pairs in the order of their ids: either min(pairs) on each step, or every merge replayed "
            f"as sorted(merges.items()) lists them. {SMALLEST_PAIR_HINT[0].upper()}{SMALLEST_PAIR_HINT[1:]}. "
            + LOWEST_RANK_FIX
        )
    if looped:
        return f"you merged the pair with the smallest ids first: {SMALLEST_PAIR_HINT}. {LOWEST_RANK_FIX}"
    if replayed:
        return (
            "you replayed the merges sorted by their pairs: sorted(merges.items()) orders them by the ids in each "
            "pair, not by when they were learned. Merge the pair with the lowest new id first (or replay "
            "sorted(merges.items(), key=lambda kv: kv[1]))"
        )
    return None


def _first_in_text(ids: list[int], merges: dict[tuple[int, int], int]) -> list[int]:
    """Merge the leftmost pair that has any rank, whatever its rank."""
    return _loop(ids, merges, lambda ranked: min(ranked, key=lambda r: r[1]))


def _answer_for_other_merges(attempt: Any) -> bool:
    """A wrong answer that is the right one for the same ids with other merges, given on another check: the function
    remembers its answers keyed without the merges (the ids alone, or with len(merges))."""
    ids, merges = attempt.args
    for (other_ids, other_merges), _ in attempt.history():
        if list(other_ids) == list(ids) and other_merges != merges:
            answer = reference_merge_lowest_rank(other_ids, other_merges)
            if attempt.got == answer and answer != attempt.expected:
                return True
    return False


CACHE_HINT = (
    "your function seems to remember its answers between calls, keyed without the merges (by the ids alone, or by "
    "(tuple(ids), len(merges))): the same ids with other merges of the same size get the answer of the first call. "
    "A cache from piece to ids, as in the lesson's caching section, belongs to one set of merges; here, merge "
    "afresh at each call with the merges you are given"
)


# ids 97 'a', 98 'b', 99 'c', 100 'd'; new ids from 256 in the order learned
TOY_MERGES = {(97, 98): 256, (99, 100): 257, (256, 257): 258, (98, 99): 259, (97, 97): 260}


@lru_cache(maxsize=1)
def _sample_merges() -> dict[tuple[int, int], int]:
    """The 58 byte-level merges the sample paragraph gives (GPT-2 split): after them no pair occurs twice."""
    from bpelab.byte_level import BPETokenizer
    from bpelab.exercises.samples import PARAGRAPH

    return dict(BPETokenizer().train(PARAGRAPH, 256 + 58, pattern="gpt2").merges)


MERGE_LOWEST = Exercise(
    name="merge_lowest_rank",
    call="merge_lowest_rank(ids, merges)",
    reference=reference_merge_lowest_rank,
    solution=(reference_merge_lowest_rank, merge_by_rank),
    course_functions=(merge_by_rank,),
    cases=lambda: [
        Case(([97, 98], TOY_MERGES), [256], "ab: one merge"),
        Case(([99, 100, 101], TOY_MERGES), [257, 101], "cde: 'e' (101) has no merge"),
        Case(
            ([97, 98, 99, 100], TOY_MERGES),
            [258],
            "abcd: b + c (259) is there too, but a + b (256) and c + d (257) rank lower, and then 256 + 257 -> 258",
        ),
        Case(
            ([98, 99, 100], TOY_MERGES),
            [98, 257],
            "bcd: b + c (259) and c + d (257) both want the 'c': c + d ranks lower, so it merges and b stays alone",
        ),
        Case(([97, 97, 97], TOY_MERGES), [260, 97], "aaa: two equal pairs; the leftmost merges first"),
        Case(
            ([97, 98, 99], {(98, 99): 257, (97, 98): 256}),
            [256, 99],
            "abc with a dict that lists b + c (257) before a + b (256): a + b has the lower new id, so it merges "
            "first, and then 'c' is alone",
        ),
        Case(
            ([100, 97, 98], {(100, 97): 256, (97, 98): 257}),
            [256, 98],
            "dab: d + a (256) was learned before a + b (257), though the pair (97, 98) sorts first",
        ),
        Case(
            ([97, 98, 99], {(97, 98): 256}),
            [256, 99],
            "abc with the one merge a + b (256)",
        ),
        Case(
            ([97, 98, 99], {(98, 99): 256}),
            [97, 256],
            "abc again, with another merge of the same number: b + c (256); the same ids, other merges, another answer",
        ),
        Case(
            ([97, 98, 99], {(98, 99): 256, (97, 256): 257}),
            [257],
            "abc where b + c (256) makes the pair a + 256 (257), which sorts before (98, 99): it merges next",
        ),
        Case(([101, 102], TOY_MERGES), [101, 102], "no pair has a rank: nothing changes"),
        Case(([97], TOY_MERGES), [97], "one id: nothing to merge"),
        Case(([], TOY_MERGES), [], "an empty piece"),
        Case(
            (list(b" lighthouse"), _sample_merges()), note="' lighthouse' with the 58 merges learned from a paragraph"
        ),
        Case((list(b" windows"), _sample_merges()), note="' windows' with the same merges"),
    ],
    diagnosers=[
        when(lambda a: not isinstance(a.got, list), "return a list of ids", any_type=True),
        when(_answer_for_other_merges, CACHE_HINT),
        same_as(_one_pass, "keep going after the first merge: merge again until no adjacent pair has a rank"),
        same_as(
            _highest_first,
            "you merged the highest rank first; merge the LOWEST rank (the smallest new id) first: "
            "it was learned earliest",
        ),
        same_as(
            _rightmost_on_ties, "on equal ranks take the leftmost pair: ('a', 'a', 'a') becomes [aa, a], not [a, aa]"
        ),
        same_as(
            _dict_order,
            "you replayed the merges in the order the dict lists them; a dict need not list them in rank order. "
            "Merge the pair with the lowest new id first (or replay sorted(merges.items(), key=lambda kv: kv[1]))",
        ),
        _by_pair_ids,
        same_as(
            _first_in_text,
            "you merged the leftmost pair that has a rank; merge the pair with the lowest rank, wherever it is",
        ),
    ],
    hint="loop: list the ranks of all adjacent pairs (merges.get((a, b))); if none, stop; take the lowest "
    "(leftmost on ties), replace the two ids by the new id, and look again",
)


def check_merge_lowest_rank(merge_lowest_rank: Any, *, record: bool = True) -> CheckResult:
    """Check ``merge_lowest_rank(ids, merges) -> list of ids`` against ``bpelab.merging.merge_by_rank``."""
    return MERGE_LOWEST.check(merge_lowest_rank, record=record)
