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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from bpelab.analysis.counters import resolve_tokenizers
from bpelab.text import utf8_bytes

TAX_COLUMNS = ["language", "tokenizer", "chars", "bytes", "tokens", "tokens_per_char", "premium"]
FERTILITY_COLUMNS = ["language", "tokenizer", "words", "tokens", "fertility"]

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
    languages to measure; by default, those that ``bpelab.corpora.languages()`` marks as spaced.
    """
    texts = _check_texts(texts_by_language)
    if spaced is None:
        from bpelab.corpora import languages

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


__all__ = ["count_words", "fertility", "premium_table", "token_tax"]
