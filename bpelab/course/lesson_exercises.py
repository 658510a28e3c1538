"""A lesson's exercises as its cells hold them: the learner's stub, the check cell, and the solution it shows.

Every exercise of a lesson has the same three cells: a code cell of stubs (``def name(...):`` whose body is only
``...``, or ``name = ...``), a code cell that ends with the checker's call on those names
(``check_count_pairs(count_pairs)``), and after it a markdown cell with a ``<details><summary>Show a
solution</summary>`` block holding the solution as a ```` ```python ```` block. ``find_exercises`` reads them;
``solution_cell`` puts the solution into the stub between markers (nbgrader's ``### BEGIN SOLUTION``, Otter's
``# BEGIN SOLUTION``), so that the tool's released notebook shows the learner the lesson's stub again. A check
called with ``record=False`` is a demonstration on the course's own example, not an exercise.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from typing import Any

SOLUTION_DETAILS = re.compile(r"<details><summary>Show a solution</summary>.*?</details>\n?", re.S)
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


@dataclass(frozen=True)
class LessonExercise:
    """One exercise of a lesson: where its cells are, what the learner defines, and how it is checked."""

    stub: int
    """Index of the code cell with the learner's stubs."""
    check: int
    """Index of the code cell that calls the checker."""
    solution: int
    """Index of the markdown cell that shows the solution."""
    names: tuple[str, ...]
    """The names the learner defines, in the stub's order."""
    checker: str
    """The checker's name, ``check_count_pairs``."""
    call: ast.Call
    """The checker's call as the check cell makes it."""
    solution_source: str

    @property
    def name(self) -> str:
        """The exercise's name in an assignment (a grade id, an Otter question): the checker's without ``check_``."""
        return self.checker.removeprefix("check_")


def _source(cell: Any) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except SyntaxError:  # an IPython magic: never a stub or a check
        return None


def _is_ellipsis(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node.value.value is Ellipsis


def _header_end(function: ast.FunctionDef, lines: list[str]) -> int:
    """How many lines of the cell the function's ``def`` line(s) and docstring end at: its body comes after."""
    if ast.get_docstring(function) is not None:
        return function.body[0].end_lineno or function.body[0].lineno
    first = function.decorator_list[0].lineno if function.decorator_list else function.lineno
    for end in range(function.lineno, function.body[0].lineno):
        header = textwrap.dedent("\n".join(lines[first - 1 : end]))
        try:
            ast.parse(header + "\n    pass\n")
        except SyntaxError:
            continue
        return end
    return function.body[0].lineno - 1


def stub_names(source: str) -> tuple[str, ...]:
    """The names a stub cell leaves for the learner (empty when the cell is not only stubs)."""
    tree = _parse(source)
    if tree is None or not tree.body:
        return ()
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if not (len(body) == 1 and _is_ellipsis(body[0])):
                return ()
            names.append(node.name)
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and node.value.value is Ellipsis
        ):
            names.append(node.targets[0].id)
        else:
            return ()
    return tuple(names)


def check_call(source: str) -> ast.Call | None:
    """The cell's last statement when it is a call of a ``check_*`` function that records (not a demonstration)."""
    tree = _parse(source)
    if tree is None or not tree.body:
        return None
    last = tree.body[-1]
    if isinstance(last, ast.If) and last.body:  # a check guarded until its exercise cell has run (lesson 16)
        last = last.body[-1]
    if not (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)):
        return None
    call = last.value
    if not (isinstance(call.func, ast.Name) and call.func.id.startswith("check_")):
        return None
    for keyword in call.keywords:
        if keyword.arg == "record" and isinstance(keyword.value, ast.Constant) and keyword.value.value is False:
            return None
    return call


