"""Lesson 16 checkers: SentencePiece's merge step, and its byte fallback.

- ``check_next_merge(fn)``: ``next_merge(symbols, scores) -> int | None``, the position of the pair SentencePiece's
  BPE merges next: the adjacent pair whose joined string is a piece of the highest score; of equal scores, the
  leftmost (``bpe_model.cc``, ``Model::SampleEncode``; ``bpelab.sentencepiece``). ``None`` when no pair forms one.
  A position is an int: the engine counts ``2.0`` as ``2``, so a float is refused here with its own hint (the
  position as a float, or the winning piece's score).
- ``check_byte_fallback(fn)``: ``byte_fallback(pieces, vocab) -> list of str``, the pieces a model with
  ``byte_fallback=True`` emits: a piece of the vocabulary as itself, any other as the pieces ``<0xNN>`` of its
  UTF-8 bytes, two upper-case hex digits each (``sentencepiece_processor.cc``, ``PopulateSentencePieceText``).
  An item of another type than str (a byte's value, a ``bytes``, a nested list) is named by its type.
"""

from __future__ import annotations

import math
import sys
import unicodedata
from typing import Any, Literal

import numpy as np

from bpelab.exercises.comparing import same
from bpelab.exercises.core import Attempt, Case, CheckResult, Diagnoser, Exercise, same_as, when
from bpelab.exercises.number_answers import FloatAnswer, adjusted
from bpelab.exercises.sentencepiece_code import LEARNER_CODE, Code, reading
from bpelab.exercises.sentencepiece_states import real_encoding_cases, real_fallback_cases
from bpelab.sentencepiece_training import script_of

SPACE = "\u2581"

# ---- exercise 1: the score-ordered merge step ---------------------------------------------------------------


def next_merge(symbols: list[str], scores: dict[str, float]) -> int | None:
    """Where the next merge happens: ``i`` such that ``symbols[i] + symbols[i + 1]`` is the best-scoring piece,
    the leftmost such ``i`` among equal scores; ``None`` when no adjacent pair forms a piece."""
    best: int | None = None
    best_score = 0.0
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def _rightmost_among_ties(symbols: list[str], scores: dict[str, float]) -> int | None:
    best: int | None = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] >= scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def _lowest_score(symbols: list[str], scores: dict[str, float]) -> int | None:
    found = [
        (scores[symbols[i] + symbols[i + 1]], i)
        for i in range(len(symbols) - 1)
        if symbols[i] + symbols[i + 1] in scores
    ]
    return min(found)[1] if found else None


def _first_piece(symbols: list[str], scores: dict[str, float]) -> int | None:
    return next((i for i in range(len(symbols) - 1) if symbols[i] + symbols[i + 1] in scores), None)


def _most_frequent(symbols: list[str], scores: dict[str, float]) -> int | None:
    """Lesson 04's rule: the pair seen most often (of the pairs that form a piece), first seen among ties."""
    counts: dict[tuple[str, str], int] = {}
    for pair in zip(symbols, symbols[1:]):
        if pair[0] + pair[1] in scores:
            counts[pair] = counts.get(pair, 0) + 1
    if not counts:
        return None
    best = max(counts, key=lambda pair: counts[pair])
    return next(i for i in range(len(symbols) - 1) if (symbols[i], symbols[i + 1]) == best)


