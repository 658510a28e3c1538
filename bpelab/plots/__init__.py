"""The course's figures, one function per figure, each returning its matplotlib ``Figure``.

Lessons call a function and then ``plt.show()``. One file per lesson's figures: ``compression``
(lesson 08), ``tax`` (lesson 09), ``practice`` (lesson 10); ``common`` holds the sizes and colours.
"""

from bpelab.plots.compression import plot_compression_curves, plot_rank_frequency, plot_vocab_tradeoff
from bpelab.plots.practice import plot_chars_per_token_by_kind
from bpelab.plots.tax import plot_bytes_and_tokens_per_char, plot_premium_generations, plot_premium_heatmap

__all__ = [
    "plot_bytes_and_tokens_per_char",
    "plot_chars_per_token_by_kind",
    "plot_compression_curves",
    "plot_premium_generations",
    "plot_premium_heatmap",
    "plot_rank_frequency",
    "plot_vocab_tradeoff",
]
