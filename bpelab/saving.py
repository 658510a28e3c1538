"""The readable save format of ``BPETokenizer`` (lesson 06): what ``save`` writes and ``load`` reads.

The file is plain text a person can read: a header line, the pattern and the special tokens as JSON
strings, then one merge per line as two ids (the bytes they stand for in a comment), then ``end``.
Only whole lines starting with ``#`` and the text after the two ids of a merge line are comments, so
nothing in a pattern or a special token can be mistaken for one. The ``end`` line shows that the file
is complete: a file cut short (even inside the last id) is refused. Reading never uses pickle or eval:
every line is parsed and checked, and any damage is reported with its line number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

import regex

from bpelab.files import write_text_atomically
from bpelab.patterns import compile_pattern, pattern_name_of
from bpelab.tokenizer_tables import ByteLevelTokenizer

Tokenizer = TypeVar("Tokenizer", bound=ByteLevelTokenizer)
"""``load`` hands in an empty tokenizer of its own class and gets the same one back, filled."""

FORMAT_HEADER = "bpelab-tokenizer v2"


class TokenizerFileError(ValueError):
    """A saved tokenizer file that cannot be read back."""


def write_tokenizer(tokenizer: ByteLevelTokenizer, path: str | Path) -> Path:
    """Write ``tokenizer`` to ``path`` in this format (``BPETokenizer.save``)."""
    if any(tokenizer.vocab[i] != bytes([i]) for i in range(256)) or any(
        tokenizer.vocab[new] != tokenizer.vocab[a] + tokenizer.vocab[b] for (a, b), new in tokenizer.merges.items()
    ):
        raise ValueError(
            "only tokenizers built from merges can be saved; a production vocabulary already lives in tiktoken's files"
        )
    show = lambda b: json.dumps(b.decode("utf-8", errors="backslashreplace"), ensure_ascii=False)  # noqa: E731
    lines = [
        FORMAT_HEADER,
        "# Byte-level BPE saved by bpelab. Ids 0-255 are the byte values; each merge line below joins",
        "# two ids into the next id, starting at 256. The pattern and the special tokens are JSON strings.",
        "# Lines starting with '#', and the text after a merge's two ids, are comments.",
        f"pattern {json.dumps(tokenizer.pattern, ensure_ascii=False) if tokenizer.pattern is not None else 'none'}",
        f"special_tokens {len(tokenizer.special_tokens)}",
        *(f"{json.dumps(s, ensure_ascii=False)} {i}" for s, i in tokenizer.special_tokens.items()),
        f"merges {len(tokenizer.merges)}",
        *(
            f"{a} {b}  # {new}: {show(tokenizer.vocab[a])} + {show(tokenizer.vocab[b])} = {show(tokenizer.vocab[new])}"
            for (a, b), new in tokenizer.merges.items()
        ),
        "end",
    ]
    # through a temporary file: a save that fails midway (a full disk) leaves the earlier file whole
    return write_text_atomically(Path(path), "\n".join(lines) + "\n")


def read_tokenizer(path: str | Path, tokenizer: Tokenizer) -> Tokenizer:
    """Read a file written by ``write_tokenizer`` (this format, or the older v1) into an empty ``tokenizer``.
    A UTF-8 byte-order mark at the start (some editors add one) is fine."""
    path = Path(path)
    try:
        raw = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TokenizerFileError(f"{path} is not a text file saved by BPETokenizer.save (not UTF-8)") from None
    return _SavedFile(raw, str(path)).read_into(tokenizer)


class _SavedFile:
    """The reader of saved tokenizers: one line at a time, each checked, each error with its line number.

    Version 1 (``bpelab-tokenizer v1``) had no ``end`` line and cut every line at two spaces and
    ``#``; its files are still read (a JSON string is read whole first, so a ``  #`` inside one
    survives here too).
    """

    def __init__(self, raw: str, name: str) -> None:
        # Only "\n" ends a line: a special token may hold U+2028 or U+0085, which splitlines() would cut at.
        self.lines = [(n, line.rstrip("\r")) for n, line in enumerate(raw.split("\n"), 1)]
        self.name = name
        self.position = 0
        self.version = 0

    def fail(self, n: int, message: str) -> TokenizerFileError:
        return TokenizerFileError(
            f"{self.name}, line {n}: {message}. The file was changed or damaged after it was saved; "
            "use an undamaged copy, or train the tokenizer again"
        )

    def next_line(self, expected: str) -> tuple[int, str]:
        """The next line that is not blank and not a comment line."""
        while self.position < len(self.lines):
            n, line = self.lines[self.position]
            self.position += 1
            if line.strip() and not line.lstrip().startswith("#"):
                return n, line
        last = next((n for n, line in reversed(self.lines) if line.strip()), 0)
        raise TokenizerFileError(
            f"{self.name}: the file stops after line {last}, where {expected} should follow: it was cut off "
            "(an interrupted copy or download?). Use a complete copy of the file"
        )

    def keyword_line(self, keyword: str) -> tuple[int, str]:
        n, line = self.next_line(f"the '{keyword}' line")
        if not line.startswith(keyword + " "):
            raise self.fail(n, f"expected a line starting with '{keyword} ', found {line[:60]!r}")
        return n, line[len(keyword) + 1 :]

    def count(self, keyword: str) -> tuple[int, int]:
        n, value = self.keyword_line(keyword)
        value = value.strip()
        if not value.isdigit():
            raise self.fail(n, f"'{keyword}' must be followed by a count, found {value[:60]!r}")
        return n, int(value)

    def json_string(self, n: int, text: str, what: str) -> tuple[str, str]:
        """A JSON string at the start of ``text``, and the rest of the line after it."""
        try:
            value, end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError:
            value, end = None, 0
        if not isinstance(value, str):
            raise self.fail(n, f"{what} must be a JSON string in double quotes, found {text[:60]!r}")
        return value, text[end:]

    def comment_only(self, rest: str) -> bool:
        """Nothing after the data but spaces, or (in v1 files) a "  #" comment."""
        rest = rest.strip()
        return not rest or (self.version == 1 and rest.startswith("#"))

    def read_into(self, tokenizer: Tokenizer) -> Tokenizer:
        n, header = self.next_line("the header")
        versions = {FORMAT_HEADER: 2, "bpelab-tokenizer v1": 1}
        if header.strip() not in versions:
            raise TokenizerFileError(
                f"{self.name} does not start with '{FORMAT_HEADER}' (or an older 'bpelab-tokenizer v1'): "
                f"it is not a file saved by BPETokenizer.save; its first line is {header[:60]!r}"
            )
        self.version = versions[header.strip()]

        n, value = self.keyword_line("pattern")
        if value.strip() != "none" and not (self.version == 1 and value.split("  #")[0].strip() == "none"):
            pattern, rest = self.json_string(n, value.strip(), "the pattern")
            if not self.comment_only(rest):
                raise self.fail(n, f"unexpected text after the pattern: {rest.strip()[:60]!r}")
            try:
                compile_pattern(pattern)
            except regex.error as err:
                raise self.fail(n, f"the pattern {pattern[:60]!r} is not a valid regex ({err})") from None
            tokenizer.pattern = pattern
            tokenizer.pattern_name = pattern_name_of(pattern)

        n, how_many = self.count("special_tokens")
        specials: list[tuple[int, str, int]] = []
        for _ in range(how_many):
            n, line = self.next_line("a special token")
            special, rest = self.json_string(n, line.strip(), "a special token")
            try:
                if not special.encode("utf-8"):
                    raise self.fail(n, "a special token is empty")
            except UnicodeEncodeError:
                raise self.fail(n, f"the special token {special!r} holds a lone surrogate: it has no bytes") from None
            id_text, _, comment = rest.strip().partition(" ")
            if not id_text.isdigit() or not self.comment_only(comment):
                raise self.fail(n, f"expected a special token as a JSON string and its id, found {line[:60]!r}")
            specials.append((n, special, int(id_text)))

        n, how_many = self.count("merges")
        for _ in range(how_many):
            n, line = self.next_line("a merge")
            ids, _, comment = line.partition("#")
            parts = ids.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise self.fail(n, f"expected two token ids like '101 32', found {line[:60]!r}")
            a, b = int(parts[0]), int(parts[1])
            new_id = len(tokenizer.vocab)
            for i in (a, b):
                if i not in tokenizer.vocab:
                    raise self.fail(n, f"id {i} is used before it exists (ids so far run 0 to {new_id - 1})")
            if (a, b) in tokenizer.merges:
                raise self.fail(n, f"the pair {a} {b} is merged twice")
            tokenizer.merges[(a, b)] = new_id
            tokenizer.vocab[new_id] = tokenizer.vocab[a] + tokenizer.vocab[b]

        for n, special, number in specials:
            if number in tokenizer.vocab:
                raise self.fail(n, f"special token {special!r} has id {number}, which is already taken")
            tokenizer.special_tokens[special] = number
            tokenizer.vocab[number] = special.encode("utf-8")

        if self.version >= 2:
            n, line = self.next_line("the 'end' line")
            if line.strip() != "end":
                raise self.fail(n, f"expected the 'end' line after {how_many} merges, found {line[:60]!r}")
        for n, line in self.lines[self.position :]:
            if line.strip() and not line.lstrip().startswith("#"):
                raise self.fail(
                    n, f"unexpected text after the last {'line' if self.version >= 2 else 'merge'}: {line[:60]!r}"
                )
        return tokenizer
