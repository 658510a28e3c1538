"""Encoding one piece: merge the adjacent pair of lowest rank, again and again.

Replaying every learned merge in order (lesson 05) is correct but slow: it tries every merge,
even the thousands that never apply. Real encoders turn the list around. They look at the
pairs that are actually next to each other, merge the one learned earliest (lowest rank),
and repeat until no adjacent pair has a rank. Ties go to the leftmost pair, as in tiktoken.

A heap of candidate pairs with a linked list of parts keeps this O(n log n) even for one
enormous piece (a megabyte of "a"), where rescanning the whole list after every merge would
be quadratic. A popped entry whose pair has changed since it was pushed is simply skipped.
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import Callable

RankOf = Callable[[int, int], "int | None"]
"""Given two adjacent token ids, the id of the token they merge into, or None if they don't."""
OnMerge = Callable[[int, int, int], None]
"""Told ``(left_id, right_id, new_id)`` for each merge, in the order they happen (to replay them)."""


def merge_by_rank(ids: list[int], rank_of: RankOf, on_merge: OnMerge | None = None) -> list[int]:
    """Merge ``ids`` until no adjacent pair has a rank; the merged token's id is its rank."""
    n = len(ids)
    if n < 2:
        return list(ids)
    tokens = list(ids)  # tokens[i] is -1 once part i has been absorbed by its left neighbour
    right = list(range(1, n + 1))
    right[-1] = -1
    left = list(range(-1, n - 1))

    heap: list[tuple[int, int]] = []
    for i in range(n - 1):
        rank = rank_of(tokens[i], tokens[i + 1])
        if rank is not None:
            heap.append((rank, i))
    heapify(heap)

    while heap:
        rank, i = heappop(heap)
        j = right[i]
        if tokens[i] < 0 or j < 0 or rank_of(tokens[i], tokens[j]) != rank:
            continue  # stale: one side was merged away or changed since this entry was pushed
        if on_merge is not None:
            on_merge(tokens[i], tokens[j], rank)
        tokens[i] = rank
        tokens[j] = -1
        k = right[j]
        right[i] = k
        if k >= 0:
            left[k] = i
            new = rank_of(rank, tokens[k])
            if new is not None:
                heappush(heap, (new, i))
        p = left[i]
        if p >= 0:
            new = rank_of(tokens[p], rank)
            if new is not None:
                heappush(heap, (new, p))
    return [t for t in tokens if t >= 0]
