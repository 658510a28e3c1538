"""Read 21 (lesson 11, exercise 2): encode_wordpiece_word with NFD or NFKD first passed all 29 checks: no case held a
character typed whole that decomposes ('é' as U+00E9) or a compatibility ligature ('ﬁ')."""

from __future__ import annotations

import unicodedata

import pytest

from bpelab.exercises.wordpiece_encoding import check_encode_wordpiece_word


def greedy(word: str, vocab: set[str]) -> list[str]:
    """A learner's right answer: longest piece first, '##' after the first."""
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                pieces.append(piece)
                start = end
                break
        else:
            return ["[UNK]"]
    return pieces


def test_the_right_answer_passes() -> None:
    assert check_encode_wordpiece_word(greedy, record=False).passed


@pytest.mark.parametrize("form", ["NFD", "NFKD"])
def test_a_decomposed_word_is_refused_and_named(form: str, capsys) -> None:
    def normalized_first(word: str, vocab: set[str]) -> list[str]:
        return greedy(unicodedata.normalize(form, word), vocab)

    assert not check_encode_wordpiece_word(normalized_first, record=False).passed
    out = capsys.readouterr().out
    assert f"unicodedata.normalize('{form}'" in out, out
