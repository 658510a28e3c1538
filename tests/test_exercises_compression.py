"""Lesson 08's checkers: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import pytest

from bpelab import BPETokenizer
from bpelab.exercises.compression import (
    check_bytes_per_token,
    check_count_unused,
    check_smallest_vocab_size,
)


def report(capsys):
    return capsys.readouterr().out


# ---- bytes per token --------------------------------------------------------------------------


def good_bytes_per_token(tokenizer, text):
    return len(text.encode("utf-8")) / len(tokenizer.encode(text))


def test_bytes_per_token_right_answer_passes(capsys):
    assert check_bytes_per_token(good_bytes_per_token).passed
    assert report(capsys).startswith("✅ bytes_per_token: all")


def test_bytes_per_token_stub_is_not_yet(capsys):
    def bytes_per_token(tokenizer, text):
        # your code here
        ...

    result = check_bytes_per_token(bytes_per_token)
    assert result.status == "not yet"
    assert "not yet" in report(capsys)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda tok, text: len(tok.encode(text)) / len(text.encode("utf-8")), "upside down"),
        (lambda tok, text: len(text) / len(tok.encode(text)), "len(text) counts characters"),
        (lambda tok, text: len(text.encode("utf-8")) / len(set(tok.encode(text))), "DIFFERENT tokens"),
        (lambda tok, text: len(text.encode("utf-8")) // len(tok.encode(text)), "//"),
        (lambda tok, text: round(len(text.encode("utf-8")) / len(tok.encode(text)), 2), "rounded"),
    ],
)
def test_bytes_per_token_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_bytes_per_token(wrong).passed
    assert hint in report(capsys)


# ---- unused tokens ----------------------------------------------------------------------------


def good_count_unused(tokenizer, text):
    used = set(tokenizer.encode(text))
    return sum(1 for i in tokenizer.vocab if i not in used)


def test_count_unused_right_answer_passes(capsys):
    assert check_count_unused(good_count_unused).passed
    assert report(capsys).startswith("✅ count_unused: all")


def _with_parts(tokenizer, text):
    parents = {new: pair for pair, new in tokenizer.merges.items()}
    used = set()
    stack = list(tokenizer.encode(text))
    while stack:
        i = stack.pop()
        used.add(i)
        stack.extend(parents.get(i, ()))
    return len(tokenizer.vocab) - len(used)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda tok, text: len(set(tok.encode(text))), "number of tokens USED"),
        (lambda tok, text: len(tok.vocab) - len(tok.encode(text)), "still one used token"),
        (lambda tok, text: len(tok.merges) - len({i for i in tok.encode(text) if i >= 256}), "256 byte tokens"),
        (_with_parts, "only if encode emits it"),
    ],
)
def test_count_unused_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_count_unused(wrong).passed
    assert hint in report(capsys)


# ---- choosing a vocabulary size ---------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(english_sample):
    text = english_sample[:6_000]
    return BPETokenizer().train(text, 500, pattern="cl100k"), text


def smallest_by_scan(tok, text, goal):
    """An independent answer: try every size from the bottom."""
    n_bytes = len(text.encode("utf-8"))
    for size in range(256, 256 + len(tok.merges) + 1):
        if n_bytes / len(tok.truncated(size).encode(text)) >= goal:
            return size
    return None


def test_smallest_size_passes_and_one_more_does_not(capsys, trained):
    import tiktoken

    tok, text = trained
    n_bytes = len(text.encode("utf-8"))
    gpt2 = n_bytes / len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))
    best = n_bytes / len(tok.encode(text))
    within = round(1 - 0.9 * best / gpt2, 2)  # a goal this tokenizer reaches well before its last merge
    answer = smallest_by_scan(tok, text, gpt2 * (1 - within))
    assert answer is not None and answer > 256

    result = check_smallest_vocab_size(answer, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert result.passed, out
    assert out.startswith(f"✅ smallest_vocab_size: {answer:,} is the smallest") and "one less" in out

    result = check_smallest_vocab_size(answer + 1, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and "not the smallest" in out and f"{answer:,} tokens reach the goal too" in out

    result = check_smallest_vocab_size(answer - 1, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and f"not yet within {within:.0%}" in out and "try a larger size" in out


def test_unreachable_goal_is_explained(capsys, trained):
    tok, text = trained
    result = check_smallest_vocab_size(400, tok, text, production="o200k_base", within=0.01)
    out = report(capsys)
    assert not result.passed and "no size of this tokenizer" in out and "largest" in out


@pytest.mark.parametrize(
    "answer, phrase, status",
    [
        (..., "not yet", "not yet"),
        (None, "not yet", "not yet"),
        ("1000", "whole number", "failed"),
        (True, "whole number", "failed"),
        (100, "out of reach", "failed"),
        (501, "out of reach", "failed"),
    ],
)
def test_bad_answers_get_messages_not_errors(capsys, trained, answer, phrase, status):
    tok, text = trained
    result = check_smallest_vocab_size(answer, tok, text)
    assert result.status == status and not result.passed
    assert phrase in report(capsys)


def test_whole_floats_are_accepted(capsys, trained):
    tok, text = trained
    check_smallest_vocab_size(300.0, tok, text, production="r50k_base")
    assert "300 tokens" in report(capsys)


def test_bad_settings_never_raise(capsys, trained):
    tok, text = trained
    assert check_smallest_vocab_size(300, tok, text, production="gpt5").status == "failed"
    assert "unknown production tokenizer" in report(capsys)
    assert check_smallest_vocab_size(300, tok, text, within=10).status == "failed"
    assert "fraction" in report(capsys)
    assert check_smallest_vocab_size(300, tok, "").status == "checker error"
    assert "non-empty text" in report(capsys)


# ---- an answer counted in merges instead of tokens --------------------------------------------


@pytest.fixture(scope="module")
def bigger(english_sample):
    """A tokenizer with more than 512 merges, so that a number of merges can itself look like a size."""
    return BPETokenizer().train(english_sample, 1_200, pattern="cl100k"), english_sample[:8_000]


def goal_near(tok, text, size):
    """A `within` against GPT-2 whose goal is this tokenizer's bytes per token at `size`, and the
    smallest size that reaches it (found by scanning, independently of the checker)."""
    import tiktoken

    n_bytes = len(text.encode("utf-8"))
    gpt2 = n_bytes / len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))
    ours = n_bytes / len(tok.truncated(size).encode(text))
    within = 1 - ours / gpt2
    return within, smallest_by_scan(tok, text, gpt2 * (1 - within))


@pytest.mark.parametrize("size", [900, 400])  # 644 merges is a size too; 144 merges is below 256
def test_an_answer_in_merges_is_recognised(capsys, bigger, size):
    tok, text = bigger
    within, answer = goal_near(tok, text, size)
    assert answer is not None and answer > 300

    result = check_smallest_vocab_size(answer - 256, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and result.status == "failed"
    assert f"{answer - 256:,} is a number of merges" in out and f"{answer:,} tokens" in out
    assert "256 byte tokens" in out


def test_256_added_twice_is_recognised(capsys, bigger):
    tok, text = bigger
    within, answer = goal_near(tok, text, 600)
    assert answer is not None and answer + 256 <= tok.vocab_size

    result = check_smallest_vocab_size(answer + 256, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and result.status == "failed"
    assert f"256 more than {answer:,}" in out


def test_the_right_answer_still_passes_with_the_merge_hint_in_place(capsys, bigger):
    tok, text = bigger
    within, answer = goal_near(tok, text, 900)
    assert check_smallest_vocab_size(answer, tok, text, production="r50k_base", within=within).passed
    assert "number of merges" not in report(capsys)
