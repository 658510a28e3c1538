"""Lesson 16's checkers: right answers pass, stubs say "not yet", typical mistakes get the hint that names them."""

from __future__ import annotations

import math
import sys

import pytest

from bpelab.exercises.sentencepiece import (
    BYTE_FALLBACK,
    NEXT_MERGE,
    byte_fallback,
    check_byte_fallback,
    check_next_merge,
    next_merge,
)
from bpelab.sentencepiece import load_sentencepiece
from bpelab.sentencepiece_text import byte_piece


def report(capsys) -> str:
    return capsys.readouterr().out


# ---- next_merge -----------------------------------------------------------------------------------------


def good_next_merge(symbols, scores):
    """Written apart from the reference: every candidate, sorted by (minus score, position)."""
    candidates = [(-scores[a + b], i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return min(candidates)[1] if candidates else None


def test_hand_written_merges_agree_with_the_reference():
    for case in NEXT_MERGE.build_cases():
        assert good_next_merge(*case.args) == case.expected, case.note


def test_the_reference_replays_mistrals_own_encoding():
    """Merging with next_merge until it says None gives exactly the pieces SentencePiece's encoder gives."""
    model = load_sentencepiece("mistral_v1")
    scores = {piece: model.scores[i] for piece, i in model.mergeable.items()}
    for text in ["Hello world", "the   cat sat", "unbelievably tokenized"]:
        symbols = list(model.normalize(text))
        while (i := next_merge(symbols, scores)) is not None:
            symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
        assert symbols == model.encode_as_pieces(text)


def test_next_merge_right_answers_pass(capsys):
    assert check_next_merge(good_next_merge)
    assert report(capsys).startswith("✅ next_merge: all")


def test_next_merge_stub_is_not_yet(capsys):
    def next_merge(symbols, scores):
        # your code here
        ...

    assert check_next_merge(next_merge).status == "not yet"


def test_next_merge_refuses_the_course_function(capsys):
    assert not check_next_merge(next_merge)
    assert not check_next_merge(lambda s, sc: next_merge(s, sc))


def rightmost(symbols, scores):
    candidates = [(-scores[a + b], -i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return -min(candidates)[1] if candidates else None


def lowest(symbols, scores):
    candidates = [(scores[a + b], i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return min(candidates)[1] if candidates else None


def most_frequent(symbols, scores):
    pairs = [(a, b) for a, b in zip(symbols, symbols[1:]) if a + b in scores]
    if not pairs:
        return None
    best = max(pairs, key=pairs.count)
    return list(zip(symbols, symbols[1:])).index(best)


def first_piece(symbols, scores):
    return next((i for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores), None)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (most_frequent, "lesson 04's rule"),
        (lowest, "you took the LOWEST score"),
        (rightmost, "rightmost"),
        (first_piece, "the first pair that forms a piece"),
        (lambda s, sc: (lambda i: None if i is None else (s[i], s[i + 1]))(good_next_merge(s, sc)), "POSITION"),
        (lambda s, sc: (lambda i: -1 if i is None else i)(good_next_merge(s, sc)), "return None"),
    ],
)
def test_next_merge_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_next_merge(wrong)
    out = report(capsys)
    assert not result
    assert hint in out, out


# ---- byte_fallback -----------------------------------------------------------------------------------------


def good_fallback(pieces, vocab):
    """Written apart from the reference: through the package's byte_piece, one byte at a time."""
    out = []
    for piece in pieces:
        out.extend([piece] if piece in vocab else map(byte_piece, piece.encode("utf-8")))
    return out


def test_hand_written_fallbacks_agree_with_the_reference():
    for case in BYTE_FALLBACK.build_cases():
        assert good_fallback(*case.args) == case.expected, case.note


def test_the_reference_is_what_mistral_emits():
    """On a model with byte fallback, the pieces the merges end with, fallen back, are the pieces encode gives."""
    model = load_sentencepiece("mistral_v1")
    text = "naïve 🤖 café ⅷ"
    merged = model.merge_pieces(model.normalize(text))
    assert byte_fallback(merged, set(model.mergeable)) == model.encode_as_pieces(text)
    assert any(piece.startswith("<0x") for piece in model.encode_as_pieces(text))


def test_byte_fallback_right_answers_pass(capsys):
    assert check_byte_fallback(good_fallback)
    assert report(capsys).startswith("✅ byte_fallback: all")


def test_byte_fallback_stub_is_not_yet(capsys):
    def byte_fallback(pieces, vocab):
        # your code here
        ...

    assert check_byte_fallback(byte_fallback).status == "not yet"


def test_byte_fallback_refuses_the_course_function(capsys):
    assert not check_byte_fallback(byte_fallback)


def spell(how):
    return lambda pieces, vocab: [o for p in pieces for o in ([p] if p in vocab else how(p))]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda pieces, vocab: [f"<0x{b:02X}>" for p in pieces for b in p.encode()], "stays as it is"),
        (lambda pieces, vocab: [p if p in vocab else "<unk>" for p in pieces], "WITHOUT byte fallback"),
        (spell(lambda p: [f"<0x{b:02x}>" for b in p.encode()]), "upper case"),
        (spell(lambda p: [f"<0x{b:X}>" for b in p.encode()]), "two hex digits"),
        (spell(lambda p: [f"<0x{ord(c):02X}>" for c in p]), "those are code points"),
        (spell(lambda p: [f"<0x{b:02X}>" for b in p.encode("utf-16-be")]), "UTF-16"),
        (spell(lambda p: [f"<0x{b:02X}>" for b in p.encode()][::-1]), "f'<0x{b:02X}>'"),
    ],
)
def test_byte_fallback_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_byte_fallback(wrong)
    out = report(capsys)
    assert not result
    assert hint in out, out


# ---- answers the checkers once let through (a fresh-eyes review of lesson 16), written as a learner would ---------


def hint_line(out: str) -> str:
    return next((line for line in out.splitlines() if "hint:" in line), "")


def truthy_score(symbols, scores):
    """Tests the score's truth, not its presence: a piece scored 0 (or -0.0) never merges."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        s = scores.get(symbols[i] + symbols[i + 1])
        if s and (best is None or s > best_score):
            best, best_score = i, s
    return best


def shorter_among_ties(symbols, scores):
    """Highest score, then the shorter piece, then the leftmost."""
    candidates = [
        (-scores[a + b], len(a + b), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores
    ]
    return min(candidates)[2] if candidates else None


def character_offset(symbols, scores):
    """The position in the text (characters), not in the list of symbols."""
    best, best_score, offset = None, None, 0
    for a, b in zip(symbols, symbols[1:]):
        if a + b in scores and (best is None or scores[a + b] > best_score):
            best, best_score = offset, scores[a + b]
        offset += len(a)
    return best


def piece_at_boundary(symbols, scores):
    """Any piece the text continues with at a symbol boundary, longer than that symbol: not a pair of symbols."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        rest = "".join(symbols[i:])
        for piece, score in scores.items():
            if len(piece) > len(symbols[i]) and rest.startswith(piece) and (best is None or score > best_score):
                best, best_score = i, score
    return best


def starting_at(start):
    def next_merge(symbols, scores):
        best, best_score = None, start
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and scores[piece] > best_score:
                best, best_score = i, scores[piece]
        return best

    return next_merge


def single_characters_only(symbols, scores):
    candidates = [
        (-scores[a + b], i)
        for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
        if len(a) == 1 and len(b) == 1 and a + b in scores
    ]
    return min(candidates)[1] if candidates else None


def test_sentencepiece_trainer_scores_its_first_piece_minus_zero(tmp_path):
    """The fact the zero-score case rests on: SentencePieceTrainer's first learned piece scores -0.0."""
    import math

    import sentencepiece as spm

    from bpelab.sentencepiece_model import read_model_file

    (tmp_path / "t.txt").write_text("fine fish find fifty\n" * 20, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(tmp_path / "t.txt"),
        model_prefix=str(tmp_path / "m"),
        model_type="bpe",
        vocab_size=30,
        num_threads=1,
        minloglevel=2,
    )
    first = read_model_file(tmp_path / "m.model").pieces[3]
    assert first.score == 0.0 and math.copysign(1.0, first.score) == -1.0


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (truthy_score, "a piece scored 0 is a piece too"),
        (shorter_among_ties, "leftmost"),
        (character_offset, "index in the list of symbols"),
        (piece_at_boundary, "two whole neighbouring symbols"),
        (starting_at(0.0), "starts at 0"),
        (starting_at(-1e9), "starts at -1e9"),
        (single_characters_only, "already merged"),
    ],
)
def test_next_merge_leaks_are_closed(wrong, hint, capsys):
    result = check_next_merge(wrong)
    out = report(capsys)
    assert not result
    assert hint in hint_line(out), out


