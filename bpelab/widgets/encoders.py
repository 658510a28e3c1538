"""How the explorer gets (ids, token pieces) out of every kind of tokenizer the course has.

Python's side of the explorer (``bpelab.widgets.explorer``) and lesson 10 use it; the page's own
encoders (``static/explorer.js``, ``static/production.js``) are held to it by tests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tiktoken

from bpelab.byte_level import BPETokenizer
from bpelab.patterns import split_text
from bpelab.sentencepiece import SPACE, SentencePieceBPE
from bpelab.sentencepiece_model import PieceType
from bpelab.words import TrainingResult, encode_word

UNKNOWN_ID = "?"
"""The id shown for a symbol a word-level tokenizer never saw in training."""

Encoded = tuple[list[Any], list[str | bytes]]
"""The ids of a text and the text or bytes of each token."""
MAX_CACHED_WORDS = 100_000
"""How many distinct words a word-level encoder keeps spelled (a keystroke re-encodes the whole text)."""


def sentencepiece_token_bytes(model: SentencePieceBPE, ids: list[int], text: str) -> list[bytes]:
    """Each SentencePiece token of ``text`` as the bytes of the text it stands for, so that chips line up on it.

    A piece's characters are the text's own, read back in order (a ``▁`` is the space, or the ``▁``, it came
    from); a byte piece ``<0xNN>`` is one byte of the character it stands for (the bytes of one character join
    into one chip, as a byte-level tokenizer's do); the ``▁`` of the dummy prefix stands for no character of the
    text, so a first token that is that ``▁`` alone covers no bytes. Joined, they are the text's UTF-8. This
    needs a model that keeps the text as it is, character for character (Mistral 7B: the 'identity' normalizer,
    byte fallback, no whitespace removed); for another, each ``▁`` is read as a space.
    """
    spec = model.normalizer
    kinds = model.types
    if model.charsmap is not None or spec.remove_extra_whitespaces or not model.byte_fallback:
        return _pieces_as_text(model, ids)
    if model.model.trainer.treat_whitespace_as_suffix or not spec.escape_whitespaces or model.user_defined:
        return _pieces_as_text(model, ids)
    chars = ([""] if spec.add_dummy_prefix and text else []) + list(text)  # the dummy ▁ stands for nothing
    out: list[bytes] = []
    at = 0
    rest = b""  # the bytes left of a character written as byte pieces
    for i in ids:
        if kinds[i] == PieceType.BYTE:
            if not rest:
                rest = chars[at].encode("utf-8")
                at += 1
            out.append(rest[:1])
            rest = rest[1:]
        elif kinds[i] == PieceType.CONTROL:
            out.append(b"")
        else:
            n = len(model.pieces[i])
            out.append("".join(chars[at : at + n]).encode("utf-8"))
            at += n
    return out


def _pieces_as_text(model: SentencePieceBPE, ids: list[int]) -> list[bytes]:
    """Tokens read from their pieces alone: ``▁`` a space, a byte piece its byte, ``<unk>`` the model's surface."""
    out: list[bytes] = []
    for position, i in enumerate(ids):
        piece, kind = model.pieces[i], model.types[i]
        if kind == PieceType.BYTE:
            out.append(bytes([int(piece[3:5], 16)]))
        elif kind == PieceType.UNKNOWN:
            out.append(model.model.trainer.unk_surface.encode("utf-8"))
        elif kind == PieceType.CONTROL:
            out.append(b"")
        else:
            if position == 0 and model.normalizer.add_dummy_prefix and piece.startswith(SPACE):
                piece = piece[1:]
            out.append(piece.replace(SPACE, " ").encode("utf-8"))
    return out


def _tiktoken_ids(encoding: tiktoken.Encoding, text: str) -> list[int]:
    """tiktoken's ``encode_ordinary``, its Rust panic turned into a ValueError a view can show.

    tiktoken 0.14 panics on some texts, such as 999,999 spaces followed by a letter, where its regex engine runs out
    of backtracking stack (lesson 07, section 8); the panic is a ``BaseException``, which ``except Exception`` lets
    through, so a view given that text would raise instead of saying why it shows no tokens.
    """
    try:
        return encoding.encode_ordinary(text)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as err:  # pyo3's PanicException derives from BaseException
        if isinstance(err, Exception):
            raise
        first_line = (str(err).splitlines() or [""])[0]
        raise ValueError(
            f"tiktoken panicked on this text ({type(err).__name__}: {first_line}): its regex engine can run out of "
            "stack, as on a run of about a million spaces (lesson 07, section 8). Try a shorter text"
        ) from err


def encoder_for(tokenizer: object, word_split: str | None = None) -> Callable[[str], Encoded]:
    """How to get (ids, token pieces) out of any tokenizer the course has.

    A tiktoken ``Encoding`` and a ``BPETokenizer`` give each token's bytes; a word-level
    ``TrainingResult`` spells each word with its merges (ids are positions in its vocabulary,
    ``?`` for a character it never saw), cutting the text into words on whitespace, as
    ``train_bpe`` does, or with the regex ``word_split`` if the training text was split that way;
    a ``SentencePieceBPE`` gives each piece as the text's bytes it stands for (``sentencepiece_token_bytes``);
    anything else with ``encode``/``decode`` is asked to
    decode one id at a time. Special-token text is encoded as ordinary text, as in
    tiktoken's ``encode_ordinary``.
    """
    if isinstance(tokenizer, tiktoken.Encoding | BPETokenizer):
        byte_level = tokenizer
        # the same question to both; tiktoken names it decode_tokens_bytes, bpelab token_bytes
        token_bytes = (
            byte_level.decode_tokens_bytes if isinstance(byte_level, tiktoken.Encoding) else byte_level.token_bytes
        )

        def encode_bytes(text: str) -> Encoded:
            if isinstance(byte_level, tiktoken.Encoding):
                ids = _tiktoken_ids(byte_level, text)
            else:
                ids = byte_level.encode_ordinary(text)
            return ids, list(token_bytes(ids))

        return encode_bytes
    if isinstance(tokenizer, SentencePieceBPE):
        model = tokenizer

        def encode_pieces(text: str) -> Encoded:
            ids = model.encode(text)
            return ids, list[str | bytes](sentencepiece_token_bytes(model, ids, text))

        return encode_pieces
    if isinstance(tokenizer, TrainingResult):
        merges = tokenizer.merges
        vocab: dict[str, int] = {}
        for i, symbol in enumerate(tokenizer.vocabulary):
            vocab.setdefault(symbol, i)

        spelled: dict[str, list[str]] = {}  # a word encodes the same way wherever it stands: replay it once

        def encode_words(text: str) -> Encoded:
            words = split_text(text, word_split) if word_split is not None else text.split()
            if len(spelled) > MAX_CACHED_WORDS:
                spelled.clear()  # a long session of pasted texts: start again rather than grow without end
            symbols: list[str] = []
            for word in words:
                known = spelled.get(word)
                if known is None:
                    known = spelled[word] = encode_word(word, merges)
                symbols += known
            return [vocab.get(s, UNKNOWN_ID) for s in symbols], list[str | bytes](symbols)

        return encode_words
    if callable(getattr(tokenizer, "encode", None)) and callable(getattr(tokenizer, "decode", None)):
        other: Any = tokenizer

        def encode_other(text: str) -> Encoded:
            ids = list(other.encode(text))
            return ids, [other.decode([i]) for i in ids]

        return encode_other
    raise TypeError(
        "the explorer needs a tokenizer with encode and decode (a BPETokenizer, a tiktoken Encoding, a "
        "SentencePieceBPE, or "
        f"what train_bpe returned), got {type(tokenizer).__name__}"
    )
