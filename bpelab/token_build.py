"""How one token was built: the merges that make it from its bytes, step by step and as a tree.

A learner who asks "why is ` Kubernetes` one token in GPT-4o, and how did it get there?" can be
answered from the vocabulary alone, as lesson 07 recovers merges from ranks. A token of rank r was
made by joining two tokens that existed before it: run BPE on its bytes with only the ranks below r
(merge the adjacent pair whose joined bytes rank lowest, leftmost on a tie, as tiktoken does) and
the two parts it stops at are its parents. Each parent was built the same way, down to single
bytes: that is the tree. The steps are the tree's merges in rank order, the order they were learned.

For GPT-2, GPT-4 and GPT-4o these are exactly the steps tiktoken's rank-merge loop takes on the
token's bytes. Llama 3 differs twice. Some of its tokens have no parents: BPE below their rank stops
at three parts or more (how Meta added them is not documented). They are reported unreachable,
with the parts merging stops at, each built as far as it goes, and every cut of the token into two
older tokens (``halves``; each of Llama 3's has one at least), never with an invented tree. And such
a token can still be a part of a longer one: inside ` температу` (rank 104922) BPE below that rank
makes `ерату` (rank 102530, no parents of its own) through a part ranked above it. A node takes its
own parents where it has them, so it ranks above its children; a node without them takes the two
parts it was made of inside the longer token, the run that made it, which is what tiktoken's loop
does there. The steps are the tree's merges in rank order, each as soon as its two parts exist.

A learner's own ``BPETokenizer`` keeps its merge log, which says outright which two tokens each
merge joined: the tree is read from it, and its steps numbered by merge (1 = learned first).

Bytes stay bytes here: a part that is half a character is not valid UTF-8 alone, and the display
decides how to draw it. ``bpelab/widgets/static/token_build.js`` is the same algorithm for the
page; tests/test_token_build.py holds the two equal, halves included.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

from bpelab.merging import merge_by_rank

if TYPE_CHECKING:  # only named in a signature: byte_level's own imports reach this module
    from bpelab.byte_level import BPETokenizer

Merge = tuple[tuple[str, str], str]
"""One merge of a word-level tokenizer's log: ((left, right), merged)."""
RankLookup = Callable[[bytes], "int | None"]
"""The rank of a byte string if it is a token of the vocabulary, else None."""
Numbering = Literal["rank", "merge", "score"]
"""What a step's ``number`` counts: the merged token's rank, its merge number in a learner's log, or its score in a
SentencePiece model (``bpelab.sentencepiece_build``: the highest joins first)."""


class BuildNode(NamedTuple):
    """One token in the tree: its bytes, its id (a rank in a production vocabulary), and the two it joins."""

    token: bytes
    id: int
    children: tuple[BuildNode, ...] = ()  # (left, right), or () for a single byte

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON (bytes as lists of numbers), the shape token_build.js gives."""
        return {"token": list(self.token), "id": self.id, "children": [c.as_dict() for c in self.children]}


class MergeStep(NamedTuple):
    """One merge: the parts before it, the pair at ``position`` and ``position + 1``, the parts after."""

    before: tuple[bytes, ...]
    position: int
    left: bytes
    right: bytes
    id: int
    """The merged token's id (its rank in a production vocabulary)."""
    number: int
    """Its rank (production) or its merge number, 1 = first learned (a learner's tokenizer)."""
    after: tuple[bytes, ...]
    # NamedTuples, not frozen dataclasses: all of Llama 3's 128,000 tokens are built in one test

    def as_dict(self) -> dict[str, object]:
        return {
            "before": [list(p) for p in self.before],
            "position": self.position,
            "left": list(self.left),
            "right": list(self.right),
            "id": self.id,
            "number": self.number,
            "after": [list(p) for p in self.after],
        }


class Halves(NamedTuple):
    """A cut of a token into two tokens that both rank below it: what it joins, though no merge in rank order does."""

    left: bytes
    left_id: int
    right: bytes
    right_id: int

    def as_dict(self) -> dict[str, object]:
        return {"left": list(self.left), "left_id": self.left_id, "right": list(self.right), "right_id": self.right_id}


