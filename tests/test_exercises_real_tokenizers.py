"""Lesson 07's checkers: a right answer passes; each typical mistake is named; nothing ever raises."""

from __future__ import annotations

import re

import pytest
import regex

from bpelab import from_tiktoken
from bpelab.exercises.real_tokenizers import FIND_PARENTS, SPLIT_PIECES, find_parents

# ---- split_pieces --------------------------------------------------------------------------------


def test_split_pieces_accepts_a_correct_solution():
    result = SPLIT_PIECES.run(lambda text, pattern: regex.findall(pattern, text))
    assert result.passed, result.message


@pytest.mark.parametrize(
    "wrong, words",
    [
        (lambda text, pattern: re.findall(pattern, text), "standard `re` module"),
        (lambda text, pattern: text.split(), "str.split()"),
        (lambda text, pattern: regex.split(pattern, text), "BETWEEN the matches"),
        (lambda text, pattern: [p.strip() for p in regex.findall(pattern, text)], "keep the spaces"),
    ],
)
def test_split_pieces_names_the_mistake(wrong, words):
    result = SPLIT_PIECES.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- find_parents --------------------------------------------------------------------------------


def lowest_rank_bpe(token, ranks):
    """A learner's answer: merge the lowest-rank pair below the token's rank until two parts remain."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def first_split(token, ranks):
    for i in range(1, len(token)):
        if token[:i] in ranks and token[i:] in ranks:
            return token[:i], token[i:]
    return None


def leftmost_pair_first(token, ranks):
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    merged = True
    while len(parts) > 2 and merged:
        merged = False
        for i in range(len(parts) - 1):
            if ranks.get(parts[i] + parts[i + 1], limit) < limit:
                parts[i : i + 2] = [parts[i] + parts[i + 1]]
                merged = True
                break
    return tuple(parts)


def no_rank_limit(token, ranks):
    parts = [bytes([b]) for b in token]
    while True:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1) if parts[i] + parts[i + 1] in ranks
        ]
        if not candidates:
            return tuple(parts)
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


def test_find_parents_accepts_a_correct_solution():
    result = FIND_PARENTS.run(lowest_rank_bpe)
    assert result.passed, result.message


def test_reference_agrees_with_the_merges_recovered_from_gpt4():
    tok = from_tiktoken("cl100k_base")
    for token in (b" hello", b" strawberry", b"ing"):
        left, right = find_parents(token, tok.ranks)
        assert left + right == token
        assert tok.merges[(tok.ranks[left], tok.ranks[right])] == tok.ranks[token]


@pytest.mark.parametrize(
    "wrong, words",
    [
        (first_split, "first split"),
        (leftmost_pair_first, "lowest rank first"),
        (no_rank_limit, "all the way back to the token itself"),
    ],
)
def test_find_parents_names_the_mistake(wrong, words):
    result = FIND_PARENTS.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- never raise -----------------------------------------------------------------------------------


def stub(a, b):
    # your code here
    ...


@pytest.mark.parametrize("exercise", [SPLIT_PIECES, FIND_PARENTS])
def test_an_unsolved_stub_is_not_yet(exercise):
    result = exercise.run(stub)
    assert result.status == "not yet" and "not yet" in result.message


@pytest.mark.parametrize("exercise", [SPLIT_PIECES, FIND_PARENTS])
@pytest.mark.parametrize(
    "attempt",
    [None, lambda *args: 1 / 0, lambda *args: object(), lambda x: x, lambda *args: [[]], lambda *args: (b"", b"", b"")],
)
def test_checkers_never_raise(exercise, attempt):
    result = exercise.run(attempt)
    assert not result.passed
    assert result.status in ("failed", "not yet"), result.message
    assert "0x" not in result.message


def test_split_pieces_dropping_repeated_pieces_is_named():
    """list(dict.fromkeys(pieces)) keeps each piece once: a case where a piece occurs twice must catch it."""
    result = SPLIT_PIECES.run(lambda text, pattern: list(dict.fromkeys(regex.findall(pattern, text))))
    assert not result.passed, result.message
    assert "occurs twice" in result.message, result.message


def test_split_pieces_dropping_repeats_in_order_is_not_told_to_use_findall():
    """list(dict.fromkeys(regex.findall(...))) used findall: the hint names the repeats, not findall."""
    result = SPLIT_PIECES.run(lambda text, pattern: list(dict.fromkeys(regex.findall(pattern, text))))
    hint = result.message.split("hint:", 1)[1]
    assert "dict.fromkeys" in hint and "repeats" in hint, result.message
    assert "findall" not in hint, result.message


@pytest.mark.parametrize(
    "through_a_set",
    [
        lambda text, pattern: list(set(regex.findall(pattern, text))),
        # what a set may make of them, whatever this run's hash seed: each once, in another order
        lambda text, pattern: list(reversed(dict.fromkeys(regex.findall(pattern, text)))),
    ],
    ids=["list(set(...))", "a set's order, fixed"],
)
def test_split_pieces_through_a_set_is_told_it_lost_order_and_repeats(through_a_set):
    result = SPLIT_PIECES.run(through_a_set)
    assert not result.passed
    hint = result.message.split("hint:", 1)[1]
    assert "list(set(...)) loses the order" in hint and "only once" in hint, result.message


def test_split_pieces_sorted_is_told_so():
    result = SPLIT_PIECES.run(lambda text, pattern: sorted(regex.findall(pattern, text)))
    assert "you sorted the pieces" in result.message, result.message
