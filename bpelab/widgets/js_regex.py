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
