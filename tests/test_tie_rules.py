"""Byte-level training's tie rules (lesson 15): each reproduces its reference's merges exactly.

- "first" against a minbpe-style trainer written here (every chunk of the text in order, pairs counted in
  text order, ``max(stats, key=stats.get)``);
- "tokenizers" against Hugging Face ``tokenizers`` itself (``BpeTrainer`` with a ``ByteLevel`` pre-tokenizer);
- "greatest_bytes" against a CS336-style trainer written here (pairs of ``bytes``, ``max`` over
  ``(count, pair)``);
and fast == naive under every rule on generated text across scripts, digits, joiners and combining marks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.byte_level import BPETokenizer, count_pretokens, train_bytes_naive
from bpelab.corpora import read_corpus
from bpelab.fast import train_bytes_fast
from bpelab.hugging_face import hf_merges
from bpelab.patterns import split_text
from bpelab.tie_rules import BYTE_TIE_BREAKS, hf_byte_order

RULES = list(BYTE_TIE_BREAKS)


def _learned(tokenizer: BPETokenizer) -> list[tuple[bytes, bytes]]:
    return [(tokenizer.vocab[a], tokenizer.vocab[b]) for a, b in tokenizer.merges]


def _train(text: str, merges: int, rule: str, method: str = "fast", pattern: str | None = None) -> BPETokenizer:
    return BPETokenizer().train(text, 256 + merges, pattern=pattern, tie_break=rule, method=method)


# ---- hand-checked ties --------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["naive", "fast"])
def test_a_space_before_a_letter(method):
    # " ab ab" as one piece: " a" and "ab" both occur twice, " a" first. tokenizers writes the space as "Ġ"
    # (U+0120), after every printable byte, so its pair of ids is the larger one: "ab" wins there. "ab" is
    # also the greater pair of bytes (b"a" > b" ").
    text = " ab ab"
    assert _learned(_train(text, 1, "first", method))[0] == (b" ", b"a")
    assert _learned(_train(text, 1, "tokenizers", method))[0] == (b"a", b"b")
    assert _learned(_train(text, 1, "greatest_bytes", method))[0] == (b"a", b"b")


@pytest.mark.parametrize("method", ["naive", "fast"])
def test_letters_only(method):
    # "abzyabzy": a+b, b+z and z+y occur twice (y+a once). First seen: a+b; the smaller ids (letters keep
    # their byte order in tokenizers' alphabet): a+b; the greatest pair of bytes: z+y.
    text = "abzyabzy"
    assert _learned(_train(text, 1, "first", method))[0] == (b"a", b"b")
    assert _learned(_train(text, 1, "tokenizers", method))[0] == (b"a", b"b")
    assert _learned(_train(text, 1, "greatest_bytes", method))[0] == (b"z", b"y")


@pytest.mark.parametrize("method", ["naive", "fast"])
def test_merged_tokens_take_part_in_ties(method):
    # Pieces cut at commas: BZ, AC, BAA, BA, twice each. B+A occurs 4 times and merges first. Then B+Z,
    # A+C and BA+A all occur twice. First seen: B+Z. The smaller ids: A+C (65, 67). The greatest pair of
    # bytes: BA+A, as in CS336's own example (b"BA" > b"B" > b"A"), although its ids (256, 65) are neither
    # the smallest nor the first seen.
    text = "BZ,AC,BAA,BA,BZ,AC,BAA,BA"
    commas = r"[^,]+|,"
    learned = {rule: _learned(_train(text, 2, rule, method, pattern=commas)) for rule in RULES}
    assert {tuple(merges[:1]) for merges in learned.values()} == {((b"B", b"A"),)}
    assert learned["first"][1] == (b"B", b"Z")
    assert learned["tokenizers"][1] == (b"A", b"C")
    assert learned["greatest_bytes"][1] == (b"BA", b"A")


def test_the_hf_alphabet_puts_control_bytes_after_printable_ones():
    order = hf_byte_order()
    assert sorted(order) == list(range(256))
    assert order[ord("!")] == 0 and order[ord("a")] < order[ord("z")]
    assert order[ord(" ")] > order[255] and order[ord("\n")] < order[ord(" ")]  # Ċ (U+010A) before Ġ (U+0120)


# ---- the references -------------------------------------------------------------------------------


def minbpe_style(text: str, merges: int) -> list[tuple[bytes, bytes]]:
    """Every chunk in text order, recounted after each merge; the first of equal counts wins."""
    chunks = [list(piece.encode("utf-8")) for piece in split_text(text, "gpt2", keep_gaps=True)]
    vocab = {i: bytes([i]) for i in range(256)}
    learned = []
    for step in range(merges):
        stats: dict[tuple[int, int], int] = {}
        for ids in chunks:
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats or max(stats.values()) < 2:
            break
        pair = max(stats, key=stats.get)  # type: ignore[arg-type]
        new = 256 + step
        vocab[new] = vocab[pair[0]] + vocab[pair[1]]
        learned.append((vocab[pair[0]], vocab[pair[1]]))
        for ids in chunks:
            i = 0
            while i < len(ids) - 1:
                if (ids[i], ids[i + 1]) == pair:
                    ids[i : i + 2] = [new]
                i += 1
    return learned


def cs336_style(text: str, merges: int) -> list[tuple[bytes, bytes]]:
    """Pre-tokens as tuples of bytes objects; the greatest (count, pair) wins."""
    words: dict[tuple[bytes, ...], int] = {}
    for piece in split_text(text, "gpt2", keep_gaps=True):
        word = tuple(bytes([b]) for b in piece.encode("utf-8"))
        words[word] = words.get(word, 0) + 1
    learned: list[tuple[bytes, bytes]] = []
    for _ in range(merges):
        counts: dict[tuple[bytes, bytes], int] = {}
        for word, n in words.items():
            for pair in zip(word, word[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts:
            break
        best = max(counts.items(), key=lambda item: (item[1], item[0]))
        if best[1] < 2:
            break
        a, b = best[0]
        learned.append((a, b))
        merged: dict[tuple[bytes, ...], int] = {}
        for word, n in words.items():
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged[tuple(out)] = merged.get(tuple(out), 0) + n
        words = merged
    return learned


def tokenizers_trained(text: str, merges: int) -> list[tuple[bytes, bytes]]:
    """Hugging Face's own trainer: GPT-2's split (ByteLevel), pairs seen at least twice, no added alphabet."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    alphabet = len({b for piece in count_pretokens(text, "gpt2") for b in piece})
    trainer = trainers.BpeTrainer(vocab_size=alphabet + merges, min_frequency=2, show_progress=False)
    tokenizer.train_from_iterator([text], trainer=trainer)
    return hf_merges(tokenizer)


