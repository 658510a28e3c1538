"""SentencePiece's BPE training reproduced: the same pieces, in the same order, with the same scores."""

from __future__ import annotations

from pathlib import Path

import pytest
import sentencepiece as spm

from bpelab.corpora import load_parallel, read_corpus
from bpelab.sentencepiece_model import PieceType, read_model_file
from bpelab.sentencepiece_training import Rules, is_valid_piece, train_sentencepiece_bpe


def train_with_sentencepiece(text: str, folder: Path, vocab_size: int, **options: object) -> tuple[list, Path]:
    """(pieces as (piece, score, type), model path) from ``SentencePieceTrainer.train`` on ``text``."""
    (folder / "input.txt").write_text(text, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / "input.txt"),
        model_prefix=str(folder / "reference"),
        model_type="bpe",
        vocab_size=vocab_size,
        normalization_rule_name="identity",
        num_threads=1,
        minloglevel=2,
        **options,
    )
    path = folder / "reference.model"
    return [(p.piece, p.score, p.type) for p in read_model_file(path).pieces], path


def ours(text: str, vocab_size: int, **options) -> list:
    model = train_sentencepiece_bpe(text, vocab_size, **options)
    return list(zip(model.pieces, model.scores, model.types))


def test_a_small_case_by_hand(tmp_path):
    # words: "▁ab" three times, "▁ac" once; characters: a 4, ▁ 4, b 3, c 1 (a before ▁: equal counts, smaller first)
    text = "ab ab ab ac"
    expected = [
        ("<unk>", 0.0, PieceType.UNKNOWN),
        ("<s>", 0.0, PieceType.CONTROL),
        ("</s>", 0.0, PieceType.CONTROL),
        ("▁a", -0.0, PieceType.NORMAL),  # 4 times
        ("▁ab", -1.0, PieceType.NORMAL),  # 3 times
        ("a", -2.0, PieceType.NORMAL),
        ("▁", -3.0, PieceType.NORMAL),
        ("b", -4.0, PieceType.NORMAL),
        ("c", -5.0, PieceType.NORMAL),
    ]
    assert ours(text, 9, character_coverage=1.0) == expected
    assert train_with_sentencepiece(text, tmp_path, 9, character_coverage=1.0)[0] == expected


def test_equal_counts_go_to_the_shorter_piece_then_the_smaller_string(tmp_path):
    # every pair occurs once: "ab" < "cd" < "▁a" (U+2581 sorts after letters); then "▁ab" and "▁cd" (3 characters)
    text = "ab cd"
    merged = [piece for piece, _, kind in ours(text, 12, character_coverage=1.0)[3:7]]
    assert merged == ["ab", "cd", "▁ab", "▁cd"]
    assert (
        ours(text, 12, character_coverage=1.0)
        == train_with_sentencepiece(text, tmp_path, 12, character_coverage=1.0)[0]
    )


def test_pieces_sentencepiece_forbids():
    rules = Rules()
    assert is_valid_piece("▁ab", rules) and not is_valid_piece("a▁b", rules), "▁ only at the start"
    assert not is_valid_piece("a1", rules), "Latin and a digit (Common) are two scripts"
    assert is_valid_piece("12", rules) and not is_valid_piece("12", Rules(split_digits=True))
    assert is_valid_piece("カナ漢字", rules), "kana count as Han"
    assert is_valid_piece("é", rules) and is_valid_piece("e\u0301", rules), "a combining mark takes its base's script"
    assert not is_valid_piece("aα", rules) and is_valid_piece("aα", Rules(split_by_unicode_script=False))
    assert not is_valid_piece("a" * 17, rules)


@pytest.mark.parametrize("vocab_size", [500, 1000])
def test_same_pieces_as_sentencepiece_on_english(tmp_path, vocab_size):
    text = read_corpus("english_train")
    options = {"byte_fallback": True, "character_coverage": 1.0}
    assert ours(text, vocab_size, **options) == train_with_sentencepiece(text, tmp_path, vocab_size, **options)[0]


@pytest.mark.parametrize("vocab_size", [2000, 3000])
def test_same_pieces_as_sentencepiece_on_sixteen_languages(tmp_path, vocab_size):
    text = "\n".join(line for lines in load_parallel().values() for line in lines)
    options = {"byte_fallback": True, "character_coverage": 1.0}
    expected, path = train_with_sentencepiece(text, tmp_path, vocab_size, **options)
    model = train_sentencepiece_bpe(text, vocab_size, **options)
    assert list(zip(model.pieces, model.scores, model.types)) == expected
    reference = spm.SentencePieceProcessor(model_file=str(path))
    sample = text[:5000]
    assert model.encode(sample) == reference.encode(sample), "and the trained model encodes as sentencepiece's"


def test_characters_outside_the_coverage_are_left_out_as_sentencepiece_leaves_them(tmp_path):
    text = "\n".join(line for lines in load_parallel().values() for line in lines)
    expected, _ = train_with_sentencepiece(text, tmp_path, 1500, character_coverage=0.9995)
    assert ours(text, 1500, character_coverage=0.9995) == expected
    assert len(expected) == 1500


def test_sizes_it_cannot_make_are_refused():
    with pytest.raises(ValueError, match="smaller than the 259 meta pieces"):
        train_sentencepiece_bpe("ab ab", 260, byte_fallback=True)
    with pytest.raises(ValueError, match="too large for this text"):
        train_sentencepiece_bpe("ab ab", 50)
    with pytest.raises(ValueError, match="no line to train on"):
        train_sentencepiece_bpe("\n   \n", 50)


def test_runs_of_one_letter_count_overlaps_and_drop_a_piece_made_twice(tmp_path):
    """ "aaa" holds "aa" twice but merges once; "aaaa" can be reached as "aa"+"aa" and as "aaa"+"a"."""
    text = "\n".join(["aaa aaaa aaaaa aaaaaa aaaaaaa", "ba aab aaab aaaab"] * 3)
    for vocab_size in (12, 14, 16):
        expected, _ = train_with_sentencepiece(text, tmp_path, vocab_size, character_coverage=1.0)
        assert ours(text, vocab_size, character_coverage=1.0) == expected, vocab_size
