"""Lesson 08's measurements: bytes per token, curves over vocabulary sizes, token usage, the size search."""

import math

import pandas as pd
import pytest
import tiktoken

from bpelab import BPETokenizer, from_tiktoken
from bpelab.analysis.compression import (
    bytes_per_token,
    compression_curve,
    gain_per_doubling,
    longest_tokens,
    smallest_vocab_size,
    token_usage,
    zipf_exponent,
)


def abab() -> BPETokenizer:
    """Hand-checked: "abababab" merges a+b -> 256 ("ab"), then 256+256 -> 257 ("abab")."""
    return BPETokenizer().train("abababab", 258)


@pytest.fixture(scope="module")
def small(english_sample) -> BPETokenizer:
    return BPETokenizer().train(english_sample[:20_000], 700, pattern="cl100k")


# ---- bytes per token ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["hello", "héllo wörld", "日本語", "👍🏽 ok"])
def test_no_merges_is_exactly_one_byte_per_token(text):
    assert bytes_per_token(BPETokenizer(), text) == 1.0


def test_hand_checked_merges():
    tok = abab()
    assert tok.vocab[256] == b"ab" and tok.vocab[257] == b"abab"
    assert bytes_per_token(tok, "abababab") == 4.0  # 2 tokens
    assert bytes_per_token(tok, "abab ab") == 7 / 3  # "abab", " ", "ab"


def test_one_repeated_word_becomes_one_token():
    text = " hello" * 50
    tok = BPETokenizer().train(text, 256 + 5, pattern="cl100k")  # 6 bytes: 5 merges make one token
    assert bytes_per_token(tok, text) == 6.0
    assert bytes_per_token(tok.truncated(256), text) == 1.0


def test_production_names_and_objects_agree_with_tiktoken(english_sample):
    text = english_sample[:3000]
    enc = tiktoken.get_encoding("cl100k_base")
    expected = len(text.encode("utf-8")) / len(enc.encode_ordinary(text))
    assert bytes_per_token("cl100k_base", text) == expected
    assert bytes_per_token(enc, text) == expected


def test_special_looking_text_is_counted_as_text():
    assert bytes_per_token("cl100k_base", "<|endoftext|>") < len("<|endoftext|>")  # no error, several tokens


@pytest.mark.parametrize("text, error", [("", ValueError), (b"bytes", TypeError), (None, TypeError)])
def test_bad_text_is_explained(text, error):
    with pytest.raises(error, match="text"):
        bytes_per_token(BPETokenizer(), text)


def test_bad_tokenizer_is_explained():
    with pytest.raises(TypeError, match="BPETokenizer"):
        bytes_per_token(42, "text")
    with pytest.raises(ValueError, match="cl100k_base"):
        bytes_per_token("gpt5", "text")


# ---- curves ---------------------------------------------------------------------------------


def test_curve_equals_training_at_each_size(english_sample, small):
    """One run cut back = separate runs: the whole point of measuring with truncated()."""
    texts = {"train": english_sample[:20_000], "other": english_sample[30_000:36_000]}
    sizes = [256, 300, 450, 700]
    curve = compression_curve(small, texts, sizes)
    assert list(curve.columns) == ["train", "other"] and list(curve.index) == sizes
    assert curve.index.name == "vocab_size"
    for size in sizes:
        retrained = BPETokenizer().train(texts["train"], size, pattern="cl100k")
        for label, text in texts.items():
            n = len(retrained.encode(text))
            assert curve.loc[size, label] == len(text.encode("utf-8")) / n
    assert (curve.loc[256] == 1.0).all()


def test_curve_sizes_are_sorted_and_checked(small):
    curve = compression_curve(small, {"t": "the cat sat on the mat"}, [700, 256, 300, 300])
    assert list(curve.index) == [256, 300, 700]
    with pytest.raises(ValueError, match="256 .* to 700"):
        compression_curve(small, {"t": "x"}, [256, 5000])
    with pytest.raises(ValueError, match="empty"):
        compression_curve(small, {"t": ""}, [256])
    with pytest.raises(TypeError, match="list of vocabulary sizes"):
        compression_curve(small, {"t": "x"}, 300)


