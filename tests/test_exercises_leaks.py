"""Wrong answers the checkers used to accept, or named wrongly, each now rejected with a hint that names the bug.

Found by the mutation test (``tests/test_mutation_lessons_*.py``) and by trying the course's own functions and
the usual ways to get a learner's exercise subtly wrong. Each wrong answer here is written the way a learner
writes it, from the lesson's shown solution with one thing changed.
"""

from __future__ import annotations

import functools
import re

import pytest

import bpelab
from bpelab.analysis.compression import bytes_per_token
from bpelab.exercises import (
    EXERCISES,
    check_decode_words,
    check_encode_wordpiece_word,
    check_gini,
    check_group_digits,
    check_parity_next_pair,
    check_smallest_vocab_size,
    check_split_words,
)
from bpelab.exercises.compression import _paragraph
from bpelab.exercises.samples import PARAGRAPH


def rejected(capsys, result) -> str:
    out = capsys.readouterr().out
    assert not result.passed and result.status == "failed", out
    return out


def hint_of(out: str) -> str:
    return re.search(r"hint: +(.*)", out).group(1)


# ---- parity_next_pair ------------------------------------------------------------------------------


def parity(minimum=2, languages=None, compare=">="):
    def parity_next_pair(tokens, pair_counts):
        for language in sorted(tokens, key=lambda lang: -tokens[lang])[:languages]:
            counts = pair_counts[language]
            if counts:
                pair = max(counts, key=counts.get)
                if counts[pair] > minimum - 1 if compare == ">=" else counts[pair] > minimum:
                    return language, pair
        return None

    return parity_next_pair


@pytest.mark.parametrize("wrong", [parity(minimum=2, compare=">"), parity(minimum=3)], ids=["> 2", ">= 3"])
def test_parity_a_pair_seen_exactly_twice_is_merged(capsys, wrong):
    out = rejected(capsys, check_parity_next_pair(wrong, record=False))
    assert "occurs exactly twice" in out
    assert hint_of(out).startswith("a pair seen exactly twice is merged too")


def test_parity_every_language_gets_a_turn_not_only_the_two_worst(capsys):
    out = rejected(capsys, check_parity_next_pair(parity(languages=2), record=False))
    assert "the turn passes on to the third worst" in out
    assert hint_of(out).startswith("you gave only the two worst languages a turn")


def test_parity_the_note_on_a_pair_seen_once_gives_the_reason_to_skip_it(capsys):
    def no_turn_passing(tokens, pair_counts):
        language = max(tokens, key=tokens.get)
        counts = pair_counts[language]
        return (language, max(counts, key=counts.get)) if counts else None

    out = rejected(capsys, check_parity_next_pair(no_turn_passing, record=False))
    assert "saves nothing" not in out
    assert "save one token for a vocabulary row used once" in out
    assert "save one token for a vocabulary row used once" in hint_of(out)


def test_parity_swapped_parameters_are_named(capsys):
    good = parity()

    def parity_next_pair(pair_counts, tokens):  # the body uses each name for what it says
        return good(tokens, pair_counts)

    out = rejected(capsys, check_parity_next_pair(parity_next_pair, record=False))
    assert hint_of(out).startswith("your parameters are in another order (pair_counts, tokens)")


def test_parity_a_crash_on_empty_counts_is_named(capsys):
    def parity_next_pair(tokens, pair_counts):
        for language in sorted(tokens, key=lambda lang: -tokens[lang]):
            counts = pair_counts[language]
            pair = max(counts, key=counts.get)
            if counts[pair] >= 2:
                return language, pair
        return None

    out = rejected(capsys, check_parity_next_pair(parity_next_pair, record=False))
    assert "ValueError" in out and hint_of(out).startswith("max() and min() raise on nothing at all")


# ---- gini ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "wrapped",
    [
        lambda gini: gini,
        lambda gini: lambda values: gini(values),
        lambda gini: functools.partial(gini),
        lambda gini: lambda values: bpelab.analysis.fairness.gini(values),
    ],
    ids=["itself", "lambda", "partial", "lambda by its module path"],
)
def test_gini_refuses_the_packages_gini(capsys, wrapped):
    from bpelab.analysis.fairness import gini

    out = rejected(capsys, check_gini(wrapped(gini), record=False))
    assert "that is the course's function (bpelab.analysis.fairness.gini): write yours" in out


