"""Whitespace in the lessons' tables stays visible in the HTML a notebook shows."""

import re

import pandas as pd
import pytest
import regex

from bpelab.plots.tables import spaces_shown


def _cells(html: str) -> list[str]:
    """The cells' text as a browser shows it: HTML squeezes whitespace runs to one space and trims the ends."""
    return [re.sub(r"\s+", " ", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", html, re.S)]


def test_a_leading_space_and_a_run_of_spaces_survive_html():
    table = pd.DataFrame({"pattern": [" ?\\p{L}++"], "text": [repr("a   b")], "what": ["words, with a space"]})
    assert _cells(table.to_html())[0] == "?\\p{L}++", "plain pandas HTML loses the leading space (the problem)"
    # (pandas 2.x also writes 'a   b' with plain spaces, which HTML squeezes to one; pandas 3 writes &nbsp;)
    shown = spaces_shown(table, ["pattern", "text"])
    assert _cells(shown.to_html()) == ["⋅?\\p{L}++", "'a⋅⋅⋅b'", "words, with a space"]
    assert table.loc[0, "pattern"] == " ?\\p{L}++", "the original table is not changed"


def test_the_index_and_non_text_cells():
    table = pd.DataFrame({"n": [1, 2]}, index=[repr("  hello"), "tab\there"])
    shown = spaces_shown(table)
    assert list(shown.index) == ["'⋅⋅hello'", "tab→here"] and list(shown["n"]) == [1, 2]
    assert list(spaces_shown(table, index=False).index) == list(table.index)


def test_what_the_regex_primer_shows_is_what_findall_gives():
    found = repr(regex.findall(r"\s+(?!\S)", "a   b"))  # ['  '] : two of the three spaces
    (cell,) = _cells(spaces_shown(pd.DataFrame({"found": [found]})).to_html())
    assert cell == "['⋅⋅']"


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="DataFrame"):
        spaces_shown([1, 2])
    with pytest.raises(ValueError, match="no columns \\['nope'\\]"):
        spaces_shown(pd.DataFrame({"a": ["x"]}), ["nope"])


def test_only_the_whitespace_inside_string_literals_is_drawn():
    """In a repr'd list the ", " between items is Python's, not the text's: it stays a plain space."""
    pieces = repr(regex.findall(r" ?\p{L}+", "to be"))  # ['to', ' be']
    (cell,) = _cells(spaces_shown(pd.DataFrame({"pieces": [pieces]})).to_html())
    assert cell == "['to', '⋅be']"
    assert _cells(spaces_shown(pd.DataFrame({"s": [repr("it's, ok")]})).to_html()) == ['"it\'s,⋅ok"']
