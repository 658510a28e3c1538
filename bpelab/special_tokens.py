"""Special tokens such as ``<|endoftext|>``, with tiktoken's contract (lesson 06).

A special token is text that stands for one id outside the merges. Its text can also turn up in what a
user typed, so ``encode`` refuses it unless the caller says what it is: ``allowed_special`` names the
ones that become their ids, ``disallowed_special`` the ones whose text is an error (by default every
special token not allowed), and text matching neither is encoded as ordinary text. Where one special
token begins another (``<|a`` and ``<|a|>``), the longest wins.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache
from typing import Literal

import regex

from bpelab.text import utf8_bytes

AllowedSpecial = Literal["all"] | Iterable[str]
DisallowedSpecial = Literal["all"] | Iterable[str]


def special_token_list(special_tokens: str | Iterable[str] | None) -> list[str]:
    """The special tokens as a list without repeats. One string is one special token, never its characters."""
    if special_tokens is None:
        return []
    if isinstance(special_tokens, str):
        special_tokens = [special_tokens]
    elif not isinstance(special_tokens, Iterable):
        raise TypeError(f"special_tokens must be a list of strings, e.g. ['<|endoftext|>'], got {special_tokens!r}")
    specials = list(dict.fromkeys(special_tokens))
    if not all(isinstance(s, str) and s for s in specials):
        raise TypeError(f"special_tokens must be non-empty strings, e.g. ['<|endoftext|>'], got {specials!r}")
    for special in specials:
        utf8_bytes(special)  # a clear error for a lone surrogate: a token must have bytes
    return specials


def split_on_specials(text: str, specials: list[str]) -> list[str]:
    """The stretches of ``text`` between special tokens (training counts pairs inside them only)."""
    if not specials:
        return [text]
    alternatives = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
    return [part for part in regex.split(alternatives, text) if part]


@lru_cache(maxsize=64)
def specials_regex(specials: frozenset[str]) -> regex.Pattern[str]:
    """One regex that finds any of ``specials``; the longest first where one starts another."""
    return regex.compile("|".join(regex.escape(s) for s in sorted(specials, key=lambda s: (-len(s), s))))


def disallowed_message(special: str) -> str:
    """What ``encode`` says when it refuses a special token's text: why, and both ways on."""
    return (
        f"the text contains {special!r}, the text of a special token, which encode refuses unless you say "
        "what it is (as tiktoken does, so that text from a user cannot slip a control token into a prompt). "
        f"To encode it as the special token pass allowed_special={{{special!r}}} (or allowed_special='all'); "
        "to encode it as ordinary text pass disallowed_special=()"
    )


def allowed_specials(allowed_special: AllowedSpecial, known: Collection[str]) -> set[str]:
    """The special tokens ``encode`` turns into their ids: "all" of ``known``, or those named (each must be known)."""
    if allowed_special == "all":
        return set(known)
    if isinstance(allowed_special, str) or not isinstance(allowed_special, Iterable):
        raise TypeError(
            'allowed_special must be "all" or a collection of special tokens, e.g. {"<|endoftext|>"} '
            f"(() for none, the default); got {allowed_special!r}"
        )
    allowed = set(allowed_special)
    unknown = allowed - set(known)
    if unknown:
        raise ValueError(f"not special tokens of this tokenizer: {sorted(unknown)}; it has {sorted(known) or 'none'}")
    return allowed


def disallowed_specials(
    disallowed_special: DisallowedSpecial, allowed: set[str], known: Collection[str]
) -> frozenset[str]:
    """The special tokens whose text ``encode`` refuses: by default every known one not allowed."""
    if disallowed_special == "all":
        return frozenset(known) - allowed
    if isinstance(disallowed_special, str):
        raise TypeError(
            'disallowed_special must be "all", () or a collection of special tokens, e.g. {"<|endoftext|>"}; '
            "a single string would be read as its characters"
        )
    if not isinstance(disallowed_special, Iterable):
        raise TypeError(
            'disallowed_special must be "all" (the default), () to encode special tokens\' text as ordinary '
            f'text, or a collection of special tokens, e.g. {{"<|endoftext|>"}}; got {disallowed_special!r}'
        )
    return frozenset(disallowed_special)
