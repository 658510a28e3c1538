"""A word split written for JavaScript, so that a page without Python cuts words as training did.

Python's ``regex`` and JavaScript's ``RegExp`` (with the ``u`` flag) share most syntax, but not the
meaning of ``\\w``, ``\\s`` and ``\\d``: in ``regex`` they are Unicode classes (a word character is
Alphabetic, a mark, a decimal digit, a connector such as ``_``, or a joiner: UTS #18 Annex C), in
JavaScript ASCII-only or a different space list. Those three (and their capitals, outside brackets)
are spelled out here as Unicode properties; anything JavaScript lacks (possessive quantifiers,
atomic groups, inline flags, ``\\X``, ``\\G``...) makes ``js_pattern`` give None, and the page then
says that tokenizer needs the running notebook. tests/test_js_explorer.py checks the split equals
``split_text`` on generated texts. (Python's ``unicodedata`` and the browser may know different
Unicode versions: a character newer than Python's table can be classed differently.)
"""

from __future__ import annotations

from functools import cache, lru_cache

import regex

WORD_CHARS = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}"
SPACE_CHARS = r"\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
DIGIT_CHARS = r"\p{Nd}"
INSIDE = {"w": WORD_CHARS, "s": SPACE_CHARS, "d": DIGIT_CHARS}
OUTSIDE = {
    **{name: f"[{chars}]" for name, chars in INSIDE.items()},
    **{name.upper(): f"[^{chars}]" for name, chars in INSIDE.items()},
}
PASS_THROUGH = set("tnrfv0\\.^$|?*+()[]{}-/'\"pPuxkbB") | set("!#%&,:;<=>@_`~ ")
"""Escapes that mean the same in both (``\\p{L}``, ``\\u00e9``, ``\\x41``, ``\\b`` of ASCII words aside)."""
REFUSED_GROUPS = ("(?>", "(?i", "(?m", "(?s", "(?x", "(?a", "(?u", "(?V", "(?P", "(?|", "(?#", "(?(")


def js_pattern(pattern: str) -> str | None:
    """``pattern`` (a Python ``regex`` source) as a JavaScript ``RegExp`` source with the ``u`` flag
    that matches the same pieces, or None when it uses something JavaScript cannot say."""
    if any(group in pattern for group in REFUSED_GROUPS) or r"\b" in pattern or r"\B" in pattern:
        return None  # atomic groups, flags; \b is ASCII-only in JavaScript
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                return None
            nxt = pattern[i + 1]
            if nxt in INSIDE and in_class:
                out.append(INSIDE[nxt])
            elif nxt in OUTSIDE and not in_class:
                out.append(OUTSIDE[nxt])
            elif nxt in "pP" and pattern[i + 2 : i + 3] == "{" and "}" in pattern[i:]:
                close = pattern.index("}", i) + 1
                out.append(pattern[i:close])  # one item, so that \p{L}+ is not read as a possessive }+
                i = close
                continue
            elif nxt in PASS_THROUGH and nxt not in "bB":
                out.append(ch + nxt)
            else:
                return None  # \W inside brackets, \X, \G, \A, \Z, backreferences...
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
            if pattern[i + 1 : i + 2] == "[":
                return None  # regex's nested sets
        elif ch == "]" and in_class:
            in_class = False
        elif not in_class and ch == "+" and out and out[-1] in ("+", "*", "?", "}"):
            return None  # a possessive quantifier
        out.append(ch)
        i += 1
    return "".join(out)


CASE_GROUP = "(?i:"
PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'_- ")
"""What a case-insensitive group may hold for ``spell_out_case``: literal text and ``|``."""


@cache
def same_letter_any_case(letter: str) -> str:
    """Every character that ``(?i:letter)`` matches, as a bracket expression: Rust's regex (tiktoken's)
    and Python's ``regex`` fold case the same simple Unicode way, so ``s`` also matches ``ſ`` (U+017F
    LATIN SMALL LETTER LONG S) and ``k`` the Kelvin sign (U+212A); writing ``[sS]`` would miss them."""
    if not letter.isalpha():
        return letter
    matches = regex.findall(f"(?i){regex.escape(letter)}", _every_character())
    return "[" + "".join(matches) + "]"


@lru_cache(maxsize=1)
def _every_character() -> str:
    return "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)


def spell_out_case(pattern: str) -> str | None:
    """``pattern`` with each ``(?i:...)`` group of literal text written without the flag (JavaScript
    before ES2025 has no inline flags), or None when a group holds more than literal text, bracketed
    letters and ``|``."""
    out, i = [], 0
    while (start := pattern.find(CASE_GROUP, i)) >= 0:
        end = pattern.find(")", start)
        body = pattern[start + len(CASE_GROUP) : end]
        if end < 0 or not set(body) <= PLAIN | set("|[]"):
            return None
        spelled, in_class = [], False
        for ch in body:  # inside a bracket expression, a letter's cases join the expression
            in_class = (in_class or ch == "[") and ch != "]"
            cases = same_letter_any_case(ch)
            spelled.append(cases[1:-1] if in_class and len(cases) > 1 else cases)
        out.append(pattern[i:start] + "(?:" + "".join(spelled) + ")")
        i = end + 1
    return "".join(out) + pattern[i:]


def js_pattern_with_case(pattern: str) -> str | None:
    """``js_pattern`` for a pattern that may use ``(?i:...)`` around literal text, as Llama 3's and
    GPT-4's do for contractions ('s, 'T, 'Re...)."""
    spelled = spell_out_case(pattern)
    return js_pattern(spelled) if spelled is not None else None
