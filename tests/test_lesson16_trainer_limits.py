"""The course's SentencePiece trainer refuses the settings SentencePieceTrainer 0.2.3 refuses, at the same limits
(``VerifySpec`` in ``src/trainer_interface.cc``, lines 78 and 94-99), with an error that names the limit; inside the
limits it trains as SentencePieceTrainer does. Each limit is tried on SentencePieceTrainer itself, just inside and
just outside."""

from __future__ import annotations

import pytest
import sentencepiece as spm

from bpelab.sentencepiece_model import read_model_file
from bpelab.sentencepiece_training import train_sentencepiece_bpe

TEXT = "fine fish find fifty fifth\n" * 20
SIZE = 30
PINNED = "0.2.3"


def theirs(tmp_path, **settings) -> list[str] | str:
    """SentencePieceTrainer's pieces with these settings, or the text of its refusal."""
    (tmp_path / "t.txt").write_text(TEXT, encoding="utf-8")
    options = {"vocab_size": SIZE, **settings}
    try:
        spm.SentencePieceTrainer.train(
            input=str(tmp_path / "t.txt"), model_prefix=str(tmp_path / "m"), model_type="bpe",
            normalization_rule_name="identity", num_threads=1, minloglevel=2, **options,
        )  # fmt: skip
    except RuntimeError as refusal:
        return str(refusal)
    return [p.piece for p in read_model_file(tmp_path / "m.model").pieces]


OUTSIDE = [
    ({"character_coverage": 0.5}, "character_coverage", "trainer_interface.cc(94)"),
    ({"character_coverage": 0.9799}, "character_coverage", "trainer_interface.cc(94)"),
    ({"character_coverage": 1.0000001}, "character_coverage", "trainer_interface.cc(94)"),
    ({"max_sentencepiece_length": 0}, "max_sentencepiece_length", "trainer_interface.cc(95)"),
    ({"max_sentencepiece_length": 513}, "max_sentencepiece_length", "trainer_interface.cc(95)"),
    ({"max_sentencepiece_length": 1000}, "max_sentencepiece_length", "trainer_interface.cc(95)"),
    ({"max_sentence_length": 9}, "max_sentence_length", "trainer_interface.cc(99)"),
    ({"max_sentence_length": 2**30 + 1}, "max_sentence_length", "trainer_interface.cc(99)"),
    ({"vocab_size": 0}, "vocab_size", "trainer_interface.cc(78)"),
]


@pytest.mark.parametrize(("settings", "name", "where"), OUTSIDE)
def test_what_sentencepiece_refuses_the_course_refuses_naming_the_limit(tmp_path, settings, name, where):
    refusal = theirs(tmp_path, **settings)
    assert isinstance(refusal, str) and "trainer_interface.cc(" in refusal and name in refusal, refusal
    if spm.__version__ == PINNED:  # the lines move between releases; the cited ones are 0.2.3's
        assert where in refusal, refusal
    options = {"vocab_size": SIZE, **settings}
    with pytest.raises(ValueError, match=rf"{name} must be .*SentencePieceTrainer"):
        train_sentencepiece_bpe(TEXT, **options)


@pytest.mark.parametrize(
    "settings",
    [
        {"character_coverage": 0.98},
        {"character_coverage": 1.0},
        {"max_sentencepiece_length": 1, "vocab_size": 13},  # characters only: 3 + 10
        {"max_sentencepiece_length": 512},
        {"max_sentence_length": 2**30},
    ],
)
def test_at_the_limits_both_train_the_same_pieces(tmp_path, settings):
    pieces = theirs(tmp_path, **settings)
    assert isinstance(pieces, list), pieces
    options = {"vocab_size": SIZE, **settings}
    assert list(train_sentencepiece_bpe(TEXT, **options).pieces) == pieces
