"""The exercise checkers: right answers pass, typical wrong answers are named, nothing ever raises.

Each checker is tried with bpelab's own function, with an independently written correct
solution, and with wrong answers written the way a learner writes them. Assertions are on the
printed report (what the learner reads), captured with capsys.
"""

from __future__ import annotations

import re
import types
from array import array
from collections import Counter, defaultdict
from itertools import pairwise

import pytest
import regex

import bpelab
from bpelab import words
from bpelab.exercises import (
    EXERCISES,
    Case,
    CheckResult,
    Exercise,
    check_byte_count,
    check_char_decode,
    check_char_encode,
    check_char_tokenizer,
    check_count_pairs,
    check_encode_word,
    check_get_word_frequencies,
    check_merge_pair,
    check_merge_symbols,
    check_training_loop,
    show_solution,
)
from bpelab.exercises.core import COMPUTED
from bpelab.exercises.training_loop import reference_train

ALL_CHECKERS = [
    check_byte_count,
    check_char_encode,
    check_char_decode,
    check_char_tokenizer,
    check_get_word_frequencies,
    check_count_pairs,
    check_merge_symbols,
    check_merge_pair,
    check_training_loop,
    check_encode_word,
]


@pytest.fixture(autouse=True)
def patient_clock(monkeypatch):
    """These tests name mistakes, among them the usual endless loop, which the line counter stops with the same
    words on any ordinary machine; on a machine as busy as a shared CI runner, the five-second clock could come
    first. (The clock's own tests: test_exercises_runaway.py.)"""
    from bpelab.exercises import runaway

    monkeypatch.setattr(runaway, "MAX_SECONDS", 60.0)


def report(capsys, checker, *args) -> tuple[CheckResult, str]:
    result = checker(*args)
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == len(out.splitlines())
    assert not re.search(r"at 0x[0-9a-fA-F]{6,}", out) and "Traceback" not in out and "checker itself failed" not in out
    return result, out


def assert_passes(capsys, checker, *args) -> None:
    result, out = report(capsys, checker, *args)
    assert result.passed and result.status == "passed" and bool(result)
    assert re.fullmatch(r"✅ \w+: all \d+ checks passed\.\n", out), out


def copy_of(fn):
    """The course's function as a learner's own: the same code in a new function object. The checkers refuse the
    course's function itself (by identity), not an answer written the same way."""
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def assert_refuses_course_function(capsys, checker, *args) -> None:
    result, out = report(capsys, checker, *args)
    assert not result.passed and result.status == "failed", out
    assert "that is the course's function" in out and "write yours" in out, out


def assert_rejects(capsys, checker, fn, *phrases: str) -> str:
    result, out = report(capsys, checker, fn)
    assert not result.passed and result.status == "failed", out
    assert out.startswith("❌"), out
    for phrase in phrases:
        assert phrase in out, f"{phrase!r} not in:\n{out}"
    return out


# ---------------------------------------------------------------------------------------------
# Lesson 01: byte_count


def byte_count_by_ranges(text):
    # UTF-8 length from code point ranges, without calling .encode()
    n_bytes = sum(1 if ord(c) < 0x80 else 2 if ord(c) < 0x800 else 3 if ord(c) < 0x10000 else 4 for c in text)
    chars = len(text)
    return {"bytes_per_char": round(n_bytes / chars, 2) if chars else 0.0, "bytes": n_bytes, "chars": chars}


def byte_count_counts_chars(text):
    return {"chars": len(text), "bytes": len(text), "bytes_per_char": 1.0 if text else 0.0}


def byte_count_not_rounded(text):
    n = len(text.encode("utf-8"))
    return {"chars": len(text), "bytes": n, "bytes_per_char": n / len(text) if text else 0.0}


def byte_count_divides_by_zero(text):
    n = len(text.encode("utf-8"))
    return {"chars": len(text), "bytes": n, "bytes_per_char": round(n / len(text), 2)}


def byte_count_tuple(text):
    n = len(text.encode("utf-8"))
    return len(text), n, round(n / len(text), 2) if text else 0.0


def byte_count_formatted(text):
    n = len(text.encode("utf-8"))
    return {"chars": len(text), "bytes": n, "bytes_per_char": f"{n / len(text):.2f}" if text else "0.00"}


def byte_count_utf16(text):
    n = len(text.encode("utf-16-le"))
    return {"chars": len(text), "bytes": n, "bytes_per_char": round(n / len(text), 2) if text else 0.0}


def test_byte_count_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_byte_count, bpelab.byte_count)
    assert_passes(capsys, check_byte_count, copy_of(bpelab.byte_count))
    assert_passes(capsys, check_byte_count, byte_count_by_ranges)


@pytest.mark.parametrize(
    "fn, phrase",
    [
        (byte_count_counts_chars, "you counted characters, not bytes"),
        (byte_count_not_rounded, "bytes_per_char is not rounded"),
        (byte_count_divides_by_zero, "ZeroDivisionError"),
        (byte_count_divides_by_zero, "return 0.0 for bytes_per_char when there are no characters"),
        (byte_count_tuple, "return a dict with the keys"),
        (byte_count_formatted, "bytes_per_char is a str"),
        (byte_count_utf16, "UTF-16 or UTF-32"),
    ],
)
def test_byte_count_names_mistakes(capsys, fn, phrase):
    assert_rejects(capsys, check_byte_count, fn, phrase)


def test_byte_count_empty_string_case_is_reported(capsys):
    out = assert_rejects(
        capsys, check_byte_count, byte_count_divides_by_zero, "byte_count('')", "line 3 of your function"
    )
    assert "the empty string" in out


