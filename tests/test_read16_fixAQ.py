"""Read 16 of lessons 09 and 13 (fix AQ): what a fresh reviewer found, each fix held by a test.

- bytes_per_char accepted a guard that returns 0.0 when any text (or the first) is empty: now refused, and told that
  an empty text adds nothing.
- Both checkers accepted texts cleaned before counting (\\r\\n made \\n, \\r dropped, the zero-width joiner dropped;
  for bytes_per_char also expandtabs() and casefold()): now refused, and told to count the text as it is.
- bytes_per_char named neither a cut at 3 places, a ceil at 4, nor float32; it told ``b * (1 / c)`` about a tiny
  number added to the divisor: each is named now, and the divisor hint needs the divisor.
- Lesson 09 spoke of "the last column" of a table of two; lesson 13's filter of merges found code's '->' as a merge
  of the special token; its recap did not say when the special token's bytes are merged.
- CompareView's text view cut a character in two at its 40th token.
"""

from __future__ import annotations

import math
from pathlib import Path

import nbformat
import numpy as np
import pytest

from bpelab.exercises.multilingual_tax import check_bytes_per_char, check_premium
from tests.shown_solutions import lesson_path

ROOT = Path(__file__).parent.parent


def _cell(lesson: str, cell_id: str) -> str:
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id).source


def _hint(out: str) -> str:
    return out.split("hint:", 1)[1] if "hint:" in out else out


def bytes_per_char(texts):
    """The learner's own ratio (a check refuses the course's function inside an answer)."""
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def premium(texts_by_language, encode, language, reference="en"):
    """The learner's own premium."""
    return sum(len(encode(t)) for t in texts_by_language[language]) / sum(
        len(encode(t)) for t in texts_by_language[reference]
    )


