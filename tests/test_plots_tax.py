"""The figures of lessons 09 and 10: they draw what the table holds, labelled in English."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from bpelab import CharTokenizer
from bpelab.analysis.tax import token_tax
from bpelab.plots import (
    plot_bytes_and_tokens_per_char,
    plot_chars_per_token_by_kind,
    plot_premium_generations,
    plot_premium_heatmap,
)
from bpelab.plots.common import TOKENIZER_COLOURS


class SpaceSplitter:
    name = "words"

    def encode(self, text):
        return text.split()


TEXTS = {"en": ["a b", "c"], "my": ["ကက", "ခ"], "am": ["ሀ ለ ሐ", "መ"]}
NAMES = {"en": "English", "my": "Burmese", "am": "Amharic"}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def tax():
    return token_tax(TEXTS, {"chars": CharTokenizer(), "words": SpaceSplitter()})


def tick_labels(axis):
    return [t.get_text() for t in axis.get_ticklabels()]


def test_heatmap_shows_premiums_with_english_names():
    fig = plot_premium_heatmap(tax(), names=NAMES)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    # rows sorted by mean premium: English (1, 1) < Burmese (4/4, 2/3) ... computed by hand
    # chars: en 4, my 3, am 6 -> 1, 0.75, 1.5; words: en 3, my 2, am 4 -> 1, 0.67, 1.33
    assert tick_labels(ax.yaxis) == ["Burmese", "English", "Amharic"]
    assert tick_labels(ax.xaxis) == ["chars", "words"]
    cell_texts = sorted(t.get_text() for t in ax.texts)
    assert cell_texts == sorted(["0.75", "0.67", "1.00", "1.00", "1.50", "1.33"])


def test_generations_plot_orders_by_first_tokenizer_and_keeps_colours():
    table = token_tax({"en": ["Hello world."], "de": ["Hallo Welt."]}, ["cl100k_base", "r50k_base"])
    fig = plot_premium_generations(
        table, tokenizers=["r50k_base", "cl100k_base"], names={"en": "English", "de": "German"}
    )
    ax = fig.axes[0]
    assert tick_labels(ax.yaxis)[0] == "English"  # premium 1.0 sorts first
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["GPT-2 (r50k_base)", "GPT-4 (cl100k_base)"]
    colours = [matplotlib.colors.to_hex(c.get_facecolor()[0]) for c in ax.collections if len(c.get_offsets()) == 2]
    assert colours == [TOKENIZER_COLOURS["r50k_base"].lower(), TOKENIZER_COLOURS["cl100k_base"].lower()]
    assert "log" in ax.get_xlabel() and ax.get_ylabel() == "Language"


def test_bytes_and_tokens_per_char_bars():
    fig = plot_bytes_and_tokens_per_char(tax(), tokenizer="chars", names=NAMES)
    ax = fig.axes[0]
    heights = [round(p.get_height(), 2) for p in ax.patches]
    # bytes per char, by hand: English 4/4 = 1.0; Amharic 4 letters x 3 bytes + 2 spaces = 14 bytes / 6 chars;
    # Burmese 3 letters x 3 bytes = 9 bytes / 3 chars = 3.0. First the byte bars, then the token bars.
    assert tick_labels(ax.xaxis) == ["English", "Amharic", "Burmese"]
    assert heights[:3] == [1.0, round(14 / 6, 2), 3.0]
    assert heights[3:] == [1.0, 1.0, 1.0]  # one token per character
    assert len(ax.get_legend().get_texts()) == 2
    assert ax.get_title() and "Language" in ax.get_xlabel() and "per character" in ax.get_ylabel()


def test_chars_per_token_by_kind_keeps_table_order():
    table = pd.DataFrame(
        {
            "kind": ["prose", "prose", "code", "code"],
            "tokenizer": ["o200k_base", "mine"] * 2,
            "chars_per_token": [4.5, 3.0, 4.0, 2.0],
        }
    )
    fig = plot_chars_per_token_by_kind(table)
    ax = fig.axes[0]
    assert tick_labels(ax.xaxis) == ["prose", "code"]
    assert [round(p.get_height(), 1) for p in ax.patches] == [4.5, 4.0, 3.0, 2.0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["GPT-4o (o200k_base)", "mine"]


def test_bad_input_is_explained():
    with pytest.raises(ValueError, match="lacks the columns"):
        plot_premium_heatmap(pd.DataFrame({"language": ["en"]}))
    with pytest.raises(TypeError, match="expected a pandas DataFrame"):
        plot_premium_heatmap({"language": ["en"]})
    with pytest.raises(ValueError, match=r"tokenizers \['o200k_base'\] are not in the table"):
        plot_premium_generations(tax(), tokenizers=["o200k_base"])
    with pytest.raises(ValueError, match="tokenizer 'x' is not in the table"):
        plot_bytes_and_tokens_per_char(tax(), tokenizer="x")
