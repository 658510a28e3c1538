"""Byte-level BPE (lesson 06): start from the 256 byte values, so that no input is ever unknown.

Training splits the text into pre-tokens (optionally with a GPT-style regex, lesson 07), counts
each distinct pre-token once with its frequency, and runs the same training loop as word-level
BPE (``bpelab.words.learn_merges``) on lists of token ids (``bpelab.byte_training``; or lesson 12's
incremental ``bpelab.fast``). Every merge creates one new id, and
its bytes are the two parents' bytes joined: ``vocab[new] = vocab[a] + vocab[b]``.

Encoding replays the merges by rank (``bpelab.merging``), which gives exactly the segmentation
that training ended with. Special tokens such as ``<|endoftext|>`` live outside the merges.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, SupportsIndex

from bpelab.byte_training import count_pretokens, train_bytes_naive
from bpelab.fast import train_bytes_fast
from bpelab.merging import RankOf, SafeCuts, merge_by_rank
from bpelab.patterns import pattern_name_of, resolve_pattern, split_text
from bpelab.saving import FORMAT_HEADER, TokenizerFileError  # noqa: F401  (their old home: still importable here)
from bpelab.special_tokens import (
    AllowedSpecial,
    DisallowedSpecial,
    allowed_specials,
    disallowed_message,
    disallowed_specials,
    special_token_list,
    specials_regex,
)
from bpelab.text import replace_lone_surrogates
from bpelab.tie_rules import ByteTieBreak, check_byte_tie_break
from bpelab.token_ids import check_ids

if TYPE_CHECKING:
    import tiktoken

CUT_PIECES_FROM = 1_000
"""Pieces of at least this many bytes are cut with ``SafeCuts`` first; its index is built on first use
(up to a second for o200k_base), which ordinary text, whose pieces are short, never needs."""
_CACHE_LIMIT = 100_000  # pieces remembered by encode; ordinary text has far fewer distinct ones
_LONGEST_REMEMBERED = 256
"""Characters: a longer piece (a run of a million spaces) is rarely met twice, and remembering it and its ids
would keep megabytes for the kernel's life."""


class TrainingStoppedEarly(UserWarning):
    """``train`` ran out of pairs that occur twice before reaching the ``vocab_size`` asked for."""


def _check_vocab_size(vocab_size: object, minimum: int, extra: str) -> None:
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, got {type(vocab_size).__name__}")
    if vocab_size < minimum:
        also = f", {extra}" if extra and minimum > 256 else ""
        raise ValueError(
            f"vocab_size must be at least {minimum}: a byte-level tokenizer starts with one id for each of the "
            f"256 byte values{also}, and each merge adds one more; got {vocab_size}"
        )


