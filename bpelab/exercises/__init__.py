"""Self-checking exercises: a learner writes a function, a ``check_*`` call says what is right and what is not.

Every checker runs the learner's function on small hand-checked cases first, then a few larger
ones, compares with the reference in ``bpelab``, prints ONE plain-text report and returns a
``CheckResult`` (``bool(result)`` tells whether it passed; in a notebook it shows nothing more).
It never raises on a learner's mistake, nor hangs on a runaway function (``runaway``), and it refuses the course's
own function (the reference, or the package function it is built from, even inside a lambda,
``functools.partial`` or a ``def`` that only returns its result: ``course_functions``): there is nothing of the learner's to check. Every checker takes
``record=False`` for a demonstration: a pass then ticks nothing on the course map. The engine, and how to add
a checker: ``core``.

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

Checkers written with the later lessons, in files named after their idea:

- 00 ``warmup``: ``check_count_characters``
- 02 ``pre_tokenization``: ``check_split_words``
- 03 ``ties``: ``check_most_frequent_pairs``
- 05 ``decoding``: ``check_decode_words``
- 06 ``byte_level``: ``check_build_vocab``, ``check_decode_ids``
- 07 ``real_tokenizers``: ``check_split_pieces``, ``check_find_parents``
- 08 ``compression``: ``check_bytes_per_token``, ``check_count_unused``, ``check_smallest_vocab_size`` (the
  learner's search ``smallest_vocab_size(tokenizer, text, goal)``, judged on other tokenizers too, and by the sizes
  it measures rather than by a clock; a number alone is refused)
- 09, 10 ``practice`` (from ``multilingual_tax``, ``token_costs``, ``shorter_prompt``):
  ``check_bytes_per_char``, ``check_premium``, ``check_room_for_answer``, ``check_estimate_cost``,
  ``check_tokens_saved`` (the learner's measure of a shortened prompt; the rewrite itself is the learner's to judge)
- 11 ``beyond_bpe``: ``check_best_wordpiece_pair``, ``check_encode_wordpiece_word``
- 12 ``speed``: ``check_pair_count_changes``, ``check_merge_lowest_rank``
- 13 ``exporting``: ``check_byte_level_text``
- 14 ``parity``: ``check_parity_next_pair``, ``check_gini``
- 15 ``fair_comparisons``: ``check_group_digits``, ``check_bits_per_byte``
- 16 ``sentencepiece``: ``check_next_merge``, ``check_byte_fallback``

``show_solution(name)`` prints the reference source for an exercise.

Every checker is proven strict by mutation: ``tests/test_mutation_lessons_*.py`` takes the solution each lesson
shows, makes its single-point mutants (``tests/mutation``) and requires the checker to reject every one that
answers differently from the reference on generated inputs. A new checker gets a row in
``tests/mutation/shown.py`` and a strategy in ``tests/mutation/inputs.py``.
"""

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair, check_encode_wordpiece_word
from bpelab.exercises.byte_level import check_build_vocab, check_decode_ids
from bpelab.exercises.compression import check_bytes_per_token, check_count_unused, check_smallest_vocab_size
from bpelab.exercises.core import EXERCISES, Case, CheckResult, Exercise
from bpelab.exercises.decoding import check_decode_words
from bpelab.exercises.exporting import check_byte_level_text
from bpelab.exercises.fair_comparisons import check_bits_per_byte, check_group_digits
from bpelab.exercises.pair_counts import check_count_pairs
from bpelab.exercises.pair_merging import check_merge_pair, check_merge_symbols
from bpelab.exercises.parity import check_gini, check_parity_next_pair
from bpelab.exercises.practice import (
    check_bytes_per_char,
    check_estimate_cost,
    check_premium,
    check_room_for_answer,
    check_tokens_saved,
)
from bpelab.exercises.pre_tokenization import check_split_words
from bpelab.exercises.real_tokenizers import check_find_parents, check_split_pieces
from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from bpelab.exercises.solutions import show_solution, solution_names
from bpelab.exercises.speed import check_merge_lowest_rank, check_pair_count_changes
from bpelab.exercises.text_as_numbers import (
    check_byte_count,
    check_char_decode,
    check_char_encode,
    check_char_tokenizer,
)
from bpelab.exercises.ties import check_most_frequent_pairs
from bpelab.exercises.training_loop import check_training_loop
from bpelab.exercises.warmup import check_count_characters
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.exercises.word_frequencies import check_get_word_frequencies

__all__ = [
    "EXERCISES",
    "Case",
    "CheckResult",
    "Exercise",
    "check_best_wordpiece_pair",
    "check_bits_per_byte",
    "check_build_vocab",
    "check_byte_count",
    "check_byte_fallback",
    "check_byte_level_text",
    "check_bytes_per_char",
    "check_bytes_per_token",
    "check_char_decode",
    "check_char_encode",
    "check_char_tokenizer",
    "check_count_characters",
    "check_count_pairs",
    "check_count_unused",
    "check_decode_ids",
    "check_decode_words",
    "check_encode_word",
    "check_encode_wordpiece_word",
    "check_estimate_cost",
    "check_find_parents",
    "check_get_word_frequencies",
    "check_gini",
    "check_group_digits",
    "check_merge_lowest_rank",
    "check_merge_pair",
    "check_merge_symbols",
    "check_most_frequent_pairs",
    "check_next_merge",
    "check_pair_count_changes",
    "check_parity_next_pair",
    "check_premium",
    "check_room_for_answer",
    "check_smallest_vocab_size",
    "check_split_pieces",
    "check_split_words",
    "check_tokens_saved",
    "check_training_loop",
    "show_solution",
    "solution_names",
]