def known_first(pieces, vocab):
    """All the known pieces, then all the byte pieces: the order of the text is lost."""
    known = [p for p in pieces if p in vocab]
    return known + [f"<0x{b:02X}>" for p in pieces if p not in vocab for b in p.encode()]


def per_character(pieces, vocab):
    """An unknown piece spelled character by character, keeping the characters the vocabulary has."""
    return [
        o
        for p in pieces
        for o in (
            [p]
            if p in vocab
            else [c if c in vocab else f"<0x{b:02X}>" for c in p for b in (c.encode() if c not in vocab else [0])]
        )
    ]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (known_first, "where the piece stood"),
        (per_character, "the WHOLE piece"),
    ],
)
def test_byte_fallback_leaks_are_closed(wrong, hint, capsys):
    result = check_byte_fallback(wrong)
    out = report(capsys)
    assert not result
    assert hint in hint_line(out), out


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("next_merge", truthy_score),
        ("next_merge", shorter_among_ties),
        ("next_merge", character_offset),
        ("next_merge", piece_at_boundary),
        ("next_merge", single_characters_only),
        ("byte_fallback", known_first),
        ("byte_fallback", per_character),
    ],
)
def test_the_mutation_inputs_generate_what_shows_each_leak(name, wrong):
    """The mutation test judges accepted mutants on these generated inputs: they must reach the leaks above."""
    from tests.mutation.harness import first_difference

    assert first_difference(name, wrong) is not None


