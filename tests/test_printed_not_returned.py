"""A function that prints its answer and returns None is told that print is not return, not that it is unfinished.

Read 14 of lessons 08 and 11 found the four checkers there calling such a function "not yet — fill in the body"
when its source could not be read (pasted through exec, as a notebook tool may). The engine now watches what the
learner's function prints (and still shows it)."""

from __future__ import annotations

import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.exercises.compression import check_bytes_per_token, check_count_unused
from bpelab.exercises.pair_counts import check_count_pairs

PRINTING = {
    "count_unused": "def count_unused(tokenizer, text):\n    used = set(tokenizer.encode(text))\n"
    "    print(tokenizer.vocab_size - len(used))\n",
    "bytes_per_token": "def bytes_per_token(tokenizer, text):\n"
    "    print(len(text.encode('utf-8')) / len(tokenizer.encode(text)))\n",
    "best_wordpiece_pair": "def best_wordpiece_pair(word_freq):\n    print(next(iter(word_freq)))\n",
    "encode_wordpiece_word": "def encode_wordpiece_word(word, vocab):\n    print([word])\n",
    "count_pairs": "def count_pairs(word_counts):\n    counts = {}\n    for word, n in word_counts.items():\n"
    "        for pair in zip(word, word[1:]):\n            counts[pair] = counts.get(pair, 0) + n\n"
    "    print(counts)\n",
}
CHECKERS = {
    "count_unused": check_count_unused,
    "bytes_per_token": check_bytes_per_token,
    "best_wordpiece_pair": check_best_wordpiece_pair,
    "encode_wordpiece_word": check_encode_wordpiece_word,
    "count_pairs": check_count_pairs,
}


@pytest.mark.parametrize("name", sorted(PRINTING))
def test_a_printed_answer_is_told_print_is_not_return(name, capsys):
    namespace: dict = {}
    exec(PRINTING[name], namespace)  # no source to read: the shape is unknown, as for code pasted through exec
    result = CHECKERS[name](namespace[name], record=False)
    report = capsys.readouterr().out
    assert not result.passed
    assert result.status == "failed", report
    assert "not yet" not in report
    assert "printed" in result.message and "`return`" in result.message, result.message


def test_what_the_function_prints_is_still_shown(capsys):
    namespace: dict = {}
    exec("def count_unused(tokenizer, text):\n    print('debugging', len(text))\n    return 0\n", namespace)
    check_count_unused(namespace["count_unused"], record=False)
    assert "debugging" in capsys.readouterr().out


def test_a_stub_that_prints_nothing_is_still_not_yet(capsys):
    namespace: dict = {}
    exec("def count_unused(tokenizer, text):\n    pass\n", namespace)
    result = check_count_unused(namespace["count_unused"], record=False)
    assert result.status == "not yet", result.message
