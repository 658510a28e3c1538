"""How a split pattern cuts runs of digits (lesson 15): one rule per choice the real tokenizers made.

GPT-2 kept a whole run of digits together, so its vocabulary learned arbitrary numbers such as "1999" and
"2000" as single tokens, while "1998" might be two. GPT-4 (cl100k) and its successors cut runs into pieces of at
most three digits from the left, nanochat into pieces of at most two, some models into single digits; Singh &
Strouse (2024, *Tokenization counts: the impact of tokenization on arithmetic in frontier LLMs*,
arXiv:2402.14903) compared cutting from the left with cutting from the right, in threes, as people group
thousands ("1,234,567").

Each rule here is the digit alternative of the cl100k pattern, swapped for another: everything else in the
pattern stays as GPT-4 has it, so a comparison measures the digits alone.
"""

from __future__ import annotations

from bpelab.patterns import CL100K

DIGIT_RULES: dict[str, str] = {
    "single digits": r"\p{N}",
    "up to 2 (nanochat)": r"\p{N}{1,2}+",
    "up to 3 (GPT-4)": r"\p{N}{1,3}+",
    "threes from the right": r"\p{N}{1,3}(?=(?:\p{N}{3})*+(?!\p{N}))",
}
"""Each rule's name and its digit alternative. Threes from the right: the first piece takes 1 to 3 digits, as many
as leave a multiple of 3 behind it (the lookahead), so "1234567" becomes 1 | 234 | 567."""

_GPT4_DIGITS = r"\p{N}{1,3}+"


def pattern_with_digits(rule: str) -> str:
    """GPT-4's split pattern with its digit alternative replaced by the rule named ``rule`` (a ``DIGIT_RULES`` key)."""
    if rule not in DIGIT_RULES:
        raise ValueError(f"unknown digit rule {rule!r}; choose one of {list(DIGIT_RULES)}")
    return "|".join(DIGIT_RULES[rule] if a.regex == _GPT4_DIGITS else a.regex for a in CL100K)