def test_next_merge_found_again_with_index_is_rejected_and_named(capsys):
    """The right pair, its place looked up again with symbols.index: the first '▁' of a text, not the pair's."""

    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[best[0] + best[1]]):
                best = (symbols[i], symbols[i + 1])
        return None if best is None else symbols.index(best[0])

    assert not check_next_merge(next_merge, record=False)
    assert "symbols.index" in capsys.readouterr().out


def test_next_merge_without_its_return_is_told_so_not_about_a_starting_score(capsys):
    def next_merge(symbols, scores):  # the whole search, and then no `return best`
        best, best_score = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best_score is None or scores[piece] > best_score):
                best, best_score = i, scores[piece]  # noqa: F841

    assert not check_next_merge(next_merge, record=False)
    out = capsys.readouterr().out
    assert "starts at 0" not in out and "return" in out


def test_byte_fallback_keeping_known_characters_or_normalising_is_rejected_and_named(capsys):
    import unicodedata

    def known_characters(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab or all(ch in vocab for ch in piece):
                out.append(piece)
            else:
                out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    def normalised(pieces, vocab):
        out = []
        for piece in pieces:
            piece = unicodedata.normalize("NFC", piece)
            out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    assert not check_byte_fallback(known_characters, record=False)
    assert "WHOLE piece" in capsys.readouterr().out
    assert not check_byte_fallback(normalised, record=False)
    assert "normalised" in capsys.readouterr().out


# ---- answers of the wrong type (a fresh-eyes review of lesson 16): the engine counts 2.0 as 2 ------------------


def as_float(symbols, scores):
    """The right position, made a float (a `/` somewhere, or float(i))."""
    i = good_next_merge(symbols, scores)
    return None if i is None else float(i)


def winning_score(symbols, scores):
    """The score of the winning piece instead of its position."""
    i = good_next_merge(symbols, scores)
    return None if i is None else scores[symbols[i] + symbols[i + 1]]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (as_float, "a float: a position in a list is an int"),
        (winning_score, "the SCORE of the winning piece"),
    ],
)
def test_next_merge_floats_are_rejected_and_their_type_named(wrong, hint, capsys):
    result = check_next_merge(wrong, record=False)
    out = report(capsys)
    assert not result
    assert hint in hint_line(out), out
    assert "(a float)" in out  # the answer is shown as what it is


def test_next_merge_an_int_subclass_still_passes(capsys):
    class Position(int):
        pass

    def next_merge(symbols, scores):
        i = good_next_merge(symbols, scores)
        return None if i is None else Position(i)

    assert check_next_merge(next_merge, record=False)


