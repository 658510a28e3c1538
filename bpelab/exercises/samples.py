"""Inputs shared by several checkers: the classic toy corpus, a paragraph, and made-up words.

Kept here, in the package, so that checks never depend on data files being present.
"""

from __future__ import annotations

import random

CLASSIC_TEXT = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 3 + ["widest"] * 2)
"""The classic toy corpus of BPE walkthroughs: low ×5, lower ×2, newest ×3, widest ×2. Adapted from the example of
Sennrich, Haddow and Birch (2016), §3.2, Algorithm 1, which counts newest ×6 and widest ×3."""

PARAGRAPH = (
    "The keeper of the lighthouse kept a logbook. Every evening she wrote down the weather, "
    "the wind and the ships she had seen. On calm nights the entries were short; on stormy "
    "nights they were long, and the lines leaned like the waves. Years later her grandson read "
    "the logbooks by the window, and he learned the names of the winds, the ships and the sea "
    "birds that nested below the lamp. He kept reading until the lamp went out."
)
"""About 80 words of ordinary English with repeats, so that merges have something to find."""

MIXED_SCRIPTS = "Grüße aus Köln! こんにちは, 世界. Привет 👋🏽 naïve café"
"""Latin with accents, Japanese, Chinese, Cyrillic and an emoji with a skin-tone modifier."""

_SYLLABLES = ("ka", "ri", "to", "na", "mi", "lo", "se", "pu", "an", "er", "ing", "ed", "un", "re")


def made_up_words(count: int = 150, seed: int = 7) -> str:
    """``count`` words built from a few syllables, the same every run (random.Random with an int seed)."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(40)]
    return " ".join(rng.choice(vocabulary) for _ in range(count))
