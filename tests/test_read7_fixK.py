"""Findings of the seventh fresh read of lessons 14 and 15: the EXAMPLES tables could not be sent to Jupyter with a
lone surrogate in EXAMPLES, a parity_next_pair that skips only pairs seen exactly once passed, and hints or shown
solutions that misled."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from bpelab.exercises.parity import check_parity_next_pair, reference_parity_next_pair

nbformat = pytest.importorskip("nbformat")

LESSON_14 = "notebooks/14_fairer_merges_bigger_tokens.ipynb"
LESSON_15 = "notebooks/15_numbers_glitches_fair_comparisons.ipynb"


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _cell(path: str, marker: str) -> str:
    (source,) = [
        c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code" and marker in c.source
    ]
    return source


def _run(source: str, space: dict[str, Any]) -> Any:
    """Run a cell as IPython does: its last line, an expression, is the cell's result."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "cell", "exec"), space)
    return eval(compile(ast.Expression(last.value), "cell", "eval"), space) if last else None


def _sent_to_jupyter(result: Any) -> bytes:
    """The display message as the kernel packs it: IPython's formats of the result, through jupyter_client's JSON."""
    from IPython.core.formatters import DisplayFormatter
    from jupyter_client.session import json_packer

    data, metadata = DisplayFormatter().format(result)
    return json_packer({"data": data, "metadata": metadata})


# ---- lesson 15: the two EXAMPLES tables take a lone surrogate, all the way to Jupyter --------------------------------


def test_both_examples_tables_reach_jupyter_with_a_lone_surrogate() -> None:
    space: dict[str, Any] = {}
    _run(_cell(LESSON_15, "ENCODINGS = ["), space)
    first = _cell(LESSON_15, "EXAMPLES = [").replace("EXAMPLES = [", 'EXAMPLES = ["\\ud800", ', 1)
    message = _sent_to_jupyter(_run(first, space))  # raised UnicodeEncodeError: '\ud800' was a column's name
    assert b"'\\\\ud800'" in message  # the escaped name, as shown_text writes it (and JSON escapes its backslash)
    message = _sent_to_jupyter(_run(_cell(LESSON_15, "def pieces("), space))
    assert "\ufffd".encode() in message  # tiktoken turns the surrogate into U+FFFD before encoding


# ---- lesson 14, parity_next_pair: a pair counted 0 does not occur twice ---------------------------------------------


def _first_not_once(tokens, pair_counts):
    """The exercise's words taken literally: skip a language whose best pair occurs exactly once."""
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] == 1:
                continue
            return language, pair
    return None


def _returned_unless_once(tokens, pair_counts):
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] != 1:
                return language, pair
    return None


def shown_parity_next_pair(tokens, pair_counts):  # lesson 14's solution, cell 30
    for language in sorted(tokens, key=lambda lang: -tokens[lang]):
        counts = pair_counts[language]
        if counts:
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
    return None


def test_the_course_keeps_pairs_counted_zero() -> None:
    from bpelab.byte_level import count_pretokens
    from bpelab.fast import IncrementalTrainer
    from bpelab.patterns import GPT2_PATTERN

    words = count_pretokens("aaab aaab", GPT2_PATTERN)  # as lesson 14's cell 16 builds each language's trainer
    trainer = IncrementalTrainer([tuple(w) for w in words], list(words.values()))
    trainer.merge((97, 97), 256)
    # by hand: "aaab" and " aaab" become "aa a b", " aa a b": (97, 97) and (32, 97) are gone, kept at 0
    assert {pair: n for pair, n in trainer.counts.items() if n == 0} == {(97, 97): 0, (32, 97): 0}


def test_a_pair_counted_zero_is_not_merged() -> None:
    state = ({"ta": 30, "en": 10}, {"ta": {(97, 97): 0, (32, 97): 0}, "en": {(116, 104): 5}})
    assert reference_parity_next_pair(*state) == ("en", (116, 104))
    assert _first_not_once(*state) == ("ta", (97, 97))


@pytest.mark.parametrize("answer", [_first_not_once, _returned_unless_once])
def test_skipping_only_pairs_seen_once_is_rejected_and_named(answer, capsys) -> None:
    assert not check_parity_next_pair(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "0" in hint and "== 1" in hint and ">= 2" in hint, hint


def test_the_shown_parity_next_pair_passes() -> None:
    assert check_parity_next_pair(shown_parity_next_pair, record=False).passed


def test_the_exercise_says_fewer_than_twice() -> None:
    (text,) = [c.source for c in nbformat.read(LESSON_14, as_version=4).cells if "### Exercise 2" in c.source]
    assert "fewer than twice" in text and "only once" not in text


# ---- lesson 15, group_digits: digits turned into ASCII without int(); the shown solution runs as pasted -------------


def _threes_from_the_right(digits: str) -> list[str]:  # lesson 15's solution, cell 23
    first = len(digits) % 3 or 3
    groups = [digits[:first]] if digits else []
    return groups + [digits[i : i + 3] for i in range(first, len(digits), 3)]


def through_unicodedata(digits: str) -> list[str]:
    import unicodedata

    return _threes_from_the_right("".join(str(unicodedata.digit(c)) for c in digits))


def test_digits_turned_into_ascii_without_int_are_named(capsys) -> None:
    from bpelab.exercises.fair_comparisons import check_group_digits

    assert through_unicodedata("١٢٣٤٥") == ["12", "345"]  # by hand: Arabic-Indic ١٢٣٤٥ is 12345
    assert not check_group_digits(through_unicodedata, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "unicodedata.digit" in hint and "ASCII" in hint and not hint.strip().startswith("hint: int()"), hint
    assert check_group_digits(_threes_from_the_right, record=False).passed


def test_the_package_solution_shown_runs_when_pasted(capsys) -> None:
    from bpelab.exercises import show_solution
    from bpelab.exercises.fair_comparisons import check_group_digits

    show_solution("group_digits")
    shown = capsys.readouterr().out
    assert "regex.findall" in shown
    space: dict[str, Any] = {}  # a fresh namespace: nothing of the lesson's first cell
    exec(compile(shown, "pasted", "exec"), space)  # raised NameError: regex was not imported
    assert space["group_digits"]("1234567") == ["1", "234", "567"]
    assert check_group_digits(space["group_digits"], record=False).passed