def test_curve_rejects_production_vocabularies():
    with pytest.raises(TypeError, match="measured whole"):
        compression_curve(from_tiktoken("r50k_base"), {"t": "x"}, [256])


def test_gain_per_doubling_hand_checked():
    curve = pd.DataFrame({"a": [1.0, 2.0, 2.5, 3.5]}, index=pd.Index([256, 512, 1024, 4096], name="vocab_size"))
    gains = gain_per_doubling(curve)
    assert list(gains.index) == ["256 → 512", "512 → 1,024", "1,024 → 4,096"]
    assert gains["a"].tolist() == [1.0, 0.5, 0.5]  # the last step is two doublings for +1.0


# ---- token usage, Zipf, longest tokens ------------------------------------------------------


def test_token_usage_counts_what_encode_emits():
    usage = token_usage(abab(), "abababab")
    assert len(usage) == 258
    top = usage.iloc[0]
    assert (top["rank"], top["id"], top["token"], top["bytes"], top["count"], top["share"]) == (
        1,
        257,
        "abab",
        4,
        2,
        1.0,
    )
    assert (usage["count"] == 0).sum() == 257  # "a", "b" and "ab" are inside "abab", never emitted
    assert usage["rank"].tolist() == list(range(1, 259))


def test_token_usage_sorted_by_count_then_id(small, english_sample):
    text = english_sample[25_000:30_000]
    usage = token_usage(small, text)
    assert usage["count"].sum() == len(small.encode(text))
    keys = list(zip(-usage["count"], usage["id"]))
    assert keys == sorted(keys)
    assert math.isclose(usage["share"].sum(), 1.0)


def test_partial_utf8_tokens_are_shown_escaped():
    tok = BPETokenizer()
    usage = token_usage(tok, "é")
    assert set(usage.loc[usage["count"] > 0, "token"]) == {"\\xc3", "\\xa9"}


def test_zipf_exponent_recovers_a_power_law():
    ranks = list(range(1, 101))
    for s in (1.0, 2.0):
        usage = pd.DataFrame({"rank": ranks, "count": [1e6 / r**s for r in ranks]})
        assert math.isclose(zipf_exponent(usage), s)
    unused = pd.DataFrame({"rank": [1, 2, 3, 4], "count": [8, 4, 0, 0]})
    assert math.isclose(zipf_exponent(unused), 1.0)  # unused tokens are left out
    assert math.isclose(zipf_exponent(pd.DataFrame({"rank": [1, 2, 3], "count": [4, 1, 1]}), max_rank=2), 2.0)


def test_longest_tokens():
    table = longest_tokens(abab(), 3)
    assert table["id"].tolist() == [257, 256, 0]
    assert table["bytes"].tolist() == [4, 2, 1]
    assert table["token"].tolist()[:2] == ["abab", "ab"]


# ---- the smallest size that reaches a goal --------------------------------------------------


def token_counts_at_every_size(tok, text):
    return [len(tok.truncated(size).encode(text)) for size in range(256, 256 + len(tok.merges) + 1)]


def test_more_merges_never_mean_more_tokens(english_sample):
    """The fact the binary search relies on, checked at every size of a small tokenizer."""
    tok = BPETokenizer().train(english_sample[:8_000], 420, pattern="gpt2")
    for text in (english_sample[:8_000], english_sample[20_000:23_000], "ïïï naïve αβγ 123 \n\n  x"):
        counts = token_counts_at_every_size(tok, text)
        assert all(a >= b for a, b in zip(counts, counts[1:]))


def test_smallest_vocab_size_matches_a_linear_scan(english_sample):
    tok = BPETokenizer().train(english_sample[:8_000], 420, pattern="gpt2")
    text = english_sample[20_000:23_000]
    n_bytes = len(text.encode("utf-8"))
    counts = token_counts_at_every_size(tok, text)
    best = n_bytes / counts[-1]
    for goal in (1.0, 1.2, 0.9 * best, 0.99 * best, best):
        expected = next(256 + i for i, n in enumerate(counts) if n_bytes / n >= goal)
        assert smallest_vocab_size(tok, text, goal) == expected
    assert smallest_vocab_size(tok, text, best + 0.01) is None


def test_longest_tokens_checks_n():
    with pytest.raises(ValueError, match="positive"):
        longest_tokens(abab(), 0)