# ---------------------------------------------------------------------------------------------
# Lesson 01: the character tokenizer


class MyCharTokenizer:
    def encode(self, text):
        return array("I", text.encode("utf-32-le")).tolist()

    def decode(self, ids):
        return array("I", ids).tobytes().decode("utf-32-le")


def encode_with_map(text):
    return list(map(ord, text))


def decode_with_map(ids):
    return "".join(map(chr, ids))


def encode_utf8_bytes(text):
    return list(text.encode("utf-8"))


def encode_lazy(text):
    return map(ord, text)


def decode_as_list(ids):
    return [chr(i) for i in ids]


def decode_via_bytes(ids):
    return bytes(ids).decode("utf-8")


class TokenizerWithoutSelf:
    def encode(text):
        return [ord(c) for c in text]

    def decode(ids):
        return "".join(chr(i) for i in ids)


class TokenizerNeedingArgs:
    def __init__(self, vocab):
        self.vocab = vocab


class StubTokenizer:
    def encode(self, text):
        # your code here
        pass

    def decode(self, ids):
        # your code here
        pass


def test_char_tokenizer_accepts_every_calling_convention(capsys):
    assert_refuses_course_function(capsys, check_char_tokenizer, bpelab.CharTokenizer)
    assert_refuses_course_function(capsys, check_char_tokenizer, bpelab.CharTokenizer())
    assert_passes(capsys, check_char_tokenizer, MyCharTokenizer)
    assert_passes(capsys, check_char_tokenizer, encode_with_map, decode_with_map)
    assert_passes(capsys, check_char_encode, encode_with_map)
    assert_passes(capsys, check_char_encode, MyCharTokenizer().encode)
    assert_passes(capsys, check_char_decode, decode_with_map)
    assert_passes(capsys, check_char_decode, MyCharTokenizer().decode)


def test_char_tokenizer_names_mistakes(capsys):
    assert_rejects(capsys, check_char_encode, encode_utf8_bytes, "UTF-8 byte values, not code points", "encode('é')")
    assert_rejects(capsys, check_char_encode, encode_lazy, "returned a map object, expected a list", "list(...)")
    assert_rejects(capsys, check_char_decode, decode_as_list, "''.join")
    assert_rejects(capsys, check_char_decode, decode_via_bytes, "UnicodeDecodeError", "chr(i)")
    result, out = report(capsys, check_char_tokenizer, encode_with_map, decode_as_list)
    assert not result and result.failed_case == 15 and out.startswith("❌ char_tokenizer: check 15 of 41 failed")
    assert "input:    decode([104, 105])" in out and "''.join" in out
    assert_rejects(
        capsys, check_char_tokenizer, TokenizerWithoutSelf, "a method needs `self` first", "def encode(self, text):"
    )
    assert_rejects(
        capsys, check_char_tokenizer, TokenizerNeedingArgs, "could not create your tokenizer", "no arguments"
    )
    assert_rejects(capsys, check_char_tokenizer, encode_with_map, "expected a tokenizer with encode and decode")


def test_char_tokenizer_stub_is_not_yet(capsys):
    result, out = report(capsys, check_char_tokenizer, StubTokenizer)
    assert result.status == "not yet" and not result
    assert out == (
        "⏳ char_tokenizer: not yet — your encode returned None. "
        "Fill in the body and run its cell, then run this check again.\n"
    )


# ---------------------------------------------------------------------------------------------
# Lesson 02: get_word_frequencies


def word_frequencies_with_counter(text):
    return Counter(tuple(word) + ("</w>",) for word in text.split())


def word_frequencies_with_regex(text):
    table = {}
    for match in re.finditer(r"\S+", text):
        spelled = (*match.group(), "</w>")
        if spelled in table:
            table[spelled] += 1
        else:
            table[spelled] = 1
    return table


def words_without_marker(text):
    freqs = {}
    for word in text.split():
        freqs[tuple(word)] = freqs.get(tuple(word), 0) + 1
    return freqs


def words_marker_as_characters(text):
    freqs = {}
    for word in text.split():
        key = tuple(word + "</w>")
        freqs[key] = freqs.get(key, 0) + 1
    return freqs


def words_split_on_space(text):
    freqs = {}
    for word in text.split(" "):
        key = tuple(word) + ("</w>",)
        freqs[key] = freqs.get(key, 0) + 1
    return freqs


def words_sorted(text):
    freqs = Counter(tuple(word) + ("</w>",) for word in text.split())
    return dict(sorted(freqs.items()))


def words_list_keys(text):
    freqs = {}
    for word in text.split():
        key = list(word) + ["</w>"]
        freqs[key] = freqs.get(key, 0) + 1
    return freqs


def words_string_keys(text):
    freqs = {}
    for word in text.split():
        freqs[word + "</w>"] = freqs.get(word + "</w>", 0) + 1
    return freqs


def words_most_common(text):
    return Counter(tuple(word) + ("</w>",) for word in text.split()).most_common()


def test_get_word_frequencies_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_get_word_frequencies, bpelab.get_word_frequencies)
    assert_passes(capsys, check_get_word_frequencies, copy_of(bpelab.get_word_frequencies))
    assert_passes(capsys, check_get_word_frequencies, word_frequencies_with_counter)
    assert_passes(capsys, check_get_word_frequencies, word_frequencies_with_regex)


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (words_without_marker, ["the end-of-word marker '</w>' is missing"]),
        (words_marker_as_characters, ["'</w>' was split into the characters", "ONE symbol"]),
        (words_split_on_space, ["text.split() (no argument)"]),
        (words_sorted, ["check 3 of", "in a different order", "first appear"]),
        (words_list_keys, ["TypeError: unhashable type: 'list'", "must be a tuple"]),
        (words_string_keys, ["not strings like 'cat</w>'"]),
        (words_most_common, ["returned a list, expected a dict", "most_common()"]),
    ],
)
def test_get_word_frequencies_names_mistakes(capsys, fn, phrases):
    assert_rejects(capsys, check_get_word_frequencies, fn, *phrases)


