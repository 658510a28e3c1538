"""A normalizer's precompiled character map (``nmt_nfkc`` and the like), applied as SentencePiece applies it.

A model whose normalizer is not 'identity' carries its rewriting rules compiled into one blob,
``precompiled_charsmap`` (``Normalizer::DecodePrecompiledCharsMap`` in ``src/normalizer.cc``,
github.com/google/sentencepiece): a 4-byte little-endian size, then a double-array trie of that many bytes
(darts-clone, ``third_party/darts_clone/darts.h``), then the replacement strings, each ended by a NUL byte.
The trie maps a UTF-8 byte string to the offset of its replacement.

Each trie unit is a 32-bit number: bit 8 says a key ends here (``has_leaf``), the low 31 bits of a leaf unit
are its value, ``unit & (1 << 31 | 0xFF)`` is the byte that leads to it (``label``), and
``(unit >> 10) << ((unit & 1 << 9) >> 6)`` is the jump to its children (``offset``). Walking the key byte by
byte (``commonPrefixSearch``) lists every rule that is a prefix of the text; ``NormalizePrefix`` takes the
longest, else the first character unchanged.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from bpelab.sentencepiece_model import ModelFileError


class CharsMap:
    """The rules of one ``precompiled_charsmap``."""

    def __init__(self, blob: bytes) -> None:
        if len(blob) <= 4:
            raise ModelFileError(
                "the precompiled character map is too short to hold its trie's size: the model is damaged"
            )
        (size,) = struct.unpack_from("<I", blob, 0)
        if size >= len(blob) or size % 4:
            raise ModelFileError(
                "the precompiled character map's trie size does not fit the blob: the model is damaged"
            )
        self.units = struct.unpack_from(f"<{size // 4}I", blob, 4)
        self.replacements = blob[4 + size :]

    def longest_rule(self, data: bytes, start: int) -> tuple[int, str] | None:
        """The longest rule matching ``data`` from ``start``: (bytes matched, replacement), or None."""
        units = self.units
        node = units[0] >> 10 << ((units[0] & 512) >> 6)
        found = None
        for i in range(start, len(data)):
            byte = data[i]
            node ^= byte
            if node >= len(units):
                break
            unit = units[node]
            if unit & 0x800000FF != byte:
                break
            node ^= unit >> 10 << ((unit & 512) >> 6)
            if unit >> 8 & 1:
                found = (i + 1 - start, units[node] & 0x7FFFFFFF)
        if found is None:
            return None
        length, offset = found
        end = self.replacements.index(b"\0", offset)
        return length, self.replacements[offset:end].decode("utf-8")


def normalized_units(text: str, charsmap: CharsMap, user_symbol_at: Callable[[str, int], str | None]) -> list[str]:
    """``text`` cut as ``NormalizePrefix`` cuts it, each unit already rewritten by the map.

    A user-defined symbol is kept as it is; otherwise the longest rule applies, else one character stays.
    """
    data = text.encode("utf-8")
    units: list[str] = []
    char = byte = 0  # the position in ``text`` and in ``data``
    while char < len(text):
        symbol = user_symbol_at(text, char)
        if symbol is not None:
            units.append(symbol)
            char += len(symbol)
            byte += len(symbol.encode("utf-8"))
            continue
        rule = charsmap.longest_rule(data, byte)
        if rule is None:
            units.append(text[char])
            byte += len(text[char].encode("utf-8"))
            char += 1
            continue
        length, replacement = rule
        matched = data[byte : byte + length].decode("utf-8")  # rules are whole characters
        units.append(replacement)
        char += len(matched)
        byte += length
    return units
