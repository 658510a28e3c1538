"""The checkers of lesson 12: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import pytest

from bpelab.exercises.speed import check_merge_lowest_rank, check_pair_count_changes


def report(capsys):
    return capsys.readouterr().out


# ---- pair_count_changes -----------------------------------------------------------------------


def good_changes(old_word, new_word, freq):
    changes = {}
    for pair in zip(old_word, old_word[1:]):
        changes[pair] = changes.get(pair, 0) - freq
    for pair in zip(new_word, new_word[1:]):
        changes[pair] = changes.get(pair, 0) + freq
    return {pair: n for pair, n in changes.items() if n != 0}


def test_changes_right_answer_passes(capsys):
    assert check_pair_count_changes(good_changes).passed
    assert report(capsys).startswith("✅ pair_count_changes: all")


def test_changes_with_counters_passes(capsys):
    from collections import Counter

    def with_counters(old_word, new_word, freq):
        change = Counter()
        change.subtract({p: freq * n for p, n in Counter(zip(old_word, old_word[1:])).items()})
        change.update({p: freq * n for p, n in Counter(zip(new_word, new_word[1:])).items()})
        return {p: n for p, n in change.items() if n}

    assert check_pair_count_changes(with_counters).passed


def test_changes_stub_is_not_yet(capsys):
    def pair_count_changes(old_word, new_word, freq):
        # your code here
        ...

    assert check_pair_count_changes(pair_count_changes).status == "not yet"


def with_zeros(old_word, new_word, freq):
    changes = {}
    for pair in zip(old_word, old_word[1:]):
        changes[pair] = changes.get(pair, 0) - freq
    for pair in zip(new_word, new_word[1:]):
        changes[pair] = changes.get(pair, 0) + freq
    return changes


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (with_zeros, "leave out the pairs whose change is 0"),
        (lambda o, n, f: good_changes(o, n, 1), "subtract and add freq, not 1"),
        (lambda o, n, f: {p: -c for p, c in good_changes(o, n, f).items()}, "signs are the wrong way round"),
        (
            lambda o, n, f: {
                **{p: -f for p in set(zip(o, o[1:])) - set(zip(n, n[1:]))},
                **{p: f for p in set(zip(n, n[1:])) - set(zip(o, o[1:]))},
            },
            "more than once",
        ),
        (lambda o, n, f: {"".join(map(str, p)): c for p, c in good_changes(o, n, f).items()}, "pairs (tuples)"),
    ],
)
def test_changes_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_pair_count_changes(wrong).passed
    assert hint in report(capsys)


# ---- merge_lowest_rank ------------------------------------------------------------------------


def lowest_first(ids, merges, pick=min):
    parts = list(ids)
    while True:
        ranked = [(merges[pair], i) for i, pair in enumerate(zip(parts, parts[1:])) if pair in merges]
        if not ranked:
            return parts
        rank, i = pick(ranked)
        parts[i : i + 2] = [rank]


def replay(ids, merges, in_rank_order=True):
    # replaying every merge in the order learned (by rank) gives the same answer (lesson 05): it must pass too
    parts = list(ids)
    items = sorted(merges.items(), key=lambda item: item[1]) if in_rank_order else merges.items()
    for (a, b), new in items:
        out, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b:
                out.append(new)
                i += 2
            else:
                out.append(parts[i])
                i += 1
        parts = out
    return parts


@pytest.mark.parametrize("right", [lowest_first, replay])
def test_merge_right_answers_pass(capsys, right):
    assert check_merge_lowest_rank(right).passed
    assert report(capsys).startswith("✅ merge_lowest_rank: all")


def test_merge_stub_is_not_yet(capsys):
    def merge_lowest_rank(ids, merges):
        # your code here
        ...

    assert check_merge_lowest_rank(merge_lowest_rank).status == "not yet"


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda ids, m: lowest_first(ids, m, pick=max), "LOWEST rank"),
        (lambda ids, m: lowest_first(ids, m, pick=lambda r: min(r, key=lambda x: (x[0], -x[1]))), "leftmost pair"),
        (lambda ids, m: lowest_first(ids, m, pick=lambda r: min(r, key=lambda x: x[1])), "wherever it is"),
        (lambda ids, m: tuple(lowest_first(ids, m)), "return a list of ids"),
    ],
)
def test_merge_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_merge_lowest_rank(wrong).passed
    assert hint in report(capsys)


def test_merge_one_pass_gets_keep_going_hint(capsys):
    def one_pass(ids, merges):
        ranked = [(merges[p], i) for i, p in enumerate(zip(ids, ids[1:])) if p in merges]
        if not ranked:
            return list(ids)
        rank, i = min(ranked)
        return list(ids[:i]) + [rank] + list(ids[i + 2 :])

    assert not check_merge_lowest_rank(one_pass).passed
    assert "keep going" in report(capsys)


def test_changes_counter_that_drops_negatives_gets_its_hint(capsys):
    """Counter's unary + (and a - b) keep only positive counts: the old word's pairs vanish."""
    from collections import Counter

    def positive_only(old_word, new_word, freq):
        change = Counter()
        for pair in zip(old_word, old_word[1:]):
            change[pair] -= freq
        for pair in zip(new_word, new_word[1:]):
            change[pair] += freq
        return dict(+change)

    def subtracted(old_word, new_word, freq):
        gained = Counter({p: freq * n for p, n in Counter(zip(new_word, new_word[1:])).items()})
        lost = Counter({p: freq * n for p, n in Counter(zip(old_word, old_word[1:])).items()})
        return dict(gained - lost)

    for wrong in (positive_only, subtracted):
        assert not check_pair_count_changes(wrong).passed
        assert "Counter's unary + and Counter subtraction (a - b) drop every count" in report(capsys)


def test_merge_replay_in_dict_order_names_the_order(capsys):
    """A dict's insertion order is not its rank order: replaying merges.items() as they come is wrong."""
    assert not check_merge_lowest_rank(lambda ids, m: replay(ids, m, in_rank_order=False)).passed
    out = report(capsys)
    assert "the order the dict lists them" in out
    assert "lowest new id" in out


def test_merge_replay_in_sorted_pair_order_is_named_not_called_leftmost(capsys):
    """sorted(merges.items()) orders merges by the ids of their pairs: a learner who replays them so was told
    "you merged the leftmost pair that has a rank", which they never did."""

    def sorted_replay(ids, merges):  # the dict's own order, once the dict is sorted by pair
        return replay(ids, dict(sorted(merges.items())), in_rank_order=False)

    assert not check_merge_lowest_rank(sorted_replay).passed
    out = report(capsys)
    assert "sorted by their pairs" in out and "lowest new id" in out, out
    assert "leftmost" not in out, out
