"""``make assignments``: each lesson's exercises as an nbgrader assignment and an Otter master notebook.

Nothing is written twice: the lesson is the assignment. Its stubs become solution cells holding the solution the
lesson shows (between the tool's markers, so the released notebook shows the stub again), its "Show a solution"
blocks are taken out, and after each check cell comes a graded test that runs the same checker through
``bpelab.course.grading.assert_passes``: the cases whose answers the checker writes out are the visible test, the
larger ones the reference computes are the hidden test (where the exercise has both kinds; otherwise one visible
test runs every case). Finding the cells: ``bpelab.course.lesson_exercises``.

    python -m bpelab.course.assignments              every lesson, into assignments/
    python -m bpelab.course.assignments 03 04 --out /tmp/course

writes ``nbgrader/nbgrader_config.py``, ``nbgrader/source/<NN_name>/<NN_name>.ipynb`` (nbgrader's cell metadata:
``solution`` and ``grade`` cells, one point per exercise) and ``otter/<NN_name>.ipynb`` (Otter Assign's format:
``# ASSIGNMENT CONFIG``, ``# BEGIN QUESTION`` … ``# END QUESTION``, exception-based tests). TEACHING.md shows a
teacher the commands from hand-out to feedback.
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbformat.corpus.words import generate_corpus_id

from bpelab.course.grading import count_cases
from bpelab.course.lesson_exercises import SOLUTION_DETAILS, LessonExercise, find_exercises, solution_cell
from bpelab.paths import REPO_ROOT

NOTEBOOKS = REPO_ROOT / "notebooks"
OUT = REPO_ROOT / "assignments"
POINTS = 1
"""Points per exercise (nbgrader: one graded cell; Otter: one question, its tests sharing them)."""
CELL_TIMEOUT = 600
"""Seconds a cell may run while nbgrader grades (its default, 30, is less than a lesson's training cells take)."""

NBGRADER_CONFIG = f'''"""nbgrader's settings for the course folder that `make assignments` writes (see TEACHING.md).

Run nbgrader from this folder: nbgrader generate_assignment 03_counting_pairs, then nbgrader autograde.
"""

c = get_config()  # noqa: F821 (nbgrader defines it)

# A lesson's training cells take longer than nbgrader's default of 30 seconds a cell.
c.Execute.timeout = {CELL_TIMEOUT}
'''


def lesson_paths(only: Sequence[str] = ()) -> list[Path]:
    """The lessons (all, or those whose two-digit numbers are in ``only``), sorted."""
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if only:
        unknown = sorted(set(only) - {path.name[:2] for path in paths})
        if unknown:
            numbers = ", ".join(path.name[:2] for path in paths)
            raise SystemExit(f"no lesson numbered {', '.join(unknown)}: choose among {numbers}")
        paths = [path for path in paths if path.name[:2] in only]
    return paths


def _call_arguments(exercise: LessonExercise, cases: str) -> str:
    call = copy.deepcopy(exercise.call)
    call.func = ast.Name("assert_passes", ast.Load())
    call.args.insert(0, ast.Name(exercise.checker, ast.Load()))
    call.keywords.append(ast.keyword("cases", ast.Constant(cases)))
    return ast.unparse(call)


def _imports(exercise: LessonExercise, indent: str = "") -> list[str]:
    return [
        f"{indent}from bpelab.course.grading import assert_passes",
        f"{indent}from bpelab.exercises import {exercise.checker}",
    ]


def _split(exercise: LessonExercise) -> bool:
    """Whether the exercise's checker has both kinds of cases, so a hidden test holds the computed ones."""
    written, computed = count_cases(exercise.checker)
    return written > 0 and computed > 0


def nbgrader_test(exercise: LessonExercise) -> str:
    """The graded test cell's source: the checker on the written cases, the computed ones hidden."""
    lines = [*_imports(exercise), ""]
    if _split(exercise):
        lines += [
            _call_arguments(exercise, "written"),
            "### BEGIN HIDDEN TESTS",
            _call_arguments(exercise, "computed"),
            "### END HIDDEN TESTS",
        ]
    else:
        lines.append(_call_arguments(exercise, "all"))
    return "\n".join(lines)


def _free_names(call: ast.Call) -> list[str]:
    """The notebook's names the check's arguments read, in order: what an Otter test asks its environment for."""
    names: list[str] = []
    for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
        for node in ast.walk(argument):
            if isinstance(node, ast.Name) and node.id not in names:
                names.append(node.id)
    return names


def otter_tests(exercise: LessonExercise) -> list[str]:
    """Otter's exception-based test cells: a function whose parameters Otter fills from the learner's notebook."""
    kinds = [("written", False), ("computed", True)] if _split(exercise) else [("all", False)]
    cells = []
    for cases, hidden in kinds:
        config = ['""" # BEGIN TEST CONFIG', f"hidden: {'true' if hidden else 'false'}", '""" # END TEST CONFIG']
        body = [
            f"def test_{exercise.name}_{cases}({', '.join(_free_names(exercise.call))}):",
            *_imports(exercise, "    "),
            "",
            "    " + _call_arguments(exercise, cases),
        ]
        cells.append("\n".join(config + body))
    return cells


def _handout(path: Path) -> tuple[Any, list[LessonExercise]]:
    """The lesson without outputs, saved widget state or shown solutions, and its exercises."""
    notebook = nbformat.read(path, as_version=4)
    exercises = find_exercises(notebook, path.name)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    for exercise in exercises:
        cell = notebook.cells[exercise.solution]
        cell.source = SOLUTION_DETAILS.sub("", cell.source).strip()
    return notebook, exercises


def _without_empty_markdown(cells: list[Any]) -> list[Any]:
    return [cell for cell in cells if cell.cell_type != "markdown" or cell.source.strip()]


def nbgrader_source(path: Path) -> Any:
    """The lesson as an nbgrader source notebook."""
    notebook, exercises = _handout(path)
    cells = list(notebook.cells)
    for exercise in reversed(exercises):  # from the end, so that the indices before stay right
        stub = cells[exercise.stub]
        stub.source = solution_cell(stub.source, exercise.solution_source, "### BEGIN SOLUTION", "### END SOLUTION")
        stub.metadata["nbgrader"] = _nbgrader_metadata(exercise.name, solution=True)
        test = nbformat.v4.new_code_cell(nbgrader_test(exercise))
        test.id = f"test-{exercise.name}"
        test.metadata["nbgrader"] = _nbgrader_metadata(f"test_{exercise.name}", grade=True)
        cells.insert(exercise.check + 1, test)
    notebook.cells = _without_empty_markdown(cells)
    return notebook


def _nbgrader_metadata(grade_id: str, solution: bool = False, grade: bool = False) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": grade,
        "schema_version": 3,
        "solution": solution,
        "task": False,
    }
    if grade:
        metadata["points"] = POINTS
    return metadata


