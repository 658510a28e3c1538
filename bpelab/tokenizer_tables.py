"""What the save formats and the exports read and write of a byte-level tokenizer: its tables and its pattern.

``BPETokenizer`` has all of it. The files that save, load and export it (``saving``, ``export``,
``tiktoken_file``) name this protocol rather than the class, so they never import ``byte_level``, whose
``save``, ``load`` and ``to_tiktoken`` methods import them: each file reads alone, from the bottom up.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class ByteLevelTokenizer(Protocol):
    """A byte-level BPE tokenizer as its files see it: ids 0-255 are bytes, each merge makes the next id."""

    vocab: dict[int, bytes]
    """Every id's bytes: the 256 byte values, each merge's joined bytes, each special token's UTF-8."""
    merges: dict[tuple[int, int], int]
    """Each learned pair and the id it makes, in learning order."""
    special_tokens: dict[str, int]
    pattern: str | None
    """The split pattern (``None``: no pre-tokenization)."""
    pattern_name: str | None
    """The pattern's short name when it is one of the course's (``"gpt4"``), else ``None``."""

    def encode(self, text: str, *, allowed_special: Any = ..., disallowed_special: Any = ...) -> list[int]: ...
