"""SentencePiece's BPE, from scratch: the tokenizer of Llama 1 and 2 and Mistral 7B, id for id.

What changes from the byte-level BPE of lessons 06-07 (tiktoken, GPT-2):

- **No pre-tokenization regex.** The whole text is one sequence; a space is just a character, written
  ``▁`` (U+2581), and a *dummy prefix* ``▁`` goes in front so that the first word looks like the others.
- **Characters, not bytes.** Encoding starts from Unicode characters. A character the vocabulary lacks
  becomes the pieces ``<0xNN>`` of its UTF-8 bytes (*byte fallback*), or ``<unk>`` in a model without them.
- **Scores, not a merge list.** Every piece has a score. Encoding repeatedly joins the adjacent pair
  whose concatenation is a piece of the highest score; of equal scores, the leftmost pair.

The rules follow SentencePiece's C++ source (github.com/google/sentencepiece, ``src/``):
``normalizer.cc`` (``Normalizer::Normalize``: whitespace), ``bpe_model.cc`` (``Model::SampleEncode``: the
agenda ordered by score then by the left symbol's position, frozen user-defined symbols, unused pieces
split back into the two pieces that formed them), ``sentencepiece_processor.cc``
(``PopulateSentencePieceText``: byte fallback, runs of ``<unk>`` joined; ``Decode``: the first ``▁``
dropped, byte pieces joined into UTF-8, each invalid byte a U+FFFD) and ``util.cc`` (``DecodeUTF8``).
The ``.model`` file is read by ``bpelab.sentencepiece_model``, normalizing and reading byte pieces back are in
``bpelab.sentencepiece_text``, a normalizer's character map (``nmt_nfkc``) in ``bpelab.sentencepiece_charsmap``;
training is ``bpelab.sentencepiece_training``.
"""

from __future__ import annotations

import re
import weakref
from heapq import heappop, heappush
from pathlib import Path

from bpelab.sentencepiece_charsmap import CharsMap, normalized_units
from bpelab.sentencepiece_model import ModelFile, ModelFileError, ModelType, NormalizerSpec, PieceType, read_model_file
from bpelab.sentencepiece_text import SPACE, byte_piece, decode_byte_run, normalize
from bpelab.vocab_files import require_sentencepiece

__all__ = ["SPACE", "SentencePieceBPE", "byte_piece", "decode_byte_run", "load_sentencepiece", "normalize"]


