"""Regex pre-tokenization: the split patterns of GPT-2, GPT-4 (cl100k), GPT-4o (o200k) and Llama 3.

Before BPE sees any bytes, a regular expression cuts the text into pieces ("pre-tokens"), and
merges never cross a piece boundary. That is why " dog" and "dog." never become one token.

Each pattern is kept as its list of alternatives, one per line with what it is for, so that a
lesson can take it apart. Joined with ``|`` they are exactly the strings the real tokenizers use
(tiktoken's ``_pat_str``; Llama 3's from Meta's ``tokenizer.py``); a test checks that. They need
the ``regex`` module: the standard ``re`` knows neither ``\\p{L}`` nor possessive ``++``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex


@dataclass(frozen=True)
class Alternative:
    regex: str
    meaning: str
    example: str


GPT2 = (
    Alternative(r"""'(?:[sdmt]|ll|ve|re)""", "an English contraction ending: 's 'd 'm 't 'll 've 're", "don't"),
    Alternative(r""" ?\p{L}++""", "a run of letters, with at most one space in front", " hello"),
    Alternative(r""" ?\p{N}++""", "a run of digits of any length, with at most one space in front", " 2024"),
    Alternative(
        r""" ?[^\s\p{L}\p{N}]++""", "a run of punctuation or symbols, with at most one space in front", " ...!"
    ),
    Alternative(r"""\s++$""", "whitespace at the very end of the text", "end   "),
    Alternative(r"""\s+(?!\S)""", "whitespace, leaving its last space to the next word", "a   b"),
    Alternative(r"""\s""", "one leftover whitespace character", "a\nb"),
)

