"""Lesson 10's figure: how many characters a token holds in prose, code, JSON, URLs and numbers."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from bpelab.plots.common import (
    FIGSIZE,
    FONT_SIZE,
    TITLE_SIZE,
    colours_for,
    require_columns,
    tokenizer_label,
)


def plot_chars_per_token_by_kind(
    table: pd.DataFrame,
    *,
    kind: str = "kind",
    tokenizer: str = "tokenizer",
    value: str = "chars_per_token",
    title: str = "How much text one token holds, by kind of text",
) -> Figure:
    """Grouped bars: characters per token for each kind of text (rows of ``kind``), one bar per
    tokenizer. Taller bars mean cheaper text. Kinds and tokenizers keep the table's order."""
    require_columns(table, [kind, tokenizer, value], "your measurement")
    grid = table.pivot(index=kind, columns=tokenizer, values=value)
    grid = grid.loc[list(dict.fromkeys(table[kind])), list(dict.fromkeys(table[tokenizer]))]
    x = np.arange(len(grid))
    width = 0.8 / grid.shape[1]
    colours = colours_for(list(grid.columns))
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for i, column in enumerate(grid.columns):
        ax.bar(
            x + (i - (grid.shape[1] - 1) / 2) * width,
            grid[column],
            width=width,
            color=colours[i],
            label=tokenizer_label(column),
        )
    ax.set_xticks(x, grid.index, fontsize=FONT_SIZE)
    ax.tick_params(axis="y", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Kind of text", fontsize=FONT_SIZE)
    ax.set_ylabel("Characters per token", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.legend(fontsize=FONT_SIZE - 2)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
