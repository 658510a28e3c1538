"""Read 15 of lessons 09 and 13: what a fresh reviewer found, each fix held by a test.

- bytes_per_char: "No other number passes, however near", yet the exact ratio + 1e-10, or the totals divided by
  ``chars + 1e-12`` (a zero guard), passed: the engine compares floats to within 1e-9. Now only the exact ratio and
  its correct roundings (to 2 or more places) pass, compared exactly, and a number a little off is told so.
- Lesson 09's example of a cut-off answer ("1.64 for 1.625") was false: cutting 1.625 gives 1.62 or 1.63, both
  correct roundings. The example is now a ratio where cutting and rounding differ, computed by a cell.
- Lesson 09's "every number that differs" compared only ASCII digit runs; it says so now (data/README.md too).
- Lesson 13 named a cell by its index ("the one cell 16 loaded"); it names it by what it does.
- Lesson 13 cited lines of tokenizers' mod.rs "in the version printed above" (the version installed, whatever it is):
  the lines are right in the 0.23.3 sdist on PyPI, and the lesson now names that release.
"""

from __future__ import annotations

import decimal
import math
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from bpelab.exercises.multilingual_tax import check_bytes_per_char
from tests.shown_solutions import lesson_path, shown_solution

ROOT = Path(__file__).parent.parent


def _cell(lesson: str, cell_id: str) -> str:
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id).source


def _hint(out: str) -> str:
    return out.split("hint:", 1)[1] if "hint:" in out else out


# ---- 1. bytes_per_char: only the exact ratio and its correct roundings pass ----------------------


def nudged(texts):
    chars = sum(len(t) for t in texts)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    return n_bytes / chars + 1e-10 if chars else 0.0


def epsilon_in_the_divisor(texts):
    chars = sum(len(t) for t in texts)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    return n_bytes / (chars + 1e-12)


@pytest.mark.parametrize("answer", [nudged, epsilon_in_the_divisor], ids=["nudge", "epsilon"])
def test_a_number_a_little_off_is_refused_and_told_so(capsys, answer):
    result = check_bytes_per_char(answer, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    hint = _hint(out)
    assert "a little off" in hint, hint
    assert "NearAnswer" not in out, out


def _exact(texts):
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def _half_up(x: float, places: int) -> float:
    q = decimal.Decimal(1).scaleb(-places)
    return float(decimal.Decimal(repr(x)).quantize(q, rounding=decimal.ROUND_HALF_UP))


@pytest.mark.parametrize(
    "answer",
    [
        _exact,
        shown_solution("09", "2af417a5", "bytes_per_char"),
        lambda texts: Fraction(sum(len(t.encode()) for t in texts), max(1, sum(map(len, texts)))),
        lambda texts: round(_exact(texts), 2),
        lambda texts: round(_exact(texts), 9),
        lambda texts: round(_exact(texts), 15),
        lambda texts: _half_up(_exact(texts), 2),
        lambda texts: math.floor(_exact(texts) * 100 + 0.5) / 100,
    ],
    ids=["exact", "shown", "fraction", "round2", "round9", "round15", "half-up decimal", "half-up floor"],
)
def test_the_exact_ratio_and_its_correct_roundings_still_pass(capsys, answer):
    assert check_bytes_per_char(answer, record=False).passed, capsys.readouterr().out


@pytest.mark.parametrize(
    "answer",
    [
        lambda texts: int(_exact(texts) * 100) / 100,
        lambda texts: math.ceil(_exact(texts) * 100) / 100,
        lambda texts: _exact(texts) + 0.004,
        lambda texts: round(_exact(texts), 1),
    ],
    ids=["int cut", "ceil", "plus 0.004", "one place"],
)
def test_the_numbers_the_lesson_says_are_refused_are_refused(capsys, answer):
    assert not check_bytes_per_char(answer, record=False).passed


# ---- 2. lesson 09's example of a cut-off answer is true and computed -----------------------------


def _lesson09_prose() -> str:
    return "\n".join(
        c.source for c in nbformat.read(lesson_path("09"), as_version=4).cells if c.cell_type == "markdown"
    )


def test_the_false_cut_off_example_is_gone():
    assert "1.64 for 1.625" not in _lesson09_prose()


def test_the_cut_off_example_is_computed_by_a_cell():
    nb = nbformat.read(lesson_path("09"), as_version=4)
    cell = next(c for c in nb.cells if c.id == "cut-or-round")
    assert cell.cell_type == "code"
    shown = "".join(o.get("text", "") for o in cell.outputs)
    # 5/3 = 1.666…: int() cuts to 1.66, rounding gives 1.67; 4/3 = 1.333…: math.ceil gives 1.34, rounding 1.33
    for number in ("1.66", "1.67", "1.34", "1.33", "1.62", "1.63"):
        assert number in shown, shown
    prose = _cell("09", "d7e1cdfb")
    for number in ("1.66", "1.67", "1.34", "1.33"):
        assert number in prose, prose


# ---- 3. the numbers compared in lesson 09's section 1 -------------------------------------------


def test_lesson09_says_which_numbers_it_compares():
    prose = _cell("09", "6e0a3c71")
    assert "every number, in every language" not in prose, prose
    assert "0-9" in prose or "ASCII digits" in prose, prose
    assert "words" in prose, prose


def test_data_readme_says_which_numbers_are_ascii_digits():
    readme = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
    assert "numbers as ASCII digits everywhere" not in readme


# ---- 4. lesson 13 names a cell by what it does -------------------------------------------------


def test_lesson13_names_no_cell_by_its_index():
    nb = nbformat.read(lesson_path("13"), as_version=4)
    for cell in nb.cells:
        assert not re.search(r"\bcells? \d+\b", cell.source), cell.source


# ---- 5. lesson 13's citation of tokenizers' source ----------------------------------------------


def test_lesson13_cites_mod_rs_lines_of_a_named_release():
    prose = _cell("13", "d557dda8")
    assert "in the version printed above" not in prose, prose
    # checked against the sdist on PyPI (pip download --no-binary tokenizers tokenizers==0.23.3): mod.rs lines 1491–1493
    # are `let normalized = self` … `.extract_and_normalize(self.normalizer.as_ref(), seq.as_ref());` in `train`
    assert "lines 1491–1493 of the tokenizers 0.23.3 release" in prose, prose


def test_no_parallel_file_holds_a_digit_outside_ascii():
    import bpelab

    parallel = bpelab.load_parallel()
    assert not [
        ch for lines in parallel.values() for line in lines for ch in line if ch.isdecimal() and not ch.isascii()
    ]
