"""What every course figure shares: sizes and lettering readable on a projector, colour-blind-safe colours.

Languages are labelled with their English names (from ``bpelab.corpora.languages()``): fonts for
Burmese, Amharic or Tamil are missing on many machines, and a label in a missing font is a row of
empty boxes.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from matplotlib.ticker import FuncFormatter

from bpelab.production import FRIENDLY_NAMES

FONT_SIZE = 12
TITLE_SIZE = 14
FIGSIZE = (8, 4.5)
# Colour-blind-safe colours (Okabe and Ito), in the order tokenizer generations are usually listed.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
TOKENIZER_COLOURS = {"r50k_base": PALETTE[0], "cl100k_base": PALETTE[1], "llama3": PALETTE[2], "o200k_base": PALETTE[3]}
"""The four course tokenizers keep their colour in every figure; other labels take the remaining colours."""


def language_names() -> dict[str, str]:
    """Language code -> English name, from ``data/parallel/languages.tsv`` (empty if it is missing)."""
    from bpelab.corpora import languages

    try:
        return {lang.code: lang.name for lang in languages()}
    except FileNotFoundError:
        return {}


def tokenizer_label(name: str) -> str:
    """ "GPT-4 (cl100k_base)" for a course encoding name; any other label as it is."""
    return FRIENDLY_NAMES.get(name, name)


def colours_for(labels: Sequence[str]) -> list[str]:
    """One colour per label: the fixed one for a course tokenizer, otherwise the next unused colour."""
    spare = [c for c in PALETTE if c not in TOKENIZER_COLOURS.values()]
    out = []
    for label in labels:
        if label in TOKENIZER_COLOURS:
            out.append(TOKENIZER_COLOURS[label])
        else:
            out.append(spare[len([o for o in out if o in spare]) % len(spare)])
    return out


def require_columns(table: pd.DataFrame, columns: Sequence[str], made_by: str) -> None:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame from {made_by}, got {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"the table lacks the columns {missing}; pass the DataFrame that {made_by} returns")


def premium_formatter() -> FuncFormatter:
    return FuncFormatter(lambda value, _pos: f"{value:g}×")