# ---------------------------------------------------------------------------------------------
# Lesson 03: count_pairs


def count_pairs_pairwise(word_freq):
    counts = defaultdict(int)
    for word, freq in word_freq.items():
        for pair in pairwise(word):
            counts[pair] += freq
    return counts


def count_pairs_by_index(word_freq):
    counts = {}
    for word in word_freq:
        i = 0
        while i + 1 < len(word):
            counts[word[i], word[i + 1]] = counts.get((word[i], word[i + 1]), 0) + word_freq[word]
            i += 1
    return counts


def count_pairs_stops_early(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for i in range(len(word) - 2):
            pair = (word[i], word[i + 1])
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def count_pairs_runs_past_end(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for i in range(len(word)):
            pair = (word[i], word[i + 1])
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def count_pairs_unweighted(word_freq):
    counts = {}
    for word in word_freq:
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def count_pairs_once_per_word(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for pair in set(zip(word, word[1:])):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def count_pairs_most_common(word_freq):
    counts = Counter()
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    return counts.most_common()


def count_pairs_sorted(word_freq):
    counts = Counter()
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def count_pairs_across_words(word_freq):
    symbols = [s for word in word_freq for s in word]
    counts = {}
    for pair in zip(symbols, symbols[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def count_pairs_joined_keys(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for a, b in zip(word, word[1:]):
            counts[a + b] = counts.get(a + b, 0) + freq
    return counts


def count_pairs_stub(word_freq):
    """Count every adjacent pair, weighted by the word's count."""
    # your code here
    ...


def count_pairs_two_parameters(word_freq, counts):
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def count_pairs_forgets_return(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq


def test_count_pairs_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_count_pairs, bpelab.count_pairs)
    assert_passes(capsys, check_count_pairs, copy_of(bpelab.count_pairs))
    assert_passes(capsys, check_count_pairs, count_pairs_pairwise)
    assert_passes(capsys, check_count_pairs, count_pairs_by_index)


def count_pairs_assigns(word_freq):
    # `=` where `+=` belongs: each pair keeps only the count of the last word it was seen in
    counts = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = freq
    return counts


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (
            count_pairs_stops_early,
            ["check 1 of", "your loop stops one pair early: the last pair of each word is missing"],
        ),
        (
            count_pairs_runs_past_end,
            ["IndexError: tuple index out of range (line 5 of your function)", "range(len(word) - 1)"],
        ),
        (count_pairs_unweighted, ["ignore how often each word occurs"]),
        (count_pairs_once_per_word, ["once per word", "check 3 of"]),
        (count_pairs_most_common, ["returned a list, expected a dict"]),
        (count_pairs_sorted, ["in a different order", "don't sort"]),
        (count_pairs_across_words, ["across word boundaries"]),
        (count_pairs_joined_keys, ["not joined strings like 'lo'"]),
        (count_pairs_two_parameters, ["takes 2 parameters (word_freq, counts)", "def count_pairs(word_freq):"]),
        (count_pairs_forgets_return, ["no `return` statement", "got:      None"]),
        (count_pairs_assigns, ["counts[pair] = freq", "+="]),
    ],
)
def test_count_pairs_names_mistakes(capsys, fn, phrases):
    assert_rejects(capsys, check_count_pairs, fn, *phrases)


def test_count_pairs_classic_corpus_is_the_lessons_example(capsys):
    out = assert_rejects(capsys, check_count_pairs, count_pairs_unweighted, "check 2 of 11")
    assert "each pair counts as often as its word" in out
    classic = next(c for c in EXERCISES["count_pairs"].build_cases() if "classic" in c.note)
    assert {p: classic.expected[p] for p in [("l", "o"), ("o", "w"), ("e", "s"), ("s", "t")]} == {
        ("l", "o"): 7,
        ("o", "w"): 7,
        ("e", "s"): 5,
        ("s", "t"): 5,
    }


def test_stub_is_not_yet(capsys):
    result, out = report(capsys, check_count_pairs, count_pairs_stub)
    assert result.status == "not yet" and result.failed_case == 1 and not result
    assert out == (
        "⏳ count_pairs: not yet — your function returned None. "
        "Fill in the body and run its cell, then run this check again.\n"
    )


# ---------------------------------------------------------------------------------------------
# Lesson 04: merge_symbols and merge_pair


def merge_symbols_recursive(symbols, pair):
    if len(symbols) < 2:
        return tuple(symbols)
    if (symbols[0], symbols[1]) == pair:
        return (pair[0] + pair[1],) + merge_symbols_recursive(symbols[2:], pair)
    return (symbols[0],) + merge_symbols_recursive(symbols[1:], pair)


def merge_pair_with_recursion(word_freq, pair):
    merged = {}
    for word, freq in word_freq.items():
        new = merge_symbols_recursive(word, pair)
        merged[new] = merged.get(new, 0) + freq  # two spellings may become one word
    return merged


def merge_symbols_overlapping(symbols, pair):
    out = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            out.append(pair[0] + pair[1])
            i += 1
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_symbols_for_loop(symbols, pair):
    out = []
    skip = False
    for i in range(len(symbols) - 1):
        if skip:
            skip = False
            continue
        if (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            skip = True
        else:
            out.append(symbols[i])
    return tuple(out)


def merge_symbols_string_replace(symbols, pair):
    spelled = " ".join(symbols)
    return tuple(spelled.replace(pair[0] + " " + pair[1], pair[0] + pair[1]).split())


def merge_symbols_endless(symbols, pair):
    out = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
    return tuple(out)


def merge_symbols_returns_list(symbols, pair):
    out = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def merge_symbols_right_to_left(symbols, pair):
    out = []
    i = len(symbols) - 1
    while i >= 0:
        if i >= 1 and (symbols[i - 1], symbols[i]) == pair:
            out.insert(0, pair[0] + pair[1])
            i -= 2
        else:
            out.insert(0, symbols[i])
            i -= 1
    return tuple(out)


def merge_pair_in_place(word_freq, pair):
    for word in list(word_freq):
        freq = word_freq.pop(word)
        word_freq[words.merge_symbols(word, pair)] = freq
    return word_freq


def merge_pair_drops_words(word_freq, pair):
    merged = {}
    for word, freq in word_freq.items():
        new_word = words.merge_symbols(word, pair)
        if new_word != word:
            merged[new_word] = freq
    return merged


def merge_pair_overlapping(word_freq, pair):
    return {merge_symbols_overlapping(word, pair): freq for word, freq in word_freq.items()}


def merge_pair_edits_while_looping(word_freq, pair):
    for word in word_freq:
        word_freq[words.merge_symbols(word, pair)] = word_freq.pop(word)
    return word_freq


def test_merge_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_merge_symbols, words.merge_symbols)
    assert_passes(capsys, check_merge_symbols, copy_of(words.merge_symbols))
    assert_passes(capsys, check_merge_symbols, merge_symbols_recursive)
    assert_refuses_course_function(capsys, check_merge_pair, bpelab.merge_pair)
    assert_passes(capsys, check_merge_pair, copy_of(bpelab.merge_pair))
    assert_passes(capsys, check_merge_pair, merge_pair_with_recursion)


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (
            merge_symbols_overlapping,
            ["you merged overlapping pairs", "('a', 'a', 'a') merging ('a', 'a') should give ('aa', 'a')"],
        ),
        (merge_symbols_for_loop, ["symbols went missing"]),
        (merge_symbols_string_replace, ["string replace", "check 7 of"]),
        (merge_symbols_endless, ["did not finish", "more than 2,000,000 lines", "endless loop", "i += 1"]),
        (merge_symbols_returns_list, ["returned a list, expected a tuple", "tuple(...)"]),
        (merge_symbols_right_to_left, ["right to left", "check 3 of"]),
    ],
)
def test_merge_symbols_names_mistakes(capsys, fn, phrases):
    assert_rejects(capsys, check_merge_symbols, fn, *phrases)


def _merge_symbols_variant(*, same=None, emit=None, step=2):
    """A learner's left-to-right merge with one part written wrong: the match test, the merged symbol or the jump."""
    same = same or (lambda a, b, pair: (a, b) == pair)
    emit = emit or (lambda pair: pair[0] + pair[1])

    def merge(symbols, pair):
        out, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and same(symbols[i], symbols[i + 1], pair):
                out.append(emit(pair))
                i += step
            else:
                out.append(symbols[i])
                i += 1
        return tuple(out)

    return merge


merge_symbols_joined_text = _merge_symbols_variant(same=lambda a, b, pair: a + b == pair[0] + pair[1])
LESSON_04_MERGE_MISTAKES = [
    (merge_symbols_joined_text, ["compared joined text", "('a', 'bc') is not the pair ('ab', 'c')"]),
    (_merge_symbols_variant(emit=lambda pair: pair[0] + " " + pair[1]), ["has ' ' between its two halves"]),
    (_merge_symbols_variant(emit=lambda pair: pair[0] + "+" + pair[1]), ["has '+' between its two halves"]),
    (_merge_symbols_variant(emit=lambda pair: pair[0]), ["kept only pair[0]"]),
    (_merge_symbols_variant(step=3), ["jumped 3 symbols ahead", "i += 2"]),
]


@pytest.mark.parametrize("fn, phrases", LESSON_04_MERGE_MISTAKES)
def test_merge_symbols_and_merge_pair_name_the_merge_mistake(capsys, fn, phrases):
    """Each mistake is rejected, in one word and in the whole corpus, with a hint naming it (not the overlap one)."""
    out = assert_rejects(capsys, check_merge_symbols, fn, *phrases)
    assert "overlapping" not in out and "range(len(symbols) - 1)" not in out, out
    out = assert_rejects(
        capsys, check_merge_pair, lambda word_freq, pair: {fn(w, pair): n for w, n in word_freq.items()}, *phrases
    )
    assert "overlapping" not in out and "words without the pair" not in out, out


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (
            merge_pair_in_place,
            ["(right)", "changed its input: word_freq is now {('ab', 'c', '</w>'): 1}", "leave what you were given"],
        ),
        (merge_pair_drops_words, ["words without the pair are missing", "check 4 of"]),
        (merge_pair_overlapping, ["you merged overlapping pairs", "check 1 of"]),
        (
            merge_pair_edits_while_looping,
            ["RuntimeError: dictionary keys changed during iteration", "changed the dict while looping"],
        ),
    ],
)
def test_merge_pair_names_mistakes(capsys, fn, phrases):
    assert_rejects(capsys, check_merge_pair, fn, *phrases)


