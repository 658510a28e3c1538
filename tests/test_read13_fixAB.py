"""Lessons 00, 02, 03 and 04, thirteenth fresh read (fixAB): wrong answers that passed, hints that named the wrong bug,
a sentence that said "spaces" where whitespace is meant, and a form whose training outran its promise.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Expected answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import nbformat
import pytest

from bpelab.corpora import read_corpus
from bpelab.exercises import check_count_pairs, check_merge_pair, check_merge_symbols
from bpelab.exercises.pair_counts import COUNT_PAIRS
from bpelab.exercises.pair_merging import MERGE_PAIR, MERGE_SYMBOLS
from bpelab.exercises.ties import MOST_FREQUENT_PAIRS, check_most_frequent_pairs
from bpelab.exercises.warmup import check_count_characters
from bpelab.widgets.classroom import ClassroomStepper
from bpelab.widgets.form_training import (
    MOST_CHARACTERS,
    MOST_MERGES,
    MOST_WORK,
    most_merges_for,
    too_slow,
    train_for_form,
    training_work,
)
from bpelab.widgets.stepper import MergeStepper
from bpelab.words import train_bpe
from tests.shown_solutions import lesson_path, shown_solution


def hint_of(out: str) -> str:
    """The report's hint lines, joined (the report wraps long hints)."""
    return " ".join(out.split())


# ---- finding 1: a max loop that never looks at the last pair -------------------------------------------------------


def max_loop_skips_last(pair_counts):
    items = list(pair_counts.items())
    top = 0
    for i in range(len(items) - 1):
        if items[i][1] > top:
            top = items[i][1]
    return [p for p, c in items if c == top]


def max_from_first_skips_last(pair_counts):
    items = list(pair_counts.items())
    if not items:
        return []
    top = items[0][1]
    for i in range(1, len(items) - 1):
        if items[i][1] > top:
            top = items[i][1]
    return [p for p, c in items if c == top]


def max_of_all_but_last(pair_counts):
    if not pair_counts:
        return []
    counts = list(pair_counts.values())
    top = max(counts[:-1])
    return [p for p, c in pair_counts.items() if c == top]


def test_the_reviewers_two_inputs():
    assert max_loop_skips_last({("a", "b"): 4}) == []
    assert max_loop_skips_last({("a", "b"): 1, ("b", "</w>"): 2}) == [("a", "b")]
    solution = shown_solution("03", "94df812c", "most_frequent_pairs")
    inputs = [case.args[0] for case in MOST_FREQUENT_PAIRS.build_cases()]
    assert any(len(counts) == 1 for counts in inputs), "no case has exactly one pair"
    assert any(
        counts and list(counts.values())[-1] > max(list(counts.values())[:-1], default=0) for counts in inputs
    ), "no case has its single highest count in the last pair"
    for counts in inputs:
        assert solution(dict(counts)) == MOST_FREQUENT_PAIRS.reference(dict(counts))


