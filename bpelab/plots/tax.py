"""Lesson 09's figures: the multilingual tax (premiums per language and tokenizer, bytes and tokens per character)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator

from bpelab.plots.common import (
    FONT_SIZE,
    PALETTE,
    TITLE_SIZE,
    colours_for,
    language_names,
    premium_formatter,
    require_columns,
    tokenizer_label,
)


def _premium_grid(tax: pd.DataFrame, tokenizers: Sequence[str] | None, names: Mapping[str, str] | None) -> pd.DataFrame:
    """Languages x tokenizers, rows sorted from the smallest premium to the largest."""
    require_columns(tax, ["language", "tokenizer", "premium"], "token_tax")
    order = list(tokenizers) if tokenizers is not None else list(dict.fromkeys(tax["tokenizer"]))
    unknown = [t for t in order if t not in set(tax["tokenizer"])]
    if unknown:
        raise ValueError(f"tokenizers {unknown} are not in the table; it has {sorted(set(tax['tokenizer']))}")
    grid = tax.pivot(index="language", columns="tokenizer", values="premium")[order]
    grid = grid.loc[grid.mean(axis=1).sort_values(kind="stable").index]
    names = language_names() if names is None else names
    grid.index = [names.get(code, code) for code in grid.index]
    grid.columns = [tokenizer_label(t) for t in grid.columns]
    return grid


def plot_premium_heatmap(
    tax: pd.DataFrame,
    *,
    tokenizers: Sequence[str] | None = None,
    names: Mapping[str, str] | None = None,
    title: str = "Tokens needed for the same text, relative to English",
) -> Figure:
    """A heatmap of premiums, languages (rows) by tokenizers (columns), each cell labelled.

    The colour scale is logarithmic, so that 2× and 0.5× sit equally far from parity (1×).
    ``tokenizers`` picks and orders the columns; ``names`` maps language codes to the labels shown.
    """
    grid = _premium_grid(tax, tokenizers, names)
    values = grid.to_numpy(dtype=float)
    height = max(4.5, 0.42 * len(grid) + 1.8)
    fig, ax = plt.subplots(figsize=(max(8, 1.9 * grid.shape[1] + 3), height))
    norm = LogNorm(vmin=min(np.nanmin(values), 0.99), vmax=max(np.nanmax(values), 1.01))
    image = ax.imshow(values, cmap="YlOrRd", norm=norm, aspect="auto")
    for (row, col), value in np.ndenumerate(values):
        shade = norm(value)
        ax.text(
            col,
            row,
            f"{value:.2f}",
            ha="center",
            va="center",
            fontsize=FONT_SIZE - 1,
            color="white" if shade > 0.6 else "black",
        )
    ax.set_xticks(range(grid.shape[1]), grid.columns, fontsize=FONT_SIZE - 1, rotation=15, ha="right")
    ax.set_yticks(range(len(grid)), grid.index, fontsize=FONT_SIZE)
    ax.set_xlabel("Tokenizer", fontsize=FONT_SIZE)
    ax.set_ylabel("Language", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    bar = fig.colorbar(image, ax=ax, ticks=LogLocator(base=10, subs=(1, 2, 5)), format=premium_formatter())
    bar.ax.yaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    bar.set_label("Premium (tokens ÷ English tokens)", fontsize=FONT_SIZE)
    bar.ax.tick_params(labelsize=FONT_SIZE - 1)
    fig.tight_layout()
    return fig


def plot_premium_generations(
    tax: pd.DataFrame,
    *,
    tokenizers: Sequence[str] = ("r50k_base", "cl100k_base", "llama3", "o200k_base"),
    names: Mapping[str, str] | None = None,
    title: str = "How each vocabulary generation changes the premium",
) -> Figure:
    """One row per language, one marker per tokenizer generation (in the order given), joined by
    a line from the first generation to the last, on a log scale with parity (1×) marked.

    A long line means the language's premium changed a lot between generations; markers that
    sit on top of each other mean the newer vocabularies did not help that language.
    """
    grid = _premium_grid(tax, tokenizers, names)
    grid = grid.loc[grid.iloc[:, 0].sort_values(kind="stable").index]  # order by the first generation
    colours = colours_for(list(tokenizers))
    fig, ax = plt.subplots(figsize=(9, max(4.5, 0.42 * len(grid) + 1.8)))
    rows = np.arange(len(grid))
    ax.hlines(rows, grid.min(axis=1), grid.max(axis=1), color="0.75", linewidth=2, zorder=1)
    markers = ("o", "s", "D", "^", "v", "P", "X", "*")
    # nudge each generation up or down a little, so that equal premiums do not hide each other
    nudges = np.linspace(0.18, -0.18, grid.shape[1]) if grid.shape[1] > 1 else [0.0]
    for i, column in enumerate(grid.columns):
        ax.scatter(
            grid[column],
            rows + nudges[i],
            s=70,
            marker=markers[i % len(markers)],
            color=colours[i],
            edgecolor="black",
            linewidth=0.5,
            label=column,
            zorder=2 + i,
        )
    ax.axvline(1.0, color="0.3", linestyle="--", linewidth=1)
    ax.text(1.0, len(grid) - 0.05, " parity with English", fontsize=FONT_SIZE - 2, color="0.3", va="top")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    ax.xaxis.set_major_formatter(premium_formatter())
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    ax.set_yticks(rows, grid.index, fontsize=FONT_SIZE)
    ax.set_ylim(-0.7, len(grid))
    ax.tick_params(axis="x", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Premium: tokens for the same text ÷ English tokens (log scale)", fontsize=FONT_SIZE)
    ax.set_ylabel("Language", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.legend(
        title="Tokenizer", fontsize=FONT_SIZE - 2, title_fontsize=FONT_SIZE - 1, loc="lower right", framealpha=0.95
    )
    fig.tight_layout()
    return fig


def plot_bytes_and_tokens_per_char(
    tax: pd.DataFrame,
    *,
    tokenizer: str = "cl100k_base",
    names: Mapping[str, str] | None = None,
    title: str | None = None,
) -> Figure:
    """Bytes per character (what UTF-8 charges) beside tokens per character (what one tokenizer
    charges), one pair of bars per language, sorted by bytes per character."""
    require_columns(tax, ["language", "tokenizer", "chars", "bytes", "tokens_per_char"], "token_tax")
    rows = tax[tax["tokenizer"] == tokenizer]
    if rows.empty:
        raise ValueError(f"tokenizer {tokenizer!r} is not in the table; it has {sorted(set(tax['tokenizer']))}")
    rows = rows.assign(bytes_per_char=rows["bytes"] / rows["chars"]).sort_values(
        ["bytes_per_char", "tokens_per_char"], kind="stable"
    )
    names = language_names() if names is None else names
    labels = [names.get(code, code) for code in rows["language"]]
    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(max(8, 0.62 * len(rows) + 2), 4.8))
    ax.bar(x - 0.2, rows["bytes_per_char"], width=0.4, color=PALETTE[4], label="UTF-8 bytes per character")
    ax.bar(
        x + 0.2,
        rows["tokens_per_char"],
        width=0.4,
        color=PALETTE[5],
        label=f"{tokenizer_label(tokenizer)} tokens per character",
    )
    ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=FONT_SIZE - 1)
    ax.tick_params(axis="y", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Language (sorted by UTF-8 bytes per character)", fontsize=FONT_SIZE)
    ax.set_ylabel("Bytes or tokens per character", fontsize=FONT_SIZE)
    ax.set_title(title or "What UTF-8 charges per character, and what the tokenizer charges", fontsize=TITLE_SIZE)
    ax.legend(fontsize=FONT_SIZE - 1)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
