"""Fresh read 19 of lessons 08, 11 and 12 (fixAZ): four checkers passed a function that remembers its answers keyed
without one of its inputs (the merges, the tokenizer, the vocabulary), and lesson 11's tie rule let words taken in
another order pass; lesson 08's prose forbade a number for the empty text where its checker accepts NaN, and named
an exception to its rounding rule that is not one; lesson 12 said the naive loop's work doubles with the text, and
read a cause into five noisy timings."""

from __future__ import annotations

import re
from fractions import Fraction

import nbformat
import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.exercises.compression import check_count_unused
from bpelab.exercises.speed import check_merge_lowest_rank
from bpelab.words import count_pairs

LESSON_08 = "notebooks/08_compression_curves.ipynb"
LESSON_11 = "notebooks/11_beyond_bpe.ipynb"
LESSON_12 = "notebooks/12_making_bpe_fast.ipynb"


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _refused(capsys, result) -> str:
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


# ---- finding 1: lesson 12, merge_lowest_rank with a cache keyed without the merges ---------------------------------


def _merge_lowest_rank(ids, merges):
    ids = list(ids)
    while True:
        ranked = [(merges[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in merges]
        if not ranked:
            return ids
        new_id, i = min(ranked)
        ids[i : i + 2] = [new_id]


def _merge_cached_by_ids():
    cache = {}

    def merge_lowest_rank(ids, merges):
        key = tuple(ids)
        if key not in cache:
            cache[key] = _merge_lowest_rank(ids, merges)
        return list(cache[key])

    return merge_lowest_rank


def _merge_cached_by_ids_and_size():
    cache = {}

    def merge_lowest_rank(ids, merges):
        key = (tuple(ids), len(merges))
        if key not in cache:
            cache[key] = _merge_lowest_rank(ids, merges)
        return list(cache[key])

    return merge_lowest_rank


@pytest.mark.parametrize("make", [_merge_cached_by_ids, _merge_cached_by_ids_and_size], ids=["ids", "ids and size"])
def test_merge_lowest_rank_cached_without_the_merges_is_refused(capsys, make) -> None:
    out = _refused(capsys, check_merge_lowest_rank(make(), record=False))
    hint = _hint(out)
    assert "cache" in hint and "merges" in hint, out


def test_merge_lowest_rank_right_answer_passes(capsys) -> None:
    assert check_merge_lowest_rank(_merge_lowest_rank, record=False).passed, capsys.readouterr().out


# ---- finding 2: lesson 08, count_unused with a cache keyed without the tokenizer ------------------------------------


def _count_unused(tokenizer, text):
    return len(set(tokenizer.vocab) - set(tokenizer.encode(text)))


def _count_cached(key_of):
    cache = {}

    def count_unused(tokenizer, text):
        key = key_of(tokenizer, text)
        if key not in cache:
            cache[key] = len(set(tokenizer.vocab) - set(tokenizer.encode(text)))
        return cache[key]

    return count_unused


COUNT_KEYS = {
    "text and vocabulary size": lambda tokenizer, text: (text, len(tokenizer.vocab)),
    "text and id": lambda tokenizer, text: (text, id(tokenizer)),
    "text alone": lambda tokenizer, text: text,
    "text and merges": lambda tokenizer, text: (text, len(tokenizer.merges)),
}


@pytest.mark.parametrize("key", list(COUNT_KEYS))
def test_count_unused_cached_without_the_tokenizer_is_refused(capsys, key) -> None:
    out = _refused(capsys, check_count_unused(_count_cached(COUNT_KEYS[key]), record=False))
    hint = _hint(out)
    assert "remember" in hint and "tokenizer" in hint, out
    assert "leaves out the special tokens" not in hint, out


def test_count_unused_right_answer_passes(capsys) -> None:
    assert check_count_unused(_count_unused, record=False).passed, capsys.readouterr().out


# ---- finding 3: lesson 11, encode_wordpiece_word with a cache keyed without the vocabulary -------------------------


def _encode(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = ("##" if start > 0 else "") + word[start:end]
            if piece in vocab:
                pieces.append(piece)
                start = end
                break
        else:
            return ["[UNK]"]
    return pieces


def _encode_cached(key_of):
    cache = {}

    def encode_wordpiece_word(word, vocab):
        key = key_of(word, vocab)
        if key not in cache:
            cache[key] = _encode(word, vocab)
        return list(cache[key])

    return encode_wordpiece_word


ENCODE_KEYS = {
    "word and vocabulary size": lambda word, vocab: (word, len(vocab)),
    "word and id": lambda word, vocab: (word, id(vocab)),
    "word alone": lambda word, vocab: word,
}


@pytest.mark.parametrize("key", list(ENCODE_KEYS))
def test_encode_wordpiece_word_cached_without_the_vocabulary_is_refused(capsys, key) -> None:
    out = _refused(capsys, check_encode_wordpiece_word(_encode_cached(ENCODE_KEYS[key]), record=False))
    hint = _hint(out)
    assert "remember" in hint and "vocab" in hint, out
    assert "cap on the piece length" not in hint, out


def test_encode_wordpiece_word_right_answer_passes(capsys) -> None:
    assert check_encode_wordpiece_word(_encode, record=False).passed, capsys.readouterr().out


# ---- finding 4: lesson 11, best_wordpiece_pair: words in another order; a cache keyed without the counts -----------


def _scored(word_freq, words):
    pairs = count_pairs({word: word_freq[word] for word in words})
    singles = {}
    for word in words:
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + word_freq[word]
    scores = {pair: Fraction(n, singles[pair[0]] * singles[pair[1]]) for pair, n in pairs.items()}
    return max(scores, key=scores.get)


def _best_shortest_words_first(word_freq):
    return _scored(word_freq, sorted(word_freq, key=len))


def _best_cached_by_words():
    cache = {}

    def best_wordpiece_pair(word_freq):
        key = tuple(word_freq)
        if key not in cache:
            cache[key] = _scored(word_freq, list(word_freq))
        return cache[key]

    return best_wordpiece_pair


def test_best_wordpiece_pair_words_sorted_by_length_is_refused(capsys) -> None:
    out = _refused(capsys, check_best_wordpiece_pair(_best_shortest_words_first, record=False))
    hint = _hint(out)
    assert "order" in hint and "words" in hint, out


def test_best_wordpiece_pair_cached_by_the_words_is_refused(capsys) -> None:
    out = _refused(capsys, check_best_wordpiece_pair(_best_cached_by_words(), record=False))
    hint = _hint(out)
    assert "remember" in hint and "count" in hint, out
    assert "rounded" not in hint, out


def test_best_wordpiece_pair_right_answer_passes(capsys) -> None:
    assert check_best_wordpiece_pair(lambda wf: _scored(wf, list(wf)), record=False).passed, capsys.readouterr().out


# ---- findings 5 to 7: prose ---------------------------------------------------------------------------------------


def _cell(path: str, cell_id: str) -> str:
    return next(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.id == cell_id)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_lesson_08_says_nan_is_accepted_for_the_empty_text() -> None:
    exercise = _flat(_cell(LESSON_08, "644581ad"))
    assert "Do not return a number for it" in exercise
    assert "NaN" in exercise and "numpy" in exercise, exercise


def test_lesson_08_names_byte_counts_empty_text_where_it_calls_it_the_exception() -> None:
    after = _flat(_cell(LESSON_08, "685f61b7"))
    sentence = after[after.index("Lesson 01's `byte_count`") :]
    assert "0.0" in sentence and "empty text" in sentence, sentence


def test_lesson_08_checker_takes_nan_for_the_empty_text(capsys) -> None:
    from bpelab.exercises.compression import check_bytes_per_token

    def bytes_per_token(tokenizer, text):
        ids = tokenizer.encode(text)
        return len(text.encode("utf-8")) / len(ids) if ids else float("nan")

    assert check_bytes_per_token(bytes_per_token, record=False).passed, capsys.readouterr().out


LESSON_12_WORK_CELLS = {"intro": "2c41afe6", "section 1": "941abd14", "recap": "deb6b101"}


@pytest.mark.parametrize("name", list(LESSON_12_WORK_CELLS))
def test_lesson_12_does_not_say_the_naive_work_doubles_with_the_text(name) -> None:
    text = _flat(_cell(LESSON_12, LESSON_12_WORK_CELLS[name]))
    assert "double the text, and that work doubles" not in text
    assert "merges × corpus" not in text and "*merges × corpus size*" not in text
    if name != "intro":
        assert "distinct pieces" in text, text


def test_lesson_12_reads_no_cause_into_the_timed_slopes() -> None:
    text = _flat(_cell(LESSON_12, "3806e3e0"))
    assert "all three trainers spend their time on the distinct pieces" not in text
    assert "noisy" in text and "counted" in text, text
