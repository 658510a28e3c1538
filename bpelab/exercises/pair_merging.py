"""Lesson 04 checkers: merging one pair, in one word (``merge_symbols``) and in a whole corpus (``merge_pair``).

The rule both check: scan left to right; at a match, emit the joined symbol and skip BOTH
symbols, so matches never overlap: ``('a', 'a', 'a')`` merging ``('a', 'a')`` gives
``('aa', 'a')``. ``merge_pair`` must return a new dict and leave its input as it was.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import re
from collections.abc import Callable
from typing import Any

from bpelab.exercises.cases import Diagnoser
from bpelab.exercises.comparing import type_hint
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.helper_stubs import check_naming_stub_helpers, learners_helpers
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH, made_up_words
from bpelab.words import (
    Pair,
    Word,
    best_pair,
    count_pairs,
    get_word_frequencies,
    merge_pair,
    merge_symbols,
    replace_pair,
    train_bpe,
)

# Typical wrong ways to merge one word, written the way a learner writes them.


def _first_only(symbols: Word, pair: Pair) -> Word:
    for i in range(len(symbols) - 1):
        if (symbols[i], symbols[i + 1]) == pair:
            return symbols[:i] + (pair[0] + pair[1],) + symbols[i + 2 :]
    return symbols


def string_replace_merge(symbols: Word, pair: Pair) -> Word:
    """A learner's merge by text replacement on the spelled word: wrong, it also matches inside longer symbols. The
    empty word gives () (as ``split()`` would), so that a learner's ``split()`` and ``split(' ')`` both agree."""
    if not symbols:
        return ()
    return tuple(" ".join(symbols).replace(" ".join(pair), "".join(pair)).split(" "))


def _padded_replace(symbols: Word, pair: Pair) -> Word:
    """A string replace with a space on each side of the pair (``' a b '`` by ``' ab '``) on the spelled word padded
    with spaces: whole symbols only, but two matches side by side share one space, and ``str.replace`` does not
    look again at what it replaced, so ``('a', 'a', 'a', 'a')`` merging ``('a', 'a')`` gives ``('aa', 'a', 'a')``."""
    padded = " " + " ".join(symbols) + " "
    return tuple(padded.replace(" " + " ".join(pair) + " ", " " + "".join(pair) + " ").split())


PADDED_REPLACE_HINT = (
    "two matches side by side were not both merged: replacing the pair with a space on each side (' a a ' by "
    "' aa ') uses up the space that the next match starts with, and str.replace does not look again at text it "
    "has replaced, so ('a', 'a', 'a', 'a') merging ('a', 'a') gave ('aa', 'a', 'a'). Compare whole symbols in a "
    "left-to-right scan (i += 2 after a merge), or use boundaries that do not use up the space, "
    "(?<!\\S) before the pair and (?!\\S) after it"
)


def concatenated_text_merge(symbols: Word, pair: Pair) -> Word:
    """A learner's merge that compares the joined text of two symbols with the pair's: wrong, two different pairs
    can spell the same text (``('ab', 'c')`` and ``('a', 'bc')``)."""
    merged: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] + symbols[i + 1] == pair[0] + pair[1]:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def _scan(symbols: Word, pair: Pair, emit: Callable[[Pair], str], step: int) -> Word:
    """The left-to-right scan, with what a match emits and how far it jumps as knobs (the shape of two mistakes)."""
    merged: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            merged.append(emit(pair))
            i += step
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def _merged_left_out(symbols: Word, pair: Pair) -> Word:
    """At a match, the scan jumps past both symbols (``i += 2``) but appends nothing: the merged symbol is lost."""
    merged: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def _first_half_kept(symbols: Word, pair: Pair) -> Word:
    """At a match, only ``pair[0]`` is emitted: the second symbol is lost."""
    return _scan(symbols, pair, lambda p: p[0], 2)


def _skips_three(symbols: Word, pair: Pair) -> Word:
    """At a match, ``i += 3``: the symbol after the merged pair is lost."""
    return _scan(symbols, pair, lambda p: p[0] + p[1], 3)


def overlapping_merge(symbols: Word, pair: Pair) -> Word:
    """At a match, ``i += 1``: the second symbol is used again, so matches overlap (``('a', 'b')`` in
    ``('a', 'b', '</w>')`` gives ``('ab', 'b', '</w>')``: the word grows)."""
    return _scan(symbols, pair, lambda p: p[0] + p[1], 1)


def right_to_left_merge(symbols: Word, pair: Pair) -> Word:
    """The scan run from the end: ``('a', 'a', 'a')`` merging ``('a', 'a')`` gives ``('a', 'aa')``."""
    return tuple(reversed(replace_pair(tuple(reversed(symbols)), (pair[1], pair[0]), pair[0] + pair[1])))


def _gives_up_after_a_miss(symbols: Word, pair: Pair) -> Word:
    """``pair[0]`` looked up with ``.index()``; when ``pair[1]`` does not follow it, the rest of the word is left as it
    is: ``('a', 'x', 'a', 'b')`` merging ``('a', 'b')`` comes back unchanged."""
    merged = list(symbols)
    while pair[0] in merged:
        i = merged.index(pair[0])
        if i + 1 >= len(merged) or merged[i + 1] != pair[1]:
            break
        merged[i : i + 2] = [pair[0] + pair[1]]
    return tuple(merged)