def find_exercises(notebook: Any, where: str = "the lesson") -> list[LessonExercise]:
    """Every exercise of ``notebook`` (an nbformat notebook or its JSON as a dict), in the lesson's order."""
    cells = notebook["cells"]
    found = []
    stub_at: dict[str, int] = {}
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = _source(cell)
        for name in stub_names(source):
            stub_at[name] = index
        call = check_call(source)
        if call is None:
            continue
        learner = tuple(arg.id for arg in call.args if isinstance(arg, ast.Name) and arg.id in stub_at)
        if not learner:
            continue  # the course checks a function of its own (lesson 00's buggy example)
        assert isinstance(call.func, ast.Name)
        checker = call.func.id
        stub = stub_at[learner[0]]
        names = stub_names(_source(cells[stub]))
        solution = _solution_after(cells, index, checker, where)
        blocks = PYTHON_BLOCK.findall(SOLUTION_DETAILS.search(_source(cells[solution])).group(0))  # type: ignore[union-attr]
        solution_source = "\n\n".join(block.rstrip() for block in blocks) + "\n"
        defined = _top_level_names(solution_source)
        missing = [name for name in names if name not in defined]
        if missing:
            raise ValueError(
                f"{where}, cell {solution}: the solution shown for {checker} defines no {', '.join(missing)}, "
                f"which the stub in cell {stub} leaves to the learner: show a solution that defines them"
            )
        found.append(LessonExercise(stub, index, solution, names, checker, call, solution_source))
    return found


def _solution_after(cells: list[Any], check: int, checker: str, where: str) -> int:
    for index in range(check + 1, len(cells)):
        cell = cells[index]
        if cell["cell_type"] == "markdown" and SOLUTION_DETAILS.search(_source(cell)):
            return index
        if cell["cell_type"] == "code" and check_call(_source(cell)) is not None:
            break
    raise ValueError(
        f"{where}: no 'Show a solution' block follows the check in cell {check} ({checker}) before the next "
        "check: an assignment needs the solution the lesson shows"
    )


def _top_level_names(source: str) -> set[str]:
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


def solution_cell(stub: str, solution: str, begin: str, end: str) -> str:
    """The stub cell with the solution put in: each stubbed function keeps its header and docstring, and the
    solution's body goes between ``begin`` and ``end`` lines; the solution's imports stay in view, and its other
    statements (helpers, a stubbed value) go between markers where they stand. The tool replaces what is between the markers."""
    stub_tree, solution_tree = ast.parse(stub), ast.parse(solution)
    stub_lines, solution_lines = stub.splitlines(), solution.splitlines()
    stubbed = {node.name: node for node in stub_tree.body if isinstance(node, ast.FunctionDef)}
    out: list[str] = []
    pending: list[str] = []  # solution lines outside any stubbed function, not yet placed

    def flush(indent: str = "") -> None:
        if pending:
            out.extend([indent + begin, *pending, indent + end])
            pending.clear()

    previous_end = 0
    for node in solution_tree.body:
        start = node.lineno - 1 if not getattr(node, "decorator_list", None) else node.decorator_list[0].lineno - 1  # type: ignore[attr-defined]
        gap = solution_lines[previous_end:start]
        previous_end = node.end_lineno or node.lineno
        if isinstance(node, ast.FunctionDef) and node.name in stubbed:
            theirs = stubbed[node.name]
            if [a.arg for a in theirs.args.args] != [a.arg for a in node.args.args]:
                raise ValueError(
                    f"the solution's {node.name} takes ({', '.join(a.arg for a in node.args.args)}) but the stub's "
                    f"takes ({', '.join(a.arg for a in theirs.args.args)}): make them the same"
                )
            flush()
            if out:
                out.extend(["", ""])
            body = solution_lines[_header_end(node, solution_lines) : previous_end]
            # the stub's comments before its ``...`` (what to write) stay in view
            header_end = theirs.body[-1].lineno - 1
            indent = re.match(r"\s*", next(line for line in body if line.strip())).group(0)  # type: ignore[union-attr]
            out.extend(
                stub_lines[
                    (theirs.decorator_list[0].lineno if theirs.decorator_list else theirs.lineno) - 1 : header_end
                ]
            )
            out.extend([indent + begin, *body, indent + end])
        elif isinstance(node, ast.Import | ast.ImportFrom) and not pending:
            out.extend(solution_lines[start:previous_end])  # what the solution imports is no secret: left in view
        else:
            pending.extend(line for line in gap if line.strip() or pending)
            pending.extend(solution_lines[start:previous_end])
    for node in stub_tree.body:  # a stubbed value (``short_prompt = ...``) stays in view above its solution
        if not isinstance(node, ast.FunctionDef):
            out[:0] = stub_lines[node.lineno - 1 : node.end_lineno]
    flush()
    return "\n".join(out).strip("\n") + "\n"
