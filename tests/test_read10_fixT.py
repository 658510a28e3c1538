"""Lesson 16's eleventh fresh read (fixT): next_merge answers that look at part of the text, or leave out pieces
with digits or with '<' / '[', passed; two hints named another bug.

The checker now also tries every merge state of real encodings (``bpelab.exercises.sentencepiece_states``)."""

from __future__ import annotations

import re

import pytest

from bpelab import load_sentencepiece, train_sentencepiece_bpe
from bpelab.exercises.sentencepiece import check_next_merge, next_merge
from bpelab.exercises.sentencepiece_states import NUMBERS_LINE, NUMBERS_VOCAB_SIZE, real_encoding_cases
from tests.lesson16_solutions import hint, shown_solution


def _best(symbols, scores, skip=lambda piece: False, positions=None, pieces=None):
    """A next_merge written the lesson's way, with the learner's limit or filter."""
    best, best_score, found = None, 0.0, 0
    last = len(symbols) - 1 if positions is None else min(len(symbols) - 1, positions)
    for i in range(last):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and not skip(piece):
            if best is None or scores[piece] > best_score:
                best, best_score = i, scores[piece]
            found += 1
            if found == pieces:
                break
    return best


def first_20_positions(symbols, scores):
    return _best(symbols, scores, positions=20)


def first_10_pieces_found(symbols, scores):
    return _best(symbols, scores, pieces=10)


def no_two_digits(symbols, scores):
    """Cell 4's "no piece a merge can make holds two digits side by side", taken as a rule of the encoder."""
    return _best(symbols, scores, skip=lambda piece: re.search(r"\d\d", piece) is not None)


def no_special_looking(symbols, scores):
    """Pieces starting with '<' or '[' kept out, as if they were <s> or [INST]."""
    return _best(symbols, scores, skip=lambda piece: piece.startswith(("<", "[")))


def from_one(symbols, scores):
    """Finding 4: `for i in range(1, len(symbols) - 1)`, pair 0 never looked at."""
    best, best_score = None, 0.0
    for i in range(1, len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def place_among_found(symbols, scores):
    """Finding 5: the best piece's index in the list of pieces found, not in symbols."""
    found = [symbols[i] + symbols[i + 1] for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores]
    if not found:
        return None
    return found.index(max(found, key=lambda piece: scores[piece]))


# ---- the generated cases ---------------------------------------------------------------------------------------


def test_the_numbers_model_holds_pieces_of_several_digits():
    """The reviewer's evidence: at default settings (split_digits=False) the trainer learns pieces of digits."""
    model = train_sentencepiece_bpe("\n".join([NUMBERS_LINE] * 40), NUMBERS_VOCAB_SIZE)
    assert {"12", "▁2024", "▁1234"} <= set(model.mergeable)
    assert model.encode_as_pieces("2024") == ["▁2024"]
    assert no_two_digits(["▁", "2", "0", "2", "4"], {"▁2": -1.0, "02": -0.5, "▁2024": -0.1}) == 0  # only '▁2'


def test_mistral_encodes_the_markup_as_sentencepiece_does():
    """The reviewer's sentencepiece 0.2.3 output for `<div>[1]</div>`: the generated cases replay this encoding."""
    assert load_sentencepiece("mistral_v1").encode_as_pieces("<div>[1]</div>") == [
        "▁<", "div", ">", "[", "1", "]", "</", "div", ">",
    ]  # fmt: skip


def test_the_generated_cases_are_long_and_varied():
    cases = real_encoding_cases()
    assert cases is real_encoding_cases()  # built once
    assert max(len(case.args[0]) for case in cases) > 40
    assert max(case.expected for case in cases if case.expected is not None) > 20
    assert any(re.search(r"\d\d", piece) for case in cases for piece in case.args[1])
    assert any(piece.startswith(("<", "[")) for case in cases for piece in case.args[1])
    assert any(case.expected is None for case in cases)
    for case in cases:  # each answer is the reference's on that state
        assert next_merge(*case.args) == case.expected


def test_each_state_leads_to_the_next():
    """Merging the expected pair of one case gives the next case's symbols, up to the end of each text."""
    cases = real_encoding_cases()
    for case, following in zip(cases, cases[1:]):
        if case.expected is None:
            continue
        symbols, i = list(case.args[0]), case.expected
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
        assert symbols == following.args[0]


# ---- the wrong answers ------------------------------------------------------------------------------------------

WRONG = {
    "a cap of 20 positions": (first_20_positions, "the first 20"),
    "a cap of 10 pieces found": (first_10_pieces_found, "10 pieces found"),
    "no two digits": (no_two_digits, "split_digits"),
    "no '<' or '['": (no_special_looking, "special token"),
    "a loop from 1": (from_one, "first pair"),
    "a place among the pieces found": (place_among_found, "pieces found"),
}


@pytest.mark.parametrize("name", list(WRONG))
def test_the_wrong_answer_fails_with_its_hint(name, capsys):
    answer, words = WRONG[name]
    assert not check_next_merge(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert words in line, line


def test_a_place_among_the_pieces_found_is_not_called_a_default_score(capsys):
    check_next_merge(place_among_found, record=False)
    assert "scores.get" not in hint(capsys.readouterr().out)


def test_a_loop_from_one_is_not_called_a_tie_rule(capsys):
    check_next_merge(from_one, record=False)
    assert "strictly higher" not in hint(capsys.readouterr().out)


def test_the_shown_solution_passes():
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed
