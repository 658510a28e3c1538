"""Merge a learner's lesson with the course's new version, cell by cell, the learner's work first.

``make update`` (``bpelab.course.update``) hands git this as the merge driver for ``*.ipynb``. Git's own merge
works on lines of JSON: a learner who ran a lesson changed every output and execution count, so nearly any change
the course makes to that lesson meets one of theirs, and git stops with a conflict inside the JSON. Cells carry
ids (nbformat 4.5), so the three versions (the common ``base``, the learner's ``ours``, the course's ``theirs``)
can be merged as lists of cells instead:

- a cell only one side changed takes that side's version; a cell the course added arrives after the cell it
  follows in the course's version; a cell the learner added stays where they put it;
- a cell's source decides, since outputs are what running it makes: a cell the course only re-ran keeps the
  learner's version (their edits, their outputs); a cell whose code the course changed and the learner only ran
  takes the course's version (the outputs it replaces came from the old code: running the cell makes them again);
- a cell whose source both changed keeps the learner's, and the merge says so (the course's is in git);
- a cell the course deleted goes, unless the learner changed it; a cell the learner deleted stays deleted;
- the saved widget state holds the models the merged outputs show, from either side.

This is nbgitpuller's rule (``git merge -Xours``: where both changed the same lines, the learner's win;
jupyterhub/nbgitpuller, ``nbgitpuller/pull.py``, ``GitPuller.merge``) applied to cells instead of lines.

    python -m bpelab.course.notebook_merge BASE OURS THEIRS [PATH]   # git's %O %A %B %P: the result goes to OURS
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bpelab.course.save_hook import WIDGET_STATE, models_to_keep, shown_model_ids, widget_state

Cell = dict[str, Any]
Notebook = dict[str, Any]


class NotebookMergeError(ValueError):
    """The versions cannot be merged cell by cell (not a notebook, or cells without ids)."""


@dataclass
class Merged:
    """The merged notebook and what the learner should know about it (one line per cell the course's change
    did not reach)."""

    notebook: Notebook
    notes: list[str] = field(default_factory=list)


def _cells_by_id(notebook: Notebook, side: str) -> dict[str, Cell]:
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise NotebookMergeError(f"the {side} version is not a notebook (no list of cells)")
    by_id: dict[str, Cell] = {}
    for index, cell in enumerate(cells):
        cell_id = cell.get("id") if isinstance(cell, dict) else None
        if not isinstance(cell_id, str) or cell_id in by_id:
            raise NotebookMergeError(
                f"cell {index} of the {side} version has no id of its own (nbformat older than 4.5): "
                "open and save the notebook in JupyterLab 4, which gives every cell an id, then update again"
            )
        by_id[cell_id] = cell
    return by_id


def _source(cell: Cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _merge_cell(base: Cell | None, ours: Cell, theirs: Cell, number: int, notes: list[str]) -> Cell:
    """One cell both versions still hold. Its source decides: outputs are what running the source makes."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if base is None or _source(theirs) == _source(base) or _source(ours) == _source(theirs):
        # the course only re-ran it (or changed its metadata): the learner's run and edits stay, with the
        # course's new cell metadata (a tag) where the learner left theirs alone
        if base is not None and ours.get("metadata") == base.get("metadata"):
            return {**ours, "metadata": theirs.get("metadata", {})}
        return ours
    if _source(ours) == _source(base):
        return theirs  # the learner only ran it; the course changed its code
    notes.append(f"cell {number}: kept your version; the course changed it too")
    return ours


