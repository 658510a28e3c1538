"""Lessons 09, 10 and 13's thirteenth fresh read (fixAC): answers the checkers judged against another rule than the
lesson states (a correct rounding refused, a rounded premium or cost accepted), and a cell that changed a name a
later cell uses."""

from __future__ import annotations

import ast
import decimal
import math
import unicodedata
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from bpelab.exercises.practice import (
    check_bytes_per_char,
    check_estimate_cost,
    check_premium,
    check_room_for_answer,
)

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def _hint(out: str) -> str:
    """The report's ``hint:`` line (a check prints one when it can name the mistake)."""
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _exact(texts: list[str]) -> Fraction:
    chars = sum(len(t) for t in texts)
    return Fraction(sum(len(t.encode("utf-8")) for t in texts), chars) if chars else Fraction(0)


# ---- finding 1: bytes_per_char accepts any correct rounding to 2 or more places, and nothing else ----------------


def _half_up(texts: list[str]) -> float:
    """School rounding to 2 places: 1.625 becomes 1.63 (round() gives 1.62, half to even)."""
    x = _exact(texts)
    return math.floor(float(x) * 100 + 0.5) / 100


def _decimal_half_up(texts: list[str]) -> decimal.Decimal:
    x = _exact(texts)
    return decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator) if x.denominator else decimal.Decimal(0)


def test_school_rounding_of_the_ratio_passes(capsys) -> None:
    assert _half_up(["日本\nab\n", "é\n"]) == 1.63 and round(13 / 8, 2) == 1.62  # case 14, by hand
    assert check_bytes_per_char(_half_up, record=False).passed, capsys.readouterr().out

    def decimal_half_up(texts: list[str]) -> decimal.Decimal:
        return _decimal_half_up(texts).quantize(decimal.Decimal("0.01"), rounding=decimal.ROUND_HALF_UP)

    assert check_bytes_per_char(decimal_half_up, record=False).passed, capsys.readouterr().out
    for places in (2, 3, 4, 6):
        assert check_bytes_per_char(lambda t, p=places: round(float(_exact(t)), p), record=False).passed


def test_only_a_correct_rounding_passes(capsys) -> None:
    from bpelab.exercises.multilingual_tax import _accepted

    assert _accepted(1.63, Fraction(13, 8)) and _accepted(1.62, Fraction(13, 8)) and _accepted(1.625, Fraction(13, 8))
    assert not _accepted(1.6, Fraction(13, 8)) and not _accepted(1.64, Fraction(13, 8))
    assert not _accepted(1.33, Fraction(4, 3) + Fraction(1, 100)) and _accepted(1.33, Fraction(4, 3))
    assert not _accepted(1.34, Fraction(4, 3))  # up instead of to the nearest
    assert _accepted(1.01, Fraction(201, 200)) and _accepted(1.0, Fraction(201, 200))  # 1.005 half-up and half-even

    def ceiling(texts: list[str]) -> float:
        return math.ceil(float(_exact(texts)) * 100) / 100

    assert not check_bytes_per_char(ceiling, record=False).passed
    assert "UP" in _hint(capsys.readouterr().out)


# ---- finding 6: the premium is compared exactly --------------------------------------------------------------------


