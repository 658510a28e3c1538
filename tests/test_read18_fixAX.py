"""Lesson 16, a fresh review's findings (fixAX): what cells 31 and 47 say about the sentencepiece versions tried, the
pieces SentencePieceTrainer scores +0.0, a long list of symbols in check_next_merge, and hints for a KeyError in
next_merge and for byte_fallback answers that drop U+FEFF or a zero-width character or write a byte piece once."""

from __future__ import annotations

import fnmatch
import time

import nbformat
import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from tests.compat import run_compat
from tests.lesson16_solutions import LESSON, hint, shown_solution

SPACE = "\u2581"
VERSIONS_FILE = "tests/test_sentencepiece_versions.py"


def cell(cell_id: str) -> str:
    return next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id).source


def flat(text: str) -> str:
    return " ".join(text.split())


# Finding 1: cell 31 names a test file the compat unit tests never ran.


def test_cell_31_names_the_file_the_compat_unit_tests_run_and_which_versions_run_it():
    text = flat(cell("a16e0f01"))
    assert "test_lesson16_fresh_read_g.py" not in text
    assert f"`{VERSIONS_FILE}`" in text
    left_out = [g for g in run_compat.UNIT_TESTS_LEFT_OUT_GLOBS if fnmatch.fnmatch(VERSIONS_FILE, g)]
    assert left_out == []
    for said in ("0.2.3 in `make test`", "0.2.0 in `make test-compat`", "0.2.1 only when"):
        assert said in text, said
    assert 'COMPAT_ARGS="3.13 lowest-direct"' in text


def test_the_zero_tie_test_lives_where_every_version_runs_it():
    from tests import test_lesson16_fresh_read_g, test_sentencepiece_versions

    name = "test_minus_zero_and_plus_zero_tie_in_the_course_but_not_in_sentencepiece_0_2_2_on"
    assert hasattr(test_sentencepiece_versions, name)
    assert not hasattr(test_lesson16_fresh_read_g, name)


# Finding 2: cell 47 says make test-compat "tries" 0.2.0 or 0.2.1.


def test_cell_47_says_which_sentencepiece_each_default_run_of_make_test_compat_installs():
    text = flat(cell("a16e0021"))
    assert "the lowest versions `pyproject.toml` allows and `make test-compat` tries" not in text
    said_runs = "with 0.2.0 (Python 3.11 at the lowest versions) and with 0.2.3 (Python 3.13 at the newest)"
    for said in (said_runs, "0.2.1, Python 3.13's lowest, only when that corner is named", "359", "325"):
        assert said in text, said
    assert VERSIONS_FILE in text


# Finding 3: +0.0 for every meta piece, <pad> and control_symbols included.


def test_cell_31_gives_plus_zero_to_every_meta_piece_with_its_source_lines():
    text = flat(cell("a16e0f01"))
    assert "exactly these pieces" not in text
    for said in ("`<pad>`", "control_symbols", "`InitMetaPieces`", "`Serialize`", "trainer_interface.cc"):
        assert said in text, said
    code = cell("a16e0f02")
    assert "pad_id=" in code and "control_symbols=" in code


def test_cell_32_shows_pad_and_a_control_symbol_at_plus_zero():
    notebook = nbformat.read(LESSON, as_version=4)
    trained = next(c for c in notebook.cells if c.id == "a16e0f02")
    printed = "".join(o.get("text", "") for o in trained.outputs)
    assert "'<pad>'" in printed and "'<ctl>'" in printed, printed


# Finding 4: no case of check_next_merge was longer than 66 symbols.


def _loop_over_the_first(n: int):
    def next_merge(symbols, scores):
        best = None
        for i in range(min(len(symbols), n) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    return next_merge


@pytest.mark.parametrize("n", [55, 100, 1000])
def test_a_scan_of_only_the_first_symbols_is_refused_and_named(n, capsys):
    assert not check_next_merge(_loop_over_the_first(n), record=False).passed
    said = hint(capsys.readouterr().out)
    assert "only the first" in said and "symbols" in said, said


def test_a_recursive_answer_is_refused_with_a_hint_for_a_loop(capsys):
    def next_merge(symbols, scores, i=0):
        if i >= len(symbols) - 1:
            return None
        rest = next_merge(symbols, scores, i + 1)
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (rest is None or scores[piece] >= scores[symbols[rest] + symbols[rest + 1]]):
            return i
        return rest

    assert not check_next_merge(next_merge, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "RecursionError" in said and "loop" in said, said


def test_the_shown_solution_still_passes_and_the_check_stays_fast(capsys):
    started = time.perf_counter()
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert time.perf_counter() - started < 5
    capsys.readouterr()


# Finding 5: hints that stayed generic.


def test_a_key_error_from_scores_of_a_pair_that_is_no_piece_is_named(capsys):
    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                best = i
        return best

    assert not check_next_merge(next_merge, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "KeyError" in said and "piece in scores" in said and "scores.get" in said, said


def _falls_back(clean=lambda piece: piece, spell=lambda piece: piece.encode("utf-8")):
    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            piece = clean(piece)
            if not piece:
                continue
            if piece in vocab:
                out.append(piece)
            else:
                out.extend(f"<0x{b:02X}>" for b in spell(piece))
        return out

    return byte_fallback


@pytest.mark.parametrize(
    ("clean", "named"),
    [
        (lambda piece: piece.replace("\ufeff", ""), "U+FEFF"),
        (lambda piece: piece.strip("\ufeff"), "U+FEFF"),
        (lambda piece: piece.replace("\u200b", ""), "U+200B"),
        (lambda piece: piece.replace("\u200b", "").replace("\ufeff", ""), "U+200B"),
    ],
)
def test_dropping_a_bom_or_a_zero_width_space_is_named(clean, named, capsys):
    assert not check_byte_fallback(_falls_back(clean=clean), record=False).passed
    said = hint(capsys.readouterr().out)
    assert "you dropped" in said and named in said, said


@pytest.mark.parametrize(
    "spell",
    [
        lambda piece: dict.fromkeys(piece.encode("utf-8")),
        lambda piece: sorted(set(piece.encode("utf-8"))),
        lambda piece: set(piece.encode("utf-8")),
    ],
)
def test_writing_each_byte_of_a_piece_once_is_named(spell, capsys):
    assert not check_byte_fallback(_falls_back(spell=spell), record=False).passed
    said = hint(capsys.readouterr().out)
    assert "once" in said and "twice" in said, said


def test_a_byte_piece_kept_once_in_the_output_is_named(capsys):
    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab:
                out.append(piece)
            else:
                for b in piece.encode("utf-8"):
                    if f"<0x{b:02X}>" not in out:
                        out.append(f"<0x{b:02X}>")
        return out

    assert not check_byte_fallback(byte_fallback, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "once" in said and "not in out" in said, said
