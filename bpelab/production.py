"""The real tokenizers, run by the learner's own encoder (lesson 07).

A production vocabulary is a table from byte strings to ranks: rank 0 was learned first. Two
things follow from that table alone:

- the merges: each token of two or more bytes was made by joining two earlier tokens, and running
  BPE on its bytes with only the earlier ranks shows which two (``recover_merges``);
- the encoder: cut the text with the split pattern; a piece that is itself in the table is one
  token; otherwise merge adjacent parts, always the pair whose joined bytes have the lowest rank.

That second rule looks up joined bytes, not learned pairs, and it is what tiktoken does. For
GPT-2, GPT-4 and GPT-4o the two views agree. Llama 3's table also has a few hundred tokens that no
merge produces (they were added to the vocabulary directly); tiktoken still emits them, through
the whole-piece lookup or when two parts happen to join into one, and so does this encoder.
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping, ValuesView

import tiktoken
from tiktoken_ext import openai_public

from bpelab.byte_level import BPETokenizer
from bpelab.merging import RankOf
from bpelab.patterns import LLAMA3_PATTERN, PATTERNS
from bpelab.token_build import merge_below_rank
from bpelab.vocab_files import FIX_COMMAND, SOURCES, TokenizerDataError, read_tiktoken_file, require

ENCODING_NAMES = ("r50k_base", "cl100k_base", "o200k_base", "llama3")
FRIENDLY_NAMES = {
    "r50k_base": "GPT-2 (r50k_base)",
    "cl100k_base": "GPT-4 (cl100k_base)",
    "o200k_base": "GPT-4o (o200k_base)",
    "llama3": "Llama 3",
}

LLAMA3_SPECIAL_TOKENS = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|reserved_special_token_2|>",
    "<|reserved_special_token_3|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|reserved_special_token_4|>",
    "<|eot_id|>",
    *(f"<|reserved_special_token_{i}|>" for i in range(5, 251)),
]
"""Meta's 256 special tokens, in id order from 128,000 (Llama 3 release, ``tokenizer.py``)."""


BUILT_ON = {"o200k_harmony": "o200k_base"}
"""tiktoken's other encodings the course can load offline, each with the course vocabulary file it is built on
(o200k_harmony: GPT-4o's ranks and the special tokens of gpt-oss's chat format, lesson 10)."""

_LOADED: weakref.WeakValueDictionary[str, tiktoken.Encoding] = weakref.WeakValueDictionary()
"""The course encodings something still holds, by name. Loading one again while it is held gives the same
object (its vocabulary in memory once); once nothing holds it, it is freed. (tiktoken's own ``get_encoding``
keeps every encoding it made until the kernel ends: about 30 MB each, which a lesson that compares four models
in one table would carry to its end.)"""


def llama3_encoding() -> tiktoken.Encoding:
    """Llama 3's tokenizer as a tiktoken ``Encoding``: 128,000 ranks, its split pattern, 256 specials."""
    return load_encoding("llama3")


def _new_encoding(name: str) -> tiktoken.Encoding:
    if name == "llama3":
        ranks = read_tiktoken_file(require("llama3"))
        special = {token: len(ranks) + i for i, token in enumerate(LLAMA3_SPECIAL_TOKENS)}
        return tiktoken.Encoding(name="llama3", pat_str=LLAMA3_PATTERN, mergeable_ranks=ranks, special_tokens=special)
    if name not in openai_public.ENCODING_CONSTRUCTORS:
        raise ValueError(f"tiktoken {tiktoken.__version__} has no {name}: pip install -U tiktoken")
    require(BUILT_ON.get(name, name))  # tiktoken would otherwise try the internet and fail with a network error
    try:
        return tiktoken.Encoding(**openai_public.ENCODING_CONSTRUCTORS[name]())  # what get_encoding builds
    except Exception as err:  # pragma: no cover - only when the cache vanished mid-call
        raise TokenizerDataError(f"tiktoken could not load {name} ({err}). Run: {FIX_COMMAND}") from err


def load_encoding(name: str) -> tiktoken.Encoding:
    """One of the four course encodings by name (or one built on their files, ``BUILT_ON``), with a clear
    message if its file is missing.

    The encoding keeps its ranks in tiktoken's Rust core only (``release_python_ranks``): a lesson that
    only encodes never pays for a second copy of them in Python. It is shared while held and freed once
    nothing holds it (``_LOADED``).
    """
    if name not in ENCODING_NAMES and name not in BUILT_ON:
        raise ValueError(f"unknown encoding {name!r}; choose from {', '.join([*ENCODING_NAMES, *BUILT_ON])}")
    encoding = _LOADED.get(name)
    if encoding is None:
        encoding = release_python_ranks(_new_encoding(name))
        _LOADED[name] = encoding
    return encoding


