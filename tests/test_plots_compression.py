"""The figures of lesson 08: they draw what the tables hold, on the scales they promise."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from bpelab.plots import (
    plot_compression_curves,
    plot_rank_frequency,
    plot_vocab_tradeoff,
)
from bpelab.plots.common import TOKENIZER_COLOURS


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


CURVE = pd.DataFrame(
    {"held-out": [1.0, 2.0, 3.0], "code": [1.0, 1.2, 1.4]}, index=pd.Index([256, 512, 1024], name="vocab_size")
)


def labelled(ax):
    return {line.get_label(): line for line in ax.get_lines() if not line.get_label().startswith("_")}


def test_compression_curves_draw_each_text_and_each_reference():
    fig = plot_compression_curves(CURVE, references={"cl100k_base": 4.5, "o200k_base": 4.6}, reference_text="prose")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_title() and "Vocabulary size" in ax.get_xlabel() and ax.get_ylabel() == "Bytes per token"
    assert ax.get_xscale() == "log"
    lines = labelled(ax)
    assert list(lines) == ["held-out", "code", "GPT-4 (cl100k_base) on prose", "GPT-4o (o200k_base) on prose"]
    assert list(lines["held-out"].get_xdata()) == [256, 512, 1024]
    assert list(lines["code"].get_ydata()) == [1.0, 1.2, 1.4]
    reference = lines["GPT-4 (cl100k_base) on prose"]
    assert list(reference.get_ydata()) == [4.5, 4.5]
    assert matplotlib.colors.same_color(reference.get_color(), TOKENIZER_COLOURS["cl100k_base"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(lines)
    assert ax.get_ylim()[1] > 4.6  # the references fit on the plot


def test_compression_curves_default_title_claims_no_shape():
    """Lesson 08 shows its training curve is close to straight on the log axis: the title must not say it slows."""
    title = plot_compression_curves(CURVE).axes[0].get_title()
    assert "Bytes per token" in title and "slow" not in title


def test_compression_curves_without_references():
    ax = plot_compression_curves(CURVE).axes[0]
    assert list(labelled(ax)) == ["held-out", "code"]


def test_compression_curves_reject_other_input():
    with pytest.raises(ValueError, match="compression_curve"):
        plot_compression_curves(pd.DataFrame())


def test_rank_frequency_leaves_out_unused_tokens():
    usage = pd.DataFrame({"rank": [1, 2, 3, 4, 5], "count": [100, 50, 20, 0, 0]})
    ax = plot_rank_frequency(usage, exponent=1.5).axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    points, zipf, fitted = ax.get_lines()
    assert list(points.get_xdata()) == [1, 2, 3] and list(points.get_ydata()) == [100, 50, 20]
    assert np.allclose(zipf.get_ydata(), [100, 50, 100 / 3])  # count ∝ 1/rank through the top token
    # the best constant for slope -1.5 on log scales: log C = mean(log count) + 1.5 * mean(log rank)
    constant = np.exp((np.log(100) + np.log(50) + np.log(20)) / 3 + 1.5 * (np.log(2) + np.log(3)) / 3)
    assert np.allclose(fitted.get_ydata(), [constant, constant / 2**1.5, constant / 3**1.5])
    assert len(ax.get_legend().get_texts()) == 3


def test_rank_frequency_needs_a_used_token():
    with pytest.raises(ValueError, match="no token"):
        plot_rank_frequency(pd.DataFrame({"rank": [1], "count": [0]}))


def test_vocab_tradeoff_lines_points_and_parameter_axis():
    table = pd.DataFrame(
        {
            "tokenizer": ["mine", "mine", "r50k_base", "o200k_base"],
            "vocab_size": [256, 1024, 50_257, 200_019],
            "bytes_per_token": [1.0, 2.5, 4.4, 4.5],
        }
    )
    fig = plot_vocab_tradeoff(table, width=1000)
    ax = fig.axes[0]
    (mine,) = ax.get_lines()
    assert list(mine.get_xdata()) == [256, 1024] and mine.get_label() == "mine"
    points = {c.get_label(): c.get_offsets()[0].tolist() for c in ax.collections}
    assert points == {"GPT-2 (r50k_base)": [50_257, 4.4], "GPT-4o (o200k_base)": [200_019, 4.5]}
    top = [a for a in fig.axes if a is not ax] or ax.child_axes
    assert any("width 1,000" in a.get_xlabel() for a in top)
    with pytest.raises(ValueError, match="width"):
        plot_vocab_tradeoff(table, width=0)


def test_fitted_line_is_the_least_squares_line():
    from bpelab.analysis.compression import zipf_exponent

    usage = pd.DataFrame({"rank": [1, 2, 3, 4, 5, 6], "count": [90, 30, 25, 9, 8, 2]})
    exponent = zipf_exponent(usage)
    slope, intercept = np.polyfit(np.log(usage["rank"]), np.log(usage["count"]), 1)
    fitted = plot_rank_frequency(usage, exponent=exponent).axes[0].get_lines()[2]
    assert np.allclose(np.log(fitted.get_ydata()), intercept + slope * np.log(usage["rank"]))
