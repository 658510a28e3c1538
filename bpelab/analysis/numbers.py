"""How many tokens numbers cost (lesson 15): the same text, tokenizers that differ only in their digit rule."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import regex

from bpelab.byte_level import BPETokenizer

_DIGIT_RUN = regex.compile(r"\p{N}+")


def digit_runs(text: str) -> list[str]:
    """Every maximal run of digits (any script's) in ``text``, in order: "£1,234.50" has 1, 234 and 50."""
    return _DIGIT_RUN.findall(text)


def digit_cost(tokenizers: Mapping[str, BPETokenizer], text: str) -> pd.DataFrame:
    """One row per tokenizer: tokens per digit run and per digit byte, bytes per token over the whole text,
    and how many tokens of its vocabulary are made of digits only."""
    runs = digit_runs(text)
    digit_bytes = sum(len(run.encode("utf-8")) for run in runs)
    text_bytes = len(text.encode("utf-8"))
    rows = []
    for name, tok in tokenizers.items():
        run_tokens = sum(len(tok.encode(run)) for run in runs)
        rows.append(
            {
                "rule": name,
                "tokens per number": run_tokens / len(runs) if runs else float("nan"),
                "tokens per digit byte": run_tokens / digit_bytes if digit_bytes else float("nan"),
                "bytes per token (whole text)": text_bytes / len(tok.encode(text)),
                "digit-only tokens in the vocabulary": sum(
                    1 for i, t in tok.vocab.items() if i >= 256 and _DIGIT_RUN.fullmatch(t.decode("utf-8", "replace"))
                ),
            }
        )
    return pd.DataFrame(rows).set_index("rule")