def _skips_two_after_a_miss(symbols: Word, pair: Pair) -> Word:
    """On ``symbols[i] == pair[0]`` the scan jumps ``i += 2`` whether or not ``pair[1]`` follows: the symbol after an
    unmatched ``pair[0]`` is never looked at, so ``('a', 'a', 'b')`` merging ``('a', 'b')`` comes back unchanged."""
    merged: list[str] = []
    i = 0
    while i < len(symbols):
        if symbols[i] == pair[0]:
            matched = i + 1 < len(symbols) and symbols[i + 1] == pair[1]
            merged.extend([pair[0] + pair[1]] if matched else symbols[i : i + 2])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


def _searches_on_two_after_a_miss(symbols: Word, pair: Pair) -> Word:
    """``pair[0]`` looked up with ``.index(pair[0], start)``, and after a miss the next search starts at ``i + 2``: the
    same symbol skipped as by ``_skips_two_after_a_miss``, but the search after a merge starts on the merged symbol."""
    merged = list(symbols)
    start = 0
    while pair[0] in merged[start:]:
        i = merged.index(pair[0], start)
        if i + 1 < len(merged) and merged[i + 1] == pair[1]:
            merged[i : i + 2] = [pair[0] + pair[1]]
            start = i + 1
        else:
            start = i + 2
    return tuple(merged)


GAVE_UP_HINT = (
    "where pair[0] was not followed by pair[1], you stopped looking: the rest of the word must still be scanned, "
    "('a', 'x', 'a', 'b') merging ('a', 'b') gives ('a', 'x', 'ab'). On a miss, keep symbols[i], step by 1 "
    "(i += 1) and go on to the end of the word"
)

SKIPPED_AFTER_MISS_HINT = (
    "where pair[0] was not followed by pair[1], you jumped 2 symbols on: the symbol after it was never looked at, "
    "yet it may start a match itself, ('a', 'a', 'b') merging ('a', 'b') gives ('a', 'ab'). Jump by 2 only after a "
    "merge; on a miss, keep symbols[i] and step by 1 (i += 1)"
)


def _compared_by_identity(symbols: Word, pair: Pair) -> Word:
    """``symbols[i] is pair[0] and symbols[i + 1] is pair[1]``: a symbol matches only when it is the very object the
    pair holds. Right on literals (shared objects), wrong on a symbol joined while training ('l' + 'o')."""
    merged: list[str] = []
    i = 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] is pair[0] and symbols[i + 1] is pair[1]:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return tuple(merged)


IDENTITY_HINT = (
    "you compared symbols with `is`, which asks whether two strings are the same object, not the same text: a symbol "
    "made while training ('l' + 'o') is another object than the 'lo' of the pair, so the pair was not found. "
    "Python shares some strings (the literals written in one piece of code, one-character strings), so `is` "
    "happened to work on the other cases. Compare text with ==: symbols[i] == pair[0] and symbols[i + 1] == pair[1]"
)


def _joined(*parts: str) -> str:
    """A symbol joined at run time, as training joins it: a new string object, never one shared with a literal."""
    return "".join(parts)


def _last_appended_after(symbols: Word, pair: Pair) -> Word:
    """The scan stops one short (``while i < len(symbols) - 1``), then ``symbols[-1]`` is appended whatever happened:
    when the last pair was merged, the last symbol comes twice."""
    merged: list[str] = []
    i = 0
    while i < len(symbols) - 1:
        if (symbols[i], symbols[i + 1]) == pair:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return (*merged, symbols[-1]) if symbols else ()


CONCATENATED_HINT = (
    "you compared joined text (symbols[i] + symbols[i + 1] == pair[0] + pair[1]), but two different pairs can "
    "spell the same text: ('a', 'bc') is not the pair ('ab', 'c'). Compare symbol by symbol: "
    "symbols[i] == pair[0] and symbols[i + 1] == pair[1]"
)


def _separator_in_merge(attempt: Attempt) -> str | None:
    """The text a learner put between the two halves of the merged symbol (``pair[0] + ' ' + pair[1]``), if any."""
    first, second = attempt.args[1]
    for _, got, _ in _pairs_of_words(attempt):
        for symbol in got:
            if (
                isinstance(symbol, str)
                and len(symbol) > len(first) + len(second)
                and symbol.startswith(first)
                and symbol.endswith(second)
            ):
                return symbol[len(first) : len(symbol) - len(second)]
    return None


def _separator_hint(attempt: Attempt) -> str | None:
    separator = _separator_in_merge(attempt)
    if separator is None or type_hint(attempt.got, attempt.expected):
        return None
    return (
        f"your merged symbol has {separator!r} between its two halves: the new symbol is pair[0] + pair[1], "
        "with nothing in between"
    )


STRING_REPLACE_HINT = (
    "you merged with a string replace on the spelled word, which also matches inside "
    "longer symbols ('es t' contains 's t'): compare whole symbols instead"
)


WrongMerge = Callable[[Word, Pair], Word]


def _per_word(wrong: WrongMerge) -> Callable[[dict, Pair], dict]:
    """``merge_pair`` as a dict comprehension around a wrong merge of one word (two spellings that become one word
    keep the last count)."""
    return lambda word_freq, pair: {wrong(word, pair): freq for word, freq in word_freq.items()}


