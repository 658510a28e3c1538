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


FLOAT_TRAP = {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 2, ("##b",): 10, ("c",): 10, ("##d",): 2}


def test_the_float_trap_is_a_real_tie_that_floats_split():
    """By hand: a 1+2 = 3, ##b 1+10 = 11, c 1+10 = 11, ##d 1+2 = 3; both pairs occur once: 1/33 each."""
    assert single_counts(FLOAT_TRAP) == {"a": 3, "##b": 11, "c": 11, "##d": 3}
    assert Fraction(1, 3 * 11) == Fraction(1, 11 * 3)
    assert 1 / 3 / 11 < 1 / 11 / 3  # two roundings: the second pair looks larger


def float_scores(word_freq):
    singles = single_counts(word_freq)
    scores = {(a, b): c / singles[a] / singles[b] for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def test_best_pair_float_division_is_rejected_with_its_hint(capsys):
    """The lesson says float division can split a tie; the checker must catch a solution that does."""
    assert float_scores(FLOAT_TRAP) == ("c", "##d")
    result = check_best_wordpiece_pair(float_scores)
    out = report(capsys)
    assert not result.passed
    assert "your float division split the tie" in out and "Fraction(n, count(A) * count(B))" in out


# Symbol counts 2**27 and 2**27 against 2**27 - 1 and 2**27 + 1: the products differ by one, past 2**53.
BIG_COUNTS = {
    ("a", "##b"): 1,
    ("c", "##d"): 1,
    ("a",): 2**27 - 1,
    ("##b",): 2**27 - 1,
    ("c",): 2**27 - 2,
    ("##d",): 2**27,
}


def test_big_counts_are_a_near_tie_that_floats_call_a_tie():
    """By hand: (2**27 - 1)(2**27 + 1) = 2**54 - 1 < 2**54, so (c, ##d) scores a little more, yet as floats the two
    reciprocals are the same number (a float holds 53 bits; 2**54 - 1 needs 54)."""
    assert single_counts(BIG_COUNTS) == {"a": 2**27, "##b": 2**27, "c": 2**27 - 1, "##d": 2**27 + 1}
    assert (2**27 - 1) * (2**27 + 1) == 2**54 - 1
    assert Fraction(1, 2**54 - 1) > Fraction(1, 2**54)
    assert 1 / 2**54 == 1 / (2**54 - 1)
    assert good_best_pair(BIG_COUNTS) == ("c", "##d")


def one_float_division(word_freq):
    singles = single_counts(word_freq)
    scores = {(a, b): c / (singles[a] * singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def log_of_one_division(word_freq):
    import math

    singles = single_counts(word_freq)
    scores = {(a, b): math.log(c / (singles[a] * singles[b])) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def numpy_float32(word_freq):
    import numpy as np

    singles = single_counts(word_freq)
    pairs = pair_counts(word_freq)
    n = np.array(list(pairs.values()), dtype=np.float32)
    a = np.array([singles[a] for a, _ in pairs], dtype=np.float32)
    b = np.array([singles[b] for _, b in pairs], dtype=np.float32)
    return list(pairs)[int(np.argmax(n / (a * b)))]


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (one_float_division, "a float (53 bits)"),
        (log_of_one_division, "a float (53 bits)"),
        (numpy_float32, "float32"),
    ],
)
def test_best_pair_any_float_score_is_rejected_with_its_hint(capsys, wrong, hint):
    """One correctly rounded division, its logarithm, numpy's float32: each turns a near tie into a tie."""
    assert wrong(BIG_COUNTS) == ("a", "##b")
    result = check_best_wordpiece_pair(wrong)
    out = report(capsys)
    assert not result.passed
    assert hint in out, out
    assert "you rounded the scores" not in out


def test_best_pair_float32_fails_on_counts_in_the_thousands():
    """float32 keeps 24 bits: 1/(3500 · 3500) and 1/(3499 · 3501) come out equal, though 3499 · 3501 is smaller."""
    import numpy as np

    assert 3499 * 3501 < 3500 * 3500
    assert np.float32(1) / (np.float32(3500) * np.float32(3500)) == np.float32(1) / (
        np.float32(3499) * np.float32(3501)
    )
    word_freq = {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 3499, ("##b",): 3499, ("c",): 3498, ("##d",): 3500}
    assert good_best_pair(word_freq) == ("c", "##d") != numpy_float32(word_freq)
    from bpelab.exercises.beyond_bpe import BEST_PAIR

    assert any(case.args == (word_freq,) for case in BEST_PAIR.build_cases())


def skips_one_symbol_words(word_freq):
    singles = {}
    for word, freq in word_freq.items():
        if len(word) < 2:
            continue  # a word of one symbol has no pair: skipped, but its symbol still counts
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def test_best_pair_skipping_one_symbol_words_gets_its_own_hint(capsys):
    word_freq = {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 1}  # a 2, ##b 1, c 1, ##d 1: 1/2 against 1
    assert good_best_pair(word_freq) == ("c", "##d") != skips_one_symbol_words(word_freq)
    result = check_best_wordpiece_pair(skips_one_symbol_words)
    out = report(capsys)
    assert not result.passed
    assert "a word of one symbol" in out, out
    assert "you rounded the scores" not in out


def test_best_pair_built_on_the_course_scores_is_refused(capsys):
    from bpelab.wordpiece import wordpiece_scores
    from bpelab.words import count_pairs

    result = check_best_wordpiece_pair(lambda wf: (lambda s: max(s, key=s.get))(wordpiece_scores(count_pairs(wf), wf)))
    assert not result.passed
    assert "that is the course's function" in report(capsys)


def unweighted_symbols(word_freq):
    singles = single_counts(dict.fromkeys(word_freq, 1))  # the missing freq: each distinct word counted once
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def test_best_pair_unweighted_symbol_counts_get_the_freq_hint_not_the_tie_hint(capsys):
    result = check_best_wordpiece_pair(unweighted_symbols)
    out = report(capsys)
    assert not result.passed
    assert "your symbol counts ignore how often each word occurs" in out
    assert "a tie. The pair seen first must win" not in out


def test_best_pair_unweighted_pair_counts_get_their_hint(capsys):
    def unweighted_pairs(word_freq):
        singles = single_counts(word_freq)
        pairs = pair_counts(word_freq, weighted=False)
        scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pairs.items()}
        return max(scores, key=scores.get)

    assert not check_best_wordpiece_pair(unweighted_pairs).passed
    assert "your pair counts ignore how often each word occurs" in report(capsys)


def test_best_pair_e_and_hash_e_pooled_get_their_hint_not_the_tie_hint(capsys):
    """'e' (a word's first letter) and '##e' (inside a word) are two symbols; pooling their counts is a bug."""

    def pooled(word_freq):
        singles = {}
        for word, freq in word_freq.items():
            for symbol in word:
                singles[symbol.removeprefix("##")] = singles.get(symbol.removeprefix("##"), 0) + freq
        scores = {
            (a, b): Fraction(c, singles[a.removeprefix("##")] * singles[b.removeprefix("##")])
            for (a, b), c in pair_counts(word_freq).items()
        }
        return max(scores, key=scores.get)

    result = check_best_wordpiece_pair(pooled)
    out = report(capsys)
    assert not result.passed
    assert "'##e' and 'e' are two different symbols" in out, out
    assert "a tie. The pair seen first must win" not in out


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


def test_encode_the_course_text_encoder_is_refused(capsys):
    from bpelab.wordpiece import encode_wordpiece

    for handed in (encode_wordpiece, lambda word, vocab: encode_wordpiece(word, vocab)):
        result = check_encode_wordpiece_word(handed)
        assert not result.passed
        assert "that is the course's function" in report(capsys)


def test_encode_an_empty_word_has_no_pieces(capsys):
    def unk_for_empty(word, vocab):
        return greedy(word, vocab) if word else ["[UNK]"]

    assert greedy("", {"a"}) == []
    result = check_encode_wordpiece_word(unk_for_empty)
    out = report(capsys)
    assert not result.passed
    assert "an empty word" in out, out


def test_encode_a_word_of_100_characters_is_still_encoded(capsys):
    """The exercise needs no length limit; one written as Hugging Face's, but with >= where > belongs, fails."""

    def limit_off_by_one(word, vocab):
        return ["[UNK]"] if len(word) >= 100 else greedy(word, vocab)

    assert greedy("a" * 100, {"a", "##a"}) == ["a"] + ["##a"] * 99
    result = check_encode_wordpiece_word(limit_off_by_one)
    out = report(capsys)
    assert not result.passed
    assert "100 characters" in out, out


def test_encode_endless_loop_is_stopped(capsys):
    def stuck(word, vocab):
        start = 0
        while start < len(word):
            pass
        return []

    result = check_encode_wordpiece_word(stuck)
    assert not result.passed
    assert "did not finish" in report(capsys)


@pytest.mark.parametrize("name", ["best_wordpiece_pair", "encode_wordpiece_word"])
def test_every_hand_written_answer_agrees_with_the_reference(name):
    from bpelab.exercises.core import COMPUTED, EXERCISES

    exercise = EXERCISES[name]
    for case in exercise.cases():
        if case.expected is not COMPUTED:
            assert exercise.reference(*case.args) == case.expected, case.note


# ---- wrong answers a fresh-eyes review found accepted, each written as a learner would --------------


def float_scores_b_first(word_freq):
    singles = single_counts(word_freq)
    scores = {(a, b): c / singles[b] / singles[a] for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def symbols_once_per_word(word_freq):
    singles = {}
    for word, freq in word_freq.items():
        for symbol in set(word):
            singles[symbol] = singles.get(symbol, 0) + freq
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def pairs_once_per_word(word_freq):
    singles, pairs = single_counts(word_freq), {}
    for word, freq in word_freq.items():
        for pair in dict.fromkeys(zip(word, word[1:])):  # each pair once per word, in order
            pairs[pair] = pairs.get(pair, 0) + freq
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pairs.items()}
    return max(scores, key=scores.get)


def rounded_scores(word_freq):
    singles = single_counts(word_freq)
    scores = {(a, b): round(c / (singles[a] * singles[b]), 4) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def log_scores(word_freq):
    import math

    singles = single_counts(word_freq)
    scores = {
        (a, b): math.log(c) - math.log(singles[a]) - math.log(singles[b])
        for (a, b), c in pair_counts(word_freq).items()
    }
    return max(scores, key=scores.get)


def sum_of_counts(word_freq):
    singles = single_counts(word_freq)
    scores = {(a, b): Fraction(c, singles[a] + singles[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def left_and_right_counts(word_freq):
    left, right = {}, {}
    for word, freq in word_freq.items():
        for a, b in zip(word, word[1:]):
            left[a] = left.get(a, 0) + freq
            right[b] = right.get(b, 0) + freq
    scores = {(a, b): Fraction(c, left[a] * right[b]) for (a, b), c in pair_counts(word_freq).items()}
    return max(scores, key=scores.get)


def symbols_from_pairs(word_freq):
    pairs, singles = pair_counts(word_freq), {}
    for (a, b), c in pairs.items():
        singles[a] = singles.get(a, 0) + c
        singles[b] = singles.get(b, 0) + c
    scores = {(a, b): Fraction(c, singles[a] * singles[b]) for (a, b), c in pairs.items()}
    return max(scores, key=scores.get)


def probabilities_as_floats(word_freq):
    singles, pairs = single_counts(word_freq), pair_counts(word_freq)
    symbols, all_pairs = sum(singles.values()), sum(pairs.values())
    scores = {
        (a, b): (c / all_pairs) / ((singles[a] / symbols) * (singles[b] / symbols)) for (a, b), c in pairs.items()
    }
    return max(scores, key=scores.get)


def ties_to_the_rarer_pair(word_freq):
    pairs = pair_counts(word_freq)
    return scored(word_freq, lambda s: max(s, key=lambda p: (s[p], -pairs[p])))


@pytest.mark.parametrize(
    "wrong, word_freq, right, hint",
    [
        (
            float_scores_b_first,
            {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 10, ("##b",): 2, ("c",): 2, ("##d",): 10},
            ("a", "##b"),
            "your float division split the tie",
        ),
        (symbols_once_per_word, {("a", "##b", "##b"): 1, ("c", "##d"): 1}, ("c", "##d"), "not set(word)"),
        (
            pairs_once_per_word,
            {("a", "##c"): 1, ("a", "##d", "##c", "##d", "##c"): 1},
            ("##d", "##c"),
            "a pair that occurs twice in a word counts twice",
        ),
        (
            rounded_scores,
            {("a", "##b"): 1, ("c", "##d"): 1, ("a",): 99, ("##b",): 99, ("c",): 98, ("##d",): 100},
            ("c", "##d"),
            "you rounded the scores",
        ),
        (
            log_scores,
            {("a", "##b"): 1, ("c", "##d"): 1, ("##b",): 9, ("c",): 1, ("##d",): 4},
            ("a", "##b"),
            "your logarithms split the tie",
        ),
    ],
)
def test_best_pair_wrong_answers_the_review_found_are_rejected(capsys, wrong, word_freq, right, hint):
    """Each wrong answer is wrong on a hand-checked corpus, and the checker names its bug."""
    assert good_best_pair(word_freq) == right != wrong(word_freq)
    result = check_best_wordpiece_pair(wrong)
    out = report(capsys)
    assert not result.passed
    assert hint in out, out
    assert "a tie. The pair seen first must win" not in out


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (sum_of_counts, "you divided by count(A) + count(B)"),
        (left_and_right_counts, "you counted A only where it starts a pair"),
        (symbols_from_pairs, "you counted the symbols from the pairs"),
    ],
)
def test_best_pair_wrong_formulas_that_land_on_a_tie_get_their_own_hint(capsys, wrong, hint):
    """Check 2 has four pairs all scoring 1/5: a wrong formula that picks one of them is not a tie-rule mistake."""
    result = check_best_wordpiece_pair(wrong)
    out = report(capsys)
    assert not result.passed
    assert hint in out, out
    assert "a tie. The pair seen first must win" not in out


@pytest.mark.parametrize("wrong", [probabilities_as_floats, ties_to_the_rarer_pair])
def test_best_pair_right_scores_wrong_tie_rule_get_the_tie_hint(capsys, wrong):
    """Floats that split a tie, or ties to the rarer pair: the scores are right, so the hint is about the tie."""
    result = check_best_wordpiece_pair(wrong)
    out = report(capsys)
    assert not result.passed
    assert "a tie. The pair seen first must win" in out, out
    assert "ignore how often each word occurs" not in out


def test_encode_continuation_without_its_prefix_is_rejected(capsys):
    def falls_back(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                if start > 0 and "##" + word[start:end] in vocab:
                    pieces.append("##" + word[start:end])
                    start = end
                    break
                if word[start:end] in vocab:  # the plain piece, when the ## one is missing
                    pieces.append(word[start:end])
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces

    vocab = {"h", "a"}
    assert falls_back("ha", vocab) == ["h", "a"] and greedy("ha", vocab) == ["[UNK]"]
    result = check_encode_wordpiece_word(falls_back)
    out = report(capsys)
    assert not result.passed
    assert "a piece after the first must be found with '##' in front" in out, out


def test_encode_lowercasing_the_word_is_rejected(capsys):
    def lowercased(word, vocab):
        return greedy(word.lower(), vocab)

    assert lowercased("Hug", {"hug"}) == ["hug"] and greedy("Hug", {"hug"}) == ["[UNK]"]
    result = check_encode_wordpiece_word(lowercased)
    out = report(capsys)
    assert not result.passed
    assert "you changed its case" in out, out


def test_encode_second_piece_without_prefix_is_rejected(capsys):
    """``start > 1`` where ``start > 0`` belongs: the piece at position 1 is looked up without '##'."""

    def from_two(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            prefix = "##" if start > 1 else ""
            for end in range(len(word), start, -1):
                if prefix + word[start:end] in vocab:
                    pieces.append(prefix + word[start:end])
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces

    assert from_two("ha", {"h", "a"}) == ["h", "a"]
    result = check_encode_wordpiece_word(from_two)
    assert not result.passed
    assert "start > 0, not start > 1" in report(capsys)


# ---- lesson 11's fresh read: rounded Python floats, and a right answer too slow for big counts ---------------


def rounded_scores(digits):
    def best(word_freq):
        singles = single_counts(word_freq)
        scores = {(a, b): round(c / (singles[a] * singles[b]), digits) for (a, b), c in pair_counts(word_freq).items()}
        return max(scores, key=scores.get)

    return best


@pytest.mark.parametrize("digits", [8, 9, 10, 12, 13, 14, 16, 19])
def test_best_pair_python_floats_rounded_to_many_decimals_are_told_they_rounded(capsys, digits):
    """Rounded to 9, 10 or 12 decimals, Python floats were told they were numpy's float32."""
    result = check_best_wordpiece_pair(rounded_scores(digits))
    out = report(capsys)
    assert not result.passed
    assert "you rounded the scores" in out, out
    assert "float32" not in out.split("hint:")[1], out


def test_the_rounding_cases_are_hand_checked():
    """1/(2500·2500) and 1/(2499·2501) agree to 13 decimals; 1/10**10 and 1/(10**10 - 1) to 19; float32 tells the
    first pair apart (so its own hint stays with the 3,500 case)."""
    import numpy as np

    assert 2499 * 2501 == 2500**2 - 1 and 99_999 * 100_001 == 10**10 - 1
    assert round(1 / 2500**2, 13) == round(1 / (2499 * 2501), 13) and round(1 / 2500**2, 14) != round(
        1 / (2499 * 2501), 14
    )
    assert round(1 / 10**10, 19) == round(1 / (10**10 - 1), 19) and 1 / 10**10 != 1 / (10**10 - 1)
    assert np.float32(1) / np.float32(2500 * 2500) != np.float32(1) / np.float32(2499 * 2501)


def repeats_every_word(word_freq):
    """Right, but weighted by repeating each word freq times: the work grows with the counts."""
    words = []
    for word, freq in word_freq.items():
        words += [word] * freq
    singles, pairs = {}, {}
    for word in words:
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + 1
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + 1
    scores = {pair: Fraction(n, singles[pair[0]] * singles[pair[1]]) for pair, n in pairs.items()}
    return max(scores, key=scores.get)


def test_best_pair_too_slow_for_big_counts_is_told_so_not_endless(capsys):
    """It was told "probably an endless loop"; repeating the words is refused on the first case, whose count is 2**61."""
    result = check_best_wordpiece_pair(repeats_every_word)
    out = report(capsys)
    assert not result.passed and result.failed_case == 1, out
    assert "use the counts, do not repeat the words" in out and "+= freq" in out, out
    assert "endless loop" not in out, out


def test_best_pair_a_loop_over_the_counts_is_told_it_is_slow_not_endless(capsys):
    """A loop over range(freq) meets the line counter on the first case: the hint says why, not "endless"."""

    def counts_one_by_one(word_freq):
        singles, pairs = {}, {}
        for word, freq in word_freq.items():
            for _ in range(freq):
                for symbol in word:
                    singles[symbol] = singles.get(symbol, 0) + 1
                for pair in zip(word, word[1:]):
                    pairs[pair] = pairs.get(pair, 0) + 1
        scores = {pair: Fraction(n, singles[pair[0]] * singles[pair[1]]) for pair, n in pairs.items()}
        return max(scores, key=scores.get)

    result = check_best_wordpiece_pair(counts_one_by_one)
    out = report(capsys)
    assert not result.passed and result.failed_case == 1, out
    assert "too slow on counts of 2,305,843,009,213,693,952" in out and "do not repeat the words" in out, out
    assert "endless loop" not in out, out


# ---- exact ties that Decimal and numpy's longdouble split, and a near tie past every float's precision --------------


def divided(word_freq, number, *, one_division=False, b_first=False):
    """The highest score computed with ``number`` (Decimal, numpy.longdouble) instead of exact fractions."""
    singles = single_counts(word_freq)
    scores = {}
    for (a, b), n in pair_counts(word_freq).items():
        na, nb = number(singles[a]), number(singles[b])
        if one_division:
            scores[a, b] = number(n) / (na * nb)
        else:
            scores[a, b] = number(n) / nb / na if b_first else number(n) / na / nb
    return max(scores, key=scores.get)


def test_the_review_s_decimal_tie_is_split_by_decimal():
    """{a 1, ##b 12, c 6, ##d 2}: both pairs score exactly 1/12; Decimal's 28 digits give (c, ##d) more."""
    from decimal import Decimal

    tie = {("a", "##b"): 1, ("c", "##d"): 1, ("##b",): 11, ("c",): 5, ("##d",): 1}
    assert good_best_pair(tie) == ("a", "##b")
    assert divided(tie, Decimal) == ("c", "##d")


@pytest.mark.parametrize("b_first", [False, True])
@pytest.mark.parametrize("one_division", [False, True])
@pytest.mark.parametrize("number", ["Decimal", "longdouble"])
def test_decimal_and_longdouble_scores_are_rejected(capsys, number, one_division, b_first):
    if one_division and b_first:
        pytest.skip("one division has no order")
    from decimal import Decimal

    import numpy as np

    kind = {"Decimal": Decimal, "longdouble": np.longdouble}[number]
    result = check_best_wordpiece_pair(lambda wf: divided(wf, kind, one_division=one_division, b_first=b_first))
    out = report(capsys)
    assert not result.passed, out
    assert ("Decimal" if number == "Decimal" else "longdouble") in out, out


def test_encode_a_cap_on_the_piece_length_is_caught(capsys):
    """An encoder that tries pieces of at most 10 characters cannot use a longer piece whole."""

    def capped(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            marker = "##" if start else ""
            for end in range(min(len(word), start + 10), start, -1):
                if marker + word[start:end] in vocab:
                    pieces.append(marker + word[start:end])
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces

    assert greedy("internationalization", {"internationalization", "i"}) == ["internationalization"]
    assert capped("internationalization", {"internationalization", "i"}) == ["[UNK]"]
    result = check_encode_wordpiece_word(capped)
    out = report(capsys)
    assert not result.passed, out
    assert "piece" in out and "length" in out, out
