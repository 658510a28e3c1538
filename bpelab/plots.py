"""The course's figures, one function per figure, each returning its matplotlib ``Figure``.

Lessons call a function and then ``plt.show()``. Every figure is sized and lettered to be read on
a projector. Languages are labelled with their English names (from ``bpelab.corpora.languages()``):
fonts for Burmese, Amharic or Tamil are missing on many machines, and a label in a missing font is
a row of empty boxes.

Sections: shared helpers; lesson 09 (the multilingual tax); lesson 10 (tokens in practice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator

from bpelab.production import FRIENDLY_NAMES

FONT_SIZE = 12
TITLE_SIZE = 14
FIGSIZE = (8, 4.5)
# Colour-blind-safe colours (Okabe and Ito), in the order tokenizer generations are usually listed.
PALETTE = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
TOKENIZER_COLOURS = {"r50k_base": PALETTE[0], "cl100k_base": PALETTE[1], "llama3": PALETTE[2], "o200k_base": PALETTE[3]}
"""The four course tokenizers keep their colour in every figure; other labels take the remaining colours."""


# ---- shared helpers -------------------------------------------------------------------------


def language_names() -> dict[str, str]:
    """Language code -> English name, from ``data/parallel/languages.tsv`` (empty if it is missing)."""
    from bpelab.corpora import languages

    try:
        return {lang.code: lang.name for lang in languages()}
    except FileNotFoundError:
        return {}


def tokenizer_label(name: str) -> str:
    """"GPT-4 (cl100k_base)" for a course encoding name; any other label as it is."""
    return FRIENDLY_NAMES.get(name, name)


def _colours(labels: Sequence[str]) -> list[str]:
    """One colour per label: the fixed one for a course tokenizer, otherwise the next unused colour."""
    spare = [c for c in PALETTE if c not in TOKENIZER_COLOURS.values()]
    out = []
    for label in labels:
        if label in TOKENIZER_COLOURS:
            out.append(TOKENIZER_COLOURS[label])
        else:
            out.append(spare[len([o for o in out if o in spare]) % len(spare)])
    return out


def _require_columns(table: pd.DataFrame, columns: Sequence[str], made_by: str) -> None:
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame from {made_by}, got {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"the table lacks the columns {missing}; pass the DataFrame that {made_by} returns")


def _premium_formatter() -> FuncFormatter:
    return FuncFormatter(lambda value, _pos: f"{value:g}×")


# ---- lesson 09: the multilingual tax --------------------------------------------------------


def _premium_grid(tax: pd.DataFrame, tokenizers: Sequence[str] | None, names: Mapping[str, str] | None) -> pd.DataFrame:
    """Languages x tokenizers, rows sorted from the smallest premium to the largest."""
    _require_columns(tax, ["language", "tokenizer", "premium"], "token_tax")
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
        ax.text(col, row, f"{value:.2f}", ha="center", va="center", fontsize=FONT_SIZE - 1,
                color="white" if shade > 0.6 else "black")
    ax.set_xticks(range(grid.shape[1]), grid.columns, fontsize=FONT_SIZE - 1, rotation=15, ha="right")
    ax.set_yticks(range(len(grid)), grid.index, fontsize=FONT_SIZE)
    ax.set_xlabel("Tokenizer", fontsize=FONT_SIZE)
    ax.set_ylabel("Language", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    bar = fig.colorbar(image, ax=ax, ticks=LogLocator(base=10, subs=(1, 2, 5)), format=_premium_formatter())
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
    colours = _colours(list(tokenizers))
    fig, ax = plt.subplots(figsize=(9, max(4.5, 0.42 * len(grid) + 1.8)))
    rows = np.arange(len(grid))
    ax.hlines(rows, grid.min(axis=1), grid.max(axis=1), color="0.75", linewidth=2, zorder=1)
    markers = ("o", "s", "D", "^", "v", "P", "X", "*")
    # nudge each generation up or down a little, so that equal premiums do not hide each other
    nudges = np.linspace(0.18, -0.18, grid.shape[1]) if grid.shape[1] > 1 else [0.0]
    for i, column in enumerate(grid.columns):
        ax.scatter(grid[column], rows + nudges[i], s=70, marker=markers[i % len(markers)], color=colours[i],
                   edgecolor="black", linewidth=0.5, label=column, zorder=2 + i)
    ax.axvline(1.0, color="0.3", linestyle="--", linewidth=1)
    ax.text(1.0, len(grid) - 0.05, " parity with English", fontsize=FONT_SIZE - 2, color="0.3", va="top")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    ax.xaxis.set_major_formatter(_premium_formatter())
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda *_: ""))
    ax.set_yticks(rows, grid.index, fontsize=FONT_SIZE)
    ax.set_ylim(-0.7, len(grid))
    ax.tick_params(axis="x", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Premium: tokens for the same text ÷ English tokens (log scale)", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.legend(title="Tokenizer", fontsize=FONT_SIZE - 2, title_fontsize=FONT_SIZE - 1,
              loc="lower right", framealpha=0.95)
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
    _require_columns(tax, ["language", "tokenizer", "chars", "bytes", "tokens_per_char"], "token_tax")
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
    ax.bar(x + 0.2, rows["tokens_per_char"], width=0.4, color=PALETTE[5],
           label=f"{tokenizer_label(tokenizer)} tokens per character")
    ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=FONT_SIZE - 1)
    ax.tick_params(axis="y", labelsize=FONT_SIZE - 1)
    ax.set_ylabel("Per character of text", fontsize=FONT_SIZE)
    ax.set_title(title or "What UTF-8 charges per character, and what the tokenizer charges", fontsize=TITLE_SIZE)
    ax.legend(fontsize=FONT_SIZE - 1)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


# ---- lesson 10: tokens in practice ----------------------------------------------------------


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
    _require_columns(table, [kind, tokenizer, value], "your measurement")
    grid = table.pivot(index=kind, columns=tokenizer, values=value)
    grid = grid.loc[list(dict.fromkeys(table[kind])), list(dict.fromkeys(table[tokenizer]))]
    x = np.arange(len(grid))
    width = 0.8 / grid.shape[1]
    colours = _colours(list(grid.columns))
    fig, ax = plt.subplots(figsize=FIGSIZE)
    for i, column in enumerate(grid.columns):
        ax.bar(x + (i - (grid.shape[1] - 1) / 2) * width, grid[column], width=width,
               color=colours[i], label=tokenizer_label(column))
    ax.set_xticks(x, grid.index, fontsize=FONT_SIZE)
    ax.tick_params(axis="y", labelsize=FONT_SIZE - 1)
    ax.set_xlabel("Kind of text", fontsize=FONT_SIZE)
    ax.set_ylabel("Characters per token", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.legend(fontsize=FONT_SIZE - 2)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


__all__ = [
    "language_names",
    "plot_bytes_and_tokens_per_char",
    "plot_chars_per_token_by_kind",
    "plot_premium_generations",
    "plot_premium_heatmap",
    "tokenizer_label",
]


# ---- lesson 08: compression curves ----------------------------------------------------------

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
    title: str = "Compression grows with the vocabulary, ever more slowly",
) -> Figure:
    """Bytes per token (y) against vocabulary size (x, log scale), one line per text.

    ``curve`` is the table ``bpelab.compression.compression_curve`` returns (sizes as rows, texts
    as columns). ``references`` maps a tokenizer name to its bytes per token on ``reference_text``;
    each is drawn as a dashed horizontal line, in that tokenizer's colour.
    """
    if not isinstance(curve, pd.DataFrame) or curve.empty:
        raise ValueError("expected the table from compression_curve (vocabulary sizes as rows, texts as columns)")
    sizes = np.asarray(curve.index, dtype=float)
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], FIGSIZE[1] * 1.35))
    markers = ("o", "s", "D", "^", "v", "P", "X")
    for i, column in enumerate(curve.columns):
        ax.plot(sizes, curve[column], marker=markers[i % len(markers)], markersize=5, linewidth=2,
                color=TEXT_COLOURS[i % len(TEXT_COLOURS)], label=str(column))
    for name, value in (references or {}).items():
        ax.axhline(value, linestyle="--", linewidth=1.8, color=_colours([name])[0],
                   label=f"{tokenizer_label(name)} on {reference_text}")
    ax.axhline(1.0, color="0.4", linewidth=0.8, linestyle=":")
    ax.text(sizes.max(), 0.93, "1 byte per token: no merge applies", ha="right", va="top",
            fontsize=FONT_SIZE - 1, color="0.35")
    _vocab_axis(ax, sizes.min(), sizes.max())
    top = max([float(np.nanmax(curve.to_numpy()))] + list((references or {}).values()))
    ax.set_ylim(0, top * 1.1)
    ax.set_xlabel("Vocabulary size (tokens, log scale)", fontsize=FONT_SIZE)
    ax.set_ylabel("Bytes per token", fontsize=FONT_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=FONT_SIZE - 1, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)  # below, never over a line
    fig.tight_layout()
    return fig


def plot_rank_frequency(
    usage: pd.DataFrame,
    *,
    exponent: float | None = None,
    title: str = "Token use follows Zipf's law",
) -> Figure:
    """How often each used token occurs (y) against its rank (x), both on log scales.

    ``usage`` is the table ``bpelab.compression.token_usage`` returns; unused tokens (count 0)
    cannot sit on a log axis and are left out. A dashed line shows count ∝ 1/rank (Zipf's law
    with exponent 1) through the most used token; ``exponent`` (from ``zipf_exponent``) adds a
    dotted line with that slope, placed as a least-squares fit would place it.
    """
    _require_columns(usage, ["rank", "count"], "token_usage")
    used = usage[usage["count"] > 0]
    if used.empty:
        raise ValueError("no token of the table is used: encode a non-empty text with token_usage")
    ranks, counts = used["rank"].to_numpy(dtype=float), used["count"].to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=FIGSIZE)
    ax.plot(ranks, counts, marker="o", markersize=3, linestyle="none", color=PALETTE[4], alpha=0.7,
            label=f"the {len(used):,} tokens used")
    ax.plot(ranks, counts[0] / ranks, linestyle="--", color=PALETTE[5], linewidth=2,
            label="Zipf's law: count ∝ 1 / rank")
    if exponent is not None:
        # the best constant for that slope puts the line through the mean of the points (log scale)
        constant = np.exp(np.mean(np.log(counts)) + exponent * np.mean(np.log(ranks)))
        ax.plot(ranks, constant / ranks**exponent, linestyle=":", color="0.2", linewidth=2,
                label=f"fitted: count ∝ 1 / rank$^{{{exponent:.2f}}}$")
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
    _require_columns(table, ["tokenizer", "vocab_size", "bytes_per_token"], "your measurement")
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width <= 0:
        raise ValueError(f"width must be a positive whole number (the model's embedding width), got {width!r}")
    fig, ax = plt.subplots(figsize=FIGSIZE)
    lines = [label for label in dict.fromkeys(table["tokenizer"]) if label not in TOKENIZER_COLOURS]
    for label, colour in zip(lines, _colours(lines)):
        rows = table[table["tokenizer"] == label].sort_values("vocab_size")
        ax.plot(rows["vocab_size"], rows["bytes_per_token"], marker="o", markersize=4, linewidth=2,
                color=colour, label=str(label))
    for _, row in table[table["tokenizer"].isin(list(TOKENIZER_COLOURS))].iterrows():
        ax.scatter(row["vocab_size"], row["bytes_per_token"], s=90, color=TOKENIZER_COLOURS[row["tokenizer"]],
                   edgecolor="black", linewidth=0.6, zorder=3, label=tokenizer_label(row["tokenizer"]))
    _vocab_axis(ax, table["vocab_size"].min(), table["vocab_size"].max())
    ax.xaxis.set_major_locator(LogLocator(base=4))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:,.0f}"))
    top = ax.secondary_xaxis("top", functions=(lambda v: v * width / 1e6, lambda p: p * 1e6 / width))
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


__all__ += ["plot_compression_curves", "plot_rank_frequency", "plot_vocab_tradeoff"]