def spelled_with(make):
    """A byte_fallback that writes each byte of an unknown piece with ``make(byte)``, or appends them as one list."""

    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab:
                out.append(piece)
            elif make is list:
                out.append([f"<0x{b:02X}>" for b in piece.encode("utf-8")])
            else:
                out += [make(b) for b in piece.encode("utf-8")]
        return out

    return byte_fallback


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (spelled_with(int), "your list holds ints (195): each UTF-8 byte becomes a piece"),
        (spelled_with(lambda b: bytes([b])), "your list holds bytes objects"),
        (spelled_with(list), "your list holds lists"),
        (spelled_with(float), "your list holds a float (195.0)"),
    ],
)
def test_byte_fallback_items_of_another_type_are_named(wrong, hint, capsys):
    result = check_byte_fallback(wrong, record=False)
    out = report(capsys)
    assert not result
    assert hint in hint_line(out), out


# ---- the fresh read's leaks: ties by frequency or symbol length, a start below -1e9, strip, case -------------


def frequent_among_ties(symbols, scores):
    joined = [a + b for a, b in zip(symbols, symbols[1:])]
    found = [(-scores[p], -joined.count(p), i) for i, p in enumerate(joined) if p in scores]
    return min(found)[2] if found else None


def longer_left_among_ties(symbols, scores):
    found = [(-scores[a + b], -len(a), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return min(found)[2] if found else None


def shorter_right_among_ties(symbols, scores):
    found = [(-scores[a + b], len(b), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
    return min(found)[2] if found else None


def starting_below(start):
    def next_merge(symbols, scores):
        best, best_score = None, start
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and scores[piece] > best_score:
                best, best_score = i, scores[piece]
        return best

    return next_merge


def stripped(pieces, vocab):
    return [o for p in pieces for o in ([p] if p.strip() in vocab else [f"<0x{b:02X}>" for b in p.encode()])]


def case_insensitive(pieces, vocab):
    lowered = {v.lower() for v in vocab}
    return [o for p in pieces for o in ([p] if p.lower() in lowered else [f"<0x{b:02X}>" for b in p.encode()])]


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (frequent_among_ties, "occurs more often"),
        (longer_left_among_ties, "longer LEFT symbol"),
        (shorter_right_among_ties, "shorter RIGHT symbol"),
        (starting_below(-1e10), "lower than any number you pick"),
        (starting_below(-1e9 - 1), "lower than any number you pick"),
    ],
)
def test_next_merge_tie_and_start_leaks_are_closed(wrong, hint, capsys):
    assert not check_next_merge(wrong, record=False)
    assert hint in hint_line(report(capsys))


@pytest.mark.parametrize(("wrong", "hint"), [(stripped, "piece.strip()"), (case_insensitive, "without its case")])
def test_byte_fallback_strip_and_case_leaks_are_closed(wrong, hint, capsys):
    assert not check_byte_fallback(wrong, record=False)
    assert hint in hint_line(report(capsys))


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("next_merge", frequent_among_ties),
        ("next_merge", longer_left_among_ties),
        ("next_merge", shorter_right_among_ties),
        ("next_merge", starting_below(-1e10)),
        ("byte_fallback", stripped),
        ("byte_fallback", case_insensitive),
    ],
)
def test_the_mutation_inputs_reach_the_fresh_read_s_leaks(name, wrong):
    from tests.mutation.harness import first_difference

    assert first_difference(name, wrong) is not None


# ---- a second fresh-eyes review of lesson 16: a best score that starts at a large negative number, scores compared
# rounded or within 1e-3, and vocabularies looked up loosely -------------------------------------------------------


def compared_by(key):
    def next_merge(symbols, scores):
        best, best_key = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or key(scores[piece]) > best_key):
                best, best_key = i, key(scores[piece])
        return best

    return next_merge


def ties_within(tolerance):
    def next_merge(symbols, scores):
        best, best_score = None, 0.0
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > best_score + tolerance):
                best, best_score = i, scores[piece]
        return best

    return next_merge


def known_if(test):
    return lambda pieces, vocab: [
        o for p in pieces for o in ([p] if test(p, vocab) else [f"<0x{b:02X}>" for b in p.encode()])
    ]


LOOSE_LOOKUPS = [
    known_if(lambda p, vocab: p in vocab or p.lstrip("▁") in vocab),
    known_if(lambda p, vocab: p in vocab or p.replace("▁", "") in vocab),
    known_if(lambda p, vocab: p in " ".join(vocab)),
    known_if(lambda p, vocab: p in vocab or (len(p) == 1 and " " <= p <= "~")),
]
LOOSE_SCORES = [
    starting_below(-sys.maxsize),
    starting_below(-1e30),
    compared_by(int),
    compared_by(round),
    ties_within(1e-3),
]