class _SharedRanks(dict[bytes, int]):
    """A plain ranks dict that can be weakly referenced (a ``dict`` itself cannot)."""


class RanksInCore(Mapping[bytes, int]):
    """What an ``Encoding`` holds as ``_mergeable_ranks`` once its Python dict is released.

    tiktoken copies the ranks into its Rust core, which is all it encodes and decodes with; the Python
    dict it also keeps is read by nothing but pickling. That dict costs about 120 bytes a token (the four
    course encodings: about 55 MB), so ``load_encoding`` drops it and this mapping stands in: the first
    read rebuilds the dict from the core (every id's bytes, in rank order: the file's own order), and the
    rebuilt dict is shared by everything that holds it (``shared_ranks``) and freed when none does.
    """

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        # the core, not the encoding: the encoding holds this mapping, and a loop between them would keep both
        # alive until a garbage collection; held strongly, so that ranks read after the encoding is gone still work
        self._core = encoding._core_bpe
        self._special = frozenset(encoding._special_tokens.values())
        self._n_vocab = encoding.n_vocab
        self._held: weakref.ref[_SharedRanks] | None = None

    def ranks(self) -> dict[bytes, int]:
        """The ranks as one dict, rebuilt from the core unless someone still holds the last one."""
        held = self._held() if self._held is not None else None
        if held is None:
            held = _SharedRanks(self._read_core())
            self._held = weakref.ref(held)
        return held

    def _read_core(self) -> dict[bytes, int]:
        """Every learned token's bytes and rank, read back from tiktoken's core in rank order."""
        decode = self._core.decode_single_token_bytes
        ranks: dict[bytes, int] = {}
        for rank in range(self._n_vocab):
            if rank in self._special:
                continue
            try:
                ranks[decode(rank)] = rank
            except KeyError:  # an id with no token (cl100k_base has a few below its special tokens)
                continue
        return ranks

    def __getitem__(self, token: bytes) -> int:
        # one token's rank straight from the core: rebuilding the whole table (a tenth of a second) for each lookup
        # made `encoding._mergeable_ranks[token]`, the usual tiktoken habit, slow once nothing held the table
        try:
            rank: int = self._core.encode_single_token(token)
        except (KeyError, TypeError):
            raise KeyError(token) from None
        if rank in self._special:
            raise KeyError(token)
        return rank

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.ranks())

    def __len__(self) -> int:
        return len(self.ranks())

    def __reduce__(self) -> tuple[type, tuple[dict[bytes, int]]]:
        return (dict, (dict(self.ranks()),))  # a pickled Encoding carries a real dict, as tiktoken expects


def release_python_ranks(encoding: tiktoken.Encoding) -> tiktoken.Encoding:
    """Drop the Python copy of ``encoding``'s ranks (``RanksInCore`` says why); returns ``encoding``.

    tiktoken's README extends an encoding with ``mergeable_ranks=base._mergeable_ranks``, and tiktoken's core
    takes nothing but a dict there: with a released encoding pass ``mergeable_ranks(base)`` (a dict) instead.
    """
    if isinstance(encoding._mergeable_ranks, dict):
        encoding._mergeable_ranks = RanksInCore(encoding)  # type: ignore[assignment]
    return encoding


def rank_in_core(encoding: tiktoken.Encoding) -> Callable[[bytes], int | None]:
    """A learned token's rank read straight from tiktoken's core (None for bytes that are no learned token): what a
    reader of a few tokens needs (the token-build panel), without a Python table of 50,000 to 200,000 ranks."""
    core, special = encoding._core_bpe, frozenset(encoding._special_tokens.values())

    def rank_of(token: bytes) -> int | None:
        try:
            rank: int = core.encode_single_token(token)
        except KeyError:
            return None
        return None if rank in special else rank

    return rank_of


def shared_ranks(encoding: tiktoken.Encoding) -> dict[bytes, int]:
    """``encoding``'s ranks as one dict shared by every reader: not a copy, so never change it."""
    held = encoding._mergeable_ranks
    if isinstance(held, RanksInCore):
        return held.ranks()
    return held  # an Encoding made outside the course keeps tiktoken's own dict


def mergeable_ranks(encoding: tiktoken.Encoding | str) -> dict[bytes, int]:
    """The production vocabulary as tiktoken holds it: each token's bytes and its rank (0 = learned first).

    ``encoding`` is a tiktoken ``Encoding`` or one of "r50k_base", "cl100k_base", "o200k_base", "llama3".
    This reads tiktoken's own table (``Encoding._mergeable_ranks``, which tiktoken does not expose
    publicly), so the course reaches into tiktoken in this one place only. Special tokens are not in
    it. The result is a fresh copy: changing it cannot change how tiktoken encodes. (Its keys are the same
    bytes objects as the shared table's, ``shared_ranks``: a copy costs the dict, not the tokens again.)
    """
    if isinstance(encoding, str):
        encoding = load_encoding(encoding)
    if not isinstance(encoding, tiktoken.Encoding):
        raise TypeError(
            f"mergeable_ranks needs a tiktoken.Encoding or one of {ENCODING_NAMES}, got {type(encoding).__name__}"
        )
    return dict(shared_ranks(encoding))


