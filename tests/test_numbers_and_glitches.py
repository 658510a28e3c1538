"""Lesson 15's measurements: digit rules, bits per byte, tokens never produced (hand-checked or held to tiktoken)."""

from __future__ import annotations

import math

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.analysis.bits_per_byte import bigram_bits, bits_per_byte, bits_table, unigram_bits
from bpelab.analysis.numbers import digit_cost, digit_runs
from bpelab.analysis.unreachable import (
    generated_contexts,
    ids_produced,
    inside_utf8,
    lower_rank_halves,
    made_by_no_merge,
    produced_in,
    round_trip,
)
from bpelab.byte_level import BPETokenizer
from bpelab.corpora import read_corpus
from bpelab.digit_rules import DIGIT_RULES, pattern_with_digits
from bpelab.merging import merge_by_rank
from bpelab.patterns import CL100K_PATTERN, split_text
from bpelab.production import load_encoding, mergeable_ranks

# ---- digit rules ---------------------------------------------------------------------------------------


def test_gpt4s_rule_is_gpt4s_pattern_and_the_others_change_only_the_digits():
    assert pattern_with_digits("up to 3 (GPT-4)") == CL100K_PATTERN
    text = "In 1999, £1,234.50 bought 1234567 pins; don't  stop\n"
    for rule in DIGIT_RULES:
        pieces = split_text(text, pattern_with_digits(rule))
        assert "".join(pieces) == text
        assert [p for p in pieces if not p.isdigit()] == [p for p in split_text(text, "cl100k") if not p.isdigit()]


@settings(max_examples=60, deadline=None)
@given(digits=st.text(alphabet="0123456789١٢٣", min_size=1, max_size=20))
def test_threes_from_the_right(digits):
    pieces = split_text(digits, pattern_with_digits("threes from the right"))
    assert "".join(pieces) == digits
    assert all(len(p) == 3 for p in pieces[1:]) and 1 <= len(pieces[0]) <= 3
    left = split_text(digits, pattern_with_digits("up to 3 (GPT-4)"))
    assert all(len(p) == 3 for p in left[:-1])  # GPT-4's: the short group last


FIRST_FORM_THREES = r"\p{N}{1,3}(?=(?:\p{N}{3})*+(?!\p{N}))"
"""The rule as it was first written, whose lookahead rescans the rest of the run at every piece."""

DIGITS = "0123456789" + "٠١٢٣٤٥٦٧٨٩" + "०१२३४५६७८९" + "²½Ⅻ"  # ASCII, Arabic-Indic, Devanagari, other \p{N}
digit_strings = st.text(alphabet=DIGITS, max_size=40)
mixed_text = st.lists(
    st.one_of(digit_strings, st.text(alphabet="ab ,.-\n'é猫", max_size=4), st.text(max_size=3)), max_size=8
).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(digit_strings, mixed_text, st.from_regex(r"0{0,5}[0-9]{0,12}", fullmatch=True)))
def test_threes_from_the_right_cuts_as_its_first_form_did(text):
    # the same pieces alone (as the exercise's findall uses it) and inside GPT-4's whole pattern
    rule = DIGIT_RULES["threes from the right"]
    assert regex.findall(rule, text) == regex.findall(FIRST_FORM_THREES, text)
    whole = pattern_with_digits("threes from the right")
    assert split_text(text, whole) == split_text(text, whole.replace(rule, FIRST_FORM_THREES))


def test_threes_from_the_right_by_hand():
    rule = DIGIT_RULES["threes from the right"]
    assert regex.findall(rule, "001234 and ١٢٣٤٥ x12") == ["001", "234", "١٢", "٣٤٥", "12"]
    assert regex.findall(rule, "9" * 3001)[:2] == ["9", "999"] and len(regex.findall(rule, "9" * 3001)) == 1001


def test_gpt4s_rule_and_threes_from_the_right_differ_only_on_runs_of_four_or_more_not_a_multiple_of_three():
    # lesson 15 section 1: both rules cut by a run's length alone, so one run of each length settles it
    left, right = pattern_with_digits("up to 3 (GPT-4)"), pattern_with_digits("threes from the right")
    for n in range(1, 31):
        run = ("9876543210" * 3)[:n]
        assert (split_text(run, left) == split_text(run, right)) == (n < 4 or n % 3 == 0), n


def test_an_unknown_digit_rule_is_named():
    with pytest.raises(ValueError, match="unknown digit rule 'threes'.*single digits"):
        pattern_with_digits("threes")