# ---------------------------------------------------------------------------------------------
# Lesson 04: the training loop


def train_with_strings(text, num_merges):
    # words as space-separated symbols; a merge is a regex replace on whole symbols
    vocab = {}
    for word in text.split():
        spelled = " ".join(word) + " </w>"
        vocab[spelled] = vocab.get(spelled, 0) + 1
    merges = []
    for _ in range(num_merges):
        pairs = {}
        for spelled, freq in vocab.items():
            symbols = spelled.split()
            for a, b in zip(symbols, symbols[1:]):
                pairs[a, b] = pairs.get((a, b), 0) + freq
        if not pairs:
            break
        best = max(pairs, key=pairs.get)
        pattern = re.compile(r"(?<!\S)" + re.escape(best[0] + " " + best[1]) + r"(?!\S)")
        vocab = {pattern.sub(best[0] + best[1], spelled): freq for spelled, freq in vocab.items()}
        merges.append((best, best[0] + best[1]))
    return merges


def _train(
    text,
    num_merges,
    *,
    pick=None,
    marker=("</w>",),
    stop=True,
    weight=True,
    recount=True,
    extra=0,
    pairs_only=False,
    keep=True,
    min_count=1,
):
    """A learner's training loop with one knob turned the wrong way (each wrong answer below names its knob)."""
    word_freq = {}
    for word in text.split():
        key = tuple(word) + marker
        word_freq[key] = word_freq.get(key, 0) + 1
    if not weight:
        word_freq = dict.fromkeys(word_freq, 1)
    merges = []
    counts = words.count_pairs(word_freq)
    for _ in range(num_merges + extra):
        if recount:
            counts = words.count_pairs(word_freq)
        if stop and not counts:
            break
        pair = (pick or (lambda c: max(c, key=c.get)))(counts)
        if counts[pair] < min_count:
            break
        if not recount:
            del counts[pair]
        merges.append(pair if pairs_only else (pair, pair[0] + pair[1]))
        if keep:
            word_freq = words.merge_pair(word_freq, pair)
        else:
            words.merge_pair(word_freq, pair)  # the result is thrown away: word_freq never changes
    return merges


