"""How unequal a tokenizer is across languages, in one number (lesson 14).

Foroutan et al. (2025, arXiv:2508.04796) measure the inequality of per-language token costs with
the **Gini coefficient**: the mean absolute difference between every two languages' costs, divided
by twice the mean cost. 0 means every language pays the same; the closer to 1, the more one language
pays while the others pay little. Unlike lesson 09's premium it needs no reference language.
"""

from __future__ import annotations

from collections.abc import Iterable


def gini(values: Iterable[float]) -> float:
    """The Gini coefficient of ``values`` (e.g. each language's tokens for the same text).

    ``sum(|x_i - x_j|) / (2 * n**2 * mean)`` over all ordered pairs, computed in O(n log n) from the
    sorted values. 0.0 for no values, one value, or values that are all 0.

    >>> gini([10, 10, 10])
    0.0
    >>> gini([0, 0, 0, 12])  # one language pays everything: (n - 1) / n
    0.75
    """
    xs = sorted(float(v) for v in values)
    if any(x < 0 for x in xs):
        raise ValueError("the Gini coefficient is for costs, which are never negative; got a negative value")
    n, total = len(xs), sum(xs)
    if n == 0 or total == 0:
        return 0.0
    # sum over pairs of |x_i - x_j| = 2 * sum_i (2i - n + 1) * x_i for x sorted ascending (i from 0)
    weighted = sum((2 * i - n + 1) * x for i, x in enumerate(xs))
    return weighted / (n * total)


__all__ = ["gini"]
