"""Lesson 08, thirteenth fresh read (fixZ): wrong answers its checkers accepted (a search that measures only the
start of the text, a bytes_per_token and a count_unused that encode the text in pieces of their own, a cache keyed
by id(tokenizer.merges)), a garbled hint, and a rounding the checker let through. Each wrong answer is the
reviewer's; each right one is the lesson's shown solution."""

from __future__ import annotations

import re
import statistics
from fractions import Fraction

import numpy as np
import pytest

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.compression import (
    check_bytes_per_token,
    check_count_unused,
    check_smallest_vocab_size,
)
from bpelab.exercises.samples import PARAGRAPH, made_up_words
from tests.shown_solutions import shown_solution

bytes_per_token = shown_solution("08", "685f61b7", "bytes_per_token")
count_unused = shown_solution("08", "f1bf594d", "count_unused")


def _search(helper):
    return shown_solution("08", "b1601561", "my_smallest_vocab_size", bytes_per_token=helper)


def _hint(out: str) -> str:
    return " ".join(line for line in out.splitlines() if line.startswith("   hint:"))


def _small_english_bpe() -> BPETokenizer:
    """127 sizes: the paragraph and 150 made-up words, trained until no pair occurs twice."""
    return BPETokenizer().train(PARAGRAPH + made_up_words(), 382, pattern="cl100k")


def _check_search(search, capsys) -> tuple[bool, str]:
    passed = check_smallest_vocab_size(
        search, _small_english_bpe(), PARAGRAPH, production="cl100k_base", within=0.6, record=False
    ).passed
    return passed, capsys.readouterr().out


# ---- finding 1: a search that measures only the start of the text ------------------------------------------------


def test_the_lesson_s_search_passes(capsys):
    passed, out = _check_search(_search(bytes_per_token), capsys)
    assert passed, out


