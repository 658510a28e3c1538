"""Tiny SentencePiece models written byte by byte, for cases small enough to check by hand.

The bytes follow the schema in SentencePiece's ``src/sentencepiece_model.proto``; the ``sentencepiece``
library loads them too (``SentencePieceProcessor().load_from_serialized_proto``), so every toy is checked
against the real thing as well as by hand.
"""

from __future__ import annotations

import struct

import sentencepiece as spm

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def varint(n: int) -> bytes:
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def number_field(number: int, value: int) -> bytes:
    return varint(number << 3 | 0) + varint(value)


def bytes_field(number: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def float_field(number: int, value: float) -> bytes:
    return varint(number << 3 | 5) + struct.pack("<f", value)


def toy_model(
    pieces: list[tuple[str, float, int]],
    *,
    byte_fallback: bool = False,
    add_dummy_prefix: bool = True,
    remove_extra_whitespaces: bool = False,
    model_type: int = 2,
    normalizer: tuple[str, bytes] = ("identity", b""),
) -> bytes:
    """A ``ModelProto``: ``pieces`` as (piece, score, type), a BPE trainer spec, a normalizer (name, charsmap)."""
    data = b"".join(
        bytes_field(1, bytes_field(1, piece) + float_field(2, score) + number_field(3, kind))
        for piece, score, kind in pieces
    )
    trainer = number_field(3, model_type) + number_field(4, len(pieces)) + number_field(35, byte_fallback)
    trainer += number_field(43, -1)  # pad_id = -1: a negative int32, ten bytes on the wire
    name, charsmap = normalizer
    spec = bytes_field(1, name) + (bytes_field(2, charsmap) if charsmap else b"") + number_field(3, add_dummy_prefix)
    spec += number_field(4, remove_extra_whitespaces)
    return data + bytes_field(2, trainer) + bytes_field(3, spec)


def with_bytes(pieces: list[tuple[str, float, int]]) -> list[tuple[str, float, int]]:
    """``pieces`` with the 256 byte pieces after the unknown piece, as SentencePiece's trainer places them."""
    return pieces[:1] + [(f"<0x{b:02X}>", 0.0, BYTE) for b in range(256)] + pieces[1:]


def reference(model: bytes) -> spm.SentencePieceProcessor:
    processor = spm.SentencePieceProcessor()
    processor.load_from_serialized_proto(model)
    return processor
