"""The package's layers: an algorithm never depends on what is built on top of it.

The algorithms the lessons build sit at the root of ``bpelab/``; the measurements (``analysis/``) use
them; widgets, plots, exercises, the benchmark and the course's own tools sit above. A learner reading
``byte_level.py`` should never have to follow an import up into the course's setup code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "bpelab"
SUBPACKAGES = ("analysis", "bench", "course", "exercises", "plots", "widgets")
ENTRY_POINTS = {"__init__.py", "setup_data.py"}
"""The package's front door and a command's short name: they gather from every layer on purpose."""


def bpelab_imports(path: Path) -> set[str]:
    """Every ``bpelab...`` module the file imports, at any depth (imports inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "bpelab" or name.startswith("bpelab.")}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SUBPACKAGES else None


ALGORITHM_FILES = sorted(p for p in PACKAGE.glob("*.py") if p.name not in ENTRY_POINTS)


def test_the_layer_check_sees_an_upward_import(tmp_path):
    file = tmp_path / "algo.py"
    file.write_text("def f():\n    from bpelab.course.corpora import read_corpus\n    return read_corpus\n")
    assert {layer_of(m) for m in bpelab_imports(file)} == {"course"}


@pytest.mark.parametrize("path", ALGORITHM_FILES, ids=lambda p: p.name)
def test_an_algorithm_file_imports_only_algorithm_files(path):
    upward = sorted(m for m in bpelab_imports(path) if layer_of(m))
    assert not upward, f"{path.name} imports {upward}: move what it needs down to the root of bpelab/"


@pytest.mark.parametrize("path", sorted((PACKAGE / "analysis").glob("*.py")), ids=lambda p: p.name)
def test_the_measurements_never_import_the_layers_above_them(path):
    above = {"bench", "exercises", "plots", "widgets"}
    upward = sorted(m for m in bpelab_imports(path) if layer_of(m) in above)
    assert not upward, f"analysis/{path.name} imports {upward}"


def module_imports(path: Path) -> set[str]:
    """The ``bpelab`` modules a file imports, those under ``if TYPE_CHECKING:`` too: a reader follows a type's
    import as far as a running one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for name in bpelab_imports_of(tree):
        file = PACKAGE.parent / (name.replace(".", "/") + ".py")
        if file.exists() and file.name not in ENTRY_POINTS:
            found.add(name)
    return found


def bpelab_imports_of(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("bpelab.")}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def test_no_two_modules_import_each_other_round_a_circle():
    """A circle (byte_level imports export, which imports byte_level back, if only for a type) means neither can be
    read alone."""
    files = [p for p in PACKAGE.rglob("*.py") if p.name not in ENTRY_POINTS]
    graph = {module_name(p): module_imports(p) for p in files}
    circles = []
    for start in graph:
        stack = [(start, [start])]
        while stack:
            module, route = stack.pop()
            for nxt in graph.get(module, ()):
                if nxt == start:
                    circles.append(" -> ".join([*route, start]))
                elif nxt not in route and nxt > start:  # each circle once, from its smallest name
                    stack.append((nxt, [*route, nxt]))
    assert not circles, "import circles:\n" + "\n".join(circles)


@pytest.mark.parametrize(
    "path",
    sorted(p for layer in ("analysis", "plots", "widgets") for p in (PACKAGE / layer).glob("*.py")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_what_draws_and_measures_reads_the_data_from_below_not_from_the_course_tools(path):
    """Corpora are read through ``bpelab.corpora`` (root), so a widget never reaches up into the course's setup."""
    upward = sorted(m for m in bpelab_imports(path) if layer_of(m) == "course")
    assert not upward, f"{path.parent.name}/{path.name} imports {upward}: import from bpelab.corpora instead"
