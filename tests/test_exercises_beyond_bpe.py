"""The checkers of lesson 11: right answers pass, stubs say "not yet", typical mistakes get their hint."""

from fractions import Fraction

import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word


def report(capsys):
    return capsys.readouterr().out


# ---- best_wordpiece_pair ----------------------------------------------------------------------


def single_counts(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for symbol in word:
            counts[symbol] = counts.get(symbol, 0) + freq
    return counts


def pair_counts(word_freq, weighted=True):
    counts = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + (freq if weighted else 1)
    return counts


def good_best_pair(word_freq):
    singles = single_counts(word_freq)
    best, best_score = None, None
    for (a, b), count in pair_counts(word_freq).items():
        # cross-multiplied: count / (na * nb) > best_count / (best_na * best_nb), no division at all
        score = (count, singles[a] * singles[b])
        if best is None or score[0] * best_score[1] > best_score[0] * score[1]:
            best, best_score = (a, b), score
    return best


def scored(word_freq, pick):
    singles = single_counts(word_freq)
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return pick(scores)


def test_best_pair_right_answer_passes(capsys):
    assert check_best_wordpiece_pair(good_best_pair).passed
    assert report(capsys).startswith("✅ best_wordpiece_pair: all")


def test_best_pair_with_fractions_passes(capsys):
    assert check_best_wordpiece_pair(lambda wf: scored(wf, lambda s: max(s, key=s.get))).passed


def test_best_pair_stub_is_not_yet(capsys):
    def best_wordpiece_pair(word_freq):
        # your code here
        ...

    assert check_best_wordpiece_pair(best_wordpiece_pair).status == "not yet"
    assert "not yet" in report(capsys)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda wf: max(pair_counts(wf), key=pair_counts(wf).get), "as BPE does"),
        (lambda wf: scored(wf, lambda s: min(s, key=s.get)), "lowest score"),
        (lambda wf: scored(wf, lambda s: max(reversed(list(s)), key=s.get)), "seen last"),
        (lambda wf: scored(wf, lambda s: min(s, key=lambda p: (-s[p], p))), "alphabetically smallest"),
        (lambda wf: good_best_pair(dict.fromkeys(wf, 1)), "ignore how often each word occurs"),
        (lambda wf: scored(wf, lambda s: max(s.values())), "not its score"),
    ],
)
def test_best_pair_mistakes_get_their_hint(capsys, wrong, hint):
    result = check_best_wordpiece_pair(wrong)
    assert not result.passed
    assert hint in report(capsys)


def test_best_pair_tie_broken_some_other_way_gets_the_tie_hint(capsys):
    # ties go to the more frequent pair: not a rule any diagnoser imitates
    result = check_best_wordpiece_pair(
        lambda wf: scored(wf, lambda s: max(s, key=lambda p: (s[p], pair_counts(wf)[p])))
    )
    assert not result.passed
    assert "a tie" in report(capsys)


def test_best_pair_crash_is_reported_not_raised(capsys):
    result = check_best_wordpiece_pair(lambda wf: 1 / 0)
    assert not result.passed
    assert "ZeroDivisionError" in report(capsys)


# ---- encode_wordpiece_word --------------------------------------------------------------------


def greedy(word, vocab, *, longest=True, prefix="##", first_prefix="", partial=False):
    pieces, start = [], 0
    while start < len(word):
        ends = range(len(word), start, -1) if longest else range(start + 1, len(word) + 1)
        marker = prefix if start else first_prefix
        for end in ends:
            if marker + word[start:end] in vocab:
                pieces.append(marker + word[start:end])
                start = end
                break
        else:
            return pieces + ["[UNK]"] if partial else ["[UNK]"]
    return pieces


def test_encode_right_answer_passes(capsys):
    assert check_encode_wordpiece_word(greedy).passed
    assert report(capsys).startswith("✅ encode_wordpiece_word: all")


def test_encode_stub_is_not_yet(capsys):
    def encode_wordpiece_word(word, vocab):
        # your code here
        ...

    assert check_encode_wordpiece_word(encode_wordpiece_word).status == "not yet"


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda w, v: greedy(w, v, partial=True), "gives up on the whole word"),
        (lambda w, v: greedy(w, v, longest=False), "shortest piece"),
        (lambda w, v: greedy(w, v, prefix=""), "with '##' in front"),
        (lambda w, v: greedy(w, v, first_prefix="##"), "the first piece of a word has no '##'"),
        (lambda w, v: " ".join(greedy(w, v)), "not one string"),
    ],
)
def test_encode_mistakes_get_their_hint(capsys, wrong, hint):
    result = check_encode_wordpiece_word(wrong)
    assert not result.passed
    assert hint in report(capsys)


def test_encode_endless_loop_is_stopped(capsys):
    def stuck(word, vocab):
        start = 0
        while start < len(word):
            pass
        return []

    result = check_encode_wordpiece_word(stuck)
    assert not result.passed
    assert "did not finish" in report(capsys)
