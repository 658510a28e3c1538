"""Lesson 16's checkers against the wrong answers of a later fresh read: each is rejected, with a hint naming it.

``next_merge``: answers that stop before the end of the symbols (a hill-climber that breaks when a score drops, the
first local maximum, the first three pieces, the first five symbols), that also join three symbols, that look a
piece up without its '▁', and two guards on '▁' that skip the winning pair (the tie hints named the wrong bug).
``byte_fallback``: a lone '▁' (or '▁▁') kept as a piece though the vocabulary lacks it. The known answers are
worked by hand in each docstring; sentencepiece itself confirms the lone '▁'.
"""

from __future__ import annotations

import pytest
import sentencepiece as spm

from bpelab.exercises.sentencepiece import byte_fallback, check_byte_fallback, check_next_merge, next_merge
from bpelab.vocab_files import require_sentencepiece

SPACE = "\u2581"


def hint_of(capsys) -> str:
    printed = capsys.readouterr().out
    return next((line for line in printed.splitlines() if "hint:" in line), printed)


def best_of(symbols, scores, keys):
    """The reference's loop over ``keys[i]`` (None: no piece at i): highest score, leftmost among ties."""
    best, best_score = None, None
    for i, key in enumerate(keys):
        if key is not None and key in scores and (best is None or scores[key] > best_score):
            best, best_score = i, scores[key]
    return best


def hill_climber(symbols, scores):
    """Keeps the best so far and stops (``break``) at the first piece that scores lower."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores:
            if best is None or scores[piece] > best_score:
                best, best_score = i, scores[piece]
            elif scores[piece] < best_score:
                break
    return best


def first_local_maximum(symbols, scores):
    found = [(i, scores[a + b]) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return next((i for k, (i, s) in enumerate(found) if k + 1 == len(found) or found[k + 1][1] <= s), None)


def first_three_pieces(symbols, scores):
    best, best_score, seen = None, None, 0
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores:
            if best is None or scores[piece] > best_score:
                best, best_score = i, scores[piece]
            seen += 1
            if seen == 3:
                break
    return best


def first_five_symbols(symbols, scores):
    """``correct(symbols[:5], scores)``: the right loop on the first five symbols only."""
    first = symbols[:5]
    return best_of(first, scores, [a + b for a, b in zip(first, first[1:])])


def three_symbol_joins(symbols, scores):
    """Tries symbols[i:i + 3] joined as well as the pair."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        for piece in ("".join(symbols[i : i + 2]), "".join(symbols[i : i + 3]) if i + 3 <= len(symbols) else None):
            if piece is not None and piece in scores and (best is None or scores[piece] > best_score):
                best, best_score = i, scores[piece]
    return best


def space_dropped_when_missing(symbols, scores):
    """Looks the piece up, and when it is missing, looks it up again without its leading '▁'."""
    keys = [a + b if a + b in scores else (a + b).lstrip(SPACE) for a, b in zip(symbols, symbols[1:])]
    return best_of(symbols, scores, keys)


def space_always_dropped(symbols, scores):
    """Looks the piece up without its leading '▁' (the whole piece when it is all '▁')."""
    keys = [(a + b).lstrip(SPACE) or a + b for a, b in zip(symbols, symbols[1:])]
    return best_of(symbols, scores, keys)


def right_space_guard(symbols, scores):
    """Skips a pair whose right symbol starts with '▁', unless the left symbol is a lone '▁'."""
    keys = [None if b.startswith(SPACE) and a != SPACE else a + b for a, b in zip(symbols, symbols[1:])]
    return best_of(symbols, scores, keys)


def only_two_lone_spaces(symbols, scores):
    """Among pairs of '▁' only, only '▁' + '▁' may join ('▁▁' + '▁', '▁' + '▁▁' are skipped)."""
    keys = [
        None if not (a + b).strip(SPACE) and (a, b) != (SPACE, SPACE) else a + b for a, b in zip(symbols, symbols[1:])
    ]
    return best_of(symbols, scores, keys)


def test_the_wrong_answers_are_wrong_by_hand():
    """Each on an input worked by hand: the reference's answer, then the wrong one's."""
    five = (list("abcde"), {"ab": -2.0, "bc": -3.0, "de": -1.0})  # 'de' (-1) at 3 beats 'ab' (-2) at 0
    assert next_merge(*five) == 3
    assert hill_climber(*five) == first_local_maximum(*five) == 0
    abc = (list("abc"), {"abc": -1.0, "ab": -5.0, "bc": -3.0})  # 'abc' joins three symbols: no pair
    assert next_merge(*abc) == 1 and three_symbol_joins(*abc) == 0
    assert next_merge([SPACE, "▁"], {}) is None


