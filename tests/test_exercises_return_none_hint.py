"""A function that returns None on purpose (an explicit ``return None``) is not told that a path "ends without
reaching return": it did reach one. Lesson 14's parity_next_pair asks for ``None`` when no language has a pair
that occurs twice, so a wrong answer there often returns None by its own ``return None``."""

from __future__ import annotations

from bpelab.exercises import check_count_pairs, check_parity_next_pair


def stops_at_the_worst_language(tokens, pair_counts):
    """Skips languages with no pairs, but gives up when the worst language's best pair occurs once."""
    for language in sorted(tokens, key=lambda name: -tokens[name]):
        counts = pair_counts.get(language, {})
        if not counts:
            continue
        pair = max(counts, key=counts.get)
        if counts[pair] >= 2:
            return language, pair
        return None
    return None


def falls_off_the_end(word_freq):
    """Returns its counts only when there are some: with no pairs it runs off its end and Python returns None."""
    pairs = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + freq
    if pairs:
        return pairs


def test_an_explicit_return_none_gets_the_exercises_hint_not_the_missing_return_one(capsys):
    result = check_parity_next_pair(stops_at_the_worst_language, record=False)
    out = capsys.readouterr().out
    assert not result
    assert "without reaching `return`" not in out, out
    assert "returned None" in out and "go through the languages from most tokens to fewest" in out, out


def test_a_path_that_falls_off_the_end_is_still_named(capsys):
    result = check_count_pairs(falls_off_the_end, record=False)
    out = capsys.readouterr().out
    assert not result
    assert "some path through it ends without reaching `return`" in out, out


def test_a_value_handed_in_is_told_to_pass_the_function_itself(capsys):
    from bpelab.exercises import check_gini

    result = check_gini(0.25, record=False)  # check_gini(gini([1, 3])): called by mistake
    out = capsys.readouterr().out
    assert not result
    assert "got a float, 0.25" in out and "pass the function itself, without calling it" in out, out


def test_none_in_a_branch_of_a_return_is_a_return_none_of_its_own():
    """``return r if r > 0 else None`` returns None as written: not "a path ends without return" (fresh read of
    lesson 10)."""
    from bpelab.exercises.running import ways_to_none

    def room(left):
        return left if left > 0 else None

    def nested(left):
        return left if left > 10 else (left if left > 0 else None)

    def never(left):
        return left if left > 0 else 0

    assert ways_to_none(room) == (True, False)
    assert ways_to_none(nested) == (True, False)
    assert ways_to_none(never) == (False, False)
