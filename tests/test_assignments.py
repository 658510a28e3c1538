"""``make assignments``: every lesson's exercises become nbgrader and Otter notebooks built from the lesson itself.

The round trips through the tools themselves are in ``test_assignments_nbgrader.py`` and ``test_assignments_otter.py``;
here: what the generator writes for every lesson, and the grading helper the written tests call.
"""

from __future__ import annotations

import ast
import json
import re

import nbformat
import pytest

from bpelab.course import assignments
from bpelab.course.grading import assert_passes, count_cases, only_cases
from bpelab.course.lesson_exercises import find_exercises, solution_cell
from bpelab.exercises import check_count_pairs
from bpelab.exercises.core import Exercise
from tests.mutation.shown import NOT_A_FUNCTION, SHOWN, solution_blocks

LESSONS = sorted(assignments.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("assignments")
    assignments.write(out)
    return out


def _cells(path, **where):
    notebook = nbformat.read(path, as_version=4)
    return [cell for cell in notebook.cells if all(cell.get(key) == value for key, value in where.items())]


def _graded(path, kind):
    return [cell for cell in nbformat.read(path, as_version=4).cells if cell.metadata.get("nbgrader", {}).get(kind)]


def _functions(source):
    """Each top-level function's name and body, as ast dumps (comments and markers aside)."""
    tree = ast.parse(source)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            out[node.name] = [ast.dump(statement) for statement in body]
        elif isinstance(node, ast.Assign):
            out[ast.unparse(node.targets[0])] = [ast.dump(node.value)]
    return out


def test_every_shown_solution_becomes_one_graded_exercise(written):
    """The 35 "Show a solution" blocks of lessons 00–16, the same the mutation test judges, and no other."""
    per_lesson = {path.name: len(solution_blocks(path.name)) for path in LESSONS}
    assert sum(per_lesson.values()) == len(SHOWN) + len(NOT_A_FUNCTION) == 35
    for path in LESSONS:
        source = written / "nbgrader" / "source" / path.stem / path.name
        solutions, tests = _graded(source, "solution"), _graded(source, "grade")
        assert len(solutions) == len(tests) == per_lesson[path.name], path.name
        ids = [cell.metadata.nbgrader.grade_id for cell in solutions + tests]
        assert len(set(ids)) == len(ids), f"{path.name}: grade ids repeat: {ids}"
        assert all(cell.metadata.nbgrader.points == assignments.POINTS for cell in tests)
        assert all(cell.metadata.nbgrader.locked and not cell.metadata.nbgrader.solution for cell in tests)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_the_solution_cells_hold_the_shown_solutions_and_no_solution_is_left_in_view(written, path):
    source = written / "nbgrader" / "source" / path.stem / path.name
    shown = solution_blocks(path.name)
    solutions = _graded(source, "solution")
    for cell, block in zip(solutions, shown.values()):
        assert cell.source.count("### BEGIN SOLUTION") == cell.source.count("### END SOLUTION") >= 1
        without_markers = re.sub(r"^\s*### (BEGIN|END) SOLUTION\n", "", cell.source, flags=re.M)
        theirs = _functions(block)
        ours = _functions(without_markers)
        assert {name: ours.get(name) for name in theirs} == theirs, f"{path.name}: {cell.metadata.nbgrader.grade_id}"
    for master in (source, written / "otter" / path.name):
        text = master.read_text(encoding="utf-8")
        assert "<summary>Show a solution</summary>" not in text, f"{master}: a shown solution is still in the hand-out"
        assert '"widgets"' not in json.loads(text)["metadata"], "saved widget state belongs to the lessons only"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_nbgrader_releases_the_lessons_stubs(written, path):
    """nbgrader's own ClearSolutions turns each solution cell back into the lesson's stub: same names, same
    parameters, a body that only raises."""
    ClearSolutions = pytest.importorskip(
        "nbgrader.preprocessors", reason="nbgrader is in the teach extra"
    ).ClearSolutions

    source = nbformat.read(written / "nbgrader" / "source" / path.stem / path.name, as_version=4)
    released, _ = ClearSolutions().preprocess(source, {})
    lesson = nbformat.read(path, as_version=4)
    for exercise, cell in zip(find_exercises(lesson, path.name), _solution_cells(released)):
        stub = ast.parse(lesson.cells[exercise.stub].source)
        ours = ast.parse(cell.source)
        for node in stub.body:
            if isinstance(node, ast.FunctionDef):
                mine = next(n for n in ours.body if isinstance(n, ast.FunctionDef) and n.name == node.name)
                assert ast.dump(mine.args) == ast.dump(node.args)
                assert isinstance(mine.body[-1], ast.Raise), ast.unparse(mine)
        assert "BEGIN SOLUTION" not in cell.source


def _solution_cells(notebook):
    return [cell for cell in notebook.cells if cell.metadata.get("nbgrader", {}).get("solution")]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_otter_masters_are_well_formed(written, path):
    """Every block opened is closed in order, every question has its solution and tests, and each test cell is one
    function (Otter's rule for exception-based tests) whose arguments the lesson defines."""
    cells = nbformat.read(written / "otter" / path.name, as_version=4).cells
    assert cells[0].cell_type == "raw" and cells[0].source.startswith("# ASSIGNMENT CONFIG")
    open_blocks: list[str] = []
    questions = []
    for cell in cells:
        if cell.cell_type == "raw":
            first = cell.source.splitlines()[0]
            kind = first.removeprefix("# BEGIN ").removeprefix("# END ")
            if first.startswith("# BEGIN "):
                open_blocks.append(kind)
                if kind == "QUESTION":
                    questions.append(re.search(r"^name: (\w+)$", cell.source, re.M).group(1))  # type: ignore[union-attr]
            elif first.startswith("# END "):
                assert open_blocks and open_blocks.pop() == kind, f"{path.name}: {first} closes nothing"
        elif open_blocks[-1:] == ["TESTS"]:
            tree = ast.parse(cell.source)
            functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
            assert len(functions) == 1 and len(tree.body) == 2, cell.source  # the config string and the def
    assert not open_blocks
    assert len(questions) == len(set(questions)) == len(solution_blocks(path.name))


def test_each_test_calls_the_checker_its_lesson_calls(written):
    lesson = LESSONS[4]  # 04: three checkers imported by its first check cell, the two others rely on that import
    exercises = find_exercises(nbformat.read(lesson, as_version=4), lesson.name)
    tests = _graded(written / "nbgrader" / "source" / lesson.stem / lesson.name, "grade")
    assert [e.checker for e in exercises] == ["check_merge_symbols", "check_merge_pair", "check_training_loop"]
    for exercise, test in zip(exercises, tests):
        assert f"from bpelab.exercises import {exercise.checker}\n" in test.source
        assert f"assert_passes({exercise.checker}, {exercise.names[0]}, cases=" in test.source


def test_the_hidden_part_holds_the_computed_cases_where_a_checker_has_both():
    written_count, computed_count = count_cases("check_count_pairs")
    # computed: the words that hold one pair three times and more (read 13), the paragraph, the 150 made-up words
    assert (written_count, computed_count) == (8, 3)
    assert count_cases("check_split_pieces")[0] == 0  # every answer from the reference: nothing to split
    lesson = assignments.NOTEBOOKS / "07_regex_and_real_tokenizers.ipynb"
    by_name = {e.name: e for e in find_exercises(nbformat.read(lesson, as_version=4), lesson.name)}
    assert "HIDDEN" not in assignments.nbgrader_test(by_name["split_pieces"])
    assert "cases='all'" in assignments.nbgrader_test(by_name["split_pieces"])
    hidden = assignments.nbgrader_test(by_name["find_parents"]).split("### BEGIN HIDDEN TESTS")[1]
    assert "cases='computed'" in hidden


# ---- the grading helper -----------------------------------------------------------------------------------


def _short_words_only(word_freq):
    """count_pairs right on the short hand-checked cases, wrong on a corpus of more than 12 different words."""
    counts = {}
    for word, freq in list(word_freq.items())[:12]:
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def test_written_and_computed_cases_judge_separately(monkeypatch, tmp_path):
    progress = tmp_path / "progress.json"
    monkeypatch.setenv("BPELAB_PROGRESS_FILE", str(progress))
    assert_passes(check_count_pairs, _short_words_only, cases="written")
    with pytest.raises(AssertionError, match=r"the larger, hidden cases\)\n❌ count_pairs: check \d+ of 3 failed"):
        assert_passes(check_count_pairs, _short_words_only, cases="computed")
    with pytest.raises(AssertionError, match="not yet"):
        assert_passes(check_count_pairs, lambda word_freq: None)
    assert not progress.exists(), "a grader's pass ticked a course map"


def test_only_cases_leaves_the_checkers_as_they_were():
    before = Exercise.build_cases
    with only_cases("computed"):
        assert Exercise.build_cases is not before
    assert Exercise.build_cases is before
    with pytest.raises(ValueError, match="cases must be one of all, written, computed"), only_cases("hidden"):  # type: ignore[arg-type]
        pass


def test_solution_cell_keeps_the_stub_and_hides_helpers_and_values():
    stub = 'def f(a, b):\n    """Doc."""\n    # your code here\n    ...\n'
    solution = 'import math\n\n\ndef _helper(x):\n    return x\n\n\ndef f(a, b):\n    """Other doc."""\n    return _helper(a) + math.floor(b)\n'
    cell = solution_cell(stub, solution, "# BEGIN SOLUTION", "# END SOLUTION")
    assert cell == (
        "import math\n"
        "# BEGIN SOLUTION\ndef _helper(x):\n    return x\n# END SOLUTION\n\n\n"
        'def f(a, b):\n    """Doc."""\n    # your code here\n'
        "    # BEGIN SOLUTION\n    return _helper(a) + math.floor(b)\n    # END SOLUTION\n"
    )
    value = solution_cell("x = ...  # a string\n", 'x = (\n    "a"\n)\n', "# BEGIN SOLUTION", "# END SOLUTION")
    assert value == 'x = ...  # a string\n# BEGIN SOLUTION\nx = (\n    "a"\n)\n# END SOLUTION\n'
    with pytest.raises(ValueError, match=r"the solution's f takes \(a\) but the stub's takes \(a, b\)"):
        solution_cell(stub, "def f(a):\n    return a\n", "# BEGIN SOLUTION", "# END SOLUTION")


def test_the_teachers_pins_agree_with_the_course_and_the_test_pins():
    from tests.test_packaging import COURSE, TEST, read_pins

    teach = read_pins(assignments.REPO_ROOT / "requirements-teach.txt")
    assert {"nbgrader", "otter-grader"} <= set(teach) <= set(TEST)
    assert not {"nbgrader", "otter-grader"} & set(COURSE), "a learner's pins hold a teacher's tool"
    # (a marker may differ: the test file has the same package without playwright's platform limit)
    for pins, other in ((COURSE, "requirements.txt"), (TEST, "requirements-test.txt")):
        versions = {
            name: (teach[name].split(";")[0].strip(), pins[name].split(";")[0].strip())
            for name in set(teach) & set(pins)
        }
        differ = {name: pair for name, pair in versions.items() if pair[0] != pair[1]}
        assert not differ, f"requirements-teach.txt and {other} disagree: {differ}. Run: make pins"


def test_an_unknown_lesson_number_is_named():
    with pytest.raises(SystemExit, match="no lesson numbered 99: choose among 00, 01"):
        assignments.write(assignments.OUT, ["99"])


def _listing(*args):
    import subprocess
    import sys
    from pathlib import Path

    jupyter = Path(sys.executable).parent / "jupyter"
    run = subprocess.run([str(jupyter), *args], capture_output=True, text=True, timeout=120)
    return re.sub(r"\x1b\[[0-9;]*m", "", run.stdout + run.stderr)


@pytest.mark.slow
def test_the_teach_tools_leave_the_learners_jupyterlab_as_it_was():
    """nbgrader's pages and jupytext's contents manager (from otter-grader) stay off in the venv the tests use."""
    pytest.importorskip("nbgrader", reason="only a venv with the teach extra has them to switch off")
    servers = _listing("server", "extension", "list")
    for extension in ("jupyterlab_jupytext", "nbgrader.server_extensions.formgrader"):
        assert re.search(rf"{re.escape(extension)} disabled", servers), servers
    labs = _listing("labextension", "list").split("Disabled extensions:")
    assert len(labs) == 2, "no lab extension is disabled: run make setup-test"
    for extension in ("@jupyter/nbgrader", "jupyterlab-jupytext", "ipylab", "@jupyter-notebook/lab-extension"):
        assert extension in labs[1], labs[1]