CL100K = (
    Alternative(r"""'(?i:[sdmt]|ll|ve|re)""", "a contraction ending, now also in capitals: 'S 'LL", "DON'T"),
    Alternative(
        r"""[^\r\n\p{L}\p{N}]?+\p{L}++""",
        "letters, with one optional non-letter in front (a space, or '_' or '.')",
        "_init",
    ),
    Alternative(r"""\p{N}{1,3}+""", "digits, at most three at a time", "1234567"),
    Alternative(
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*+""", "punctuation or symbols, keeping the newlines that follow", " {}\n"
    ),
    Alternative(r"""\s++$""", "whitespace at the very end of the text", "end   "),
    Alternative(r"""\s*[\r\n]""", "whitespace up to and including a line break", "x  \ny"),
    Alternative(r"""\s+(?!\S)""", "whitespace, leaving its last space to the next word", "a   b"),
    Alternative(r"""\s""", "one leftover whitespace character", "x 1"),
)

_CONTRACTION = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?"""
O200K = (
    Alternative(
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""" + _CONTRACTION,
        "letters: any capitals or letters without case, then at least one lower-case or caseless letter (a capital "
        "after a lower-case letter starts a new piece: Camel|Case; 東京 is one), with its contraction",
        "CamelCase",
    ),
    Alternative(
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""" + _CONTRACTION,
        "a word in capitals only, such as an acronym, with its contraction",
        "NASA",
    ),
    Alternative(r"""\p{N}{1,3}""", "digits, at most three at a time", "1234567"),
    Alternative(r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", "punctuation or symbols, keeping newlines and slashes after", " </"),
    Alternative(r"""\s*[\r\n]+""", "whitespace up to and including line breaks", "  \n\n"),
    Alternative(r"""\s+(?!\S)""", "whitespace, leaving its last space to the next word", "a   b"),
    Alternative(r"""\s+""", "leftover whitespace", "x 1"),
)

LLAMA3 = (
    Alternative(r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)""", "a contraction ending, any case", "DON'T"),
    Alternative(r"""[^\r\n\p{L}\p{N}]?\p{L}+""", "letters, with one optional non-letter in front", " hello"),
    Alternative(r"""\p{N}{1,3}""", "digits, at most three at a time", "1234567"),
    Alternative(r""" ?[^\s\p{L}\p{N}]+[\r\n]*""", "punctuation or symbols, keeping the newlines that follow", " {}\n"),
    Alternative(r"""\s*[\r\n]+""", "whitespace up to and including line breaks", "  \n\n"),
    Alternative(r"""\s+(?!\S)""", "whitespace, leaving its last space to the next word", "a   b"),
    Alternative(r"""\s+""", "leftover whitespace", "x 1"),
)

ALTERNATIVES: dict[str, tuple[Alternative, ...]] = {
    "gpt2": GPT2,
    "cl100k": CL100K,
    "o200k": O200K,
    "llama3": LLAMA3,
}

PATTERNS: dict[str, str] = {name: "|".join(a.regex for a in alts) for name, alts in ALTERNATIVES.items()}
"""Each pattern as one regex string, keyed by short name."""

GPT2_PATTERN = PATTERNS["gpt2"]
CL100K_PATTERN = PATTERNS["cl100k"]
O200K_PATTERN = PATTERNS["o200k"]
LLAMA3_PATTERN = PATTERNS["llama3"]


ENCODING_PATTERN_NAMES: dict[str, str] = {
    "r50k_base": "gpt2",
    "cl100k_base": "cl100k",
    "o200k_base": "o200k",
}
"""tiktoken's encoding names, accepted wherever a pattern name is ("llama3" is both)."""

_NAME_LIKE = regex.compile(r"[A-Za-z0-9_]+")


def pattern_name_of(pattern: str | None) -> str | None:
    """The short name ("gpt2", "cl100k", ...) of a pattern given by name or as one of the known regexes."""
    if pattern is None:
        return None
    name = ENCODING_PATTERN_NAMES.get(pattern, pattern)
    if name in PATTERNS:
        return name
    return next((k for k, v in PATTERNS.items() if v == pattern), None)


def resolve_pattern(pattern: str | None) -> str | None:
    """A pattern name becomes its regex; a regex is checked and kept; ``None`` stays ``None``.

    The rule that tells a name from a regex: a string made only of letters, digits and ``_``
    (such as "gpt2" or "GPT2") is read as a *name*. The names are "gpt2", "cl100k", "o200k",
    "llama3", and tiktoken's encoding names "r50k_base", "cl100k_base", "o200k_base". Any other
    such string is refused (a typo must not quietly become a regex that matches almost nothing).
    Every other string is a regex: it has at least one character that is not a letter, digit or
    ``_``, such as ``\\`` in ``r"\\w+"`` or ``|`` in ``"a|b"``.
    """
    if pattern is None:
        return None
    if not isinstance(pattern, str):
        raise TypeError(
            f"pattern must be None, a name from {sorted(PATTERNS)} or a regex string, got {type(pattern).__name__}"
        )
    name = ENCODING_PATTERN_NAMES.get(pattern, pattern)
    if name in PATTERNS:
        return PATTERNS[name]
    if _NAME_LIKE.fullmatch(pattern):
        close = [n for n in (*PATTERNS, *ENCODING_PATTERN_NAMES) if n.lower() == pattern.lower()]
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(
            f"unknown pattern name {pattern!r}; the names are {', '.join(PATTERNS)} (or the encoding names "
            f"{', '.join(ENCODING_PATTERN_NAMES)}).{hint} To split by a rule of your own, pass a regex: it "
            "needs at least one character that is not a letter, digit or '_', e.g. r'\\w+|\\S'"
        )
    try:
        compile_pattern(pattern)
    except regex.error as err:
        raise ValueError(f"pattern {pattern!r} is not a valid regex: {err}") from None
    return pattern


@lru_cache(maxsize=32)
def compile_pattern(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern)


def split_text(text: str, pattern: str | None, *, keep_gaps: bool = False) -> list[str]:
    """Cut ``text`` into the pieces ``pattern`` (a name or a regex) matches; ``None`` keeps it whole.

    By default only the matches come back, as a regex search finds them: ``r"\\w+"`` gives the words.
    With ``keep_gaps=True`` every stretch the pattern does not match becomes a piece of its own too,
    so that the pieces join back to exactly ``text``: this is what the tokenizer uses, so that no
    pattern can lose text. The real tokenizers' patterns leave no gaps, so for them both agree.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    resolved = resolve_pattern(pattern)
    if resolved is None:
        return [text] if text else []
    compiled = compile_pattern(resolved)
    if compiled.groups == 0:  # findall gives whole matches only when the regex has no groups
        pieces: list[str] = compiled.findall(text)
        if "" not in pieces and (not keep_gaps or sum(map(len, pieces)) == len(text)):
            return pieces  # the usual case, fast: nothing empty, and (if asked) no gap
    pieces = []
    end = 0  # where the last match ended: text[end:start] is a gap
    for match in compiled.finditer(text):
        start, stop = match.span()
        if start == stop:
            continue  # an empty match is no piece, and does not cut a gap in two
        if keep_gaps and start > end:
            pieces.append(text[end:start])
        pieces.append(match.group())
        end = stop
    if keep_gaps and end < len(text):
        pieces.append(text[end:])
    return pieces


def explain_split(text: str, pattern_name: str) -> list[tuple[str, Alternative]]:
    """Split ``text`` with a named pattern and say, for each piece, which alternative matched it."""
    alternatives = ALTERNATIVES[pattern_name]
    grouped = compile_pattern("|".join(f"({a.regex})" for a in alternatives))
    out = []
    for match in grouped.finditer(text):
        index = next(i for i, g in enumerate(match.groups()) if g is not None)
        out.append((match.group(), alternatives[index]))
    return out