@dataclass(frozen=True)
class TokenBuild:
    """The whole story of one token: its steps, where they stop, and the tree when they reach it."""

    token: bytes
    id: int
    numbering: Numbering
    reachable: bool
    """False when replaying merges stops at more than one part (a token no merge creates)."""
    steps: tuple[MergeStep, ...]
    parts: tuple[bytes, ...]
    """Where the merging stops: ``(token,)`` when reachable."""
    tree: BuildNode | None = field(default=None)
    """None when the token is not reachable."""
    leaves: Literal["bytes", "symbols", "characters"] = "bytes"
    """What the build starts from: single bytes, a word-level tokenizer's symbols (characters, ``</w>``), or a
    SentencePiece piece's characters."""
    halves: tuple[Halves, ...] = ()
    """When not reachable: every cut of the token into two tokens of lower rank, leftmost cut first."""
    note: str = ""
    """What the panel says besides the steps, when the kind of token needs it (a SentencePiece byte piece)."""

    def as_dict(self) -> dict[str, object]:
        halves = {"halves": [h.as_dict() for h in self.halves]} if not self.reachable else {}
        note = {"note": self.note} if self.note else {}
        return {
            **halves,
            **note,
            "token": list(self.token),
            "id": self.id,
            "numbering": self.numbering,
            "reachable": self.reachable,
            "steps": [s.as_dict() for s in self.steps],
            "parts": [list(p) for p in self.parts],
            "tree": None if self.tree is None else self.tree.as_dict(),
            "leaves": self.leaves,
        }


def _lookup(ranks: Mapping[bytes, int] | RankLookup) -> RankLookup:
    if isinstance(ranks, Mapping):
        return ranks.get
    if callable(ranks):
        return ranks
    raise TypeError(f"ranks must be a mapping from bytes to rank or a function of bytes, got {type(ranks).__name__}")


class TokenBuilder:
    """Builds the tokens of one production vocabulary, remembering every token's pieces on the way.

    A token's parents are found once and reused by every token built on them: building all of
    Llama 3's 128,000 tokens costs about what recovering its merges does.
    """

    def __init__(self, ranks: Mapping[bytes, int] | RankLookup) -> None:
        self.rank_of_bytes = _lookup(ranks)
        self._own: dict[bytes, BuildNode | None] = {}
        self._made_inside: dict[tuple[bytes, int], BuildNode] = {}

    def build(self, token: bytes) -> TokenBuild:
        """The merges that build ``token``, as lesson 07 recovers them, in rank order."""
        if not isinstance(token, bytes) or not token:
            raise ValueError(f"token must be a non-empty bytes object, got {token!r}")
        rank_of_bytes = self.rank_of_bytes
        limit = rank_of_bytes(token)
        if limit is None:
            raise ValueError(
                f"{token!r} is not a token of this vocabulary: pick a token's bytes (decode_single_token_bytes)"
            )
        byte_ranks: dict[int, int] = {}
        for b in token:
            r = rank_of_bytes(bytes([b]))
            if r is None:
                raise ValueError(f"the byte {b} has no rank: this is not a byte-level vocabulary")
            byte_ranks[b] = r
        tree = self._own_tree(token, limit)
        grown = (
            [tree]
            if tree is not None
            else [self._made(p, limit) for p in merge_below_rank(token, limit, rank_of_bytes)]
        )
        steps = _replay(token, _in_rank_order(grown), byte_ranks.__getitem__, lambda rank: rank)
        parts = tuple(n.token for n in grown)
        if tree is None:
            return TokenBuild(
                token, limit, "rank", False, steps, parts, None, halves=_halves(token, limit, rank_of_bytes)
            )
        return TokenBuild(token, limit, "rank", True, steps, parts, tree)

    def _own_tree(self, token: bytes, rank: int) -> BuildNode | None:
        """``token`` joined from its own parents (BPE below its rank stops at two parts), or None when it has none."""
        if token not in self._own:
            tree = None
            if len(token) == 1:
                tree = BuildNode(token, rank)
            else:
                parts = merge_below_rank(token, rank, self.rank_of_bytes)
                if len(parts) == 2:
                    tree = BuildNode(token, rank, (self._made(parts[0], rank), self._made(parts[1], rank)))
            self._own[token] = tree
        return self._own[token]

    def _made(self, part: bytes, limit: int) -> BuildNode:
        """The tree of a ``part`` that BPE below ``limit`` made: its own parents', else how that run made it."""
        rank = self.rank_of_bytes(part)
        assert rank is not None  # every part BPE stops at is a token
        own = self._own_tree(part, rank)
        if own is not None:
            return own
        key = (part, limit)
        if key not in self._made_inside:
            # the run below `limit` joined two parts into it last: the same run, stopped short of the part itself
            left, right = merge_below_rank(part, limit, self.rank_of_bytes)
            self._made_inside[key] = BuildNode(part, rank, (self._made(left, limit), self._made(right, limit)))
        return self._made_inside[key]


