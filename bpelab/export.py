"""Your tokenizer in the production libraries (lesson 13): tiktoken's ``Encoding`` and Hugging Face's ``tokenizer.json``.

A ``BPETokenizer`` is already what both libraries run: a split pattern, byte-level tokens ranked by the
order they were learned, and special tokens beside them. Exporting is mostly renaming:

- **tiktoken** wants ``mergeable_ranks`` (each token's bytes -> its rank; here the rank is the id, since
  merges were learned in id order) and the pattern. tiktoken keeps only what the pattern matches, while
  bpelab also keeps the stretches between matches (``split_text(..., keep_gaps=True)``), so a pattern
  that can leave a gap gets one more alternative that matches the gap itself.
- **Hugging Face** ``tokenizers`` wants a JSON file: a ``Split`` pre-tokenizer with the pattern
  (``behavior: Isolated`` keeps the gaps as pieces, as bpelab does), a ``ByteLevel`` step that turns
  bytes into printable characters (GPT-2's table: byte 32, the space, becomes ``Ġ``), the vocabulary and
  merges in those characters, special tokens as added tokens, and a ``ByteLevel`` decoder.
  ``tokenizers`` 0.23 writes each merge as a pair ``["Ġ", "t"]`` and still reads the older form, one string
  ``"Ġ t"``: byte-level stand-ins never hold a real space, so both are unambiguous. The pair is written here.

The two libraries read regexes with engines other than Python's ``regex`` (Rust's fancy-regex for
tiktoken, Oniguruma for ``tokenizers``). The course's four patterns mean the same in all three; a
pattern of your own may not, so every export is checked on a probe text in many scripts and refused,
with the first difference, if the ids disagree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bpelab.hugging_face import byte_level_text, byte_to_char, merges_as_written
from bpelab.patterns import PATTERNS

if TYPE_CHECKING:  # tiktoken is only imported when an export is asked for
    import tiktoken

    from bpelab.byte_level import BPETokenizer

PROBE_TEXT = (
    "Hello world! It's 2024, and we're testing: 12345 + 678 = 13023.\n"
    "  Indented\tline\r\nwith CRLF, trailing spaces   \n\n"
    "Ünïcödé, naïve café, straße; ЁЛКА ёлка; Ελληνικά; עברית; العربية.\n"
    "中文分词测试，日本語のテキスト、한국어 문장. 😀👍🏽👨‍👩‍👧 e\u0301\u0301 x\u0308y\n"
    "def f(x):\n    return x**2  # comment\n"
    "URL https://example.com/a?b=c&d=e ... !!! ??? --- ___ '''\n"
)
"""Text the export is checked on: many scripts, digits, code, whitespace runs, emoji and combining marks."""


class ExportError(ValueError):
    """A tokenizer that cannot be written in the other library's format; the message says why."""


# ---- what both exports share ----------------------------------------------------------------


def _check_exportable(tokenizer: BPETokenizer, target: str) -> None:
    """Only byte-level tokenizers built from merges, with ids 256, 257, ... in learning order."""
    vocab = tokenizer.vocab
    if any(vocab.get(i) != bytes([i]) for i in range(256)):
        raise ExportError(f"cannot export to {target}: ids 0-255 must be the 256 byte values, as training makes them")
    for rank, ((a, b), new) in enumerate(tokenizer.merges.items(), start=256):
        if new != rank or vocab.get(new) != vocab.get(a, b"") + vocab.get(b, b""):
            raise ExportError(
                f"cannot export to {target}: merge {rank - 256} ({a}, {b}) -> {new} does not make id {rank} from its "
                "two parents' bytes; the production formats rank tokens by the order they were learned. Export a "
                "tokenizer made by BPETokenizer.train or BPETokenizer.load"
            )
    seen: dict[bytes, int] = {}
    for i in range(256 + len(tokenizer.merges)):
        if vocab[i] in seen:
            raise ExportError(
                f"cannot export to {target}: ids {seen[vocab[i]]} and {i} are both {vocab[i]!r}; tiktoken and "
                "Hugging Face give each byte string one id"
            )
        seen[vocab[i]] = i


def split_regex(pattern: str | None) -> str:
    """The regex the production libraries split with, cutting the same pieces as ``split_text(keep_gaps=True)``.

    No pattern: the whole text is one piece. One of the course's patterns leaves no gaps, so it is used as it
    is. Any other pattern gets a last alternative that matches a gap: the characters at which the pattern
    itself does not match.
    """
    if pattern is None:
        return r"[\s\S]+"
    if pattern in PATTERNS.values():
        return pattern
    return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])+"


def _first_difference(ours: list[int], theirs: list[int]) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    return f"at token {at}: bpelab gives {ours[at : at + 5]}, the export gives {theirs[at : at + 5]}"


def _probe(tokenizer: BPETokenizer, encode: Any, target: str) -> None:
    """Refuse an export that cuts the probe text differently from bpelab (a regex the other engine reads otherwise)."""
    ours = tokenizer.encode(PROBE_TEXT, allowed_special="all")
    theirs = encode(PROBE_TEXT)
    if ours != theirs:
        raise ExportError(
            f"cannot export to {target}: its regex engine reads this tokenizer's pattern {tokenizer.pattern!r} "
            f"differently from Python's regex module, so the ids would differ ({_first_difference(ours, theirs)} "
            "on bpelab.export.PROBE_TEXT). Train with one of the course's patterns "
            f"({', '.join(PATTERNS)}), or with a simpler regex (letters, digits, \\s, classes like \\p{{L}})"
        )


