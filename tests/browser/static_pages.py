"""Static lesson pages for the browser tests, written the way ``make html`` writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest

from bpelab.course.html_export import WEB_ASSETS, fetch_tarball, install_assets, write_site
from bpelab.course.lessons import run_lesson


def write_static_site(out: Path, notebooks: list[Path], **options: Any) -> Path:
    """Write ``notebooks`` as pages into ``out`` with the widget manager and the course's page scripts.

    Skips the calling test, with the reason, when the page scripts cannot be fetched (npm and its
    registry are needed once; ``make html`` says the same)."""
    for asset in WEB_ASSETS:
        try:
            fetch_tarball(asset)
        except RuntimeError as err:
            pytest.skip(f"the page scripts could not be fetched ({err}); `make html` explains")
    write_site(out, notebooks, log=lambda *_: None, **options)
    problems = install_assets(out / "_static")
    assert not problems, problems
    return out


def write_notebook(path: Path, title: str, *code: str) -> Path:
    """A notebook at ``path``: a title cell, then one code cell per string of ``code`` (not run)."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_markdown_cell(f"# {title}"), *map(nbformat.v4.new_code_cell, code)]
    nbformat.write(notebook, path)
    return path


def static_page_of(notebook: Path, out: Path) -> Path:
    """``notebook`` run as the lessons are (widget state stored) and written as ``make html`` does: its page."""
    run_lesson(notebook)
    return write_static_site(out, [notebook], guide=None) / notebook.with_suffix(".html").name
