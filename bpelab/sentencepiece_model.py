"""Reading a SentencePiece ``.model`` file without the ``protobuf`` package.

A ``.model`` file is one protobuf message, ``ModelProto``, whose schema SentencePiece publishes in
``src/sentencepiece_model.proto`` (github.com/google/sentencepiece). Protobuf's wire format is small
enough to read by hand: a message is a run of fields, each a *key* then a *value*. The key is a varint
holding ``field_number << 3 | wire_type``; the wire type says how long the value is:

- 0, a varint: 7 bits a byte, least significant first, the top bit set on every byte but the last
  (bools, enums and ints; a negative int32 such as ``pad_id = -1`` is written as 64-bit two's complement);
- 1, eight bytes (fixed64) and 5, four bytes (fixed32: a ``float`` score is four little-endian bytes);
- 2, a varint length then that many bytes (strings, byte strings and nested messages).

The field numbers below are the schema's: ``ModelProto`` has ``pieces = 1``, ``trainer_spec = 2``,
``normalizer_spec = 3``, ``self_test_data = 4``, ``denormalizer_spec = 5``; each piece has
``piece = 1``, ``score = 2``, ``type = 3``. A field the file leaves out takes the schema's default.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path


class ModelFileError(ValueError):
    """The file is not a SentencePiece model this module can read; the message says why."""


class PieceType(IntEnum):
    """``ModelProto.SentencePiece.Type`` in the schema."""

    NORMAL = 1
    UNKNOWN = 2
    CONTROL = 3
    USER_DEFINED = 4
    UNUSED = 5
    BYTE = 6


class ModelType(IntEnum):
    """``TrainerSpec.ModelType`` in the schema."""

    UNIGRAM = 1
    BPE = 2
    WORD = 3
    CHAR = 4


@dataclass(frozen=True)
class Piece:
    piece: str
    score: float
    type: PieceType


@dataclass(frozen=True)
class NormalizerSpec:
    """How text is prepared before it is split (``NormalizerSpec`` in the schema, with its defaults)."""

    name: str = ""
    precompiled_charsmap: bytes = b""
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    escape_whitespaces: bool = True
    normalization_rule_tsv: str = ""


@dataclass(frozen=True)
class TrainerSpec:
    """The settings the model was trained with (the ``TrainerSpec`` fields encoding needs, or a lesson shows)."""

    model_type: ModelType = ModelType.UNIGRAM
    vocab_size: int = 8000
    character_coverage: float = 0.9995
    byte_fallback: bool = False
    split_digits: bool = False
    treat_whitespace_as_suffix: bool = False
    max_sentencepiece_length: int = 16
    unk_id: int = 0
    bos_id: int = 1
    eos_id: int = 2
    pad_id: int = -1
    unk_piece: str = "<unk>"
    bos_piece: str = "<s>"
    eos_piece: str = "</s>"
    pad_piece: str = "<pad>"
    unk_surface: str = " \u2047 "
    user_defined_symbols: tuple[str, ...] = ()
    control_symbols: tuple[str, ...] = ()


@dataclass(frozen=True)
class ModelFile:
    pieces: list[Piece]
    trainer: TrainerSpec = field(default_factory=TrainerSpec)
    normalizer: NormalizerSpec = field(default_factory=NormalizerSpec)
    denormalizer: NormalizerSpec | None = None


# ---- the wire format -----------------------------------------------------------------------


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The varint starting at ``pos``, and the position just after it."""
    value = shift = 0
    while True:
        if pos >= len(data):
            raise ModelFileError("the file ends inside a number: it is truncated or not a SentencePiece model")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ModelFileError("a number is longer than 10 bytes: this is not a SentencePiece model")


def fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """Each ``(field_number, value)`` of a message: an int for wire types 0, 1 and 5, bytes for wire type 2."""
    pos = 0
    while pos < len(data):
        key, pos = read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        value: int | bytes
        if wire_type == 0:
            value, pos = read_varint(data, pos)
        elif wire_type == 1:
            value, pos = int.from_bytes(data[pos : pos + 8], "little"), pos + 8
        elif wire_type == 5:
            value, pos = int.from_bytes(data[pos : pos + 4], "little"), pos + 4
        elif wire_type == 2:
            length, pos = read_varint(data, pos)
            value, pos = data[pos : pos + length], pos + length
        else:
            raise ModelFileError(
                f"wire type {wire_type} (field {number}) is not used by ModelProto: not a SentencePiece model"
            )
        if pos > len(data) or number == 0:
            raise ModelFileError(
                "a field runs past the end of its message: the file is truncated or not a SentencePiece model"
            )
        yield number, value