def _per_word_added(wrong: WrongMerge) -> Callable[[dict, Pair], dict]:
    """``merge_pair`` as the lesson writes it (two spellings that become one word add their counts), around a wrong
    merge of one word."""

    def merge_each(word_freq: dict, pair: Pair) -> dict:
        merged: dict = {}
        for word, freq in word_freq.items():
            new = wrong(word, pair)
            merged[new] = merged.get(new, 0) + freq
        return merged

    return merge_each


def _first_word_only(word_freq: dict, pair: Pair) -> dict | None:
    """``return`` indented inside the loop over the words: only the first word comes back (None for no words)."""
    for word, freq in word_freq.items():
        return {merge_symbols(word, pair): freq}
    return None


RETURN_INSIDE_HINT = (
    "only the first word came back: is your `return` indented inside the loop? Return the new dict after the loop "
    "has gone through every word"
)


def _text_of(word: Any) -> str:
    return "".join(word)


def _pairs_of_words(attempt: Attempt) -> list[tuple[Word, Any, Word]]:
    """(input word, what came back, what was expected), word by word; for merge_pair, matched by position."""
    args, got, expected = attempt.args, attempt.got, attempt.expected
    if isinstance(args[0], dict):
        return list(zip(args[0], got, expected))
    return [(args[0], got, expected)]


def _grew(attempt: Attempt) -> bool:
    return any(len(_text_of(g)) > len(_text_of(w)) for w, g, _ in _pairs_of_words(attempt))


def _shrank(attempt: Attempt) -> bool:
    """A word came back without its last symbol, and only that is missing (a ``for i in range(len(symbols) - 1)``
    loop that never reaches it): the other symbols spell the rest of the word."""
    return any(
        len(_text_of(g)) < len(_text_of(w)) and len(w) > 0 and _text_of(g) == _text_of(w[:-1])
        for w, g, _ in _pairs_of_words(attempt)
    )


def _nested(attempt: Attempt) -> bool:
    return any(any(isinstance(s, (tuple, list)) for s in g) for _, g, _ in _pairs_of_words(attempt))


LAST_TWICE_HINT = (
    "the last symbol came twice: your loop stops at len(symbols) - 1 and then appends symbols[-1], but when the "
    "last pair was merged, that symbol is already inside the merged one. Append symbols[-1] only when the loop "
    "stopped before it (i == len(symbols) - 1), or let the loop run to the end (while i < len(symbols))"
)

LESSON_04_IMPORTS = {
    "count_pairs": "bpelab",
    "get_word_frequencies": "bpelab",
    "merge_pair": "bpelab",
    "read_corpus": "bpelab",
    "split_text": "bpelab",
    "train_bpe": "bpelab",
    "best_pair": "bpelab.words",
    "encode_word": "bpelab.words",
    "learn_merges": "bpelab.words",
    "merge_symbols": "bpelab.words",
}
"""What lesson 04's first cell imports, and from where."""

LESSON_04_EXERCISES = {
    "my_merge_symbols": ("exercise 1", "merge_symbols"),
    "my_merge_pair": ("exercise 2", "merge_pair"),
}
"""The learner's functions a later exercise may call: the exercise that defines each, and the course's version."""


def missing_name_hint(attempt: Attempt) -> str | None:
    """A ``NameError``: the name, and the cell that defines or imports it (a learner who skipped a cell, or pasted
    a solution into a fresh kernel)."""
    error = attempt.error
    if not isinstance(error, NameError):
        return None
    name = getattr(error, "name", None) or next(iter(re.findall(r"name '(\w+)'", str(error))), None)
    if name in LESSON_04_IMPORTS:
        return (
            f"{name} is not defined where your function runs: run the lesson's first cell (the imports; it "
            f"imports {name} from {LESSON_04_IMPORTS[name]}), then your function's cell, then this check"
        )
    if name in LESSON_04_EXERCISES:
        exercise, course_version = LESSON_04_EXERCISES[name]
        return (
            f"{name} is not defined: run the cell of {exercise} where you wrote it, then your function's cell, then "
            f"this check (or call {course_version}, the course's version, which the first cell imports)"
        )
    if name:
        return (
            f"{name} is not defined where your function runs: a name your function uses must be defined or imported "
            "in a cell that has run (is it a typo, or a cell not run since the kernel started?)"
        )
    return None