def _halves(token: bytes, limit: int, rank_of_bytes: RankLookup) -> tuple[Halves, ...]:
    """Every cut of ``token`` into two tokens whose ranks are below ``limit``, leftmost cut first."""
    found = []
    for k in range(1, len(token)):
        left, right = rank_of_bytes(token[:k]), rank_of_bytes(token[k:])
        if left is not None and right is not None and left < limit and right < limit:
            found.append(Halves(token[:k], left, token[k:], right))
    return tuple(found)


def build_with_ranks(token: bytes, ranks: Mapping[bytes, int] | RankLookup) -> TokenBuild:
    """The merges that build ``token`` in a production vocabulary, as lesson 07 recovers them, in rank order.

    ``ranks`` is the vocabulary's table (``production.mergeable_ranks``) or a function giving a byte
    string's rank or None. To build many tokens of one vocabulary, keep one ``TokenBuilder``.
    """
    return TokenBuilder(ranks).build(token)


def merge_below_rank(token: bytes, limit: int, rank_of_bytes: RankLookup) -> list[bytes]:
    """BPE on ``token``'s bytes with the ranks below ``limit`` only: where it stops (two parts: the parents).

    It never makes ``token`` itself: with ``limit`` its own rank that is the rule already; with a larger one
    (the rank of a longer token it is part of) the two parts it stops at are the ones that run joined last.
    """
    known: dict[int, bytes] = {}
    start = []
    for b in token:
        r = rank_of_bytes(bytes([b]))
        if r is None:
            raise ValueError(f"the byte {b} has no rank: this is not a byte-level vocabulary")
        known[r] = bytes([b])
        start.append(r)

    def below(a: int, b: int) -> int | None:
        joined = known[a] + known[b]
        r = rank_of_bytes(joined)
        if r is None or r >= limit or joined == token:
            return None
        known[r] = joined
        return r

    return [known[r] for r in merge_by_rank(start, below)]


def _in_rank_order(pieces: list[BuildNode]) -> list[tuple[BuildNode, int]]:
    """The trees' merged nodes (with the byte offset each starts at) in the order BPE makes them: of the merges
    whose two parts exist, the lowest rank first, leftmost on a tie. A node made inside a longer token can rank
    below a child of its own: it comes after that child."""
    spans = {(start, start + len(node.token)): (node, start) for node, start in _merges_in(pieces)}

    def parts_made(span: tuple[int, int]) -> bool:
        node, start = spans[span]
        cut = start + len(node.children[0].token)
        return (start, cut) not in spans and (cut, span[1]) not in spans

    order: list[tuple[BuildNode, int]] = []
    while spans:
        span = min(filter(parts_made, spans), key=lambda s: (spans[s][0].id, s[0]))
        order.append(spans.pop(span))
    return order


def _merges_in(pieces: list[BuildNode]) -> list[tuple[BuildNode, int]]:
    """Every merged node of the trees, with the byte offset it starts at."""
    found: list[tuple[BuildNode, int]] = []
    offset = 0
    for piece in pieces:
        stack = [(piece, offset)]
        while stack:
            node, start = stack.pop()
            if node.children:
                found.append((node, start))
                left, right = node.children
                stack += [(left, start), (right, start + len(left.token))]
        offset += len(piece.token)
    return found


def _replay(
    token: bytes, merged: list[tuple[BuildNode, int]], byte_id: Callable[[int], int], number: Callable[[int], int]
) -> tuple[MergeStep, ...]:
    """Apply the merges in the order given, from the single bytes, writing each step down."""
    return _replay_from([BuildNode(bytes([b]), byte_id(b)) for b in token], merged, number)


