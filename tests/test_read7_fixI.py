"""Findings of the seventh fresh read of lessons 08 and 11: wrong answers their checkers passed (a bytes_per_token
that remembers results by the number of merges or by id(tokenizer), or measures only the start of the text; a
search whose measurements outlive a call, keyed by text and size; a WordPiece tie rule by the symbols' first
appearance), and hints that blamed the search for a bug in exercise 1 or named the wrong mistake."""

from __future__ import annotations

from fractions import Fraction

from bpelab.analysis.compression import bytes_per_token as library_bytes_per_token
from bpelab.byte_level import BPETokenizer
from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, reference_best_wordpiece_pair
from bpelab.exercises.compression import (
    check_bytes_per_token,
    check_count_unused,
    check_smallest_vocab_size,
)
from bpelab.exercises.samples import PARAGRAPH


def _hint(out: str) -> str:
    return " ".join(line.strip() for line in out.split("   hint:", 1)[1].splitlines())


def _paragraph_tokenizer() -> BPETokenizer:
    return BPETokenizer().train(PARAGRAPH, 314, pattern="cl100k")


# ---- lesson 08, exercise 1: bytes_per_token ----------------------------------------------------------------


def right_bytes_per_token(tokenizer, text):
    return len(text.encode("utf-8")) / len(tokenizer.encode(text))


def _by_merges():
    memo: dict = {}

    def bytes_per_token(tokenizer, text):
        key = (len(tokenizer.merges), text)
        if key not in memo:
            memo[key] = len(text.encode("utf-8")) / len(tokenizer.encode(text))
        return memo[key]

    return bytes_per_token


def _by_id():
    memo: dict = {}

    def bytes_per_token(tokenizer, text):
        key = (id(tokenizer), text)
        if key not in memo:
            memo[key] = len(text.encode("utf-8")) / len(tokenizer.encode(text))
        return memo[key]

    return bytes_per_token


def only_the_start(tokenizer, text):
    text = text[:1000]
    return len(text.encode("utf-8")) / len(tokenizer.encode(text))


def test_the_lessons_bytes_per_token_still_passes() -> None:
    assert check_bytes_per_token(right_bytes_per_token, record=False).passed


def test_remembering_by_the_number_of_merges_or_the_id_is_rejected_and_named(capsys) -> None:
    for fn in (_by_merges(), _by_id()):
        assert not check_bytes_per_token(fn, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "remember" in hint and "id(tokenizer)" in hint and "len(tokenizer.merges)" in hint, hint


def test_measuring_only_the_start_of_the_text_is_rejected_and_named(capsys) -> None:
    assert not check_bytes_per_token(only_the_start, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "text[:1000]" in hint and "whole text" in hint, hint


# ---- lesson 08, exercise 2: count_unused ---------------------------------------------------------------------


def test_characters_encoded_one_by_one_are_named(capsys) -> None:
    def char_by_char(tokenizer, text):
        used = {i for ch in text for i in tokenizer.encode(ch)}
        return len(set(tokenizer.vocab) - used)

    assert not check_count_unused(char_by_char, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "one character at a time" in hint and "text's bytes" not in hint, hint


# ---- lesson 08, exercise 3: smallest_vocab_size --------------------------------------------------------------


def right_search(tokenizer, text, goal):
    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        if library_bytes_per_token(tokenizer.truncated(middle), text) >= goal:
            high = middle
        else:
            low = middle + 1
    return high


_kept: dict = {}


def kept_by_text_and_size(tokenizer, text, goal):
    """A right binary search whose measurements outlive the call, keyed by (text, size): not by tokenizer."""

    def measure(size):
        if (text, size) not in _kept:
            _kept[(text, size)] = library_bytes_per_token(tokenizer.truncated(size), text)
        return _kept[(text, size)]

    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        if measure(middle) >= goal:
            high = middle
        else:
            low = middle + 1
    return high


def _check_search(search):
    return check_smallest_vocab_size(search, _paragraph_tokenizer(), PARAGRAPH, within=0.6, record=False)


def test_the_lessons_search_still_passes() -> None:
    assert _check_search(right_search).passed


def test_a_cache_keyed_by_text_and_size_is_rejected_and_named(capsys) -> None:
    _kept.clear()
    assert not _check_search(kept_by_text_and_size).passed
    out = capsys.readouterr().out
    hint = _hint(out)
    assert "_kept" in out and "tokenizer" in hint and "inside the function" in hint, out
    assert "key it by the tokenizer and text" not in hint, hint


def _search_calling(helper):
    """The lesson's search calling a learner's bytes_per_token from exercise 1, as in the notebook's globals."""
    namespace = {"bytes_per_token": helper}
    exec(
        "def search(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    return namespace["search"]


def test_a_wrong_bytes_per_token_is_named_in_exercise_3(capsys) -> None:
    for helper in (_by_merges(), _by_id(), only_the_start):
        assert not _check_search(_search_calling(helper)).passed
        hint = _hint(capsys.readouterr().out)
        assert "bytes_per_token (exercise 1)" in hint, hint
        assert "low, high and middle" not in hint and "also passed" not in hint, hint


def test_the_search_calling_a_right_bytes_per_token_passes() -> None:
    assert _check_search(_search_calling(right_bytes_per_token)).passed


# ---- lesson 11, exercise 1: best_wordpiece_pair ----------------------------------------------------------------


def by_first_appearance_of_symbols(word_freq):
    """Of equal scores, the pair whose first symbol (then second) appeared earliest in the words: not the pair
    seen first. Exact scores, written out as a learner would."""
    singles, pairs = {}, {}
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    order = {symbol: i for i, symbol in enumerate(singles)}
    scores = {pair: Fraction(n, singles[pair[0]] * singles[pair[1]]) for pair, n in pairs.items()}
    top = max(scores.values())
    return min((pair for pair, score in scores.items() if score == top), key=lambda p: (order[p[0]], order[p[1]]))


def test_the_symbols_first_appearance_tie_rule_is_rejected_and_named(capsys) -> None:
    word_freq = {("b",): 1, ("b", "##c", "##a"): 2, ("a", "##c", "##b", "##a"): 2}
    assert reference_best_wordpiece_pair(word_freq) == ("a", "##c")  # by hand: all four pairs score 2/(c(A)·c(B))
    assert by_first_appearance_of_symbols(word_freq) == ("##c", "##b")
    assert not check_best_wordpiece_pair(by_first_appearance_of_symbols, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "pair seen first" in hint and "symbols first appear earliest" in hint, hint


def test_the_lessons_best_wordpiece_pair_still_passes() -> None:
    def best_wordpiece_pair(word_freq):  # the pair seen first of the equal scores: max keeps the first
        singles, pairs = {}, {}
        for word, freq in word_freq.items():
            for symbol in word:
                singles[symbol] = singles.get(symbol, 0) + freq
            for pair in zip(word, word[1:]):
                pairs[pair] = pairs.get(pair, 0) + freq
        scores = {pair: Fraction(n, singles[pair[0]] * singles[pair[1]]) for pair, n in pairs.items()}
        return max(scores, key=scores.get)

    assert check_best_wordpiece_pair(best_wordpiece_pair, record=False).passed
