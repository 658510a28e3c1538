"""How a checker's report shows what differs: two values that print alike are shown by their code points."""

import unicodedata

from bpelab.exercises.showing import differences


def test_two_strings_that_print_alike_are_shown_by_their_code_points():
    composed, decomposed = "café", unicodedata.normalize("NFD", "café")
    said = differences(["x", decomposed], ["x", composed])
    assert said == "first difference at position 1: expected 'cafe\\u0301', got 'caf\\xe9'"
    said = differences({"w": decomposed}, {"w": composed})
    assert said == "'w': expected 'cafe\\u0301', got 'caf\\xe9'"


def test_values_that_print_differently_are_shown_as_they_print():
    assert differences(["a", "b"], ["a", "c"]) == "first difference at position 1: expected 'b', got 'c'"
