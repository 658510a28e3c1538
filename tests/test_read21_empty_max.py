"""Read 21 (lesson 16): max() with no default on a list the learner built (no pair of the symbols is a piece) was told
"an empty input needs its own answer", and a guard on the input (`if len(symbols) < 2`) got the same hint again."""

from __future__ import annotations

from bpelab.exercises.sentencepiece import check_next_merge
from tests.lesson16_solutions import hint


def next_merge(symbols: list[str], scores: dict[str, float]) -> int | None:
    if len(symbols) < 2:
        return None
    candidates = [i for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores]
    return max(candidates, key=lambda i: (scores[symbols[i] + symbols[i + 1]], -i))


def test_an_empty_list_of_its_own_is_named_not_the_input(capsys) -> None:
    assert not check_next_merge(next_merge, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "default" in line and "input" in line and "if not counts" not in line, line


def test_an_empty_input_still_gets_the_empty_input_hint(capsys) -> None:
    from bpelab.exercises.diagnosers import empty_input_error

    try:
        max([])
    except ValueError as error:
        said = empty_input_error(error, ([],))
    assert said is not None and said.startswith("max() and min() raise on nothing at all"), said
