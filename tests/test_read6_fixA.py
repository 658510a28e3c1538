"""Findings of the sixth fresh read of lessons 00, 02, 03 and 04: wrong answers that passed their checkers, and hints
that named the wrong cause."""

from __future__ import annotations

import re

import regex

from bpelab.exercises.pair_merging import check_merge_pair, check_merge_symbols
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.training_loop import check_training_loop
from bpelab.exercises.warmup import check_count_characters
from bpelab.exercises.word_frequencies import check_get_word_frequencies
from bpelab.words import END_OF_WORD, count_pairs, merge_symbols


def _hint(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.strip().startswith("hint:"))


# ---- lesson 02, split_words ---------------------------------------------------------------------


def _listed_whitespace(text):
    """Whitespace listed by hand: every character a failing check named before this read, and no more."""
    return regex.findall(r"\w+|[^\w \t\n\r\f\v\u00a0\u3000]+", text)


def _separators_and_three(text):
    """Whitespace as the separators \\p{Z} plus \\t, \\n, \\r: \\f, \\v and U+0085 are left out."""
    return regex.findall(r"\w+|[^\w\p{Z}\t\n\r]+", text)


def test_whitespace_listed_by_hand_is_rejected_and_told_what_it_missed(capsys) -> None:
    assert _listed_whitespace("a\u2003b") == ["a", "\u2003", "b"]  # by hand: U+2003 is not in the list
    assert not check_split_words(_listed_whitespace, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "U+2003" in hint and "U+2028" in hint and "U+0085" in hint


def test_separators_class_is_rejected_and_told_it_leaves_out_the_form_feed(capsys) -> None:
    assert _separators_and_three("page one\fpage two") == ["page", "one", "\x0c", "page", "two"]  # by hand
    assert not check_split_words(_separators_and_three, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "U+000C" in hint and "\\p{Z}" in hint


def test_the_lessons_split_words_still_passes() -> None:
    assert check_split_words(lambda text: regex.findall(r"\w+|[^\w\s]+", text), record=False).passed


# ---- lesson 02, get_word_frequencies ------------------------------------------------------------


def _split_on_listed_whitespace(text):
    counts: dict = {}
    for word in re.split(r"[ \t\n\r\f\u00a0\u3000\x1c\x1f]+", text):
        if word:
            key = (*word, END_OF_WORD)
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_whitespace_listed_by_hand_for_word_frequencies_is_rejected(capsys) -> None:
    assert (_split_on_listed_whitespace("a\u2028b")) == {("a", "\u2028", "b", END_OF_WORD): 1}  # by hand
    assert not check_get_word_frequencies(_split_on_listed_whitespace, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "U+2028" in hint and "U+0085" in hint and "text.split()" in hint


def test_the_lessons_get_word_frequencies_still_passes() -> None:
    def get_word_frequencies(text):
        counts: dict = {}
        for word in text.split():
            key = tuple(word) + ("</w>",)
            counts[key] = counts.get(key, 0) + 1
        return counts

    assert check_get_word_frequencies(get_word_frequencies, record=False).passed


# ---- lesson 04, merge_pair ----------------------------------------------------------------------


def _pop_and_add(word_freq, pair):
    merged: dict = {}
    for word, count in word_freq.items():
        new = merge_symbols(word, pair)
        merged[new] = merged.pop(new, 0) + count
    return merged


def test_pop_and_insert_again_is_rejected_and_named(capsys) -> None:
    word_freq = {("a", "b", "c", "</w>"): 1, ("x", "</w>"): 1, ("ab", "c", "</w>"): 2}
    assert list(_pop_and_add(word_freq, ("a", "b"))) == [("x", "</w>"), ("ab", "c", "</w>")]  # by hand: x first
    assert not check_merge_pair(_pop_and_add, record=False).passed
    assert "pop" in _hint(capsys.readouterr().out)


def test_the_lessons_merge_pair_still_passes() -> None:
    def my_merge_pair(word_freq, pair):
        merged: dict = {}
        for word, count in word_freq.items():
            new = merge_symbols(word, pair)
            merged[new] = merged.get(new, 0) + count
        return merged

    assert check_merge_pair(my_merge_pair, record=False).passed


# ---- lesson 00, count_characters ----------------------------------------------------------------


def test_counting_bytes_is_told_it_counted_bytes_not_digits(capsys) -> None:
    def count_characters(text):
        counts: dict = {}
        for b in text.encode("utf-8"):
            counts[b] = counts.get(b, 0) + 1
        return counts

    assert not check_count_characters(count_characters, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "byte" in hint and "digit" not in hint


# ---- lesson 04, merge_symbols -------------------------------------------------------------------


def test_hard_coding_the_example_is_told_so(capsys) -> None:
    def my_merge_symbols(symbols, pair):
        return ("ab", "b")

    assert not check_merge_symbols(my_merge_symbols, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "range(len(symbols) - 1)" not in hint and "same answer" in hint


# ---- lesson 04, the training loop ---------------------------------------------------------------


def _train(word_freq, num_merges, new_symbol=lambda a, b: a + b):
    merges = []
    for _ in range(num_merges):
        counts = count_pairs(word_freq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        new = new_symbol(*pair)
        merges.append((pair, new))
        merged: dict = {}
        for word, n in word_freq.items():
            symbols, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
                    symbols.append(new)
                    i += 2
                else:
                    symbols.append(word[i])
                    i += 1
            merged[tuple(symbols)] = merged.get(tuple(symbols), 0) + n
        word_freq = merged
    return merges


def _spelled(words, glued=False):
    counts: dict = {}
    for word in words:
        key = (*word[:-1], word[-1] + END_OF_WORD) if glued else (*word, END_OF_WORD)
        counts[key] = counts.get(key, 0) + 1
    return counts


def test_splitting_punctuation_off_first_is_named(capsys) -> None:
    def my_train(text, num_merges):
        return _train(_spelled(regex.findall(r"\w+|[^\w\s]+", text)), num_merges)

    assert not check_training_loop(my_train, record=False).passed
    assert "punctuation" in _hint(capsys.readouterr().out)


def test_the_marker_glued_to_the_last_letter_is_named(capsys) -> None:
    def my_train(text, num_merges):
        return _train(_spelled(text.split(), glued=True), num_merges)

    assert not check_training_loop(my_train, record=False).passed
    assert "glued" in _hint(capsys.readouterr().out)


def test_a_space_inside_the_new_symbol_is_named(capsys) -> None:
    def my_train(text, num_merges):
        return _train(_spelled(text.split()), num_merges, new_symbol=lambda a, b: a + " " + b)

    assert not check_training_loop(my_train, record=False).passed
    assert "space" in _hint(capsys.readouterr().out)


def test_the_whitespace_cases_hold_every_whitespace_character() -> None:
    from bpelab.exercises.pre_tokenization import WHITE_SPACE
    from bpelab.exercises.word_frequencies import STR_WHITESPACE

    every = [chr(c) for c in range(0x110000)]
    assert set(WHITE_SPACE) == {ch for ch in every if regex.fullmatch(r"\s", ch)}
    assert set(STR_WHITESPACE) == {ch for ch in every if ch.isspace()}
