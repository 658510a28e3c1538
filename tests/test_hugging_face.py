"""Both merges formats of Hugging Face tokenizers read into the same pairs of bytes."""

import json

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from bpelab.hugging_face import gpt2_byte_table, hf_merges, merge_pairs


def _tokenizer_json(merges) -> str:
    return json.dumps({"model": {"type": "BPE", "vocab": {}, "merges": merges}})


def test_the_byte_table_is_the_one_tokenizers_uses():
    table = gpt2_byte_table()
    assert set(table) == set(pre_tokenizers.ByteLevel.alphabet())
    assert sorted(table.values()) == list(range(256))
    # By hand: the space (byte 32) is not printable in GPT-2's table; it is the 33rd such byte, so chr(256 + 32).
    assert table["Ġ"] == 32 and ord("Ġ") == 256 + 32 and table["a"] == ord("a")


def test_old_and_new_merges_formats_give_the_same_bytes():
    old = _tokenizer_json(["Ġ t", "h e", "Ġt he"])  # tokenizers < 0.20
    new = _tokenizer_json([["Ġ", "t"], ["h", "e"], ["Ġt", "he"]])  # tokenizers >= 0.20
    expected = [(b" ", b"t"), (b"h", b"e"), (b" t", b"he")]
    assert hf_merges(old) == expected == hf_merges(new)


def test_a_trained_tokenizer_is_read_whatever_the_installed_version_writes():
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=256 + 3, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(["the the the then"], trainer)
    merges = hf_merges(tokenizer)
    assert len(merges) == 3 and merges[0] in {(b"t", b"h"), (b"h", b"e"), (b" ", b"t")}
    assert all(left + right in b" the then" for left, right in merges)


@pytest.mark.parametrize("bad", [["a"], ["a b c"], [["a", "b", "c"]], [3], [["a", ""]]])
def test_a_merge_of_the_wrong_shape_is_named(bad):
    with pytest.raises(ValueError, match=r"merge 0 is .*expected two tokens"):
        merge_pairs(bad)


def test_not_a_byte_level_bpe_is_named():
    with pytest.raises(ValueError, match="not a BPE"):
        hf_merges(json.dumps({"model": {"type": "WordPiece", "vocab": {}}}))
    with pytest.raises(ValueError, match="byte stand-ins"):
        hf_merges(_tokenizer_json([["\u4e00", "b"]]))
