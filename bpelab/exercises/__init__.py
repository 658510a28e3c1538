"""Self-checking exercises: a learner writes a function, a ``check_*`` call says what is right and what is not.

Every checker runs the learner's function on small hand-checked cases first, then a few larger
ones, compares with the reference in ``bpelab``, prints ONE plain-text report and returns a
``CheckResult`` (``bool(result)`` tells whether it passed; in a notebook it shows nothing more).
It never raises on a learner's mistake. The engine, and how to add a checker: ``core``.

Checkers (the lesson, then the learner's function they check):

- ``check_byte_count(fn)``, 01: ``byte_count(text) -> {'chars', 'bytes', 'bytes_per_char'}``
- ``check_char_encode(fn)``, 01: ``encode(text) -> list of code points``
- ``check_char_decode(fn)``, 01: ``decode(ids) -> str``
- ``check_char_tokenizer(tokenizer, decode=None)``, 01: a class or object with ``encode`` and
  ``decode``, or two functions; encode, decode and the round trip checked as one exercise
- ``check_get_word_frequencies(fn)``, 02: ``get_word_frequencies(text) -> {('c','a','t','</w>'): 2, ...}``
- ``check_count_pairs(fn)``, 03: ``count_pairs(word_freq) -> {('l','o'): 7, ...}``
- ``check_merge_symbols(fn)``, 04: ``merge_symbols(symbols, pair) -> tuple`` (one word)
- ``check_merge_pair(fn)``, 04: ``merge_pair(word_freq, pair) -> new dict`` (the whole corpus)
- ``check_training_loop(fn)``, 04: ``train(text, num_merges) -> [((a, b), a + b), ...]``
- ``check_encode_word(fn)``, 05: ``encode_word(word, merges) -> ['low', '</w>']``

``show_solution(name)`` prints the reference source for an exercise.
"""

from bpelab.exercises.core import EXERCISES, Case, CheckResult, Exercise
from bpelab.exercises.pair_counts import check_count_pairs
from bpelab.exercises.pair_merging import check_merge_pair, check_merge_symbols
from bpelab.exercises.solutions import show_solution, solution_names
from bpelab.exercises.text_as_numbers import (
    check_byte_count,
    check_char_decode,
    check_char_encode,
    check_char_tokenizer,
)
from bpelab.exercises.training_loop import check_training_loop
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.exercises.word_frequencies import check_get_word_frequencies

__all__ = [
    "EXERCISES",
    "Case",
    "CheckResult",
    "Exercise",
    "check_byte_count",
    "check_char_decode",
    "check_char_encode",
    "check_char_tokenizer",
    "check_count_pairs",
    "check_encode_word",
    "check_get_word_frequencies",
    "check_merge_pair",
    "check_merge_symbols",
    "check_training_loop",
    "show_solution",
    "solution_names",
]
