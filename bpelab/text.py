"""Lesson 01, text is numbers: characters, code points, UTF-8 bytes, and the character baseline."""

from __future__ import annotations


def utf8_bytes(text: str) -> bytes:
    """``text`` as UTF-8, with a clear error for the one thing UTF-8 cannot encode: lone surrogates."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}; convert it first, e.g. str(x)")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = text[err.start]
        raise ValueError(
            f"text cannot be encoded as UTF-8: character {err.start} is a lone surrogate "
            f"U+{ord(bad):04X}, half of a UTF-16 pair. Remove it, or clean the text with "
            f"text.encode('utf-8', 'replace').decode('utf-8')"
        ) from None


def replace_lone_surrogates(text: str) -> str:
    r"""``text`` with every lone surrogate replaced by U+FFFD, exactly as tiktoken's ``encode`` does it.

    tiktoken cannot hand a lone surrogate to its encoder, so it re-reads the text as UTF-16: a lone
    half becomes "\ufffd", and two halves that form a pair (``"\ud83d\ude00"``) become the
    character they encode (``"😀"``). Text without surrogates comes back unchanged.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def byte_count(text: str) -> dict[str, float]:
    """How many characters, how many UTF-8 bytes, and bytes per character (rounded to 2 places).

    >>> byte_count("héllo")
    {'chars': 5, 'bytes': 6, 'bytes_per_char': 1.2}
    """
    n_bytes = len(utf8_bytes(text))
    n_chars = len(text)
    return {
        "chars": n_chars,
        "bytes": n_bytes,
        "bytes_per_char": round(n_bytes / n_chars, 2) if n_chars else 0.0,
    }


class CharTokenizer:
    """The baseline: one token per character, its Unicode code point as the id.

    Nothing is ever unknown, but sequences are as long as the text, and the "vocabulary"
    is all 1,114,112 code points.
    """

    vocab_size = 0x110000

    def encode(self, text: str) -> list[int]:
        if not isinstance(text, str):
            raise TypeError(f"encode() needs a str, got {type(text).__name__}")
        return [ord(ch) for ch in text]

    def decode(self, ids: list[int]) -> str:
        out = []
        for position, i in enumerate(ids):
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.vocab_size:
                raise ValueError(
                    f"id {i!r} at position {position} is not a code point; ids must be ints from 0 to {self.vocab_size - 1}"
                )
            out.append(chr(i))
        return "".join(out)
