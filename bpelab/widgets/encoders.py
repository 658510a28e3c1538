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
from bpelab.words import TrainingResult, encode_word

UNKNOWN_ID = "?"
"""The id shown for a symbol a word-level tokenizer never saw in training."""

Encoded = tuple[list[Any], list[str | bytes]]
"""The ids of a text and the text or bytes of each token."""
MAX_CACHED_WORDS = 100_000
"""How many distinct words a word-level encoder keeps spelled (a keystroke re-encodes the whole text)."""


def encoder_for(tokenizer: object, word_split: str | None = None) -> Callable[[str], Encoded]:
    """How to get (ids, token pieces) out of any tokenizer the course has.

    A tiktoken ``Encoding`` and a ``BPETokenizer`` give each token's bytes; a word-level
    ``TrainingResult`` spells each word with its merges (ids are positions in its vocabulary,
    ``?`` for a character it never saw), cutting the text into words on whitespace, as
    ``train_bpe`` does, or with the regex ``word_split`` if the training text was split that way;
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
            ids = byte_level.encode_ordinary(text)
            return ids, list(token_bytes(ids))

        return encode_bytes
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
        "the explorer needs a tokenizer with encode and decode (a BPETokenizer, a tiktoken Encoding, or "
        f"what train_bpe returned), got {type(tokenizer).__name__}"
    )
