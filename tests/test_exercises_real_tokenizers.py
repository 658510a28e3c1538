"""Lesson 07's checkers: a right answer passes; each typical mistake is named; nothing ever raises."""

from __future__ import annotations

import re
import unicodedata

import pytest
import regex

from bpelab import from_tiktoken
from bpelab.exercises.real_tokenizers import (
    FIND_PARENTS,
    SPLIT_PIECES,
    check_find_parents,
    check_split_pieces,
    find_parents,
)

# ---- split_pieces --------------------------------------------------------------------------------


def test_split_pieces_accepts_a_correct_solution():
    result = SPLIT_PIECES.run(lambda text, pattern: regex.findall(pattern, text))
    assert result.passed, result.message


@pytest.mark.parametrize(
    "wrong, words",
    [
        (lambda text, pattern: re.findall(pattern, text), "standard `re` module"),
        (lambda text, pattern: text.split(), "str.split()"),
        (lambda text, pattern: regex.split(pattern, text), "BETWEEN the matches"),
        (lambda text, pattern: [p.strip() for p in regex.findall(pattern, text)], "keep the spaces"),
    ],
)
def test_split_pieces_names_the_mistake(wrong, words):
    result = SPLIT_PIECES.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- find_parents --------------------------------------------------------------------------------


def lowest_rank_bpe(token, ranks):
    """A learner's answer: merge the lowest-rank pair below the token's rank until two parts remain."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def first_split(token, ranks):
    for i in range(1, len(token)):
        if token[:i] in ranks and token[i:] in ranks:
            return token[:i], token[i:]
    return None


def leftmost_pair_first(token, ranks):
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    merged = True
    while len(parts) > 2 and merged:
        merged = False
        for i in range(len(parts) - 1):
            if ranks.get(parts[i] + parts[i + 1], limit) < limit:
                parts[i : i + 2] = [parts[i] + parts[i + 1]]
                merged = True
                break
    return tuple(parts)


def no_rank_limit(token, ranks):
    parts = [bytes([b]) for b in token]
    while True:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1) if parts[i] + parts[i + 1] in ranks
        ]
        if not candidates:
            return tuple(parts)
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


def test_find_parents_accepts_a_correct_solution():
    result = FIND_PARENTS.run(lowest_rank_bpe)
    assert result.passed, result.message


def test_find_parents_that_pops_the_token_and_puts_it_back_is_not_told_it_changed_ranks():
    """The dict comes back equal, its key order moved: nothing the exercise reads has changed."""

    def pop_and_restore(token, ranks):
        limit = ranks.pop(token)
        ranks[token] = limit
        return lowest_rank_bpe(token, ranks)

    result = FIND_PARENTS.run(pop_and_restore)
    assert result.passed, result.message


def test_an_input_reordered_where_order_matters_is_named_as_reordered():
    from bpelab.exercises.comparing import changed_argument

    before = ({"a": 1, "b": 2},)
    after = ({"b": 2, "a": 1},)
    assert changed_argument(after, before) == 0 and changed_argument(after, before, ordered=False) is None


def test_reference_agrees_with_the_merges_recovered_from_gpt4():
    tok = from_tiktoken("cl100k_base")
    for token in (b" hello", b" strawberry", b"ing"):
        left, right = find_parents(token, tok.ranks)
        assert left + right == token
        assert tok.merges[(tok.ranks[left], tok.ranks[right])] == tok.ranks[token]


@pytest.mark.parametrize(
    "wrong, words",
    [
        (first_split, "first split"),
        (leftmost_pair_first, "lowest rank first"),
        (no_rank_limit, "all the way back to the token itself"),
    ],
)
def test_find_parents_names_the_mistake(wrong, words):
    result = FIND_PARENTS.run(wrong)
    assert not result.passed and result.status == "failed"
    assert words in result.message, result.message


# ---- never raise -----------------------------------------------------------------------------------


def stub(a, b):
    # your code here
    ...


@pytest.mark.parametrize("exercise", [SPLIT_PIECES, FIND_PARENTS])
def test_an_unsolved_stub_is_not_yet(exercise):
    result = exercise.run(stub)
    assert result.status == "not yet" and "not yet" in result.message


@pytest.mark.parametrize("exercise", [SPLIT_PIECES, FIND_PARENTS])
@pytest.mark.parametrize(
    "attempt",
    [None, lambda *args: 1 / 0, lambda *args: object(), lambda x: x, lambda *args: [[]], lambda *args: (b"", b"", b"")],
)
def test_checkers_never_raise(exercise, attempt):
    result = exercise.run(attempt)
    assert not result.passed
    assert result.status in ("failed", "not yet"), result.message
    assert "0x" not in result.message


def test_split_pieces_dropping_repeated_pieces_is_named():
    """list(dict.fromkeys(pieces)) keeps each piece once: a case where a piece occurs twice must catch it."""
    result = SPLIT_PIECES.run(lambda text, pattern: list(dict.fromkeys(regex.findall(pattern, text))))
    assert not result.passed, result.message
    assert "occurs twice" in result.message, result.message


def test_split_pieces_dropping_repeats_in_order_is_not_told_to_use_findall():
    """list(dict.fromkeys(regex.findall(...))) used findall: the hint names the repeats, not findall."""
    result = SPLIT_PIECES.run(lambda text, pattern: list(dict.fromkeys(regex.findall(pattern, text))))
    hint = result.message.split("hint:", 1)[1]
    assert "dict.fromkeys" in hint and "repeats" in hint, result.message
    assert "findall" not in hint, result.message


@pytest.mark.parametrize(
    "through_a_set",
    [
        lambda text, pattern: list(set(regex.findall(pattern, text))),
        # what a set may make of them, whatever this run's hash seed: each once, in another order
        lambda text, pattern: list(reversed(dict.fromkeys(regex.findall(pattern, text)))),
    ],
    ids=["list(set(...))", "a set's order, fixed"],
)
def test_split_pieces_through_a_set_is_told_it_lost_order_and_repeats(through_a_set):
    result = SPLIT_PIECES.run(through_a_set)
    assert not result.passed
    hint = result.message.split("hint:", 1)[1]
    assert "list(set(...)) loses the order" in hint and "only once" in hint, result.message


def test_split_pieces_sorted_is_told_so():
    result = SPLIT_PIECES.run(lambda text, pattern: sorted(regex.findall(pattern, text)))
    assert "you sorted the pieces" in result.message, result.message


# ---- leaks: wrong answers the checker used to accept, or named wrongly ------------------------------


def drop_a_final_whitespace_piece(text, pattern):
    pieces = regex.findall(pattern, text)
    if pieces and not pieces[-1].strip():
        pieces.pop()  # "trailing whitespace is not a word"
    return pieces


@pytest.mark.parametrize(
    "wrong, words",
    [
        (lambda text, pattern: regex.findall(pattern, text.rstrip()), "the whitespace at the end of the text"),
        (lambda text, pattern: regex.findall(pattern, text.strip()), "the whitespace at the"),
        (drop_a_final_whitespace_piece, "the whitespace at the end of the text"),
        (lambda text, pattern: regex.findall(pattern, unicodedata.normalize("NFKC", text)), "normalize"),
        (lambda text, pattern: regex.findall(pattern, unicodedata.normalize("NFC", text)), "normalize"),
        (lambda text, pattern: regex.findall(pattern, text, regex.IGNORECASE), "IGNORECASE"),
        (lambda text, pattern: regex.findall(pattern, text, flags=regex.I), "IGNORECASE"),
    ],
    ids=["rstrip", "strip", "final piece dropped", "NFKC", "NFC", "IGNORECASE", "flags=regex.I"],
)
def test_split_pieces_leaks_are_rejected_and_named(wrong, words):
    result = SPLIT_PIECES.run(wrong)
    assert not result.passed and result.status == "failed", result.message
    hint = result.message.split("hint:", 1)[1]
    assert words in hint, result.message
    assert "regex.findall(pattern, text)" not in hint or "IGNORECASE" in hint, result.message


def test_split_pieces_exercises_whitespace_at_the_end_of_the_text():
    """GPT-2's and GPT-4's ``\\s++$`` alternative: some case must end in whitespace that it matches."""
    from bpelab.exercises.real_tokenizers import _split_cases

    ends = [text for (text, pattern) in (c.args for c in _split_cases()) if regex.search(r"\s++$", text)]
    assert ends


def parents_as_text(token, ranks):
    """The lesson's solution, with the parents decoded to str at the end."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(p.decode("utf-8") for p in parts)