def _one_symbol_words_dropped(attempt: Attempt) -> bool:
    """The result is the answer without its words of one symbol (``if len(new_word) > 1:``)."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, dict) or not isinstance(expected, dict):
        return False
    kept = {word: n for word, n in expected.items() if not (isinstance(word, tuple) and len(word) == 1)}
    return len(kept) < len(expected) and got == kept


def _string_keys(attempt: Attempt) -> bool:
    return isinstance(attempt.got, dict) and any(isinstance(key, str) for key in attempt.got)


STRING_KEYS_HINT = (
    "your keys are strings (such as 'ab c </w>'): keep each word a tuple of symbols, as in the input, "
    "('ab', 'c', '</w>'); merge_symbols returns a tuple, so use it as the key without joining it"
)

REGEX_HINT = (
    "the pair holds a symbol that a regular expression reads as an operator ('.' matches any character, '(' opens "
    "a group, '+' repeats): if you built a pattern from the pair, wrap each symbol in re.escape(...) so that it "
    "matches only itself, as Sennrich et al.'s merge does, or compare whole symbols without a regular expression"
)


def _regex_hint(attempt: Attempt) -> str | None:
    """A ``re.error``, or a wrong answer on a case whose pair holds a regex metacharacter (all the cases before it
    have none, so an answer wrong only here read the pair as a pattern)."""
    if isinstance(attempt.error, re.error):
        return REGEX_HINT
    if attempt.error is not None or type_hint(attempt.got, attempt.expected):
        return None
    return REGEX_HINT if any(re.escape(symbol) != symbol for symbol in attempt.args[1]) else None


def _empty_word_hint(attempt: Attempt) -> str | None:
    """The empty word, (): nothing to merge, yet ``symbols[-1]`` or ``' '.join(...).split(' ')`` trips on it."""
    if attempt.args[0] != ():
        return None
    return (
        "the empty word () has no symbols: your function must return () for it (symbols[-1] raises IndexError on "
        "it, and ''.split(' ') gives [''], one empty symbol)"
    )


def _boundary_hint(attempt: Attempt) -> str | None:
    """A wrong word holding a symbol joined across a boundary the pair does not have: ``pair[0]`` followed by a longer
    symbol that only starts with ``pair[1]`` (the end of the match not checked), or a longer symbol that only ends
    with ``pair[0]`` followed by ``pair[1]`` (the start not checked)."""
    if attempt.error is not None or type_hint(attempt.got, attempt.expected):
        return None
    first, second = attempt.args[1]
    for word, got, expected in _pairs_of_words(attempt):
        if got == expected or not isinstance(got, tuple):
            continue
        for left, right in zip(word, word[1:]):
            joined = left + right
            if joined not in got or joined in expected or (left, right) == (first, second):
                continue
            if left == first and right.startswith(second):
                return (
                    f"pair[1] {second!r} matched only the start of the longer symbol {right!r}: a symbol matches "
                    "only when it is the whole symbol, symbols[i + 1] == pair[1], not .startswith(pair[1]). A string "
                    "replace or a regular expression on the spelled word needs both boundaries: Sennrich et al.'s "
                    "pattern has (?<!\\S) before the pair and (?!\\S) after it, so the match ends where a symbol ends"
                )
            if right == second and left.endswith(first):
                return (
                    f"pair[0] {first!r} matched only the end of the longer symbol {left!r}: a symbol matches only "
                    "when it is the whole symbol, symbols[i] == pair[0], not .endswith(pair[0]). A string replace or a "
                    "regular expression on the spelled word needs both boundaries: Sennrich et al.'s pattern has "
                    "(?<!\\S) before the pair, so the match starts where a symbol starts, and (?!\\S) after it"
                )
    return None


OVERLAP_HINT = (
    "you merged overlapping pairs: after a merge, skip BOTH symbols (i += 2) so matches never "
    "overlap; ('a', 'a', 'a') merging ('a', 'a') should give ('aa', 'a')"
)
WORD_DIAGNOSERS = [
    missing_name_hint,
    _regex_hint,
    on_error(IndexError, "symbols[i + 1] ran past the end: only look at the next symbol when i + 1 < len(symbols)"),
    when(_nested, "the merged symbol should be one string, pair[0] + pair[1], not the pair itself", any_type=False),
    _separator_hint,
    when(_grew, OVERLAP_HINT, any_type=False),
    when(
        _shrank,
        "symbols went missing: when the last symbol is not part of a merge, it must still be kept "
        "(a `for i in range(len(symbols) - 1)` loop never reaches it)",
        any_type=False,
    ),
]


def _merged_left_out_hint(like: Callable[[WrongMerge, str], Diagnoser]) -> Diagnoser:
    """The merged symbol forgotten (``i += 2`` at a match with no ``append``), named from the attempt's pair."""
    found = like(_merged_left_out, "merged")

    def diagnose(attempt: Attempt) -> str | None:
        if not found(attempt):
            return None
        first, second = attempt.args[1]
        return (
            f"the merged symbol is missing: at a match your scan skipped both symbols (i += 2) but appended nothing; "
            f"append the merged symbol, pair[0] + pair[1] (here {first + second!r}), before jumping past the pair"
        )

    return diagnose