@pytest.mark.parametrize("wrong", LOOSE_SCORES)
def test_next_merge_loose_starts_and_comparisons_are_rejected(wrong, capsys):
    assert not check_next_merge(wrong, record=False)


@pytest.mark.parametrize("wrong", LOOSE_LOOKUPS)
def test_byte_fallback_loose_lookups_are_rejected(wrong, capsys):
    assert not check_byte_fallback(wrong, record=False)


@pytest.mark.parametrize("wrong", LOOSE_LOOKUPS)
def test_the_mutation_inputs_reach_the_loose_lookups(wrong):
    from tests.mutation.harness import first_difference

    assert first_difference("byte_fallback", wrong) is not None


def test_rounded_scores_and_substrings_are_named(capsys):
    assert not check_next_merge(compared_by(int), record=False)
    assert "rounded" in hint_line(report(capsys))
    assert not check_byte_fallback(LOOSE_LOOKUPS[2], record=False)
    assert "not a string made of the pieces" in hint_line(report(capsys))


# ---- a third fresh-eyes review of lesson 16: tolerances of any size, lookups by a piece's start or end, a literal
# '<0x41>', hints for None that name the learner's bug, a crash on no pieces ---------------------------------------


def beats_by(more_than):
    """``scores[piece] > best_score + tolerance`` (or any other loose test), starting from the first piece found."""

    def next_merge(symbols, scores):
        best, best_score = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or more_than(scores[piece], best_score)):
                best, best_score = i, scores[piece]
        return best

    return next_merge


TOLERANCES = [
    beats_by(lambda a, b: a > b + 1e-4),
    beats_by(lambda a, b: a > b + 1e-6),
    beats_by(lambda a, b: a > b + 1e-12),
    beats_by(lambda a, b: a > b + 1e-300),
    beats_by(lambda a, b: a > b and not math.isclose(a, b)),
    beats_by(lambda a, b: a > b and not math.isclose(a, b, rel_tol=1e-15)),
    beats_by(lambda a, b: a - b > sys.float_info.epsilon),
    beats_by(lambda a, b: round(a, 12) > round(b, 12)),
]


def test_the_reviewers_counter_example_is_a_win_by_a_hair():
    assert good_next_merge(["a", "b", "c"], {"ab": -1.0, "bc": -0.99995}) == 1
    assert TOLERANCES[0](["a", "b", "c"], {"ab": -1.0, "bc": -0.99995}) == 0


@pytest.mark.parametrize("wrong", TOLERANCES)
def test_next_merge_any_tolerance_is_rejected_and_named(wrong, capsys):
    assert not check_next_merge(wrong, record=False)
    assert "tolerance" in hint_line(report(capsys))


@pytest.mark.parametrize("wrong", TOLERANCES[:3])
def test_the_mutation_inputs_reach_tolerances(wrong):
    from tests.mutation.harness import first_difference

    assert first_difference("next_merge", wrong) is not None


def test_the_cases_hold_differences_of_the_smallest_float_step():
    differences = set()
    for case in NEXT_MERGE.build_cases():
        _, scores = case.args
        values = sorted(set(scores.values()))
        differences |= {b for a, b in zip(values, values[1:]) if math.nextafter(a, math.inf) == b}
    assert len(differences) >= 3  # around 0, around -1 and around -1e9


def skipping(test):
    """The right search, but a pair for which ``test(left, right)`` holds is never looked at."""

    def next_merge(symbols, scores):
        best, best_score = None, float("-inf")
        for i in range(len(symbols) - 1):
            if test(symbols[i], symbols[i + 1]):
                continue
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and scores[piece] > best_score:
                best, best_score = i, scores[piece]
        return best

    return next_merge


@pytest.mark.parametrize(
    "wrong",
    [
        skipping(lambda left, right: right.startswith("\u2581")),  # lesson 04's habit: no merge across a word start
        skipping(lambda left, right: not (left + right).strip("\u2581")),  # pieces made only of '▁' left out
    ],
)
def test_next_merge_skipping_space_pairs_is_not_told_about_a_starting_score(wrong, capsys):
    assert not check_next_merge(wrong, record=False)
    line = hint_line(report(capsys))
    assert "starts at" not in line and "float('-inf')" not in line, line
    assert "whatever its score" in line, line


