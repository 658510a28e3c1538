"""A run's steps rebuild their corpus and pair counts when read (bpelab.merge_history): the same tables, kept small.

The expected tables come from replaying the run with ``merge_pair`` and ``count_pairs`` one merge at a time,
each corpus kept whole, as training kept them before the history existed.
"""

import random
import tracemalloc

from bpelab.merge_history import CHECKPOINT_EVERY
from bpelab.words import MergeStep, count_pairs, get_word_frequencies, learn_merges, merge_pair, train_bpe


def whole_tables(word_freq, steps):
    """Each step's (pair counts before it, corpus after it), computed whole, merge after merge."""
    tables = []
    for step in steps:
        counts = count_pairs(word_freq)
        word_freq = merge_pair(word_freq, step.pair)
        tables.append((counts, word_freq))
    return tables


def test_every_step_reads_the_tables_training_chose_by_in_any_order(english_sample):
    start = get_word_frequencies(english_sample[:6000])
    steps = list(learn_merges(start, 3 * CHECKPOINT_EVERY + 5, new_symbol=lambda p: p[0] + p[1]))
    expected = whole_tables(start, steps)
    order = list(range(len(steps)))
    random.Random(4).shuffle(order)
    for k in order + order[::-1]:  # backwards, forwards, across checkpoints
        counts, corpus = expected[k]
        assert list(steps[k].word_freq.items()) == list(corpus.items()), k
        assert list(steps[k].pair_counts.items()) == list(counts.items()), k
        assert steps[k].count == counts[steps[k].pair]


def test_two_spellings_that_become_one_word_keep_their_summed_count_as_before():
    start = {("a", "b"): 1, ("ab",): 2, ("a", "b", "c"): 3}
    steps = list(learn_merges(start, 2, new_symbol=lambda p: p[0] + p[1]))
    assert steps[0].word_freq == {("ab",): 2, ("ab", "c"): 3}  # the later count wins, as the dict comprehension does
    assert steps[1].word_freq == {("ab",): 2, ("abc",): 3}
    assert steps[1].pair_counts == {("ab", "c"): 3}


def test_a_long_run_holds_a_small_part_of_its_whole_tables(english_sample):
    text = english_sample[:12000]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = train_bpe(text, 150)
        held = tracemalloc.get_traced_memory()[0] - before
        whole = whole_tables(result.initial_word_freq, result.steps)
        whole_size = tracemalloc.get_traced_memory()[0] - before - held
    finally:
        tracemalloc.stop()
    assert len(whole) == 150
    assert held < whole_size / 10, (held, whole_size)


def test_a_step_made_by_hand_keeps_its_tables_and_cannot_be_changed():
    step = MergeStep(1, {("a", "b"): 2}, ("a", "b"), 2, {("ab",): 2}, "ab")
    assert step.pair_counts == {("a", "b"): 2} and step.word_freq == {("ab",): 2}
    assert step == MergeStep(1, {("a", "b"): 2}, ("a", "b"), 2, {("ab",): 2}, "ab")
    try:
        step.count = 3
    except AttributeError as error:
        assert "cannot be changed" in str(error)
    else:
        raise AssertionError("a MergeStep took a new count")
