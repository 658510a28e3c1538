"""Checkers for lessons 09 (the multilingual tax) and 10 (tokens in practice).

Lesson 09: ``check_bytes_per_char``, ``check_premium``.
Lesson 10: ``check_room_for_answer``, ``check_estimate_cost``, ``check_tokens_saved``.

Each runs a learner's function on cases through the engine in ``core``. The last one checks the function that
measures a shortened prompt (the share of the original's tokens it saves), not the rewrite itself: whether a
rewrite still asks for what the original asked is for the learner to judge, and lesson 10 says why.

They live in files named after their idea, and every name stays importable from here: ``multilingual_tax``
(lesson 09), ``token_costs`` (room for the answer, cost), ``shorter_prompt`` (the wordy prompt and the measure of a rewrite), with ``toy_encoders`` (the
encoders and texts their cases use) and ``number_answers`` (a tolerance, a whole number, naming rounding).
"""

from __future__ import annotations

from bpelab.exercises.multilingual_tax import (
    BYTES_PER_CHAR,
    PREMIUM,
    ROUNDED_ENOUGH,
    bytes_per_char,
    check_bytes_per_char,
    check_premium,
    premium,
)
from bpelab.exercises.shorter_prompt import (
    CHECKLIST,
    SHORT_PROMPT,
    TOKENS_SAVED,
    WORDY_PROMPT,
    check_tokens_saved,
    tokens_saved,
)
from bpelab.exercises.token_costs import (
    ESTIMATE_COST,
    ROOM_FOR_ANSWER,
    check_estimate_cost,
    check_room_for_answer,
    estimate_cost,
    room_for_answer,
)
from bpelab.exercises.toy_encoders import (
    SMALL_PARALLEL,
    cl100k_encode,
    count_o200k_tokens,
    count_words,
    one_token_per_char,
    one_token_per_word,
)

__all__ = [
    "BYTES_PER_CHAR",
    "CHECKLIST",
    "ESTIMATE_COST",
    "PREMIUM",
    "ROOM_FOR_ANSWER",
    "ROUNDED_ENOUGH",
    "SHORT_PROMPT",
    "SMALL_PARALLEL",
    "TOKENS_SAVED",
    "WORDY_PROMPT",
    "bytes_per_char",
    "check_bytes_per_char",
    "check_estimate_cost",
    "check_premium",
    "check_room_for_answer",
    "check_tokens_saved",
    "cl100k_encode",
    "count_o200k_tokens",
    "count_words",
    "estimate_cost",
    "one_token_per_char",
    "one_token_per_word",
    "premium",
    "room_for_answer",
    "tokens_saved",
]
