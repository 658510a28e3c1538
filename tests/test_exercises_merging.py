"""Lesson 04's checkers against the wrong answers a fresh review found: each is rejected, with a hint that names it."""

from __future__ import annotations

import pytest

from bpelab import count_pairs, get_word_frequencies, merge_pair
from bpelab.exercises import check_merge_pair, check_merge_symbols, check_training_loop
from bpelab.words import END_OF_WORD, best_pair, merge_symbols


def report(capsys, checker, fn):
    result = checker(fn, record=False)
    return result, capsys.readouterr().out


def assert_rejects(capsys, checker, fn, *phrases: str) -> str:
    result, out = report(capsys, checker, fn)
    assert not result.passed and result.status == "failed", out
    for phrase in phrases:
        assert phrase in out, f"{phrase!r} not in:\n{out}"
    return out


# ---- wrong ways to merge one word, written as a learner writes them ---------------------------------


def merge_right_to_left(symbols, pair):
    out, i = [], len(symbols) - 1
    while i >= 0:
        if i > 0 and (symbols[i - 1], symbols[i]) == pair:
            out.insert(0, pair[0] + pair[1])
            i -= 2
        else:
            out.insert(0, symbols[i])
            i -= 1
    return tuple(out)


def merge_overlapping(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 1  # should be 2: the second symbol is used again
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_stops_one_early(symbols, pair):
    out, i = [], 0
    while i < len(symbols) - 1:
        if (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    out.append(symbols[-1])  # also when the last pair was merged: the last symbol comes twice
    return tuple(out)


def count_pairs_without_overlaps(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        i = 0
        while i < len(word) - 1:
            pair = (word[i], word[i + 1])
            counts[pair] = counts.get(pair, 0) + freq
            i += 2 if word[i] == word[i + 1] else 1  # (a, a) in aaa counted once
    return counts


def loop(text, num_merges, *, merge_word=merge_symbols, count=count_pairs, pick=None, keep_counts=False):
    """The lesson's training loop with one part replaced."""
    word_freq = get_word_frequencies(text)
    merges, counts = [], {}
    for _ in range(num_merges):
        if keep_counts:  # counts = {} forgotten: last step's counts stay and grow
            for pair, n in count(word_freq).items():
                counts[pair] = counts.get(pair, 0) + n
        else:
            counts = count(word_freq)
        if not counts:
            break
        pair = (pick or best_pair)(counts)
        word_freq = {merge_word(word, pair): freq for word, freq in word_freq.items()}
        merges.append((pair, pair[0] + pair[1]))
    return merges


def shortest_pair_wins_ties(counts):
    return max(counts, key=lambda p: (counts[p], -len(p[0] + p[1])))


@pytest.mark.parametrize(
    "fn, phrases",
    [
        (lambda t, n: loop(t, n, merge_word=merge_right_to_left), ["right to left", "('aa', 'a')"]),
        (lambda t, n: loop(t, n, merge_word=merge_overlapping), ["merges overlap", "i += 2"]),
        (lambda t, n: loop(t, n, count=count_pairs_without_overlaps), ["counted twice", "aaa"]),
        (lambda t, n: loop(t, n, keep_counts=True), ["carry over", "inside the loop"]),
        (lambda t, n: loop(t, n, pick=shortest_pair_wins_ties), ["shortest", "seen first"]),
    ],
)
def test_wrong_training_loops_are_rejected_with_their_own_hint(capsys, fn, phrases):
    out = assert_rejects(capsys, check_training_loop, fn, *phrases)
    assert "none of your merges involves" not in out, out


def test_the_marker_hint_needs_a_loop_that_really_leaves_the_marker_out(capsys):
    def without_marker(text, num_merges):
        word_freq = {}
        for word in text.split():
            word_freq[tuple(word)] = word_freq.get(tuple(word), 0) + 1
        merges = []
        for _ in range(num_merges):
            counts = count_pairs(word_freq)
            if not counts:
                break
            pair = best_pair(counts)
            word_freq = merge_pair(word_freq, pair)
            merges.append((pair, pair[0] + pair[1]))
        return merges

    assert_rejects(capsys, check_training_loop, without_marker, "none of your merges involves the end-of-word marker")
    assert END_OF_WORD == "</w>"


def test_a_name_not_defined_is_told_to_run_the_import_cell(capsys):
    namespace: dict = {}
    exec(
        "def my_train(text, num_merges):\n"
        "    word_freq = get_word_frequencies(text)\n"
        "    merges = []\n"
        "    for _ in range(num_merges):\n"
        "        pairs = count_pairs(word_freq)\n"
        "        if not pairs:\n"
        "            break\n"
        "        pair = best_pair(pairs)\n"
        "        word_freq = merge_pair(word_freq, pair)\n"
        "        merges.append((pair, pair[0] + pair[1]))\n"
        "    return merges\n",
        namespace,
    )
    assert_rejects(
        capsys, check_training_loop, namespace["my_train"], "NameError", "get_word_frequencies", "first cell"
    )
    namespace["get_word_frequencies"], namespace["count_pairs"] = get_word_frequencies, count_pairs
    assert_rejects(capsys, check_training_loop, namespace["my_train"], "best_pair", "first cell", "bpelab.words")


def test_a_merge_that_appends_the_last_symbol_again_is_told_so(capsys):
    out = assert_rejects(capsys, check_merge_symbols, merge_stops_one_early, "symbols[-1]", "twice")
    assert "overlapping" not in out, out
    out = assert_rejects(
        capsys,
        check_merge_pair,
        lambda word_freq, pair: {merge_stops_one_early(w, pair): n for w, n in word_freq.items()},
        "symbols[-1]",
        "twice",
    )
    assert "overlapping" not in out, out


def test_string_keys_are_named(capsys):
    def merge_pair_with_strings(word_freq, pair):
        return {" ".join(merge_symbols(word, pair)): n for word, n in word_freq.items()}

    out = assert_rejects(capsys, check_merge_pair, merge_pair_with_strings, "string", "tuple")
    assert "overlapping" not in out, out


def test_a_missing_function_of_an_earlier_exercise_is_named_with_its_cell(capsys):
    namespace: dict = {}
    exec(
        "def my_merge_pair(word_freq, pair):\n    return {my_merge_symbols(w, pair): n for w, n in word_freq.items()}\n",
        namespace,
    )
    assert_rejects(
        capsys, check_merge_pair, namespace["my_merge_pair"], "my_merge_symbols", "exercise 1", "merge_symbols"
    )


# ---- a merge by regular expression, and the empty word ------------------------------------------------


def merge_by_regex(symbols, pair, *, escape):
    """Sennrich et al.'s merge: a regular expression on the spelled word; ``escape=False`` forgets ``re.escape``."""
    import re

    quote = re.escape if escape else (lambda s: s)
    bigram = quote(pair[0]) + " " + quote(pair[1])
    text = re.sub(r"(?<!\S)" + bigram + r"(?!\S)", pair[0] + pair[1], " ".join(symbols))
    return tuple(text.split(" ")) if symbols else ()


def test_regex_metacharacters_by_hand():
    """What the unescaped pattern does, worked out by hand: '.' matches any symbol, '(' opens a group never closed."""
    assert merge_by_regex(("a", END_OF_WORD), (".", END_OF_WORD), escape=False) == (".</w>",)
    assert merge_by_regex(("c", "a", "t"), ("c", "."), escape=False) == ("c.", "t")
    with pytest.raises(Exception, match="missing"):
        merge_by_regex(("f", "(", END_OF_WORD), ("(", END_OF_WORD), escape=False)
    for word, pair in [(("h", "i", ".", END_OF_WORD), (".", END_OF_WORD)), (("a", "+", "b"), ("+", "b"))]:
        assert merge_by_regex(word, pair, escape=True) == merge_symbols(word, pair)


@pytest.mark.parametrize("checker, lift", [(check_merge_symbols, lambda f: f), (check_merge_pair, None)])
def test_a_regex_merge_without_re_escape_is_rejected_and_named(capsys, checker, lift):
    def per_word(escape):
        def merge(word_freq, pair):
            merged: dict = {}
            for w, n in word_freq.items():
                new = merge_by_regex(w, pair, escape=escape)
                merged[new] = merged.get(new, 0) + n  # two spellings may become one word
            return merged

        return merge

    def word(escape):
        return lambda symbols, pair: merge_by_regex(symbols, pair, escape=escape)

    make = word if lift else per_word
    out = assert_rejects(capsys, checker, make(False), "re.escape")
    assert "overlapping" not in out, out
    result, out = report(capsys, checker, make(True))
    assert result.passed, out


def test_a_regex_merge_that_raises_on_a_parenthesis_is_named(capsys):
    import re

    def merge_or_raise(symbols, pair):
        if "(" in pair:
            raise re.error("missing ), unterminated subpattern")
        out, i = [], 0  # right otherwise: a loop of the learner's (the course's merge_symbols would be refused)
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
                out.append(pair[0] + pair[1])
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        return tuple(out)

    assert_rejects(capsys, check_merge_symbols, merge_or_raise, "re.escape")


def merge_appends_last(symbols, pair):
    out, i = [], 0
    while i < len(symbols) - 1:
        if (symbols[i], symbols[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
            if i == len(symbols):
                return tuple(out)
        else:
            out.append(symbols[i])
            i += 1
    out.append(symbols[-1])
    return tuple(out)


def test_an_empty_word_is_checked_and_named(capsys):
    assert merge_symbols((), ("a", "b")) == ()
    with pytest.raises(IndexError):
        merge_appends_last((), ("a", "b"))
    assert merge_appends_last(("a", "b", "c"), ("b", "c")) == ("a", "bc")
    out = assert_rejects(capsys, check_merge_symbols, merge_appends_last, "empty word")
    assert "symbols[i + 1]" not in out, out