def train_lexicographic_ties(text, num_merges):
    return _train(text, num_merges, pick=lambda counts: min(counts, key=lambda p: (-counts[p], p)))


def train_counts_once(text, num_merges):
    return _train(text, num_merges, recount=False)


def train_without_marker(text, num_merges):
    return _train(text, num_merges, marker=())


def train_never_stops(text, num_merges):
    return _train(text, num_merges, stop=False)


def train_records_pairs(text, num_merges):
    return _train(text, num_merges, pairs_only=True)


def train_on_distinct_words(text, num_merges):
    return _train(text, num_merges, weight=False)


def train_split_on_one_space(text, num_merges):
    word_freq = {}
    for word in text.split(" "):
        key = tuple(word) + ("</w>",)
        word_freq[key] = word_freq.get(key, 0) + 1
    merges = []
    for _ in range(num_merges):
        counts = words.count_pairs(word_freq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append((pair, pair[0] + pair[1]))
        word_freq = words.merge_pair(word_freq, pair)
    return merges


def train_one_too_many(text, num_merges):
    merges = []
    word_freq = words.get_word_frequencies(text)
    for _ in range(num_merges + 1):
        counts = words.count_pairs(word_freq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append((pair, pair[0] + pair[1]))
        word_freq = words.merge_pair(word_freq, pair)
    return merges


def test_training_loop_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_training_loop, lambda text, n: bpelab.train_bpe(text, n).merges)
    assert_passes(capsys, check_training_loop, copy_of(reference_train))
    assert_passes(capsys, check_training_loop, train_with_strings)
    assert_passes(capsys, check_training_loop, _train)


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (train_lexicographic_ties, ["alphabetically smallest pair", "check 1 of"]),
        (train_counts_once, ["counted the pairs only once"]),
        (train_without_marker, ["'</w>'"]),
        (train_never_stops, ["ValueError", "no pairs left to merge"]),
        (train_records_pairs, ["you returned only the pairs"]),
        (train_on_distinct_words, ["ignore how often each word occurs"]),
        (train_one_too_many, ["one merge too many"]),
        (lambda text, n: _train(text, n, keep=False), ["merge_pair returns a new dict", "word_freq = merge_pair("]),
        (lambda text, n: _train(text, n, min_count=2), ["stopped when the best pair occurs only once"]),
        (lambda text, n: _train(text, n, pick=max), ["max(counts) compares the pairs themselves", "counts.get"]),
        (train_split_on_one_space, ["text.split(' ')", "any run of whitespace"]),
    ],
)
def test_training_loop_names_mistakes(capsys, fn, phrases):
    out = assert_rejects(capsys, check_training_loop, fn, *phrases)
    if fn is not train_without_marker:
        assert "none of your merges involves" not in out, out


def test_passing_a_result_instead_of_the_function_is_explained(capsys):
    assert_rejects(
        capsys,
        check_training_loop,
        train_with_strings("low low", 1),
        "but got a list",
        "check_training_loop(train), not check_training_loop(train(...))",
    )


# ---------------------------------------------------------------------------------------------
# Lesson 05: encode_word


def encode_word_by_rank(word, merges):
    # tiktoken's way: repeatedly merge the adjacent pair learned earliest, leftmost first
    rank = {pair: r for r, (pair, _) in enumerate(merges)}
    symbols = [*word, "</w>"]
    while True:
        ranked = [(rank[p], i) for i, p in enumerate(zip(symbols, symbols[1:])) if p in rank]
        if not ranked:
            return symbols
        _, i = min(ranked)
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]


