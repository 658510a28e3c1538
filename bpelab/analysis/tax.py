"""The multilingual tax (lesson 09): how many more tokens the same content costs in another language.

Petrov et al. (2023, "Language Model Tokenizers Introduce Unfairness Between Languages",
arXiv:2305.15425) call it the *premium*: the number of tokens a tokenizer needs for a text in one
language divided by the number it needs for the same text in a reference language (English here).
Texts must be parallel (text i says the same thing in every language), or the ratio compares
different content, not different languages.

Each text is encoded on its own and the counts are summed, so a tokenizer is never given the
chance to merge across the line break between two sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from bpelab.production import ENCODING_NAMES, load_encoding
from bpelab.text import utf8_bytes

TAX_COLUMNS = ["language", "tokenizer", "chars", "bytes", "tokens", "tokens_per_char", "premium"]
FERTILITY_COLUMNS = ["language", "tokenizer", "words", "tokens", "fertility"]

Counter = Callable[[str], int]


# ---- inputs ---------------------------------------------------------------------------------


def _check_texts(texts_by_language: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The texts as a plain dict of lists, or a clear error saying what is wrong with them."""
    if not isinstance(texts_by_language, Mapping):
        raise TypeError(
            "texts_by_language must be a dict from language code to a list of texts, e.g. "
            f"{{'en': ['Hello.'], 'fr': ['Bonjour.']}}; got {type(texts_by_language).__name__}"
        )
    if not texts_by_language:
        raise ValueError("texts_by_language is empty: give at least the reference language and one other")
    checked: dict[str, list[str]] = {}
    for language, texts in texts_by_language.items():
        if isinstance(texts, str) or not isinstance(texts, Iterable):
            raise TypeError(
                f"language {language!r}: expected a list of texts, got {type(texts).__name__}; "
                f"wrap a single text in a list: [{str(texts)[:20]!r}]"
            )
        texts = list(texts)
        if not texts:
            raise ValueError(f"language {language!r} has no texts; give it the same number of texts as the others")
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"language {language!r}, text {i}: expected a str, got {type(text).__name__}")
            utf8_bytes(text)  # a clear error for a lone surrogate
        checked[language] = texts
    return checked


def _check_parallel(texts: dict[str, list[str]]) -> None:
    lengths = {language: len(items) for language, items in texts.items()}
    if len(set(lengths.values())) > 1:
        listed = ", ".join(f"{language}: {n}" for language, n in lengths.items())
        raise ValueError(
            f"the texts are not parallel: the languages have different numbers of texts ({listed}). "
            "Text i must say the same thing in every language; trim them to the same sentences."
        )


def _counter(tokenizer: Any) -> Counter:
    """A function text -> number of tokens. ``encode_ordinary`` is preferred where it exists
    (tiktoken, BPETokenizer), so that text which looks like '<|endoftext|>' is counted as text."""
    encode = getattr(tokenizer, "encode_ordinary", None) or getattr(tokenizer, "encode", None)
    if not callable(encode):
        raise TypeError(
            f"a tokenizer must be one of the names {', '.join(ENCODING_NAMES)} or an object with an "
            f"encode(text) method; got {type(tokenizer).__name__}, which has no encode method"
        )

    def count(text: str) -> int:
        ids = encode(text)
        try:
            return len(ids)
        except TypeError:
            raise TypeError(
                f"{type(tokenizer).__name__}.encode returned {type(ids).__name__}, which has no length; "
                "encode(text) must return a list of token ids"
            ) from None

    return count


def _label(tokenizer: Any) -> str:
    name = getattr(tokenizer, "name", None)
    return name if isinstance(name, str) and name else type(tokenizer).__name__


def resolve_tokenizers(tokenizers: Any) -> dict[str, Counter]:
    """Label -> token counter, from a name, an object with ``encode``, a list of these, or a dict
    label -> name or object. Objects without a ``name`` are labelled by their class; repeated
    labels get " (2)", " (3)" so that no row is overwritten."""
    if isinstance(tokenizers, str) or hasattr(tokenizers, "encode"):
        tokenizers = [tokenizers]
    if isinstance(tokenizers, Mapping):
        items = [(str(label), tok) for label, tok in tokenizers.items()]
    elif isinstance(tokenizers, Iterable):
        items = [(tok if isinstance(tok, str) else _label(tok), tok) for tok in tokenizers]
    else:
        raise TypeError(
            f"tokenizers must be a name, an object with encode, a list of these or a dict; got {type(tokenizers).__name__}"
        )
    if not items:
        raise ValueError(
            f"no tokenizers given; try ['cl100k_base', 'o200k_base'] (known names: {', '.join(ENCODING_NAMES)})"
        )

    resolved: dict[str, Counter] = {}
    for label, tok in items:
        if isinstance(tok, str):
            if tok not in ENCODING_NAMES:
                raise ValueError(
                    f"unknown tokenizer name {tok!r}; the names this course knows are {', '.join(ENCODING_NAMES)}. "
                    "For any other tokenizer, pass the object itself (anything with an encode(text) method)."
                )
            tok = load_encoding(tok)
        unique, n = label, 1
        while unique in resolved:
            n += 1
            unique = f"{label} ({n})"
        resolved[unique] = _counter(tok)
    return resolved


