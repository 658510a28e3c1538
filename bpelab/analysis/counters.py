"""From "which tokenizers?" to token counters: what every measurement in ``analysis/`` starts from.

A learner may name a course encoding ("cl100k_base"), pass an object with ``encode`` (a
``BPETokenizer``, a ``tiktoken.Encoding``, anything of their own), or a list or dict of these. The
tax (lesson 09) and compression (lesson 08) both take all of these forms, so both turn them into
counters here, with the same labels and the same errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bpelab.production import ENCODING_NAMES, load_encoding

Counter = Callable[[str], int]
"""A function text -> number of tokens."""


def _counter(tokenizer: Any) -> Counter:
    """A function text -> number of tokens. ``encode_ordinary`` is preferred where it exists
    (tiktoken, BPETokenizer), so that text which looks like '<|endoftext|>' is counted as text."""
    encode = getattr(tokenizer, "encode_ordinary", None) or getattr(tokenizer, "encode", None)
    if not callable(encode):
        raise TypeError(
            f"a tokenizer must be one of the names {', '.join(ENCODING_NAMES)} or an object with an "
            f"encode(text) method; got {type(tokenizer).__name__}, which has no encode method"
        )

    def count(text: str) -> int:
        ids = encode(text)
        try:
            return len(ids)
        except TypeError:
            raise TypeError(
                f"{type(tokenizer).__name__}.encode returned {type(ids).__name__}, which has no length; "
                "encode(text) must return a list of token ids"
            ) from None

    return count


def _label(tokenizer: Any) -> str:
    name = getattr(tokenizer, "name", None)
    return name if isinstance(name, str) and name else type(tokenizer).__name__


def resolve_tokenizers(tokenizers: Any) -> dict[str, Counter]:
    """Label -> token counter, from a name, an object with ``encode``, a list of these, or a dict
    label -> name or object. Objects without a ``name`` are labelled by their class; repeated
    labels get " (2)", " (3)" so that no row is overwritten."""
    if isinstance(tokenizers, str) or hasattr(tokenizers, "encode"):
        tokenizers = [tokenizers]
    if isinstance(tokenizers, Mapping):
        items = [(str(label), tok) for label, tok in tokenizers.items()]
    elif isinstance(tokenizers, Iterable):
        items = [(tok if isinstance(tok, str) else _label(tok), tok) for tok in tokenizers]
    else:
        raise TypeError(
            f"tokenizers must be a name, an object with encode, a list of these or a dict; got {type(tokenizers).__name__}"
        )
    if not items:
        raise ValueError(
            f"no tokenizers given; try ['cl100k_base', 'o200k_base'] (known names: {', '.join(ENCODING_NAMES)})"
        )

    resolved: dict[str, Counter] = {}
    for label, tok in items:
        if isinstance(tok, str):
            if tok not in ENCODING_NAMES:
                raise ValueError(
                    f"unknown tokenizer name {tok!r}; the names this course knows are {', '.join(ENCODING_NAMES)}. "
                    "For any other tokenizer, pass the object itself (anything with an encode(text) method)."
                )
            tok = load_encoding(tok)
        unique, n = label, 1
        while unique in resolved:
            n += 1
            unique = f"{label} ({n})"
        resolved[unique] = _counter(tok)
    return resolved
