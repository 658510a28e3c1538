"""Wrong answers a fresh reader wrote for the checkers of lessons 00, 04 and 11, each refused with the hint that
names its mistake: words repeated by their counts (cheaply, before any big list is built), integer-scaled and
longdouble scores, ties to the last pair in the training loop, helpers still left as stubs."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import Counter
from fractions import Fraction

import pytest

from bpelab import count_pairs, get_word_frequencies, merge_pair
from bpelab.exercises import check_merge_pair, check_merge_symbols, check_training_loop
from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.exercises.warmup import check_count_characters


def report(capsys):
    return capsys.readouterr().out


def counted(word_freq):
    """Symbol and pair counts weighted by the word counts, written as a learner writes them."""
    singles, pairs = Counter(), Counter()
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] += freq
        for pair in zip(word, word[1:]):
            pairs[pair] += freq
    return singles, pairs


# ---- 1. words repeated freq times: refused on the first case, before any big list is built ---------------------

REPEATERS = {
    # the list built by one C call ([word] * freq): 1 GB at 2**27, ~3 GB with the += copy; counting in C (Counter)
    "list_times_freq": """
        def best_wordpiece_pair(word_freq):
            words = []
            for word, freq in word_freq.items():
                words += [word] * freq
            singles = Counter(chain.from_iterable(words))
            pairs = Counter(chain.from_iterable(zip(w, w[1:]) for w in words))
            scores = {p: Fraction(n, singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
            return max(scores, key=scores.get)
    """,
    # every symbol repeated: list(word) * freq
    "symbols_times_freq": """
        def best_wordpiece_pair(word_freq):
            symbols = [s for w, f in word_freq.items() for s in list(w) * f]
            singles = Counter(symbols)
            pairs = Counter()
            for w, f in word_freq.items():
                for p in zip(w, w[1:]):
                    pairs[p] += f
            scores = {p: Fraction(n, singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
            return max(scores, key=scores.get)
    """,
    # a Python loop over range(freq)
    "loop_over_range": """
        def best_wordpiece_pair(word_freq):
            words = [w for w, f in word_freq.items() for _ in range(f)]
            singles = Counter(s for w in words for s in w)
            pairs = Counter(p for w in words for p in zip(w, w[1:]))
            scores = {p: Fraction(n, singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
            return max(scores, key=scores.get)
    """,
}


@pytest.mark.parametrize("name", sorted(REPEATERS))
def test_best_pair_repeating_words_is_refused_on_a_small_case_with_little_memory(name):
    """Run in a fresh process, so that its peak memory is the check's own."""
    script = (
        textwrap.dedent(
            """
        import json, resource, sys
        from collections import Counter
        from fractions import Fraction
        from itertools import chain
        from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair
        """
        )
        + textwrap.dedent(REPEATERS[name])
        + textwrap.dedent(
            """
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result = check_best_wordpiece_pair(best_wordpiece_pair, record=False)
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
        sys.stderr.write(json.dumps({"failed_case": result.failed_case, "message": result.message, "grown": grown}))
        """
        )
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    outcome = json.loads(done.stderr.strip().splitlines()[-1])
    message = outcome["message"]
    assert outcome["failed_case"] == 1, message
    assert "use the counts, do not repeat the words" in message, message
    assert outcome["grown"] < 200 * 2**20, (outcome["grown"], message)


def test_best_pair_the_first_case_is_one_pair_so_every_other_mistake_passes_it():
    from bpelab.exercises.beyond_bpe import BEST_PAIR

    first = BEST_PAIR.build_cases()[0]
    (word_freq,) = first.args
    assert len(word_freq) == 1 and len(next(iter(word_freq))) == 2 and first.expected == next(iter(word_freq))
    assert max(word_freq.values()) >= 2**61  # [word] * count asks for 8 * count bytes: more than any machine's


# ---- 2. integer-scaled and longdouble scores: the hint names that mistake -----------------------------------------


def integer_scaled(scale):
    def best_wordpiece_pair(word_freq):
        singles, pairs = counted(word_freq)
        n_total = scale(singles, pairs)
        scores = {p: n * n_total // (singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
        return max(scores, key=scores.get)

    return best_wordpiece_pair


@pytest.mark.parametrize(
    "scale",
    [
        lambda singles, pairs: sum(singles.values()),  # count_ab * N // (count_a * count_b), N symbols in all
        lambda singles, pairs: sum(pairs.values()),
        lambda singles, pairs: 10**6,
        lambda singles, pairs: 10**20,
        lambda singles, pairs: 10**40,
    ],
    ids=["symbols", "pairs", "1e6", "1e20", "1e40"],
)
def test_best_pair_integer_division_is_told_it_truncates(capsys, scale):
    result = check_best_wordpiece_pair(integer_scaled(scale), record=False)
    out = report(capsys)
    assert not result.passed, out
    hint = next(line for line in out.splitlines() if line.lstrip().startswith("hint:"))
    assert "integer division" in hint and "Decimal" not in hint and "float" not in hint, out


def test_best_pair_integer_scaling_above_every_denominator_squared_is_right_and_accepted(capsys):
    """A scale above the square of every product of two denominators keeps every different score different: that
    answer is right, whatever the counts."""
    scale = integer_scaled(lambda singles, pairs: max(singles.values()) ** 4 + 1)
    assert check_best_wordpiece_pair(scale, record=False).passed, report(capsys)


def test_best_pair_a_fixed_power_of_ten_is_rejected_and_named(capsys):
    """A fixed scale (10**80) is exact only up to some counts: the case with counts of 10**200 ties it (read 10)."""
    from bpelab.exercises.beyond_bpe import FIXED_PRECISION_HINT

    assert not check_best_wordpiece_pair(integer_scaled(lambda singles, pairs: 10**80), record=False).passed
    assert FIXED_PRECISION_HINT[:60] in report(capsys)


def divided(number, order):
    def best_wordpiece_pair(word_freq):
        singles, pairs = counted(word_freq)
        scores = {}
        for (a, b), n in pairs.items():
            na, nb = number(singles[a]), number(singles[b])
            if order == "one":
                scores[a, b] = number(n) / (na * nb)
            elif order == "ba":
                scores[a, b] = number(n) / nb / na
            else:
                scores[a, b] = number(n) / na / nb
        return max(scores, key=scores.get)

    return best_wordpiece_pair


@pytest.mark.parametrize("order", ["ab", "ba", "one"])
@pytest.mark.parametrize("number", ["Decimal", "longdouble"])
def test_best_pair_decimal_and_longdouble_each_get_their_own_hint(capsys, number, order):
    from decimal import Decimal

    import numpy as np

    if number == "longdouble" and np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is a plain float on this machine: the float hints apply")
    kind = {"Decimal": Decimal, "longdouble": np.longdouble}[number]
    result = check_best_wordpiece_pair(divided(kind, order), record=False)
    out = report(capsys)
    assert not result.passed, out
    other = "longdouble" if number == "Decimal" else "Decimal"
    hint = next(line for line in out.splitlines() if line.lstrip().startswith("hint:"))
    assert number in hint and other not in hint, out


def test_the_longdouble_case_is_a_near_tie_that_28_digits_keep_apart():
    """Products 2**70 and 2**70 - 1: 28 significant digits tell them apart, 64 bits of mantissa do not."""
    from decimal import Decimal

    import numpy as np

    big = 2**70
    assert big - 1 == (2**35 - 1) * (2**35 + 1)
    assert Decimal(1) / Decimal(big) != Decimal(1) / Decimal(big - 1)
    if np.finfo(np.longdouble).nmant == 63:
        assert np.longdouble(1) / np.longdouble(big) == np.longdouble(1) / np.longdouble(big - 1)


# ---- 3. lesson 04: ties to the last pair --------------------------------------------------------------------------


def train_picking(pick):
    def train(text, num_merges):
        word_freq, merges = get_word_frequencies(text), []
        for _ in range(num_merges):
            counts = count_pairs(word_freq)
            if not counts:
                break
            pair = pick(counts)
            word_freq = merge_pair(word_freq, pair)
            merges.append((pair, pair[0] + pair[1]))
        return merges

    return train


def last_by_greater_or_equal(counts):
    best = None
    for pair, n in counts.items():
        if best is None or n >= counts[best]:
            best = pair
    return best


@pytest.mark.parametrize(
    "pick",
    [lambda c: max(reversed(list(c)), key=c.get), last_by_greater_or_equal, lambda c: sorted(c, key=c.get)[-1]],
    ids=["max over reversed", ">= in a loop", "sorted()[-1]"],
)
def test_training_loop_ties_to_the_last_pair_are_named(capsys, pick):
    result = check_training_loop(train_picking(pick), record=False)
    out = report(capsys)
    assert not result.passed, out
    assert "last" in out and "seen first" in out, out
    assert "right to left" not in out and "direction" not in out, out


# ---- 4. a helper still the stub: "finish <name> first" -------------------------------------------------------------


def my_merge_symbols(symbols, pair):
    # your code here
    ...


def my_merge_symbols_raising(symbols, pair):
    raise NotImplementedError


def my_merge_pair(word_freq, pair):
    return {my_merge_symbols(word, pair): count for word, count in word_freq.items()}


def my_merge_pair_raising(word_freq, pair):
    return {my_merge_symbols_raising(word, pair): count for word, count in word_freq.items()}


def my_train(text, num_merges):
    word_freq, merges = get_word_frequencies(text), []
    for _ in range(num_merges):
        counts = count_pairs(word_freq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        word_freq = my_merge_pair(word_freq, pair)
        merges.append((pair, pair[0] + pair[1]))
    return merges


def my_pair_counts(word_freq):
    """Not written yet."""
    return None


def my_best_wordpiece_pair(word_freq):
    singles, _ = counted(word_freq)
    pairs = my_pair_counts(word_freq)
    scores = {p: Fraction(n, singles[p[0]] * singles[p[1]]) for p, n in pairs.items()}
    return max(scores, key=scores.get)


def my_piece(word, start, vocab):
    raise NotImplementedError


def my_encode_wordpiece_word(word, vocab):
    pieces, start = [], 0
    while start < len(word):
        piece = my_piece(word, start, vocab)
        pieces.append(piece)
        start += len(piece)
    return pieces


def my_letter_count(counts, ch): ...


def my_count_characters(text):
    counts = {}
    for ch in text:
        counts[ch] = my_letter_count(counts, ch)
    return counts


@pytest.mark.parametrize(
    "checker, fn, helper",
    [
        (check_merge_pair, my_merge_pair, "my_merge_symbols"),
        (check_merge_pair, my_merge_pair_raising, "my_merge_symbols_raising"),
        (check_training_loop, my_train, "my_merge_symbols"),  # through my_merge_pair, which is written
        (check_best_wordpiece_pair, my_best_wordpiece_pair, "my_pair_counts"),
        (check_encode_wordpiece_word, my_encode_wordpiece_word, "my_piece"),
        (check_count_characters, my_count_characters, "my_letter_count"),
    ],
    ids=["merge_pair", "merge_pair raising", "train", "best_wordpiece_pair", "encode_wordpiece_word", "warm-up"],
)
def test_a_helper_still_the_stub_is_named(capsys, checker, fn, helper):
    result = checker(fn, record=False)
    out = report(capsys)
    assert not result.passed, out
    assert f"finish {helper} first" in out, out


def test_a_finished_helper_is_not_blamed(capsys):
    """A helper with a body of its own is not a stub, even if the answer is wrong."""

    def my_symbols(symbols, pair):
        return symbols  # wrong, but written

    def merge(word_freq, pair):
        return {my_symbols(word, pair): count for word, count in word_freq.items()}

    check_merge_pair(merge, record=False)
    assert "finish" not in report(capsys)


def test_merge_symbols_stub_itself_is_still_not_yet(capsys):
    assert check_merge_symbols(my_merge_symbols, record=False).status == "not yet"


# ---- 10. an exception outside Exception's family ------------------------------------------------------------------


class LearnersOwnStop(BaseException):
    """A learner's exception derived from BaseException, as KeyboardInterrupt and SystemExit are."""


def raises_base_exception(*args):
    raise LearnersOwnStop("stop")


@pytest.mark.parametrize(
    "checker",
    [check_count_characters, check_merge_symbols, check_merge_pair, check_training_loop, check_best_wordpiece_pair],
)
def test_a_learners_base_exception_becomes_a_report(capsys, checker):
    result = checker(raises_base_exception, record=False)
    assert not result.passed and "LearnersOwnStop" in report(capsys)


# ---- 5. what the train form says when it stops: a merge of a pair seen once saves one token, for one entry ---------


def test_stop_reason_says_exactly_what_merging_a_pair_seen_once_would_do():
    from pathlib import Path

    from bpelab.widgets.form_training import stop_reason, stopped_at_single
    from bpelab.words import train_bpe

    text = "ab ab cd"  # (a, b) twice, (c, d) once
    full = train_bpe(text, 5)
    cut = stopped_at_single(full)
    reason = stop_reason(cut, 5)
    assert "shorten the text by one token and add one vocabulary entry" in reason, reason
    # what the next merge, of a pair seen once, would have done: one token fewer, one symbol more
    kept, following = len(cut.steps), full.steps[len(cut.steps)]
    assert following.count == 1
    tokens = [sum(len(w) * n for w, n in s.word_freq.items()) for s in (full.steps[kept - 1], following)]
    assert tokens[0] - tokens[1] == 1
    assert len(train_bpe(text, kept + 1).vocabulary) == len(cut.vocabulary) + 1
    js = (Path(__file__).parent.parent / "bpelab/widgets/static/train_form.js").read_text(encoding="utf-8")
    assert reason[reason.index("(merging") :] in js  # the page says the same
