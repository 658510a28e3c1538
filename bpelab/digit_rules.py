"""How a split pattern cuts runs of digits (lesson 15): one rule per choice the real tokenizers made.

GPT-2 kept a whole run of digits together (its digit alternative takes the run, with the space before it), so its
merges learned whichever numbers its training text repeated: "1999" is one token, "1234567" three
(123 | 45 | 67). GPT-4 (cl100k) and its successors cut runs into pieces of at most three digits from the left,
nanochat into pieces of at most two, LLaMA 1 and 2 and PaLM into single digits; Singh & Strouse (2024,
*Tokenization counts: the impact of tokenization on arithmetic in frontier LLMs*, arXiv:2402.14903) compared
cutting from the left with cutting from the right, in threes, as people group thousands ("1,234,567").

Each rule here is the digit alternative of the cl100k pattern, swapped for another: everything else in the
pattern stays as GPT-4 has it, so a comparison measures the digits alone.
"""

from __future__ import annotations

from bpelab.patterns import CL100K

DIGIT_RULES: dict[str, str] = {
    "single digits": r"\p{N}",
    "up to 2 (nanochat)": r"\p{N}{1,2}+",
    "up to 3 (GPT-4)": r"\p{N}{1,3}+",
    "threes from the right": (
        r"(?<!\p{N})(?:\p{N}(?=(?:\p{N}{3})*+(?!\p{N}))|\p{N}{2}(?=(?:\p{N}{3})*+(?!\p{N})))|\p{N}{3}"
    ),
}
r"""Each rule's name and its digit alternative.

Threes from the right: at the start of a run (no digit before it) the first piece is one digit or two when a whole
number of threes follows it to the end of the run (the lookahead, which reads the run once); every other piece is
three digits, since what is left after the first piece is always a multiple of 3. "1234567" becomes
1 | 234 | 567, "123456" 123 | 456.

The rule was first written ``\p{N}{1,3}(?=(?:\p{N}{3})*+(?!\p{N}))``. Both cut every text the same way when the
whole text is searched (``findall``, ``finditer``: how a split pattern is used; the tests hold them equal on
generated text), but that form reads the rest of the run again at every piece, and the ``regex`` module takes
quadratic time on it (even on the first piece of a run whose length leaves 1 over a multiple of 3): about
2 s for 20,000 digits, where this one takes milliseconds
(``bpelab/bench/digits.py``)."""

_GPT4_DIGITS = r"\p{N}{1,3}+"


def pattern_with_digits(rule: str) -> str:
    """GPT-4's split pattern with its digit alternative replaced by the rule named ``rule`` (a ``DIGIT_RULES`` key)."""
    if rule not in DIGIT_RULES:
        raise ValueError(f"unknown digit rule {rule!r}; choose one of {list(DIGIT_RULES)}")
    return "|".join(DIGIT_RULES[rule] if a.regex == _GPT4_DIGITS else a.regex for a in CL100K)