def _word_diagnosers(*lifts: Callable[[WrongMerge], Callable[..., Any]]) -> list:
    """The diagnosers of a wrong merge of one word, for ``merge_symbols`` (no lift) or ``merge_pair`` (each way of
    putting a word's merge into the corpus's: a variant is recognised through any of ``lifts``)."""

    def like(wrong: WrongMerge, hint: str) -> Diagnoser:
        variants = [same_as(lift(wrong), hint) for lift in lifts]
        return lambda attempt: next((found for variant in variants if (found := variant(attempt))), None)

    return WORD_DIAGNOSERS[:5] + [
        _boundary_hint,
        _merged_left_out_hint(like),
        like(
            _first_half_kept,
            "at a match you kept only pair[0]: the merged symbol is pair[0] + pair[1], both halves joined",
        ),
        like(
            _skips_three,
            "after a match you jumped 3 symbols ahead: jump by 2 (i += 2), past the two symbols just merged; "
            "the symbol after them must still be kept, and may start the next match",
        ),
        like(_compared_by_identity, IDENTITY_HINT),
        like(concatenated_text_merge, CONCATENATED_HINT),
        like(_last_appended_after, LAST_TWICE_HINT),
        like(_gives_up_after_a_miss, GAVE_UP_HINT),
        like(_skips_two_after_a_miss, SKIPPED_AFTER_MISS_HINT),
        like(_searches_on_two_after_a_miss, SKIPPED_AFTER_MISS_HINT),
        *WORD_DIAGNOSERS[5:],
        like(
            right_to_left_merge,
            "you merged from right to left: scan left to right, so ('a', 'a', 'a') "
            "merging ('a', 'a') gives ('aa', 'a'), not ('a', 'aa')",
        ),
        like(_padded_replace, PADDED_REPLACE_HINT),
        like(_first_only, "only the first occurrence in each word was merged: keep scanning to the end of the word"),
        like(string_replace_merge, STRING_REPLACE_HINT),
    ]


LESSONS_EXAMPLE = ((("a", "b", "b", "</w>"), ("a", "b")), ("ab", "b", "</w>"))
"""Lesson 04's worked example, its arguments and its answer (the lesson shows it with and without ``'</w>'``)."""


def _lessons_example_hint(attempt: Attempt) -> str | None:
    """The answer of the lesson's example, ``('ab', 'b')``, returned for another input: written in, not computed."""
    (symbols, pair), answer = LESSONS_EXAMPLE
    if attempt.got not in (answer, answer[:-1]) or tuple(attempt.args) in ((symbols, pair), (symbols[:-1], pair)):
        return None
    return (
        f"you returned {attempt.got!r}, the answer of the lesson's example ({symbols[:-1]!r} merging {pair!r}), for "
        "another input: the same answer whatever the input is written in, not computed. Build the result from "
        "symbols and pair"
    )


MERGE_SYMBOLS = Exercise(
    name="merge_symbols",
    call="merge_symbols(symbols, pair)",
    reference=merge_symbols,
    solution=(replace_pair, merge_symbols),
    cases=lambda: [
        Case((("a", "b", "c", "</w>"), ("a", "b")), ("ab", "c", "</w>"), "a pair at the start"),
        Case((("a", "b", "b", "</w>"), ("a", "b")), ("ab", "b", "</w>"), "the example from the lesson"),
        Case((("a", "a", "a", "</w>"), ("a", "a")), ("aa", "a", "</w>"), "left to right, without overlaps"),
        Case((("a", "a", "a", "a", "</w>"), ("a", "a")), ("aa", "aa", "</w>"), "two matches side by side"),
        Case((("l", "o", "w", "</w>"), ("w", "</w>")), ("l", "o", "w</w>"), "a pair at the very end"),
        Case((("b", "a", "b", "a", "</w>"), ("b", "a")), ("ba", "ba", "</w>"), "every occurrence is merged"),
        Case((("es", "t", "</w>"), ("s", "t")), ("es", "t", "</w>"), "'es' followed by 't' is not the pair ('s', 't')"),
        Case((("d", "o", "g", "</w>"), ("a", "b")), ("d", "o", "g", "</w>"), "no match: the word comes back unchanged"),
        Case((("x",), ("x", "x")), ("x",), "a single symbol has nothing to merge"),
        Case(
            (("ab", "c"), ("a", "bc")),
            ("ab", "c"),
            "('ab', 'c') spells the same text as the pair ('a', 'bc'), but is another pair",
        ),
        Case(
            (("a", "bc", "ab", "c", "</w>"), ("ab", "c")),
            ("a", "bc", "abc", "</w>"),
            "two splits of the same text 'abc' in one word: only ('ab', 'c') is the pair",
        ),
        Case((("a", "</w>"), (".", "</w>")), ("a", "</w>"), "'.' is a symbol like any other: it is not 'a'"),
        Case((("c", "a", "t"), ("c", ".")), ("c", "a", "t"), "the pair ('c', '.') is not ('c', 'a')"),
        Case((("h", "i", ".", "</w>"), (".", "</w>")), ("h", "i", ".</w>"), "a full stop at the end of a word"),
        Case((("f", "(", "</w>"), ("(", "</w>")), ("f", "(</w>"), "a parenthesis is a symbol like any other"),
        Case((("a", "+", "b", "</w>"), ("+", "b")), ("a", "+b", "</w>"), "so is a plus sign"),
        Case(
            (("a", "bc", "</w>"), ("a", "b")),
            ("a", "bc", "</w>"),
            "'bc' starts with 'b' but is not 'b': the pair ('a', 'b') ends where a symbol ends",
        ),
        Case((("h", "e</w>"), ("h", "e")), ("h", "e</w>"), "'e</w>' starts with 'e' but is another symbol"),
        Case(
            (("xa", "b", "a", "b", "</w>"), ("a", "b")),
            ("xa", "b", "ab", "</w>"),
            "'xa' ends with 'a' but is not 'a': the pair starts where a symbol starts",
        ),
        Case(((), ("a", "b")), (), "the empty word: nothing to merge"),
        Case(
            (("a", "x", "a", "b", "</w>"), ("a", "b")),
            ("a", "x", "ab", "</w>"),
            "an 'a' not followed by 'b' comes first: the scan goes on and finds the pair after it",
        ),
        Case(
            (("a", "a", "b", "</w>"), ("a", "b")),
            ("a", "ab", "</w>"),
            "an 'a' not followed by 'b' stands just before the pair: the 'a' after it starts the match",
        ),
        Case(
            (("a", "b", "x", "a", "b", "</w>"), ("a", "b")),
            ("ab", "x", "ab", "</w>"),
            "two matches apart: both are merged",
        ),
        Case(
            (("a", "b", "a", "b", "a", "b", "</w>"), ("a", "b")),
            note="the pair three times in one word: every match is merged, not just two of them",
        ),
        Case(
            (("a", "a", "a", "a", "a", "a", "</w>"), ("a", "a")),
            note="a run of six a's: left to right, without overlaps, three 'aa'",
        ),
        Case(
            ((_joined("l", "o"), "w", "</w>"), (_joined("l", "o"), "w")),
            ("low", "</w>"),
            "the symbol 'lo' made while training ('l' + 'o') and the 'lo' of the pair are equal text, two objects",
        ),
    ],
    diagnosers=[_empty_word_hint, _lessons_example_hint, *_word_diagnosers(lambda wrong: wrong)],
    hint="walk i from 0; if (symbols[i], symbols[i + 1]) == pair, emit pair[0] + pair[1] and jump by 2, else emit symbols[i] and step by 1",
)


