"""Read 21 of lessons 00-04 (fixBM): the findings fixed, each held by a test."""

from __future__ import annotations

from bpelab.exercises import check_merge_pair
from tests.shown_solutions import shown_solution

# ---- finding 1: merge_pair returns word_freq itself when no word contains the pair ----------------------------------


def _merge_symbols():
    return shown_solution("04", "cell-12", "my_merge_symbols")


def test_merge_pair_returning_its_input_when_nothing_changes_fails():
    merge_symbols = _merge_symbols()

    def my_merge_pair(word_freq, pair):
        if not any(pair in zip(word, word[1:]) for word in word_freq):
            return word_freq  # nothing to merge: hand back the table as it is
        new = {}
        for word, count in word_freq.items():
            merged = merge_symbols(word, pair)
            new[merged] = new.get(merged, 0) + count
        return new

    result = check_merge_pair(my_merge_pair, record=False)
    assert not result.passed
    assert "word_freq itself" in result.message
    assert "new dict even when" in result.message


def test_merge_pair_shown_solution_still_passes():
    merge_symbols = _merge_symbols()
    fn = shown_solution("04", "cell-18", "my_merge_pair", merge_symbols=merge_symbols)
    assert check_merge_pair(fn, record=False).passed


# ---- finding 2: "one symbol per merge" fails when the text spells the marker ----------------------------------------


def _cells(lesson):
    import nbformat

    from tests.shown_solutions import lesson_path

    return {cell.id: cell for cell in nbformat.read(lesson_path(lesson), as_version=4).cells}


def test_one_symbol_per_merge_is_scoped_and_its_exception_computed():
    cells = _cells("04")
    for cell_id in ("cell-25", "cell-46", "cell-50"):
        assert "marker" in cells[cell_id].source.split("one symbol", 1)[1][:250], cell_id
    example = cells["cell-47"]
    assert 'train_bpe("a</w> " * 3 + "b</w> " * 2, 5)' in example.source
    printed = "".join(out.get("text", "") for out in example.outputs)
    assert "12 entries, 11 distinct" in printed


# ---- finding 5: the stepper driven from code on a corpus of fewer than 3 merges -------------------------------------


def test_stepper_cell_runs_on_a_corpus_of_one_merge():
    from bpelab.widgets.stepper import MergeStepper
    from bpelab.words import train_bpe

    code = _cells("04")["cell-32"].source
    exec(code, {"stepper": MergeStepper(train_bpe("ab ab", 5)), "print": lambda *a: None})


# ---- finding 3: Python 3.11.0-3.11.4, which pyproject allows, is a warning (no exact pins), not a problem -----------


def test_python_below_the_pins_but_allowed_by_pyproject_is_a_warning():
    import re

    from bpelab.course import setup_check
    from bpelab.paths import REPO_ROOT

    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (requires,) = re.findall(r'^requires-python\s*=\s*">=([\d.]+)"', pyproject, re.MULTILINE)
    assert ".".join(map(str, setup_check.REQUIRES_PYTHON)) == requires
    assert setup_check.check_python(found=(3, 10, 12)).status == setup_check.PROBLEM
    between = setup_check.check_python(found=(3, 11, 4))
    assert between.status == setup_check.WARNING
    assert "3.11.5" in between.detail and "pins" in between.detail
    assert setup_check.check_python(found=(3, 11, 5)).status == setup_check.OK
    lesson = _cells("00")["6c42bb60"].source
    assert "3.11 or newer" in lesson and "3.11.5 or newer" in lesson and "⚠️" in lesson.split("3.11.5", 1)[1][:300]


# ---- finding 4: output computed with Python's re was labelled "regex" (lesson 02 section 3b shows they differ) -----


def test_pieces_are_labelled_by_the_module_that_cuts_them():
    lesson02 = _cells("02")
    for cell_id in ("deb1c8b6", "e6948ece"):
        cell = lesson02[cell_id]
        printed = "".join(out.get("text", "") for out in cell.outputs)
        assert "re.findall" in cell.source and "regex" not in printed, cell_id
        assert "re.findall:" in printed, cell_id
    assert "regex.findall(" in _cells("01")["9a2ab4e2"].source  # "lesson 02 builds this split": with regex


# ---- finding 9: byte_count rounded with np.round: the hint names it --------------------------------------------------


def test_byte_count_with_np_round_gets_a_hint_naming_it():
    import numpy as np

    from bpelab.exercises import check_byte_count

    def byte_count(text):
        n_bytes, n_chars = len(text.encode("utf-8")), len(text)
        ratio = np.round(n_bytes / n_chars, 2) if n_chars else 0.0
        return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": ratio}

    result = check_byte_count(byte_count, record=False)
    assert not result.passed
    assert "np.round" in result.message and "half to even" in result.message


# ---- findings 6, 7, 8: the surrogates' range, UTF-8's reach, what the progress file holds ---------------------------


def test_lesson_01_surrogates_and_utf8_sentences():
    cells = _cells("01")
    assert "one reserved range, the *surrogates*" in cells["c9fe086e"].source
    utf8 = cells["300e38bf"].source
    assert "Almost all text" not in utf8 and "UTF-16 (Windows, Java, JavaScript)" in utf8


def test_lesson_00_says_the_progress_file_holds_its_format_too():
    from bpelab.course.progress import FORMAT

    text = _cells("00")["fefd7727"].source
    assert "Nothing else is in it" not in text and f'"format": "{FORMAT}"' in text