def replay(symbols, pair, new):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def encode_word_reversed(word, merges):
    symbols = list(word) + ["</w>"]
    for pair, new in reversed(merges):
        symbols = replay(symbols, pair, new)
    return symbols


def encode_word_no_marker(word, merges):
    symbols = list(word)
    for pair, new in merges:
        symbols = replay(symbols, pair, new)
    return symbols


def encode_word_bad_unpacking(word, merges):
    symbols = list(word) + ["</w>"]
    for a, b in merges:
        i = 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [a + b]
            i += 1
    return symbols


def encode_word_result_thrown_away(word, merges):
    symbols = (*word, "</w>")
    for pair, _new in merges:
        words.merge_symbols(symbols, pair)  # returns the merged tuple, which is dropped here
    return list(symbols)


def encode_word_joined(word, merges):
    symbols = list(word) + ["</w>"]
    for pair, new in merges:
        symbols = replay(symbols, pair, new)
    return "".join(symbols)


def encode_word_early_return(word, merges):
    symbols = list(word) + ["</w>"]
    for pair, new in merges:
        symbols = replay(symbols, pair, new)
        return symbols
    return symbols


def encode_word_tuple(word, merges):
    symbols = tuple(word) + ("</w>",)
    for pair, _ in merges:
        symbols = words.merge_symbols(symbols, pair)
    return symbols


def encode_word_marker_as_characters(word, merges):
    symbols = list(word + "</w>")  # four symbols '<', '/', 'w', '>' instead of one
    for pair, new in merges:
        symbols = replay(symbols, pair, new)
    return symbols


def encode_word_by_string_replace(word, merges):
    spelled = " ".join(word) + " </w>"
    for (a, b), new in merges:
        spelled = spelled.replace(f"{a} {b}", new)  # also matches inside a longer symbol: 'a bc' holds 'a b'
    return spelled.split()


def encode_word_by_length(word, merges):
    # the merges sorted by how long the new symbol is: short ones first, as if they were simpler
    symbols = tuple(word) + ("</w>",)
    for pair, _ in sorted(merges, key=lambda m: len(m[1])):
        symbols = words.merge_symbols(symbols, pair)
    return list(symbols)


def encode_word_longest_first(word, merges):
    # the merges sorted longest new symbol first, as if the long ones mattered most
    symbols = tuple(word) + ("</w>",)
    for pair, _ in sorted(merges, key=lambda m: len(m[1]), reverse=True):
        symbols = words.merge_symbols(symbols, pair)
    return list(symbols)


def encode_word_empty_guard(word, merges):
    if not word:  # "nothing to encode"; but the empty word still ends, with its marker
        return []
    symbols = tuple(word) + ("</w>",)
    for pair, _ in merges:
        symbols = words.merge_symbols(symbols, pair)
    return list(symbols)


def encode_word_until_stable(word, merges):
    # the whole merge list replayed again and again until the word stops changing
    symbols = [*word, "</w>"]
    while True:
        before = symbols
        for pair, new in merges:
            symbols = replay(symbols, pair, new)
        if symbols == before:
            return symbols


def encode_word_written_out(word, merges):
    # independent of the package: each merge in order, everywhere, left to right, by index
    symbols = [*word, "</w>"]
    for (a, b), new in merges:
        i = 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [new]
            i += 1
    return symbols


def test_encode_word_accepts_reference_and_independent(capsys):
    assert_refuses_course_function(capsys, check_encode_word, bpelab.encode_word)
    assert_passes(capsys, check_encode_word, copy_of(bpelab.encode_word))
    assert_passes(capsys, check_encode_word, encode_word_written_out)


def test_encode_word_in_order_differs_from_lowest_rank_and_from_until_stable():
    """Lesson 05 section 3's reversed list: in order, 'lower' stays cut (a merge whose parts a later merge builds
    never applies); merging by lowest rank, or replaying until nothing changes, builds it anyway. Worked by hand:
    ('ab', 'c') comes before ('a', 'b'), so when it is tried there is no 'ab' yet."""
    merges = [(("ab", "c"), "abc"), (("a", "b"), "ab")]
    assert encode_word_written_out("abc", merges) == ["ab", "c", "</w>"]
    assert encode_word_by_rank("abc", merges) == encode_word_until_stable("abc", merges) == ["abc", "</w>"]


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (encode_word_by_rank, ["encode_word('abc',", "expected: ['ab', 'c', '</w>']", "lowest rank", "once, in order"]),
        (encode_word_until_stable, ["encode_word('abc',", "again and again", "once, in order"]),
    ],
)
def test_encode_word_that_builds_parts_later_is_rejected_and_named(capsys, fn, phrases):
    assert_rejects(capsys, check_encode_word, fn, *phrases)


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (encode_word_reversed, ["you replayed the merges in the wrong order"]),
        (encode_word_no_marker, ["the end-of-word marker '</w>' is missing"]),
        (encode_word_bad_unpacking, ["none of the merges was applied", "for (a, b), new in merges:"]),
        (
            encode_word_result_thrown_away,
            ["none of the merges was applied", "symbols = merge_symbols(symbols, (a, b))"],
        ),
        (encode_word_joined, ["not the text joined together"]),
        (encode_word_early_return, ["only the first merge was applied", "`return`"]),
        (encode_word_tuple, ["returned a tuple, expected a list", "list(...)"]),
        (encode_word_marker_as_characters, ["must be ONE symbol", "not list(word + '</w>')"]),
        (encode_word_by_string_replace, ["string replace", "compare whole symbols"]),
        (encode_word_by_length, ["encode_word('20',", "expected: ['2', '0</w>']", "sorted by the length"]),
        (encode_word_longest_first, ["encode_word('low',", "sorted by the length"]),
        (encode_word_empty_guard, ["encode_word('',", "the empty word", "return [] for an empty word"]),
    ],
)
def test_encode_word_names_mistakes(capsys, fn, phrases):
    assert_rejects(capsys, check_encode_word, fn, *phrases)


