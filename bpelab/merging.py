"""Merging pairs: the one operation training and encoding share.

Training (``bpelab.words``, ``bpelab.fast``) replaces one pair everywhere it occurs
(``replace_pair``); the small checks every trainer makes on its arguments live here too, so that
the trainers import them from one place that imports nothing of theirs.

Encoding one piece: merge the adjacent pair of lowest rank, again and again.

Replaying every learned merge in order (lesson 05) is correct but slow: it tries every merge,
even the thousands that never apply. Real encoders turn the list around. They look at the
pairs that are actually next to each other, merge the one learned earliest (lowest rank),
and repeat until no adjacent pair has a rank. Ties go to the leftmost pair, as in tiktoken.

One rule, two ways to find that pair, chosen by the piece's length (tiktoken does the same):

- a short piece (almost every piece of ordinary text) keeps a plain list of the ranks of its
  adjacent pairs and asks ``min`` for the lowest: little bookkeeping, so it is the faster way;
- a long piece (a megabyte of "a" is one piece) would make that rescan quadratic, so it keeps
  a heap of candidate pairs and a linked list of parts: O(n log n). A popped entry whose pair
  has changed since it was pushed is simply skipped.

A long piece can often be cut first (``SafeCuts``): where no token of the vocabulary can span a
point, no merge ever crosses it, so the parts on either side encode on their own to exactly the
ids the whole would give. 200 KB of one emoji is one piece; cut between the emoji, it is 50,000
copies of one small part, encoded once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from heapq import heapify, heappop, heappush
from typing import Literal, TypeVar

S = TypeVar("S", bound=Hashable)
TieBreak = Literal["first", "lexicographic"]
TIE_BREAKS: tuple[str, ...] = ("first", "lexicographic")

RankOf = Callable[[int, int], "int | None"]
"""Given two adjacent token ids, the id of the token they merge into, or None if they don't."""
OnMerge = Callable[[int, int, int], None]
"""Told ``(left_id, right_id, new_id)`` for each merge, in the order they happen (to replay them)."""

LONG_PIECE = 100
"""Pieces of at least this many parts use the heap; shorter ones the list scan."""
_NO_RANK = 1 << 62  # stands for "these two do not merge" in the scan: larger than any rank, never the minimum


def replace_pair(symbols: tuple[S, ...], pair: tuple[S, S], new_symbol: S) -> tuple[S, ...]:
    """Replace every occurrence of ``pair`` in ``symbols``, scanning left to right without overlaps.

    ``('a', 'a', 'a')`` with ``('a', 'a')`` gives ``('aa', 'a')``: the scan consumes both symbols
    of a match before it looks for the next one. Symbols can be strings (word-level BPE) or
    token ids (byte-level BPE); the rule is the same.
    """
    first, second = pair
    merged: list[S] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == first and symbols[i + 1] == second:
            merged.append(new_symbol)
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def check_merge_count(num_merges: object, what: str = "num_merges") -> int:
    """``num_merges`` as a count of merges: an int, 0 or more."""
    if isinstance(num_merges, bool) or not isinstance(num_merges, int):
        raise TypeError(f"{what} must be an int, got {type(num_merges).__name__}")
    if num_merges < 0:
        raise ValueError(f"{what} must be 0 or more, got {num_merges}")
    return num_merges


def check_tie_break(tie_break: object) -> None:
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")


def merge_by_rank(ids: list[int], rank_of: RankOf, on_merge: OnMerge | None = None) -> list[int]:
    """Merge ``ids`` until no adjacent pair has a rank; the merged token's id is its rank."""
    if len(ids) < LONG_PIECE:
        return _merge_by_scanning(ids, rank_of, on_merge)
    return _merge_with_heap(ids, rank_of, on_merge)


def _merge_by_scanning(ids: list[int], rank_of: RankOf, on_merge: OnMerge | None) -> list[int]:
    """The rule written plainly: find the lowest rank among adjacent pairs, merge it, repeat."""
    parts = list(ids)
    # ranks[i]: the rank of the pair parts[i], parts[i + 1]; pairs that do not merge get _NO_RANK.
    ranks = [_NO_RANK if (r := rank_of(a, b)) is None else r for a, b in zip(parts, parts[1:])]
    while ranks:
        lowest = min(ranks)
        if lowest == _NO_RANK:
            break
        i = ranks.index(lowest)  # the leftmost pair of that rank
        if on_merge is not None:
            on_merge(parts[i], parts[i + 1], lowest)
        parts[i] = lowest
        del parts[i + 1]
        del ranks[i]
        if i < len(ranks):  # the merged token and its right neighbour
            r = rank_of(lowest, parts[i + 1])
            ranks[i] = _NO_RANK if r is None else r
        if i > 0:  # its left neighbour and the merged token
            r = rank_of(parts[i - 1], lowest)
            ranks[i - 1] = _NO_RANK if r is None else r
    return parts


