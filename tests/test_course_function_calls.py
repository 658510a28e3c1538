"""A learner's ``def`` that calls the course's answer anywhere in its body is refused, not only one that returns
its result unchanged: ``return train_bpe(text, n).merges`` (lesson 04) and ``max`` over ``wordpiece_scores``
(lesson 11) passed their checkers, while the same code as a lambda was refused."""

from __future__ import annotations

from bpelab import train_bpe
from bpelab.exercises import check_best_wordpiece_pair, check_training_loop
from bpelab.wordpiece import wordpiece_scores
from bpelab.words import count_pairs

REFUSED = "that is the course's function"


def takes_the_merges(text, num_merges):
    return train_bpe(text, num_merges).merges


def keeps_the_result_first(text, num_merges):
    result = train_bpe(text, num_merges)
    merges = result.merges
    return list(merges)


def through_a_helper_of_its_own(text, num_merges):
    return trained(text, num_merges).merges


def trained(text, num_merges):
    return train_bpe(text, num_merges)


def picks_the_best_score(word_freq):
    scores = wordpiece_scores(count_pairs(word_freq), word_freq)
    return max(scores, key=scores.get)


def test_a_def_working_on_train_bpes_result_is_the_course_function(capsys):
    for answer in (takes_the_merges, keeps_the_result_first, through_a_helper_of_its_own):
        assert not check_training_loop(answer, record=False)
        assert REFUSED in capsys.readouterr().out, answer.__name__


def test_max_over_the_course_scores_is_the_course_function(capsys):
    assert not check_best_wordpiece_pair(picks_the_best_score, record=False)
    assert REFUSED in capsys.readouterr().out
