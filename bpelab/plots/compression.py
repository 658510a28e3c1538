"""Lesson 08's figures: compression curves, Zipf's law in token use, and the vocabulary-size trade-off."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator
from numpy.typing import ArrayLike

from bpelab.plots.common import (
    FIGSIZE,
    FONT_SIZE,
    PALETTE,
    TITLE_SIZE,
    TOKENIZER_COLOURS,
    colours_for,
    require_columns,
    tokenizer_label,
)

TEXT_COLOURS = ("#0072B2", "#D55E00", "#000000", "#7F7F7F", "#A6761D", "#E69F00")
"""Lines for kinds of text: none of them is the colour of GPT-4's or GPT-4o's reference line."""


def _vocab_axis(ax, low: float, high: float) -> None:  # type: ignore[no-untyped-def]
    """A log-scale x axis for vocabulary sizes, ticked at the doublings 256, 512, 1,024, ..."""
    ax.set_xscale("log", base=2)
    ticks = [2.0**k for k in range(int(np.floor(np.log2(low))), int(np.ceil(np.log2(high))) + 1)]
    ax.set_xticks(ticks, [f"{t:,.0f}" for t in ticks])
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    ax.tick_params(axis="both", labelsize=FONT_SIZE - 1)


def plot_compression_curves(
    curve: pd.DataFrame,
    *,
    references: Mapping[str, float] | None = None,
    reference_text: str = "held-out text",
    title: str = "Bytes per token at each vocabulary size",
) -> Figure:
    """Bytes per token (y) against vocabulary size (x, log scale), one line per text.

    The default title only names what is drawn: whether a curve bends is for the reader to see on the log axis
    (lesson 08 measures the gain per doubling; its training-text curve is close to straight there).

    ``curve`` is the table ``bpelab.analysis.compression.compression_curve`` returns (sizes as rows, texts
    as columns). ``references`` maps a tokenizer name to its bytes per token on ``reference_text``;
    each is drawn as a dashed horizontal line, in that tokenizer's colour.
    """
    if not isinstance(curve, pd.DataFrame) or curve.empty:
        raise ValueError("expected the table from compression_curve (vocabulary sizes as rows, texts as columns)")
    sizes = np.asarray(curve.index, dtype=float)
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], FIGSIZE[1] * 1.35))
    markers = ("o", "s", "D", "^", "v", "P", "X")
    for i, column in enumerate(curve.columns):
        ax.plot(
            sizes,
            curve[column],
            marker=markers[i % len(markers)],
            markersize=5,
            linewidth=2,
            color=TEXT_COLOURS[i % len(TEXT_COLOURS)],
            label=str(column),
        )
    for name, value in (references or {}).items():
        ax.axhline(
            value,
            linestyle="--",
            linewidth=1.8,
            color=colours_for([name])[0],
            label=f"{tokenizer_label(name)} on {reference_text}",
        )
    ax.axhline(1.0, color="0.4", linewidth=0.8, linestyle=":")
    ax.text(
        sizes.max(),
        0.93,
        "1 byte per token: no merge applies",
        ha="right",
        va="top",
        fontsize=FONT_SIZE - 1,
        color="0.35",
    )
    _vocab_axis(ax, sizes.min(), sizes.max())
    top = max([float(np.nanmax(curve.to_numpy()))] + list((references or {}).values()))
    ax.set_ylim(0, top * 1.1)
    ax.set_xlabel("Vocabulary size (tokens, log scale)", fontsize=FONT_SIZE)
    ax.set_ylabel("Bytes per token", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(alpha=0.3)
    ax.legend(
        fontsize=FONT_SIZE - 1, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2
    )  # below, never over a line
    fig.tight_layout()
    return fig


def plot_rank_frequency(
    usage: pd.DataFrame,
    *,
    exponent: float | None = None,
    title: str = "Token use, with Zipf's law beside it",
) -> Figure:
    """How often each used token occurs (y) against its rank (x), both on log scales.

    ``usage`` is the table ``bpelab.analysis.compression.token_usage`` returns; unused tokens (count 0)
    cannot sit on a log axis and are left out. A dashed line shows count ∝ 1/rank (Zipf's law
    with exponent 1) through the most used token; ``exponent`` (from ``zipf_exponent``) adds a
    dotted line with that slope, placed as a least-squares fit would place it.
    """
    require_columns(usage, ["rank", "count"], "token_usage")
    used = usage[usage["count"] > 0]
    if used.empty:
        raise ValueError("no token of the table is used: encode a non-empty text with token_usage")
    ranks, counts = used["rank"].to_numpy(dtype=float), used["count"].to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=FIGSIZE)
    ax.plot(
        ranks,
        counts,
        marker="o",
        markersize=3,
        linestyle="none",
        color=PALETTE[4],
        alpha=0.7,
        label=f"the {len(used):,} tokens used",
    )
    ax.plot(
        ranks,
        counts[0] / ranks,
        linestyle="--",
        color=PALETTE[5],
        linewidth=2,
        label="Zipf's law through the most used token: count ∝ 1 / rank",
    )
    if exponent is not None:
        # the best constant for that slope puts the line through the mean of the points (log scale)
        constant = np.exp(np.mean(np.log(counts)) + exponent * np.mean(np.log(ranks)))
        ax.plot(
            ranks,
            constant / ranks**exponent,
            linestyle=":",
            color="0.2",
            linewidth=2,
            label=f"fitted: count ∝ 1 / rank$^{{{exponent:.2f}}}$",
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.tick_params(axis="both", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Rank of the token (1 = the most used; log scale)", fontsize=FONT_SIZE)
    ax.set_ylabel("Times used in the text (log scale)", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(alpha=0.3, which="major")
    ax.legend(fontsize=FONT_SIZE - 1)
    fig.tight_layout()
    return fig


def plot_vocab_tradeoff(
    table: pd.DataFrame,
    *,
    width: int = 4096,
    title: str = "What a larger vocabulary buys, and what it costs",
) -> Figure:
    """Bytes per token (y) against vocabulary size (x, log scale), with the embedding parameters
    that size costs (vocabulary × ``width``) on a second x axis above.

    ``table`` has the columns ``tokenizer``, ``vocab_size`` and ``bytes_per_token``. Rows of a
    course tokenizer ("cl100k_base", ...) are drawn as labelled points in its colour; the rows of
    any other label are joined into one line (a tokenizer measured at several sizes).
    """
    require_columns(table, ["tokenizer", "vocab_size", "bytes_per_token"], "your measurement")
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width <= 0:
        raise ValueError(f"width must be a positive whole number (the model's embedding width), got {width!r}")
    fig, ax = plt.subplots(figsize=FIGSIZE)
    lines = [label for label in dict.fromkeys(table["tokenizer"]) if label not in TOKENIZER_COLOURS]
    for label, colour in zip(lines, colours_for(lines)):
        rows = table[table["tokenizer"] == label].sort_values("vocab_size")
        ax.plot(
            rows["vocab_size"],
            rows["bytes_per_token"],
            marker="o",
            markersize=4,
            linewidth=2,
            color=colour,
            label=str(label),
        )
    for _, row in table[table["tokenizer"].isin(list(TOKENIZER_COLOURS))].iterrows():
        ax.scatter(
            row["vocab_size"],
            row["bytes_per_token"],
            s=90,
            color=TOKENIZER_COLOURS[row["tokenizer"]],
            edgecolor="black",
            linewidth=0.6,
            zorder=3,
            label=tokenizer_label(row["tokenizer"]),
        )
    _vocab_axis(ax, table["vocab_size"].min(), table["vocab_size"].max())
    ax.xaxis.set_major_locator(LogLocator(base=4))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:,.0f}"))

    def to_parameters(vocab: ArrayLike) -> ArrayLike:
        return np.asarray(vocab, dtype=float) * width / 1e6

    def to_vocab(parameters: ArrayLike) -> ArrayLike:
        return np.asarray(parameters, dtype=float) * 1e6 / width

    top = ax.secondary_xaxis("top", functions=(to_parameters, to_vocab))
    top.set_xlabel(f"Embedding parameters at width {width:,} (millions)", fontsize=FONT_SIZE)
    top.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    top.xaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:,.0f}" if value >= 1 else f"{value:g}"))
    top.xaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    top.tick_params(labelsize=FONT_SIZE - 1)
    ax.set_ylim(0, table["bytes_per_token"].max() * 1.1)
    ax.set_xlabel("Vocabulary size (tokens, log scale)", fontsize=FONT_SIZE)
    ax.set_ylabel("Bytes per token", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=FONT_SIZE - 1, loc="lower right")
    fig.tight_layout()
    return fig
