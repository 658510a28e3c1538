"""Fresh read 22 of lessons 11 and 12 (fixBO): lesson 11's checker of best_wordpiece_pair let a fixed precision
through past a limit the lesson named (10**8000, a 4,001-digit Decimal); a "shortest pair wins" tie rule got the
hint of another tie rule; score_table sorted on rounded scores; "a tie that is not there" where the tie is real;
lesson 12's cell 2 spoke of M x N symbol visits where its count divides by the pairs, and its timing prose called
naive / incremental "the naive loop's lead"."""

from __future__ import annotations

import decimal
import re
from fractions import Fraction

import nbformat
import pandas as pd
import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair
from bpelab.wordpiece import symbol_counts, wordpiece_scores
from bpelab.words import count_pairs
from tests.shown_solutions import lesson_path, shown_solution

LESSON_11 = lesson_path("11")
LESSON_12 = lesson_path("12")


def _cell(path, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)


def _text(path, cell_id: str) -> str:
    return " ".join(_cell(path, cell_id).source.split())


def _singles(word_freq):
    singles: dict = {}
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
    return singles


# ---- finding 1: no fixed precision a learner would write passes ---------------------------------------------------


def decimal_at(precision: int):
    def best_wordpiece_pair(word_freq):
        singles = _singles(word_freq)
        with decimal.localcontext() as context:
            context.prec = precision
            scores = {
                (a, b): decimal.Decimal(n) / (decimal.Decimal(singles[a]) * decimal.Decimal(singles[b]))
                for (a, b), n in count_pairs(word_freq).items()
            }
            return max(scores, key=scores.get)

    return best_wordpiece_pair


def times_ten_to(k: int):
    def best_wordpiece_pair(word_freq):
        singles = _singles(word_freq)
        scores = {(a, b): n * 10**k // (singles[a] * singles[b]) for (a, b), n in count_pairs(word_freq).items()}
        return max(scores, key=scores.get)

    return best_wordpiece_pair


@pytest.mark.parametrize(
    "answer",
    [times_ten_to(8_000), times_ten_to(20_000), times_ten_to(100_000), decimal_at(4_001), decimal_at(20_000)],
    ids=["10**8000", "10**20000", "10**100000", "Decimal 4,001 digits", "Decimal 20,000 digits"],
)
def test_a_fixed_precision_a_learner_would_write_is_refused(answer) -> None:
    result = check_best_wordpiece_pair(answer, record=False)
    assert not result.passed
    assert "fixed number of digits" in result.message, result.message
    assert "only exact" in result.message or "Compare exact scores" in result.message, result.message


def test_the_shown_solution_still_passes() -> None:
    solution = shown_solution("11", "10c48b97", "best_wordpiece_pair", count_pairs=count_pairs)
    assert check_best_wordpiece_pair(solution, record=False).passed


def test_the_lesson_names_no_limit_to_aim_at() -> None:
    text = _text(LESSON_11, "44b7014e")
    for limit in ("8,000", "4,000", "passes its cases", "A larger factor or precision passes"):
        assert limit not in text, (limit, text)
    assert "exact" in text and "every count" in text, text


# ---- finding 2: "the shortest pair wins" gets its own hint --------------------------------------------------------


def shortest_of_ties(word_freq):
    singles = _singles(word_freq)
    scores = {(a, b): Fraction(n, singles[a] * singles[b]) for (a, b), n in count_pairs(word_freq).items()}
    top = max(scores.values())
    ties = [pair for pair, score in scores.items() if score == top]
    return min(ties, key=lambda p: len(p[0]) + len(p[1]))


def test_the_shortest_pair_rule_is_named_for_what_it_is() -> None:
    result = check_best_wordpiece_pair(shortest_of_ties, record=False)
    assert not result.passed
    assert "position by position" not in result.message, result.message
    assert "shortest" in result.message and "seen first" in result.message, result.message


# ---- finding 3: score_table sorts on the exact score --------------------------------------------------------------


def test_score_table_puts_the_higher_exact_score_first() -> None:
    source = _cell(LESSON_11, "3f48a3c0").source
    definition = source.split("\n\n\nscore_table(")[0]
    namespace = {
        "pd": pd,
        "count_pairs": count_pairs,
        "symbol_counts": symbol_counts,
        "wordpiece_scores": wordpiece_scores,
    }
    exec(definition, namespace)
    word_freq = {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 99, ("##b",): 99, ("c",): 98, ("##d",): 100}
    table = namespace["score_table"](word_freq)
    assert list(table["pair"])[:2] == ["c + ##d", "a + ##b"], table


# ---- finding 4: the tie is real, the float difference is not ------------------------------------------------------


def test_the_tie_is_called_real() -> None:
    text = _text(LESSON_11, "44b7014e")
    assert "a tie that is not there" not in text, text
    assert "1/33" in text, text


# ---- finding 5: cell 2 and cell 8 measure the same thing ----------------------------------------------------------


def test_cell_2_and_cell_8_state_the_same_measure() -> None:
    text = _text(LESSON_12, "941abd14")
    assert "M × N" not in text and "symbol visits" not in text, text
    assert "M × P" in text and "twice" in text, text
    count = _cell(LESSON_12, "296d8094")
    assert "M × P" in count.source
    printed = "".join(output.get("text", "") for output in count.outputs)
    assert re.search(r"\d+% of M × P = 500 × [\d,]+", printed), printed


# ---- finding 6: the ratio printed is the incremental trainer's lead -----------------------------------------------


def test_the_lead_named_is_the_line_printed() -> None:
    text = _text(LESSON_12, "3806e3e0")
    assert "naive loop's lead" not in text, text
    assert "incremental trainer's lead" in text and "naive ÷ incremental" in text, text
    printed = "".join(output.get("text", "") for output in _cell(LESSON_12, "c9fdb6ca").outputs)
    assert any(line.startswith("naive ÷ incremental") for line in printed.splitlines()), printed