def test_find_parents_returning_str_is_told_to_return_bytes():
    result = FIND_PARENTS.run(parents_as_text)
    assert not result.passed
    hint = result.message.split("hint:", 1)[1]
    assert "bytes" in hint and "decode" in hint, result.message


def test_the_hints_example_of_parents_is_gpt4s():
    """The rank hint's example, (b' th', b'e'), is how GPT-4 (cl100k) built b' the'."""
    ranks = from_tiktoken("cl100k_base").ranks
    assert find_parents(b" the", ranks) == (b" th", b"e")
    from bpelab.exercises.real_tokenizers import _as_ranks

    result = FIND_PARENTS.run(_as_ranks)
    assert "(b' th', b'e')" in result.message, result.message


def test_split_pieces_line_by_line_is_rejected_and_named(capsys):
    def split_pieces(text, pattern):
        return [p for line in text.splitlines(keepends=True) for p in regex.findall(pattern, line)]

    assert not check_split_pieces(split_pieces, record=False)
    assert "split the text into lines first" in capsys.readouterr().out


def test_find_parents_by_the_smallest_larger_rank_is_rejected():
    """Of the splits into two older tokens, the one whose larger rank is smallest (ties to the later split): right
    for ' hello' and ' strawberry', wrong for GPT-4's ' out', 'quest' and 'ield'."""

    def smallest_larger_rank(token, ranks):
        limit, best = ranks[token], None
        for k in range(1, len(token)):
            left, right = token[:k], token[k:]
            if ranks.get(left, limit) < limit and ranks.get(right, limit) < limit:
                key = max(ranks[left], ranks[right])
                if best is None or key <= best[0]:
                    best = (key, (left, right))
        return best[1]

    assert not check_find_parents(smallest_larger_rank, record=False)