def test_digit_cost_counts_by_hand():
    assert digit_runs("£1,234.50 in 1999") == ["1", "234", "50", "1999"]
    text = "1999 1999 1999 1999 1999 1999 12"
    bytes_only = BPETokenizer().train(text, 256, pattern=pattern_with_digits("single digits"))
    table = digit_cost({"bytes": bytes_only}, text)
    assert table.loc["bytes", "tokens per number"] == (6 * 4 + 2) / 7  # one token per digit
    assert table.loc["bytes", "tokens per digit byte"] == 1.0


# ---- bits per byte ---------------------------------------------------------------------------------------


def test_unigram_bits_by_hand():
    # counts 0:2, 1:2 among 4 tokens, vocabulary 2, add-1: p = 3/6 for both; add-1 for an unseen id 2 of 3: 1/7
    assert unigram_bits([0, 0, 1, 1], [0, 1], 2) == pytest.approx(2.0)
    assert unigram_bits([0, 0, 1, 1], [2], 3) == pytest.approx(-math.log2(1 / 7))


def test_bigram_bits_by_hand():
    # after 0 always 1 (twice); with k = 0.1 and 2 tokens: p(1 | 0) = 2.1 / 2.2; the first token: unigram 3/6
    bits = bigram_bits([0, 1, 0, 1], [0, 1], 2, k=0.1)
    assert bits == pytest.approx(1.0 - math.log2(2.1 / 2.2))


def test_bits_per_byte_by_hand():
    assert bits_per_byte([0.5, 0.25], "éa") == pytest.approx(3 / 3)  # 1 + 2 bits, é is two bytes
    assert bits_per_byte([1.0], "x") == 0.0


def test_bits_per_byte_refuses_what_it_cannot_divide_or_take_the_log_of():
    with pytest.raises(ValueError, match="text is empty.*no bytes to divide"):
        bits_per_byte([0.5], "")
    with pytest.raises(ValueError, match=r"probabilities\[1\] is 0.*between 0 \(excluded\) and 1"):
        bits_per_byte([0.5, 0.0], "ab")
    with pytest.raises(ValueError, match=r"probabilities\[0\] is 1.5"):
        bits_per_byte([1.5], "ab")
    tok = BPETokenizer().train("abab abab", 258, pattern="gpt2")
    with pytest.raises(ValueError, match="heldout_text is empty"):
        bits_table(tok, [258], "abab abab", "")


def test_bad_model_settings_are_named():
    with pytest.raises(ValueError, match="k must be above 0"):
        unigram_bits([0], [0], 2, k=0)
    with pytest.raises(ValueError, match="vocab_size must be at least 1"):
        bigram_bits([0], [0], 0)


def test_bits_per_byte_is_bits_per_token_times_tokens_per_byte():
    text = read_corpus("english_heldout")[:5000]
    tok = BPETokenizer().train(text, 300, pattern="gpt2")
    table = bits_table(tok, [256, 280, 300], text, text[:200])
    for _, row in table.iterrows():
        tokens_per_byte = row["held-out tokens"] / len(text[:200].encode())
        assert row["unigram bits per byte"] == pytest.approx(row["unigram bits per token"] * tokens_per_byte)
    assert table["held-out tokens"].is_monotonic_decreasing


# ---- tokens never produced -------------------------------------------------------------------------------


def test_o200k_has_unreachable_tokens_and_r50k_none():
    o200k = round_trip(load_encoding("o200k_base"))
    texts = {token for _, token, _ in o200k.unreachable}
    assert {b" I'", b"\n//"} <= texts and len(o200k.unreachable) == 12  # GUIDE.md: 12 valid-UTF-8 tokens
    assert all(ids != [rank] for rank, _, ids in o200k.unreachable)
    r50k = round_trip(load_encoding("r50k_base"))
    assert r50k.unreachable == [] and len(r50k.not_utf8) > 0


