"""Case-insensitive groups written for JavaScript (which has no ``(?i:…)`` before ES2025) match what
Python's ``regex`` matches, ſ and the Kelvin sign included; ``\\p{L}+`` is not mistaken for a possessive."""

from __future__ import annotations

import regex

from bpelab.widgets.js_regex import js_pattern, js_pattern_with_case, same_letter_any_case, spell_out_case


def test_each_letter_class_is_what_regex_matches_case_insensitively() -> None:
    assert set(same_letter_any_case("s")[1:-1]) == {"s", "S", "\u017f"}
    assert set(same_letter_any_case("k")[1:-1]) == {"k", "K", "\u212a"}
    assert same_letter_any_case("'") == "'"


def test_a_spelled_out_group_matches_exactly_what_the_flag_matched() -> None:
    original = "(?i:'s|'ll)"
    spelled = spell_out_case(original)
    assert spelled is not None and "(?i" not in spelled
    for text in ["'s", "'S", "'\u017f", "'ll", "'lL", "'LL", "'x", "s", "'l"]:
        assert bool(regex.fullmatch(spelled, text)) == bool(regex.fullmatch(original, text)), text


def test_a_group_holding_more_than_literal_text_is_refused() -> None:
    assert spell_out_case(r"(?i:\w+)") is None
    assert js_pattern_with_case(r"(?i:[a-z]+)") is None


def test_a_property_escape_with_a_quantifier_is_not_a_possessive() -> None:
    assert js_pattern(r"\p{L}+|\p{N}{1,3}") == r"\p{L}+|\p{N}{1,3}"
    assert js_pattern(r"\p{L}++") is None and js_pattern(r"a{2}+") is None