# ---- hints that name the bug the learner made (found by running the shown solution's mutants) ----------------------


def merge_in_the_wrong_place(token, ranks):
    """The lesson's loop with the slice one off: the joined bytes replace one part, and a byte is doubled."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 1] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def return_inside_the_loop(token, ranks):
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return tuple(parts)
    return tuple(parts)


@pytest.mark.parametrize(
    "wrong, words",
    [
        (merge_in_the_wrong_place, "joined together, your parts are not the token"),
        (return_inside_the_loop, "you stopped after the first merge"),
    ],
)
def test_find_parents_hint_names_the_bug_not_more_merging(wrong, words):
    result = FIND_PARENTS.run(wrong, record=False)
    assert not result.passed
    hint = result.message.split("hint:", 1)[1]
    assert words in hint and "more than two parts are left" not in hint, result.message


# ---- tokens rank-order merging never builds (Llama 3's): the answer is where the merging stops ----------------------


def lowest_rank_bpe_that_raises(token, ranks):
    """The lesson's loop without its `break`: min() of no candidates raises where the merging stops short."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def no_limit_that_raises(token, ranks):
    """Every pair that is a token may merge, younger ones too; min() of nothing raises."""
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        _, i = min(
            (ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1) if parts[i] + parts[i + 1] in ranks
        )
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def no_limit_that_stops(token, ranks):
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1) if parts[i] + parts[i + 1] in ranks
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


@pytest.mark.parametrize("wrong", [no_limit_that_raises, no_limit_that_stops])
def test_find_parents_without_the_limit_is_rejected_and_named(wrong):
    result = FIND_PARENTS.run(wrong, record=False)
    assert not result.passed, result.message
    hint = result.message.split("hint:", 1)[1]
    assert "the limit ranks[token] left out" in hint, result.message


def test_find_parents_that_raises_where_merging_stops_short_is_told_to_return_the_parts():
    result = FIND_PARENTS.run(lowest_rank_bpe_that_raises, record=False)
    assert not result.passed, result.message
    hint = result.message.split("hint:", 1)[1]
    assert "never builds" in hint and "return the parts you have" in hint, result.message


def test_find_parents_on_llama3_is_where_lowest_rank_merging_stops():
    """On every Llama 3 token past GPT-4's ranks the reference equals the learner-style loop (an independent
    implementation on the whole table); 678 of them stop at three or more parts, as lesson 07 counts."""
    ranks = from_tiktoken("llama3").ranks
    stuck = 0
    for token, rank in ranks.items():
        if rank < 100_256 or len(token) < 2:
            continue
        expected = lowest_rank_bpe(token, ranks)
        assert find_parents(token, ranks) == expected, token
        stuck += len(expected) > 2
    assert stuck == 678