def _replay_from(
    nodes: list[BuildNode], merged: list[tuple[BuildNode, int]], number: Callable[[int], int]
) -> tuple[MergeStep, ...]:
    """Apply the merges in the order given, from the leaves ``nodes`` (bytes, or a word's symbols)."""
    parts = tuple(n.token for n in nodes)
    steps: list[MergeStep] = []
    for node, start in merged:
        i = _index_at(parts, start)
        left, right = nodes[i], nodes[i + 1]
        nodes[i : i + 2] = [BuildNode(node.token, node.id, (left, right))]
        after = (*parts[:i], node.token, *parts[i + 2 :])
        steps.append(MergeStep(parts, i, left.token, right.token, node.id, number(node.id), after))
        parts = after
    return tuple(steps)


def build_from_merges(token_id: int, tokenizer: BPETokenizer) -> TokenBuild:
    """The merges that built the learner's token ``token_id``, read from the tokenizer's merge log.

    The log says which two tokens each merge joined, so the tree is exact; its merges are stepped
    through in the order they were learned (leftmost first when one merge happens twice).
    """
    parents = {new: pair for pair, new in tokenizer.merges.items()}
    if token_id not in parents and not (0 <= token_id < 256):
        raise ValueError(
            f"id {token_id} is not a byte or a merged token of this tokenizer "
            f"(special tokens are not built by merges): pick an id from tokenizer.merges"
        )
    numbers = {new: k for k, new in enumerate(tokenizer.merges.values(), start=1)}

    def tree(i: int) -> BuildNode:
        if i not in parents:
            return BuildNode(bytes([i]), i)
        a, b = parents[i]
        return BuildNode(tokenizer.vocab[i], i, (tree(a), tree(b)))

    root = tree(token_id)
    merged = sorted(_merges_in([root]), key=lambda m: (m[0].id, m[1]))  # the order learned, leftmost first
    steps = _replay(root.token, merged, lambda b: b, numbers.__getitem__)
    return TokenBuild(root.token, token_id, "merge", True, steps, (root.token,), root)


def build_from_word_merges(symbol: str, merges: Sequence[Merge], vocabulary: Sequence[str]) -> TokenBuild:
    """How a word-level tokenizer's symbol (``"low</w>"``) was built, read from its merge log (lesson 03's
    ``TrainingResult.merges``, ``((left, right), merged)`` in the order learned; ids are positions in
    ``vocabulary``, the first one for a symbol listed twice).

    The leaves are the symbols a word starts as (its characters, and ``</w>``); bytes here are their
    UTF-8, so the steps have the shape the panel draws. When two merges made the same symbol, the tree
    takes the first learned. Steps are numbered by merge, 1 = learned first.
    """
    ids: dict[str, int] = {}
    for i, known in enumerate(vocabulary):
        ids.setdefault(known, i)
    if symbol not in ids:
        raise ValueError(
            f"{symbol!r} is not in this tokenizer's vocabulary (a character never seen in training): no merge built it"
        )
    parents: dict[str, tuple[str, str]] = {}
    numbers: dict[int, int] = {}
    for k, ((left, right), made) in enumerate(merges, start=1):
        if made not in parents:
            parents[made] = (left, right)
            numbers[ids[made]] = k

    def tree(s: str) -> BuildNode:
        if s not in parents:
            return BuildNode(s.encode("utf-8"), ids[s])
        left, right = parents[s]
        return BuildNode(s.encode("utf-8"), ids[s], (tree(left), tree(right)))

    root = tree(symbol)
    leaves: list[BuildNode] = []
    stack = [root]
    while stack:  # the leaves, left to right
        node = stack.pop()
        if node.children:
            stack += [node.children[1], node.children[0]]
        else:
            leaves.append(node)
    merged = sorted(_merges_in([root]), key=lambda m: (numbers[m[0].id], m[1]))  # the order learned
    steps = _replay_from(leaves, merged, numbers.__getitem__)
    return TokenBuild(root.token, root.id, "merge", True, steps, (root.token,), root, "symbols")


def _index_at(parts: tuple[bytes, ...], start: int) -> int:
    """The index of the part that begins at byte ``start``."""
    offset = 0
    for i, part in enumerate(parts):
        if offset == start:
            return i
        offset += len(part)
    raise AssertionError(f"no part starts at byte {start}")  # pragma: no cover - children tile their parent


__all__ = [
    "BuildNode",
    "Halves",
    "MergeStep",
    "RankLookup",
    "TokenBuild",
    "TokenBuilder",
    "build_from_merges",
    "build_from_word_merges",
    "build_with_ranks",
    "merge_below_rank",
]