def low_scores_left_out(symbols, scores):
    """Starts from -inf, but leaves out every piece that scores -1e9 or less."""
    best, best_score = None, float("-inf")
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and scores[piece] > -1e9 and scores[piece] > best_score:
            best, best_score = i, scores[piece]
    return best


def test_next_merge_a_filter_of_low_scores_is_told_it_filters(capsys):
    assert not check_next_merge(low_scores_left_out, record=False)
    line = hint_line(report(capsys))
    assert "leave out" in line and "starts at" not in line, line


def test_next_merge_a_start_below_any_piece_is_still_told_it_starts_there(capsys):
    assert not check_next_merge(starting_below(-1e10), record=False)
    line = hint_line(report(capsys))
    assert "starts at" in line and "leave out" not in line, line


def halves_must_be_pieces(symbols, scores):
    """Reaches ``return best``, but wants both halves of a pair to be pieces themselves: finds no pair in '▁'+'t'."""
    best, best_score = None, float("-inf")
    for i in range(len(symbols) - 1):
        a, b = symbols[i], symbols[i + 1]
        if a in scores and b in scores and a + b in scores and scores[a + b] > best_score:
            best, best_score = i, scores[a + b]
    return best


def test_next_merge_finding_no_pair_is_not_told_about_a_missing_return(capsys):
    assert not check_next_merge(halves_must_be_pieces, record=False)
    line = hint_line(report(capsys))
    assert "without reaching `return`" not in line, line
    assert "found no pair" in line, line


def test_next_merge_a_path_without_return_is_still_told_so(capsys):
    def next_merge(symbols, scores):
        if len(symbols) < 2:
            return None
        best, best_score = None, float("-inf")
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and scores[piece] > best_score:
                best, best_score = i, scores[piece]
        if best is not None and best > 0:
            return best

    assert not check_next_merge(next_merge, record=False)
    assert "without reaching `return`" in hint_line(report(capsys))


PREFIX_OR_SUFFIX_LOOKUPS = [
    known_if(lambda p, vocab: " " + p in " " + " ".join(vocab)),
    known_if(lambda p, vocab: p + " " in " ".join(vocab) + " "),
    known_if(lambda p, vocab: any(v.startswith(p) for v in vocab)),
    known_if(lambda p, vocab: any(v.endswith(p) for v in vocab)),
]


def test_the_reviewers_counter_example_is_a_prefix_of_a_piece():
    assert byte_fallback(["\u2581ca"], {"\u2581caf"}) == ["<0xE2>", "<0x96>", "<0x81>", "<0x63>", "<0x61>"]
    assert PREFIX_OR_SUFFIX_LOOKUPS[2](["\u2581ca"], {"\u2581caf"}) == ["\u2581ca"]


@pytest.mark.parametrize("wrong", PREFIX_OR_SUFFIX_LOOKUPS)
def test_byte_fallback_lookups_by_a_pieces_start_or_end_are_rejected_and_named(wrong, capsys):
    assert not check_byte_fallback(wrong, record=False)
    line = hint_line(report(capsys))
    assert "is no piece itself" in line, line


@pytest.mark.parametrize("wrong", PREFIX_OR_SUFFIX_LOOKUPS)
def test_the_mutation_inputs_reach_lookups_by_a_pieces_start_or_end(wrong):
    from tests.mutation.harness import first_difference

    assert first_difference("byte_fallback", wrong) is not None


def byte_looking_kept(pieces, vocab):
    """Leaves a piece that looks like a byte piece as it is, though it is text that is no piece of the vocabulary."""
    return [
        o
        for p in pieces
        for o in (
            [p] if p in vocab or (p.startswith("<0x") and p.endswith(">")) else [f"<0x{b:02X}>" for b in p.encode()]
        )
    ]


def test_byte_fallback_text_that_looks_like_a_byte_piece_is_rejected_and_named(capsys):
    assert not check_byte_fallback(byte_looking_kept, record=False)
    line = hint_line(report(capsys))
    assert "'<0x41>'" in line and "text" in line, line


def test_the_mutation_inputs_reach_text_that_looks_like_a_byte_piece():
    from tests.mutation.harness import first_difference

    assert first_difference("byte_fallback", byte_looking_kept) is not None


def test_byte_fallback_a_crash_on_no_pieces_is_named(capsys):
    def byte_fallback(pieces, vocab):
        out = [pieces[0] if pieces[0] in vocab else None]  # looks at the first piece before the loop
        out = []
        for piece in pieces:
            out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    assert not check_byte_fallback(byte_fallback, record=False)
    line = hint_line(report(capsys))
    assert "empty list" in line and "IndexError" in line, line


