"""Read 22 of lessons 14 and 15 (fixBT): the findings fixed, each held by a test."""

from __future__ import annotations

import ast
import re

import nbformat
import pandas as pd

from tests.shown_solutions import lesson_path


def _cells(lesson: str) -> list:
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _by_id(lesson: str, cell_id: str):
    return next(c for c in _cells(lesson) if c.id == cell_id)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _output(cell) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", []))


# ---- finding 1: lesson 14, when a language passes its turn ----------------------------------------------------------


def test_the_rule_says_a_language_passes_when_its_best_pair_occurs_fewer_than_twice():
    text = _flat(_by_id("14", "a82c8075").source)
    assert "occurs only once passes" not in text
    assert "fewer than twice (once, or not at all, or it has no pair left)" in text


def test_the_trainer_passes_the_turn_below_two_as_the_rule_says():
    import inspect

    from bpelab import parity

    assert "best[1] >= 2" in inspect.getsource(parity)


# ---- finding 2: lesson 14, "whole characters" that are combining marks ----------------------------------------------


def test_tamils_whole_tokens_are_called_whole_code_points_and_named():
    prose = _flat(_by_id("14", "1ef9a863").source)
    assert "whole code point" in prose and "UTF-8 bytes complete" in prose
    assert "combining" in prose or "marks" in prose
    out = _output(_by_id("14", "861a1de7"))
    assert "TAMIL SIGN VIRAMA" in out and "TAMIL VOWEL SIGN U" in out, out


# ---- finding 3: lesson 14's back link --------------------------------------------------------------------------------

LINK = re.compile(r"\[←[^\]]*\]\(([^)]+)\)|\[Back[^\]]*\]\(([^)]+)\)")


def _back_link(lesson: str) -> str:
    last = _cells(lesson)[-1].source
    found = [a or b for a, b in LINK.findall(last)]
    assert found, last[-400:]
    return found[0]


def test_lessons_14_to_16_link_back_to_the_lesson_before():
    assert _back_link("14").startswith("13_"), _back_link("14")
    assert _back_link("15").startswith("14_")
    assert _back_link("16").startswith("15_")


def test_lesson_14_still_points_to_09_as_related():
    assert "09_multilingual_tax.ipynb" in _cells("14")[-1].source


# ---- finding 4: lesson 15, a long text as a table's label ------------------------------------------------------------


def _lesson15_functions():
    """shown_text and label, as lesson 15's cell 11d6dd9f defines them."""
    tree = ast.parse(_by_id("15", "11d6dd9f").source)
    defs = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    namespace: dict = {}
    exec(compile(ast.Module(body=defs, type_ignores=[]), "<lesson 15 11d6dd9f>", "exec"), namespace)
    return namespace


def test_a_long_label_is_shortened_with_its_length():
    label = _lesson15_functions()["label"]
    text = "1234567 " * 6250
    assert len(text) == 50_000
    shown = label(text)
    assert len(shown) < 80, shown
    assert shown.startswith("1234567 1234567 1234567 123456")
    assert "(50,000 characters)" in shown and "…" in shown
    assert label("in 1999") == "in 1999"
    assert label("\ud800") == "'\\ud800'"


def test_a_table_labelled_so_stays_small_with_a_50000_character_text():
    label = _lesson15_functions()["label"]
    texts = ["1234567", "9" * 50_000]
    table = pd.DataFrame({"rule": ["a", "b"]}, index=[label(x) for x in texts]).T
    assert len(table.to_html()) < 2_000


def test_both_tables_are_labelled_alike():
    for cell_id in ("11d6dd9f", "af161f9c"):
        source = _by_id("15", cell_id).source
        assert "index=[label(x) for x in EXAMPLES]" in source, cell_id
        assert "index=[shown_text(x) for x in EXAMPLES]" not in source, cell_id


def test_the_prose_quotes_the_printed_long_label():
    prose = _flat(_by_id("15", "a2c41e04").source)
    quoted = "a text of 50,000 characters, as both tables label it"
    assert f"`{quoted}`" in prose and "`label`" in prose
    out = _output(_by_id("15", "11d6dd9f"))
    assert f"{quoted}: 1234567 1234567 1234567 123456 … (50,000 characters)" in out, out
