"""Lesson 15's threes-from-the-right digit rule beside the form it replaced.

The first form ``\\p{N}{1,3}(?=(?:\\p{N}{3})*+(?!\\p{N}))`` reads the rest of a run of digits again at every
piece it cuts, so a run twice as long takes about four times as long. The rule in ``bpelab.digit_rules`` reads a
run to its end once, at its start. Both cut the same pieces (``tests/test_numbers_and_glitches.py`` holds them
equal on generated text); the rows say what each costs on one long run of digits inside GPT-4's whole pattern.
"""

from __future__ import annotations

from functools import partial

import regex

from bpelab.bench.common import Row, race, say, seconds, speed
from bpelab.digit_rules import DIGIT_RULES, pattern_with_digits

FIRST_FORM = r"\p{N}{1,3}(?=(?:\p{N}{3})*+(?!\p{N}))"
"""The rule as it was first written."""


def rows(quick: bool = False) -> list[Row]:
    repeats = 1 if quick else 3
    rule = pattern_with_digits("threes from the right")
    first_form = rule.replace(DIGIT_RULES["threes from the right"], FIRST_FORM)
    ours, peer = regex.compile(rule), regex.compile(first_form)
    out: list[Row] = []
    for size in (5_000, 10_000) if quick else (10_000, 20_000, 40_000):
        text = f"a run of {size:,} digits: " + "1234567890" * (size // 10) + " and after it."
        say(f"digits: threes from the right on {size:,} digits")
        ours_time, peer_time, ours_pieces, peer_pieces = race(
            partial(ours.findall, text), partial(peer.findall, text), repeats
        )
        assert ours_pieces == peer_pieces, f"the two forms cut {size:,} digits differently"
        out.append(
            (
                f"split {size:,} digits in threes from the right: the rule vs its first form (same pieces)",
                seconds(ours_time),
                seconds(peer_time),
                speed(ours_time, peer_time),
            )
        )
    return out
