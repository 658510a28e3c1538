"""Lesson 13 checker: ``byte_level_text(token)``, a token's bytes as Hugging Face writes them in ``tokenizer.json``.

Each byte gets one character: a printable Latin-1 byte (``!`` to ``~``, ``¡`` to ``¬``, ``®`` to ``ÿ``) stands
for itself; every other byte takes the next character from U+0100 on, in byte order, so the space (the 33rd
such byte, counting from 0 as the 32nd) becomes ``Ġ``, U+0120.
"""

from __future__ import annotations

from typing import Any

from bpelab.exercises.core import Case, CheckResult, Exercise, same_as, when
from bpelab.hugging_face import byte_level_text, byte_to_char, gpt2_byte_table

_PRINTABLE = {*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)}


def _by_byte_value(token: bytes) -> str:
    """A typical mistake: a non-printable byte b becomes chr(256 + b) instead of the next free stand-in."""
    return "".join(chr(b) if b in _PRINTABLE else chr(256 + b) for b in token)


def _each_byte_once(token: bytes) -> str:
    """A typical mistake: the characters gathered in a dict or set keyed by byte, so a byte that comes again is
    written once (``{b: table[b] for b in token}``, ``dict.fromkeys(token)``)."""
    return byte_level_text(bytes(dict.fromkeys(token)))


def _soft_hyphen_printable(token: bytes) -> str:
    """A typical mistake: the whole range ¡ to ÿ counted as printable, soft hyphen (0xAD) included."""
    printable = _PRINTABLE | {0xAD}
    others = [b for b in range(256) if b not in printable]
    table = {b: chr(b) for b in printable} | {b: chr(256 + n) for n, b in enumerate(others)}
    return "".join(table[b] for b in token)


BYTE_LEVEL_TEXT = Exercise(
    name="byte_level_text",
    call="byte_level_text(token)",
    reference=byte_level_text,
    solution=(byte_to_char, byte_level_text),  # the table's logic, not only the call that uses it
    course_functions=(byte_to_char, gpt2_byte_table),  # the table is the answer; a lambda looking bytes up in it too
    cases=lambda: [
        Case((b"the",), "the", "printable ASCII stands for itself"),
        Case((b" the",), "Ġthe", "the space becomes Ġ (U+0120)"),
        Case((b"\n",), "Ċ", "the newline becomes Ċ (U+010A)"),
        Case((b"hello",), "hello", "a byte that comes again is written again: one character per byte"),
        Case((b"  ",), "ĠĠ", "two spaces are two Ġ"),
        Case((b"",), "", "no bytes: empty text"),
        Case((b"\x00",), "Ā", "byte 0 is the first byte that is not printable: U+0100"),
        Case((b"\x7f",), "ġ", "byte 127 is the 34th that is not printable (0 to 32 came first): U+0121"),
        Case(("中".encode(),), "ä¸Ń", "one character, three bytes, three stand-ins"),
        Case((b"\xad",), "Ń", "byte 0xAD (soft hyphen) is invisible, so it takes a stand-in: U+0143"),
        Case(("café 😀\r\n".encode(),), note="accents, an emoji, a Windows line end"),
        Case((bytes(range(256)),), note="all 256 bytes in order"),
    ],
    diagnosers=[
        when(lambda a: isinstance(a.got, (list, tuple)), "return one string: join the characters with ''.join(...)"),
        same_as(
            lambda token: token.decode("latin-1"),
            "decoding as Latin-1 gives every byte its own character, but the bytes that do not print (the space, "
            "the newline, control bytes, 127 to 160, 0xAD) must take stand-ins from U+0100 on",
        ),
        same_as(
            lambda token: token.decode("utf-8", errors="replace"),
            "each BYTE gets one character, also inside a multi-byte character: do not decode the UTF-8",
        ),
        same_as(
            _by_byte_value,
            "a byte that does not print takes the NEXT free stand-in: the n-th such byte (n = 0, 1, 2, ...) becomes "
            "chr(256 + n), not chr(256 + byte). It agrees for bytes 0 to 32 only",
        ),
        same_as(
            _each_byte_once,
            "a byte that comes again was written once: collecting the characters in a dict or set keyed by byte "
            "(e.g. {b: table[b] for b in token}, dict.fromkeys(token)) keeps one per byte value. Map every byte of "
            "the token in order, repeats included: ''.join(table[b] for b in token)",
        ),
        same_as(
            _soft_hyphen_printable,
            "byte 0xAD (soft hyphen) does not print: the printable ranges are '!' to '~', '¡' to '¬' and '®' to 'ÿ'",
        ),
    ],
    hint=(
        "build the table once: printable = '!'..'~', '¡'..'¬', '®'..'ÿ' stand for themselves; go through bytes "
        "0..255 and give each other byte chr(256 + n), n counting up from 0; then map each byte of the token"
    ),
)


def check_byte_level_text(byte_level_text: Any, *, record: bool = True) -> CheckResult:
    """Check ``byte_level_text(token: bytes) -> str``: Hugging Face's ``ByteLevel`` stand-in for each byte."""
    return BYTE_LEVEL_TEXT.check(byte_level_text, record=record)
