"""Lessons 08 and 11, tenth fresh read (fixR): wrong answers their checkers accepted, and a hint that named another
bug. Each wrong answer is the reviewer's; each right one is the lesson's shown solution."""

from __future__ import annotations

import pytest

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.exercises.compression import (
    check_bytes_per_token,
    check_count_unused,
    check_smallest_vocab_size,
)
from bpelab.exercises.samples import PARAGRAPH, made_up_words
from bpelab.words import count_pairs
from tests.shown_solutions import shown_solution

bytes_per_token = shown_solution("08", "685f61b7", "bytes_per_token")
count_unused = shown_solution("08", "f1bf594d", "count_unused")
my_smallest_vocab_size = shown_solution("08", "b1601561", "my_smallest_vocab_size", bytes_per_token=bytes_per_token)
best_wordpiece_pair = shown_solution("11", "10c48b97", "best_wordpiece_pair", count_pairs=count_pairs)
encode_wordpiece_word = shown_solution("11", "fa80ff2b", "encode_wordpiece_word")


def _hint(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   hint:"))


# ---- lesson 08, exercise 1: bytes_per_token --------------------------------------------------------------


def test_the_lesson_s_bytes_per_token_passes():
    assert check_bytes_per_token(bytes_per_token, record=False).passed


@pytest.mark.parametrize("n", [10_000, 20_000, 50_000])
def test_a_measure_of_the_first_n_characters_fails_and_is_named(n, capsys):
    def only_the_start(tokenizer, text):
        return len(text[:n].encode()) / len(tokenizer.encode(text[:n]))

    assert not check_bytes_per_token(only_the_start, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert f"text[:{n}]" in hint, hint


@pytest.mark.parametrize("digits", [9, 10, 12, 14])
def test_a_ratio_rounded_to_9_decimals_or_more_fails_and_is_named(digits, capsys):
    def rounded(tokenizer, text):
        return round(len(text.encode("utf-8")) / len(tokenizer.encode(text)), digits)

    assert not check_bytes_per_token(rounded, record=False).passed
    out = capsys.readouterr().out
    assert "rounded" in out and "exact ratio" in out, out


@pytest.mark.parametrize(
    "other_way",
    [
        lambda t, s: 1 / (len(t.encode(s)) / len(s.encode("utf-8"))),
        lambda t, s: len(s.encode("utf-8")) * (1 / len(t.encode(s))),
        lambda t, s: len(s.encode()) / len(list(t.encode(s))),
    ],
)
def test_the_same_division_written_another_way_still_passes(other_way):
    assert check_bytes_per_token(other_way, record=False).passed


def test_a_text_normalized_before_counting_bytes_is_not_called_rounded(capsys):
    """Finding 8: bytes of the NFC text over the tokens of the text as given: 1.0 on 'abe\\u0301', not 1.25 rounded."""
    import unicodedata

    def nfc_bytes(tokenizer, text):
        return len(unicodedata.normalize("NFC", text).encode("utf-8")) / len(tokenizer.encode(text))

    assert not check_bytes_per_token(nfc_bytes, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "rounded" not in hint, hint


# ---- lesson 08, exercise 2: count_unused ----------------------------------------------------------------


def test_the_lesson_s_count_unused_passes():
    assert check_count_unused(count_unused, record=False).passed


@pytest.mark.parametrize("n", [500, 1000, 5000, 10_000, 50_000])
def test_a_count_of_the_first_n_characters_fails_and_is_named(n, capsys):
    def only_the_start(tokenizer, text):
        return len(set(tokenizer.vocab) - set(tokenizer.encode(text[:n])))

    assert not check_count_unused(only_the_start, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "only the start" in hint and (f"text[:{n}]" in hint or f"{n:,}" in hint), hint


# ---- lesson 08, exercise 3: the search --------------------------------------------------------------------


def _english_bpe() -> BPETokenizer:
    """127 sizes: the paragraph and 150 made-up words, trained until no pair occurs twice (126 merges)."""
    return BPETokenizer().train(PARAGRAPH + made_up_words(), 382, pattern="cl100k")


def _the_sizes_line(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   problem:"))


def test_a_search_by_steps_then_halving_is_told_how_it_stepped(capsys):
    """Finding 7: a right search, by steps (of 100 in the review; of 2 on this tokenizer of 127 sizes) then halving,
    stopped at the limit: the report says how many sizes it measured and how it stepped, not "one by one"."""

    def by_steps(tokenizer, text, goal):
        largest = 256 + len(tokenizer.merges)
        high = 256
        while bytes_per_token(tokenizer.truncated(high), text) < goal and high < largest:
            high = min(high + 2, largest)
        low = max(256, high - 2)
        while low < high:
            middle = (low + high) // 2
            if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    tokenizer = _english_bpe()
    check_smallest_vocab_size(by_steps, tokenizer, PARAGRAPH, production="cl100k_base", within=0.0)
    out = capsys.readouterr().out
    said = _the_sizes_line(out) + _hint(out)
    assert "one by one" not in said and "steps of 2 going up" in said and "61 measurements" in said, out


def test_a_search_one_by_one_is_told_so(capsys):
    def one_by_one(tokenizer, text, goal):
        largest = 256 + len(tokenizer.merges)
        size = 256
        while size < largest and bytes_per_token(tokenizer.truncated(size), text) < goal:
            size += 1
        return size

    check_smallest_vocab_size(one_by_one, _english_bpe(), PARAGRAPH, production="cl100k_base", within=0.0)
    out = capsys.readouterr().out
    assert "one by one, going up" in _the_sizes_line(out), out


_MEASURED: dict = {}


def test_a_search_keyed_by_the_tokenizer_s_id_fails_and_is_named(capsys):
    """Finding 6: measurements kept in a global dict keyed by (id(tokenizer), size, text): stale after the same
    tokenizer object is trained again in place."""

    def remembering(tokenizer, text, goal):
        def measure(size):
            key = (id(tokenizer), size, text)
            if key not in _MEASURED:
                _MEASURED[key] = bytes_per_token(tokenizer.truncated(size), text)
            return _MEASURED[key]

        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if measure(middle) >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    check_smallest_vocab_size(remembering, _english_bpe(), PARAGRAPH, production="cl100k_base", within=0.1)
    out = capsys.readouterr().out
    assert "trained again, in place" in out and "id(tokenizer)" in _hint(out), out


# ---- lesson 11, exercise 1: best_wordpiece_pair -----------------------------------------------------------


def test_the_lesson_s_best_wordpiece_pair_passes():
    assert check_best_wordpiece_pair(best_wordpiece_pair, record=False).passed


def _singles_and_pairs(word_freq):
    singles = {}
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
    return singles, count_pairs(word_freq)


@pytest.mark.parametrize("k", [72, 80, 89, 150])
def test_scores_times_a_large_power_of_ten_cut_with_floor_division_fail(k, capsys):
    def scaled(word_freq):
        singles, pairs = _singles_and_pairs(word_freq)
        scores = {(a, b): n * 10**k // (singles[a] * singles[b]) for (a, b), n in pairs.items()}
        return max(scores, key=scores.get)

    assert not check_best_wordpiece_pair(scaled, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "//" in hint and "larger" in hint, hint


@pytest.mark.parametrize("precision", [37, 50, 100])
def test_decimal_scores_of_any_fixed_precision_fail(precision, capsys):
    def decimal_scores(word_freq):
        from decimal import Decimal, localcontext

        singles, pairs = _singles_and_pairs(word_freq)
        with localcontext() as context:
            context.prec = precision
            scores = {(a, b): Decimal(n) / (Decimal(singles[a]) * Decimal(singles[b])) for (a, b), n in pairs.items()}
        return max(scores, key=scores.get)

    assert not check_best_wordpiece_pair(decimal_scores, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "Decimal" in hint and "precision" in hint, hint


# ---- lesson 11, exercise 2: encode_wordpiece_word ---------------------------------------------------------


def test_the_lesson_s_encode_wordpiece_word_passes():
    assert check_encode_wordpiece_word(encode_wordpiece_word, record=False).passed


def test_an_encoder_that_tries_the_empty_piece_fails_and_is_named(capsys):
    def tries_the_empty_piece(word, vocab):
        pieces = []
        start = 0
        while start < len(word):
            prefix = "##" if start > 0 else ""
            for end in range(len(word), start - 1, -1):
                if prefix + word[start:end] in vocab:
                    pieces.append(prefix + word[start:end])
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces

    assert not check_encode_wordpiece_word(tries_the_empty_piece, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "empty piece" in hint and "start + 1" in hint, hint


def test_the_lesson_s_search_passes():
    tokenizer = _english_bpe()
    assert check_smallest_vocab_size(
        my_smallest_vocab_size, tokenizer, PARAGRAPH, production="cl100k_base", within=0.6
    ).passed