# ---- tiktoken ---------------------------------------------------------------------------------


def to_tiktoken(tokenizer: BPETokenizer, name: str = "bpelab") -> tiktoken.Encoding:
    """A ``tiktoken.Encoding`` that gives the same ids as ``tokenizer.encode`` (and refuses what it refuses)."""
    import tiktoken

    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, e.g. 'my_tokenizer', got {name!r}")
    _check_exportable(tokenizer, "tiktoken")
    ranks = {tokenizer.vocab[i]: i for i in range(256 + len(tokenizer.merges))}
    try:
        encoding = tiktoken.Encoding(
            name,
            pat_str=split_regex(tokenizer.pattern),
            mergeable_ranks=ranks,
            special_tokens=dict(tokenizer.special_tokens),
        )
    except ValueError as err:  # tiktoken's regex engine (fancy-regex) could not compile the pattern
        raise ExportError(
            f"cannot export to tiktoken: its regex engine (Rust fancy-regex) rejects this tokenizer's pattern "
            f"{tokenizer.pattern!r} ({err}). Train with one of the course's patterns ({', '.join(PATTERNS)})"
        ) from None
    _probe(tokenizer, lambda text: encoding.encode(text, allowed_special="all"), "tiktoken")
    return encoding


# ---- Hugging Face tokenizers ------------------------------------------------------------------


def hf_json(tokenizer: BPETokenizer) -> dict[str, Any]:
    """The content of a Hugging Face ``tokenizer.json`` for ``tokenizer`` (what ``save_hf`` writes)."""
    _check_exportable(tokenizer, "Hugging Face")
    stand_ins = set(byte_to_char().values()) - {chr(b) for b in range(128)}
    for special in tokenizer.special_tokens:
        odd = sorted({c for c in special if c in stand_ins})
        if odd:
            raise ExportError(
                f"cannot export to Hugging Face: the special token {special!r} holds {''.join(odd)!r}, which "
                "Hugging Face's ByteLevel decoder reads as stand-ins for single bytes (U+00A1 to U+0143), so it "
                "would decode garbled. Use special tokens in ASCII, like '<|endoftext|>', or other scripts"
            )
    vocab = tokenizer.vocab
    added = [
        {
            "id": i,
            "content": special,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for special, i in tokenizer.special_tokens.items()
    ]
    split_step: dict[str, Any] = {
        "type": "Split",
        "pattern": {"Regex": split_regex(tokenizer.pattern)},
        "behavior": "Isolated",  # matches AND the stretches between them are pieces, as in bpelab
        "invert": False,
    }
    byte_step = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [split_step, byte_step]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,  # apply the merges by rank, as bpelab does, even to a piece that is a token
            "vocab": {byte_level_text(vocab[i]): i for i in range(256 + len(tokenizer.merges))},
            "merges": merges_as_written(
                [(byte_level_text(vocab[a]), byte_level_text(vocab[b])) for a, b in tokenizer.merges]
            ),
        },
    }


def _unreadable(tokenizer: BPETokenizer, err: Exception) -> str:
    """Why ``tokenizers`` could not read the file: the pattern (Oniguruma rejects it), or something else."""
    import tokenizers

    try:
        tokenizers.pre_tokenizers.Split(tokenizers.Regex(split_regex(tokenizer.pattern)), "isolated")
    except Exception as regex_err:
        return (
            f"cannot export to Hugging Face: its regex engine (Oniguruma) rejects this tokenizer's pattern "
            f"{tokenizer.pattern!r} ({regex_err}). Train with one of the course's patterns ({', '.join(PATTERNS)})"
        )
    return (
        f"cannot export to Hugging Face: tokenizers {tokenizers.__version__} could not read the tokenizer.json "
        f"bpelab wrote ({err}); please report it, with that version"
    )


def save_hf(tokenizer: BPETokenizer, path: str | Path) -> Path:
    """Write ``tokenizer`` as a Hugging Face ``tokenizer.json`` that ``tokenizers.Tokenizer.from_file`` reads.

    The file is checked by loading it back with ``tokenizers`` and encoding
    ``PROBE_TEXT``; a tokenizer whose pattern Oniguruma reads otherwise is refused and nothing is written.
    """
    from tokenizers import Tokenizer  # imported here: only this export needs it

    content = json.dumps(hf_json(tokenizer), ensure_ascii=False, indent=2)
    try:
        loaded = Tokenizer.from_str(content)
    except Exception as err:  # tokenizers raises a plain Exception, whatever it could not read
        raise ExportError(_unreadable(tokenizer, err)) from None
    _probe(tokenizer, lambda text: loaded.encode(text).ids, "Hugging Face")
    path = Path(path)
    if path.is_dir():
        path = path / "tokenizer.json"
    path.write_text(content + "\n", encoding="utf-8", newline="\n")
    return path