class BPETokenizer:
    """A byte-level BPE tokenizer you can train, use, save and load.

    >>> tok = BPETokenizer().train("the cat sat on the mat the cat ate the rat", 263)
    >>> tok.decode(tok.encode("the rat")) == "the rat"
    True
    """

    def __init__(self) -> None:
        self.merges: dict[tuple[int, int], int] = {}
        """Each learned pair of ids and the id it became, in the order they were learned."""
        self.vocab: dict[int, bytes] = {i: bytes([i]) for i in range(256)}
        """Every id and the bytes it stands for, special tokens included."""
        self.pattern: str | None = None
        self.pattern_name: str | None = None
        self.special_tokens: dict[str, int] = {}
        self.requested_vocab_size: int | None = None
        """The ``vocab_size`` the last ``train`` asked for (None if not trained here)."""
        self._cache: dict[str, list[int]] = {}
        """Pieces of text met by ``encode_ordinary`` and their ids."""
        self._cuts: SafeCuts | None = None
        """Where long pieces may be cut (built from the vocabulary the first time one is met)."""
        self._cuts_built_for = 0  # the vocabulary size it was built for: rebuilt if tokens are added
        self._parts: dict[bytes, list[int]] = {}
        """The parts of long pieces met so far, and their ids."""

    # ---- training -------------------------------------------------------------------------

    def train(
        self,
        text: str,
        vocab_size: int,
        *,
        pattern: str | None = None,
        special_tokens: str | Iterable[str] | None = None,
        method: Literal["naive", "fast"] = "fast",
        tie_break: ByteTieBreak = "first",
        progress: bool = False,
    ) -> BPETokenizer:
        """Learn merges from ``text`` until the vocabulary has ``vocab_size`` ids (specials included).

        Ties between equally frequent pairs go by ``tie_break``, one rule per reference trainer
        (``bpelab.tie_rules``): ``"first"``, the default, the pair seen first (minbpe, tiktoken's educational
        trainer); ``"tokenizers"``, Hugging Face's; ``"greatest_bytes"``, Stanford CS336's. Training stops early when no pair occurs twice, and then
        warns, sets ``stopped_early`` and says so in the ``repr`` (merging a pair seen once would shorten the text by one token and add one vocabulary entry).
        ``pattern`` is None (all bytes in one run), a name ("gpt2", "cl100k", "o200k", "llama3", or
        an encoding name such as "cl100k_base") or a regex: see ``bpelab.patterns.resolve_pattern``
        for how a name is told from a regex. Text the pattern does not match is kept as pieces of
        its own, so ``decode(encode(text)) == text`` whatever the pattern.
        ``special_tokens`` is a list of strings; a single string is one special token
        (``special_tokens="<|endoftext|>"``), never a list of its characters.
        Returns the tokenizer itself, so ``BPETokenizer().train(...)`` reads naturally.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        specials = special_token_list(special_tokens)
        _check_vocab_size(vocab_size, 256 + len(specials), f"plus one per special token ({len(specials)})")
        check_byte_tie_break(tie_break)
        if method not in ("naive", "fast"):
            raise ValueError(f"method must be 'naive' or 'fast', got {method!r}")
        self.__init__()  # type: ignore[misc]  # training always starts from the 256 bytes
        self.pattern = resolve_pattern(pattern)
        self.pattern_name = pattern_name_of(pattern)
        num_merges = vocab_size - 256 - len(specials)
        counts = count_pretokens(text, self.pattern, specials)

        trainer = train_bytes_fast if method == "fast" else train_bytes_naive
        learned = trainer(counts, num_merges, tie_break=tie_break, progress=progress)

        for (a, b), new_id in learned:
            self.merges[(a, b)] = new_id
            self.vocab[new_id] = self.vocab[a] + self.vocab[b]
        for special in specials:
            new_id = len(self.vocab)
            self.special_tokens[special] = new_id
            self.vocab[new_id] = special.encode("utf-8")
        self.requested_vocab_size = vocab_size
        if self.stopped_early:
            warnings.warn(
                f"training stopped at {self.vocab_size} ids, short of the {vocab_size} asked for: after "
                f"{len(self.merges)} merge{'' if len(self.merges) == 1 else 's'} no pair occurs twice in the text (merging a pair seen once "
                "would shorten the text by one token and add one vocabulary entry). Train on more text to get more merges; .stopped_early tells you this happened.",
                TrainingStoppedEarly,
                stacklevel=2,
            )
        return self

    @property
    def stopped_early(self) -> bool:
        """True when the last ``train`` ran out of pairs that occur twice before reaching the size asked for."""
        return self.requested_vocab_size is not None and self.vocab_size < self.requested_vocab_size

    def truncated(self, vocab_size: int) -> BPETokenizer:
        """The same tokenizer cut back to its first merges: what training would have given at
        ``vocab_size`` (specials not counted). One long run can thus be measured at every size."""
        _check_vocab_size(vocab_size, 256, "")
        if vocab_size > 256 + len(self.merges):
            raise ValueError(
                f"vocab_size must be between 256 and {256 + len(self.merges)} for this tokenizer; got {vocab_size}"
            )
        smaller = type(self).__new__(type(self))
        BPETokenizer.__init__(smaller)
        smaller.pattern, smaller.pattern_name = self.pattern, self.pattern_name
        for (a, b), new_id in list(self.merges.items())[: vocab_size - 256]:
            smaller.merges[(a, b)] = new_id
            smaller.vocab[new_id] = self.vocab[new_id]
        return smaller

    # ---- encoding -------------------------------------------------------------------------

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = (),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[int]:
        """Text to ids, with tiktoken's contract for special tokens (``tiktoken.Encoding.encode``).

        - ``allowed_special`` ("all" or a set of special tokens): where their text appears, it becomes
          the special token's single id.
        - ``disallowed_special`` (default "all": every special token not allowed): if the text contains
          one of them, ``ValueError``. Text typed by a user must not be able to smuggle in a control
          token such as ``<|endoftext|>`` (prompt injection), so the caller has to decide. Pass
          ``disallowed_special=()`` to encode such text as ordinary text instead.

        Lone surrogates (half of a UTF-16 pair) are replaced by U+FFFD first, as tiktoken does.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}; convert it first, e.g. str(x)")
        allowed = allowed_specials(allowed_special, self.special_tokens)
        disallowed = disallowed_specials(disallowed_special, allowed, self.special_tokens)
        if disallowed:
            found = specials_regex(disallowed).search(text)
            if found:
                raise ValueError(disallowed_message(found.group()))
        text = replace_lone_surrogates(text)
        if not allowed:
            return self.encode_ordinary(text)
        ids: list[int] = []
        start = 0
        for match in specials_regex(frozenset(allowed)).finditer(text):
            ids.extend(self.encode_ordinary(text[start : match.start()]))
            ids.append(self.special_tokens[match.group()])
            start = match.end()
        ids.extend(self.encode_ordinary(text[start:]))
        return ids

    def encode_ordinary(self, text: str) -> list[int]:
        """Text to ids, treating every character as ordinary text (no special tokens), like tiktoken's
        ``encode_ordinary``: the same as ``encode(text, disallowed_special=())``.

        Ordinary text repeats its pieces (" the", " of", ...), so each piece's ids are remembered
        the first time it is met: after that, a piece costs one dictionary lookup.
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}; convert it first, e.g. str(x)")
        text = replace_lone_surrogates(text)
        ids: list[int] = []
        known = self._cache
        for piece in split_text(text, self.pattern, keep_gaps=True):
            piece_ids = known.get(piece)
            if piece_ids is None:
                piece_ids = self._remember(piece)
            ids += piece_ids
        return ids

    def _remember(self, piece: str) -> list[int]:
        if len(piece) > _LONGEST_REMEMBERED:
            return self.encode_piece(piece.encode("utf-8"))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        ids = self._cache[piece] = self.encode_piece(piece.encode("utf-8"))
        return ids

    def encode_piece(self, piece: bytes) -> list[int]:
        """One pre-token's bytes to ids."""
        return self._merge_piece(piece)

    def start_ids(self, piece: bytes) -> list[int]:
        """The ids a piece starts from, before any merge: here each byte's id is its value."""
        return list(piece)

    def rank_function(self) -> RankOf:
        """How the encoder ranks two adjacent ids: the id their learned merge created (lower = earlier)."""
        merges = self.merges
        return lambda a, b: merges.get((a, b))

    def merged_tokens(self) -> Iterable[bytes]:
        """The bytes of every token a merge can make: here, the tokens the learned merges created."""
        return [self.vocab[new] for new in self.merges.values()]

    def _merge_piece(self, piece: bytes) -> list[int]:
        if len(piece) < CUT_PIECES_FROM:
            return merge_by_rank(self.start_ids(piece), self.rank_function())
        # A long piece (200 KB of one emoji is one piece): cut it where no merge can cross, and
        # encode each distinct part once. The ids are exactly those of merging the whole piece.
        if self._cuts is None or self._cuts_built_for != len(self.vocab):
            self._cuts, self._cuts_built_for = SafeCuts(self.merged_tokens()), len(self.vocab)
        rank_of, parts, ids = self.rank_function(), self._parts, []
        for part in self._cuts.split(piece):
            part_ids = parts.get(part)
            if part_ids is None:
                if len(parts) >= _CACHE_LIMIT:
                    parts.clear()
                part_ids = parts[part] = merge_by_rank(self.start_ids(part), rank_of)
            ids += part_ids
        return ids

    # ---- decoding -------------------------------------------------------------------------

    def decode_bytes(self, ids: Iterable[SupportsIndex]) -> bytes:
        """Ids to the bytes they stand for, joined: the exact inverse of ``encode``."""
        vocab = self.vocab
        return b"".join(vocab[i] for i in check_ids(ids, vocab))

    def decode(self, ids: Iterable[SupportsIndex], errors: str = "replace") -> str:
        """Ids to text. A cut multi-byte character becomes U+FFFD (``errors="replace"``)."""
        return self.decode_bytes(ids).decode("utf-8", errors=errors)

    def token_bytes(self, ids: Iterable[SupportsIndex]) -> list[bytes]:
        """The bytes of each token, one entry per id: what the chips in the explorer show."""
        vocab = self.vocab
        return [vocab[i] for i in check_ids(ids, vocab)]

    # ---- the piece cache ------------------------------------------------------------------

    def clear_cache(self) -> None:
        """Forget every piece ``encode`` has remembered, so that the next run starts cold (lesson 12).

        Call it too after changing ``merges`` or ``vocab`` by hand: what was remembered may be stale.
        """
        self._cache.clear()
        self._parts.clear()

    @property
    def cache_size(self) -> int:
        """How many distinct pieces ``encode`` remembers right now: each one was merged only once."""
        return len(self._cache)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def __repr__(self) -> str:
        pattern = self.pattern_name or ("none" if self.pattern is None else "custom")
        return (
            f"{type(self).__name__}(vocab_size={self.vocab_size}, merges={len(self.merges)}, "
            f"pattern={pattern}, special_tokens={len(self.special_tokens)}"
            + (f", stopped early: {self.requested_vocab_size} asked for)" if self.stopped_early else ")")
        )

    # ---- saving and loading ---------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write a plain-text file a person can read: the pattern, the special tokens, one merge per line
        with the bytes it makes in a comment, then ``end`` (the format: ``bpelab.saving``)."""
        from bpelab.saving import write_tokenizer

        return write_tokenizer(self, path)

    def to_tiktoken(self, name: str = "bpelab") -> tiktoken.Encoding:
        """This tokenizer as a ``tiktoken.Encoding``: the same ids, in Rust (``bpelab.export``, lesson 13)."""
        from bpelab.export import to_tiktoken

        return to_tiktoken(self, name)

    def save_hf(self, path: str | Path, *, end_of_text: str | None = None, padding: str | None = None) -> Path:
        """Write a Hugging Face ``tokenizer.json`` (``bpelab.export.save_hf``, lesson 13): ``"x.json"`` is the
        file; any other path is a folder that gets ``tokenizer.json`` and the ``tokenizer_config.json``
        ``transformers`` reads (its end-of-text and padding tokens: ``"<|endoftext|>"`` if there is one)."""
        from bpelab.export import save_hf

        return save_hf(self, path, end_of_text=end_of_text, padding=padding)

    def save_tiktoken(self, path: str | Path, name: str = "bpelab") -> Path:
        """Write tiktoken's ``.tiktoken`` file of ranks and a JSON beside it with the pattern and special tokens;
        ``bpelab.tiktoken_file.load_tiktoken(path)`` rebuilds the ``tiktoken.Encoding`` (lesson 13)."""
        from bpelab.tiktoken_file import save_tiktoken

        return save_tiktoken(self, path, name)

    @classmethod
    def load(cls, path: str | Path) -> BPETokenizer:
        """Read a file written by ``save`` (this format, or the older v1); any damage is reported
        with its line number. A UTF-8 byte-order mark at the start (some editors add one) is fine."""
        from bpelab.saving import read_tokenizer

        return read_tokenizer(path, cls())
