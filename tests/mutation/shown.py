"""The solutions the lessons show, read from the notebooks, each with the checker that judges it.

A lesson shows its solution in a ``<details>`` block of a markdown cell, as a ```` ```python ```` block. ``SHOWN``
names, for each exercise, the notebook and cell it comes from, the names it defines (each the learner's version
of an exercise's function), the globals the lesson gives it, and how its checker is called.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bpelab import exercises as ex
from bpelab.exercises.results import CheckResult

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def solution_blocks(notebook: str) -> dict[str, str]:
    """The python blocks inside ``<details>`` of each markdown cell of ``notebook``, by cell id."""
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    found = {}
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown":
            continue
        blocks = [
            code
            for details in re.findall(r"<details.*?</details>", source, re.S)
            for code in re.findall(r"```python\n(.*?)```", details, re.S)
        ]
        if blocks:
            found[cell["id"]] = "\n\n".join(blocks)
    return found


def _check(
    checker: Callable[..., CheckResult], *extra: Any
) -> Callable[[dict[str, Any], tuple[str, ...]], CheckResult]:
    def run(namespace: dict[str, Any], names: tuple[str, ...]) -> CheckResult:
        return checker(*(namespace[name] for name in names), *extra, record=False)

    return run


def _check_search(namespace: dict[str, Any], names: tuple[str, ...]) -> CheckResult:
    """Lesson 08's checker on the search, with a small tokenizer of its own for the final number (the lesson's
    7,000-token tokenizer would make each of hundreds of mutants train and search it; the checker's own cases are what judge the search)."""
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    (name,) = names
    return ex.check_smallest_vocab_size(namespace[name], _paragraph(), PARAGRAPH, within=0.6, record=False)


def _words_namespace() -> dict[str, Any]:
    from bpelab import words

    return {
        name: getattr(words, name)
        for name in ("merge_symbols", "count_pairs", "get_word_frequencies", "best_pair", "merge_pair")
    }


def _compression_namespace() -> dict[str, Any]:
    from bpelab.analysis.compression import bytes_per_token

    return {"bytes_per_token": bytes_per_token}


@dataclass(frozen=True)
class Shown:
    """One shown solution and how its checker is called."""

    notebook: str
    cell: str
    parts: tuple[tuple[str, str], ...]
    """(name the solution defines, exercise whose reference and inputs judge it)."""
    check: Callable[[dict[str, Any], tuple[str, ...]], CheckResult]
    namespace: Callable[[], dict[str, Any]] = dict
    notes: str = field(default="")

    @property
    def name(self) -> str:
        return self.parts[0][1] if len(self.parts) == 1 else "char_tokenizer"

    def source(self) -> str:
        return solution_blocks(self.notebook)[self.cell]

    def build(self, source: str) -> dict[str, Any]:
        """Run ``source`` (the shown code or a mutant) as the lesson's cell would, in a fresh namespace."""
        namespace = self.namespace()
        exec(compile(source, f"<{self.notebook} {self.cell}>", "exec"), namespace)
        return namespace

    def run_check(self, namespace: dict[str, Any]) -> CheckResult:
        with contextlib.redirect_stdout(io.StringIO()):
            return self.check(namespace, tuple(name for name, _ in self.parts))


def _one(notebook: str, cell: str, name: str, exercise: str, checker: Callable[..., CheckResult], **kw: Any) -> Shown:
    return Shown(notebook, cell, ((name, exercise),), _check(checker), **kw)