# ---- the tax --------------------------------------------------------------------------------


def token_tax(
    texts_by_language: Mapping[str, Sequence[str]],
    tokenizers: Any,
    *,
    reference: str = "en",
) -> pd.DataFrame:
    """One row per language and tokenizer: characters, UTF-8 bytes, tokens, tokens per character,
    and the premium (tokens in this language / tokens in ``reference`` for the same texts).

    >>> from bpelab.text import CharTokenizer
    >>> token_tax({"en": ["ab"], "xx": ["abcd"]}, {"chars": CharTokenizer()})[["language", "tokens", "premium"]]
      language  tokens  premium
    0       en       2      1.0
    1       xx       4      2.0
    """
    texts = _check_texts(texts_by_language)
    if reference not in texts:
        raise ValueError(
            f"the reference language {reference!r} is not among the languages given ({', '.join(map(str, texts))}); "
            f"add its texts or choose another with reference=..."
        )
    _check_parallel(texts)
    counters = resolve_tokenizers(tokenizers)

    tokens = {
        (language, label): sum(count(t) for t in items)
        for label, count in counters.items()
        for language, items in texts.items()
    }
    rows = []
    for language, items in texts.items():
        chars = sum(len(t) for t in items)
        n_bytes = sum(len(t.encode("utf-8")) for t in items)
        for label in counters:
            n_tokens = tokens[(language, label)]
            ref_tokens = tokens[(reference, label)]
            if ref_tokens == 0:
                raise ValueError(
                    f"the reference language {reference!r} has 0 tokens under {label}, so no premium can be "
                    "computed; are its texts empty?"
                )
            rows.append(
                {
                    "language": language,
                    "tokenizer": label,
                    "chars": chars,
                    "bytes": n_bytes,
                    "tokens": n_tokens,
                    "tokens_per_char": n_tokens / chars if chars else float("nan"),
                    "premium": n_tokens / ref_tokens,
                }
            )
    return pd.DataFrame(rows, columns=TAX_COLUMNS)


def premium_table(tax: pd.DataFrame) -> pd.DataFrame:
    """The premiums of a ``token_tax`` table as a grid: one row per language, one column per tokenizer."""
    missing = {"language", "tokenizer", "premium"} - set(tax.columns)
    if missing:
        raise ValueError(f"expected a table from token_tax; it lacks the columns {sorted(missing)}")
    grid = tax.pivot(index="language", columns="tokenizer", values="premium")
    # keep the order the rows came in, not alphabetical order
    return grid.loc[list(dict.fromkeys(tax["language"])), list(dict.fromkeys(tax["tokenizer"]))]


# ---- fertility ------------------------------------------------------------------------------


def count_words(text: str) -> int:
    """Words as whitespace-separated runs: meaningful only in languages that put spaces between words."""
    return len(text.split())


def fertility(
    texts_by_language: Mapping[str, Sequence[str]],
    tokenizers: Any,
    *,
    spaced: Iterable[str] | None = None,
) -> pd.DataFrame:
    """Tokens per whitespace-separated word, one row per language and tokenizer.

    Only languages that write spaces between words are measured: Chinese, Japanese, Thai or
    Burmese text has few spaces, and "words" would be whole clauses. ``spaced`` names the
    languages to measure; by default, those that ``bpelab.course.corpora.languages()`` marks as spaced.
    """
    texts = _check_texts(texts_by_language)
    if spaced is None:
        from bpelab.course.corpora import languages

        spaced = [lang.code for lang in languages() if lang.spaces_between_words]
    if isinstance(spaced, str):
        raise TypeError(f"spaced must be a list of language codes, e.g. [{spaced!r}], not one string")
    spaced = set(spaced)
    measured = {language: items for language, items in texts.items() if language in spaced}
    if not measured:
        raise ValueError(
            f"none of the languages given ({', '.join(map(str, texts))}) is marked as writing spaces between "
            "words; pass spaced=[...] with the codes to measure"
        )
    counters = resolve_tokenizers(tokenizers)
    rows = []
    for language, items in measured.items():
        words = sum(count_words(t) for t in items)
        if words == 0:
            raise ValueError(f"language {language!r} has no words (its texts are blank)")
        for label, count in counters.items():
            n_tokens = sum(count(t) for t in items)
            rows.append(
                {
                    "language": language,
                    "tokenizer": label,
                    "words": words,
                    "tokens": n_tokens,
                    "fertility": n_tokens / words,
                }
            )
    return pd.DataFrame(rows, columns=FERTILITY_COLUMNS)


__all__ = ["count_words", "fertility", "premium_table", "resolve_tokenizers", "token_tax"]