def _merge_with_heap(ids: list[int], rank_of: RankOf, on_merge: OnMerge | None) -> list[int]:
    """The same rule for long pieces: a heap finds the lowest pair without rescanning."""
    n = len(ids)
    tokens = list(ids)  # tokens[i] is -1 once part i has been absorbed by its left neighbour
    right = list(range(1, n + 1))
    right[-1] = -1
    left = list(range(-1, n - 1))
    # rank_at[i]: the rank of the pair that part i forms with its right neighbour right now, or None.
    rank_at = [rank_of(a, b) for a, b in zip(tokens, tokens[1:])] + [None]

    # A heap entry is the number rank * n + i: it orders by rank, then leftmost first, exactly like
    # the tuple (rank, i), but numbers compare faster than tuples (a megabyte of "a" pops ~2 million).
    heap = [rank * n + i for i, rank in enumerate(rank_at) if rank is not None]
    heapify(heap)

    while heap:
        rank, i = divmod(heappop(heap), n)
        if rank_at[i] != rank:
            continue  # stale: part i was absorbed, or its pair changed since this entry was pushed
        j = right[i]
        if on_merge is not None:
            on_merge(tokens[i], tokens[j], rank)
        tokens[i] = rank
        tokens[j] = -1
        rank_at[j] = None
        k = right[j]
        right[i] = k
        new = None
        if k >= 0:
            left[k] = i
            new = rank_of(rank, tokens[k])
            if new is not None:
                heappush(heap, new * n + i)
        rank_at[i] = new
        p = left[i]
        if p >= 0:
            rank_at[p] = new = rank_of(tokens[p], rank)
            if new is not None:
                heappush(heap, new * n + p)
    return [t for t in tokens if t >= 0]


class SafeCuts:
    """Where a long piece can be cut into parts that encode on their own, exactly as the whole would.

    A merge that crosses the point ``p`` (between bytes ``p - 1`` and ``p``) makes a token that holds
    bytes from both sides of ``p``, and every token a merge makes is in the vocabulary. So if no token
    of the vocabulary could sit across ``p``, no merge ever crosses it: the merges on the left of ``p``
    and those on its right never meet, and encoding the two sides apart gives the same ids.

    A token across ``p`` would cover the bytes ``piece[p-1:p+1]``, and then either be exactly those
    two bytes, or start with ``piece[p-1:p+2]``, or end with ``piece[p-2:p+1]``, or contain
    ``piece[p-2:p+2]``: four set lookups rule it out. Only points next to a character of two or
    more bytes are tried (long runs of ASCII letters are left to the heap), so only tokens that
    hold such a byte need indexing.
    """

    _TRIED = re.compile(rb"[\xc0-\xff]|(?<=[\x80-\xff])[\x00-\x7f]")
    """Points where a character starts and a multi-byte character is on at least one side of it."""

    def __init__(self, tokens: Iterable[bytes]) -> None:
        wide = [t for t in tokens if len(t) >= 2 and not t.isascii()]
        self.pairs = {t[i : i + 2] for t in wide for i in range(len(t) - 1)}
        self.two_byte = {t for t in wide if len(t) == 2}
        self.starts = {t[:3] for t in wide if len(t) >= 3}
        self.ends = {t[-3:] for t in wide if len(t) >= 3}
        self.insides = {t[i : i + 4] for t in wide for i in range(len(t) - 3)}
        self.known: dict[bytes, bool] = {}
        """The answer for each four-byte window met so far (repetitive text meets few)."""

    def can_cut(self, window: bytes) -> bool:
        """Can no token sit across the middle of this four-byte window ``piece[p-2:p+2]``?"""
        middle = window[1:3]
        if middle not in self.pairs:
            return True
        return not (
            middle in self.two_byte or window[1:] in self.starts or window[:3] in self.ends or window in self.insides
        )

    def split(self, piece: bytes) -> list[bytes]:
        """``piece`` cut at every point no token can cross (the parts join back to ``piece``)."""
        known, cuts, last = self.known, [0], len(piece) - 2
        for match in self._TRIED.finditer(piece):
            p = match.start()
            if 2 <= p <= last:
                window = piece[p - 2 : p + 2]
                ok = known.get(window)
                if ok is None:
                    ok = known[window] = self.can_cut(window)
                if ok:
                    cuts.append(p)
        cuts.append(len(piece))
        return [piece[a:b] for a, b in zip(cuts, cuts[1:])]
