"""The JavaScript unit tests (the widgets' ``bpelab/widgets/static/*.test.js`` and the JupyterLab extension's
``bpelab/course/lab_extension/*.test.js``) run under Node's own test runner from pytest, so ``make test`` fails
when one of them fails."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bpelab.paths import REPO_ROOT

STATIC = REPO_ROOT / "bpelab" / "widgets" / "static"
LAB_EXTENSION = REPO_ROOT / "bpelab" / "course" / "lab_extension"


def test_node_test_passes_on_the_widgets_modules() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for the JavaScript tests (Node 20: apt-get install nodejs)")
    files = sorted(STATIC.glob("*.test.js")) + sorted(LAB_EXTENSION.glob("*.test.js"))
    assert len(files) >= 3, f"expected the widgets' JavaScript tests in {STATIC}"
    assert any(f.parent == LAB_EXTENSION for f in files), f"expected the extension's tests in {LAB_EXTENSION}"
    run = subprocess.run(
        [node, "--test", *map(str, files)], capture_output=True, text=True, timeout=300, check=False, cwd=REPO_ROOT
    )
    summary = [line for line in run.stdout.splitlines() if line.startswith(("# pass", "# fail", "not ok"))]
    assert run.returncode == 0, "node --test failed:\n" + "\n".join(summary) + "\n" + run.stdout[-3000:]
    assert "# fail 0" in run.stdout
