"""Findings of the seventh fresh read of lessons 00, 02, 03 and 04: wrong answers that passed their checkers, and hints
that named the wrong cause."""

from __future__ import annotations

import regex

from bpelab.exercises.pair_merging import check_merge_pair, check_merge_symbols
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.training_loop import check_training_loop
from bpelab.words import best_pair, count_pairs, get_word_frequencies, merge_pair, merge_symbols


def _hint(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.strip().startswith("hint:"))


# ---- lesson 04, merge_symbols: pair[0] standing unmatched before a real match ---------------------


def _stops_at_first_miss(symbols, pair):
    """Look up pair[0] with .index(); when pair[1] does not follow it, give up on the rest of the word."""
    s = list(symbols)
    while pair[0] in s:
        i = s.index(pair[0])
        if i + 1 < len(s) and s[i + 1] == pair[1]:
            s[i : i + 2] = [pair[0] + pair[1]]
        else:
            break
    return tuple(s)


def _searches_on_two_after_a_miss(symbols, pair):
    """Look up pair[0] from a start; after a miss the next search starts two symbols on."""
    s = list(symbols)
    start = 0
    while pair[0] in s[start:]:
        i = s.index(pair[0], start)
        if i + 1 < len(s) and s[i + 1] == pair[1]:
            s[i : i + 2] = [pair[0] + pair[1]]
            start = i + 1
        else:
            start = i + 2
    return tuple(s)


def _jumps_two_on_first_half(symbols, pair):
    """On symbols[i] == pair[0], jump i += 2 whether or not pair[1] follows."""
    merged = []
    i = 0
    while i < len(symbols):
        if symbols[i] == pair[0]:
            if i + 1 < len(symbols) and symbols[i + 1] == pair[1]:
                merged.append(pair[0] + pair[1])
            else:
                merged.extend(symbols[i : i + 2])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def test_the_three_wrong_scans_are_wrong_on_hand_checked_words() -> None:
    assert _stops_at_first_miss(("a", "x", "a", "b", "</w>"), ("a", "b")) == ("a", "x", "a", "b", "</w>")
    assert _searches_on_two_after_a_miss(("a", "a", "b", "</w>"), ("a", "b")) == ("a", "a", "b", "</w>")
    assert _jumps_two_on_first_half(("a", "a", "b", "</w>"), ("a", "b")) == ("a", "a", "b", "</w>")
    # the right answers, by hand
    assert merge_symbols(("a", "x", "a", "b", "</w>"), ("a", "b")) == ("a", "x", "ab", "</w>")
    assert merge_symbols(("a", "a", "b", "</w>"), ("a", "b")) == ("a", "ab", "</w>")


def test_giving_up_after_an_unmatched_first_half_is_rejected_and_told(capsys) -> None:
    assert not check_merge_symbols(_stops_at_first_miss, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "pair[0]" in hint and "not followed by pair[1]" in hint and "rest of the word" in hint


def test_skipping_the_symbol_after_an_unmatched_first_half_is_rejected_and_told(capsys) -> None:
    for wrong in (_searches_on_two_after_a_miss, _jumps_two_on_first_half):
        assert not check_merge_symbols(wrong, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "not followed by pair[1]" in hint and "i += 1" in hint, hint


def test_merge_pair_names_the_same_mistakes(capsys) -> None:
    for wrong in (_stops_at_first_miss, _searches_on_two_after_a_miss, _jumps_two_on_first_half):
        lifted = lambda word_freq, pair, wrong=wrong: {wrong(w, pair): c for w, c in word_freq.items()}  # noqa: E731
        assert not check_merge_pair(lifted, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "not followed by pair[1]" in hint, hint


def _lessons_merge_symbols(symbols, pair):
    """Lesson 04's shown solution of exercise 1."""
    first, second = pair
    merged, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == first and symbols[i + 1] == second:
            merged.append(first + second)
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def _lessons_merge_pair(word_freq, pair):
    """Lesson 04's shown solution of exercise 2."""
    merged = {}
    for word, count in word_freq.items():
        new_word = merge_symbols(word, pair)
        merged[new_word] = merged.get(new_word, 0) + count
    return merged


def test_the_lessons_merges_still_pass() -> None:
    assert check_merge_symbols(_lessons_merge_symbols, record=False).passed
    assert check_merge_pair(_lessons_merge_pair, record=False).passed


# ---- lesson 04, train: the stop condition, and the table made again from the text ---------------


def _lessons_train(text, num_merges, *, fewest_pairs=1, rebuilt=False):
    """Lesson 04's shown solution of exercise 3; ``fewest_pairs=2`` is ``if len(pairs) <= 1: break``, ``rebuilt``
    moves ``word_freq = get_word_frequencies(text)`` inside the loop."""
    word_freq = get_word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        if rebuilt:
            word_freq = get_word_frequencies(text)
        pairs = count_pairs(word_freq)
        if len(pairs) < fewest_pairs:
            break
        pair = best_pair(pairs)
        word_freq = merge_pair(word_freq, pair)
        merges.append((pair, pair[0] + pair[1]))
    return merges


def test_stopping_with_one_pair_left_is_told_its_stop_condition(capsys) -> None:
    # 'ab ab': after ('a', 'b') one pair is left, ('ab', '</w>'), and it is still merged
    assert _lessons_train("ab ab", 5, fewest_pairs=2) == [(("a", "b"), "ab")]
    assert not check_training_loop(lambda t, n: _lessons_train(t, n, fewest_pairs=2), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "len(pairs) <= 1" in hint and "if not pairs: break" in hint, hint
    assert "range(num_merges)" not in hint, hint


def test_the_table_made_again_every_round_is_named(capsys) -> None:
    assert _lessons_train("ab ab", 2, rebuilt=True) == [(("a", "b"), "ab")] * 2
    assert not check_training_loop(lambda t, n: _lessons_train(t, n, rebuilt=True), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "get_word_frequencies(text)" in hint and "before the loop" in hint, hint


def test_the_lessons_train_still_passes() -> None:
    assert check_training_loop(_lessons_train, record=False).passed


# ---- lesson 02, split_words: \w spelled out by hand, told where it parts from \w ------------------


def _spelled(word_class):
    pattern = f"[{word_class}]+|[^{word_class}\\s]+"
    return lambda text: regex.findall(pattern, text)


def test_letters_for_alphabetic_are_told_alphabetic_not_a_letter_of_some_alphabet(capsys) -> None:
    for word_class in (r"\p{L}\p{M}\p{Nd}_\p{Join_Control}", r"\p{L}\p{M}\p{Nd}_\u200c\u200d"):
        assert _spelled(word_class)("Chapter Ⅻ. Ⓐbc") == ["Chapter", "Ⅻ.", "Ⓐ", "bc"]  # \w: Chapter, Ⅻ, ., Ⓐbc
        assert not check_split_words(_spelled(word_class), record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "Alphabetic" in hint and "Ⅻ" in hint and "[A-Za-z]" not in hint, hint


def test_joiners_left_out_are_told_the_joiners(capsys) -> None:
    for word_class in (r"\p{L}\p{M}\p{Nd}_", r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}"):
        assert _spelled(word_class)("می\u200cخواهم") == ["می", "\u200c", "خواهم"]
        assert not check_split_words(_spelled(word_class), record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "U+200C" in hint and "Join_Control" in hint, hint


def test_the_lessons_split_words_still_passes() -> None:
    assert check_split_words(lambda text: regex.findall(r"\w+|[^\w\s]+", text), record=False).passed