class TokenTable(Mapping[int, bytes]):
    """Id to bytes for a production vocabulary, read like the ``dict`` a trained tokenizer keeps as ``vocab``.

    A list indexed by id (None where an id has no token) holds the same bytes objects as the ranks table:
    about 8 bytes an id, where a dict of 200,000 ids costs about 10 MB more (issue 30's memory budget).
    """

    def __init__(self, ranks: Mapping[bytes, int], special_tokens: Mapping[str, int]) -> None:
        size = max([*ranks.values(), *special_tokens.values()], default=-1) + 1
        tokens: list[bytes | None] = [None] * size
        for token, rank in ranks.items():
            tokens[rank] = token
        for text, i in special_tokens.items():
            tokens[i] = text.encode("utf-8")
        self.tokens = tokens
        """The bytes of each id, by id: what the encoder reads (None where an id has no token)."""
        self._count = sum(token is not None for token in tokens)

    def __getitem__(self, i: int) -> bytes:
        try:
            token = self.tokens[i] if i >= 0 else None
        except (IndexError, TypeError):
            token = None
        if token is None:
            raise KeyError(i)
        return token

    def __contains__(self, i: object) -> bool:
        return isinstance(i, int) and 0 <= i < len(self.tokens) and self.tokens[i] is not None

    def __iter__(self) -> Iterator[int]:
        return (i for i, token in enumerate(self.tokens) if token is not None)

    def __len__(self) -> int:
        return self._count


class RecoveredMerges(Mapping[tuple[int, int], int]):
    """The merges recovered from a ranks table, read like a trained tokenizer's ``merges`` dict.

    A token made by a merge has exactly one pair of parents and its id is its rank, so the two parents are
    kept in two arrays indexed by rank (8 bytes a token, where a dict of tuples costs about 110); a pair is
    looked up through the rank of its joined bytes. Iteration goes in rank order, the order of learning.
    """

    def __init__(self, ranks: Mapping[bytes, int], tokens: list[bytes | None]) -> None:
        self._ranks, self._tokens = ranks, tokens
        self._left = array("i", [-1]) * len(tokens)
        self._right = array("i", [-1]) * len(tokens)
        self._count = 0
        for left, right, rank in _recovered(ranks):
            self._left[rank], self._right[rank] = left, right
            self._count += 1

    def get_new(self, a: int, b: int) -> int | None:
        """The id the pair ``(a, b)`` became, or None if no merge joins them."""
        tokens = self._tokens
        if not (0 <= a < len(tokens) and 0 <= b < len(tokens)):
            return None
        left, right = tokens[a], tokens[b]
        if left is None or right is None:
            return None
        rank = self._ranks.get(left + right)
        if rank is None or self._left[rank] != a or self._right[rank] != b:
            return None
        return rank

    def __getitem__(self, pair: tuple[int, int]) -> int:
        try:
            a, b = pair
            new = self.get_new(a, b) if isinstance(a, int) and isinstance(b, int) else None
        except (TypeError, ValueError):
            new = None
        if new is None:
            raise KeyError(pair)
        return new

    def __contains__(self, pair: object) -> bool:
        try:
            self[pair]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return ((a, b) for a, b in zip(self._left, self._right) if a >= 0)

    def items(self) -> ItemsView[tuple[int, int], int]:
        return _MergeItems(self)

    def values(self) -> ValuesView[int]:
        return _MergeValues(self)

    def _items(self) -> Iterator[tuple[tuple[int, int], int]]:
        return ((pair, rank) for rank, pair in enumerate(zip(self._left, self._right)) if pair[0] >= 0)

    def __len__(self) -> int:
        return self._count


class _MergeItems(ItemsView[tuple[int, int], int]):
    """``merges.items()`` read straight from the arrays (no lookup per pair)."""

    _mapping: RecoveredMerges

    def __iter__(self) -> Iterator[tuple[tuple[int, int], int]]:
        return self._mapping._items()


class _MergeValues(ValuesView[int]):
    _mapping: RecoveredMerges

    def __iter__(self) -> Iterator[int]:
        return (rank for _, rank in self._mapping._items())