# ---------------------------------------------------------------------------------------------
# The engine: never raises, stable output, the notebook display


def raises_key_error(*args):
    table = {}
    return table["missing"]


def recurses_forever(*args):
    return recurses_forever(*args)


def yields_pairs(word_freq):
    for word in word_freq:
        yield from zip(word, word[1:])


def returns_ellipsis(*args):
    return ...


def not_implemented(*args):
    raise NotImplementedError


def raises_with_address(*args):
    raise ValueError(f"bad {object()!r}")


class StopEverything(BaseException):
    """A learner's own BaseException: still the learner's error, reported like any other."""


def raises_base_exception(*args):
    raise StopEverything("done")


def raises_generator_exit(*args):
    raise GeneratorExit


class Weird:
    def __eq__(self, other):
        raise RuntimeError("no comparing")

    def __repr__(self):
        raise RuntimeError("no repr")

    __hash__ = object.__hash__


HOSTILE = [
    None,
    42,
    "count_pairs",
    lambda: None,
    lambda *args: 1 / 0,
    lambda *args, **kwargs: Weird(),
    lambda *args: object(),
    lambda *args: {i: i for i in range(1000)},
    lambda *args: exit(3),
    raises_key_error,
    recurses_forever,
    returns_ellipsis,
    not_implemented,
    raises_with_address,
    raises_base_exception,
    raises_generator_exit,
    len,
]


@pytest.mark.parametrize("checker", ALL_CHECKERS, ids=lambda c: c.__name__)
def test_checkers_never_raise_and_print_one_report(capsys, checker):
    for fn in HOSTILE:
        result, out = report(capsys, checker, fn)
        assert isinstance(result, CheckResult) and not result
        assert out.startswith(("❌", "⏳")), out


def test_errors_are_reported_with_type_message_and_line(capsys):
    assert_rejects(capsys, check_count_pairs, raises_base_exception, "raised StopEverything: done")
    assert_rejects(
        capsys,
        check_count_pairs,
        raises_key_error,
        "raised KeyError: 'missing' (line 3 of your function)",
        "input:    count_pairs({('a', 'b', '</w>'): 1})",
    )
    assert_rejects(
        capsys,
        check_count_pairs,
        recurses_forever,
        "RecursionError: maximum recursion depth exceeded",
        "keeps calling itself",
    )
    assert_rejects(capsys, check_count_pairs, yields_pairs, "returned a generator", "`yield`")
    assert_rejects(capsys, check_count_pairs, raises_with_address, "raised ValueError: bad <object object>")
    assert_rejects(capsys, check_count_pairs, 42, "expected your function, but got an int, 42")


def test_unfinished_stubs_are_not_yet(capsys):
    for fn, what in [(returns_ellipsis, "returned ... (Ellipsis)"), (not_implemented, "raises NotImplementedError")]:
        result, out = report(capsys, check_count_pairs, fn)
        assert result.status == "not yet" and out.startswith("⏳ count_pairs: not yet") and what in out


def test_keyboard_interrupt_still_stops_a_check():
    def interrupted(word_freq):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check_count_pairs(interrupted)


def test_reports_are_deterministic(capsys):
    for checker, fn in [
        (check_count_pairs, count_pairs_sorted),
        (check_count_pairs, count_pairs_once_per_word),
        (check_training_loop, train_on_distinct_words),
        (check_count_pairs, raises_with_address),
    ]:
        first = report(capsys, checker, fn)
        assert report(capsys, checker, fn) == first


def test_result_repr_is_stable_and_shows_nothing_in_a_notebook(capsys):
    passed = check_count_pairs(count_pairs_pairwise)
    failed = check_count_pairs(count_pairs_once_per_word)
    capsys.readouterr()
    assert repr(passed) == "CheckResult(passed=True, name='count_pairs', failed_case=None)"
    assert repr(failed) == "CheckResult(passed=False, name='count_pairs', failed_case=3)"
    assert failed.message.startswith("❌ count_pairs: check 3 of 11 failed")
    from IPython.core.formatters import DisplayFormatter

    assert DisplayFormatter().format(failed) == ({}, {})  # ends a cell without an Out[] line


MY_EXERCISES = [
    "byte_count",
    "char_encode",
    "char_decode",
    "char_round_trip",
    "get_word_frequencies",
    "count_pairs",
    "merge_symbols",
    "merge_pair",
    "train",
    "encode_word",
]


def test_every_hand_written_answer_agrees_with_the_reference():
    checked = 0
    for name in MY_EXERCISES:
        exercise = EXERCISES[name]
        cases = exercise.cases() if callable(exercise.cases) else exercise.cases
        for case in cases:
            if case.expected is not COMPUTED:
                assert exercise.reference(*case.args) == case.expected, (exercise.name, case.note)
                checked += 1
    assert checked >= 60


def test_cases_are_tuples_of_arguments():
    with pytest.raises(TypeError, match="note the comma|tuple of arguments"):
        Case("cat cat dog")