def _merge_metadata(base: Notebook, ours: Notebook, theirs: Notebook, cells: list[Cell]) -> dict[str, Any]:
    """The learner's notebook metadata if they changed it (a kernel they chose), else the course's; the widget
    state of every model the merged outputs show."""

    def without_widgets(notebook: Notebook) -> dict[str, Any]:
        return {k: v for k, v in notebook.get("metadata", {}).items() if k != "widgets"}

    metadata = dict(
        without_widgets(ours) if without_widgets(ours) != without_widgets(base) else without_widgets(theirs)
    )
    ours_state, theirs_state = widget_state(ours), widget_state(theirs)
    models = {**theirs_state.get("state", {}), **ours_state.get("state", {})}
    keep = models_to_keep(shown_model_ids({"cells": cells}), models)
    if keep:
        frame = {k: v for k, v in (ours_state or theirs_state).items() if k != "state"}
        metadata["widgets"] = {WIDGET_STATE: {**frame, "state": {m: models[m] for m in sorted(keep)}}}
    return metadata


def merge_notebooks(base: Notebook | None, ours: Notebook, theirs: Notebook) -> Merged:
    """Merge the learner's ``ours`` and the course's ``theirs`` from their common ``base`` (None: both added the
    file), cell by cell; see the module's docstring for the rules."""
    base = base if base is not None else {"cells": [], "metadata": {}}
    base_cells = _cells_by_id(base, "common")
    our_cells = _cells_by_id(ours, "learner's")
    their_cells = _cells_by_id(theirs, "course's")
    notes: list[str] = []
    merged: list[Cell] = []
    for number, (cell_id, cell) in enumerate(our_cells.items()):
        if cell_id in their_cells:
            merged.append(_merge_cell(base_cells.get(cell_id), cell, their_cells[cell_id], number, notes))
        elif cell_id not in base_cells or cell != base_cells[cell_id]:
            merged.append(cell)  # the learner's own cell, or one they changed that the course deleted
    placed = {cell["id"] for cell in merged}
    after: str | None = None  # the id of the course's previous cell that the merge holds
    for cell_id, cell in their_cells.items():
        if cell_id not in base_cells and cell_id not in our_cells:  # new in the course's version
            position = next((i + 1 for i, c in enumerate(merged) if c["id"] == after), 0)
            merged.insert(position, cell)
            placed.add(cell_id)
        if cell_id in placed:
            after = cell_id
    notebook = {
        "cells": merged,
        "metadata": _merge_metadata(base, ours, theirs, merged),
        "nbformat": max(ours.get("nbformat", 4), theirs.get("nbformat", 4)),
        "nbformat_minor": max(ours.get("nbformat_minor", 5), theirs.get("nbformat_minor", 5)),
    }
    return Merged(notebook, notes)


def _read(path: Path, side: str) -> Notebook | None:
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        return None  # git's empty base: both sides added the file
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as err:
        raise NotebookMergeError(f"the {side} version is not valid JSON ({err})") from err
    if not isinstance(loaded, dict):
        raise NotebookMergeError(f"the {side} version is not a notebook")
    return loaded


def write_notebook(notebook: Notebook, path: Path) -> None:
    """Write as nbformat does (the lessons' own format: keys sorted, one-space indent), after validating."""
    import nbformat  # slow to import: only here

    node = nbformat.from_dict(notebook)
    try:
        nbformat.validate(node)
    except nbformat.ValidationError as err:
        raise NotebookMergeError(f"the merged notebook is not valid ({err.message})") from err
    path.write_text(nbformat.writes(node), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Git's merge driver: merge BASE, OURS and THEIRS into OURS; 0 when merged, 1 (OURS untouched) when not."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (3, 4):
        print("usage: python -m bpelab.course.notebook_merge BASE OURS THEIRS [PATH]", file=sys.stderr)
        return 2
    base_path, ours_path, theirs_path = (Path(a) for a in args[:3])
    shown = args[3] if len(args) == 4 else ours_path.name
    try:
        ours, theirs = _read(ours_path, "learner's"), _read(theirs_path, "course's")
        if ours is None or theirs is None:
            raise NotebookMergeError("one version is empty")
        merged = merge_notebooks(_read(base_path, "common"), ours, theirs)
        write_notebook(merged.notebook, ours_path)
    except NotebookMergeError as err:
        print(f"{shown}: not merged cell by cell ({err}); your version is kept", file=sys.stderr)
        return 1
    for note in merged.notes:
        print(f"{shown}, {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