class SentencePieceBPE:
    """A SentencePiece BPE model: ``encode`` and ``decode`` give what ``sentencepiece`` gives for the same file."""

    def __init__(self, model: ModelFile) -> None:
        if model.trainer.model_type != ModelType.BPE:
            raise ModelFileError(
                f"this is a {model.trainer.model_type.name} model; SentencePieceBPE reproduces BPE models only "
                "(Unigram models, such as T5's, choose pieces by a different rule)"
            )
        self.charsmap = (
            CharsMap(model.normalizer.precompiled_charsmap) if model.normalizer.precompiled_charsmap else None
        )
        """The normalizer's rewriting rules ('nmt_nfkc' and others), None for 'identity'."""
        denormalizer = model.denormalizer
        self.decharsmap = (
            CharsMap(denormalizer.precompiled_charsmap) if denormalizer and denormalizer.precompiled_charsmap else None
        )
        """Rules applied to decoded text, if the model has a denormalizer with a character map."""
        self.model = model
        self.pieces: list[str] = [p.piece for p in model.pieces]
        """Each id's piece, in id order."""
        self.scores: list[float] = [p.score for p in model.pieces]
        self.types: list[PieceType] = [p.type for p in model.pieces]
        ordinary = (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED)
        self.mergeable: dict[str, int] = {p.piece: i for i, p in enumerate(model.pieces) if p.type in ordinary}
        """The pieces a merge may form (``pieces_`` in the C++); control, unknown and byte pieces are not among them."""
        reserved = {p.piece: i for i, p in enumerate(model.pieces) if p.type not in ordinary}
        self.piece_to_id = {**self.mergeable, **reserved}  # PieceToId looks at the reserved pieces first
        unknown = [i for i, t in enumerate(self.types) if t == PieceType.UNKNOWN]
        if len(unknown) != 1:
            raise ModelFileError(f"a SentencePiece model has exactly one unknown piece; this one has {len(unknown)}")
        self.unk_id = unknown[0]
        self.byte_fallback = model.trainer.byte_fallback
        self.byte_ids = [self.piece_to_id.get(byte_piece(b), -1) for b in range(256)]
        if self.byte_fallback and -1 in self.byte_ids:
            raise ModelFileError("the model says byte_fallback=True but lacks some of the 256 pieces <0x00>..<0xFF>")
        byte_pieces = {byte_piece(b) for b in range(256)}
        for piece, kind in zip(self.pieces, self.types):
            if kind == PieceType.BYTE and (piece not in byte_pieces or not self.byte_fallback):
                raise ModelFileError(
                    f"the byte piece {piece!r} is not allowed here: byte pieces are <0x00>..<0xFF>, "
                    "in a model trained with byte_fallback=True"
                )
        self.user_defined: dict[str, list[str]] = {}
        """User-defined symbols by first character, longest first: they are never split, merged or normalized."""
        for piece, kind in zip(self.pieces, self.types):
            if kind == PieceType.USER_DEFINED:
                self.user_defined.setdefault(piece[0], []).append(piece)
        self.frozen = {piece for symbols in self.user_defined.values() for piece in symbols}
        self.has_unused = PieceType.UNUSED in self.types
        self.inner_pairs = {piece[i : i + 2] for piece in self.mergeable for i in range(len(piece) - 1)}
        """Every two adjacent characters inside some piece: between any other two, no merge can happen."""
        self._before_space = re.compile(f"(?<=[^{SPACE}]){SPACE}")
        self._known_parts: dict[str, list[str]] = {}
        self._decoded_kinds = [self.types[self.piece_to_id[piece]] for piece in self.pieces]
        """How ``Decode`` treats each id: the type of the id its piece maps back to (``PieceToId(IdToPiece(id))``)."""
        self._byte_values = [
            int(p[3:5], 16) if k == PieceType.BYTE else -1 for p, k in zip(self.pieces, self._decoded_kinds)
        ]
        for symbols in self.user_defined.values():
            symbols.sort(key=len, reverse=True)

    def clear_cache(self) -> None:
        """Forget the parts merged so far (``merge_pieces`` remembers each one; a benchmark starts cold)."""
        self._known_parts.clear()

    @classmethod
    def from_model_file(cls, path: str | Path) -> SentencePieceBPE:
        """Read a ``.model`` file (``bpelab.sentencepiece_model``)."""
        return cls(read_model_file(path))

    @property
    def normalizer(self) -> NormalizerSpec:
        return self.model.normalizer

    def __len__(self) -> int:
        return len(self.pieces)

    def __repr__(self) -> str:
        return f"SentencePieceBPE({len(self)} pieces, normalizer {self.normalizer.name!r}, byte_fallback={self.byte_fallback})"

    # ---- encoding ----------------------------------------------------------------------------

    def _user_symbol_at(self, text: str, i: int) -> str | None:
        """The longest user-defined symbol that starts at ``text[i]``, if any."""
        for symbol in self.user_defined.get(text[i], ()):
            if text.startswith(symbol, i):
                return symbol
        return None

    def _units(self, text: str) -> list[str]:
        """The text cut into what is never split: user-defined symbols, and single characters."""
        if not self.user_defined:
            return list(text)
        units, i = [], 0
        while i < len(text):
            unit = self._user_symbol_at(text, i) or text[i]
            units.append(unit)
            i += len(unit)
        return units

    def normalize(self, text: str) -> str:
        """The text as the model sees it: its normalizer's rules, spaces as ``▁``, the dummy prefix, extra spaces."""
        if self.charsmap is None:
            units = self._units(text)
        else:
            units = normalized_units(text, self.charsmap, self._user_symbol_at)
        return normalize(units, self.normalizer, self.model.trainer.treat_whitespace_as_suffix)

    def merge_pieces(self, normalized: str) -> list[str]:
        """The pieces of a normalized text: ``Model::SampleEncode`` on each part between safe cuts.

        SentencePiece merges over the whole text at once. But a merge across the point between two characters
        would make a piece that holds both; if no piece of the vocabulary holds that pair of characters, no merge
        ever crosses the point, and the two sides merge exactly as they would together. So the text is cut at
        such points in front of a ``▁`` (in Mistral's vocabulary, after any character but ``▁``: roughly at every
        word) and each part, most of them repeated words, is merged once. A model with unused pieces is merged
        whole: the C++ remembers one way to split each unused piece for the whole text.
        """
        if self.has_unused:
            return self._merge_part(normalized)
        cuts = [0]
        for match in self._before_space.finditer(normalized):
            p = match.start()
            if normalized[p - 1 : p + 1] not in self.inner_pairs:
                cuts.append(p)
        cuts.append(len(normalized))
        pieces: list[str] = []
        known = self._known_parts
        for a, b in zip(cuts, cuts[1:]):
            part = normalized[a:b]
            merged = known.get(part)
            if merged is None:
                merged = self._merge_part(part)
                if len(known) > 200_000:
                    known.clear()
                known[part] = merged
            pieces += merged
        return pieces

    def _merge_part(self, normalized: str) -> list[str]:
        """``Model::SampleEncode``: join the adjacent pair that forms the best-scoring piece, until none does.

        A heap of candidate pairs ordered by (score, highest first; then the left symbol's position, leftmost
        first). Symbols only grow, so an entry is out of date exactly when one of its symbols has been absorbed
        or has grown since it was pushed (the C++ compares lengths); such entries are skipped.
        """
        symbols: list[str] = self._units(normalized)
        frozen = [s in self.frozen for s in symbols]
        n = len(symbols)
        after = list(range(1, n)) + [-1]
        before = list(range(-1, n - 1))
        heap: list[tuple[float, int, int, int]] = []
        formed_by: dict[str, tuple[str, str]] = {}  # for unused pieces: the last pair seen to form each one

        def push(left: int, right: int) -> None:
            if left < 0 or right < 0 or frozen[left] or frozen[right]:
                return
            piece = symbols[left] + symbols[right]
            piece_id = self.mergeable.get(piece)
            if piece_id is None:
                return
            heappush(heap, (-self.scores[piece_id], left, right, len(piece)))
            if self.types[piece_id] == PieceType.UNUSED:
                formed_by[piece] = (symbols[left], symbols[right])

        for i in range(1, n):
            push(i - 1, i)
        while heap:
            _, left, right, size = heappop(heap)
            if not symbols[left] or not symbols[right] or len(symbols[left]) + len(symbols[right]) != size:
                continue
            symbols[left] += symbols[right]
            symbols[right] = ""
            after[left] = after[right]
            if after[right] >= 0:
                before[after[right]] = left
            push(before[left], left)
            push(left, after[left])

        def resegment(piece: str) -> list[str]:
            """An unused piece is not emitted: it goes back to the two pieces that formed it (recursively)."""
            piece_id = self.piece_to_id.get(piece)
            if piece_id is None or self.types[piece_id] != PieceType.UNUSED or piece not in formed_by:
                return [piece]
            left, right = formed_by[piece]
            return resegment(left) + resegment(right)

        if not formed_by:
            return [symbol for symbol in symbols if symbol]
        return [part for symbol in symbols if symbol for part in resegment(symbol)]

    def encode(self, text: str) -> list[int]:
        """The ids SentencePiece gives for ``text`` (no ``<s>`` or ``</s>`` added, as its ``encode`` by default)."""
        return self._encode(text, None)

    def encode_as_pieces(self, text: str) -> list[str]:
        """The pieces SentencePiece shows for ``text``: each id's piece, except that a run of unknown characters
        (one ``<unk>`` id, in a model without byte fallback) shows as the run's own text, as
        ``PopulateSentencePieceText`` writes it (``encode(text, out_type=str)`` gives ``'🤖€'``, not ``'<unk>'``)."""
        pieces: list[str] = []
        self._encode(text, pieces)
        return pieces

    def _encode(self, text: str, pieces: list[str] | None) -> list[int]:
        """The ids; when ``pieces`` is a list, each id's piece as SentencePiece shows it is appended to it."""
        if not isinstance(text, str):
            raise TypeError(f"encode takes a str, got {type(text).__name__}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(
                f"the text holds {text[err.start]!r} at {err.start}, a lone surrogate, which is no character and has "
                "no UTF-8 form; SentencePiece takes UTF-8. Pair it or remove it first"
            ) from None
        ids: list[int] = []
        unk, piece_to_id, byte_ids = self.unk_id, self.piece_to_id, self.byte_ids
        previous_unknown = False
        for piece in self.merge_pieces(self.normalize(text)):
            piece_id = piece_to_id.get(piece, unk)
            unknown = piece_id == unk  # the model has one unknown piece
            if unknown and self.byte_fallback:
                new = [byte_ids[b] for b in piece.encode("utf-8")]
                ids += new
                if pieces is not None:
                    pieces += [self.pieces[i] for i in new]
            elif not (unknown and previous_unknown):  # a run of unknown pieces is one <unk>
                ids.append(piece_id)
                if pieces is not None:
                    pieces.append(piece)  # an unknown one shows as its own text, not as '<unk>'
            elif pieces is not None:
                pieces[-1] += piece  # the run's text goes on
            previous_unknown = unknown
        return ids

    # ---- decoding ------------------------------------------------------------------------------

    def decode(self, ids: list[int]) -> str:
        """The text for ``ids``, as ``SentencePieceProcessor.decode`` gives it.

        Control pieces (``<s>``) vanish, ``<unk>`` shows as the model's unk_surface (`` ⁇ ``), a run of byte
        pieces is read as UTF-8, ``▁`` becomes a space, and the first piece loses the ``▁`` of the dummy prefix
        (with remove_extra_whitespaces, every leading ``▁`` until some text has appeared).
        """
        spec = self.normalizer
        size = len(self.pieces)
        for i in ids:
            if not (type(i) is int and 0 <= i < size):
                raise IndexError(f"{i!r} is not an id of this model (ids are ints from 0 to {size - 1})")
        out: list[str] = []
        run = bytearray()
        strip_leading = True  # "is_bos_ws" in the C++: the next piece may lose its leading ▁
        stripped_one = False  # the previous piece lost the dummy prefix's ▁
        pieces, kinds, byte_values = self.pieces, self._decoded_kinds, self._byte_values
        for i in ids:
            kind = kinds[i]
            if kind is PieceType.BYTE:
                run.append(byte_values[i])
                continue
            piece = pieces[i]
            if run:
                out.append(decode_byte_run(bytes(run)))
                run.clear()
            if stripped_one or (out and out[-1]):  # checked at every piece, so out[-1] is the only one to see
                strip_leading = False
            stripped_one = False
            if kind == PieceType.CONTROL:
                continue
            if kind == PieceType.UNKNOWN:
                out.append(self.model.trainer.unk_surface)
                continue
            if strip_leading and (spec.add_dummy_prefix or spec.remove_extra_whitespaces) and piece.startswith(SPACE):
                piece = piece[1:]
                stripped_one = not spec.remove_extra_whitespaces
            out.append(piece.replace(SPACE, " "))
        if run:
            out.append(decode_byte_run(bytes(run)))
        text = "".join(out)
        if self.decharsmap is not None and self.model.denormalizer is not None:  # Decode's denormalizer_
            text = normalize(normalized_units(text, self.decharsmap, _no_symbol), self.model.denormalizer)
        return text


def _no_symbol(text: str, i: int) -> None:
    """The denormalizer has no user-defined symbols."""
    return None


_LOADED: weakref.WeakValueDictionary[str, SentencePieceBPE] = weakref.WeakValueDictionary()
"""The models read, by path, while something holds them: a lesson's views and checkers load a model when they
draw or check and let go of it after, so a kernel does not keep 15 MB a model for its whole life."""


def load_sentencepiece(name: str) -> SentencePieceBPE:
    """One of the course's offline SentencePiece models: ``"mistral_v1"`` (Mistral 7B v0.1) or ``"mistral_v3"``.

    The files come from the mistral-common wheel (``python -m bpelab.setup_data``); a missing or damaged one
    raises ``TokenizerDataError`` naming the command that fixes it. A model is shared while held and read again
    once nothing holds it (as ``load_encoding`` does with tiktoken's).
    """
    path = str(require_sentencepiece(name))  # checked against its pinned sha256 on every call
    model = _LOADED.get(path)
    if model is None:
        model = SentencePieceBPE.from_model_file(path)
        _LOADED[path] = model
    return model
