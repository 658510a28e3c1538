"""Engine hints that read 15 of lessons 09 and 13 found naming the wrong bug.

- ``bytes_per_char(['', ''])`` guarded by ``if not texts`` divides by zero: it was told it divided "on an input that
  is neither empty nor all zeros", by the wrong quantity. A list of empty texts holds nothing to count.
- ``premium`` computed as ``tokens * (1 / ref)`` is one float off the exact ratio: it was told "returned a
  NearAnswer, expected a float" (the wrapper the exact comparison uses, not the learner's type).
"""

from __future__ import annotations

from bpelab.exercises.multilingual_tax import check_bytes_per_char, check_premium


def guarded_only_for_no_texts(texts):
    if not texts:
        return 0.0
    return sum(len(t.encode("utf-8")) for t in texts) / sum(len(t) for t in texts)


def test_a_list_of_empty_texts_is_named_when_it_divides_by_zero(capsys):
    result = check_bytes_per_char(guarded_only_for_no_texts, record=False)
    assert not result.passed
    assert "neither empty nor all zeros" not in result.message, result.message
    assert "all empty" in result.message, result.message


def premium_times_the_inverse(texts_by_language, encode, language, reference="en"):
    ours = sum(len(encode(t)) for t in texts_by_language[language])
    return ours * (1 / sum(len(encode(t)) for t in texts_by_language[reference]))


def test_a_premium_one_float_off_is_told_why_not_its_type(capsys):
    result = check_premium(premium_times_the_inverse, record=False)
    assert not result.passed
    assert "NearAnswer" not in result.message, result.message
    assert "compared exactly" in result.message, result.message


def estimate_cost_added_per_token(input_tokens, output_tokens, input_price, output_price):
    return sum([input_price / 1_000_000] * input_tokens) + sum([output_price / 1_000_000] * output_tokens)


def test_a_cost_summed_per_token_is_not_told_about_a_division_of_whole_numbers(capsys):
    """Read 15 of lesson 10: the near-answer hint named 'one division of the two whole numbers', which is lesson
    09's premium, not a cost (a sum of products with float prices)."""
    from bpelab.exercises.practice import check_estimate_cost

    result = check_estimate_cost(estimate_cost_added_per_token, record=False)
    assert not result.passed
    assert "whole numbers" not in result.message, result.message