def test_gini_a_division_by_zero_on_no_values_is_named(capsys):
    def gini(values):
        return sum(abs(a - b) for a in values for b in values) / (2 * len(values) * sum(values))

    out = rejected(capsys, check_gini(gini, record=False))
    assert hint_of(out).startswith("you divided by zero: an empty input")


# ---- group_digits ----------------------------------------------------------------------------------


def test_group_digits_leading_zeros_stripped_is_named(capsys):
    def group_digits(digits):
        return f"{int(digits):,}".split(",") if digits else []

    out = rejected(capsys, check_group_digits(group_digits, record=False))
    assert "leading zeros are digits too" in out
    assert hint_of(out).startswith("int() drops leading zeros")


def test_group_digits_int_on_empty_text_is_named(capsys):
    out = rejected(capsys, check_group_digits(lambda digits: f"{int(digits):,}".split(","), record=False))
    assert hint_of(out).startswith("int() drops leading zeros")


def test_group_digits_ascii_only_digits_are_named(capsys):
    def group_digits(digits):
        return re.findall(r"[0-9]{1,3}(?=(?:[0-9]{3})*$)", digits)

    out = rejected(capsys, check_group_digits(group_digits, record=False))
    assert "Arabic-Indic" in out and hint_of(out).startswith("[0-9] matches only the ASCII digits")


# ---- encode_wordpiece_word -------------------------------------------------------------------------


def test_wordpiece_prefix_from_the_second_piece_on(capsys):
    def encode_wordpiece_word(word, vocab):
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

    out = rejected(capsys, check_encode_wordpiece_word(encode_wordpiece_word, record=False))
    assert "(start > 0, not start > 1)" in hint_of(out)  # on the first case it fails ('ha' or 'aaa')


# ---- decode_words ----------------------------------------------------------------------------------


def test_decode_words_strip_loses_a_leading_space(capsys):
    out = rejected(capsys, check_decode_words(lambda s: "".join(s).replace("</w>", " ").strip(" "), record=False))
    assert "decode_words(['</w>', 'low</w>'])" in out and "expected: ' low'" in out
    assert hint_of(out).startswith("you stripped the spaces at BOTH ends")


# ---- split_words -----------------------------------------------------------------------------------


def test_split_words_with_re_is_told_where_re_parts_from_regex(capsys):
    out = rejected(capsys, check_split_words(lambda text: re.findall(r"\w+|[^\w\s]+", text), record=False))
    assert "Hindi" in out and hint_of(out).startswith("Python's re counts fewer characters as word characters")


@pytest.mark.parametrize("text", ["می\u200cخواهم", "👩\u200d👩\u200d👧"])
def test_split_words_tries_the_zero_width_joiner_and_non_joiner(text):
    cases = [case.args[0] for case in EXERCISES["split_words"].build_cases()]
    assert text in cases
    assert re.findall(r"\w+|[^\w\s]+", text) != bpelab.split_text(text, r"\w+|[^\w\s]+")


# ---- smallest_vocab_size: the search itself ----------------------------------------------------------


def search(compare=">=", step=1, answer="high"):
    def smallest_vocab_size(tokenizer, text, goal):
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            value = bytes_per_token(tokenizer.truncated(middle), text)
            if value >= goal if compare == ">=" else value > goal:
                high = middle
            else:
                low = middle + step
        return high if answer == "high" else low - 1

    return smallest_vocab_size


def test_a_right_search_passes_and_is_measured_on_the_lessons_tokenizer(capsys):
    result = check_smallest_vocab_size(search(), _paragraph(), PARAGRAPH, within=0.6, record=False)
    out = capsys.readouterr().out
    assert result.passed, out
    assert out.startswith("✅ smallest_vocab_size: 295 is the smallest")
    assert "your search also passed all 27 checks on other tokenizers, texts and goals" in out


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (search(compare=">"), "a size whose bytes per token EQUALS the goal reaches it"),
        # no usual name for these slips: the hint says only what the size returned measures (it once told every
        # size one too high to keep high = middle, whatever the search had done)
        (search(step=2), "314 reaches the goal, but so does 313, a smaller size"),
        (search(answer="low - 1"), "257 falls short of the goal (2.0000 < 4.0000 bytes per token)"),
    ],
    ids=["> for >=", "low = middle + 2", "low - 1"],
)
def test_an_off_by_one_search_is_judged_on_other_tokenizers(capsys, wrong, hint):
    out = rejected(capsys, check_smallest_vocab_size(wrong, _paragraph(), PARAGRAPH, within=0.6, record=False))
    assert hint_of(out).startswith(hint), out


