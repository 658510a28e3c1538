"""An exercise whose ties go to the first listed (lesson 14's parity_next_pair) must not reorder its inputs: a
language popped and put back, or a language's pairs rebuilt sorted, changes the next call's answer (fresh read of
lessons 14 and 15: both passed all 54 checks then (57 now))."""

from __future__ import annotations

from bpelab.exercises.parity import check_parity_next_pair


def parity_next_pair(tokens, pair_counts):
    for language in sorted(tokens, key=lambda name: -tokens[name]):
        counts = pair_counts.get(language, {})
        if counts and counts[max(counts, key=counts.get)] >= 2:
            return language, max(counts, key=counts.get)
    return None


def test_an_answer_that_leaves_its_inputs_alone_passes():
    assert check_parity_next_pair(parity_next_pair, record=False).passed


def test_a_language_popped_and_put_back_is_a_changed_input(capsys):
    def popping(tokens, pair_counts):
        stuck = []
        while tokens:
            language = max(tokens, key=tokens.get)
            counts = pair_counts.get(language, {})
            if counts and max(counts.values()) >= 2:
                break
            stuck.append((language, tokens.pop(language)))
        answer = parity_next_pair(tokens, pair_counts)
        tokens.update(stuck)
        return answer

    assert not check_parity_next_pair(popping, record=False).passed
    assert "reordered tokens" in capsys.readouterr().out


def test_pairs_rebuilt_sorted_are_a_changed_input(capsys):
    def sorting(tokens, pair_counts):
        answer = parity_next_pair(tokens, pair_counts)
        for language in pair_counts:
            pair_counts[language] = dict(sorted(pair_counts[language].items(), key=lambda item: -item[1]))
        return answer

    assert not check_parity_next_pair(sorting, record=False).passed
    assert "reordered pair_counts" in capsys.readouterr().out
