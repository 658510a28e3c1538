"""Replaying merges one at a time, so that a lesson can show each one (the merge stepper).

Two questions a picture of BPE has to answer at every step:

- where, in a word, did a merge just happen (or is about to)? ``merge_sites`` finds it by lining
  up the word before and after the merge, without running the merge again;
- how does a byte-level tokenizer (yours, or GPT-4's) build one word? ``replay_word`` runs the
  real encoder (``bpelab.merging.merge_by_rank``) and records every merge it reports.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bpelab.byte_level import BPETokenizer
from bpelab.merging import merge_by_rank
from bpelab.patterns import split_text
from bpelab.production import from_tiktoken
from bpelab.words import MergeStep

S = TypeVar("S", bound=Hashable)


def merge_sites(before: Sequence[S], after: Sequence[S]) -> list[tuple[int, int]]:
    """Where a merge turned ``before`` into ``after``: ``(i, j)`` for each merged spot, meaning
    ``before[i]`` and ``before[i + 1]`` became ``after[j]``.

    A merged symbol always differs from its left part (it is longer, or a new id), so walking
    the two sequences side by side tells copies from merges.

    >>> merge_sites(("l", "o", "w"), ("lo", "w"))
    [(0, 0)]
    """
    sites = []
    i = 0
    for j, symbol in enumerate(after):
        if i >= len(before):
            raise ValueError(f"{tuple(after)!r} is not {tuple(before)!r} after one merge: it is longer than expected")
        if symbol == before[i]:
            i += 1
        else:
            sites.append((i, j))
            i += 2
    if i != len(before):
        raise ValueError(f"{tuple(after)!r} is not {tuple(before)!r} after one merge")
    return sites


@dataclass
class WordReplay:
    """How a byte-level tokenizer encodes one text, merge by merge.

    Shaped like a ``TrainingResult`` so the merge stepper can show it, with one difference:
    the encoder does not count pairs, it merges the adjacent pair of LOWEST RANK (learned
    earliest). So each step's ``pair_counts`` holds the rank of every adjacent pair that has
    one, in the piece being merged, and ``count`` is the rank of the merged pair.
    """

    text: str
    initial_word_freq: dict[tuple[int, ...], int]
    steps: list[MergeStep[int]]
    token_bytes: dict[int, bytes]
    """The bytes of every id that appears in the replay."""
    encoded: list[int]
    """What the tokenizer's own ``encode`` gives for the text (ordinary text, no specials)."""
    replayed: list[int]
    """The ids the merges end with, piece after piece in text order."""
    name: str = ""
    score_name: str = field(default="rank")
    lower_wins: bool = field(default=True)

    @property
    def merges(self) -> list[tuple[tuple[int, int], int]]:
        return [(step.pair, step.new_symbol) for step in self.steps]

    @property
    def agrees(self) -> bool:
        """False when the encoder found a whole piece in its vocabulary that no merge builds
        (Llama 3 has a few hundred such tokens); the replay then ends with more parts."""
        return self.encoded == self.replayed

    def __repr__(self) -> str:
        return f"WordReplay({self.name or 'tokenizer'}: {self.text!r}, {len(self.steps)} merges, {len(self.replayed)} tokens)"


def _as_tokenizer(tokenizer: object) -> BPETokenizer:
    if isinstance(tokenizer, BPETokenizer):
        return tokenizer
    try:  # a tiktoken Encoding or one of the course's encoding names
        return from_tiktoken(tokenizer)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            "replay_word needs a byte-level tokenizer: a BPETokenizer, a tiktoken Encoding, or one of "
            f"'r50k_base', 'cl100k_base', 'o200k_base', 'llama3'; got {type(tokenizer).__name__}"
        ) from None


def _leftmost(ids: list[int], pair: tuple[int, int]) -> int:
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return i
    raise AssertionError(f"the encoder reported merging {pair}, which is not adjacent in {ids}")


def _recorder(events: list[tuple[int, int, int]]) -> Callable[[int, int, int], None]:
    """A callback that writes each merge the encoder reports, ``(left, right, new)``, into ``events``."""

    def record(left: int, right: int, new: int) -> None:
        events.append((left, right, new))

    return record


def replay_word(tokenizer: object, text: str) -> WordReplay:
    """Record every merge the tokenizer's encoder makes on ``text``, in order.

    The text is split with the tokenizer's pattern; each distinct piece is merged in turn by
    ``merge_by_rank``, which reports each merge as ``(left, right, new)``. Among equal ranks the
    encoder merges the leftmost pair, so each reported merge is applied at the leftmost place
    where that pair stands: this rebuilds every intermediate state exactly.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    tok = _as_tokenizer(tokenizer)
    start, rank_of = tok.start_ids, tok.rank_function()  # exactly what the tokenizer's encoder uses
    pieces = [piece.encode("utf-8") for piece in split_text(text, tok.pattern)]
    counts: dict[bytes, int] = {}
    for piece in pieces:
        counts[piece] = counts.get(piece, 0) + 1
    state = {piece: tuple(start(piece)) for piece in counts}
    initial = {state[piece]: n for piece, n in counts.items()}
    steps: list[MergeStep[int]] = []
    for piece in counts:
        events: list[tuple[int, int, int]] = []
        final = merge_by_rank(list(state[piece]), rank_of, on_merge=_recorder(events))
        current = list(state[piece])
        for left, right, new in events:
            scores: dict[tuple[int, int], int] = {}
            for pair in zip(current, current[1:]):
                rank = rank_of(*pair)
                if rank is not None:
                    scores.setdefault(pair, rank)
            i = _leftmost(current, (left, right))
            current[i : i + 2] = [new]
            state[piece] = tuple(current)
            word_freq = {state[p]: n for p, n in counts.items()}
            steps.append(MergeStep(len(steps) + 1, scores, (left, right), scores[(left, right)], word_freq, new))
        assert current == final, "replaying the reported merges must end where the encoder ended"
    ids_used = {i for ids in initial for i in ids} | {i for ids in state.values() for i in ids}
    ids_used |= {s.new_symbol for s in steps}
    encoded = tok.encode_ordinary(text)
    ids_used |= set(encoded)
    return WordReplay(
        text=text,
        initial_word_freq=initial,
        steps=steps,
        token_bytes={i: tok.vocab[i] for i in sorted(ids_used)},
        encoded=encoded,
        replayed=[i for piece in pieces for i in state[piece]],
        name=getattr(tok, "name", "") or type(tok).__name__,
    )
