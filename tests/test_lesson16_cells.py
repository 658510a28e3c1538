"""Lesson 16 runs from any section: a learner who skips a section, or a slow cell, or runs a check before its
exercise, meets no NameError."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import nbformat

LESSON = Path(__file__).parent.parent / "notebooks" / "16_sentencepiece_from_scratch.ipynb"


def _names(source: str) -> tuple[set[str], set[str]]:
    """(names a cell defines, names it reads)."""
    tree = ast.parse(source)
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    stored |= {
        alias.asname or alias.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for alias in n.names
    }
    stored |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    stored |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.Lambda) for a in n.args.args}
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return stored, read - stored - set(dir(builtins))


def test_a_cell_needs_only_the_setup_cell_and_its_own_section():
    notebook = nbformat.read(LESSON, as_version=4)
    section, defined_in, problems = "top", {}, []
    setup = next(i for i, c in enumerate(notebook.cells) if c.cell_type == "code")
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            heading = re.search(r"^## (.+)$", cell.source, flags=re.M)
            section = heading.group(1) if heading else section
            continue
        if cell.cell_type != "code":
            continue
        stored, read = _names(cell.source)
        for name in sorted(read):
            where = defined_in.get(name)
            if where is not None and where[0] != setup and where[1] != section:
                problems.append(f"cell {index} ({section}) reads {name!r}, made in cell {where[0]} ({where[1]})")
        for name in stored:
            defined_in.setdefault(name, (index, section))
    assert problems == []


def test_no_section_reads_what_only_a_slow_cell_makes():
    """A cell whose output is not compared (NBVAL_IGNORE_OUTPUT) is a slow one a learner may skip."""
    notebook = nbformat.read(LESSON, as_version=4)
    slow_names: dict[str, int] = {}
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        stored, read = _names(cell.source)
        slow = cell.source.startswith("# NBVAL_IGNORE_OUTPUT")
        problems += [
            f"cell {index} reads {n!r}, made only in slow cell {slow_names[n]}" for n in read & set(slow_names)
        ]
        for name in stored:
            if slow:
                slow_names.setdefault(name, index)
            else:
                slow_names.pop(name, None)
    # the cell right after a slow one shows its results: the two are one step, run together
    assert [p for p in problems if not re.search(r"'(agreement|runs)'", p)] == []


def test_a_check_run_before_its_exercise_says_so(capsys):
    notebook = nbformat.read(LESSON, as_version=4)
    checks = [c.source for c in notebook.cells if c.cell_type == "code" and re.search(r"\bcheck_\w+\(", c.source)]
    assert len(checks) == 2
    for source in checks:
        name = re.search(r"\bcheck_(\w+)\((\w+)\)", source).group(2)
        namespace: dict[str, object] = {}
        exec("from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge", namespace)
        exec(source, namespace)  # the exercise cell was not run: no NameError
        assert f"{name} is not defined yet" in capsys.readouterr().out


def test_the_score_field_is_shown_as_the_float_it_holds():
    """``fields()`` gives a four-byte field as an integer; the lesson prints the float beside it (▁t: -2.0)."""
    notebook = nbformat.read(LESSON, as_version=4)
    cell = next(c for c in notebook.cells if c.cell_type == "code" and "fields(first)" in c.source)
    printed = "".join(o.get("text", "") for o in cell.outputs)
    assert "field 2: 0  (as a float: 0.0)" in printed
    assert "'▁t': field 2 is 3221225472 = 0xc0000000 as an integer, -2.0 as a float" in printed


def _stepper_namespace() -> dict[str, object]:
    """What the stepper cell and the cell after it read from the setup cell: a fresh kernel's names, nothing else."""
    import pandas as pd
    from IPython.display import display

    from bpelab.analysis.sentencepiece_replay import MAX_CHARACTERS, replay_sentencepiece
    from bpelab.sentencepiece import load_sentencepiece
    from bpelab.widgets import MergeStepper

    return {
        "display": display,
        "mistral": load_sentencepiece("mistral_v1"),
        "replay_sentencepiece": replay_sentencepiece,
        "MergeStepper": MergeStepper,
        "MAX_CHARACTERS": MAX_CHARACTERS,
        "pd": pd,
    }


def _stepper_cells() -> tuple[str, str]:
    notebook = nbformat.read(LESSON, as_version=4)
    stepper = next(c.source for c in notebook.cells if c.cell_type == "code" and "MergeStepper(replay" in c.source)
    table = next(c.source for c in notebook.cells if c.cell_type == "code" and "replay.single_steps" in c.source)
    return stepper, table


def _with_learners_text(stepper_cell: str, text: str) -> str:
    """The stepper cell as a learner edits it: their text where the cell says a sentence of theirs goes."""
    edited, count = re.subn(r"^(text_to_replay = ).*$", lambda m: m.group(1) + repr(text), stepper_cell, flags=re.M)
    assert count == 1, "the stepper cell has one line for the learner's text"
    return edited


SAME_AS_OURS = "the same as the course's encoder (SentencePieceBPE, loaded with Mistral's model) gives:"
"""The table cell compares the replay with ``mistral``, the course's own encoder, not the sentencepiece library."""


def test_a_first_run_with_a_text_too_long_says_so_and_still_defines_the_replay(capsys):
    """A learner whose FIRST run of the stepper cell has a text over MAX_CHARACTERS: the cell says why it was
    refused, draws the lesson's sentence, and the cell after it runs (it met a NameError before)."""
    from bpelab.analysis.sentencepiece_replay import MAX_CHARACTERS

    stepper_cell, table_cell = _stepper_cells()
    namespace = _stepper_namespace()
    long_text = "the cat sat on the mat. " * (MAX_CHARACTERS // 20)
    exec(_with_learners_text(stepper_cell, long_text), namespace)
    said = capsys.readouterr().out
    assert f"at most {MAX_CHARACTERS:,} characters" in said and "instead" in said, said
    assert namespace["replay"].text == "The robot 🤖 sat on the mat, and the cat sat on the robot."
    exec(table_cell, namespace)
    assert f"{SAME_AS_OURS} True" in capsys.readouterr().out


def test_a_learners_own_short_text_is_replayed(capsys):
    stepper_cell, table_cell = _stepper_cells()
    namespace = _stepper_namespace()
    exec(_with_learners_text(stepper_cell, "Hello   world, hello!"), namespace)
    assert namespace["replay"].text == "Hello   world, hello!"
    exec(table_cell, namespace)
    assert f"{SAME_AS_OURS} True" in capsys.readouterr().out


def test_the_table_cell_run_before_the_stepper_cell_says_what_to_run(capsys):
    _, table_cell = _stepper_cells()
    namespace = _stepper_namespace()
    exec(table_cell, namespace)  # no NameError
    assert "run the stepper cell above" in capsys.readouterr().out


def test_the_empty_lines_printed_are_the_files_empty_lines():
    """Counted here line by line (a file's final newline ends its last line; it opens no empty one)."""
    from bpelab.corpora import read_corpus

    empty = 0
    for name in ["english_train", "english_more", "english_heldout", "code"]:
        lines = read_corpus(name).splitlines(keepends=True)
        empty += sum(line == "\n" for line in lines)
    notebook = nbformat.read(LESSON, as_version=4)
    cell = next(c for c in notebook.cells if c.cell_type == "code" and "empty lines" in c.source and c.outputs)
    printed = "".join(o.get("text", "") for o in cell.outputs)
    assert f"(their {empty:,} empty lines left out" in printed, printed