def _int32(value: int | bytes) -> int:
    assert isinstance(value, int)
    return value - (1 << 64) if value >= 1 << 63 else value


def _float(value: int | bytes) -> float:
    assert isinstance(value, int)
    result: float = struct.unpack("<f", value.to_bytes(4, "little"))[0]
    return result


def _text(value: int | bytes) -> str:
    assert isinstance(value, bytes)
    return value.decode("utf-8")


def _message(value: int | bytes) -> bytes:
    if not isinstance(value, bytes):
        raise ModelFileError("a nested message is stored as a number: not a SentencePiece model")
    return value


# ---- the messages ----------------------------------------------------------------------------


def read_piece(data: bytes) -> Piece:
    text, score, kind = "", 0.0, PieceType.NORMAL
    for number, value in fields(data):
        if number == 1:
            text = _text(value)
        elif number == 2:
            score = _float(value)
        elif number == 3:
            kind = PieceType(_int32(value))
    return Piece(text, score, kind)


_TRAINER_FIELDS: dict[int, tuple[str, str]] = {
    3: ("model_type", "enum"),
    4: ("vocab_size", "int"),
    10: ("character_coverage", "float"),
    35: ("byte_fallback", "bool"),
    25: ("split_digits", "bool"),
    24: ("treat_whitespace_as_suffix", "bool"),
    20: ("max_sentencepiece_length", "int"),
    40: ("unk_id", "int"),
    41: ("bos_id", "int"),
    42: ("eos_id", "int"),
    43: ("pad_id", "int"),
    45: ("unk_piece", "str"),
    46: ("bos_piece", "str"),
    47: ("eos_piece", "str"),
    48: ("pad_piece", "str"),
    44: ("unk_surface", "str"),
    31: ("user_defined_symbols", "list"),
    30: ("control_symbols", "list"),
}
"""``TrainerSpec`` field number -> (attribute, kind): the schema's numbers for the settings kept here."""

_NORMALIZER_FIELDS: dict[int, tuple[str, str]] = {
    1: ("name", "str"),
    2: ("precompiled_charsmap", "bytes"),
    3: ("add_dummy_prefix", "bool"),
    4: ("remove_extra_whitespaces", "bool"),
    5: ("escape_whitespaces", "bool"),
    6: ("normalization_rule_tsv", "str"),
}


def _read_spec(data: bytes, numbers: dict[int, tuple[str, str]]) -> dict[str, object]:
    found: dict[str, object] = {}
    for number, value in fields(data):
        if number not in numbers:
            continue  # a setting this module does not need (the schema has ~50)
        name, kind = numbers[number]
        if kind == "list":
            found[name] = (*found.get(name, ()), _text(value))  # type: ignore[misc]
        elif kind == "str":
            found[name] = _text(value)
        elif kind == "bytes":
            found[name] = _message(value)
        elif kind == "float":
            found[name] = _float(value)
        elif kind == "bool":
            found[name] = bool(_int32(value))
        elif kind == "enum":
            found[name] = ModelType(_int32(value))
        else:
            found[name] = _int32(value)
    return found


def parse_model(data: bytes) -> ModelFile:
    """A ``ModelProto`` from its bytes."""
    pieces: list[Piece] = []
    trainer, normalizer, denormalizer = TrainerSpec(), NormalizerSpec(), None
    try:
        for number, value in fields(data):
            if number == 1:
                pieces.append(read_piece(_message(value)))
            elif number == 2:
                trainer = TrainerSpec(**_read_spec(_message(value), _TRAINER_FIELDS))  # type: ignore[arg-type]
            elif number == 3:
                normalizer = NormalizerSpec(**_read_spec(_message(value), _NORMALIZER_FIELDS))  # type: ignore[arg-type]
            elif number == 5:
                denormalizer = NormalizerSpec(**_read_spec(_message(value), _NORMALIZER_FIELDS))  # type: ignore[arg-type]
    except (UnicodeDecodeError, ValueError) as err:
        if isinstance(err, ModelFileError):
            raise
        raise ModelFileError(
            f"a field holds a value ModelProto does not allow ({err}): not a SentencePiece model"
        ) from err
    if not pieces:
        raise ModelFileError("the file holds no pieces: it is not a SentencePiece model (or it is empty)")
    return ModelFile(pieces, trainer, normalizer, denormalizer)


def read_model_file(path: str | Path) -> ModelFile:
    """The ``.model`` file at ``path``."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"no SentencePiece model at {path}") from None
    try:
        return parse_model(data)
    except ModelFileError as err:
        raise ModelFileError(f"{Path(path).name}: {err}") from None