def _truthy_score(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``if scores.get(piece) and ...``: a piece scored 0 (or -0.0) is false, so it never merges."""
    best: int | None = None
    for i in range(len(symbols) - 1):
        score = scores.get(symbols[i] + symbols[i + 1])
        if score and (best is None or score > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def _score_kept_if(keep: Any) -> Any:
    """``if piece in scores and keep(scores[piece])``: the reference over the pieces a test on the score keeps."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        return next_merge(symbols, {piece: score for piece, score in scores.items() if keep(score)})

    return wrong


def _by_length_among_ties(shorter: bool) -> Any:
    """Highest score, then the shorter (or longer) piece, then the leftmost."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        found = [
            (-scores[a + b], len(a + b) if shorter else -len(a + b), i)
            for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
            if a + b in scores
        ]
        return min(found)[2] if found else None

    return wrong


def _by_text_among_ties(later: bool) -> Any:
    """Highest score, then the piece that sorts later (or earlier) as text, then its leftmost place: ``max`` over
    tuples ``(score, piece)`` (or ``min`` over ``(-score, piece)``) breaks a tie by the piece, the same in every run."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        joined = [a + b for a, b in zip(symbols, symbols[1:])]
        found = [(scores[piece], piece) for piece in joined if piece in scores]
        if not found:
            return None
        top = max(score for score, _ in found)
        tied = [piece for score, piece in found if score == top]
        return joined.index(max(tied) if later else min(tied))

    return wrong


def _compared_as_float32(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The reference, but each score rounded to float32 (``np.float32``, the precision a .model file stores) before
    it is compared: scores one float64 step apart tie, and the leftmost wins."""
    with np.errstate(over="ignore"):
        found = [
            (-np.float32(scores[a + b]), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores
        ]
    return int(min(found)[1]) if found else None


def _more_frequent_among_ties(symbols: list[str], scores: dict[str, float]) -> int | None:
    """Highest score, then the piece that occurs more often in the symbols, then the leftmost."""
    joined = [a + b for a, b in zip(symbols, symbols[1:])]
    found = [(-scores[piece], -joined.count(piece), i) for i, piece in enumerate(joined) if piece in scores]
    return min(found)[2] if found else None


def _by_symbol_length_among_ties(right: bool, longer: bool) -> Any:
    """Highest score, then the longer (or shorter) left (or right) symbol, then the leftmost."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        found = [
            (-scores[a + b], (-1 if longer else 1) * len(b if right else a), i)
            for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
            if a + b in scores
        ]
        return min(found)[2] if found else None

    return wrong


def _by_magnitude(largest: bool) -> Any:
    """The score nearest 0 (``min(..., key=abs)``), or farthest from it: the highest, or the lowest, only while
    every score is negative."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        found = [
            ((-1 if largest else 1) * abs(scores[a + b]), i)
            for i, (a, b) in enumerate(zip(symbols, symbols[1:]))
            if a + b in scores
        ]
        return min(found)[1] if found else None

    return wrong


def _last_place_of_each_piece(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``where[piece] = i`` for every pair, then the best piece's entry: the LAST place that piece stands."""
    where: dict[str, int] = {}
    for i, (a, b) in enumerate(zip(symbols, symbols[1:])):
        if a + b in scores:
            where[a + b] = i
    return where[max(where, key=lambda piece: scores[piece])] if where else None


def _vocabulary_order(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The pieces of ``scores`` best first (ties in the dict's order), the first one the text holds, found again
    with ``index``: of equal scores, the piece listed first in scores wins, wherever it stands."""
    joined = [a + b for a, b in zip(symbols, symbols[1:])]
    return next((joined.index(p) for p in sorted(scores, key=lambda p: -scores[p]) if p in joined), None)


def _last_pair_skipped(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``range(len(symbols) - 2)``: the last pair, ``symbols[-2] + symbols[-1]``, is never looked at."""
    return next_merge(symbols[:-1], scores) if symbols else None


def _first_pair_skipped(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``range(1, len(symbols) - 1)``: the first pair, ``symbols[0] + symbols[1]``, is never looked at."""
    i = next_merge(symbols[1:], scores)
    return None if i is None else i + 1


def _place_among_found(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The best piece's place in the list of pieces found (``found.index(max(found, ...))``), not in symbols."""
    found = [a + b for a, b in zip(symbols, symbols[1:]) if a + b in scores]
    return found.index(max(found, key=lambda piece: scores[piece])) if found else None


def _right_symbol_index(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The right pair, given by the index of its RIGHT symbol (``for i in range(1, len(symbols))``)."""
    i = next_merge(symbols, scores)
    return None if i is None else i + 1


def _same_answer_everywhere(attempt: Attempt) -> str | None:
    """One position for every input: an answer written for the lesson's example, not computed from the symbols."""
    got = attempt.got
    if not isinstance(got, int) or isinstance(got, bool) or attempt.error is not None:
        return None
    answers = [answer for _, answer in attempt.history()]
    if len(answers) < 5 or any(type(answer) is not type(got) or answer != got for answer in answers):
        return None
    return (
        f"your function returns {got} whatever the symbols and scores: compute the position from them, looking at "
        "every pair symbols[i] + symbols[i + 1]"
    )


def _two_symbols_no_pair(attempt: Attempt) -> str | None:
    """None for every two symbols whose pair forms a piece, whatever its score, and right on every longer list:
    ``len(symbols) <= 2`` (or ``< 3``) was taken for "no pair"."""
    symbols, _ = attempt.args
    if attempt.got is not None or attempt.expected != 0 or len(symbols) != 2 or attempt.error is not None:
        return None
    history = attempt.history()
    from_minus_inf = _best_starting_at(-math.inf)  # the start of a common answer that also says len(symbols) <= 2
    longer = [(args, got) for args, got in history if len(args[0]) > 2]
    if not all(same(got, next_merge(*args)) or same(got, from_minus_inf(*args)) for args, got in longer):
        return None
    also = (
        "; and your best score starts at float('-inf'): a piece scoring -inf never beats it, yet it still merges, "
        "so start from the first piece you find (best is None)"
        if any(not same(got, next_merge(*args)) for args, got in longer)
        else ""
    )
    pairs = [got for args, got in history if len(args[0]) == 2 and next_merge(*args) is not None]
    if len(pairs) < 2 or any(got is not None for got in pairs):  # None for every pair, whatever its score
        return None
    return (
        f"you returned None for two symbols, but {symbols[0]!r} + {symbols[1]!r} forms {symbols[0] + symbols[1]!r}, "
        f"a piece: two symbols make one pair, at 0; only fewer than two (len(symbols) < 2) make none{also}"
    )


def _tied_to_the_right(symbols: list[str], scores: dict[str, float]) -> bool:
    """The winning pair has a pair of the same score to its right: a case that tests the tie rule."""
    i = next_merge(symbols, scores)
    if i is None:
        return False
    top = scores[symbols[i] + symbols[i + 1]]
    return any(scores.get(a + b) == top for a, b in zip(symbols[i + 1 :], symbols[i + 2 :]))


def _prefix_pair_skipped(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``if i == 0 and symbols[0] == '▁': continue``: the dummy prefix's pair is never looked at."""
    if symbols[:1] != [SPACE]:
        return next_merge(symbols, scores)
    i = next_merge(symbols[1:], scores)
    return None if i is None else i + 1


def _space_never_before_longer(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``if symbols[i] == '▁' and len(symbols[i + 1]) > 1: continue``: a lone '▁' joins single characters only."""
    best: int | None = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and not (symbols[i] == SPACE and len(symbols[i + 1]) > 1):
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
    return best


SKIPPED_PAIRS = (
    (
        _prefix_pair_skipped,
        "your function skips the first pair when it starts with a lone '▁' (the dummy prefix, or a text's own "
        "space): that '▁' joins what follows it like any other symbol",
    ),
    (
        _space_never_before_longer,
        "your function never joins a lone '▁' to a symbol of more than one character: '▁' + '▁▁' forms '▁▁▁' like "
        "any other pair",
    ),
)
"""Pairs a learner who breaks ties leftmost may still skip, each with what its hint says."""


def _skipped_pair(attempt: Attempt) -> str | None:
    """Which pair the learner skipped, by the answers it gave: the dummy prefix's '▁', or '▁' before a longer
    symbol; None when no such skip gives all its answers."""
    symbols, expected = attempt.args[0], attempt.expected
    left, right = _winner(symbols, expected)
    shown = (
        f"you passed over {left!r} + {right!r} at {expected}, which forms {left + right!r}, the leftmost piece of "
        "the best score"
    )
    what = next((what for variant, what in SKIPPED_PAIRS if same_as(variant, what)(attempt)), None)
    if what is None:
        return None
    return (
        f"{shown}; you kept the leftmost of equal scores on the checks that test ties, so the tie rule is not at "
        f"fault: {what}; look up every pair symbols[i] + symbols[i + 1], i from 0 to len(symbols) - 2"
    )


def _tie_not_leftmost(attempt: Attempt) -> str | None:
    """A pair of the winning score, right of the winner: a tie broken by something else than the position. From
    code that builds a set, the set's order (the hash seed's) is named. A learner who broke the ties of other cases
    leftmost skipped this case's pair: that pair is named instead."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, int) or isinstance(got, bool) or not isinstance(expected, int) or got <= expected:
        return None
    symbols, scores = attempt.args
    if got >= len(symbols) - 1:
        return None
    mine, best = "".join(_winner(symbols, got)), "".join(_winner(symbols, expected))
    if mine not in scores or scores[mine] != scores[best]:
        return None
    skipped = None if LEARNER_CODE.get().uses_set else _skipped_pair(attempt)  # a set's order passes ties by luck
    if skipped and any(
        _tied_to_the_right(*args) and same(got_there, next_merge(*args)) for args, got_there in attempt.history()
    ):
        return skipped
    shown = (
        f"{mine!r} at {got} scores {_g(scores[mine])}, the same as {best!r} at {expected}, further left: of equal "
        "scores the leftmost pair merges"
    )
    if LEARNER_CODE.get().uses_set:
        return (
            f"{shown}; you put the pairs (or pieces) in a set, and a set has no order you can rely on: it changes "
            "with PYTHONHASHSEED from one run of Python to the next, so which of equal scores came first was luck "
            "(this answer may pass in another run and fail in the next); go through the positions i in order, "
            "0 to len(symbols) - 2, and keep the first of the highest score"
        )
    return f"{shown}; go through the positions i in order and replace the best only on a strictly higher score"


NONE_START = (
    "start from the first piece you find (best is None): a piece may even score float('-inf'), and it still merges"
)
"""sentencepiece 0.2.3 and ``SentencePieceBPE`` merge a piece scored -inf (a hand-edited model): a best score that
starts at float('-inf') never takes it, since -inf > -inf is false."""

SPACE_IS_A_CHARACTER = (
    "in SentencePiece '▁' is a character like any other: a piece may hold it inside or at its end ('▁of▁the' in a "
    "model trained with split_by_whitespace=False, 'of▁' with treat_whitespace_as_suffix=True), and a pair whose "
    "right symbol starts with '▁' merges as 'th' does (no split pattern, no word to stay inside): join any pair "
    "whose piece is in scores"
)


def _skipping(skip: Any) -> Any:
    """The reference, but a pair for which ``skip(left, right)`` is true never merges."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        best: int | None = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and not skip(symbols[i], symbols[i + 1]):
                if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                    best = i
        return best

    return wrong


def _crosses_a_word(left: str, right: str) -> bool:
    """Lesson 07's guard: a '▁' after the piece's first character, unless the piece is all '▁' (Mistral's '▁▁')."""
    piece = left + right
    return SPACE in piece[1:] and bool(piece.strip(SPACE))


def _starts_a_word_on_the_right(left: str, right: str) -> bool:
    return right.startswith(SPACE) and bool(left.strip(SPACE))


def _ends_a_word(left: str, right: str) -> bool:
    """A piece that ends in '▁' after other characters ('of▁'): the guard of a text split before each space."""
    piece = left + right
    return piece.endswith(SPACE) and bool(piece.strip(SPACE))


def _space_after_the_start(left: str, right: str) -> bool:
    """Any '▁' after the piece's first character, Mistral's '▁▁' pieces too."""
    return SPACE in (left + right)[1:]


def _starts_a_word_unless_after_a_lone_space(left: str, right: str) -> bool:
    """A right symbol that starts with '▁' never joins, except to a lone '▁' on its left ('▁' + '▁▁' joins,
    '▁▁' + '▁' does not)."""
    return right.startswith(SPACE) and left != SPACE


def _only_two_lone_spaces(left: str, right: str) -> bool:
    """Among pairs made of '▁' only, only '▁' + '▁' joins: '▁▁' + '▁' and '▁' + '▁▁' never do."""
    return not (left + right).strip(SPACE) and (left, right) != (SPACE, SPACE)


SPACE_GUARDS = (
    _crosses_a_word,
    _starts_a_word_on_the_right,
    _ends_a_word,
    _space_after_the_start,
    _starts_a_word_unless_after_a_lone_space,
    _only_two_lone_spaces,
)
"""The ways a learner keeps a merge inside a word, as lesson 07's split pattern does; SentencePiece has none."""


def _space_guard(attempt: Attempt) -> str | None:
    """The learner's answers are those of a search that keeps merges inside words (``SPACE_GUARDS``)."""
    if attempt.expected is None or not any(same_as(_skipping(skip), "guarded")(attempt) for skip in SPACE_GUARDS):
        return None
    left, right = _winner(attempt.args[0], attempt.expected)
    if attempt.got is None:
        return (
            f"you returned None, but {left!r} + {right!r} forms {left + right!r}, a piece: your function skips this "
            f"pair whatever its score; {SPACE_IS_A_CHARACTER}"
        )
    return f"you passed over {left!r} + {right!r}, which forms {left + right!r}, the best piece here: {SPACE_IS_A_CHARACTER}"


def _letter_meets_digit(left: str, right: str) -> bool:
    return (left[-1].isalpha() and right[0].isdigit()) or (left[-1].isdigit() and right[0].isalpha())


def _letter_and_digit(left: str, right: str) -> bool:
    piece = left + right
    return any(c.isalpha() for c in piece) and any(c.isdigit() for c in piece)


def _letter_next_to_digit(left: str, right: str) -> bool:
    """``regex.search(r"\\p{L}\\p{N}|\\p{N}\\p{L}", piece)``: a letter and a digit side by side anywhere."""
    piece = left + right
    return any(_letter_meets_digit(a, b) for a, b in zip(piece, piece[1:]))


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def _letter_meets_punctuation(left: str, right: str) -> bool:
    return left[-1].isalnum() and _is_punctuation(right[0])


def _letter_and_punctuation(left: str, right: str) -> bool:
    piece = left + right
    return any(c.isalnum() for c in piece) and any(_is_punctuation(c) for c in piece)


def _lower_meets_upper(left: str, right: str) -> bool:
    return left[-1].islower() and right[0].isupper()


def _lower_next_to_upper(left: str, right: str) -> bool:
    piece = left + right
    return any(a.islower() and b.isupper() for a, b in zip(piece, piece[1:]))


def _holds(characters: str) -> Any:
    return lambda left, right: any(c in characters for c in left + right)


def _outside_the_bmp(left: str, right: str) -> bool:
    return any(ord(c) > 0xFFFF for c in left + right)


def _not_printable(left: str, right: str) -> bool:
    return not (left + right).isprintable()


def _holds_whitespace(left: str, right: str) -> bool:
    return any(c.isspace() for c in left + right)


def _holds_a_format_character(left: str, right: str) -> bool:
    return any(unicodedata.category(c) == "Cf" for c in left + right)


JOINS_ANY_PAIR = (
    "the encoder has no such rule: it merges any pair whose piece is in scores; look up symbols[i] + symbols[i + 1] "
    "with `in scores`, whatever characters it holds"
)

KIND_GUARDS: tuple[tuple[tuple[Any, ...], str], ...] = (
    (
        (_letter_meets_digit, _letter_and_digit, _letter_next_to_digit),
        "a letter and a digit, and you never join them (a letter–digit guard): lesson 07's split pattern keeps "
        "letters and numbers apart, and the trainer refuses 'a1' at its default settings, but with "
        "split_by_number=False it learns '▁mp3' and '▁covid19'",
    ),
    (
        (_letter_meets_punctuation, _letter_and_punctuation),
        "a letter and punctuation, and you never join them (a letter–punctuation guard): with "
        "split_by_unicode_script=False the trainer learns '▁Hello,' and '▁e.g.'",
    ),
    (
        (_lower_meets_upper, _lower_next_to_upper),
        "a lower-case letter before an upper-case one, and you never join them (a case-boundary guard): a model "
        "learns pieces such as '▁camelCase', '▁iPhone' and '▁McDonald' like any other",
    ),
    (
        (_holds("\t\r"), _holds("\t"), _holds("\r")),
        "a tab (\\t) or a carriage return (\\r), and you never join a piece holding one: they are characters like "
        "any other, and a model trained on tabbed text learns pieces with them",
    ),
    (
        (_outside_the_bmp,),
        "a character outside the BMP (above U+FFFF: an emoji, '𝔘'), and you never join a piece holding one: a "
        "model learns pieces such as '▁😀😀' and '▁𝔘𝔫𝔦' like any other",
    ),
    (
        (_holds_a_format_character, _holds("\u200b\u200c\u200d\ufeff"), _holds("\u200b")),
        "a format character (category Cf: U+200B ZERO WIDTH SPACE, U+200D ZERO WIDTH JOINER, U+FEFF), and you never "
        "join a piece holding one (a format-character guard): it is a character like any other, and Mistral 7B "
        "v0.1 holds pieces with one ('▁' + U+200B, id 15758)",
    ),
    (
        (_holds("\n"), _not_printable, _holds_whitespace),
        "a newline (or a character that str.isprintable() or str.isspace() refuses), and you never join a piece "
        "holding one (a newline, isprintable or isspace guard): '\\n' is a character like any other in scores; the "
        "course's trainer learns no piece with a newline, as it splits its text into lines, but a vocabulary may hold "
        "one ('\\nb' here)",
    ),
)
"""Kinds of pairs a learner may think never join, each with the ways to write the guard: SentencePiece has none."""


def _kind_guard(attempt: Attempt) -> str | None:
    """The learner's answers are those of a search that skips one kind of pair (``KIND_GUARDS``)."""
    if attempt.error is not None or attempt.expected is None:
        return None
    left, right = _winner(attempt.args[0], attempt.expected)
    for guards, what in KIND_GUARDS:
        if any(same_as(_skipping(skip), "guarded")(attempt) for skip in guards):
            shown = f"{left!r} + {right!r}, which forms {left + right!r}, the best piece here"
            return f"you passed over {shown}: it holds {what}; {JOINS_ANY_PAIR}"
    return None


def _longer_than(limit: int) -> Any:
    return lambda left, right: len(left + right) > limit


def _scripts_by_table(piece: str) -> set[str]:
    """The scripts of a piece's characters, by SentencePiece's own table (Common and Inherited left out)."""
    return {script_of(c) for c in piece if c != SPACE} - {"Common", "Inherited"}


def _scripts_by_name(piece: str) -> set[str]:
    """The scripts of a piece's letters as a learner reads them: the first word of each one's Unicode name."""
    return {unicodedata.name(c, "?").split()[0] for c in piece if c.isalpha()}


TRAINER_RULES = (
    "{why}: at most 16 characters and one script per piece are the trainer's rules (section 5: "
    "max_sentencepiece_length, split_by_unicode_script), deciding which pieces to LEARN; a model trained with other "
    "settings holds such pieces, and the encoder merges any pair whose piece is in scores"
)


def _trainer_rule(attempt: Attempt) -> str | None:
    """The learner's answers are those of an encoder that refuses pieces the trainer would not learn."""
    if attempt.error is not None or attempt.expected is None:
        return None
    symbols, _ = attempt.args
    winner = "".join(_winner(symbols, attempt.expected))
    caps = [limit for limit in range(len(winner) - 1, 7, -1) if same_as(_skipping(_longer_than(limit)), "cap")(attempt)]
    if caps:
        cap = (
            f"{caps[0]} characters"
            if len(caps) == 1
            else f"{min(caps)} to {max(caps)} characters (these cases fit any)"
        )
        why = f"{winner!r} is {len(winner)} characters, and you refuse pieces longer than a cap of {cap}"
        return TRAINER_RULES.format(why=why)
    left, right = _winner(symbols, attempt.expected)
    for where, long_symbol in LONG_SYMBOL_RULES:
        caps = [
            limit
            for limit in range(max(len(left), len(right)), 7, -1)
            if same_as(_skipping(lambda a, b, limit=limit, test=long_symbol: test(a, b, limit)), "cap")(attempt)
        ]
        if caps:
            cap = (
                f"of {caps[0]} characters or more"
                if len(caps) == 1
                else f"as long as a cap (any cap of {min(caps)} to {max(caps)} characters fits this case)"
            )
            why = f"{left!r} + {right!r}: its left symbol is {len(left)} characters, and you never merge {where} {cap}"
            return TRAINER_RULES.format(why=why)
    rules: list[tuple[Any, str]] = [
        (lambda a, b, scripts=scripts: len(scripts(a + b)) > 1, f"{winner!r} mixes scripts, and you refuse that")
        for scripts in (_scripts_by_table, _scripts_by_name)
    ]
    for skip, why in rules:
        hint = same_as(_skipping(skip), TRAINER_RULES.format(why=why))(attempt)
        if hint:
            return hint
    for skip, what in DIGIT_RULES:
        if same_as(_skipping(skip), "digits")(attempt):
            return DIGITS_SPLIT.format(winner=repr(winner), what=what)
    return None


LONG_SYMBOL_RULES = (
    ("onto a left symbol", lambda left, right, limit: len(left) >= limit),
    ("a symbol", lambda left, right, limit: max(len(left), len(right)) >= limit),
)
"""Caps on a symbol's length (not the piece's): a pair whose left symbol (or either symbol) is that long is skipped."""


def _two_digits(left: str, right: str) -> bool:
    piece = left + right
    return any(a.isdigit() and b.isdigit() for a, b in zip(piece, piece[1:]))


DIGIT_RULES = (
    (_two_digits, "pieces with two digits side by side"),
    (lambda left, right: any(c.isdigit() for c in left + right), "every piece that holds a digit"),
)
DIGITS_SPLIT = (
    "{winner} holds digits, and you refuse {what}: splitting numbers into single digits is a TRAINER setting "
    "(split_digits=True, section 1: Mistral's model was trained with it, so its vocabulary holds no piece of two "
    "digits), deciding which pieces to LEARN; train_sentencepiece_bpe at its default settings (split_digits=False) "
    "learns '12' and '▁2024', and the encoder merges any pair whose piece is in scores"
)


def _special_looking(test: Any) -> Any:
    return lambda left, right: test(left + right)


SPECIAL_LOOKING = (
    _special_looking(lambda piece: piece.startswith(("<", "["))),
    _special_looking(lambda piece: piece.lstrip(SPACE).startswith(("<", "["))),
    _special_looking(lambda piece: "<" in piece or "[" in piece),
    _special_looking(lambda piece: piece.startswith("<")),
    _special_looking(lambda piece: piece.startswith("[")),
    _special_looking(lambda piece: piece[:1] + piece[-1:] in ("<>", "[]")),
    _special_looking(lambda piece: piece.lstrip(SPACE)[:1] + piece[-1:] in ("<>", "[]")),
)
"""Ways to keep pieces that look like special tokens (<s>, [INST]) from merging: by their first character, or by
being enclosed in <...> or [...]."""


def _special_filter(attempt: Attempt) -> str | None:
    """The learner's answers are those of a search that skips pieces starting with '<' or '[', or enclosed in <...> or
    [...]."""
    if attempt.error is not None or attempt.expected is None:
        return None
    if not any(same_as(_skipping(skip), "special")(attempt) for skip in SPECIAL_LOOKING):
        return None
    winner = "".join(_winner(attempt.args[0], attempt.expected))
    return (
        f"you passed over {winner!r}, the best piece here, as if it were a special token because of its '<' or '[' "
        "(a piece starting with one, or enclosed in <...> or [...]): Mistral's vocabulary holds ordinary pieces like "
        "'▁<', '</', '[', '[]', '<>' and '<?>' ('x=[]' is '▁x', '=', '[]'), which merge like any other; the "
        "encoder itself never merges a control piece such as <s>, whatever its text, and Mistral 7B v0.1 has no "
        "[INST] piece at all; look up every pair as it is, with `in scores`"
    )


def _zero_dropped_at_end(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``if best: return best`` / ``return best or None``: the pair at position 0 is thrown away at the end."""
    return next_merge(symbols, scores) or None


def _zero_replaced_in_loop(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``if piece in scores and (not best or ...)``: a pair found at 0 is replaced by the next piece, whatever its score."""
    best: int | None = None
    best_score = 0.0
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (not best or scores[piece] > best_score):
            best, best_score = i, scores[piece]
    return best


def _zero_dropped(attempt: Attempt) -> str | None:
    """None for position 0 from a ``return`` (a path that runs off the end is the engine's to name)."""
    if LEARNER_CODE.get().may_end_without_return:
        return None
    return same_as(_zero_dropped_at_end, ZERO_IS_FALSE)(attempt)


ZERO_IS_FALSE = (
    "position 0 is false in Python: `if best:`, `best or None` and `not best` treat the pair at position 0 as no "
    "pair at all; test `best is None` (or `if best is not None`)"
)


def _not_a_piece(attempt: Attempt) -> str | None:
    """A position whose pair forms no piece: a missing piece was given a score (``scores.get(piece, 0)``)."""
    got = attempt.got
    if attempt.error is not None or not isinstance(got, int) or isinstance(got, bool):
        return None
    symbols, scores = attempt.args
    if not 0 <= got < len(symbols) - 1 or "".join(_winner(symbols, got)) in scores:
        return None
    left, right = _winner(symbols, got)
    shown = f"{left!r} + {right!r} at {got} forms no piece: {left + right!r} is not in scores, so it never merges"
    if attempt.expected is None:
        return (
            f"{shown}, and no other pair here forms one: return None when no pair's piece is in scores (a default "
            "score such as scores.get(piece, float('-inf')) still makes some pair the best)"
        )
    if got == _missing_scored(0.0)(symbols, scores) and "get" in LEARNER_CODE.get().calls:
        return (
            f"{shown}; you gave a missing piece a score (scores.get(piece, 0) scores it 0, above every negative "
            "score): test `piece in scores` first, and compare only those pieces"
        )
    return f"{shown}; compare only pairs whose piece is in scores"


def _returned_at_zero(or_more: bool) -> Any:
    """Returns the first pair scoring 0 (or 0 or more) at once, as if no score could beat it; else the best."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        for i, (a, b) in enumerate(zip(symbols, symbols[1:])):
            score = scores.get(a + b)
            if score is not None and (score >= 0 if or_more else score == 0):
                return i
        return next_merge(symbols, scores)

    return wrong


def _missing_scored(default: float) -> Any:
    """``scores.get(piece, default)`` for every pair, pieces or not."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        found = [(-scores.get(a + b, default), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:]))]
        return min(found)[1] if found else None

    return wrong


def _max_by_default(guard: Literal["pair", "any"]) -> Any:
    """``max(..., key=lambda i: scores.get(pair_i, float('-inf')))`` (or ``np.argmax``): the first pair of the
    highest key, then None if that pair is no piece (``"pair"``), or after a guard that some pair is one (``"any"``).
    A piece scoring -inf ties with every pair that is no piece, and a non-piece to its left wins the max."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        pairs = [a + b for a, b in zip(symbols, symbols[1:])]
        if not any(pair in scores for pair in pairs):
            return None
        i = max(range(len(pairs)), key=lambda i: scores.get(pairs[i], -math.inf))
        return None if guard == "pair" and pairs[i] not in scores else i

    return wrong


MINUS_INFINITY_DEFAULT = (
    "you gave a pair that is no piece the score float('-inf') (scores.get(piece, float('-inf')) in a max or "
    "np.argmax): a piece may score -inf too (a hand-edited model), and then it ties with every pair that is no "
    "piece, and max keeps the first of them: here 'xa', no piece, stands before 'ab', which sentencepiece 0.2.3 "
    "merges; compare only pairs with `piece in scores` (start from best is None)"
)


def _g(score: float) -> str:
    """A score as a learner writes it: -1e9, -2e10, -0.5."""
    return f"{score:g}".replace("e+0", "e").replace("e+", "e")


def _winner(symbols: list[str], i: int) -> tuple[str, str]:
    return symbols[i], symbols[i + 1]


def _no_pair_found(attempt: Attempt) -> str | None:
    """None came back, explicitly, where a pair forms a piece: which pair, and why, from the other cases.

    The same two symbols in another case tell the reasons apart: found there with a higher score, the score is
    the reason (a best score that starts at a number, or a test that leaves low scores out, which the code tells
    apart); missed there too, the pair itself is skipped whatever its score. A None that may come from running off
    the end of the function is left to the engine's own message."""
    if attempt.got is not None or attempt.expected is None or attempt.error is not None:
        return None
    code = LEARNER_CODE.get()
    if code.may_end_without_return is not False:
        return None
    symbols, scores = attempt.args
    left, right = _winner(symbols, attempt.expected)
    score = scores[left + right]
    found_higher, missed = [], []
    for args, got in attempt.history():
        expected = next_merge(*args)
        if expected is None or _winner(args[0], expected) != (left, right):
            continue
        other = args[1][left + right]
        if got == expected and other > score:
            found_higher.append(other)
        elif got is None and other != score:
            missed.append(other)
    shown = f"{left!r} + {right!r} forms {left + right!r}, a piece (score {_g(score)})"
    if found_higher:
        return _too_low(shown, score, min(found_higher), code)
    if missed:
        why = (
            SPACE_IS_A_CHARACTER
            if SPACE in left + right
            else "join symbols[i] + symbols[i + 1] and look the joined string up in scores, whatever the two are"
        )
        return (
            f"you returned None, but {shown}; it scores {_g(missed[0])} in another case and you found no pair there "
            f"either: your function skips this pair whatever its score; {why}"
        )
    return None


def _found_no_pair(attempt: Attempt) -> str | None:
    """None came back from a ``return`` (not from running off the end) where a pair forms a piece."""
    if attempt.got is not None or attempt.expected is None or attempt.error is not None:
        return None
    if LEARNER_CODE.get().may_end_without_return is not False:
        return None
    left, right = _winner(attempt.args[0], attempt.expected)
    return (
        f"you returned None, but {left!r} + {right!r} forms {left + right!r}, a piece: your function found no pair "
        "where the answer has one; join the two neighbouring symbols and look the joined string up in scores (its "
        "two halves need not be pieces)"
    )


def _starting_at(start: float, hint: str) -> Diagnoser:
    """A best score that starts at ``start``, or (the same answers) a test that leaves out scores up to it: the
    code tells which."""
    starts = same_as(_best_starting_at(start), hint)

    def diagnose(attempt: Attempt) -> str | None:
        if starts(attempt) is None:
            return None
        code = LEARNER_CODE.get()
        if start == -math.inf and code.calls & FINITE_TESTS and start not in code.assigned:
            return NOT_FINITE
        if start in code.compared and start not in code.assigned:
            return (
                f"you leave out pieces that score {_g(start)} or less (a test against {_g(start)}): a piece of any score "
                "is a piece; test only `piece in scores`, then compare with the best so far"
            )
        return hint

    return diagnose


FINITE_TESTS = frozenset({"isfinite", "isinf"})
NOT_FINITE = (
    "you leave out pieces whose score is not finite (a test math.isfinite(score), or math.isinf): a piece may score "
    "-inf (a hand-edited model), and it still merges when no pair scores higher (sentencepiece 0.2.3 does); test "
    "only `piece in scores`, then compare with the best so far"
)


def _too_low(shown: str, score: float, higher: float, code: Code) -> str:
    """The pair was found where it scored ``higher``, missed where it scores ``score``: named from the code."""
    if score == -math.inf and code.calls & FINITE_TESTS and -math.inf not in code.assigned:
        return f"you returned None, but {shown}: {NOT_FINITE}"
    start = [n for n in code.assigned if score <= n < higher]
    limit = [n for n in code.compared if score <= n < higher]
    default = [n for n in code.defaults if n is None or score <= n < higher]
    if default and not start:
        given = "a score" if default[0] is None else f"the score {_g(default[0])}"
        return (
            f"you returned None, but {shown}: a pair that is no piece gets {given} from your "
            "scores.get(piece, ...), and a piece may score lower than any number you pick, so the best pair you "
            "found was no piece; compare only pairs with `piece in scores`"
        )
    if limit and not start:
        return (
            f"you returned None, but {shown}: you leave out pieces that score {_g(limit[0])} or less, and a piece may "
            "score lower than any number you pick; test only `piece in scores`, then compare with the best so far"
        )
    said = f"starts at {_g(start[0])}" if start else "starts at a number"
    return (
        f"you returned None, but {shown}: your best score {said}, and a piece may score lower than any number you "
        f"pick; {NONE_START}"
    )


def _within_a_tolerance(attempt: Attempt) -> str | None:
    """A pair whose piece scores a hair below the winner's: the scores were compared within a tolerance."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, int) or isinstance(got, bool) or not isinstance(expected, int) or got == expected:
        return None
    symbols, scores = attempt.args
    if not 0 <= got < len(symbols) - 1 or "".join(_winner(symbols, got)) not in scores:
        return None
    mine, best = scores["".join(_winner(symbols, got))], scores["".join(_winner(symbols, expected))]
    if not mine < best or best - mine > 1e-3 * max(1.0, abs(best)):
        return None
    step = " by a single float step" if math.nextafter(mine, math.inf) == best else f" by {best - mine:.3g}"
    return (
        f"{''.join(_winner(symbols, expected))!r} scores {best!r}, above {''.join(_winner(symbols, got))!r} at "
        f"{mine!r}{step}: you compared within a tolerance (or rounded); the higher score wins however small the "
        "difference: compare the scores as they are, with >"
    )


_FLOAT32 = same_as(
    _compared_as_float32,
    "you compared the scores as float32 (np.float32, the precision a .model file stores): -1.0 and the float just "
    "above it, math.nextafter(-1.0, 0), are one float32, so they tie; the scores given are Python floats (float64): "
    "compare them as they are, with >",
)


def _as_float32(attempt: Attempt) -> str | None:
    """Answers of float32 scores, from code that names float32: a tolerance near 1e-7 gives the same answers, so
    the code tells the two apart."""
    return _FLOAT32(attempt) if LEARNER_CODE.get().uses_float32 else None


def _compared_rounded(whole: Any) -> Any:
    """Scores compared after ``whole`` (``int`` or ``round``): pieces of one whole number tie, the leftmost wins.
    ``int(-0.9995)`` is 0 and ``round(-0.9995)`` is -1, so the two fail different cases: both are recognised."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        found = [(-whole(scores[a + b]), i) for i, (a, b) in enumerate(zip(symbols, symbols[1:])) if a + b in scores]
        return min(found)[1] if found else None

    return wrong


def _character_offset(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The reference's pair, given by its place in the text (characters) instead of in the list of symbols."""
    i = next_merge(symbols, scores)
    return None if i is None else len("".join(symbols[:i]))


def _piece_text_found(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The right piece, located with ``"".join(symbols).find(piece)`` and that character offset turned back into
    the symbol that holds it: the piece's text may stand earlier, inside one symbol or across another pair."""
    i = next_merge(symbols, scores)
    if i is None:
        return None
    offset = "".join(symbols).find(symbols[i] + symbols[i + 1])
    start = 0
    for k, symbol in enumerate(symbols):
        if start + len(symbol) > offset:
            return k
        start += len(symbol)
    return None


def _piece_at_boundary(symbols: list[str], scores: dict[str, float]) -> int | None:
    """Any piece the text goes on with at a symbol boundary, longer than that symbol: not a pair of symbols."""
    best: int | None = None
    best_score = 0.0
    for i in range(len(symbols) - 1):
        rest = "".join(symbols[i:])
        for piece, score in scores.items():
            if len(piece) > len(symbols[i]) and rest.startswith(piece) and (best is None or score > best_score):
                best, best_score = i, score
    return best


def _best_starting_at(start: float) -> Any:
    """A best score that starts at ``start`` instead of at the first piece found."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        best, best_score = None, start
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and scores[piece] > best_score:
                best, best_score = i, scores[piece]
        return best

    return wrong


def _single_characters(symbols: list[str], scores: dict[str, float]) -> int | None:
    """Only pairs of two one-character symbols: a symbol already merged never joins again."""
    short = [s if len(s) == 1 else "\x00" + s for s in symbols]  # a longer symbol forms no piece
    return next_merge(short, scores)


def _index_of_left_symbol(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The right pair, but its place found again with ``symbols.index(left)``: the first place that symbol stands."""
    i = next_merge(symbols, scores)
    return None if i is None else symbols.index(symbols[i])


def _tie_broken_by(place: Any) -> Any:
    """Of the best-scoring pairs, the one for which ``place(symbols, i)`` is smallest: a tie broken by where
    something stands first, instead of by the pair's own position i."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        best: int | None = None
        best_key: tuple[float, int] | None = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores:
                key = (-scores[piece], place(symbols, i))
                if best_key is None or key < best_key:
                    best, best_key = i, key
        return best

    return wrong


_tie_by_text_position = _tie_broken_by(lambda symbols, i: "".join(symbols).index(symbols[i] + symbols[i + 1]))
_tie_by_left_symbol = _tie_broken_by(lambda symbols, i: symbols.index(symbols[i]))


def _is_pair_or_piece(attempt: Any) -> bool:
    return isinstance(attempt.got, tuple | str) and attempt.expected is not None


def _no_floats(got: object, expected: object) -> object:
    """The engine counts ``2.0`` as ``2``; a position in a list is an int, so a float never passes."""
    return FloatAnswer(got) if isinstance(got, float) else got


def _float_position(attempt: Attempt) -> str | None:
    """A float came back: the winning piece's score, or a position made a float (``float(i)``, a ``/``)."""
    if not isinstance(attempt.got, FloatAnswer):
        return None
    value = attempt.got.value
    symbols, scores = attempt.args
    if attempt.expected is not None:
        winner = symbols[attempt.expected] + symbols[attempt.expected + 1]
        if value == scores[winner] and value != attempt.expected:
            return (
                f"you returned {value!r}, a float: the SCORE of the winning piece {winner!r}; return its position "
                "i, the index of its left symbol (an int)"
            )
    return (
        f"you returned {value!r}, a float: a position in a list is an int; return i itself (not float(i), nor the "
        "result of a `/`)"
    )


def _stopped_early(attempt: Attempt) -> str | None:
    """The learner's answers are each the best pair of some first part of the symbols (a ``break`` at a score
    lower than the best so far, the first local maximum, the first few pieces or symbols): here one short of the
    winner, further right."""
    got, expected = attempt.got, attempt.expected
    if attempt.error is not None or not isinstance(got, int) or isinstance(got, bool) or not isinstance(expected, int):
        return None
    symbols, scores = attempt.args
    if not 0 <= got < expected or "".join(_winner(symbols, got)) not in scores:
        return None

    def a_first_part(args: tuple, answer: Any) -> bool:
        return any(same(answer, next_merge(args[0][:k], args[1])) for k in range(len(args[0]) + 1))

    history = attempt.history()
    if not all(a_first_part(args, answer) for args, answer in history):
        return None
    mine, best = "".join(_winner(symbols, got)), "".join(_winner(symbols, expected))
    return (
        f"you stopped before the end{_limit(history)}: {best!r} at {expected} scores {_g(scores[best])}, above "
        f"{mine!r} at {got} ({_g(scores[mine])}), which you returned; scores rise and fall along the symbols, and the "
        "best pair may stand anywhere: look at every pair, up to symbols[-2] + symbols[-1], before you return (no "
        "break at a lower score, no limit on how many pieces or symbols)"
    )


def _limits_that_fit(history: list[tuple[tuple, Any]], answer_with: Any) -> list[int]:
    """Each limit n, 1 up to the longest list of symbols, under which ``answer_with(n)`` gives every answer."""
    longest = max((len(args[0]) for args, _ in history), default=0)
    return [n for n in range(1, longest) if all(same(got, answer_with(n)(*args)) for args, got in history)]


def _limit(history: list[tuple[tuple, Any]]) -> str:
    """Words for a fixed limit that gives every answer: on the positions looked at, or on the pieces found."""

    def first_pairs(n: int) -> Any:
        return lambda symbols, scores: next_merge(symbols[: n + 1], scores)

    def first_found(n: int) -> Any:
        def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
            best: int | None = None
            found = 0
            for i in range(len(symbols) - 1):
                piece = symbols[i] + symbols[i + 1]
                if piece in scores:
                    if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                        best = i
                    found += 1
                    if found == n:
                        break
            return best

        return wrong

    for answer_with, what in ((first_pairs, "pairs (positions)"), (first_found, "pieces found")):
        limits = _limits_that_fit(history, answer_with)
        if limits:
            n = f"{limits[0]}" if len(limits) == 1 else f"{limits[0]} to {limits[-1]}"
            return f", as if limited to the first {n} {what}"
    return ""


def _three_symbol_joins(symbols: list[str], scores: dict[str, float]) -> int | None:
    """``symbols[i:i + 3]`` joined is tried too: a piece of three symbols taken for a pair."""
    best: int | None = None
    best_score = 0.0
    for i in range(len(symbols) - 1):
        for piece in ["".join(symbols[i : i + n]) for n in (2, 3) if i + n <= len(symbols)]:
            if piece in scores and (best is None or scores[piece] > best_score):
                best, best_score = i, scores[piece]
    return best


def _looked_up_without_space(always: bool) -> Any:
    """The piece looked up without its leading '▁': always (the whole piece when it is all '▁'), or only when the
    piece itself is missing."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        best: int | None = None
        best_score = 0.0
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            key = (piece.lstrip(SPACE) or piece) if always or piece not in scores else piece
            if key in scores and (best is None or scores[key] > best_score):
                best, best_score = i, scores[key]
        return best

    return wrong


WITHOUT_SPACE = (
    "you looked the piece up without its '▁': '▁the' and 'the' are two different pieces with their own scores (one "
    "may be missing); look up symbols[i] + symbols[i + 1] as it is, '▁' and all"
)


def _looked_up_changed(change: Any, always: bool) -> Any:
    """The pair looked up as ``change(pair)`` (lower case, a normal form, a '▁' added, stripped): always, or only
    when the pair itself is missing."""

    def wrong(symbols: list[str], scores: dict[str, float]) -> int | None:
        best: int | None = None
        best_score = 0.0
        for i in range(len(symbols) - 1):
            pair = symbols[i] + symbols[i + 1]
            key = change(pair) if always or pair not in scores else pair
            if key in scores and (best is None or scores[key] > best_score):
                best, best_score = i, scores[key]
        return best

    return wrong


def _looked_up_lower_case(symbols: list[str], scores: dict[str, float]) -> int | None:
    """The scores keyed in lower case (``{k.lower(): v ...}``, a later key overwriting) and ``pair.lower()`` looked
    up in them."""
    low = {k.lower(): v for k, v in scores.items()}
    return _looked_up_changed(str.lower, always=True)(symbols, low)


AS_IT_IS = "look up symbols[i] + symbols[i + 1] as it is, with `in scores` and scores[...], and nothing changed"

CHANGED_PAIR_HINTS: list[tuple[Any, str]] = [
    (
        _looked_up_lower_case,
        "you looked the pair up in lower case (.lower()): 'Th' and 'th' are two different pieces, and 'Th' is none "
        f"here; {AS_IT_IS}",
    ),
    *(
        (
            lambda pair, form=form: unicodedata.normalize(form, pair),
            "you looked the pair up normalized (unicodedata.normalize, to NFC or NFKC): 'e' + U+0301 (two "
            "characters) and 'é' (one) are different pieces; the normalizer ran on the text before the symbols were "
            f"made; {AS_IT_IS}",
        )
        for form in ("NFC", "NFKC")
    ),
    (
        lambda pair: SPACE + pair,
        f"you looked the pair up with a '▁' added when it is missing: 'th' and '▁th' are two different pieces with "
        f"their own scores, and 'th' is none here; {AS_IT_IS}",
    ),
    (
        str.strip,
        "you looked the pair up stripped (.strip()) when it is missing: 'a\\n' and 'a' are two different pieces, and "
        f"'a\\n' is none here; {AS_IT_IS}",
    ),
    (
        lambda pair: pair.rstrip(SPACE),
        "you looked the pair up without a '▁' at its end (.rstrip('▁')) when it is missing: 'a▁' and 'a' are two "
        f"different pieces, and 'a▁' is none here; {AS_IT_IS}",
    ),
]
"""Each way of looking up a changed pair, with its hint; a change is tried always and only when the pair is
missing (the first entry, in lower case, is already a whole answer)."""


ALPHABET = "abcdefghijklmnopqrstuvwxyz"
GREEK = "αβγδεζηθικλμν"
CYRILLIC = "жзийклмнопрстуф"
TO_BE = SPACE + SPACE.join(["to", "be", "or", "not", "to", "be"])
"""Texts for ties among many different pieces: a tie broken by a set's order (the hash seed's) picks the leftmost
of 13 to 25 pieces by luck only, so it fails some of these cases in any run."""


LONG_SCORES = {
    ALPHABET[i : i + 2]: score
    for i, score in {
        0: -6.0,
        2: -4.0,
        3: -7.0,
        5: -5.0,
        7: -3.0,
        8: -8.0,
        11: -2.5,
        12: -9.0,
        16: -2.0,
        19: -1.0,
        20: -6.0,
    }.items()
}
"""Pieces along 23 letters, best at 19: scores that dip and rise, four local bests before it, more than three
pieces and five symbols before it, so that an answer that stops early (a ``break``, a limit) returns another."""


def _tied(text: str, score: float) -> dict[str, float]:
    """Every pair of neighbouring characters of ``text`` a piece, all of one score."""
    return {a + b: score for a, b in zip(text, text[1:])}


NEXT_MERGE = Exercise(
    name="next_merge",
    call="next_merge(symbols, scores)",
    reference=next_merge,
    cases=lambda: [
        Case((["l", "o", "w"], {"lo": -10.0, "ow": -2.0}), 1, "'ow' scores -2, higher than 'lo' at -10"),
        Case(([SPACE, "t", "h", "e"], {"th": -1.0, "he": -2.0, SPACE + "t": -3.0}), 1, "'th' has the best score"),
        Case(([SPACE, "a", "a", "a"], {"aa": -5.0, SPACE + "a": -6.0}), 1, "'aa' twice, same score: the leftmost"),
        Case((["b", "a", "b"], {"ab": -1.0, "ba": -1.0}), 0, "two pieces of equal score: the leftmost pair"),
        Case(([SPACE, SPACE, SPACE], {SPACE * 2: -1e9}), 0, "Mistral's '▁▁' scores -1e9, and still merges"),
        Case(([SPACE + "th", "e"], {SPACE + "the": -4.0, "th": -1.0}), 0, "symbols already merged join whole"),
        Case(
            (["x", "a", "bc"], {"ab": 0.0, "abc": -1.0, "xa": -0.5}),
            0,
            "'x'+'a' forms 'xa' (-0.5), 'a'+'bc' forms 'abc' (-1); 'ab' scores 0 but is no pair of symbols here",
        ),
        Case(
            (["a", "b", "c"], {"ab": -0.0, "bc": -1.0}),
            0,
            "'ab' scores -0.0, as SentencePieceTrainer's first piece does: still a piece",
        ),
        Case(
            (["a", "b", "c", "b", "c"], {"ab": -1.0, "bc": -1.0}),
            0,
            "'bc' stands twice and 'ab' once, both score -1: the leftmost pair, however often its piece occurs",
        ),
        Case(
            ([SPACE, SPACE, SPACE * 2, SPACE], {SPACE * 2: -1e9, SPACE * 3: -1e9}),
            0,
            "'▁'+'▁', '▁'+'▁▁' and '▁▁'+'▁' all score -1e9: the leftmost pair, whatever the length of its left symbol",
        ),
        Case(
            ([SPACE, SPACE * 2, SPACE, SPACE], {SPACE * 2: -1e9, SPACE * 3: -1e9}),
            0,
            "'▁'+'▁▁', '▁▁'+'▁' and '▁'+'▁' all score -1e9: the leftmost pair, whatever the length of its right symbol",
        ),
        Case((["a", "b"], {"ab": -2e10}), 0, "a piece may score below -1e9, -1e10 or any number: still a piece"),
        Case((["a", "b"], {"ab": -1e20}), 0, "a piece may score -1e20, below any int64 too: still a piece"),
        Case(
            (["x", "a", "b"], {"ab": -2e10}),
            1,
            "'ab' scores -2e10 and 'xa' is no piece: a default score for a missing piece (scores.get(piece, -2e9)) "
            "can be higher than a real piece's",
        ),
        Case(
            (["x", "a", "b"], {"ab": -sys.float_info.max}),
            1,
            "'ab' scores the lowest float and 'xa' is no piece: only float('-inf') is lower, and only a test "
            "`piece in scores` is sure",
        ),
        Case(
            (["a", "b", "c"], {"ab": 3.0, "bc": 1.0}),
            0,
            "'ab' scores 3 and 'bc' 1: the highest score wins, though 1 is nearer 0",
        ),
        Case(
            (["a", "b", "c"], {"ab": 0.0, "bc": 2.0}),
            1,
            "'ab' scores 0 and 'bc' 2: a score is only a number, and 2 beats 0",
        ),
        Case(
            (["a", "b", "c"], {"ab": -0.0, "bc": 0.0}),
            0,
            "-0.0 == 0.0 in Python: equal scores, so the leftmost pair (sentencepiece 0.2.2 and later rank +0.0 "
            "higher, section 3)",
        ),
        Case(
            (["a", "b"], {"ab": -sys.float_info.max}),
            0,
            "a piece may score the lowest float there is: still a piece (start from best is None)",
        ),
        Case(
            (["a", "b", "c"], {"ab": -1.4, "bc": -1.2}),
            1,
            "'bc' scores -1.2, above 'ab' at -1.4: scores are compared as they are, not rounded",
        ),
        Case(
            (["a", "b", "c"], {"ab": -1.0, "bc": -0.9995}),
            1,
            "'bc' scores -0.9995, above 'ab' at -1: however small the difference, the higher score wins",
        ),
        Case(
            (["a", "b", "c"], {"ab": -1.0, "bc": -0.99995}),
            1,
            "'bc' scores -0.99995, above 'ab' at -1: however small the difference, the higher score wins",
        ),
        Case(
            (["a", "b", "c"], {"ab": -1.0, "bc": math.nextafter(-1.0, 0.0)}),
            1,
            "'bc' scores one float step above -1 (math.nextafter): the higher score wins, by any difference at all",
        ),
        Case(
            ([SPACE, "a", "b"], {SPACE + "a": -1e9, "ab": math.nextafter(-1e9, 0.0)}),
            1,
            "'ab' scores one float step above '▁a' at -1e9: the higher score wins, by any difference at all",
        ),
        Case(
            (["a", "b", "c"], {"ab": -0.0, "bc": math.nextafter(0.0, 1.0)}),
            1,
            "'bc' scores 5e-324, the smallest float above 0, and 'ab' -0.0: the higher score wins",
        ),
        Case(
            ([SPACE, SPACE, SPACE], {SPACE * 2: -1.0}),
            0,
            "'▁' + '▁' forms '▁▁', a piece like any other (here scoring -1)",
        ),
        Case(
            ([SPACE * 2, SPACE, SPACE], {SPACE * 3: -1e9, SPACE * 2: -1e9}),
            0,
            "'▁▁▁' and '▁▁' both score -1e9: the leftmost pair, whatever the length of its piece",
        ),
        Case(
            ([SPACE, SPACE, SPACE * 2], {SPACE * 3: -1e9, SPACE * 2: -1e9}),
            0,
            "'▁▁' and '▁▁▁' both score -1e9: the leftmost pair, whatever the length of its piece",
        ),
        Case(
            ([SPACE + "th", "e", SPACE + "c", "at"], {SPACE + "the": -5.0, SPACE + "cat": -3.0}),
            2,
            "'▁cat' wins: its left symbol is symbols[2] (the text's character 4)",
        ),
        Case((["x", "y"], {"x": 0.0, "y": 0.0}), None, "single characters are pieces, but 'xy' is not"),
        Case((["a"], {"a": 0.0}), None, "one symbol: no pair"),
        Case(([], {}), None, "nothing at all"),
        Case((["c", "a", "t", "c", "a", "t"], {"ca": -3.0, "at": -2.0, "tc": -1.0}), 2, "'tc' once beats 'at' twice"),
        Case((["a", "x", "a", "b"], {"ab": -1.0}), 2, "'a' stands at 0 too, but the pair 'a' + 'b' stands at 2"),
        Case(
            (["ab", "c", "a", "b"], {"ab": -1.0}),
            2,
            "the text 'ab' stands at 0 too, as one symbol already merged: the pair 'a' + 'b' stands at 2",
        ),
        Case(
            ([SPACE, "h", "i", SPACE, "t", "o"], {SPACE + "t": -1.0, "hi": -5.0}),
            3,
            "'▁t' is best, at the second '▁' (3), not the first (0)",
        ),
        Case(
            (["a", "b", "c"], {"ab": 1.0, "bc": 2.0}), 1, "scores are numbers like any: above 0 too, the highest wins"
        ),
        Case(
            (
                [SPACE + "of", SPACE + "the", SPACE + "n", "ew"],
                {SPACE + "of" + SPACE + "the": -3.0, SPACE + "new": -4.0},
            ),
            0,
            "'▁of' + '▁the' forms '▁of▁the' (-3), a piece of a model trained with split_by_whitespace=False: it beats "
            "'▁new' (-4); '▁' inside a piece is a character like any other",
        ),
        Case(
            (["of", SPACE, "t", "h"], {"of" + SPACE: -2.0, "th": -3.0}),
            0,
            "'of' + '▁' forms 'of▁' (-2), a piece of a model trained with treat_whitespace_as_suffix=True: it beats "
            "'th' (-3)",
        ),
        Case(
            ([SPACE + "new", SPACE + "york"], {SPACE + "new" + SPACE + "york": -5.0}),
            0,
            "'▁new' + '▁york' forms '▁new▁york', a piece: a pair whose right symbol starts with '▁' merges too",
        ),
        Case(
            ([SPACE + "international", "ize", SPACE, "a"], {SPACE + "internationalize": -8.0, SPACE + "a": -9.0}),
            0,
            "'▁internationalize' (17 characters, -8) beats '▁a' (-9): the encoder merges a piece of any length",
        ),
        Case(
            (["日", "本", "a"], {"日本": -3.0, "本a": -1.0}),
            1,
            "'本a' (-1), Han and Latin in one piece, beats '日本' (-3): the encoder merges a piece of any scripts",
        ),
        Case(
            (list(ALPHABET), _tied(ALPHABET, -1.0)),
            0,
            "25 pairs, each forming a piece that scores -1: the leftmost, 'ab' at 0, whatever order the pieces are "
            "kept in",
        ),
        Case(
            (list("ωψ" + GREEK), {"ωψ": -9.0, "ψα": -9.0} | _tied(GREEK, -2.0)),
            2,
            "'ωψ' and 'ψα' score -9; the 12 pairs after them all score -2: the leftmost of those, 'αβ' at 2",
        ),
        Case(
            (list(ALPHABET.upper()[::-1]), _tied(ALPHABET.upper()[::-1], -1e9)),
            0,
            "25 pieces, all scoring -1e9 (as Mistral's '▁' pieces do): the leftmost, 'ZY' at 0",
        ),
        Case(
            (list(CYRILLIC), {CYRILLIC[:2]: -5.0, CYRILLIC[1:3]: -5.0} | _tied(CYRILLIC[2:], -3.0)),
            2,
            "'жз' and 'зи' score -5, the 12 pairs after them -3: the leftmost of those, 'ий' at 2",
        ),
        Case(
            (list(TO_BE), _tied(TO_BE, -1.0)),
            0,
            "'▁to▁be▁or▁not▁to▁be': every neighbouring pair is a piece, and all score -1: the leftmost, '▁t' at 0",
        ),
        Case(
            (
                [SPACE, "n", "e", "w", SPACE, "n", "e", "w"],
                {SPACE + "n": -7.0, "ne": -4.0, "ew": -4.0, "w" + SPACE: -9.0},
            )
        ),
        Case(
            ([SPACE * 2, SPACE, "a", "b"], {SPACE * 3: -2.0, "ab": -3.0}),
            0,
            "'▁▁' + '▁' forms '▁▁▁' (-2), above 'ab' (-3), with no tie: a pair of '▁' runs merges like any other",
        ),
        Case(
            ([SPACE, SPACE * 2, "a", "b"], {SPACE * 3: -2.0, "ab": -3.0}),
            0,
            "'▁' + '▁▁' forms '▁▁▁' (-2), above 'ab' (-3), with no tie: a pair of '▁' runs merges like any other",
        ),
        Case(
            (list("abcde"), {"ab": -2.0, "bc": -3.0, "de": -1.0}),
            3,
            "'ab' (-2), then 'bc' (-3), lower, then 'de' (-1), the best: a score that drops does not end the search",
        ),
        Case(
            (list(ALPHABET[:23]), LONG_SCORES),
            19,
            "23 symbols, 11 pieces whose scores rise and fall (local bests 'cd' -4, 'hi' -3, 'lm' -2.5, 'qr' -2): "
            "'tu' (-1) at 19, near the end, beats them all",
        ),
        Case(
            (list("abc"), {"abc": -1.0, "ab": -5.0, "bc": -3.0}),
            1,
            "'abc' scores -1 but joins three symbols, and a merge joins two: 'bc' (-3) beats 'ab' (-5)",
        ),
        Case(
            ([SPACE + "th", "e", "a", "t"], {SPACE + "the": -1.0, "at": -3.0}),
            0,
            "'▁th' + 'e' forms '▁the' (-1), a piece with its '▁' (and 'the' is none): it beats 'at' (-3)",
        ),
        Case(
            ([SPACE + "th", "e", "a", "t"], {"the": -1.0, "at": -3.0}),
            2,
            "'the' is a piece but '▁th' + 'e' forms '▁the', which is none: 'at' at 2",
        ),
        Case(
            (["a", "b", "c", "d"], {"ab": -math.inf, "cd": -math.inf}),
            0,
            "'ab' and 'cd' score float('-inf') (a hand-edited model): still pieces, and sentencepiece 0.2.3 merges "
            "the leftmost (start from best is None)",
        ),
        Case(
            (["x", "a", "b"], {"ab": -math.inf}),
            1,
            "'ab' scores float('-inf') and 'xa' is no piece: 'ab' is still a piece, and sentencepiece 0.2.3 merges it",
        ),
        Case(
            (["T", "h", "e"], {"th": -1.0, "he": -2.0}),
            1,
            "'T' + 'h' forms 'Th', which is no piece ('th' is another): 'he' at 1",
        ),
        Case(
            (["e", "\u0301", "x"], {"\u00e9": -1.0, "\u0301x": -2.0}),
            1,
            "'e' + U+0301 (an accent) forms two characters, not the piece 'é' (one): U+0301 + 'x' at 1",
        ),
        Case(
            (["t", "h", "e"], {SPACE + "th": -1.0, "he": -2.0}),
            1,
            "'t' + 'h' forms 'th', which is no piece ('▁th' is another): 'he' at 1",
        ),
        Case(
            (["a", "\n", "b"], {"a": -1.0, "\nb": -2.0}),
            1,
            "'a' + '\\n' forms 'a\\n', which is no piece ('a' is another): '\\nb' at 1",
        ),
        Case(
            (["a", SPACE, "b"], {"a": -1.0, SPACE + "b": -2.0}),
            1,
            "'a' + '▁' forms 'a▁', which is no piece ('a' is another): '▁b' at 1",
        ),
        *real_encoding_cases(),
        Case(
            ([SPACE + "th", "e", SPACE, "t", "h"], {SPACE + "t": -1.0, "e" + SPACE: -1.0}),
            1,
            "'e▁' at 1 and '▁t' at 2 tie at -1: the leftmost pair, 1 (the text '▁t' also stands at the start, inside "
            "'▁th')",
        ),
        Case(
            (["a", "x", "b", "a", "c"], {"xb": -1.0, "ac": -1.0}),
            1,
            "'xb' at 1 and 'ac' at 3 tie at -1: the leftmost pair, 1 ('a', the left symbol of 'ac', also stands at 0)",
        ),
    ],
    diagnosers=[
        _float_position,
        _same_answer_everywhere,
        _zero_dropped,
        same_as(_zero_replaced_in_loop, ZERO_IS_FALSE),
        _two_symbols_no_pair,
        _space_guard,
        _trainer_rule,
        _kind_guard,
        _special_filter,
        same_as(
            _most_frequent,
            "that is lesson 04's rule, the most frequent pair: SentencePiece picks the pair whose joined piece has "
            "the highest SCORE in the vocabulary, however often it occurs",
        ),
        same_as(
            _lowest_score,
            "you took the LOWEST score: in SentencePiece the highest score wins (scores are negative: -2 beats -10)",
        ),
        *(
            same_as(
                _returned_at_zero(or_more),
                "you returned the first pair scoring 0 (or more) at once, as if no score could beat it: a score is "
                "only a number, and a piece may score above 0 ('bc' at 2 beats 'ab' at 1) or tie at 0 with a pair "
                "to its left; compare every pair's score and take the highest",
            )
            for or_more in (True, False)
        ),
        same_as(
            _by_magnitude(largest=False),
            "you took the score nearest 0 (abs(), or the smallest magnitude): that is the highest only while every "
            "score is negative; a piece may score 0 or above ('bc' at 2 beats 'ab' at 1, 5e-324 beats -0.0): take "
            "the highest score itself, with >, no abs()",
        ),
        same_as(
            _by_magnitude(largest=True),
            "you took the score farthest from 0 (the largest abs()): with negative scores that is the LOWEST; "
            "SentencePiece merges the highest score itself (-2 beats -10, 2 beats 1): compare with >, no abs()",
        ),
        same_as(
            _last_place_of_each_piece,
            "you kept the LAST place each piece stands (a dict {piece: i} overwritten as you go): a piece that stands "
            "twice merges first at its leftmost place; keep the first i, or go through the positions and stop "
            "replacing on equal scores",
        ),
        same_as(
            _vocabulary_order,
            "you went through the vocabulary best first and took the first piece the text holds: of equal scores, "
            "that is the piece listed first in scores, wherever it stands; SentencePiece takes the leftmost PAIR in "
            "the text: go through the positions i of symbols in order",
        ),
        same_as(
            _last_pair_skipped,
            "you never looked at the last pair, symbols[-2] + symbols[-1]: range(len(symbols) - 1) gives every "
            "left position, 0 to len(symbols) - 2 (range(len(symbols) - 2) stops one short)",
        ),
        same_as(
            _first_pair_skipped,
            "you never looked at the first pair, symbols[0] + symbols[1]: range(len(symbols) - 1) gives every left "
            "position, 0 to len(symbols) - 2 (range(1, len(symbols) - 1) starts one late)",
        ),
        same_as(
            _place_among_found,
            "you returned the best piece's place in your list of the pieces found (only the pairs that form a "
            "piece are in it, so its places are not positions in symbols): return i, the index in symbols of the "
            "pair's left symbol; keep i with each piece you find",
        ),
        same_as(
            _right_symbol_index,
            "you returned the index of the pair's RIGHT symbol (i + 1): return the index of its left symbol, the i "
            "of symbols[i] + symbols[i + 1]",
        ),
        same_as(
            _rightmost_among_ties,
            "among equal scores you kept the last (rightmost) pair: keep the first, the leftmost. Go left to right "
            "and replace the best only on a strictly higher score (>): >=, or going right to left, keeps the "
            "rightmost",
        ),
        same_as(
            _first_piece,
            "that is the first pair that forms a piece: compare the scores of all of them, and take the best",
        ),
        _starting_at(
            0.0,
            f"your best score starts at 0: the scores are negative, so no piece ever beats it; {NONE_START}",
        ),
        _starting_at(
            -1e9,
            "your best score starts at -1e9: Mistral's '▁' pieces score exactly -1e9, and none of them beats it; "
            f"{NONE_START}",
        ),
        _starting_at(
            -math.inf,
            "your best score starts at float('-inf'), and a piece may score -inf too (a hand-edited model): -inf > "
            "-inf is false, so it never becomes the best, yet it still merges when no pair scores higher "
            "(sentencepiece 0.2.3 does); start from the first piece you find (best is None)",
        ),
        same_as(
            _truthy_score,
            "a piece scored 0 is a piece too (SentencePieceTrainer scores its first learned piece -0.0, which is false): "
            "test `piece in scores`, not the truth of its score",
        ),
        same_as(
            _score_kept_if(lambda score: score <= 0),
            "you leave out pieces that score above 0 (a test `<= 0`, or skipping `> 0`): the pieces SentencePieceTrainer learns "
            "score 0 or less, but a score is only a number, and a piece of any score is a piece ('ab' at 3 beats "
            "'bc' at 1); test only `piece in scores`, then compare with the best so far",
        ),
        same_as(
            _score_kept_if(lambda score: score < 0),
            "you leave out pieces that score 0 or more (a test `< 0`): -0.0 < 0 is false, so a piece scoring -0.0 "
            "(SentencePieceTrainer's first learned piece) or 0 or above never merges; test only `piece in scores`, "
            "then compare with the best so far",
        ),
        same_as(
            _by_length_among_ties(shorter=True),
            "among equal scores you took the shorter piece: SentencePiece takes the leftmost pair, whatever the "
            "length of its piece",
        ),
        same_as(
            _by_length_among_ties(shorter=False),
            "among equal scores you took the longer piece: SentencePiece takes the leftmost pair, whatever the "
            "length of its piece",
        ),
        *(
            same_as(
                _by_text_among_ties(later),
                f"among equal scores you took the piece that sorts {'last' if later else 'first'} as text (strings "
                "compare character by character, 'bc' > 'ab'): a max or min over tuples (score, piece), or a sort of "
                "them, breaks a tie by the piece, and it does so the same way in every run; SentencePiece takes the "
                "leftmost pair, whatever its piece: go through the positions i in order and replace the best only on "
                "a strictly higher score",
            )
            for later in (True, False)
        ),
        same_as(_max_by_default("pair"), MINUS_INFINITY_DEFAULT),
        same_as(_max_by_default("any"), MINUS_INFINITY_DEFAULT),
        _no_pair_found,
        *(
            same_as(
                _compared_rounded(whole),
                "you compared the scores rounded (int(), round(), or within a tolerance): -1.2 beats -1.4 and "
                "-0.9995 beats -1; compare the scores as they are, with >",
            )
            for whole in (int, round)
        ),
        _as_float32,
        _within_a_tolerance,
        same_as(
            _more_frequent_among_ties,
            "among equal scores you took the piece that occurs more often: SentencePiece takes the leftmost pair, "
            "however often its piece occurs",
        ),
        same_as(
            _by_symbol_length_among_ties(right=False, longer=True),
            "among equal scores you took the pair with the longer LEFT symbol: SentencePiece takes the leftmost pair, "
            "whatever the lengths of its symbols",
        ),
        same_as(
            _by_symbol_length_among_ties(right=False, longer=False),
            "among equal scores you took the pair with the shorter LEFT symbol: SentencePiece takes the leftmost "
            "pair, whatever the lengths of its symbols",
        ),
        same_as(
            _by_symbol_length_among_ties(right=True, longer=True),
            "among equal scores you took the pair with the longer RIGHT symbol: SentencePiece takes the leftmost "
            "pair, whatever the lengths of its symbols",
        ),
        same_as(
            _by_symbol_length_among_ties(right=True, longer=False),
            "among equal scores you took the pair with the shorter RIGHT symbol: SentencePiece takes the leftmost "
            "pair, whatever the lengths of its symbols",
        ),
        same_as(
            _character_offset,
            "that is a position in the text, counted in characters: return i, the index in the list of symbols "
            "of the pair's left symbol",
        ),
        same_as(
            _piece_at_boundary,
            "a pair is two whole neighbouring symbols, symbols[i] + symbols[i + 1]: 'a' and 'bc' form 'abc', never "
            "'ab'",
        ),
        same_as(
            _single_characters,
            "symbols already merged join too: '▁th' + 'e' forms '▁the'; join symbols[i] + symbols[i + 1] whatever "
            "their lengths",
        ),
        same_as(
            _piece_text_found,
            "you looked for the piece's text in the joined symbols (str.find, or .index) and turned that place back "
            "into a symbol: the text may stand earlier inside a symbol already merged ('ab' at 0 here); the merge is "
            "at the first PAIR symbols[i] + symbols[i + 1] that joins into the piece: return the i at which you "
            "found the pair",
        ),
        same_as(
            _index_of_left_symbol,
            "you found the right pair, then symbols.index(...) gave the FIRST place its left symbol stands ('▁' stands "
            "all over a text): return the i at which you found the pair",
        ),
        same_as(
            _three_symbol_joins,
            "you joined three symbols too (symbols[i:i + 3]): a merge joins two neighbouring symbols, symbols[i] + "
            "symbols[i + 1]; a piece of three symbols is reached in two merges",
        ),
        same_as(_looked_up_without_space(always=True), WITHOUT_SPACE),
        same_as(_looked_up_without_space(always=False), WITHOUT_SPACE),
        same_as(_looked_up_lower_case, CHANGED_PAIR_HINTS[0][1]),
        *(
            same_as(_looked_up_changed(change, always), hint)
            for change, hint in CHANGED_PAIR_HINTS[1:]
            for always in (True, False)
        ),
        _stopped_early,
        same_as(
            _tie_by_text_position,
            "of equal scores you kept the piece whose TEXT stands first in the joined symbols (str.index): the text "
            "may stand earlier inside a symbol already merged or across another pair; of equal scores the leftmost "
            "PAIR merges: keep the first i, replacing the best only on a strictly higher score",
        ),
        same_as(
            _tie_by_left_symbol,
            "of equal scores you kept the pair whose left symbol stands first in the list (symbols.index): that symbol "
            "may stand earlier elsewhere; of equal scores the leftmost PAIR merges: keep the first i, replacing the "
            "best only on a strictly higher score",
        ),
        _tie_not_leftmost,
        _not_a_piece,
        when(
            lambda a: isinstance(a.got, str) and a.expected is not None and a.got == str(a.expected),
            "you returned the position as a str (str(i), or an f-string): return the int i itself",
        ),
        when(_is_pair_or_piece, "return the POSITION i of the pair's left symbol (an int), not the pair or piece"),
        when(
            lambda a: a.expected is None and a.got == -1,
            "no pair forms a piece here: return None (-1 would be read as a position)",
        ),
        _found_no_pair,
    ],
    hint="for each i, the piece is symbols[i] + symbols[i + 1]; keep the i whose piece is in scores with the highest "
    "score, replacing it only when a later one is strictly higher",
)


def check_next_merge(next_merge: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``next_merge(symbols, scores) -> int | None``; prints one report. A float such as ``2.0``
    is refused with its own hint. Its code is read first: some hints for None depend on it."""
    with reading(next_merge):
        return NEXT_MERGE.check(adjusted(next_merge, NEXT_MERGE.reference, _no_floats, 2), record=record)


# ---- exercise 2: byte fallback ----------------------------------------------------------------------------


def byte_fallback(pieces: list[str], vocab: set[str]) -> list[str]:
    """Each piece of ``vocab`` as itself; any other as ``<0xNN>``, one for each byte of its UTF-8 form."""
    out: list[str] = []
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
        else:
            out += [f"<0x{byte:02X}>" for byte in piece.encode("utf-8")]
    return out


_NORMAL_FORMS: tuple[Literal["NFC", "NFD", "NFKC", "NFKD"], ...] = ("NFC", "NFKC", "NFD", "NFKD")


def _falling_back_normalised(form: Literal["NFC", "NFD", "NFKC", "NFKD"]) -> Any:
    """A wrong ``byte_fallback`` that looks a piece up in a normalised form, and spells it as it is."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        known = [unicodedata.normalize(form, piece) in vocab for piece in pieces]
        return [
            out for piece, kept in zip(pieces, known) for out in ([piece] if kept else byte_fallback([piece], set()))
        ]

    return wrong


def _falling_back(spell: Any) -> Any:
    """A wrong ``byte_fallback`` that spells an unknown piece with ``spell(piece) -> list of str``."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return [out for piece in pieces for out in ([piece] if piece in vocab else spell(piece))]

    return wrong


_lower_case = _falling_back(lambda piece: [f"<0x{b:02x}>" for b in piece.encode("utf-8")])
_unpadded = _falling_back(lambda piece: [f"<0x{b:X}>" for b in piece.encode("utf-8")])
_code_points = _falling_back(lambda piece: [f"<0x{ord(c):02X}>" for c in piece])
_utf16 = _falling_back(lambda piece: [f"<0x{b:02X}>" for b in piece.encode("utf-16-be")])


def _every_piece(pieces: list[str], vocab: set[str]) -> list[str]:
    return [f"<0x{b:02X}>" for p in pieces for b in p.encode("utf-8")]


def _known_first(pieces: list[str], vocab: set[str]) -> list[str]:
    """All the known pieces, then all the byte pieces: the order of the text is lost."""
    return [p for p in pieces if p in vocab] + byte_fallback([p for p in pieces if p not in vocab], set())


def _per_character(pieces: list[str], vocab: set[str]) -> list[str]:
    """An unknown piece spelled character by character, keeping the characters that are pieces."""
    return [out for piece in pieces for out in ([piece] if piece in vocab else byte_fallback(list(piece), vocab))]


def _all_characters_known(pieces: list[str], vocab: set[str]) -> list[str]:
    """A piece kept whole when each of its characters is a piece, though the piece itself is not."""
    return [out for p in pieces for out in ([p] if all(ch in vocab for ch in p) else byte_fallback([p], vocab))]


def _normalized_first(pieces: list[str], vocab: set[str]) -> list[str]:
    """Each piece passed through NFC before its bytes are written: an accent and its letter become one character."""
    return byte_fallback([unicodedata.normalize("NFC", p) for p in pieces], vocab)


def _stripped(pieces: list[str], vocab: set[str]) -> list[str]:
    """``piece.strip() in vocab``: a piece with a newline or a space at an end passes as the piece without it."""
    return [out for p in pieces for out in ([p] if p.strip() in vocab else byte_fallback([p], set()))]


def _case_insensitive(pieces: list[str], vocab: set[str]) -> list[str]:
    """The vocabulary looked up without case: 'The' passes because 'the' is a piece."""
    lowered = {v.lower() for v in vocab}
    return [out for p in pieces for out in ([p] if p.lower() in lowered else byte_fallback([p], set()))]


SPACED_PAIRS = {True: "'the' and '▁the'", False: "'of' and 'of▁'"}


def _kept_for_its_spaced_form(before: bool) -> Any:
    """``if piece in vocab or "▁" + piece in vocab`` (or ``piece + "▁"``): a piece kept as it is because the piece
    with a '▁' is in the vocabulary."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        spaced = [SPACE + p if before else p + SPACE for p in pieces]
        return [
            out
            for p, s in zip(pieces, spaced)
            for out in ([p] if p in vocab or s in vocab else byte_fallback([p], set()))
        ]

    return wrong


def _part_of_a_piece(attempt: Attempt) -> str | None:
    """A piece kept as it is though it is only part of a piece of the vocabulary: its start, its end, or inside."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    for piece in pieces:
        if piece in vocab or piece not in attempt.got or piece in attempt.expected:
            continue
        for where, test in [
            ("the start of", str.startswith),
            ("the end of", str.endswith),
            ("inside", str.__contains__),
        ]:
            holder = next((v for v in sorted(vocab) if v != piece and test(v, piece)), None)
            if holder is not None:
                return (
                    f"{piece!r} is {where} the piece {holder!r} but is no piece itself: test `piece in vocab`, the "
                    "set, not a string made of the pieces, nor a piece's start or end"
                )
    return None


def _byte_like_text(attempt: Attempt) -> str | None:
    """Text that looks like a byte piece ('<0x41>', six characters) kept as it is: it is no piece of the vocabulary."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    text = next((p for p in pieces if p.startswith("<0x") and p not in vocab and p in attempt.got), None)
    if text is None:
        return None
    return (
        f"{text!r} here is text, {len(text)} characters, not a piece of this vocabulary: it falls back to its bytes "
        f"like any other ({' '.join(byte_fallback([text], set()))}); test `piece in vocab` only, whatever it looks like"
    )


def _bytes_left_out(attempt: Attempt) -> str | None:
    """Every piece in its place, but the byte pieces of NUL (``if b``, ``b"\\x00"`` filtered, a cut at the first
    NUL as C strings end) or of control characters and spaces (``isprintable``, ``strip``, ``split``) left out."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, list) or attempt.error is not None or not all(isinstance(p, str) for p in got):
        return None
    remaining = iter(expected)
    if len(got) >= len(expected) or not all(piece in remaining for piece in got):  # in order, some left out
        return None
    missing = list(expected)
    for piece in got:
        missing.remove(piece)
    if "<0x00>" in missing:
        after = "" if set(missing) == {"<0x00>"} else f" and what follows it ({' '.join(missing)} missing)"
        return (
            f"your answer leaves out <0x00>{after}: the NUL character (U+0000) is one "
            "byte, 00, and falls back to <0x00> like any other byte (Mistral's id 3); a test `if b`, a filter of "
            "b'\\x00', a cut at the first NUL as C strings end, or a filter of control characters drops it: write "
            "every byte of piece.encode('utf-8')"
        )
    unusual = "".join(sorted({c for p in attempt.args[0] for c in p if not c.isprintable() or c.isspace()}))
    if not unusual or not set(missing) <= set(byte_fallback([unusual], set())):
        return None
    return (
        f"your answer leaves out {' '.join(missing)}, the bytes of control characters or spaces ({unusual!r}): "
        "they are bytes like any other; don't filter the piece (isprintable, strip, split): write every byte of "
        "piece.encode('utf-8')"
    )


def _repeats_dropped(pieces: list[str], vocab: set[str]) -> list[str]:
    """The right pieces, each kept once (``dict.fromkeys``, or a set in order): a byte that comes again is lost."""
    return list(dict.fromkeys(byte_fallback(pieces, vocab)))


def _each_piece_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A loop over ``dict.fromkeys(pieces)`` (or a set): a piece that comes again in ``pieces`` is skipped."""
    return byte_fallback(list(dict.fromkeys(pieces)), vocab)


def _bytes_spelled_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A ``seen`` set of the unknown pieces: an unknown piece's bytes written the first time it comes only."""
    seen: set[str] = set()
    out: list[str] = []
    for piece in pieces:
        if piece in vocab or piece not in seen:
            out += byte_fallback([piece], vocab)
        seen.add(piece)
    return out


COMES_AGAIN = (
    "a piece that comes again in pieces is written again every time it comes: '🤖' twice is its four bytes twice, "
    "'▁the' twice is '▁the' twice (the text says it twice); go through pieces itself, with no set of pieces seen"
)


def _pieces_grouped(pieces: list[str], vocab: set[str]) -> list[str]:
    """``for piece, _ in itertools.groupby(pieces)``: a piece right after itself is skipped."""
    return byte_fallback([piece for i, piece in enumerate(pieces) if i == 0 or pieces[i - 1] != piece], vocab)


def _unknown_after_itself_skipped(pieces: list[str], vocab: set[str]) -> list[str]:
    """An unknown piece equal to the one before it skipped (a test against the previous piece)."""
    return byte_fallback([p for i, p in enumerate(pieces) if p in vocab or i == 0 or pieces[i - 1] != p], vocab)


def _output_repeat_dropped(pieces: list[str], vocab: set[str]) -> list[str]:
    """An item of the output equal to the one before it dropped (``if out[-1] != item``, a groupby of the output)."""
    out = byte_fallback(pieces, vocab)
    return [item for i, item in enumerate(out) if i == 0 or out[i - 1] != item]


IN_A_ROW = (
    "something that comes twice in a row is written twice, every time it comes: '🤖' twice in a row is its four "
    "bytes twice (eight byte pieces), '▁ha' twice in a row is '▁ha' twice, 'aa' is <0x61> twice; no groupby, no "
    "test against the piece or item before: go through pieces and write each one in full"
)


def _extra_in_front(attempt: Attempt) -> list | None:
    """What an answer has before the right output, when it ends with it (else None)."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, list) or not isinstance(expected, list) or attempt.error is not None:
        return None
    if len(got) <= len(expected) or got[len(got) - len(expected) :] != expected:
        return None
    return got[: len(got) - len(expected)]


def _made_of_outputs(extra: list) -> bool:
    """Whether ``extra`` is what some calls on the exercise's cases return, one after another: what a list carried
    over from call to call holds before this call's pieces (calls of this check, or of an earlier run of it)."""
    outputs = [case.expected for case in BYTE_FALLBACK.build_cases() if case.expected]
    ends = {0}
    for end in range(1, len(extra) + 1):
        if any(end - len(out) in ends and extra[end - len(out) : end] == out for out in outputs):
            ends.add(end)
    return len(extra) in ends


ADDED_IN_FRONT = {
    ("<s>",): "'<s>', the sentence's start",
    (SPACE,): "'▁', the dummy prefix",
    ("<s>", SPACE): "'<s>' and '▁'",
    (SPACE, "<s>"): "'▁' and '<s>'",
}


def _added_in_front(attempt: Attempt) -> str | None:
    """'<s>' (or the dummy '▁') put before the output, though no call before this one left anything."""
    extra = _extra_in_front(attempt)
    if extra is None or tuple(extra) not in ADDED_IN_FRONT or _made_of_outputs(extra):
        return None
    return (
        f"your answer has {ADDED_IN_FRONT[tuple(extra)]}, added in front of the right pieces, {attempt.expected!r}: "
        "byte_fallback writes only the pieces it is given, each as itself or as its bytes; the dummy '▁' was put "
        "in the text by the normaliser before the pieces were made (it is in pieces already when it belongs), and "
        "<s> is a control piece the encoder adds around the ids only when asked (add_bos), never a piece of the text"
    )


def _output_carried_over(attempt: Attempt) -> str | None:
    """``def byte_fallback(pieces, vocab, out=[])``: the default list is made once, so every call adds to what the
    calls before it wrote; each answer ends with the right one, after what earlier calls returned."""
    extra = _extra_in_front(attempt)
    if extra is None or not _made_of_outputs(extra):
        return None
    got, expected = attempt.got, attempt.expected
    return (
        f"your answer has {len(got) - len(expected)} pieces before the right ones, {expected!r}: pieces left by the "
        "calls before this one: your list outlives the call. A default argument (out=[]) is made ONCE, when def "
        "runs, and every call adds to that same list (so does a list made outside the function); make a new list "
        "in the function's body, out = [], at each call"
    )


def _first_character_looked_up(pieces: list[str], vocab: set[str]) -> list[str]:
    """``piece[0] in vocab``: a piece kept whole when its first character is a piece."""
    return [out for p in pieces for out in ([p] if p[:1] in vocab else byte_fallback([p], set()))]


_hex_call = _falling_back(lambda piece: [f"<{hex(b)}>" for b in piece.encode("utf-8")])
_hex_call_upper = _falling_back(lambda piece: [f"<{hex(b).upper()}>" for b in piece.encode("utf-8")])


def _spaces_kept(attempt: Attempt) -> str | None:
    """A piece made only of '▁' kept as it is though the vocabulary lacks it (``or piece == '▁'``)."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    kept = next((p for p in pieces if p and not p.strip(SPACE) and p not in vocab and p in attempt.got), None)
    if kept is None:
        return None
    return (
        f"{kept!r} is not in vocab here, yet you kept it: '▁' is a character like any other, three bytes E2 96 81, "
        f"so {kept!r} falls back to {' '.join(byte_fallback([kept], set()))}; test `piece in vocab` only, with no "
        "exception for '▁'"
    )


def _crash_on_no_pieces(attempt: Attempt) -> str | None:
    if not isinstance(attempt.error, IndexError) or attempt.args[0]:
        return None
    return (
        "your function raised IndexError on an empty list of pieces (pieces == []): no pieces give no pieces, []; "
        "don't look at pieces[0] or pieces[-1] before you know there is one"
    )


def _unknown(pieces: list[str], vocab: set[str]) -> list[str]:
    return [p if p in vocab else "<unk>" for p in pieces]


def _as_id(piece: str) -> str | int:
    """A byte piece as its id in Mistral's model (the byte + 3); any other piece as it is."""
    is_byte = len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">")
    return int(piece[3:5], 16) + 3 if is_byte else piece


def _item_of_another_type(attempt: Attempt) -> str | None:
    """A list that holds something other than pieces (str): named by its type, with what to write instead."""
    if not isinstance(attempt.got, list):
        return None
    item = next((item for item in attempt.got if not isinstance(item, str)), None)
    if item is None:
        return None
    if isinstance(item, int) and not isinstance(item, bool):
        if isinstance(attempt.expected, list) and attempt.got == [_as_id(p) for p in attempt.expected]:
            byte = item - 3
            return (
                f"your list holds ids ({item!r} is the id of '<0x{byte:02X}>', byte + 3: in Mistral's model bytes "
                "00 to FF are ids 3 to 258): return the byte pieces themselves, the string f'<0x{b:02X}>' for b in "
                f"piece.encode('utf-8'), '<0x{byte:02X}>' here, not their ids"
            )
        written = f", {item} is written '<0x{item:02X}>'" if 0 <= item < 256 else f"; {item} is no byte"
        return (
            f"your list holds ints ({item!r}): each UTF-8 byte becomes a piece, the string f'<0x{{b:02X}}>' for b "
            f"in piece.encode('utf-8'){written}"
        )
    if isinstance(item, bytes):
        return (
            f"your list holds bytes objects ({item!r}): each byte becomes a piece, the string f'<0x{{b:02X}}>' for b "
            "in piece.encode('utf-8')"
        )
    if isinstance(item, list | tuple):
        return (
            f"your list holds {type(item).__name__}s ({item!r}): out.append([...]) puts a whole list in as one item; "
            "add the byte pieces one by one, out += [...] or out.extend(...)"
        )
    return f"your list holds a {type(item).__name__} ({item!r}): every item must be a piece, a str"


def _characters_dropped(drop: Any) -> Any:
    """The reference, after the characters for which ``drop(c)`` is true are taken out of each piece."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        kept = ["".join(c for c in piece if not drop(c)) for piece in pieces]
        return byte_fallback([piece for piece in kept if piece], vocab)

    return wrong


def _kept_only_if(test: Any) -> Any:
    """``if piece in vocab and test(piece)``: a known piece whose characters fail ``test`` spelled as its bytes."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return [out for p in pieces for out in ([p] if p in vocab and test(p) else byte_fallback([p], set()))]

    return wrong


KEPT_WHOLE = "a piece in the vocabulary is kept whole, whatever its characters: "
KNOWN_PIECE_TESTS: tuple[tuple[Any, str], ...] = (
    (
        str.isprintable,
        "'\\r' (Mistral's id 28801), the control characters 0B, 0C, 1B, 7F, 1C, 1F, U+00A0, U+200B and U+200D are "
        "pieces of Mistral's vocabulary though str.isprintable() refuses them; test `piece in vocab` only, with no "
        "isprintable test",
    ),
    (
        lambda piece: not piece.isspace(),
        "'\\r' (id 28801), U+00A0 (the no-break space, id 29000) and U+3000 (the ideographic space) are pieces of "
        "Mistral's vocabulary though str.isspace() calls them spaces; test `piece in vocab` only, with no isspace test",
    ),
    (
        lambda piece: all(ord(c) <= 0xFFFF for c in piece),
        "'😂' (U+1F602, outside the BMP, above U+FFFF) is a piece of Mistral's vocabulary, id 29196, kept whole; only "
        "a piece NOT in vocab becomes bytes, whatever its code points; test `piece in vocab` only, with no test of "
        "ord(c) <= 0xFFFF",
    ),
)
"""Tests a learner adds to ``piece in vocab``, each with what its hint names; Mistral holds pieces that fail each."""


def _is_variation_selector(char: str) -> bool:
    return 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF


BYTE_FALLBACK = Exercise(
    name="byte_fallback",
    call="byte_fallback(pieces, vocab)",
    reference=byte_fallback,
    cases=lambda: [
        Case(([SPACE + "caf", "é"], {SPACE + "caf"}), [SPACE + "caf", "<0xC3>", "<0xA9>"], "é is two bytes, C3 A9"),
        Case(([SPACE, "€"], {SPACE}), [SPACE, "<0xE2>", "<0x82>", "<0xAC>"], "€ is three bytes"),
        Case((["\n"], {SPACE}), ["<0x0A>"], "a newline: one byte, written with two hex digits"),
        Case(([SPACE + "e", "\u0301"], {SPACE + "e"}), [SPACE + "e", "<0xCC>", "<0x81>"], "a combining accent"),
        Case((["🤖"], {SPACE}), ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"], "an emoji outside the BMP: four bytes"),
        Case(
            ([SPACE + "the", SPACE + "cat"], {SPACE + "the", SPACE + "cat"}),
            [SPACE + "the", SPACE + "cat"],
            "all known",
        ),
        Case(([], {SPACE}), [], "no pieces"),
        Case(
            (["é", SPACE + "caf", "€"], {SPACE + "caf"}),
            ["<0xC3>", "<0xA9>", SPACE + "caf", "<0xE2>", "<0x82>", "<0xAC>"],
            "a known piece between unknown ones: every piece keeps its place",
        ),
        Case(
            ([SPACE + "€"], {SPACE}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0xE2>", "<0x82>", "<0xAC>"],
            "'▁€' is no piece: all its bytes, those of '▁' (E2 96 81) too",
        ),
        Case((["ab"], {"a", "b"}), ["<0x61>", "<0x62>"], "'ab' is no piece, though 'a' and 'b' are: its bytes"),
        Case(
            (["e\u0301"], set()), ["<0x65>", "<0xCC>", "<0x81>"], "an e and a combining accent: the bytes as they are"
        ),
        Case(
            (["e\u0301", "\u00e9"], {"\u00e9"}),
            ["<0x65>", "<0xCC>", "<0x81>", "\u00e9"],
            "'e' + U+0301 looks like the piece 'é' (U+00E9) but is other characters: no piece, its three bytes",
        ),
        Case(
            (["\ufb01", "fi"], {"fi"}),
            ["<0xEF>", "<0xAC>", "<0x81>", "fi"],
            "the ligature 'ﬁ' (U+FB01) is no piece, though NFKC makes it 'fi': the vocabulary is looked up as it is",
        ),
        Case(
            (["a\n"], {"a"}),
            ["<0x61>", "<0x0A>"],
            "'a\\n' is no piece, though 'a' is: all its bytes, the newline's too",
        ),
        Case(
            ([SPACE + "The", SPACE + "the"], {SPACE + "the"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x54>", "<0x68>", "<0x65>", SPACE + "the"],
            "'▁the' is a piece, '▁The' is not: the vocabulary is looked up as it is, case and all",
        ),
        Case(
            (["x"], set()), ["<0x78>"], "'x' is no piece of this vocabulary: even a plain ASCII letter becomes its byte"
        ),
        Case(
            ([SPACE + "the"], {"the"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x74>", "<0x68>", "<0x65>"],
            "'the' is a piece, '▁the' is not: the '▁' is part of the piece, looked up with it",
        ),
        Case((["ca"], {SPACE + "caf"}), ["<0x63>", "<0x61>"], "'ca' is inside '▁caf', but is no piece itself"),
        Case(
            ([SPACE + "ca"], {SPACE + "caf"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x63>", "<0x61>"],
            "'▁ca' is how '▁caf' starts, but is no piece itself: all its bytes",
        ),
        Case((["af"], {SPACE + "caf"}), ["<0x61>", "<0x66>"], "'af' is how '▁caf' ends, but is no piece itself"),
        Case(
            (["<0x41>"], {SPACE}),
            ["<0x3C>", "<0x30>", "<0x78>", "<0x34>", "<0x31>", "<0x3E>"],
            "the text '<0x41>' (six characters) is no piece of this vocabulary: its six bytes, like any text",
        ),
        Case(
            (["a\x00b"], {"a", "b"}),
            ["<0x61>", "<0x00>", "<0x62>"],
            "'a\\x00b' holds a NUL character (U+0000): its byte 00 is a byte like any other, <0x00> (id 3 in "
            "Mistral's model)",
        ),
        Case(
            (["\x00", SPACE, "x\x00"], {SPACE}),
            ["<0x00>", SPACE, "<0x78>", "<0x00>"],
            "a NUL alone, and a NUL at the end of a piece: <0x00> each time",
        ),
        Case(
            (["\t", "\r", "\x0b\x0c", "\x1b", "\x7f", "\x1c\x1f"], {SPACE}),
            ["<0x09>", "<0x0D>", "<0x0B>", "<0x0C>", "<0x1B>", "<0x7F>", "<0x1C>", "<0x1F>"],
            "control characters (tab, carriage return, vertical tab, form feed, escape, delete, the separators "
            "1C and 1F): in this case's vocabulary, which holds none of them, every one is a byte, written like any "
            "other (Mistral's vocabulary holds all of them but the tab as pieces: '\\r' is id 28801)",
        ),
        Case(
            ([SPACE + "x", "\x85\xa0"], {SPACE + "x"}),
            [SPACE + "x", "<0xC2>", "<0x85>", "<0xC2>", "<0xA0>"],
            "U+0085 (next line) and U+00A0 (no-break space), which str.strip() and str.split() take for spaces: "
            "in this case's vocabulary, which holds neither, two bytes each (Mistral's vocabulary holds both as "
            "pieces: U+00A0 is id 29000)",
        ),
        *(case for _, case in real_fallback_cases()),
        Case(([SPACE + "Ж", "ę", SPACE + "日本"], {SPACE + "Ж"})),
        Case(([SPACE], set()), ["<0xE2>", "<0x96>", "<0x81>"], "'▁' alone, not in this vocabulary: its three bytes"),
        Case(
            ([SPACE * 2, "a"], {"a"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0xE2>", "<0x96>", "<0x81>", "a"],
            "'▁▁' is no piece of this vocabulary: the bytes of both '▁'",
        ),
        Case(
            (["🤖", SPACE + "the", "🤖", SPACE + "the"], {SPACE + "the"}),
            ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>", SPACE + "the"] * 2,
            "'🤖' and '▁the' twice each, as a text that says 'the' twice gives: a piece is written each time it comes",
        ),
        Case(
            ([SPACE + "I", SPACE + "love", SPACE, "🤖", "🤖"], {SPACE + "I", SPACE + "love", SPACE}),
            [SPACE + "I", SPACE + "love", SPACE] + ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"] * 2,
            "'🤖' twice in a row, an unknown piece right after itself: its four bytes, twice",
        ),
        Case(
            ([SPACE + "ha", SPACE + "ha"], {SPACE + "ha"}),
            [SPACE + "ha", SPACE + "ha"],
            "'▁ha' twice in a row, a known piece right after itself: written twice",
        ),
        Case((["aa"], set()), ["<0x61>", "<0x61>"], "'aa' is no piece: the byte 61 twice in a row, <0x61> twice"),
        Case(
            (["the"], {SPACE + "the"}),
            ["<0x74>", "<0x68>", "<0x65>"],
            "'the' is no piece: '▁the' is another, so 'the' falls back to its three bytes",
        ),
        Case(
            ([SPACE, "👨", "\u200d", "👩", "\u200d", "👧"], {SPACE}),
            [SPACE] + byte_fallback(["👨\u200d👩\u200d👧"], set()),
            "a family emoji: 👨, 👩 and 👧 joined by U+200D (ZERO WIDTH JOINER), none of them a piece: 4 + 3 + 4 + 3 + "
            "4 = 18 byte pieces, E2 80 8D for each joiner in this case's vocabulary, which holds none of them (Mistral's "
            "vocabulary holds the joiner as a piece, id 29274, so there each joiner stays whole)",
        ),
        Case(
            ([SPACE + "I", "❤", "\ufe0f"], {SPACE + "I"}),
            [SPACE + "I", "<0xE2>", "<0x9D>", "<0xA4>", "<0xEF>", "<0xB8>", "<0x8F>"],
            "'❤' and U+FE0F (VARIATION SELECTOR-16, which asks for the emoji form), neither a piece: three bytes each",
        ),
        Case(
            (["<unk>", SPACE + "a"], {SPACE + "a"}),
            ["<0x3C>", "<0x75>", "<0x6E>", "<0x6B>", "<0x3E>", SPACE + "a"],
            "the text '<unk>' (five characters) is no piece of this vocabulary: its five bytes, like any text",
        ),
        Case(
            ([" ", SPACE], {SPACE}),
            ["<0x20>", SPACE],
            "' ' (U+0020, a plain space, not '▁') is no piece of this vocabulary: its byte, 20",
        ),
        Case(
            ([SPACE, SPACE, "a"], {SPACE, "a"}),
            [SPACE, SPACE, "a"],
            "'▁' twice in a row, a known piece right after itself: written twice",
        ),
        Case(
            (["of"], {"of" + SPACE}),
            ["<0x6F>", "<0x66>"],
            "'of' is no piece: 'of▁' (treat_whitespace_as_suffix=True) is another, so 'of' falls back to its two bytes",
        ),
    ],
    diagnosers=[
        _item_of_another_type,
        _crash_on_no_pieces,
        *(same_as(_kept_only_if(test), KEPT_WHOLE + what) for test, what in KNOWN_PIECE_TESTS),
        *(
            same_as(
                _falling_back_normalised(form),
                f"you looked each piece up after unicodedata.normalize('{form}', ...): the normaliser ran before "
                "the pieces were made, and the vocabulary is looked up with each piece as it is ('e' + U+0301 is "
                "not the piece 'é')",
            )
            for form in _NORMAL_FORMS
        ),
        _added_in_front,
        _output_carried_over,
        _spaces_kept,
        same_as(
            _each_piece_once,
            f"you went through each piece once (dict.fromkeys(pieces), or a set of them): {COMES_AGAIN}",
        ),
        same_as(
            _bytes_spelled_once,
            f"you wrote an unknown piece's bytes only the first time it came (a set of pieces seen): {COMES_AGAIN}",
        ),
        same_as(_pieces_grouped, f"you skipped a piece right after itself (itertools.groupby(pieces)): {IN_A_ROW}"),
        same_as(
            _unknown_after_itself_skipped,
            f"you skipped an unknown piece right after itself (a test against the piece before): {IN_A_ROW}",
        ),
        same_as(
            _output_repeat_dropped,
            f"you dropped an item equal to the one before it (a test against out[-1], or a groupby): {IN_A_ROW}",
        ),
        same_as(
            _repeats_dropped,
            "you kept each piece once (a set, or dict.fromkeys): a byte or a piece that comes again is written again "
            "('▁€' is E2 96 81 E2 82 AC, two <0xE2>)",
        ),
        same_as(
            _characters_dropped(lambda c: unicodedata.category(c) == "Cf"),
            "you dropped the format characters (category Cf, such as U+200D, the ZERO WIDTH JOINER that makes 👨 👩 👧 "
            "one family emoji): they are characters like any other, U+200D three bytes E2 80 8D; write every byte of "
            "piece.encode('utf-8')",
        ),
        same_as(
            _characters_dropped(_is_variation_selector),
            "you dropped the variation selectors (U+FE00 to U+FE0F, such as U+FE0F after '❤'): they are characters "
            "like any other, U+FE0F three bytes EF B8 8F; write every byte of piece.encode('utf-8')",
        ),
        _bytes_left_out,
        same_as(
            _first_character_looked_up,
            "you looked up the piece's first character, piece[0]: a piece is kept only when the WHOLE piece is in "
            "vocab; test `piece in vocab`",
        ),
        same_as(
            _hex_call,
            "hex(b) writes lower-case digits and no leading zero ('0xa' for a newline, '0xc3'): write two upper-case "
            "digits, f'<0x{b:02X}>'",
        ),
        same_as(
            _hex_call_upper,
            "hex(b).upper() writes '0XC3' (an upper-case X) and no leading zero ('0XA'): write f'<0x{b:02X}>', "
            "a lower-case x and two upper-case digits",
        ),
        same_as(
            _known_first,
            "keep the order of the pieces: an unknown piece's byte pieces go where the piece stood",
        ),
        same_as(
            _per_character,
            "a piece not in vocab becomes the bytes of the WHOLE piece, even when some of its characters are pieces",
        ),
        same_as(
            _all_characters_known,
            "a piece not in vocab becomes the bytes of the WHOLE piece, even when each of its characters is a piece "
            "('ab' with 'a' and 'b' known): test `piece in vocab`",
        ),
        same_as(
            _normalized_first,
            "you normalised the text first (unicodedata.normalize): byte fallback writes the bytes of the piece as it "
            "is, e + U+0301 as 65 CC 81",
        ),
        same_as(
            _stripped,
            "you looked up piece.strip(): 'a\\n' is not the piece 'a'; test the piece as it is, `piece in vocab`",
        ),
        same_as(
            _case_insensitive,
            "you looked the piece up without its case: '▁The' is not the piece '▁the'; test `piece in vocab` as it is",
        ),
        *(
            same_as(
                _kept_for_its_spaced_form(before),
                f"you kept a piece because the piece with a '▁' {'before' if before else 'after'} it is in the "
                f"vocabulary: {SPACED_PAIRS[before]} are two different pieces, and the first is none here, so it "
                "falls back to its bytes; test `piece in vocab` only, with no '▁' added",
            )
            for before in (True, False)
        ),
        _part_of_a_piece,
        _byte_like_text,
        same_as(_every_piece, "a piece that IS in the vocabulary stays as it is; only the others become byte pieces"),
        same_as(_unknown, "that is what a model WITHOUT byte fallback does (<unk>); here each byte becomes <0xNN>"),
        same_as(_lower_case, "SentencePiece writes the hex digits in upper case: <0xC3>, not <0xc3>"),
        same_as(_unpadded, "every byte takes two hex digits: a newline is <0x0A>, not <0xA> (format with :02X)"),
        same_as(
            _code_points,
            "those are code points: byte fallback writes the UTF-8 BYTES, piece.encode('utf-8'), one piece each",
        ),
        same_as(_utf16, "those are UTF-16 bytes: SentencePiece uses UTF-8, piece.encode('utf-8')"),
    ],
    hint="for a piece not in vocab: [f'<0x{b:02X}>' for b in piece.encode('utf-8')]; keep the order of the pieces",
)


def check_byte_fallback(byte_fallback: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``byte_fallback(pieces, vocab) -> list of pieces``; prints one report."""
    return BYTE_FALLBACK.check(byte_fallback, record=record)
