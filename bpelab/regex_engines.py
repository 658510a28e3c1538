"""One split pattern, three regex engines (lesson 13): Python's ``regex``, tiktoken's and Hugging Face's.

bpelab splits with Python's ``regex`` module; tiktoken with Rust's fancy-regex; ``tokenizers`` with Oniguruma.
They do not read every pattern alike. GPT-4's ``\\p{N}{1,3}+`` is "one to three digits, possessive" in the first
two, but Oniguruma reads ``{1,3}+`` as "one or more runs of one to three digits", so "1920" stays one piece.
Oniguruma reads ``{n,m}+`` as possessive only in the syntaxes that set ``ONIG_SYN_OP2_PLUS_POSSESSIVE_INTERVAL``
(Java, Perl and Perl_NG, its ``src/regsyntax.c``); ``tokenizers`` compiles with rust-onig's ``Regex::new``, which
takes ``Syntax::default()``, Oniguruma's ``OnigDefaultSyntax``: its own syntax, ``OnigSyntaxOniguruma``
(``src/regparse.c``), which does not. ``\\w`` holds the zero-width joiner in the first two (Unicode's word class),
not in Oniguruma (nor in Python's ``re``). So an export never trusts a list of "safe" patterns:
``first_disagreement`` splits generated probe texts in bpelab and in the other engine and names the first text
they cut apart.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Literal

import regex

from bpelab.patterns import split_text

Engine = Literal["tiktoken", "tokenizers"]

PROBE_PIECES = (
    # emoji with joiners and modifiers, a lone joiner, combining marks
    "\u200d", "👨\u200d👩\u200d👧", "👍🏽", "e\u0301", "\u0308",
    # digit runs: years, prices, long numbers, other scripts' digits, a superscript
    "1920", "1234567", "$12.50", "3,000", "٣٤٥", "x²",
    # letters in many scripts, cases and contractions
    "naïve", "Straße", "ΑΒΓ", "中文", "日本語", "한국어", "العربية", "हिन्दी", "don't", "DON'T", "'s", "CamelCase",
    "_init", "a", "The",
    # whitespace: CRLF, a lone CR, blank lines, runs of spaces, a tab, no-break and ideographic spaces
    "\r\n", "\r", "\n\n", "   ", " ", "\t", "\u00a0", "\u3000",
    # punctuation and a special token's text
    "...", "!!!", "://", "<|endoftext|>",
)  # fmt: skip
"""What the probe texts are made of: every kind of character where engines have been seen to disagree."""


def probe_texts() -> list[str]:
    """Every piece next to every piece (and itself): 1,444 short texts, each boundary kind tried once."""
    return [a + b for a, b in product(PROBE_PIECES, repeat=2)]


_INTERVAL = regex.compile(r"\{\d+(?:,\d*)?\}")


def _atom_end(pattern: str, i: int) -> int:
    """Where the escape (``\\p{N}``, ``\\d``) or class (``[^\\s\\p{L}]``) that starts at ``i`` ends."""
    if pattern[i] == "\\":
        if i + 2 < len(pattern) and pattern[i + 1] in "pPxN" and pattern[i + 2] == "{":
            return pattern.index("}", i) + 1
        return i + 2
    j, depth = i + 1, 1  # a character class; "]" right after "[" or "[^" is a literal
    if pattern[j : j + 1] == "^":
        j += 1
    if pattern[j : j + 1] == "]":
        j += 1
    while depth:
        if pattern[j] == "\\":
            j += 2
            continue
        depth += {"[": 1, "]": -1}.get(pattern[j], 0)
        j += 1
    return j


def for_oniguruma(pattern: str) -> str:
    """``pattern`` written so that Oniguruma reads it as Python's ``regex`` does.

    A possessive interval ``X{n,m}+`` becomes the atomic group ``(?>X{n,m})``, which means the same in every
    engine: GPT-4's ``\\p{N}{1,3}+`` becomes ``(?>\\p{N}{1,3})``. A lazy ``X{n}?`` (exactly n either way) becomes
    ``X{n}``, which Oniguruma would read as ``(X{n})?``. Everything else is kept as it is, and checked.
    """
    out = ""
    groups: list[int] = []  # where each open group starts in ``out``
    atom: int | None = None  # where the last thing a quantifier could apply to starts in ``out``
    i = 0
    while i < len(pattern):
        char = pattern[i]
        interval = _INTERVAL.match(pattern, i) if char == "{" else None
        if char in "\\[":
            end = _atom_end(pattern, i)
            atom, out, i = len(out), out + pattern[i:end], end
        elif char == "(":
            groups.append(len(out))
            atom, out, i = None, out + char, i + 1
        elif char == ")" and groups:
            atom, out, i = groups.pop(), out + char, i + 1
        elif interval and atom is not None:
            end = interval.end()
            if pattern[end : end + 1] == "+":  # possessive interval: Oniguruma would read "+" as "one or more"
                out, i = out[:atom] + "(?>" + out[atom:] + interval.group() + ")", end + 1
            elif pattern[end : end + 1] == "?" and "," not in interval.group():
                out, i = out + interval.group(), end + 1  # lazy X{n} is X{n}; Oniguruma would read (X{n})?
            else:
                out, i = out + interval.group(), end
            atom = None
        else:
            atom = None if char in "|*+?" else len(out)
            out, i = out + char, i + 1
    return out


def split_with_tiktoken(texts: list[str], regex_text: str) -> list[list[str]]:
    """How tiktoken's engine cuts each text: a vocabulary holding every stretch of the texts (at character
    boundaries) makes each piece one whole token, which decodes back to the piece."""
    import tiktoken

    ranks = {bytes([b]): b for b in range(256)}
    for text in texts:
        cuts = [len(text[:k].encode("utf-8")) for k in range(len(text) + 1)]
        data = text.encode("utf-8")
        for start, stop in product(cuts, cuts):
            if stop > start:
                ranks.setdefault(data[start:stop], len(ranks))
    encoding = tiktoken.Encoding("split", pat_str=regex_text, mergeable_ranks=ranks, special_tokens={})
    tokens = encoding.decode_tokens_bytes
    return [[piece.decode("utf-8") for piece in tokens(encoding.encode_ordinary(text))] for text in texts]


def split_with_tokenizers(texts: list[str], regex_text: str) -> list[list[str]]:
    """How Hugging Face ``tokenizers`` cuts each text with a ``Split`` step (``Isolated``: gaps are pieces too)."""
    from tokenizers import Regex, pre_tokenizers

    step = pre_tokenizers.Split(Regex(regex_text), "isolated")
    return [[piece for piece, _ in step.pre_tokenize_str(text)] for text in texts]


@lru_cache(maxsize=16)
def first_disagreement(pattern: str | None, regex_text: str, engine: Engine) -> tuple[str, list[str], list[str]] | None:
    """The first probe text that ``engine``, running ``regex_text``, cuts otherwise than bpelab cuts it with
    ``pattern`` (``split_text(..., keep_gaps=True)``): the text, bpelab's pieces, the engine's pieces. ``None``
    when they agree on every probe text."""
    texts = probe_texts()
    split = split_with_tiktoken if engine == "tiktoken" else split_with_tokenizers
    for text, theirs in zip(texts, split(texts, regex_text)):
        ours = split_text(text, pattern, keep_gaps=True)
        if ours != theirs:
            return text, ours, theirs
    return None
