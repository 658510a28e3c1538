"""A fresh reader's wrong answers for lessons 02, 03 and 08 (issue 29): each one was accepted or given the wrong
hint before its fix; each test writes the learner's answer and asserts the checker rejects it and names the bug."""

from __future__ import annotations

import math

import nbformat
import pytest
import regex

from bpelab.analysis.compression import bytes_per_token
from bpelab.exercises.compression import (
    BYTES_PER_TOKEN,
    SEARCH,
    _paragraph,
    check_bytes_per_token,
    check_smallest_vocab_size,
)
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.samples import PARAGRAPH
from bpelab.exercises.ties import check_most_frequent_pairs
from bpelab.words import count_pairs, get_word_frequencies

# ---- lesson 08: the search ------------------------------------------------------------------------------------


def rounded_search(digits: int, both: bool = False):
    """The lesson's binary search comparing ``round(bytes per token, digits)`` (and the goal, when ``both``)."""

    def my_smallest_vocab_size(tokenizer, text, goal):
        target = round(goal, digits) if both else goal
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if round(bytes_per_token(tokenizer.truncated(middle), text), digits) >= target:
                high = middle
            else:
                low = middle + 1
        return high

    return my_smallest_vocab_size


def test_the_reader_s_example_rounding_at_5_digits_falls_short_by_hand():
    """bytes per token of the paragraph tokenizer at 257 is 1.05445544…, which round(…, 5) makes 1.05446: above
    a goal a millionth above 1.05445544…, so the rounded search stops at 257 where 258 is the answer."""
    paragraph = _paragraph()
    at_257 = bytes_per_token(paragraph.truncated(257), PARAGRAPH)
    assert math.isclose(at_257, 1.0544554455445545)
    assert rounded_search(5)(paragraph, PARAGRAPH, at_257 + 1e-6) == 257
    assert SEARCH.reference(paragraph, PARAGRAPH, at_257 + 1e-6) == 258


@pytest.mark.parametrize("digits", range(5, 12))
@pytest.mark.parametrize("both", [False, True])
def test_a_search_that_rounds_before_comparing_is_rejected_and_told_so(digits, both):
    result = SEARCH.run(rounded_search(digits, both), record=False)
    assert not result.passed, result.message
    assert "round" in result.message.split("hint:", 1)[1], result.message


def high_from_vocab_size(tokenizer, text, goal):
    """The lesson's search starting at high = tokenizer.vocab_size, which counts the special tokens too."""
    low, high = 256, tokenizer.vocab_size
    while low < high:
        middle = (low + high) // 2
        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
            high = middle
        else:
            low = middle + 1
    return high


def test_a_search_from_vocab_size_is_rejected_on_a_tokenizer_with_special_tokens():
    result = SEARCH.run(high_from_vocab_size, record=False)
    assert not result.passed, result.message
    hint = result.message.split("hint:", 1)[1]
    assert "vocab_size" in hint and "special" in hint and "256 + len(tokenizer.merges)" in hint, result.message


CACHE: dict[int, float] = {}


def cached_search(tokenizer, text, goal):
    """Measurements kept in a global dict keyed by the size alone: shared between calls on other texts."""
    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        if middle not in CACHE:
            CACHE[middle] = bytes_per_token(tokenizer.truncated(middle), text)
        if CACHE[middle] >= goal:
            high = middle
        else:
            low = middle + 1
    return high


def test_a_search_caching_by_size_alone_is_told_its_cache_is_shared(capsys):
    CACHE.clear()
    assert not check_smallest_vocab_size(cached_search, _paragraph(), PARAGRAPH, within=0.6, record=False).passed
    out = capsys.readouterr().out
    hint = out.split("hint:", 1)[1]
    assert "`CACHE`" in hint and "shared between calls" in hint, out
    assert "does not use its own" not in hint


def test_a_cache_made_anew_at_each_call_passes(capsys):
    def my_smallest_vocab_size(tokenizer, text, goal):
        cache: dict[int, float] = {}
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if middle not in cache:
                cache[middle] = bytes_per_token(tokenizer.truncated(middle), text)
            if cache[middle] >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    assert SEARCH.run(my_smallest_vocab_size, record=False).passed


def test_the_lessons_search_still_passes():
    def my_smallest_vocab_size(tokenizer, text, goal):
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    assert SEARCH.run(my_smallest_vocab_size, record=False).passed


# ---- lesson 08: bytes per token -------------------------------------------------------------------------------