WRONG_MERGES = [
    (hill_climber, "stopped"),
    (first_local_maximum, "stopped"),
    (first_three_pieces, "stopped"),
    (first_five_symbols, "stopped"),
    (three_symbol_joins, "three symbols"),
    (space_dropped_when_missing, "without its '▁'"),
    (space_always_dropped, "without its '▁'"),
    (right_space_guard, "you passed over"),
    (only_two_lone_spaces, "you passed over"),
]


@pytest.mark.parametrize(("wrong", "named"), WRONG_MERGES, ids=[w.__name__ for w, _ in WRONG_MERGES])
def test_next_merge_wrong_answers_of_the_fresh_read_are_rejected_and_named(wrong, named, capsys):
    assert not check_next_merge(wrong, record=False)
    hint = hint_of(capsys)
    assert named in hint, hint
    assert "the same as" not in hint and "shorter piece" not in hint, hint  # not a tie hint


def test_the_course_solution_still_passes():
    assert check_next_merge(lambda s, sc: best_of(s, sc, [a + b for a, b in zip(s, s[1:])]), record=False)


def as_bytes(piece):
    """The byte pieces of a piece, written out (a wrong answer that called the course's byte_fallback would be refused
    as the course's function before its mistake is judged)."""
    return [f"<0x{b:02X}>" for b in piece.encode("utf-8")]


def lone_space_kept(pieces, vocab):
    return [out for p in pieces for out in ([p] if p in vocab or p == SPACE else as_bytes(p))]


def spaces_kept(pieces, vocab):
    return [out for p in pieces for out in ([p] if p in vocab or (p and not p.strip(SPACE)) else as_bytes(p))]


@pytest.mark.parametrize("wrong", [lone_space_kept, spaces_kept])
def test_byte_fallback_keeping_a_lone_space_is_rejected_and_named(wrong, capsys):
    assert not check_byte_fallback(wrong, record=False)
    hint = hint_of(capsys)
    assert "'▁'" in hint and "E2 96 81" in hint, hint


def test_a_lone_space_outside_the_vocabulary_is_its_bytes_in_sentencepiece():
    """Mistral's model has '▁' (id 29473); the three bytes of '▁' are <0xE2> <0x96> <0x81>, as byte_fallback gives."""
    reference = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    assert [reference.id_to_piece(reference.piece_to_id(p)) for p in ["<0xE2>", "<0x96>", "<0x81>"]] == [
        "<0xE2>",
        "<0x96>",
        "<0x81>",
    ]
    assert byte_fallback([SPACE], set()) == ["<0xE2>", "<0x96>", "<0x81>"]
    assert SPACE.encode("utf-8") == bytes([0xE2, 0x96, 0x81])


REACHED = [
    ("next_merge", hill_climber),
    ("next_merge", first_local_maximum),
    ("next_merge", first_three_pieces),
    ("next_merge", first_five_symbols),
    ("next_merge", three_symbol_joins),
    ("next_merge", space_dropped_when_missing),
    ("next_merge", space_always_dropped),
    ("byte_fallback", lone_space_kept),
    ("byte_fallback", spaces_kept),
]


@pytest.mark.parametrize(("name", "wrong"), REACHED, ids=[f"{n}-{w.__name__}" for n, w in REACHED])
def test_the_mutation_inputs_reach_these_wrong_answers(name, wrong):
    """The generated inputs of the mutation test hold an input on which each answers otherwise than the reference."""
    from tests.mutation.harness import first_difference

    assert first_difference(name, wrong) is not None


@pytest.mark.parametrize(("text", "said"), [("", "no text: nothing to merge"), ("🤖", "no merge")])
def test_the_table_cell_on_a_text_with_nothing_to_merge_says_so(text, said, capsys):
    """An empty text (or one whose symbols form no piece) showed "Empty DataFrame Columns: [] Index: []"."""
    from tests.test_lesson16_cells import _stepper_cells, _stepper_namespace, _with_learners_text

    stepper_cell, table_cell = _stepper_cells()
    namespace = _stepper_namespace()
    exec(_with_learners_text(stepper_cell, text), namespace)
    capsys.readouterr()
    exec(table_cell, namespace)
    out = capsys.readouterr().out
    assert said in out and "Empty DataFrame" not in out, out
