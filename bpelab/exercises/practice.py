"""Checkers for lessons 09 (the multilingual tax) and 10 (tokens in practice).

Lesson 09: ``check_bytes_per_char``, ``check_premium``.
Lesson 10: ``check_room_for_answer``, ``check_estimate_cost``, ``check_shorter_prompt``.

The first four run a learner's function on cases through the engine in ``core``. The last one
checks a piece of text, not a function: it measures how many tokens a rewritten prompt saves and
whether the rewrite still mentions everything the original asked for (one of each item's words, standing
whole); it cannot tell what the rewrite asks for.

They live in files named after their idea, and every name stays importable from here: ``multilingual_tax``
(lesson 09), ``token_costs`` (room for the answer, cost), ``shorter_prompt``, with ``toy_encoders`` (the
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
from bpelab.exercises.shorter_prompt import KEYWORDS_ONLY, MUST_KEEP, WORDY_PROMPT, check_shorter_prompt
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
    "ESTIMATE_COST",
    "KEYWORDS_ONLY",
    "MUST_KEEP",
    "PREMIUM",
    "ROOM_FOR_ANSWER",
    "ROUNDED_ENOUGH",
    "SMALL_PARALLEL",
    "WORDY_PROMPT",
    "bytes_per_char",
    "check_bytes_per_char",
    "check_estimate_cost",
    "check_premium",
    "check_room_for_answer",
    "check_shorter_prompt",
    "cl100k_encode",
    "count_o200k_tokens",
    "count_words",
    "estimate_cost",
    "one_token_per_char",
    "one_token_per_word",
    "premium",
    "room_for_answer",
]
