"""Lesson 06's checkers: a right answer passes; each typical mistake is named; nothing ever raises."""

from __future__ import annotations

import pytest

from bpelab import BPETokenizer
from bpelab.exercises.byte_level import BUILD_VOCAB, DECODE_IDS

# ---- build_vocab ---------------------------------------------------------------------------------


def good_build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def pairs_as_byte_values(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = bytes([a, b])
    return vocab


def right_then_left(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[b] + vocab[a]
    return vocab


def forgets_the_bytes(merges):
    vocab = {}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def strings_not_bytes(merges):
    vocab = {i: chr(i) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def test_build_vocab_accepts_a_correct_solution():
    result = BUILD_VOCAB.run(good_build_vocab)
    assert result.passed, result.message


def test_reference_build_vocab_matches_a_trained_tokenizer():
    tok = BPETokenizer().train("low lower lowest newer newest " * 3, 280)
    assert good_build_vocab(tok.merges) == tok.vocab


def sorted_by_pair(merges):
    # sorting by the pair puts (32, 257) " the" before (256, 101) "the", whose result it needs
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in sorted(merges.items()):
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def comprehension_in_update(merges):
    # the comprehension reads vocab before update adds any of its entries
    vocab = {i: bytes([i]) for i in range(256)}
    vocab.update({new: vocab[a] + vocab[b] for (a, b), new in merges.items()})
    return vocab


@pytest.mark.parametrize(
    "wrong, words",
    [
        (pairs_as_byte_values, "bytes([a, b])"),
        (right_then_left, "left token's bytes come first"),
        (forgets_the_bytes, "256 byte"),
        (strings_not_bytes, "must be bytes, not str"),
        (sorted_by_pair, "used before it was made"),
        (comprehension_in_update, "used before it was made"),
    ],
)
def test_build_vocab_names_the_mistake(wrong, words):
    result = BUILD_VOCAB.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- decode_ids ----------------------------------------------------------------------------------


def good_decode(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def one_token_at_a_time(vocab, ids):
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)


def strict(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8")


def ignore(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="ignore")


def returns_bytes(vocab, ids):
    return b"".join(vocab[i] for i in ids)


def test_decode_accepts_a_correct_solution():
    result = DECODE_IDS.run(good_decode)
    assert result.passed, result.message


def test_decode_cases_include_a_cut_character():
    # The exercise is about the cut character: at least one expected answer must show U+FFFD,
    # and one must be a character whose bytes straddle two tokens.
    cases = DECODE_IDS.build_cases()
    assert any("\ufffd" in case.expected for case in cases)
    assert any(case.expected != one_token_at_a_time(*case.args) and "\ufffd" not in case.expected for case in cases)


@pytest.mark.parametrize(
    "wrong, words",
    [
        (one_token_at_a_time, "each token on its own"),
        (strict, "errors='replace'"),
        (ignore, "errors='ignore'"),
        (returns_bytes, "you returned the bytes"),
        (
            lambda vocab, ids: bytes(vocab[i] for i in ids).decode("utf-8", errors="replace"),
            "bytes(...) takes integers",
        ),
        (
            lambda vocab, ids: b"".join(vocab[i] for i in ids).decode("utf-8", errors="backslashreplace"),
            "errors='backslashreplace'",
        ),
    ],
)
def test_decode_names_the_mistake(wrong, words):
    result = DECODE_IDS.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- never raise -----------------------------------------------------------------------------------


def stub_one(merges):
    # your code here
    ...


def stub_two(vocab, ids):
    # your code here
    ...


@pytest.mark.parametrize("exercise, stub", [(BUILD_VOCAB, stub_one), (DECODE_IDS, stub_two)])
def test_an_unsolved_stub_is_not_yet(exercise, stub):
    result = exercise.run(stub)
    assert result.status == "not yet" and "not yet" in result.message


@pytest.mark.parametrize("exercise", [BUILD_VOCAB, DECODE_IDS])
@pytest.mark.parametrize(
    "attempt",
    [
        42,
        lambda *args: 1 / 0,
        lambda *args: {"a": object()},
        lambda *args: iter([]),
        lambda: None,
        lambda *args: [None] * 300,
    ],
)
def test_checkers_never_raise(exercise, attempt):
    result = exercise.run(attempt)
    assert not result.passed
    assert result.status in ("failed", "not yet"), result.message
    assert "0x" not in result.message
