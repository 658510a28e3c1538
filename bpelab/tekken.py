"""Tekken, Mistral's tiktoken-style vocabulary (Mistral NeMo and later), run by the course's byte-level encoder.

After Mistral 7B's SentencePiece model (``bpelab.sentencepiece``), Mistral moved to a byte-level BPE of the
tiktoken kind, which it calls Tekken. Its file, ``tekken_240911.json`` in the mistral-common wheel, holds:

- ``config``: the split ``pattern`` (a regex, as GPT-4's), ``default_vocab_size`` (131,072) and
  ``default_num_special_tokens`` (1,000);
- ``vocab``: 150,000 entries ``{"rank", "token_bytes" (base64), "token_str"}``, rank 0 learned first; the first
  256 are the single bytes. mistral-common keeps the first ``131,072 - 1,000 = 130,072`` of them
  (``_reload_mergeable_ranks(vocab, max_vocab=inner_vocab_size)`` in ``mistral_common/tokens/tokenizers/tekken.py``);
- no ``special_tokens`` list: for this file's version (v3) mistral-common supplies its own 1,000 special tokens,
  ``<unk>``, ``<s>``, ``</s>``, ``[INST]`` ... padded with ``<SPECIAL_n>``, as ids 0 to 999. A learned token's id is
  its rank plus 1,000 (``Tekkenizer.encode``: ``t + self.num_special_tokens``).

``bpelab.course.tokenizer_data.prepare_tekken`` reads the JSON once from the wheel and keeps only the 130,072 ranks,
as a ``.tiktoken`` file (``tekken.tiktoken``, 2.3 MB instead of 19 MB); this module checks the pattern the file
names against the one pinned here. ``tekken_encoding()`` is tiktoken's ``Encoding`` with those ranks and pattern;
``load_tekken()`` is lesson 07's ``from_tiktoken`` of it: the course's own encoder, giving tiktoken's ranks.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import tiktoken

from bpelab.production import TiktokenBPE, from_tiktoken
from bpelab.vocab_files import read_tiktoken_file, require_tekken

TEKKEN_PATTERN = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
    r"|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*"
    r"|\s*[\r\n]+"
    r"|\s+(?!\S)"
    r"|\s+"
)
"""``config.pattern`` of ``tekken_240911.json``: GPT-4o's word alternatives without its contractions, and every
digit a piece of its own (``\\p{N}``, as Llama 1 and 2 split digits)."""

TEKKEN_VOCAB_SIZE = 131_072
TEKKEN_SPECIAL_TOKENS = 1_000
"""Ids 0 to 999 are special tokens; the learned token of rank ``r`` has id ``r + 1000``."""


class TekkenFileError(ValueError):
    """The JSON is not a Tekken vocabulary this module can read; the message says what is wrong."""


@dataclass(frozen=True)
class TekkenVocab:
    """What the course needs from a Tekken JSON: the ranks mistral-common keeps, the pattern, the special count."""

    ranks: dict[bytes, int]
    pattern: str
    num_special_tokens: int
    vocab_size: int


def read_tekken_json(data: bytes) -> TekkenVocab:
    """The ranks, pattern and special-token count of a Tekken JSON, checked as mistral-common checks them:
    rank ``i`` at place ``i``, the first 256 ranks the single bytes, kept up to ``vocab_size - num_special``."""
    try:
        found = json.loads(data)
        config, vocab = found["config"], found["vocab"]
        pattern = config["pattern"]
        size, special = int(config["default_vocab_size"]), int(config["default_num_special_tokens"])
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
        raise TekkenFileError(
            f"not a Tekken JSON ({type(err).__name__}: {err}); it needs 'config' (pattern, default_vocab_size, "
            "default_num_special_tokens) and 'vocab'"
        ) from None
    keep = size - special
    if not isinstance(vocab, list) or len(vocab) < keep:
        raise TekkenFileError(f"the vocab holds {len(vocab)} entries, fewer than the {keep} the config keeps")
    ranks: dict[bytes, int] = {}
    for i, entry in enumerate(vocab[:keep]):
        try:
            token = base64.b64decode(entry["token_bytes"], validate=True)
        except (KeyError, TypeError, binascii.Error) as err:
            raise TekkenFileError(f"vocab entry {i}: no valid base64 'token_bytes' ({err})") from None
        if entry.get("rank") != i or (i < 256 and token != bytes([i])) or token in ranks:
            raise TekkenFileError(
                f"vocab entry {i} (rank {entry.get('rank')!r}, bytes {token!r}): ranks must be 0, 1, 2 ... in order, "
                "the first 256 the single bytes, each token once"
            )
        ranks[token] = i
    return TekkenVocab(ranks, pattern, special, size)


def ranks_file(vocab: TekkenVocab) -> bytes:
    """The ranks as a ``.tiktoken`` file: each token's bytes in base64, a space, its rank, one a line."""
    return b"".join(base64.b64encode(token) + b" %d\n" % rank for token, rank in vocab.ranks.items())


@lru_cache(maxsize=1)
def tekken_encoding() -> tiktoken.Encoding:
    """Tekken as a tiktoken ``Encoding``: the 130,072 ranks and Tekken's pattern. No special tokens inside it: as in
    mistral-common, they are ids 0-999 outside the ranks, so ``encode`` gives ranks (add 1,000 for Mistral's ids)."""
    ranks = read_tiktoken_file(require_tekken())
    return tiktoken.Encoding(name="tekken", pat_str=TEKKEN_PATTERN, mergeable_ranks=ranks, special_tokens={})


def load_tekken() -> TiktokenBPE:
    """Tekken run by the course's own encoder (lesson 07's ``from_tiktoken``): the same ranks as tiktoken."""
    return from_tiktoken(tekken_encoding())


def mistral_ids(ranks: list[int]) -> list[int]:
    """The ids mistral-common's ``Tekkenizer.encode`` gives (without ``<s>``): each rank plus the 1,000 specials."""
    return [rank + TEKKEN_SPECIAL_TOKENS for rank in ranks]


def check_pattern(vocab: TekkenVocab, path: str | Path = "tekken_240911.json") -> None:
    """Refuse a file whose pattern or sizes differ from those the course pins (its encoder would differ too)."""
    if (vocab.pattern, vocab.vocab_size, vocab.num_special_tokens) != (
        TEKKEN_PATTERN,
        TEKKEN_VOCAB_SIZE,
        TEKKEN_SPECIAL_TOKENS,
    ):
        raise TekkenFileError(
            f"{Path(path).name} names another pattern or sizes ({vocab.vocab_size} tokens, {vocab.num_special_tokens} "
            f"special) than the course's pinned Tekken ({TEKKEN_VOCAB_SIZE}, {TEKKEN_SPECIAL_TOKENS})"
        )