def test_a_rounded_premium_is_refused(capsys) -> None:
    def rounded(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        mine = sum(len(encode(t)) for t in texts_by_language[language])
        return round(mine / sum(len(encode(t)) for t in texts_by_language[reference]), 9)

    assert not check_premium(rounded, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "rounded to 9 decimal places" in hint, hint

    def as_fraction(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        return Fraction(sum(len(encode(t)) for t in texts_by_language[language])) / sum(
            len(encode(t)) for t in texts_by_language[reference]
        )

    assert check_premium(as_fraction, record=False).passed, capsys.readouterr().out


def test_tabs_made_spaces_are_refused(capsys) -> None:
    def no_tabs(texts_by_language, encode, language, reference="en"):  # type: ignore[no-untyped-def]
        mine = sum(len(encode(t.replace("\t", " "))) for t in texts_by_language[language])
        return mine / sum(len(encode(t.replace("\t", " "))) for t in texts_by_language[reference])

    assert not check_premium(no_tabs, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "as it is" in hint and "tab" in hint, hint


# ---- finding 7: estimate_cost ----------------------------------------------------------------------------------------


def test_a_cost_rounded_to_10_places_is_refused(capsys) -> None:
    def rounded(i, o, pi, po):  # type: ignore[no-untyped-def]
        return round((i * pi + o * po) / 1_000_000, 10)

    assert not check_estimate_cost(rounded, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "rounded to 10 decimal places" in hint, hint

    def other_order(i, o, pi, po):  # type: ignore[no-untyped-def]
        return i / 1_000_000 * pi + po * (o / 1_000_000)

    assert check_estimate_cost(other_order, record=False).passed, capsys.readouterr().out


# ---- finding 3: a loop of a later cell must not rebind a name an earlier cell reads -------------------------------


def _bound(tree: ast.Module) -> dict[str, str]:
    """Names a cell binds at its top level, each with how: "for" (a loop target) or "assign" (anything else)."""
    out: dict[str, str] = {}
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.setdefault(node.name, "assign")
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.For):
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, "for")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.setdefault(node.id, "assign")
        stack.extend(ast.iter_child_nodes(node))
    return out


def _loops_that_shadow(lesson: str) -> list[tuple[int, str]]:
    """(cell, name) for a loop that rebinds a name an earlier cell set and a cell between them reads: re-running
    the reading cell after the loop's cell would read the loop's last value."""
    notebook = nbformat.read(next(NOTEBOOKS.glob(f"{lesson}_*.ipynb")), as_version=4)
    trees = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            source = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
            trees.append((index, ast.parse(source)))
    found = []
    for k, (index, tree) in enumerate(trees):
        for name, how in _bound(tree).items():
            if how != "for":
                continue
            setters = [i for i, t in trees[:k] if _bound(t).get(name) == "assign"]
            readers = [
                i
                for i, t in trees[:k]
                if setters
                and i > setters[0]
                and name not in _bound(t)
                and any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(t))
            ]
            if readers:
                found.append((index, name))
    return found


def test_no_loop_rebinds_a_name_an_earlier_cell_reads() -> None:
    for lesson in ("09", "10", "13"):
        assert _loops_that_shadow(lesson) == [], lesson


def test_cell_73_leaves_the_lessons_sentence_alone() -> None:
    notebook = nbformat.read(next(NOTEBOOKS.glob("09_*.ipynb")), as_version=4)
    cell = next(c for c in notebook.cells if c.id == "c4e2d8f2")
    bound = _bound(ast.parse(cell.source))
    assert "sentence" not in bound and "sentences" not in bound, bound


# ---- finding 8: the fold-gaps shown to 2 places, beside "over 4 times" ----------------------------------------------


def test_fold_gaps_are_printed_to_two_places() -> None:
    notebook = nbformat.read(next(NOTEBOOKS.glob("09_*.ipynb")), as_version=4)
    cell = next(c for c in notebook.cells if c.id == "12f8ed43")
    out = "".join(o.get("text", "") for o in cell.outputs)
    assert "-fold gap" in out, out
    for line in out.splitlines():
        if "-fold gap" in line:
            fold = line.split("a ")[-1].split("-fold")[0]
            assert len(fold.split(".")[1]) == 2, line


# ---- finding 10: no unsourced claim about the training text ---------------------------------------------------------


def test_capitals_claim_is_a_guess() -> None:
    notebook = nbformat.read(next(NOTEBOOKS.glob("10_*.ipynb")), as_version=4)
    cell = next(c for c in notebook.cells if c.id == "a1bd6862")
    assert "capitals are rarer in training text" not in cell.source


# ---- finding 2: room_for_answer counts each prompt whole and as it is sent ----------------------------------------


def _room_changing(change_system: bool, change_user: bool, change):  # type: ignore[no-untyped-def]
    def room(system, user, context_window, count_tokens):  # type: ignore[no-untyped-def]
        s = change(system) if change_system else system
        u = change(user) if change_user else user
        return max(0, context_window - count_tokens(s) - count_tokens(u))

    return room


@pytest.mark.parametrize("form", ["NFC", "NFD"])
@pytest.mark.parametrize(("system", "user"), [(True, True), (False, True), (True, False)])
def test_normalised_prompts_are_refused(capsys, form, system, user) -> None:
    answer = _room_changing(system, user, lambda t: unicodedata.normalize(form, t))
    assert not check_room_for_answer(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert f"normalize('{form}'" in hint and "as it is sent" in hint, hint


@pytest.mark.parametrize("replacement", ["", " "])
def test_a_dropped_zero_width_space_is_refused(capsys, replacement) -> None:
    answer = _room_changing(True, True, lambda t: t.replace("\u200b", replacement))
    assert not check_room_for_answer(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "U+200B" in hint, hint


def test_one_token_of_room_is_room(capsys) -> None:
    def room(system, user, context_window, count_tokens):  # type: ignore[no-untyped-def]
        left = context_window - count_tokens(system) - count_tokens(user)
        return left if left > 1 else 0

    assert not check_room_for_answer(room, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "one token left is room too" in hint, hint


# ---- finding 9: lesson 13 says, computed, that the suggested Python code stops early too -----------------------------


def test_lesson_13_counts_where_the_code_stops() -> None:
    notebook = nbformat.read(next(NOTEBOOKS.glob("13_*.ipynb")), as_version=4)
    assert "training stops early on it too" in notebook.cells[2].source
    cell = next(c for c in notebook.cells if c.id == "a7c3f2e1")
    out = "".join(o.get("text", "") for o in cell.outputs)
    assert "Python code:" in out and "stopped early" in out, out
