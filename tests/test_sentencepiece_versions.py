"""What lesson 16 says about each release of sentencepiece, checked with the one installed: 0.2.3 (the pin) in make
test, 0.2.0 in make test-compat (Python 3.11 at the lowest versions pyproject.toml allows), 0.2.1 only when that
run names Python 3.13's lowest corner (``COMPAT_ARGS="3.13 lowest-direct"``). Each expectation is written for every
release; tests/compat/run_compat.py leaves no test of this file out (tests/test_compat_runner.py holds that)."""

from __future__ import annotations

import struct
from collections import Counter

import sentencepiece as spm

from bpelab.exercises.sentencepiece import next_merge
from bpelab.sentencepiece_model import read_model_file

VERSION = tuple(int(n) for n in spm.__version__.split(".")[:3])
QUEUE_TRAINER = VERSION >= (0, 2, 2)
"""0.2.2 and later train from a priority queue of every pair; 0.2.0 and 0.2.1 searched an active set (lesson 16,
section 4). 0.2.2's bpe_model.cc holds 0.2.3's SymbolPairComparator (its lines 54-92, 0.2.3's 52-90: cell 31),
which puts +0.0 above -0.0 as tested here. Its bpe_model_trainer.cc is older code than 0.2.3's (ResetFreq only flags
needs_recomputation, the queue loop checks entry.freq first, QueueEntryComparator compares code points, not UTF-8
strings, and an SPM_NLCODEC_BPE build trains by TrainFast instead) that learns the same piece lists: cell 47's
"0.2.2 gives 0.2.3's list"."""


def train(text: str, folder, name: str, **options: object) -> list:
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / f"{name}.txt"), model_prefix=str(folder / name), model_type="bpe",
        normalization_rule_name="identity", num_threads=1, minloglevel=2, **options,
    )  # fmt: skip
    return read_model_file(folder / f"{name}.model").pieces


def test_minus_zero_and_plus_zero_tie_in_the_course_but_not_in_sentencepiece_0_2_2_on(tmp_path):
    """'ab' at -0.0 and 'bc' at +0.0 on 'abc': equal numbers, so the course's encoder (and sentencepiece 0.2.0 and
    0.2.1, which compare floats) joins the leftmost, 'ab'; from 0.2.2 on, ``SymbolPairComparator`` compares the
    scores' bit patterns (``src/bpe_model.cc`` lines 52-90 of the 0.2.3 sdist), where +0.0 is above -0.0."""
    from bpelab.sentencepiece import SentencePieceBPE
    from tests.sentencepiece_toys import NORMAL, UNKNOWN, reference, toy_model

    pieces = [("<unk>", 0.0, UNKNOWN), ("ab", -0.0, NORMAL), ("bc", 0.0, NORMAL)]
    pieces += [("a", -1.0, NORMAL), ("b", -2.0, NORMAL), ("c", -3.0, NORMAL)]
    model = toy_model(pieces, add_dummy_prefix=False)
    (tmp_path / "zero.model").write_bytes(model)
    assert SentencePieceBPE.from_model_file(tmp_path / "zero.model").encode_as_pieces("abc") == ["ab", "c"]
    assert next_merge(list("abc"), {"ab": -0.0, "bc": 0.0}) == 0
    expected = ["a", "bc"] if QUEUE_TRAINER else ["ab", "c"]
    assert reference(model).encode_as_pieces("abc") == expected


def test_the_trainer_scores_every_meta_piece_plus_zero_and_no_learned_piece(tmp_path):
    """Cell 31: ``Serialize`` scores every meta piece 0.0 and ``InitMetaPieces`` makes <unk>, <s>, </s>, <pad>
    (pad_id >= 0), each control and user-defined symbol and, with byte_fallback, the 256 byte pieces meta pieces;
    the first learned piece scores -0.0, so no two mergeable pieces tie at -0.0 and +0.0."""
    pieces = train(
        "the cat sat on the mat\n" * 20, tmp_path, "meta", vocab_size=279, byte_fallback=True, pad_id=3,
        control_symbols=["<ctl>"], user_defined_symbols=["<sep>"],
    )  # fmt: skip
    plus_zero = [p for p in pieces if struct.pack("<f", p.score) == bytes(4)]
    assert Counter(p.type.name for p in plus_zero) == {"UNKNOWN": 1, "CONTROL": 4, "USER_DEFINED": 1, "BYTE": 256}
    assert {"<unk>", "<s>", "</s>", "<pad>", "<ctl>", "<sep>"} <= {p.piece for p in plus_zero}
    first = next(p for p in pieces if p.type.name == "NORMAL")
    assert struct.pack("<f", first.score) == struct.pack("<f", -0.0), first


def test_the_piece_omega_psi_where_each_release_s_trainer_puts_it(tmp_path):
    """Cell 48's first text: 1,040 pairs counted 10 times and 'ΩΨ' 9 times. The queue (0.2.2 on) takes 'ΩΨ' at 325
    as soon as the pairs counted 10 are spent; 0.2.0's and 0.2.1's active set leaves it out until a refill, at 359,
    with 'à', 'á', 'â' at 325-327 (cell 47)."""
    from bpelab.sentencepiece_training import train_sentencepiece_bpe

    words = [letter + chr(mark) + "β" for letter in "abcdefghijklmnopqrstuvwxyz" for mark in range(0x300, 0x328)]
    text = "\n".join([" ".join(words[i : i + 40]) for i in range(0, len(words), 40)] * 10 + ["ΩΨ"] * 9)
    options = {"vocab_size": 2478, "byte_fallback": True, "character_coverage": 1.0}
    theirs = [p.piece for p in train(text, tmp_path, "window", **options)]
    ours = list(train_sentencepiece_bpe(text, **options).pieces)
    assert ours.index("ΩΨ") == 325
    if QUEUE_TRAINER:
        assert theirs == ours
    else:
        assert theirs.index("ΩΨ") == 359
        assert theirs[323:328] == ["\u0326β", "\u0327β", "a\u0300", "a\u0301", "a\u0302"]