def test_a_token_no_merge_builds_is_found():
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"xyz": 257}  # nothing merges x, y, z
    encoding = tiktoken.Encoding(name="toy", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    assert made_by_no_merge(encoding) == [257]
    assert encoding.encode("xyz") == [257]  # yet tiktoken emits it for the whole piece
    assert round_trip(encoding).unreachable == []
    assert ids_produced(encoding, ["ab xyz", "xyzw"]) == {256, 257, ord(" "), ord("x"), ord("y"), ord("z"), ord("w")}


def test_tokens_not_produced_from_their_own_text_are_produced_inside_longer_text():
    o200k = load_encoding("o200k_base")
    pieces = [o200k.decode_single_token_bytes(i) for i in o200k.encode_ordinary(" I'M HERE")]
    assert pieces == [b" I'", b"M", b" HERE"]  # the example, as tiktoken encodes it
    for rank, token, _ in round_trip(o200k).unreachable:
        context = produced_in(o200k, rank, generated_contexts(token.decode("utf-8")))
        assert context is not None and token.decode("utf-8") in context
        assert rank in o200k.encode_ordinary(context)


def test_produced_in_cuts_around_the_token_and_says_none_when_absent():
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    encoding = tiktoken.Encoding(name="toy", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    assert produced_in(encoding, 256, ["xyz", "0123456789ab9876543210"], width=3) == "789ab987"
    assert produced_in(encoding, 256, ["a b", "ba"]) is None


def test_lower_rank_halves():
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"xyz": 257, b"xy": 258, b"abxy": 259}
    encoding = tiktoken.Encoding(name="toy", pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens={})
    assert lower_rank_halves(encoding) == {256: (97, 98), 257: None, 258: (120, 121), 259: (256, 258)}
    llama3 = load_encoding("llama3")
    halves = lower_rank_halves(llama3)
    viec = llama3.encode_single_token(" việc".encode())
    assert [llama3.decode_single_token_bytes(i).decode() for i in halves[viec]] == [" v", "iệc"]
    ranks = mergeable_ranks(llama3)
    vocab = {rank: token for token, rank in ranks.items()}
    merged = merge_by_rank([ranks[bytes([b])] for b in " việc".encode()], lambda a, b: ranks.get(vocab[a] + vocab[b]))
    assert merged != [viec]  # lowest-rank-first merging does not reach it


# ---- tokens that are not valid UTF-8 alone -----------------------------------------------------------------


def test_the_single_bytes_no_utf8_text_contains_are_rfc_3629s():
    # RFC 3629 section 1: "The octet values C0, C1, F5 to FF never appear."
    never = {b for b in range(256) if not inside_utf8(bytes([b]))}
    assert never == {0xC0, 0xC1, *range(0xF5, 0x100)}
    assert len(never) == 13


def _substrings_of_utf8_up_to_two_bytes() -> set[bytes]:
    """Every 1- and 2-byte string that occurs in some valid UTF-8 text, found by encoding every code point: inside
    one character, or the last byte of one character and the first byte of the next."""
    found: set[bytes] = set()
    firsts, lasts = set(), set()
    for code_point in range(0x110000):
        if 0xD800 <= code_point <= 0xDFFF:
            continue  # surrogates are not characters UTF-8 can encode
        encoded = chr(code_point).encode("utf-8")
        firsts.add(encoded[0])
        lasts.add(encoded[-1])
        for size in (1, 2):
            found.update(encoded[i : i + size] for i in range(len(encoded) - size + 1))
    found.update(bytes([a, b]) for a in lasts for b in firsts)
    return found


def test_inside_utf8_agrees_with_every_code_points_encoding_on_all_short_byte_strings():
    truth = _substrings_of_utf8_up_to_two_bytes()
    for a in range(256):
        assert inside_utf8(bytes([a])) == (bytes([a]) in truth), hex(a)
        for b in range(256):
            assert inside_utf8(bytes([a, b])) == (bytes([a, b]) in truth), (hex(a), hex(b))


def test_inside_utf8_by_hand():
    assert inside_utf8("中".encode()[:2])  # the first two bytes of a three-byte character
    assert inside_utf8("é ".encode()[1:])  # the end of one character and the next
    assert not inside_utf8(b"\x80" * 4)  # no character has four continuation bytes
    assert not inside_utf8(b"\xe0\x80")  # E0 must be followed by A0..BF (shorter forms are overlong)
    assert not inside_utf8(b"\xed\xa0")  # ED A0.. would encode a surrogate
    assert not inside_utf8(b"\xf4\x90")  # beyond U+10FFFF


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=12), start=st.integers(0, 40), size=st.integers(1, 10))
def test_every_piece_of_utf8_text_is_inside_utf8(text, start, size):
    encoded = text.encode("utf-8")
    piece = encoded[start : start + size]
    if piece:
        assert inside_utf8(piece)


def test_tokens_not_valid_alone_mostly_sit_inside_text_except_thirteen_bytes():
    for name in ["r50k_base", "o200k_base"]:
        encoding = load_encoding(name)
        trip = round_trip(encoding)
        pieces = [encoding.decode_single_token_bytes(i) for i in trip.not_utf8]
        never = [piece for piece in pieces if not inside_utf8(piece)]
        assert sorted(never) == sorted(bytes([b]) for b in [0xC0, 0xC1, *range(0xF5, 0x100)]), name
        produced = ids_produced(encoding, ["a family: 👨\u200d👩\u200d👧\u200d👦", "𓀀 ꙮ"])
        assert produced & set(trip.not_utf8), name  # some partial-character tokens do occur in text
        assert not produced & {encoding.encode_single_token(t) for t in never}
