"""Fresh read 10 of lessons 05 and 07 (fixW): an encode_word that stops once the word is one symbol plus its marker
passed; split_pieces run on slices of the text passed; a find_parents calling merge_by_rank with its own limit was
refused; a widget given a text that makes tiktoken panic raised."""

from __future__ import annotations

from bpelab.exercises.word_encoding import check_encode_word
from bpelab.words import merge_symbols
from tests.shown_solutions import shown_solution
from tests.test_read8_fixL import _hint

# ---- finding 1: encode_word stops once the word is whole --------------------------------------------------------


def stops_when_whole(word, merges):
    """The reviewer's answer: stop as soon as the word is one symbol plus '</w>', so ('low', '</w>') never runs."""
    symbols = (*word, "</w>")
    for pair, _new in merges:
        if len(symbols) == 2:
            break
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def test_stopping_once_the_word_is_one_symbol_plus_its_marker_is_rejected_and_named(capsys) -> None:
    assert not check_encode_word(stops_when_whole, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "one symbol plus '</w>'" in hint, hint


def test_the_lessons_shown_encode_word_still_passes() -> None:
    assert check_encode_word(shown_solution("05", "cell-10", "my_encode_word"), record=False).passed