@pytest.mark.parametrize("digits", range(1, 9))
def test_bytes_per_token_rounded_to_up_to_8_digits_is_told_it_rounded(digits, capsys):
    def rounded(tokenizer, text):
        return round(len(text.encode("utf-8")) / len(tokenizer.encode(text)), digits)

    assert not check_bytes_per_token(rounded, record=False).passed
    assert "right, but rounded" in capsys.readouterr().out


def test_rounding_to_9_digits_is_caught_by_the_exact_ratio_after_the_cases():
    """Floats compare with a relative tolerance of 1e-9, so no case can tell a ratio rounded to 9 digits apart;
    after the cases the checker holds the ratio of 'ab a' (4 bytes in 3 tokens) to 4/3 within 1e-15 (read 10)."""
    from bpelab.exercises.comparing import same

    for case in BYTES_PER_TOKEN.build_cases():
        assert same(round(case.expected, 9), case.expected)

    def rounded_to_9(tokenizer, text):
        return round(len(text.encode("utf-8")) / len(tokenizer.encode(text)), 9)

    assert not check_bytes_per_token(rounded_to_9, record=False).passed


# ---- lesson 03 --------------------------------------------------------------------------------------------------


def pops_the_winners_and_puts_them_back(pair_counts):
    if not pair_counts:
        return []
    top = max(pair_counts.values())
    winners = [pair for pair, count in pair_counts.items() if count == top]
    for pair in winners:
        pair_counts[pair] = pair_counts.pop(pair)
    return winners


def sorts_the_dict_in_place(pair_counts):
    if not pair_counts:
        return []
    top = max(pair_counts.values())
    winners = [pair for pair, count in pair_counts.items() if count == top]
    items = sorted(pair_counts.items())
    pair_counts.clear()
    pair_counts.update(items)
    return winners


def moves_the_winners_to_the_end(pair_counts):
    if not pair_counts:
        return []
    top = max(pair_counts.values())
    winners = []
    for pair in list(pair_counts):
        if pair_counts[pair] == top:
            winners.append(pair)
            del pair_counts[pair]
    for pair in winners:
        pair_counts[pair] = top
    return winners


@pytest.mark.parametrize(
    "wrong", [pops_the_winners_and_puts_them_back, sorts_the_dict_in_place, moves_the_winners_to_the_end]
)
def test_most_frequent_pairs_that_reorders_its_input_is_rejected(wrong, capsys):
    assert not check_most_frequent_pairs(wrong, record=False).passed
    out = capsys.readouterr().out
    assert "hint:" in out and "order" in out.split("hint:", 1)[1] and "pair_counts" in out.split("hint:", 1)[1]


def test_most_frequent_pairs_that_needs_a_count_of_two_is_rejected(capsys):
    def needs_two(pc):
        if not pc or max(pc.values()) < 2:
            return []
        top = max(pc.values())
        return [p for p, c in pc.items() if c == top]

    assert count_pairs(get_word_frequencies("ab")) == {("a", "b"): 1, ("b", "</w>"): 1}
    assert not check_most_frequent_pairs(needs_two, record=False).passed
    out = capsys.readouterr().out
    assert "highest count is 1" in out.split("hint:", 1)[1], out


def test_most_frequent_pairs_correct_answers_still_pass():
    def copies_first(pair_counts):
        pc = dict(pair_counts)
        top = max(pc.values(), default=0)
        return [p for p, c in pc.items() if c == top]

    assert check_most_frequent_pairs(copies_first, record=False).passed


# ---- lesson 02 ---------------------------------------------------------------------------------------------------


def test_split_words_without_regex_imported_is_told_to_run_the_first_cell(capsys):
    namespace: dict = {}
    exec("def split_words(text):\n    return regex.findall(r'\\w+|[^\\w\\s]+', text)\n", namespace)
    assert not check_split_words(namespace["split_words"], record=False).passed
    out = capsys.readouterr().out
    assert "run the lesson's first cell, which imports regex" in out, out
    assert regex  # the module the learner forgot is the one the lesson imports


# ---- the notebooks' check cells ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["count_pairs", "most_frequent_pairs"])
def test_lesson_03_check_cells_say_to_run_the_exercise_cell_first(name, capsys):
    nb = nbformat.read("notebooks/03_counting_pairs.ipynb", as_version=4)
    (source,) = [c.source for c in nb.cells if c.cell_type == "code" and f"check_{name}({name})" in c.source]
    exec(source, {})  # a fresh kernel: the exercise cell has not run
    assert f"{name} is not defined yet: run the exercise cell above" in capsys.readouterr().out
