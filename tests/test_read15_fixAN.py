"""Lessons 05 and 07, fifteenth fresh read (fixAN): the case-change sentence and the toy column's unknown characters
said as computed, the regex crate's bounded backtracker and analyze.rs's option-dependent `hard` marks said exactly,
PR #234's title quoted exactly, and three checker hints that name the real bug."""

from __future__ import annotations

from pathlib import Path

import nbformat
import regex

from bpelab.exercises.decoding import DECODE_WORDS, check_decode_words
from bpelab.exercises.real_tokenizers import check_find_parents, check_split_pieces
from bpelab.patterns import PATTERNS, split_text
from tests.shown_solutions import shown_solution

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _cells(name: str) -> list:
    return nbformat.read(NOTEBOOKS / name, as_version=4).cells


def _lesson05() -> list:
    return _cells("05_encoding_and_decoding.ipynb")


def _lesson07() -> list:
    return _cells("07_regex_and_real_tokenizers.ipynb")


def _cell(cells: list, cell_id: str):
    return next(c for c in cells if c.get("id") == cell_id)


def _output(cell) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs)


def _hint(result) -> str:
    return next(line for line in result.message.splitlines() if line.strip().startswith("hint:"))


# ---- finding 1: lesson 07's case-change bullet said the three others keep WE'REnot whole -------------------------

CONTRACTION_WORDS = ["I'mma", "don'tcha", "it'sabc", "WE'REnot"]


def test_the_other_three_patterns_cut_every_word_with_a_contraction():
    for word in CONTRACTION_WORDS:
        for name in ("gpt2", "cl100k", "llama3"):
            assert len(regex.findall(PATTERNS[name], word)) == 3, (word, name)
    assert split_text("WE'REnot", "gpt2") == ["WE", "'", "REnot"]
    assert split_text("WE'REnot", "cl100k") == split_text("WE'REnot", "llama3") == ["WE", "'RE", "not"]


def test_the_case_change_bullet_says_what_the_other_three_do_with_a_contraction():
    text = " ".join(_cell(_lesson07(), "4cd4f998").source.split())
    assert "The three others keep all of these whole" not in text
    assert "`WE` + `'` + `REnot`" in text and "`WE` + `'RE` + `not`" in text, text


def test_the_case_change_cell_prints_the_contraction_words_for_all_four_patterns():
    output = _output(_cell(_lesson07(), "case-changes-code"))
    for word in CONTRACTION_WORDS:
        for name in ("gpt2", "cl100k", "llama3", "o200k"):
            assert f"{name} {' | '.join(split_text(word, name))}" in output, (word, name, output)


# ---- finding 2: lesson 05's toy column holds characters the toy vocabulary lacks ---------------------------------


def test_the_unseen_words_table_computes_the_toy_pieces_not_in_the_vocabulary():
    cells = _lesson05()
    table = _cell(cells, "cell-19")
    assert "toy.vocabulary" in table.source, table.source
    output = _output(table)
    for piece in ("y", "f g", "u k", "k z a"):
        assert piece in output, output
    prose = " ".join(_cell(cells, "cell-20").source.split())
    assert "toy column" in prose and "not in the toy vocabulary" in prose, prose
    assert "Every piece in the table is a symbol of the vocabulary" not in prose


# ---- findings 3 and 4: the regex crate's backtracker, and analyze.rs's options -----------------------------------


def test_the_regex_crate_is_said_to_have_a_bounded_backtracker_on_short_inputs():
    text = _cell(_lesson07(), "7ba78969").source
    assert "which keeps no stack of places to backtrack to" not in text
    for needle in ("BoundedBacktracker", "backtrack.rs", "max_haystack_len", "2b52759", "recurs"):
        assert needle in text, needle


def test_analyze_rs_hard_marks_are_scoped_to_tiktokens_options():
    text = _cell(_lesson07(), "7ba78969").source
    assert "What `analyze.rs` marks `hard`:" not in text
    for needle in (
        "options tiktoken",
        "169–171",
        "allow_input_assertion_overrides",
        "173–177",
        "disallow_empty_match_at_eof_after_newline",
        "179–183",
        "find_not_empty",
        "556",
        "901",
    ):
        assert needle in text, needle


# ---- finding 5: PR #234's title -----------------------------------------------------------------------------------


def test_pr_234_title_is_quoted_exactly():
    text = _cell(_lesson07(), "tiktoken-history-md").source
    assert '"Optimize regular expressions used for splitting by ~20%"' not in text
    assert '"1) Optimize regular expressions used for splitting by ~20%"' in text


# ---- finding 6: split_pieces returning bytes ----------------------------------------------------------------------


def split_pieces_as_bytes(text, pattern):
    return [p.encode() for p in regex.findall(pattern, text)]


def test_bytes_pieces_are_told_the_type():
    result = check_split_pieces(split_pieces_as_bytes, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "bytes" in hint and "str" in hint and "joined together" not in hint, hint


def test_the_shown_split_pieces_still_passes():
    assert check_split_pieces(shown_solution("07", "c8d29bdc", "split_pieces"), record=False).passed


# ---- finding 7: find_parents returning bytearray parts ------------------------------------------------------------


def test_bytearray_parts_are_told_bytes_expected():
    reference = shown_solution("07", "d757ddfb", "find_parents")

    def find_parents_bytearray(token, ranks):
        return tuple(bytearray(part) for part in reference(token, ranks))

    result = check_find_parents(find_parents_bytearray, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "bytes expected" in hint and "bytearray is another type" in hint, hint


# ---- finding 8: decode_words stripping a no-break space -----------------------------------------------------------


def decode_words_strips_no_break_space(symbols):
    return "".join(symbols).replace("</w>", " ").rstrip(" \xa0")


def test_a_case_ends_in_a_no_break_space_that_belongs_to_the_text():
    reference = shown_solution("05", "cell-25", "my_decode_words")
    endings = [reference(*case.args) for case in DECODE_WORDS.cases()]
    assert any(text.endswith("\xa0") for text in endings), endings


def test_stripping_the_no_break_space_is_refused_and_told_it_is_text():
    result = check_decode_words(decode_words_strips_no_break_space, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "U+00A0" in hint and "rstrip(' ')" in hint, hint


def test_the_shown_decode_words_still_passes():
    assert check_decode_words(shown_solution("05", "cell-25", "my_decode_words"), record=False).passed
