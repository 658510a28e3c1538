"""Lesson 16's ``next_merge`` checker rejects a tie broken by a set's order in every run of Python.

A set of strings iterates in the order of their hashes, and Python salts string hashes anew in each process
(PYTHONHASHSEED). An answer that keeps the pairs or pieces in a set and takes the best of them breaks a tie by that
order: before the cases of many tied pieces it passed under some seeds (2 among them). Each seed runs in its own
process, since the seed is fixed when Python starts.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def set_of_pieces(symbols, scores):
    """The pieces the text forms, as a set; the best of them, found again from the left."""
    pieces = {symbols[i] + symbols[i + 1] for i in range(len(symbols) - 1)} & scores.keys()
    if not pieces:
        return None
    best = max(pieces, key=lambda piece: scores[piece])
    for i in range(len(symbols) - 1):
        if symbols[i] + symbols[i + 1] == best:
            return i
    return None


def sorted_set_of_pieces(symbols, scores):
    """``sorted`` is stable, so among equal scores it keeps the set's order."""
    pieces = set(a + b for a, b in zip(symbols, symbols[1:]) if a + b in scores)
    if not pieces:
        return None
    best = sorted(pieces, key=lambda piece: -scores[piece])[0]
    return [a + b for a, b in zip(symbols, symbols[1:])].index(best)


def set_of_pairs(symbols, scores):
    """The distinct pairs as a set of tuples, the best kept with a strict > (from best is None: a start at -inf
    would miss a piece scoring -inf, another mistake than the set's)."""
    best, best_score = None, 0.0
    for a, b in set(zip(symbols, symbols[1:])):
        if a + b in scores and (best is None or scores[a + b] > best_score):
            best, best_score = (a, b), scores[a + b]
    if best is None:
        return None
    for i in range(len(symbols) - 1):
        if (symbols[i], symbols[i + 1]) == best:
            return i
    return None


def frozen_pairs(symbols, scores):
    """A frozenset of (piece, first place): the first place is right, the order of pieces is the hash's."""
    first = frozenset(
        (a + b, [x + y for x, y in zip(symbols, symbols[1:])].index(a + b))
        for a, b in zip(symbols, symbols[1:])
        if a + b in scores
    )
    return max(first, key=lambda item: scores[item[0]])[1] if first else None


SET_ORDERED = [set_of_pieces, sorted_set_of_pieces, set_of_pairs, frozen_pairs]


def verdicts() -> dict[str, list]:
    """Each set-ordered answer's verdict in this process: [passed, hint line]."""
    from bpelab.exercises.sentencepiece import check_next_merge

    found = {}
    for wrong in SET_ORDERED:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            passed = bool(check_next_merge(wrong, record=False))
        hint = next((line.strip() for line in printed.getvalue().splitlines() if "hint:" in line), "")
        found[wrong.__name__] = [passed, hint]
    return found


SEEDS = [0, 1, 2, 3, 17, 123]


@functools.cache
def runs() -> dict[int, dict[str, list]]:
    """``verdicts()`` under each seed, one process per seed, all started at once."""
    code = "import json, tests.test_lesson16_set_order_ties as t; print(json.dumps(t.verdicts()))"
    started = {
        seed: subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in SEEDS
    }
    found = {}
    for seed, process in started.items():
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        found[seed] = json.loads(out.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize("seed", SEEDS)
def test_a_set_ordered_tie_is_rejected_and_named_whatever_the_hash_seed(seed):
    for name, (passed, hint) in runs()[seed].items():
        assert not passed, f"{name} passed with PYTHONHASHSEED={seed}"
        assert "set" in hint and "PYTHONHASHSEED" in hint and "leftmost" in hint, (name, seed, hint)


def test_the_set_ordered_answers_are_right_but_for_ties():
    """They are wrong only where pieces of equal score compete: on distinct scores they agree with the reference."""
    from bpelab.exercises.sentencepiece import NEXT_MERGE, next_merge

    for case in NEXT_MERGE.build_cases():
        symbols, scores = case.args
        joined = [a + b for a, b in zip(symbols, symbols[1:]) if a + b in scores]
        if len({scores[p] for p in joined}) == len(set(joined)):
            for wrong in SET_ORDERED:
                assert wrong(*case.args) == next_merge(*case.args), (wrong.__name__, case.note)


def test_a_tie_broken_by_a_list_in_order_is_not_told_about_sets(capsys):
    """The set's hint comes from the code: an answer without a set that keeps a later tied pair gets the plain one."""
    from bpelab.exercises.sentencepiece import check_next_merge

    def next_merge(symbols, scores):
        found = [
            (scores[a + b], len(symbols) - i, i)
            for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
            if a + b in scores
        ]
        return min(found, key=lambda t: (-t[0], t[1]))[2] if found else None

    assert not check_next_merge(next_merge, record=False)
    hint = next(line for line in capsys.readouterr().out.splitlines() if "hint:" in line)
    assert "PYTHONHASHSEED" not in hint
