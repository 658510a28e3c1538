"""The encoders and texts that the checkers of lessons 09 and 10 pass to a learner's functions.

Plain module-level functions: they read well in a report ("<function one_token_per_char>") and are cheap to
copy, unlike a tiktoken Encoding. Two are easy to count by hand; two are the real GPT-4 and GPT-4o tokenizers.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from bpelab.production import load_encoding


def one_token_per_char(text: str) -> list[int]:
    """A character tokenizer: easy to count by hand."""
    return [ord(ch) for ch in text]


def one_token_per_word(text: str) -> list[str]:
    """One token per whitespace-separated word."""
    return text.split()


@cache
def encoding_named(name: str):  # type: ignore[no-untyped-def]
    """The tiktoken Encoding ``name``, loaded once (loading one takes about a second)."""
    return load_encoding(name)


@contextmanager
def encodings_let_go_after(*names: str) -> Iterator[None]:
    """Around a check whose cases encode with the encodings ``names``: they are loaded first (never inside a
    learner's function, where the time would count against it) and stay loaded while the check runs
    (``encoding_named``; loading one takes up to a second), and are let go when it ends, so that a lesson's kernel
    does not carry GPT-4's or GPT-4o's vocabulary (20 to 40 MB) to its end (issue 30's memory budget)."""
    for name in names:
        encoding_named(name)
    try:
        yield
    finally:
        encoding_named.cache_clear()


def cl100k_encode(text: str) -> list[int]:
    """GPT-4's tokenizer (cl100k_base), special-looking text counted as text."""
    return encoding_named("cl100k_base").encode_ordinary(text)


def count_o200k_tokens(text: str) -> int:
    """How many tokens GPT-4o's tokenizer (o200k_base) makes of ``text``."""
    return len(encoding_named("o200k_base").encode_ordinary(text))


def count_words(text: str) -> int:
    """Whitespace-separated words: a stand-in token counter that is easy to check by hand."""
    return len(text.split())


# Three sentences written for these checks, so that they never depend on data files.
SMALL_PARALLEL: dict[str, list[str]] = {
    "en": ["The bakery opens at six.", "Bring an umbrella, it may rain.", "My brother plays the violin."],
    "de": ["Die Bäckerei öffnet um sechs.", "Nimm einen Schirm mit, es könnte regnen.", "Mein Bruder spielt Geige."],
    "ru": ["Пекарня открывается в шесть.", "Возьми зонт, может пойти дождь.", "Мой брат играет на скрипке."],
    "ja": ["パン屋は六時に開く。", "雨が降るかもしれないから、傘を持っていって。", "兄はバイオリンを弾く。"],
}