def test_the_librarys_search_is_refused(capsys):
    from bpelab.analysis.compression import smallest_vocab_size

    out = rejected(capsys, check_smallest_vocab_size(smallest_vocab_size, _paragraph(), PARAGRAPH, record=False))
    assert "that is the course's function (bpelab.analysis.compression.smallest_vocab_size)" in out


# ---- every checker refuses the course's own function -------------------------------------------------


def calling(fn):
    return lambda *args: fn(*args)


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_every_exercise_refuses_its_reference_also_wrapped(name):
    exercise = EXERCISES[name]
    wrapped = [(own, functools.partial(own)) for own in exercise.own_functions]
    wrapped += [(calling(own), lambda *args, own=own: own(*args)) for own in exercise.answer_functions]
    for fns in wrapped:
        for fn in fns:
            result = exercise.run(fn, record=False)
            assert not result.passed and "that is the course's function" in result.message, (name, result.message)


def test_a_lambda_built_on_a_helper_the_lesson_gives_is_the_learners_own(capsys):
    """Lesson 04 builds merge_pair on the course's merge_symbols: that is the learner's merge_pair, not the course's
    (whether Python inlines the comprehension into the lambda's code, as 3.12 does, or not)."""
    from bpelab.exercises import check_merge_pair
    from bpelab.words import merge_symbols

    result = check_merge_pair(
        lambda word_freq, pair: {merge_symbols(word, pair): count for word, count in word_freq.items()}, record=False
    )
    out = capsys.readouterr().out
    # checked as the learner's own: it passes every case but the last, where two spellings become one word and a
    # comprehension keeps one count
    assert "course's function" not in out and result.failed_case == 20, out


# ---- a def that only returns the course's answer is the course's function too ----------------------------------


def returning(answer, wrap=None):
    """A learner's def whose body only returns what the course's function returns (wrapped in ``wrap``)."""
    if wrap is None:

        def yours(*args):
            """Mine, honest."""
            return answer(*args)

    else:

        def yours(*args):
            return wrap(answer(*args))

    return yours


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_every_exercise_refuses_a_def_that_only_returns_its_answer(name):
    """Fresh-eyes review of lessons 02 and 08: ``lambda t: dict(get_word_frequencies(t))`` was refused, the same
    thing written as a ``def`` passed (so did ``split_text(text, P)`` and the library's ``bytes_per_token``)."""
    exercise = EXERCISES[name]
    for answer in exercise.answer_functions:
        for fn in (returning(answer), returning(answer, dict), returning(answer, list), returning(returning(answer))):
            result = exercise.run(fn, record=False)
            assert not result.passed and "that is the course's function" in result.message, (name, result.message)


def test_a_def_that_returns_the_course_function_by_its_dotted_name_is_refused(capsys):
    import bpelab.words
    from bpelab.exercises import check_get_word_frequencies
    from bpelab.exercises.pre_tokenization import check_split_words
    from bpelab.patterns import split_text

    def get_word_frequencies(text):
        return dict(bpelab.words.get_word_frequencies(text))

    def split_words(text):
        return split_text(text, r"\w+|[^\w\s]+")

    assert not check_get_word_frequencies(get_word_frequencies, record=False).passed
    assert not check_split_words(split_words, record=False).passed
    out = capsys.readouterr().out
    assert out.count("that is the course's function") == 2, out


def test_a_def_that_does_more_than_return_the_course_function_is_the_learners_own(capsys):
    """Working on the result, or calling the learner's own helper, is the learner's code: judged on its answers."""
    from bpelab.exercises import check_get_word_frequencies
    from bpelab.exercises.compression import check_bytes_per_token

    def helper(tokenizer, text):
        return len(text.encode("utf-8")) / len(tokenizer.encode(text))

    def bytes_per_token(tokenizer, text):
        return helper(tokenizer, text)

    def get_word_frequencies(text):
        counts = {}
        for word in text.split():
            counts[(*word, "</w>")] = counts.get((*word, "</w>"), 0) + 1
        return counts

    assert check_bytes_per_token(bytes_per_token, record=False).passed
    assert check_get_word_frequencies(get_word_frequencies, record=False).passed
    assert "course's function" not in capsys.readouterr().out
