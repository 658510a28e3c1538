"""The course's figures, one function per figure, each returning its matplotlib ``Figure``.

Lessons call a function and then ``plt.show()``. One file per lesson's figures: ``compression``
(lesson 08), ``tax`` (lesson 09), ``practice`` (lesson 10); ``common`` holds the sizes and colours.

The figure functions are imported when first used, as in ``bpelab`` itself: ``bpelab.plots.tables`` (pandas
tables, no figure) must not load matplotlib, which costs a kernel about 40 MB (lesson 07 draws nothing).
"""

from typing import TYPE_CHECKING

from bpelab.lazy_names import lazy_names

if TYPE_CHECKING:  # mypy and editors see the names; Python imports each on first use (__getattr__)
    from bpelab.plots.compression import plot_compression_curves, plot_rank_frequency, plot_vocab_tradeoff
    from bpelab.plots.practice import plot_chars_per_token_by_kind
    from bpelab.plots.tax import plot_bytes_and_tokens_per_char, plot_premium_generations, plot_premium_heatmap

_HOMES = {
    "plot_bytes_and_tokens_per_char": "bpelab.plots.tax",
    "plot_chars_per_token_by_kind": "bpelab.plots.practice",
    "plot_compression_curves": "bpelab.plots.compression",
    "plot_premium_generations": "bpelab.plots.tax",
    "plot_premium_heatmap": "bpelab.plots.tax",
    "plot_rank_frequency": "bpelab.plots.compression",
    "plot_vocab_tradeoff": "bpelab.plots.compression",
}

__all__ = [
    "plot_bytes_and_tokens_per_char",
    "plot_chars_per_token_by_kind",
    "plot_compression_curves",
    "plot_premium_generations",
    "plot_premium_heatmap",
    "plot_rank_frequency",
    "plot_vocab_tradeoff",
]


__getattr__, __dir__ = lazy_names("bpelab.plots", _HOMES, globals())