L08 = "08_compression_curves.ipynb"
SHOWN: list[Shown] = [
    _one("00_start_here.ipynb", "eb2a14a6", "count_characters", "count_characters", ex.check_count_characters),
    _one("01_text_is_numbers.ipynb", "66d0d7f6", "byte_count", "byte_count", ex.check_byte_count),
    Shown(
        "01_text_is_numbers.ipynb",
        "c18ee35c",
        (("encode", "char_encode"), ("decode", "char_decode")),
        _check(ex.check_char_tokenizer),
    ),
    _one("02_from_text_to_symbols.ipynb", "d5ee8564", "split_words", "split_words", ex.check_split_words),
    _one(
        "02_from_text_to_symbols.ipynb",
        "c797b8c4",
        "get_word_frequencies",
        "get_word_frequencies",
        ex.check_get_word_frequencies,
    ),
    _one("03_counting_pairs.ipynb", "81ea6bc5", "count_pairs", "count_pairs", ex.check_count_pairs),
    _one(
        "03_counting_pairs.ipynb",
        "94df812c",
        "most_frequent_pairs",
        "most_frequent_pairs",
        ex.check_most_frequent_pairs,
    ),
    _one("04_merging_step_by_step.ipynb", "cell-12", "my_merge_symbols", "merge_symbols", ex.check_merge_symbols),
    _one(
        "04_merging_step_by_step.ipynb",
        "cell-18",
        "my_merge_pair",
        "merge_pair",
        ex.check_merge_pair,
        namespace=_words_namespace,
    ),
    _one(
        "04_merging_step_by_step.ipynb",
        "cell-24",
        "my_train",
        "train",
        ex.check_training_loop,
        namespace=_words_namespace,
    ),
    _one("05_encoding_and_decoding.ipynb", "cell-10", "my_encode_word", "encode_word", ex.check_encode_word),
    _one("05_encoding_and_decoding.ipynb", "cell-25", "my_decode_words", "decode_words", ex.check_decode_words),
    _one("06_byte_level_bpe.ipynb", "92b531a9", "build_vocab", "build_vocab", ex.check_build_vocab),
    _one("06_byte_level_bpe.ipynb", "36cc064b", "decode_ids", "decode_ids", ex.check_decode_ids),
    _one("07_regex_and_real_tokenizers.ipynb", "c8d29bdc", "split_pieces", "split_pieces", ex.check_split_pieces),
    _one("07_regex_and_real_tokenizers.ipynb", "d757ddfb", "find_parents", "find_parents", ex.check_find_parents),
    _one(L08, "685f61b7", "bytes_per_token", "bytes_per_token", ex.check_bytes_per_token),
    _one(L08, "f1bf594d", "count_unused", "count_unused", ex.check_count_unused),
    Shown(
        L08,
        "b1601561",
        (("my_smallest_vocab_size", "smallest_vocab_size"),),
        _check_search,
        namespace=_compression_namespace,
    ),
    _one("09_multilingual_tax.ipynb", "2af417a5", "bytes_per_char", "bytes_per_char", ex.check_bytes_per_char),
    _one("09_multilingual_tax.ipynb", "f2f02465", "premium", "premium", ex.check_premium),
    _one("10_tokens_in_practice.ipynb", "a623ba85", "estimate_cost", "estimate_cost", ex.check_estimate_cost),
    _one("10_tokens_in_practice.ipynb", "e1467e07", "room_for_answer", "room_for_answer", ex.check_room_for_answer),
    _one("10_tokens_in_practice.ipynb", "697bbab0", "tokens_saved", "tokens_saved", ex.check_tokens_saved),
    _one(
        "11_beyond_bpe.ipynb",
        "10c48b97",
        "best_wordpiece_pair",
        "best_wordpiece_pair",
        ex.check_best_wordpiece_pair,
        namespace=_words_namespace,
    ),
    _one(
        "11_beyond_bpe.ipynb",
        "fa80ff2b",
        "encode_wordpiece_word",
        "encode_wordpiece_word",
        ex.check_encode_wordpiece_word,
    ),
    _one(
        "12_making_bpe_fast.ipynb", "3b0c8f6c", "pair_count_changes", "pair_count_changes", ex.check_pair_count_changes
    ),
    _one("12_making_bpe_fast.ipynb", "6cb63663", "merge_lowest_rank", "merge_lowest_rank", ex.check_merge_lowest_rank),
    _one(
        "13_your_tokenizer_for_real.ipynb", "b75abb36", "byte_level_text", "byte_level_text", ex.check_byte_level_text
    ),
    _one("14_fairer_merges_bigger_tokens.ipynb", "bb6b346e", "gini", "gini", ex.check_gini),
    _one(
        "14_fairer_merges_bigger_tokens.ipynb",
        "d664281c",
        "parity_next_pair",
        "parity_next_pair",
        ex.check_parity_next_pair,
    ),
    _one(
        "15_numbers_glitches_fair_comparisons.ipynb", "6b092310", "group_digits", "group_digits", ex.check_group_digits
    ),
    _one(
        "15_numbers_glitches_fair_comparisons.ipynb",
        "c61936d5",
        "bits_per_byte",
        "bits_per_byte",
        ex.check_bits_per_byte,
    ),
    _one("16_sentencepiece_from_scratch.ipynb", "a16e0c01", "next_merge", "next_merge", ex.check_next_merge),
    _one("16_sentencepiece_from_scratch.ipynb", "a16e0c02", "byte_fallback", "byte_fallback", ex.check_byte_fallback),
]
"""Every shown solution of a function (all 35 ``<details>`` solutions of lessons 00–16)."""

NOT_A_FUNCTION: dict[tuple[str, str], str] = {}
"""Shown solutions that are not code the mutator can change, and why (the test checks this list is complete)."""