PARAGRAPH = read_corpus("english_heldout")[:6000]


def test_first_is_minbpes_rule():
    assert _learned(_train(PARAGRAPH, 150, "first", pattern="gpt2")) == minbpe_style(PARAGRAPH, 150)


def test_greatest_bytes_is_cs336s_rule():
    ours = _learned(_train(PARAGRAPH, 150, "greatest_bytes", pattern="gpt2"))
    assert ours == cs336_style(PARAGRAPH, 150)
    assert ours != minbpe_style(PARAGRAPH, 150)  # the paragraph has ties that the two rules settle apart


def test_tokenizers_is_hugging_faces_rule():
    text = read_corpus("english_heldout")
    ours = _learned(_train(text, 600, "tokenizers", pattern="gpt2"))
    theirs = tokenizers_trained(text, 600)
    assert ours == theirs
    assert _learned(_train(text, 600, "first", pattern="gpt2")) != theirs


# Text that trips trainers up: several scripts, digits, joiners, combining marks, runs, mixed spaces.
ASCII = [
    "the",
    " the",
    " cat",
    "ab",
    " ab",
    "aaa",
    "\n",
    "  ",
    "\t",
    "2024",
    " 1,234",
    "0.5",
    "don't",
    "'s",
    "{}",
    "==",
]
SCRIPTS = ["é", "e\u0301", "Straße", " naïve", "Привет", " мир", "你好", "世界", "こんにちは", "안녕", "नमस्ते", "مرحبا"]
EMOJI = ["👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "🤖"]
PIECES = ASCII + SCRIPTS + EMOJI
GENERATED = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), min_size=4, max_size=60).map("".join)


@settings(max_examples=40, deadline=None)
@given(text=GENERATED, merges=st.integers(1, 40), rule=st.sampled_from(RULES), pattern=st.sampled_from([None, "gpt2"]))
def test_fast_and_naive_learn_the_same_merges_under_every_rule(text, merges, rule, pattern):
    counts = count_pretokens(text + text, pattern)  # twice, so that pairs repeat and ties abound
    fast = train_bytes_fast(counts, merges, tie_break=rule)
    assert fast == train_bytes_naive(counts, merges, tie_break=rule)


@settings(max_examples=25, deadline=None)
@given(text=GENERATED, merges=st.integers(1, 30))
def test_tokenizers_rule_matches_tokenizers_on_generated_text(text, merges):
    text = text + " " + text[::-1] + " " + text
    assert _learned(_train(text, merges, "tokenizers", pattern="gpt2")) == tokenizers_trained(text, merges)


@settings(max_examples=25, deadline=None)
@given(text=GENERATED, merges=st.integers(1, 30))
def test_first_and_greatest_bytes_match_their_references_on_generated_text(text, merges):
    text = text + " " + text[::-1] + " " + text
    assert _learned(_train(text, merges, "first", pattern="gpt2")) == minbpe_style(text, merges)
    assert _learned(_train(text, merges, "greatest_bytes", pattern="gpt2")) == cs336_style(text, merges)


# ---- defaults and errors ----------------------------------------------------------------------------


def test_the_default_is_still_first_seen():
    text = read_corpus("english_heldout")[:3000]
    assert BPETokenizer().train(text, 330).merges == _train(text, 74, "first").merges
    assert train_bytes_fast(count_pretokens(text, None), 40) == train_bytes_fast(
        count_pretokens(text, None), 40, tie_break="first"
    )


@pytest.mark.parametrize("method", ["naive", "fast"])
def test_an_unknown_rule_is_named_with_the_choices(method):
    with pytest.raises(ValueError, match="tie_break must be one of.*'first'.*'tokenizers'.*'greatest_bytes'.*'hf'"):
        BPETokenizer().train("abab", 260, tie_break="hf", method=method)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="word-level training's rule"):
        BPETokenizer().train("abab", 260, tie_break="lexicographic", method=method)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tie_break must be one of"):
        train_bytes_fast({b"ab": 2}, 1, tie_break="smallest")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tie_break must be one of"):
        train_bytes_naive({b"ab": 2}, 1, tie_break=None)  # type: ignore[arg-type]
