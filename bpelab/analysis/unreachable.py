"""Tokens a tokenizer never produces (lesson 15): unreachable from their own text, or unseen in a corpus.

A production vocabulary has tokens that encoding never emits:

- **unreachable**: encoding the token's own text gives other tokens. The split pattern may never yield that
  text as one piece (o200k_base has ``" I'"``, but its pattern cuts ``" I"`` from ``"'"``), so BPE never sees
  the bytes together. A token whose bytes are not valid UTF-8 alone (half a character) has no text of its own
  to encode: it is counted apart, never guessed.
- **made by no merge**: Llama 3 has tokens that no sequence of merges builds from bytes; tiktoken's encoder
  still emits one when a whole piece of text is exactly that token (it looks whole pieces up first), so they
  are reachable, but only as whole pieces.
- **unseen**: reachable, but absent from the text at hand.

A model learns an embedding row for a token only from training text that contains it. Land & Bartolo (2024,
*Fishing for Magikarp*, arXiv:2405.05417) find under-trained ("glitch") tokens from a model's weights; the
tokenizer alone can only point at candidates, which is what these functions do.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import tiktoken

from bpelab.merging import merge_by_rank
from bpelab.production import mergeable_ranks


@dataclass
class RoundTrip:
    """What encoding each token's own text gives, for one vocabulary."""

    name: str
    tokens: int
    not_utf8: list[int] = field(default_factory=list)
    """Ids whose bytes are not valid UTF-8 on their own (part of a character): no text to encode."""
    unreachable: list[tuple[int, bytes, list[int]]] = field(default_factory=list)
    """(id, bytes, what encoding the decoded text gives instead), in id order."""


def round_trip(encoding: tiktoken.Encoding, *, progress: bool = False) -> RoundTrip:
    """Encode every token's text with ``encoding`` and keep the tokens that do not come back as themselves."""
    from tqdm.auto import tqdm

    ranks = mergeable_ranks(encoding)
    report = RoundTrip(encoding.name, len(ranks))
    for token, rank in tqdm(sorted(ranks.items(), key=lambda item: item[1]), disable=not progress, desc=encoding.name):
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            report.not_utf8.append(rank)
            continue
        ids = encoding.encode_ordinary(text)
        if ids != [rank]:
            report.unreachable.append((rank, token, ids))
    return report


def made_by_no_merge(encoding: tiktoken.Encoding, *, progress: bool = False) -> list[int]:
    """Ids of the tokens of two or more bytes that merging by rank never builds from their own bytes."""
    from tqdm.auto import tqdm

    ranks = mergeable_ranks(encoding)
    vocab = {rank: token for token, rank in ranks.items()}
    byte_ids = [ranks[bytes([b])] for b in range(256)]

    def rank_of(a: int, b: int) -> int | None:
        return ranks.get(vocab[a] + vocab[b])

    never = []
    for token, rank in tqdm(ranks.items(), disable=not progress, desc=f"{encoding.name}: merges"):
        if len(token) > 1 and merge_by_rank([byte_ids[b] for b in token], rank_of) != [rank]:
            never.append(rank)
    return sorted(never)


def ids_produced(encoding: tiktoken.Encoding, texts: Iterable[str]) -> set[int]:
    """Every id that encoding ``texts`` produces (ordinary text: special tokens are never produced)."""
    seen: set[int] = set()
    for text in texts:
        seen.update(encoding.encode_ordinary(text))
    return seen
