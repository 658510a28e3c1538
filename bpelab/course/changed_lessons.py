"""Which lessons differ from the committed ones (``make html`` says so before writing the pages).

The pages show the notebooks as they are on disk. After a JupyterLab session (Run All, autosave) a
lesson holds that session's outputs, not the ones the course locked with nbval; the site would then
show them. This names such lessons and how to get the committed ones back. Outside a git clone
(a downloaded archive, an installed package) there is nothing to compare with, and it says nothing.

    python -m bpelab.course.changed_lessons
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from bpelab.paths import REPO_ROOT


def changed_notebooks(repo: Path = REPO_ROOT, folder: str = "notebooks") -> list[str] | None:
    """Paths (relative to ``repo``) of notebooks under ``folder`` that differ from the last commit,
    untracked ones included; None when git or the repository is not there."""
    git = shutil.which("git")
    if git is None or not (repo / ".git").exists():
        return None
    run = subprocess.run(
        [git, "-C", str(repo), "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", f"{folder}/*.ipynb"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if run.returncode != 0:
        return None
    paths = []
    for entry in run.stdout.split("\0"):
        if len(entry) > 3 and entry[3:].endswith(".ipynb"):
            paths.append(entry[3:])
    return sorted(set(paths))


def lesson_number(path: str) -> str | None:
    """``notebooks/05_encoding_and_decoding.ipynb`` -> ``05`` (what ``make lessons ONLY=`` takes)."""
    name = Path(path).name
    return name[:2] if name[:2].isdigit() and name[2:3] == "_" else None


def report(paths: list[str]) -> str:
    """What to tell the person running ``make html`` about these notebooks."""
    if not paths:
        return ""
    numbers = [n for n in (lesson_number(p) for p in paths) if n]
    lines = [
        f"Note: {len(paths)} notebook(s) differ from the committed ones; their pages show the outputs on disk:",
        *(f"  {path}" for path in paths),
        "To get the committed outputs back:  git checkout -- " + " ".join(paths),
    ]
    if numbers:
        lines.append(f'or re-run them in a fresh kernel:  make lessons ONLY="{" ".join(numbers)}"')
    return "\n".join(lines)


def main() -> int:
    paths = changed_notebooks()
    if paths:
        print(report(paths), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