class TiktokenBPE(BPETokenizer):
    """A ``BPETokenizer`` holding a production vocabulary and encoding exactly as tiktoken does.

    Its tables are kept small (issue 30's memory budget): ``ranks`` is the one table shared by every
    tokenizer of the encoding, ``vocab`` a list by id (``TokenTable``), and ``merges``, recovered on
    first use, two arrays of parents (``RecoveredMerges``).
    """

    def __init__(self, encoding: tiktoken.Encoding) -> None:
        super().__init__()
        self.name = encoding.name
        self.encoding = encoding  # held: while this tokenizer lives, its encoding and their shared ranks live too
        ranks = shared_ranks(encoding)  # read only here: one table for every tokenizer made from this encoding
        self.ranks = ranks
        missing = [b for b in range(256) if bytes([b]) not in ranks]
        if missing:
            raise ValueError(
                f"{encoding.name} lacks single-byte tokens {missing[:5]}: it is not a byte-level vocabulary"
            )
        self._byte_ids = [ranks[bytes([b])] for b in range(256)]
        self.pattern = encoding._pat_str
        self.pattern_name = next((k for k, v in PATTERNS.items() if v == self.pattern), None)
        self.special_tokens = dict(encoding._special_tokens)
        self.vocab = TokenTable(ranks, self.special_tokens)  # type: ignore[assignment]  # read-only, as a dict is read
        self._merges: Mapping[tuple[int, int], int] | None = None

    @property  # type: ignore[override]
    def merges(self) -> Mapping[tuple[int, int], int]:
        """The merges recovered from the ranks (computed on first use: it takes a few seconds)."""
        if self._merges is None:
            vocab: TokenTable = self.vocab  # type: ignore[assignment]
            self._merges = RecoveredMerges(self.ranks, vocab.tokens)
        return self._merges

    @merges.setter
    def merges(self, value: Mapping[tuple[int, int], int]) -> None:
        self._merges = value or None

    def start_ids(self, piece: bytes) -> list[int]:
        """Production vocabularies give single bytes their own ranks (GPT-2: "!" is 0, "a" is 64)."""
        byte_ids = self._byte_ids
        return [byte_ids[b] for b in piece]

    def rank_function(self) -> RankOf:
        """The rank of the two tokens' bytes joined, if that is a token: tiktoken's rule."""
        ranks, tokens = self.ranks, self.vocab.tokens  # type: ignore[attr-defined]
        return lambda a, b: ranks.get(tokens[a] + tokens[b])

    def merged_tokens(self) -> Iterable[bytes]:
        """Every token of the table: joining two parts may make any of them."""
        return self.ranks.keys()

    def _merge_piece(self, piece: bytes) -> list[int]:
        whole = self.ranks.get(piece)  # a piece that is itself a token is that token, merges or not
        if whole is not None:
            return [whole]
        return super()._merge_piece(piece)

    def __repr__(self) -> str:
        return f"TiktokenBPE({self.name}, vocab_size={self.vocab_size}, special_tokens={len(self.special_tokens)})"


def recover_merges(ranks: dict[bytes, int]) -> dict[tuple[int, int], int]:
    """For every token of two or more bytes, the two earlier tokens that join into it.

    Encode the token's bytes using only ranks below its own: if BPE stops at exactly two parts,
    those are its parents. Tokens that never come out as two parts (Llama 3 has such) are left
    out: no merge creates them.
    """
    return {(left, right): rank for left, right, rank in _recovered(ranks)}


def _recovered(ranks: Mapping[bytes, int]) -> Iterator[tuple[int, int, int]]:
    """Each merge recovered from ``ranks`` as (left id, right id, new id), in rank order."""
    if isinstance(ranks, RanksInCore):
        ranks = ranks.ranks()  # held for the whole loop: each lookup would otherwise rebuild the table
    get = ranks.get
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if len(token) < 2:
            continue
        parts = merge_below_rank(token, rank, get)
        if len(parts) == 2:
            yield ranks[parts[0]], ranks[parts[1]], rank


def from_tiktoken(encoding: tiktoken.Encoding | str) -> TiktokenBPE:
    """The learner's encoder loaded with a production vocabulary: an ``Encoding`` or one of
    "r50k_base", "cl100k_base", "o200k_base", "llama3". It gives exactly tiktoken's ids."""
    if isinstance(encoding, str):
        encoding = load_encoding(encoding)
    if not isinstance(encoding, tiktoken.Encoding):
        raise TypeError(
            f"from_tiktoken needs a tiktoken.Encoding or one of {ENCODING_NAMES}, got {type(encoding).__name__}"
        )
    return TiktokenBPE(encoding)


__all__ = [
    "ENCODING_NAMES",
    "FRIENDLY_NAMES",
    "LLAMA3_SPECIAL_TOKENS",
    "SOURCES",
    "RecoveredMerges",
    "TiktokenBPE",
    "TokenTable",
    "from_tiktoken",
    "llama3_encoding",
    "load_encoding",
    "mergeable_ranks",
    "rank_in_core",
    "read_tiktoken_file",
    "recover_merges",
    "release_python_ranks",
    "shared_ranks",
]