def test_the_documented_example_of_a_new_checker_works(capsys):
    from bpelab.exercises import core

    block = []
    for line in core.__doc__.split("::\n\n", 1)[1].splitlines():
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    example = "\n".join(block).strip()
    assert len(example.splitlines()) == 10
    namespace: dict = {}
    registered = dict(EXERCISES)  # the example registers its own "decode_words" over the course's
    exec(example, namespace)
    try:
        assert namespace["check_decode_words"](copy_of(words.decode_words))
        assert not namespace["check_decode_words"](lambda symbols: "".join(symbols))
        out = capsys.readouterr().out
        assert out.startswith("✅ decode_words: all 2 checks passed.\n❌ decode_words: check 1 of 2 failed")
        assert "the marker '</w>' is still there: turn it into a space" in out
    finally:
        EXERCISES.clear()
        EXERCISES.update(registered)


def test_a_bug_in_a_checker_is_reported_not_raised(capsys):
    def broken_reference(text):
        raise RuntimeError("reference exploded")

    exercise = Exercise(name="broken_demo", call="broken(text)", reference=broken_reference, cases=[Case(("x",))])
    try:
        result = exercise.check(lambda text: text)
    finally:
        del EXERCISES["broken_demo"]
    out = capsys.readouterr().out
    assert result.status == "checker error" and "the checker itself failed" in out and "bug in bpelab" in out


def test_show_solution_prints_the_reference_source(capsys):
    show_solution("count_pairs")
    out = capsys.readouterr().out
    assert "# from bpelab.words\ndef count_pairs(word_freq" in out
    show_solution("training_loop")
    assert "def learn_merges(" in capsys.readouterr().out
    with pytest.raises(ValueError, match="choose one of"):
        show_solution("count_pears")


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_every_printed_solution_runs_when_pasted_into_a_fresh_namespace(name, capsys):
    """Lesson 15 says a printed solution, pasted, runs as it is; gini's named ``Iterable`` in its annotation and
    raised NameError at its ``def`` (fresh read 13): the imports it needs are printed above it."""
    show_solution(name)
    printed = capsys.readouterr().out
    exec(compile(printed, f"<pasted {name}>", "exec"), {"__name__": "pasted"})  # the course's own printed text


def test_the_checkers_own_tokenizers_get_the_size_they_ask_for():
    """A checker that trains a small tokenizer for its cases must not ask for more than its text gives: the
    warning would land in the learner's notebook, and a note such as "60 merges" would be false."""
    import warnings

    from bpelab.byte_level import TrainingStoppedEarly
    from bpelab.exercises import speed

    speed._sample_merges.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", TrainingStoppedEarly)
        for exercise in EXERCISES.values():
            exercise.build_cases()


# ---- the engine: lines inside bpelab are not the learner's; objects without == are still watched ------------


def test_lines_run_inside_bpelab_are_not_counted_but_the_learners_are():
    from bpelab.exercises.runaway import Runaway, call_guarded

    text = "a b " * 3_000  # get_word_frequencies runs about 12,000 lines of bpelab on it
    assert call_guarded(words.get_word_frequencies, (text,), max_steps=1_000) == {
        ("a", "</w>"): 3_000,
        ("b", "</w>"): 3_000,
    }

    def counting():  # about 4,000 lines of the learner's own
        n = 0
        for _ in range(2_000):
            n += 1
        return n

    with pytest.raises(Runaway):
        call_guarded(counting, (), max_steps=1_000)

    def spell(pair):  # a learner's callback that bpelab calls: its lines are counted again
        for _ in range(2_000):
            pass
        return pair[0] + pair[1]

    corpus = {("a", "b", "</w>"): 2}
    with pytest.raises(Runaway):
        call_guarded(lambda: list(words.learn_merges(corpus, 1, new_symbol=spell)), (), max_steps=1_000)


class _Box:
    """An object without value equality, like a BPETokenizer: two copies never compare equal."""

    def __init__(self) -> None:
        self.items = {1: b"a", 2: b"b"}
        self._cache: dict[str, int] = {}


def test_an_argument_without_equality_that_was_changed_is_found():
    import copy

    from bpelab.exercises.comparing import changed_argument

    before = _Box()
    after = copy.deepcopy(before)
    after._cache["seen"] = 1  # a cache the object fills for itself: no change the caller sees
    assert changed_argument((after, "text"), (before, "text")) is None
    del after.items[1]
    assert changed_argument((after, "text"), (before, "text")) == 0


# ---- fresh-eyes review of lessons 02 and 08: get_word_frequencies ------------------------------------------------


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (
            lambda text: dict(Counter((*w[:-1], w[-1] + "</w>") for w in text.split())),
            "you glued '</w>' to the last character",
        ),
        (
            lambda text: dict(Counter((*w, "</w>") for w in regex.findall(r"\S+", text))),
            "you split on the regex module's \\s (regex.split(r'\\s+', …) or regex.findall(r'\\S+', …))",
        ),
        (
            lambda text: dict(Counter((*w, "</w>") for w in regex.findall(r"\w+|[^\w\s]+", text))),
            "you split punctuation off the words",
        ),
    ],
    ids=["marker glued (subword-nmt)", "regex \\S+", "regex split first"],
)
def test_get_word_frequencies_mistakes_of_the_review_are_named(capsys, wrong, hint):
    from bpelab.exercises import check_get_word_frequencies

    assert not check_get_word_frequencies(wrong, record=False).passed
    out = capsys.readouterr().out
    assert hint in out, out
    assert "marker '</w>' is missing" not in out and "some words are empty" not in out