def _raw(source: str) -> Any:
    return nbformat.v4.new_raw_cell(source)


def otter_master(path: Path) -> Any:
    """The lesson as an Otter Assign master notebook."""
    notebook, exercises = _handout(path)
    cells = list(notebook.cells)
    for exercise in reversed(exercises):
        stub = cells[exercise.stub]
        stub.source = solution_cell(stub.source, exercise.solution_source, "# BEGIN SOLUTION", "# END SOLUTION")
        tests = [nbformat.v4.new_code_cell(source) for source in otter_tests(exercise)]
        for number, test in enumerate(tests):
            test.id = f"test-{exercise.name}-{number}"
        question = [
            _raw(f"# BEGIN QUESTION\nname: {exercise.name}\npoints: {POINTS}"),
            _raw("# BEGIN SOLUTION"),
            stub,
            _raw("# END SOLUTION"),
            _raw("# BEGIN TESTS"),
            *tests,
            _raw("# END TESTS"),
            _raw("# END QUESTION"),
        ]
        cells[exercise.stub : exercise.stub + 1] = question
    config = "\n".join(
        [
            "# ASSIGNMENT CONFIG",
            f"name: {path.stem}",
            "export_cell:",
            "    pdf: false",
            "check_all_cell: false",
            "tests:",
            "    ok_format: false",
        ]
    )
    notebook.cells = [_raw(config), *_without_empty_markdown(cells)]
    for cell in notebook.cells:
        if cell.cell_type == "raw" and "id" not in cell:
            cell.id = generate_corpus_id()
    return notebook


def write(out: Path = OUT, only: Sequence[str] = ()) -> list[Path]:
    """Write the nbgrader course folder and the Otter master notebooks for the lessons; the paths written."""
    written = []
    config = out / "nbgrader" / "nbgrader_config.py"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(NBGRADER_CONFIG, encoding="utf-8")
    written.append(config)
    for path in lesson_paths(only):
        source = out / "nbgrader" / "source" / path.stem / path.name
        source.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nbgrader_source(path), source)
        master = out / "otter" / path.name
        master.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(otter_master(path), master)
        written += [source, master]
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("lessons", nargs="*", help="two-digit lesson numbers (default: every lesson)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default: {OUT})")
    args = parser.parse_args(argv)
    written = write(args.out, args.lessons)
    lessons = (len(written) - 1) // 2
    print(f"wrote {lessons} nbgrader source notebooks and {lessons} Otter master notebooks under {args.out}:")
    print(f"  {args.out / 'nbgrader'}   (cd there: nbgrader generate_assignment NN_name)")
    print(f"  {args.out / 'otter'}      (otter assign {args.out / 'otter'}/NN_name.ipynb dist/NN_name)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
