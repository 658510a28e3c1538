"""Tokens a tokenizer does not produce from their own text, tokens no text produces, tokens merging by rank does
not build, tokens a corpus does not use (lesson 15).

- **not produced from their own text**: encoding the token's text alone gives other tokens. The split pattern
  cuts that text in two (o200k_base has ``" I'"``, but its pattern cuts ``" I'"`` alone into ``" I"`` and
  ``"'"``). Inside longer text the same bytes can sit in one piece, and the token is produced there
  (``" I'M HERE"`` gives ``" I'"``, ``"M"``, ``" HERE"``): the round trip alone proves nothing about other text,
  so ``produced_in`` looks for a text that produces the token, in a corpus and in generated contexts.
- **not valid UTF-8 alone**: the token's bytes do not decode, so it has no text of its own to encode.
  ``inside_utf8`` says whether the bytes can sit inside some valid UTF-8 text (most such tokens are pieces of
  multi-byte characters and can), or not: the single bytes C0, C1 and F5 to FF occur in no UTF-8 text
  (RFC 3629, section 1), so encoding text never produces them.
- **not built by lowest-rank-first merging**: Llama 3 has tokens that merging a token's bytes by rank (the
  lowest-ranked pair first) never reaches, although each is two lower-ranked tokens joined (``lower_rank_halves``),
  so some other order of merges builds it. tiktoken's encoder still emits one when a whole piece of text is exactly
  that token (it looks whole pieces up first).
- **unused**: absent from the text at hand.

How well a model learned a token depends on how often its training text held it, which a tokenizer cannot say.
Land & Bartolo (2024, *Fishing for Magikarp*, arXiv:2405.05417) find under-trained ("glitch") tokens from a
model's weights; the tokenizer alone can only point at candidates, which is what these functions do.
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
    """Ids whose bytes are not valid UTF-8 on their own: no text to encode (``inside_utf8`` says which can sit
    inside valid text)."""
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


_UTF8_CHARACTERS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0x00, 0x7F),),
    ((0xC2, 0xDF), (0x80, 0xBF)),
    ((0xE0, 0xE0), (0xA0, 0xBF), (0x80, 0xBF)),
    ((0xE1, 0xEC), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xED, 0xED), (0x80, 0x9F), (0x80, 0xBF)),
    ((0xEE, 0xEF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF0, 0xF0), (0x90, 0xBF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF1, 0xF3), (0x80, 0xBF), (0x80, 0xBF), (0x80, 0xBF)),
    ((0xF4, 0xF4), (0x80, 0x8F), (0x80, 0xBF), (0x80, 0xBF)),
)
"""The byte ranges of every well-formed UTF-8 character, position by position (RFC 3629, section 4; the Unicode
Standard's table "Well-Formed UTF-8 Byte Sequences"): no overlong forms, no surrogates, nothing above U+10FFFF."""

_CHARACTER_STARTS = frozenset((row, 0) for row in range(len(_UTF8_CHARACTERS)))


def inside_utf8(token: bytes) -> bool:
    """Whether ``token`` occurs somewhere in some valid UTF-8 text, where it may begin and end inside characters
    (a piece of one character, or the end of one and the start of the next).

    Reads the bytes against every place they could start (any position inside any form of character) and keeps
    the places that are still possible; the bytes fit if one survives to the end. ``b"\\xe4\\xb8"`` (the start of
    ``中``) fits; ``b"\\xc0"`` and ``b"\\x80" * 4`` do not.
    """
    places = {(row, at) for row, ranges in enumerate(_UTF8_CHARACTERS) for at in range(len(ranges))}
    for byte in token:
        following: set[tuple[int, int]] = set()
        for row, at in places:
            low, high = _UTF8_CHARACTERS[row][at]
            if low <= byte <= high:
                if at + 1 < len(_UTF8_CHARACTERS[row]):
                    following.add((row, at + 1))
                else:
                    following |= _CHARACTER_STARTS  # the character is complete: any character may follow
        places = following
        if not places:
            return False
    return True


def lower_rank_halves(encoding: tiktoken.Encoding) -> dict[int, tuple[int, int] | None]:
    """For every token of two or more bytes: two tokens of lower rank that join into it (the first such split,
    left part shortest), or None if it has none. If no token has None, every token can be built from bytes by some
    order of merges (each part is a byte or is built the same way, from tokens of lower rank still)."""
    ranks = mergeable_ranks(encoding)
    halves: dict[int, tuple[int, int] | None] = {}
    for token, rank in ranks.items():
        if len(token) < 2:
            continue
        halves[rank] = None
        for cut in range(1, len(token)):
            left, right = ranks.get(token[:cut]), ranks.get(token[cut:])
            if left is not None and right is not None and left < rank and right < rank:
                halves[rank] = (left, right)
                break
    return halves


def made_by_no_merge(encoding: tiktoken.Encoding, *, progress: bool = False) -> list[int]:
    """Ids of the tokens of two or more bytes that merging their own bytes by rank (the lowest-ranked pair first)
    does not build."""
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


CONTEXT_EDGES: tuple[str, ...] = ("", " ", "\n", "`", "$", "a", "M HERE", "在线", "1", ".")
"""What ``generated_contexts`` puts before and after a token's text: nothing, a space, a newline, two punctuation
marks, a lowercase letter, capital words, Chinese, a digit, a full stop."""


def generated_contexts(text: str) -> list[str]:
    """``text`` with every pair of ``CONTEXT_EDGES`` around it, the bare text first."""
    return [before + text + after for before in CONTEXT_EDGES for after in CONTEXT_EDGES]


def produced_in(encoding: tiktoken.Encoding, token_id: int, texts: Iterable[str], width: int = 12) -> str | None:
    """The first of ``texts`` whose encoding contains ``token_id``, cut to ``width`` bytes either side of the token
    (whole characters); None if no text produces it. Finding one proves the token is produced in ordinary text;
    finding none proves nothing beyond the texts tried."""
    for text in texts:
        ids = encoding.encode_ordinary(text)
        if token_id not in ids:
            continue
        at = ids.index(token_id)
        start = sum(len(encoding.decode_single_token_bytes(i)) for i in ids[:at])
        stop = start + len(encoding.decode_single_token_bytes(token_id))
        raw = text.encode("utf-8")
        return raw[max(0, start - width) : stop + width].decode("utf-8", errors="ignore")
    return None