def _refused(check, answer, capsys) -> str:
    result = check(answer, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return _hint(out)


# ---- 1. an empty text among others -----------------------------------------------------------------


def guard_any_empty(texts):
    if not texts or not all(texts):
        return 0.0
    return bytes_per_char(texts)


def guard_first_empty(texts):
    if not texts or not texts[0]:
        return 0.0
    return bytes_per_char(texts)


@pytest.mark.parametrize("answer", [guard_any_empty, guard_first_empty], ids=["all(texts)", "texts[0]"])
def test_a_guard_on_an_empty_text_is_refused(capsys, answer):
    hint = _refused(check_bytes_per_char, answer, capsys)
    assert "an empty text adds nothing" in hint, hint
    assert "ALL" in hint, hint


# ---- 2. texts cleaned before counting ------------------------------------------------------------


def _cleaned(change):
    def answer(texts):
        return bytes_per_char([change(t) for t in texts])

    return answer


CLEANINGS = {
    "crlf": lambda t: t.replace("\r\n", "\n"),
    "cr": lambda t: t.replace("\r", ""),
    "zwj": lambda t: t.replace("\u200d", ""),
    "expandtabs": str.expandtabs,
    "casefold": str.casefold,
}


@pytest.mark.parametrize("name", list(CLEANINGS))
def test_bytes_per_char_refuses_cleaned_texts(capsys, name):
    hint = _refused(check_bytes_per_char, _cleaned(CLEANINGS[name]), capsys)
    assert "count the text as it is" in hint, hint


def _premium_cleaned(change):
    def answer(texts_by_language, encode, language, reference="en"):
        changed = {code: [change(t) for t in texts] for code, texts in texts_by_language.items()}
        return premium(changed, encode, language, reference)

    return answer


@pytest.mark.parametrize("name", ["crlf", "cr", "zwj"])
def test_premium_refuses_cleaned_texts(capsys, name):
    hint = _refused(check_premium, _premium_cleaned(CLEANINGS[name]), capsys)
    assert "count the text as it is" in hint, hint


# ---- 3. each near answer named for what it is ----------------------------------------------------


def _totals(texts):
    return sum(len(t.encode("utf-8")) for t in texts), sum(len(t) for t in texts)


def cut_at_3(texts):
    b, c = _totals(texts)
    return int(b / c * 1000) / 1000 if c else 0.0


def ceil_at_4(texts):
    b, c = _totals(texts)
    return math.ceil(b / c * 10000) / 10000 if c else 0.0


def in_float32(texts):
    b, c = _totals(texts)
    return float(np.float32(b) / np.float32(c)) if c else 0.0


@pytest.mark.parametrize(
    ("answer", "named"),
    [(cut_at_3, "cut off at 3 places"), (ceil_at_4, "rounded UP at 4 places"), (in_float32, "float32")],  # read 17
    ids=["cut at 3", "ceil at 4", "float32"],
)
def test_a_rounding_or_float32_is_named(capsys, answer, named):
    hint = _refused(check_bytes_per_char, answer, capsys)
    assert named in hint, hint
    assert "a character or byte too many" not in hint, hint


def times_one_over(texts):
    b, c = _totals(texts)
    return b * (1 / c) if c else 0.0


def weighted_mean_of_ratios(texts):
    _b, c = _totals(texts)
    return sum(len(t) / c * (len(t.encode("utf-8")) / len(t)) for t in texts if t) if c else 0.0


@pytest.mark.parametrize("answer", [times_one_over, weighted_mean_of_ratios], ids=["b * (1/c)", "weighted mean"])
def test_a_float_off_by_rounding_is_not_told_of_an_epsilon(capsys, answer):
    hint = _refused(check_bytes_per_char, answer, capsys)
    assert "added to the divisor" not in hint, hint
    assert "multiplying by 1 / n" in hint, hint


def epsilon_in_the_divisor(texts):
    b, c = _totals(texts)
    return b / (c + 1e-12)


def test_an_epsilon_in_the_divisor_is_still_told_so(capsys):
    hint = _refused(check_bytes_per_char, epsilon_in_the_divisor, capsys)
    assert "added to the divisor" in hint, hint


# ---- 4. lesson 09: the table's columns -----------------------------------------------------------


def test_lesson_09_names_the_columns_of_its_table():
    prose = nbformat.read(lesson_path("09"), as_version=4).cells[71].source
    assert "The last column" not in prose, prose


# ---- 5. CompareView's text view keeps whole characters -------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "เช้าวันเสาร์ นีนาตื่นนอน",
        "เช้าวันเสาร์ นีนาตื่นนอน แล้วก็ไปตลาดกับแม่ของเธอ",
        "ᐃᓄᒃᑎᑐᑦ ᐃᓄᒃᑎᑐᑦ ᐃᓄᒃᑎᑐᑦ ᐃᓄᒃᑎᑐᑦ ᐃᓄᒃᑎᑐᑦ",
        "👩‍💻🧑🏽‍🚀🇯🇵 " * 6,
        "日本語のテキストを四十トークンで切る " * 3,
    ],
)
def test_the_text_view_never_shows_half_a_character(text):
    from bpelab.widgets import CompareView

    view = CompareView(text=text)
    shown = view.render_text()
    assert "\ufffd" not in shown, shown


# ---- 6. lesson 13: the filter finds merges of the special token's own pieces --------------------


def _filter_of_lesson_13():
    """The lesson's ``of_special``, with ``special`` and ``marks`` as the cell computes them for <|endoftext|>."""
    import ast

    import regex

    source = _cell("13", "2284fa58")
    tree = ast.parse(source)
    function = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "of_special")
    special = "<|endoftext|>"
    space = {"special": special, "regex": regex}
    space["marks"] = list(dict.fromkeys([c for c in special if not c.isalnum()] + regex.findall(r"\p{L}+", special)))
    exec(compile(ast.Module([function], []), "lesson13", "exec"), space)
    return space["of_special"]


def test_lesson_13_filter_leaves_out_codes_arrow():
    of_special = _filter_of_lesson_13()
    assert not of_special(("Ġ-", ">")), "code's '->' is no piece of <|endoftext|>"
    assert not of_special(("|", "|")) and not of_special(("e", "nd"))
    for merge in [("<", "|"), ("|", ">"), ("xt", "|>"), ("<|", "endofte"), ("endofte", "xt"), (".", "<|")]:
        assert of_special(merge), merge


# ---- 7. lesson 13's recap: when the special token's bytes are merged ----------------------------


def test_lesson_13_recap_scopes_the_merged_special_token():
    recap = _cell("13", "1f34753b")
    assert "on the default text its bytes are merged" in recap, recap
    assert "min_frequency=2" in recap, recap