def _popped_and_added(word_freq: dict, pair: Pair) -> dict:
    """A learner's ``merged[new] = merged.pop(new, 0) + count``: right counts, but a word that two spellings become
    moves behind the words met between them."""
    merged: dict = {}
    for word, count in word_freq.items():
        new = merge_symbols(word, pair)
        merged[new] = merged.pop(new, 0) + count
    return merged


INPUT_ITSELF_HINT = (
    "your merge_pair returned word_freq itself (the very dict it was given), not a new dict: return a new dict "
    "even when nothing changes (no word contains the pair), since a caller that changes the result (the next "
    "merge, a count added) would change your table too"
)


class _InputItself:
    """``word_freq`` itself where ``merge_pair`` must return a new dict: never equal to the expected table, shown
    as the dict it is, named by ``INPUT_ITSELF_HINT``."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{self.value!r} (word_freq itself)"

    def what_is_wrong(self) -> str:
        return INPUT_ITSELF_HINT


class _NewDictWanted:
    """The learner's ``merge_pair``, its answer marked ``_InputItself`` when it is the very dict it was given, unchanged
    (the engine compares values only, so the table handed back as it was would pass; one changed in place is the
    engine's "changed its input"). The engine reads the signature,
    source and code object of the learner's function through ``__wrapped__`` and ``__code__``."""

    def __init__(self, fn: Callable[..., object]) -> None:
        self.__wrapped__ = fn
        self.__code__ = getattr(getattr(fn, "__func__", fn), "__code__", None)

    def __call__(self, *args: object) -> object:
        before: tuple[Any, ...] = copy.deepcopy(args[:1])
        got = self.__wrapped__(*args)
        if not args or got is not args[0] or not isinstance(got, dict) or list(got.items()) != list(before[0].items()):
            return got  # changed in place and handed back: the engine's own message says it changed its input
        return _InputItself(got)


def new_dict_wanted(fn: object) -> object:
    """``fn`` wrapped in ``_NewDictWanted``, or ``fn`` itself when the engine refuses it before calling it (not
    callable, or its parameters don't take two arguments), so that the engine's own message stays."""
    if not callable(fn):
        return fn
    try:
        inspect.signature(fn).bind(None, None)
    except (TypeError, ValueError):
        return fn
    return _NewDictWanted(fn)


def _corpus_case(text: str, note: str) -> Case:
    word_freq = get_word_frequencies(text)
    return Case((word_freq, best_pair(count_pairs(word_freq))), note=note)


MERGE_PAIR = Exercise(
    name="merge_pair",
    call="merge_pair(word_freq, pair)",
    reference=merge_pair,
    solution=(replace_pair, merge_symbols, merge_pair),
    order_matters=True,
    order_hint="the right words, but in a different order: keep the words in the order of the input dict",
    order_diagnosers=[
        when(
            lambda a: list(a.got.items()) == list(_popped_and_added(*copy.deepcopy(a.args)).items()),
            "the right counts, but a word that two spellings became moved behind the words between them: "
            "merged.pop(new, 0) takes the word out and the assignment puts it back at the end; add the count in "
            "place, merged[new] = merged.get(new, 0) + count, and the word keeps the place of its first spelling",
        )
    ],
    cases=lambda: [
        Case(({("a", "b", "c", "</w>"): 1}, ("a", "b")), {("ab", "c", "</w>"): 1}, "a pair at the start"),
        Case(({("a", "b", "b", "</w>"): 2}, ("a", "b")), {("ab", "b", "</w>"): 2}, "the example from the lesson"),
        Case(({("a", "a", "a", "</w>"): 1}, ("a", "a")), {("aa", "a", "</w>"): 1}, "left to right, without overlaps"),
        Case(
            ({("c", "a", "t", "</w>"): 2, ("d", "o", "g", "</w>"): 1}, ("a", "t")),
            {("c", "at", "</w>"): 2, ("d", "o", "g", "</w>"): 1},
            "words without the pair stay as they are",
        ),
        Case(
            ({("l", "o", "w", "</w>"): 5, ("l", "o", "w", "e", "r", "</w>"): 2}, ("w", "</w>")),
            {("l", "o", "w</w>"): 5, ("l", "o", "w", "e", "r", "</w>"): 2},
            "a pair at the very end of a word",
        ),
        Case(({("b", "a", "b", "a", "</w>"): 1}, ("b", "a")), {("ba", "ba", "</w>"): 1}, "every occurrence is merged"),
        Case(
            ({("a", "b", "</w>"): 2, ("c", "</w>"): 1}, ("b", "a")),
            {("a", "b", "</w>"): 2, ("c", "</w>"): 1},
            "no word contains the pair: the same words and counts, in a new dict",
        ),
        Case(
            ({("es", "t", "</w>"): 3, ("s", "t", "</w>"): 1}, ("s", "t")),
            {("es", "t", "</w>"): 3, ("st", "</w>"): 1},
            "'es' followed by 't' is not the pair ('s', 't')",
        ),
        Case((train_bpe(CLASSIC_TEXT, 2).word_freq, ("e", "s")), note="the classic corpus after two merges"),
        _corpus_case(PARAGRAPH, "a paragraph of English, its most frequent pair"),
        _corpus_case(made_up_words(), "150 made-up words, their most frequent pair"),
        Case(
            ({("a", "bc", "</w>"): 2, ("ab", "c", "</w>"): 1}, ("ab", "c")),
            {("a", "bc", "</w>"): 2, ("abc", "</w>"): 1},
            "two splits of the same text 'abc': only ('ab', 'c') is the pair",
        ),
        Case(
            ({("a", "</w>"): 3, ("h", "i", ".", "</w>"): 1}, (".", "</w>")),
            {("a", "</w>"): 3, ("h", "i", ".</w>"): 1},
            "'.' is a symbol like any other: it is not 'a'",
        ),
        Case(
            ({("c", "a", "t", "</w>"): 2, ("c", ".", "</w>"): 1}, ("c", ".")),
            {("c", "a", "t", "</w>"): 2, ("c.", "</w>"): 1},
            "the pair ('c', '.') is not ('c', 'a')",
        ),
        Case(({("f", "(", "</w>"): 1}, ("(", "</w>")), {("f", "(</w>"): 1}, "a parenthesis is a symbol like any other"),
        Case(
            ({("a", "+", "b", "</w>"): 1, ("a", "b", "</w>"): 2}, ("+", "b")),
            {("a", "+b", "</w>"): 1, ("a", "b", "</w>"): 2},
            "so is a plus sign",
        ),
        Case(
            ({("a", "bc", "</w>"): 2, ("a", "b", "</w>"): 1}, ("a", "b")),
            {("a", "bc", "</w>"): 2, ("ab", "</w>"): 1},
            "'bc' starts with 'b' but is not 'b': the pair ('a', 'b') ends where a symbol ends",
        ),
        Case(
            ({("h", "e</w>"): 2, ("t", "h", "e", "n", "</w>"): 1}, ("h", "e")),
            {("h", "e</w>"): 2, ("t", "he", "n", "</w>"): 1},
            "'e</w>' starts with 'e' but is another symbol",
        ),
        Case(
            ({("xa", "b", "</w>"): 1, ("a", "b", "</w>"): 2}, ("a", "b")),
            {("xa", "b", "</w>"): 1, ("ab", "</w>"): 2},
            "'xa' ends with 'a' but is not 'a': the pair starts where a symbol starts",
        ),
        Case(
            ({("a", "b", "c", "</w>"): 1, ("ab", "c", "</w>"): 2}, ("a", "b")),
            {("ab", "c", "</w>"): 3},
            "two spellings of 'abc' become one word: their counts add up, 1 + 2 (text never makes such a corpus, "
            "but merge_pair keeps every occurrence)",
        ),
        Case(
            ({("a", "b", "c", "</w>"): 1, ("x", "</w>"): 1, ("ab", "c", "</w>"): 2}, ("a", "b")),
            {("ab", "c", "</w>"): 3, ("x", "</w>"): 1},
            "two spellings of 'abc' with 'x' between them: the counts add up, and 'abc' keeps the place of its first "
            "spelling, before 'x'",
        ),
        Case(
            ({("a", "x", "a", "b", "</w>"): 2, ("a", "a", "b", "</w>"): 1}, ("a", "b")),
            {("a", "x", "ab", "</w>"): 2, ("a", "ab", "</w>"): 1},
            "an 'a' not followed by 'b' before the pair: the scan goes on past it, and the 'a' just after it may start "
            "the match",
        ),
        Case(
            ({("a", "b", "x", "a", "b", "</w>"): 2}, ("a", "b")),
            {("ab", "x", "ab", "</w>"): 2},
            "two matches apart in one word: both are merged",
        ),
        Case(
            ({("a", "b", "a", "b", "a", "b", "</w>"): 2, ("a", "a", "a", "a", "a", "a", "</w>"): 1}, ("a", "b")),
            note="the pair three times in one word: every match is merged, not just two of them",
        ),
        Case(
            ({("a", "b", "a", "b", "a", "b", "</w>"): 2, ("a", "a", "a", "a", "a", "a", "</w>"): 1}, ("a", "a")),
            note="a run of six a's: left to right, without overlaps, three 'aa'",
        ),
        Case(
            ({("low</w>",): 2, ("a", "b", "</w>"): 1}, ("a", "b")),
            note="('low</w>',) is a word of one symbol: it has no pair, but it stays in the table with its count",
        ),
        Case(
            ({("lo", "w</w>"): 3, ("lo", "t", "</w>"): 1}, ("lo", "w</w>")),
            note="the merge makes ('low</w>',) a word of one symbol: it stays in the table with its count",
        ),
    ],
    diagnosers=[
        when(lambda a: isinstance(a.got, _InputItself), INPUT_ITSELF_HINT),
        when(_string_keys, STRING_KEYS_HINT),
        when(
            lambda a: (
                len(a.got) == len(a.expected)
                and a.got.keys() == a.expected.keys()
                and sum(a.got.values()) < sum(a.expected.values())
                and len(a.args[0]) > len(a.expected)
            ),
            "two words became one and your result kept only one count: when the merged word is already in the new "
            "dict, add the count to it (new[word] = new.get(word, 0) + count)",
            any_type=False,
        ),
        same_as(_per_word(concatenated_text_merge), CONCATENATED_HINT),  # it also drops words: say why first
        on_error(
            RuntimeError,
            "you changed the dict while looping over it: build a new dict and return it",
            contains="during iteration",
        ),
        same_as(_first_word_only, RETURN_INSIDE_HINT),
        when(
            _one_symbol_words_dropped,
            "words of one symbol are missing from your result: every word keeps its count, and a word of one "
            "symbol stays in the table (('low</w>',) has no pair left to merge, but it is still a word of the text); "
            "don't skip a word because len(new_word) == 1",
            any_type=False,
        ),
        when(
            lambda a: len(a.got) < len(a.args[0]) and set(a.got) <= set(a.expected),
            "words without the pair are missing from your result: keep them, unchanged",
            any_type=False,
        ),
        when(
            lambda a: list(a.got) == list(a.expected) and set(a.got.values()) == {1} != set(a.expected.values()),
            "every count became 1: each word keeps its count, word_freq[word]",
            any_type=False,
        ),
        *_word_diagnosers(_per_word_added, _per_word),
    ],
    hint="for each word and count: merged = merge_symbols(word, pair); new[merged] = new.get(merged, 0) + count "
    "(two spellings can become one word), with merge_symbols scanning left to right",
)


def _hint_line(result: CheckResult) -> str | None:
    return next(
        (line.split(":", 1)[1].strip() for line in result.message.split("\n") if line.startswith("   hint:")), None
    )


def name_wrong_helpers(
    result: CheckResult, fn: Any, checks: list[tuple[str, Exercise, Callable[[Any], Any]]]
) -> CheckResult:
    """``result`` with its hint naming the learner's own helper that ``fn`` calls when that helper fails its own
    check: ``checks`` lists (a part of the helper's name, such as ``"merge_symbols"``, its exercise, how the exercise
    is handed the helper), the first one a failing helper is named after wins. Unchanged when ``result`` passed,
    was not a plain failure (a stub, a checker error), reports a ``NameError``, or every helper passes."""
    if result.passed or result.status != "failed" or "NameError" in result.message:
        return result
    try:
        helpers = learners_helpers(fn)
    except Exception:  # an odd callable: keep the engine's report
        return result
    for part, exercise, wrap in checks:
        for name, helper in helpers:
            if part not in name:
                continue
            try:
                own = exercise.run(wrap(helper), record=False)
            except Exception:
                continue
            if own.passed or own.status != "failed":
                continue
            why = _hint_line(own) or "it gives a wrong answer"
            hint = (
                f"your function calls your `{name}`, and check_{exercise.name} refuses it ({why}). Fix `{name}` first "
                f"(run check_{exercise.name}({name}) until it passes), run its cell, then run this check again"
            )
            lines = result.message.split("\n")
            if any(line.startswith("   hint:") for line in lines):
                lines = [f"   hint:     {hint}" if line.startswith("   hint:") else line for line in lines]
            else:
                lines.append(f"   hint:     {hint}")
            return dataclasses.replace(result, message="\n".join(lines))
    return result


def check_merge_symbols(merge_symbols: Any, *, record: bool = True) -> CheckResult:
    """Check ``merge_symbols(symbols, pair) -> tuple``: one word, left to right, no overlaps."""
    return check_naming_stub_helpers(MERGE_SYMBOLS, merge_symbols, record=record)


def check_merge_pair(merge_pair: Any, *, record: bool = True) -> CheckResult:
    """Check ``merge_pair(word_freq, pair) -> new dict``: every word merged, counts kept, input untouched."""
    return check_naming_stub_helpers(
        MERGE_PAIR,
        new_dict_wanted(merge_pair),
        record=record,
        learners=merge_pair,
        rewrite=lambda result: name_wrong_helpers(
            result, merge_pair, [("merge_symbols", MERGE_SYMBOLS, lambda fn: fn)]
        ),
    )