def test_the_code_reader_tells_a_return_that_found_nothing_from_running_off_the_end():
    from bpelab.exercises.sentencepiece_code import read_code

    def returns_on_every_path(symbols, scores):
        if not symbols:
            return None
        best = None
        for i in range(len(symbols) - 1):
            best = i
        return best

    def may_run_off(symbols, scores):
        for i in range(len(symbols) - 1):
            if symbols[i] + symbols[i + 1] in scores:
                return i

    def if_else_returns(symbols, scores):
        if symbols:
            return 0
        else:
            raise ValueError("empty")

    assert read_code(returns_on_every_path).may_end_without_return is False
    assert read_code(may_run_off).may_end_without_return is True
    assert read_code(if_else_returns).may_end_without_return is False
    assert read_code(lambda s, sc: None).may_end_without_return is False
    assert read_code(len).may_end_without_return is None  # no source: the engine's own message stays

    def starts_low(symbols, scores):
        best, best_score = None, -(10**10)
        return best if best_score else None

    assert read_code(starts_low).assigned == (-1e10,)
    assert read_code(low_scores_left_out).compared == (-1e9,)


# ---- answers a fresh-eyes review (after the last round) found accepted or mis-hinted, written as a learner would -----

SP = "\u2581"


def stays_inside_words(symbols, scores):
    """Lesson 07's guard, "no merge crosses a word", with an exception for Mistral's '▁▁' pieces."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if SP in piece[1:] and piece.strip(SP):
            continue  # a '▁' after the first character: the piece would cross a word
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def no_word_start_on_the_right(symbols, scores):
    """A pair is skipped when its right symbol starts a word ('▁...') and its left one is not all '▁'."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        left, right = symbols[i], symbols[i + 1]
        if right.startswith(SP) and left.strip(SP):
            continue
        if left + right in scores and (best is None or scores[left + right] > best_score):
            best, best_score = i, scores[left + right]
    return best