@pytest.mark.parametrize(
    "wrong, words",
    [
        (lambda text, pattern: regex.findall(pattern, text.replace("\r\n", "\n")), "Windows line break"),
        (lambda text, pattern: regex.findall(pattern, text.expandtabs()), ".expandtabs()"),
        (lambda text, pattern: regex.findall(pattern, text.rstrip("\n")), "line break at the end"),
        (lambda text, pattern: regex.findall(pattern, text.replace("\xa0", " ")), "no-break space"),
        (lambda text, pattern: regex.findall(pattern, text) or [text], "an empty text has no pieces"),
    ],
    ids=["\\r\\n", "expandtabs", "rstrip newline", "NBSP", "or [text]"],
)
def test_split_pieces_whitespace_rewrites_are_rejected_and_named(wrong, words):
    result = SPLIT_PIECES.run(wrong, record=False)
    assert not result.passed and result.status == "failed", result.message
    assert words in result.message.split("hint:", 1)[1], result.message


# ---- the reviewer's findings: rank values, not dict order; ints; None where merging stops short ----------------------


def in_dict_order(token, ranks):
    """Never reads a rank: walks the dict in its own order up to the token's key and merges the first multi-byte
    key found as an adjacent pair. Right whenever the dict lists tokens lowest rank first, and only then."""
    parts = [bytes([b]) for b in token]
    merged = True
    while merged and len(parts) > 2:
        merged = False
        for key in ranks:
            if key == token:
                break
            if len(key) < 2:
                continue
            for i in range(len(parts) - 1):
                if parts[i] + parts[i + 1] == key:
                    parts[i : i + 2] = [key]
                    merged = True
                    break
            if merged:
                break
    return tuple(parts)


def test_in_dict_order_is_wrong_on_gpt4s_hello_when_the_ranks_are_shuffled():
    """Worked out independently of the reference: tiktoken's own ranks, listed in a shuffled order."""
    import random

    ranks = dict(from_tiktoken("cl100k_base").ranks)
    items = list(ranks.items())
    random.Random(7).shuffle(items)
    shuffled = dict(items)
    assert lowest_rank_bpe(b" hello", shuffled) == lowest_rank_bpe(b" hello", ranks) == (b" h", b"ello")
    assert in_dict_order(b" hello", ranks) == (b" h", b"ello")  # tiktoken lists its ranks lowest first
    assert in_dict_order(b" hello", shuffled) != (b" h", b"ello")


def test_find_parents_in_dict_order_is_rejected_and_named():
    result = FIND_PARENTS.run(in_dict_order, record=False)
    assert not result.passed, result.message
    hint = result.message.split("hint:", 1)[1]
    assert "order the dict lists them" in hint and "ranks[" in hint, result.message


def parts_as_ints(token, ranks):
    """The lesson's loop on list(token): the parts are ints, no pair of them is a key, nothing merges."""
    limit = ranks[token]
    parts = list(token)
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def none_where_merging_stops(token, ranks):
    """The lesson's loop that gives up, `return None`, where no pair below the token's rank is left."""
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i)
            for i in range(len(parts) - 1)
            if ranks.get(parts[i] + parts[i + 1], limit) < limit
        ]
        if not candidates:
            return None
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


@pytest.mark.parametrize(
    "wrong, words, not_words",
    [
        (parts_as_ints, ["ints", "bytes([b]) for b in token"], ["more than two parts are left"]),
        (none_where_merging_stops, ["never builds", "not None", "return tuple(parts)"], ["some path through it"]),
    ],
)
def test_find_parents_hint_names_ints_and_none(wrong, words, not_words):
    result = FIND_PARENTS.run(wrong, record=False)
    assert not result.passed, result.message
    hint = result.message.split("hint:", 1)[1]
    assert all(w in hint for w in words) and not any(w in hint for w in not_words), result.message


def test_find_parents_refuses_the_packages_merge_below_rank():
    from bpelab.token_build import merge_below_rank

    result = FIND_PARENTS.run(
        lambda token, ranks: tuple(merge_below_rank(token, ranks[token], ranks.get)), record=False
    )
    assert not result.passed and "that is the course's function" in result.message, result.message


def test_split_pieces_normalised_shows_the_code_points_that_differ():
    """'cafe\\u0301' and 'caf\\u00e9' print alike: the report must show which code points each piece holds."""
    result = SPLIT_PIECES.run(
        lambda text, pattern: regex.findall(pattern, unicodedata.normalize("NFC", text)), record=False
    )
    assert not result.passed, result.message
    assert "'cafe\\u0301'" in result.message and "'caf\\xe9'" in result.message, result.message