@pytest.mark.parametrize("wrong", [max_loop_skips_last, max_from_first_skips_last, max_of_all_but_last])
def test_a_max_that_skips_the_last_pair_fails(wrong, capsys):
    assert not check_most_frequent_pairs(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "your loop never looks at the last pair" in out, out
    assert "return [] when pair_counts is empty" not in out, out


def test_an_empty_dict_still_gets_its_own_hint(capsys):
    def no_empty_check(pair_counts):
        top = max(pair_counts.values())
        return [p for p, c in pair_counts.items() if c == top]

    assert not check_most_frequent_pairs(no_empty_check, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "return [] when pair_counts is empty" in out, out


def test_most_frequent_pairs_solution_passes():
    assert check_most_frequent_pairs(shown_solution("03", "94df812c", "most_frequent_pairs"), record=False).passed


# ---- finding 2: a pair three times in one word, and a run of six ---------------------------------------------------

THRICE = ("a", "b", "a", "b", "a", "b")
RUN = ("a",) * 6


def merge_at_most_twice(symbols, pair):
    out, i, done = [], 0, 0
    while i < len(symbols):
        if done < 2 and i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
            done += 1
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def merge_first_and_last(symbols, pair):
    """Merges the first match from the left and the first from the right: right on every word with two or fewer."""
    symbols = list(symbols)
    places = [i for i in range(len(symbols) - 1) if (symbols[i], symbols[i + 1]) == pair]
    if not places:
        return tuple(symbols)
    first = places[0]
    last = next((i for i in reversed(places) if i >= first + 2), None)
    if last is not None:
        symbols[last : last + 2] = [symbols[last] + symbols[last + 1]]
    symbols[first : first + 2] = [symbols[first] + symbols[first + 1]]
    return tuple(symbols)


def count_at_most_twice(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        seen = {}
        for pair in zip(word, word[1:]):
            seen[pair] = seen.get(pair, 0) + 1
            if seen[pair] <= 2:
                counts[pair] = counts.get(pair, 0) + freq
    return counts


def test_the_new_words_are_checked():
    merge = shown_solution("04", "cell-12", "my_merge_symbols")
    assert merge(RUN, ("a", "a")) == ("aa", "aa", "aa")  # the overlap rule, from the lesson's own solution
    for exercise, needle in ((MERGE_SYMBOLS, THRICE), (MERGE_SYMBOLS, RUN)):
        assert any(case.args[0][: len(needle)] == needle for case in exercise.build_cases()), needle
    for exercise in (MERGE_PAIR, COUNT_PAIRS):
        words = [w for case in exercise.build_cases() for w in case.args[0]]
        assert any(w[:6] == THRICE for w in words) and any(w[:6] == RUN for w in words)


@pytest.mark.parametrize("wrong", [merge_at_most_twice, merge_first_and_last])
def test_merge_symbols_that_stops_early_fails(wrong):
    assert not check_merge_symbols(wrong, record=False).passed


@pytest.mark.parametrize("wrong_word", [merge_at_most_twice, merge_first_and_last])
def test_merge_pair_that_stops_early_fails(wrong_word):
    def my_merge_pair(word_freq, pair):
        merged = {}
        for word, count in word_freq.items():
            new_word = wrong_word(word, pair)
            merged[new_word] = merged.get(new_word, 0) + count
        return merged

    assert not check_merge_pair(my_merge_pair, record=False).passed


def test_count_pairs_at_most_twice_fails():
    assert not check_count_pairs(count_at_most_twice, record=False).passed


def test_the_shown_solutions_still_pass():
    merge_symbols = shown_solution("04", "cell-12", "my_merge_symbols")
    assert check_merge_symbols(merge_symbols, record=False).passed
    assert check_merge_pair(
        shown_solution("04", "cell-18", "my_merge_pair", merge_symbols=merge_symbols), record=False
    ).passed
    assert check_count_pairs(shown_solution("03", "81ea6bc5", "count_pairs"), record=False).passed


# ---- finding 3: count_pairs with its pairs reversed ----------------------------------------------------------------


def reversed_pairs(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for pair in zip(word[1:], word):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def across_boundaries(word_freq):
    """The words run together: the last symbol of one word and the first of the next make a pair."""
    symbols = [s for word, freq in word_freq.items() for _ in range(freq) for s in word]
    counts = {}
    for pair in zip(symbols, symbols[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def test_reversed_pairs_are_named(capsys):
    assert not check_count_pairs(reversed_pairs, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "reversed" in out and "zip(word, word[1:])" in out, out
    assert "across word boundaries" not in out, out


def test_pairs_across_words_keep_their_hint(capsys):
    assert not check_count_pairs(across_boundaries, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "across word boundaries" in out, out


# ---- finding 4: int keys that are not digits -----------------------------------------------------------------------


def by_code_point(text):
    counts = {}
    for ch in text:
        counts[ord(ch)] = counts.get(ord(ch), 0) + 1
    return counts


def swapped(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return {n: ch for ch, n in counts.items()}


def bytes_of_non_ascii(text):
    """ASCII characters counted as they are, the others as their UTF-8 bytes."""
    counts = {}
    for ch in text:
        for key in [ch] if ch.isascii() else list(ch.encode("utf-8")):
            counts[key] = counts.get(key, 0) + 1
    return counts


def digits_as_ints(text):
    counts = {}
    for ch in text:
        key = int(ch) if ch.isdigit() else ch
        counts[key] = counts.get(key, 0) + 1
    return counts


@pytest.mark.parametrize(
    ("wrong", "needle"),
    [
        (by_code_point, "not ord(ch)"),
        (swapped, "swapped"),
        (bytes_of_non_ascii, "bytes"),
        (digits_as_ints, "'7', not the number 7"),
    ],
)
def test_int_keys_get_their_own_hint(wrong, needle, capsys):
    assert not check_count_characters(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert needle in out, out
    if wrong is not digits_as_ints:
        assert "'7', not the number 7" not in out, out


# ---- finding 5: lesson 03 cell 33, whitespace pieces ---------------------------------------------------------------


def test_lesson_03_says_whitespace_only():
    cells = {c.id: c for c in nbformat.read(lesson_path("03"), as_version=4).cells}
    prose = " ".join(cells["115bcdf3"].source.split())
    assert "Such a piece holds spaces only" not in prose
    assert "whitespace only" in prose
    assert "so its pairs are space + space" not in prose


def test_lesson_03_computes_whitespace_pieces():
    """The cell after the sentence cuts a text with a tab and new lines, and shows every piece that ends in a space is
    whitespace only, with no pair of a letter and a space."""
    cells = {c.id: c for c in nbformat.read(lesson_path("03"), as_version=4).cells}
    code = cells["3b7c2e10"]
    assert "\\t" in code.source and "\\n" in code.source
    out = "".join(o.get("text", "") for o in code.outputs)
    assert "b'\\n\\n '" in out and "whitespace only: True" in out, out
    assert "pairs of a letter and a space: []" in out, out  # read 15 (fixAK): whitespace decoded, as the regex has it


# ---- finding 6: the form's training in Python: bounded, with progress ----------------------------------------------

CJK = "".join(chr(0x4E00 + (i * 7919) % 300) for i in range(MOST_CHARACTERS))  # no spaces: one word


def test_the_old_worst_cases_are_refused():
    """At the old limits (50,000 characters, 500 merges) English took 16.6 s and CJK without spaces 52.5 s."""
    english = read_corpus("english_train")[:MOST_CHARACTERS]
    for text in (english, CJK):
        assert training_work(text) * MOST_MERGES > MOST_WORK
        assert too_slow(text, MOST_MERGES)
    assert most_merges_for(english) == 47  # the number form_training's note gives
    assert most_merges_for(CJK) == MOST_WORK // (MOST_CHARACTERS + 1)


def test_a_text_with_no_spaces_has_lower_limits():
    """One long word: 1,999 characters train 500 merges, 2,000 do not; 19,999 train 50 (the note's numbers)."""
    assert most_merges_for(CJK[:1_999]) == MOST_MERGES and not too_slow(CJK[:1_999], MOST_MERGES)
    assert too_slow(CJK[:2_000], MOST_MERGES) and "at most 499 merges" in too_slow(CJK[:2_000], MOST_MERGES)
    assert most_merges_for(CJK[:19_999]) == 50 and too_slow(CJK[:20_000], 50)


def test_every_accepted_request_stays_within_the_bound():
    for text in (CJK[:5_000], read_corpus("english_train")[:20_000], "low lower " * 100):
        for punct in (False, True):
            most = most_merges_for(text, split_punctuation=punct)
            assert most * training_work(text, split_punctuation=punct) <= MOST_WORK
            assert not too_slow(text, most, split_punctuation=punct)
            assert too_slow(text, most + 1, split_punctuation=punct) or most == MOST_MERGES


def test_train_for_form_is_train_bpe_and_reports_each_merge():
    seen = []
    result = train_for_form(
        "nest sent tens net ten", 6, tie_break="lexicographic", progress=lambda d, n: seen.append((d, n))
    )
    expected = train_bpe("nest sent tens net ten", 6, tie_break="lexicographic")
    assert result.merges == expected.merges and result.word_freq == expected.word_freq
    assert seen == [(i, 6) for i in range(1, 7)]


def test_the_stepper_refuses_the_worst_case_and_shows_progress():
    stepper = MergeStepper(train_bpe("low lower", 3))
    before = stepper.result
    stepper.train_request = {"text": CJK, "merges": MOST_MERGES, "tie_break": "first", "n": 1}
    assert stepper.result is before and "keep Python busy too long" in stepper.message, stepper.message
    messages = []
    stepper.observe(lambda change: messages.append(change["new"]), names="message")
    text = CJK[:1_500]
    stepper.train_request = {"text": text, "merges": 300, "tie_break": "first", "n": 2}
    progress = [m for m in messages if m.startswith("Training in Python… ")]
    assert progress[0] == "Training in Python… 1 of 300 merges", messages
    assert progress[-1] == "Training in Python… 300 of 300 merges", messages
    done = [int(m.split("… ")[1].split(" of")[0]) for m in progress]
    assert done == sorted(done)
    assert stepper.num_steps == 300 and stepper.message.startswith("Trained"), stepper.message


def test_classroom_refuses_the_worst_case():
    app = ClassroomStepper(train=False)
    app.train_request = {
        "text": CJK,
        "merges": 100,
        "tie_break": "first",
        "keep_step": False,
        "stop_at_single": False,
        "n": 1,
    }
    assert "keep Python busy too long" in app.message and "at most 19 merges" in app.message, app.message