def no_space_after_the_start(symbols, scores):
    """No '▁' after a piece's first character, with no exception for Mistral's '▁▁' pieces."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if SP not in piece[1:] and piece in scores:
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


def no_space_at_the_end(symbols, scores):
    """A piece may not end in '▁' after other characters ('of▁')."""
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece.endswith(SP) and piece.strip(SP):
            continue
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def at_most_16_characters(symbols, scores):
    """Section 5's max_sentencepiece_length, applied while encoding."""
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and len(piece) <= 16 and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def one_script_per_piece(symbols, scores):
    """Section 5's split_by_unicode_script, applied while encoding (scripts read from the characters' names)."""
    import unicodedata

    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        scripts = {unicodedata.name(c, "?").split()[0] for c in piece if c.isalpha()}
        if piece in scores and len(scripts) <= 1 and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def truth_of_best_at_the_end(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    if best:
        return best
    return None


def best_or_none(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best or None


def best_if_best(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best if best else None


def not_best_in_the_loop(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (not best or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def missing_scores_zero(symbols, scores):
    best, best_score = None, float("-inf")
    for i in range(len(symbols) - 1):
        score = scores.get(symbols[i] + symbols[i + 1], 0)
        if score > best_score:
            best, best_score = i, score
    return best


def compared_with_round(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or round(scores[piece]) > best_score):
            best, best_score = i, round(scores[piece])
    return best


def compared_with_int(symbols, scores):
    best, best_score = None, None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or int(scores[piece]) > best_score):
            best, best_score = i, int(scores[piece])
    return best


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (stays_inside_words, "'▁' is a character like any other"),
        (no_word_start_on_the_right, "'▁' is a character like any other"),
        (no_space_after_the_start, "'▁' is a character like any other"),
        (no_space_at_the_end, "'▁' is a character like any other"),
        (at_most_16_characters, "the trainer's rules"),
        (one_script_per_piece, "the trainer's rules"),
        (truth_of_best_at_the_end, "position 0 is false"),
        (best_or_none, "position 0 is false"),
        (best_if_best, "position 0 is false"),
        (not_best_in_the_loop, "position 0 is false"),
        (missing_scores_zero, "forms no piece"),
        (compared_with_round, "rounded"),
        (compared_with_int, "rounded"),
    ],
)
def test_next_merge_leaks_of_the_second_review_are_closed(wrong, hint, capsys):
    result = check_next_merge(wrong, record=False)
    out = report(capsys)
    assert not result
    assert hint in hint_line(out), out


def test_a_missing_piece_given_a_score_is_named(capsys):
    check_next_merge(missing_scores_zero, record=False)
    line = hint_line(report(capsys))
    assert "'c' + 'b'" in line and "scores.get(piece, 0)" in line, line


@pytest.mark.parametrize(
    "wrong",
    [
        stays_inside_words,
        no_word_start_on_the_right,
        no_space_after_the_start,
        no_space_at_the_end,
        at_most_16_characters,
        one_script_per_piece,
        truth_of_best_at_the_end,
        not_best_in_the_loop,
        missing_scores_zero,
        compared_with_round,
        compared_with_int,
    ],
)
def test_the_mutation_inputs_reach_the_second_reviews_leaks(wrong):
    from tests.mutation.harness import first_difference

    assert first_difference("next_merge", wrong) is not None


def test_pieces_with_a_space_inside_or_at_the_end_are_what_sentencepiece_makes(tmp_path):
    """The fact the new cases rest on: models trained with split_by_whitespace=False or treat_whitespace_as_suffix
    hold pieces with '▁' inside or at the end, and encoding merges them as any other (sentencepiece 0.2.3)."""
    import sentencepiece as spm

    from bpelab.sentencepiece import SentencePieceBPE

    lines = ["of the new york"] * 50 + ["in the new jersey"] * 20 + ["of the city"] * 20 + ["new york times"] * 10
    (tmp_path / "t.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for options, size, made in [
        ({"split_by_whitespace": False}, 30, "▁of▁the"),
        ({"treat_whitespace_as_suffix": True}, 35, "of▁"),
    ]:
        prefix = str(tmp_path / "m")
        spm.SentencePieceTrainer.train(
            input=str(tmp_path / "t.txt"),
            model_prefix=prefix,
            model_type="bpe",
            vocab_size=size,
            num_threads=1,
            minloglevel=2,
            **options,
        )
        text = "of the new york"
        theirs = spm.SentencePieceProcessor(model_file=prefix + ".model").encode(text, out_type=str)
        ours = SentencePieceBPE.from_model_file(prefix + ".model")
        scores = {piece: ours.scores[i] for piece, i in ours.mergeable.items()}
        merged, skipped = list(ours.normalize(text)), list(ours.normalize(text))
        while (i := good_next_merge(merged, scores)) is not None:
            merged[i : i + 2] = [merged[i] + merged[i + 1]]
        while (i := stays_inside_words(skipped, scores)) is not None:
            skipped[i : i + 2] = [skipped[i] + skipped[i + 1]]
        assert made in theirs and merged == theirs, (options, theirs)
        assert made not in skipped, skipped


def test_long_and_mixed_script_pieces_are_what_sentencepiece_makes_with_other_settings(tmp_path):
    """The fact the two trainer-rule cases rest on: with split_by_unicode_script=False and a longer
    max_sentencepiece_length the trainer learns such pieces, and encoding merges them (sentencepiece 0.2.3)."""
    import sentencepiece as spm

    from bpelab.sentencepiece import SentencePieceBPE

    lines = ["internationalization日本a"] * 60 + ["nationalization本a"] * 20
    (tmp_path / "t.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    prefix = str(tmp_path / "m")
    spm.SentencePieceTrainer.train(
        input=str(tmp_path / "t.txt"),
        model_prefix=prefix,
        model_type="bpe",
        vocab_size=60,
        num_threads=1,
        minloglevel=2,
        split_by_unicode_script=False,
        max_sentencepiece_length=32,
    )
    text = "internationalization日本a"
    theirs = spm.SentencePieceProcessor(model_file=prefix + ".model").encode(text, out_type=str)
    ours = SentencePieceBPE.from_model_file(prefix + ".model")
    scores = {piece: ours.scores[i] for piece, i in ours.mergeable.items()}
    symbols = list(ours.normalize(text))
    while (i := good_next_merge(symbols, scores)) is not None:
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
    assert symbols == theirs
    assert any(len(piece) > 16 for piece in theirs), theirs
    assert any(len(_scripts(piece)) > 1 for piece in theirs), theirs


def _scripts(piece):
    from bpelab.sentencepiece_training import script_of

    return {script_of(c) for c in piece if c != SP} - {"Common", "Inherited"}
