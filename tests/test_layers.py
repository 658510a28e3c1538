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
