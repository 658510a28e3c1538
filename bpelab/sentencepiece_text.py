"""What SentencePiece does to text around the pieces: normalizing it before, reading byte pieces back after.

``normalize`` is ``Normalizer::Normalize`` (``src/normalizer.cc`` in github.com/google/sentencepiece): spaces,
the dummy prefix, extra whitespace. ``decode_byte_run`` is what ``Decode`` does with a
run of byte pieces (``src/sentencepiece_processor.cc``), with ``DecodeUTF8``'s test of a valid character
(``src/util.cc``). Encoding (``bpelab.sentencepiece``) and training (``bpelab.sentencepiece_training``) share them.
"""

from __future__ import annotations

from bpelab.sentencepiece_model import NormalizerSpec

SPACE = "\u2581"
"""``▁``, LOWER ONE EIGHTH BLOCK: how SentencePiece writes a space inside a piece."""
REPLACEMENT = "\ufffd"


def byte_piece(byte: int) -> str:
    """The piece that stands for one byte under byte fallback: ``<0x41>`` for ``A``."""
    return f"<0x{byte:02X}>"


def utf8_length_at(data: bytes, i: int) -> int:
    """How many bytes from ``data[i]`` form one character, or 0 if they do not form a valid one.

    SentencePiece's own test (``util.cc``, ``DecodeUTF8``): a lead byte, the right number of continuation
    bytes, no overlong form, no surrogate, nothing past U+10FFFF.
    """
    first = data[i]
    if first < 0x80:
        return 1
    for length, mask, lead, smallest in ((2, 0xE0, 0xC0, 0x80), (3, 0xF0, 0xE0, 0x800), (4, 0xF8, 0xF0, 0x10000)):
        if first & mask == lead:
            part = data[i : i + length]
            if len(part) < length or any(b & 0xC0 != 0x80 for b in part[1:]):
                return 0
            code = first & (0x7F >> length)
            for b in part[1:]:
                code = code << 6 | (b & 0x3F)
            valid = code >= smallest and (code < 0xD800 or 0xE000 <= code <= 0x10FFFF)
            return length if valid else 0
    return 0


def decode_byte_run(data: bytes) -> str:
    """Bytes from byte pieces as text: each valid character as itself, *each* invalid byte as U+FFFD.

    Python's ``errors="replace"`` would replace a maximal invalid run once (``b"\\xe2\\x82"`` gives one U+FFFD;
    SentencePiece gives two). Where the bytes are valid UTF-8, both rules agree with a strict decode.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out, i = [], 0
    while i < len(data):
        n = utf8_length_at(data, i)
        out.append(data[i : i + n].decode("utf-8") if n else REPLACEMENT)
        i += n or 1
    return "".join(out)


def normalize(units: list[str], spec: NormalizerSpec, suffix: bool = False) -> str:
    """Text as a SentencePiece model sees it (``Normalizer::Normalize``).

    ``units`` is the text as ``NormalizePrefix`` cuts it: characters, each user-defined symbol whole, and under a
    character map (``bpelab.sentencepiece_charsmap``) each rule's replacement. Each ``" "`` (U+0020 only: under
    the 'identity' rule a tab or a newline is an ordinary character) becomes ``▁``; a dummy ``▁`` goes in front
    (at the end with treat_whitespace_as_suffix); remove_extra_whitespaces drops leading and trailing spaces and
    joins runs.
    """
    space = SPACE if spec.escape_whitespaces else " "
    if spec.remove_extra_whitespaces:
        first = next((i for i, unit in enumerate(units) if unit != " "), len(units))
        units = units[first:]
    if not units:
        return ""
    out = [space] if spec.add_dummy_prefix and not suffix else []
    previous_was_space = spec.remove_extra_whitespaces
    for unit in units:
        if previous_was_space:
            unit = unit.lstrip(" ")
        if unit:
            out.append(unit.replace(" ", SPACE) if spec.escape_whitespaces else unit)
            previous_was_space = spec.remove_extra_whitespaces and unit.endswith(" ")
    normalized = "".join(out)
    if spec.remove_extra_whitespaces:
        while normalized.endswith(space):
            normalized = normalized[: -len(space)]
    if spec.add_dummy_prefix and suffix:
        normalized += space
    return normalized