@pytest.mark.parametrize("n", [35_000, 50_000, 100_000])
def test_a_search_on_the_first_n_characters_fails_and_is_named(n, capsys):
    namespace = {"bytes_per_token": bytes_per_token, "N": n}
    exec(
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    sample = text[:N]\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if bytes_per_token(tokenizer.truncated(middle), sample) >= goal:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    passed, out = _check_search(namespace["my_smallest_vocab_size"], capsys)
    assert not passed, out
    assert "text[:n]" in _hint(out), out


# ---- finding 2: bytes_per_token on whitespace-led chunks -------------------------------------------------------------


def chunked_bytes_per_token(tokenizer, text):
    ids = []
    for chunk in re.findall(r"\s*\S+|\s+", text):
        ids += tokenizer.encode(chunk)
    return len(text.encode("utf-8")) / len(ids)


def test_the_lesson_s_bytes_per_token_passes():
    assert check_bytes_per_token(bytes_per_token, record=False).passed


def test_a_bytes_per_token_on_chunks_of_its_own_fails_and_is_named(capsys):
    assert not check_bytes_per_token(chunked_bytes_per_token, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "encoding the text in pieces of your own changes where tokens can form: encode the whole text" in hint, hint


def test_the_loop_between_exercises_3_and_1_is_closed(capsys):
    """Exercise 3, on the lesson's code_bpe and code with GPT-4's goal, sends a correct search calling the chunked
    function back to exercise 1 ("Fix exercise 1"), which now refuses it: no loop."""
    from bpelab.exercises.compression import _code_bpe, _lesson_code

    passed = check_smallest_vocab_size(
        _search(chunked_bytes_per_token), _code_bpe(), _lesson_code(), production="cl100k_base", record=False
    ).passed
    out = capsys.readouterr().out
    assert not passed, out
    assert "Fix exercise 1" in _hint(out), out
    assert not check_bytes_per_token(chunked_bytes_per_token, record=False).passed
    assert "pieces of your own" in _hint(capsys.readouterr().out)


# ---- finding 3: a cache keyed by id(tokenizer.merges) ------------------------------------------------------------------


def _keyed_by_the_merges_id():
    cache = {}

    def bytes_per_token(tokenizer, text):
        key = (text, id(tokenizer.merges))
        if key not in cache:
            cache[key] = len(text.encode("utf-8")) / len(tokenizer.encode(text))
        return cache[key]

    return bytes_per_token


def test_a_cache_keyed_by_the_id_of_the_merges_fails_and_is_named(capsys):
    assert not check_bytes_per_token(_keyed_by_the_merges_id(), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "remember its results between calls" in hint and "id(" in hint, hint


def test_the_search_s_hint_on_a_shared_cache_is_not_garbled(capsys):
    helper = _keyed_by_the_merges_id()
    passed, out = _check_search(_search(helper), capsys)
    assert not passed, out
    assert "with no tokenizer alone" not in out, out


def test_a_search_keeping_a_dict_keyed_by_the_size_is_told_plainly(capsys):
    namespace = {"bytes_per_token": bytes_per_token, "KEPT": {}}
    exec(
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if middle not in KEPT:\n"
        "            KEPT[middle] = bytes_per_token(tokenizer.truncated(middle), text)\n"
        "        if KEPT[middle] >= goal:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    passed, out = _check_search(namespace["my_smallest_vocab_size"], capsys)
    assert not passed, out
    hint = _hint(out)
    assert "`KEPT`" in hint and "keyed by the size alone, not by the tokenizer itself" in hint, hint


def test_what_a_key_holds_reads_as_a_sentence():
    from bpelab.exercises.compression import _what_a_key_holds

    assert _what_a_key_holds({("text", 4242): 1.5}) == "numbers and the text, not by the tokenizer itself"
    assert _what_a_key_holds({(300, 1.5): 1.5}) == "numbers alone, not by the tokenizer itself"


# ---- finding 4: count_unused on chunks of its own -----------------------------------------------------------------------


def chunked_count_unused(tokenizer, text):
    used = set()
    for chunk in re.findall(r"\s*\S+|\s+", text):
        used |= set(tokenizer.encode(chunk))
    return len(set(tokenizer.vocab) - used)


def paragraphs_count_unused(tokenizer, text):
    used = set()
    for part in text.split("\n\n"):
        used |= set(tokenizer.encode(part))
    return len(set(tokenizer.vocab) - used)


def test_the_lesson_s_count_unused_passes():
    assert check_count_unused(count_unused, record=False).passed


@pytest.mark.parametrize("wrong", [chunked_count_unused, paragraphs_count_unused])
def test_a_count_unused_on_pieces_of_its_own_fails_and_is_named(wrong, capsys):
    assert not check_count_unused(wrong, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "pieces of your own" in hint and "encode the whole text" in hint, hint


# ---- finding 5: the ratio, exactly ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rounding",
    [lambda x: round(x, 15), lambda x: float(f"{x:.16g}"), lambda x: float(f"{x:.15g}")],
    ids=["round(x, 15)", "16 significant digits", "15 significant digits"],
)
def test_a_ratio_rounded_to_15_decimals_or_16_digits_fails(rounding, capsys):
    def rounded(tokenizer, text):
        return rounding(len(text.encode("utf-8")) / len(tokenizer.encode(text)))

    assert not check_bytes_per_token(rounded, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "exact ratio" in hint, hint


def test_round_16_never_changes_a_ratio_of_one_or_more_and_passes():
    """A float of 1 or more is a multiple of 2**-52 or coarser, more than 1e-16 apart: round(x, 16) gives x back."""

    def rounded(tokenizer, text):
        return round(len(text.encode("utf-8")) / len(tokenizer.encode(text)), 16)

    assert check_bytes_per_token(rounded, record=False).passed


@pytest.mark.parametrize(
    "exact_way",
    [
        lambda t, s: statistics.mean(map(len, t.token_bytes(t.encode(s)))),
        lambda t, s: float(np.mean(list(map(len, t.token_bytes(t.encode(s)))))),
        lambda t, s: np.mean(np.array(list(map(len, t.token_bytes(t.encode(s)))))),
        lambda t, s: sum(map(len, t.token_bytes(t.encode(s)))) / len(t.encode(s)),
    ],
    ids=["statistics.mean", "float(np.mean)", "np.mean", "sum / len"],
)
def test_an_exact_ratio_computed_from_ints_passes(exact_way):
    assert check_bytes_per_token(exact_way, record=False).passed


def test_the_exact_ratio_as_a_fraction_passes():
    def as_a_fraction(tokenizer, text):
        return Fraction(len(text.encode("utf-8")), len(tokenizer.encode(text)))

    assert check_bytes_per_token(as_a_fraction, record=False).passed
