"""A training run as plain data for the browser: what the merge stepper's ES module draws.

Python computes, JavaScript draws. ``training_trace`` turns what ``train_bpe`` (or ``replay_word``,
or the WordPiece trainer) returned into JSON-ready lists: the symbols, the words on screen spelled as
symbol numbers, each merge with its count, each step's top rows of the pair table and the token
totals, and, when the run gives them (``result.notes``, one per merge), why each merge was chosen. The browser
replays the merges on the few words it shows, so the trace holds no corpus per step: lesson 04's 200 real merges
fit in well under the 150,000 characters of JSON that ``tests/test_stepper.py`` allows, and every step can be
drawn without a kernel.

``bpelab/widgets/static/trace.js`` builds the same trace from the browser's own training (a page
without Python); ``tests/test_js_training.py`` checks that the two agree.
"""

from __future__ import annotations

from collections.abc import Hashable
from heapq import nsmallest
from typing import Any

import regex

from bpelab.words import END_OF_WORD, count_pairs

Symbol = Hashable
BAR_WIDTH = 120
"""Pixels of the longest bar in the pair table."""

_PUNCTUATION_ONLY = regex.compile(r"^[^\w\s]+$")


def word_characters(word: Any) -> int:
    """How many characters a word has, counted on its starting symbols: one per character, the
    end-of-word marker ``</w>`` none. Merging never changes it, wherever ``</w>`` ends up."""
    return sum(1 for symbol in word if symbol != END_OF_WORD)


def unit_name(corpus: dict[Any, int], byte_level: bool) -> str:
    """ "words", or "pieces (words and punctuation)" when punctuation stands as pieces of its own."""
    if byte_level:
        return "pieces"
    for word in corpus:
        if _PUNCTUATION_ONLY.match("".join(str(s) for s in word if s != END_OF_WORD)):
            return "pieces (words and punctuation)"
    return "words"


def _tokens(corpus: dict[Any, int]) -> int:
    """How many symbols the corpus is spelled with: its tokens."""
    return sum(len(word) * n for word, n in corpus.items())


def _pair_key(lower_wins: bool, tie_break: str) -> Any:
    """How the pair table is sorted: what wins first comes first (the same rule as training)."""
    if lower_wins:
        return lambda item: (item[1][1], item[0])  # lowest rank, then leftmost
    if tie_break == "lexicographic":
        return lambda item: (-item[1][1], item[1][0])
    return lambda item: (-item[1][1], item[0])  # highest count, then first seen


def training_trace(result: Any, *, top_words: int, top_pairs: int) -> dict[str, Any]:
    """Everything the stepper shows at every step, as lists and numbers (see the module docstring)."""
    steps = list(result.steps)
    # one corpus at a time: a run's steps rebuild theirs when read (bpelab.merge_history), and holding all
    # of them at once would cost what that saves
    start = dict(result.initial_word_freq)
    token_totals = [_tokens(start)] + [_tokens(s.word_freq) for s in steps]
    token_bytes: dict[int, bytes] | None = getattr(result, "token_bytes", None)
    lower_wins: bool = getattr(result, "lower_wins", False)
    tie_break: str = getattr(result, "tie_break", "first")
    order = list(dict.fromkeys([s for word in start for s in word] + [step.new_symbol for step in steps]))
    number = {symbol: i for i, symbol in enumerate(order)}
    counts = list(start.values())
    visible = sorted(range(len(counts)), key=lambda i: (-counts[i], i))[:top_words]
    words = list(start)
    key = _pair_key(lower_wins, tie_break)

    def pair_table(step: int) -> dict[str, Any] | None:
        if step < len(steps):
            scores, winner = steps[step].pair_counts, steps[step].pair
        elif not lower_wins:  # a training run (word- or byte-level): the pairs left after the last merge
            scores, winner = count_pairs(steps[-1].word_freq if steps else start), None
        else:
            return None  # replaying an encoder: no adjacent pair has a rank, the encoder stops
        top = nsmallest(top_pairs, enumerate(scores.items()), key=key)
        biggest = max((score for _i, (_pair, score) in top), default=0)
        rows = [
            [number[a], number[b], str(score), 0 if lower_wins or not biggest else int(BAR_WIDTH * score / biggest)]
            for _i, ((a, b), score) in top
        ]
        at = next((k for k, (_i, (pair, _s)) in enumerate(top) if pair == winner), -1)
        return {"rows": rows, "total": len(scores), "winner": at}

    has_marker = any(END_OF_WORD in word for word in start)
    notes: list[str] | None = getattr(result, "notes", None)  # why each merge was chosen (parity-aware runs)
    extra: dict[str, Any] = {"notes": [str(note) for note in notes]} if notes else {}
    end_note = getattr(result, "end_note", None)  # how a replay ends, in its own words (SentencePiece's)
    if isinstance(end_note, str) and end_note:
        extra["endNote"] = end_note
    return {
        **extra,
        "symbols": [list(token_bytes[s]) if token_bytes is not None else str(s) for s in order],
        "ids": [int(s) for s in order] if token_bytes is not None else None,
        "words": [[number[s] for s in words[i]] for i in visible],
        "counts": [counts[i] for i in visible],
        "distinct": len(words),
        "merges": [[number[s.pair[0]], number[s.pair[1]], number[s.new_symbol], str(s.count)] for s in steps],
        "pairs": [pair_table(step) for step in range(len(steps) + 1)],
        "tokens": token_totals,
        "wordsTotal": sum(start.values()),
        "characters": sum(word_characters(word) * n for word, n in start.items()),
        "startVocab": len({s for word in start for s in word}),
        "bytes": None
        if token_bytes is None
        else sum(sum(len(token_bytes[s]) for s in word) * n for word, n in start.items()),
        "hasMarker": has_marker,
        "unit": unit_name(start, token_bytes is not None),
        "scoreName": getattr(result, "score_name", "count"),
        "lowerWins": lower_wins,
        "tieBreak": tie_break,
    }
