"""Small helpers for the wording of messages."""

from __future__ import annotations


def a_or_an(name: str) -> str:
    """``name`` with its indefinite article: 'an int', 'an object', 'a str', 'a NoneType', 'an ndarray'.

    A name that starts with a vowel letter takes 'an', except the 'uni'/'use' words read with a 'y' sound ('a
    unigram', 'a user_defined'); ``ndarray`` is read "en-dee-array"."""
    lower = name.lower()
    if lower.startswith(("uni", "use", "usu", "one")):
        return f"a {name}"
    return f"{'an' if lower[:1] in set('aeiou') or lower.startswith('nd') else 'a'} {name}"
