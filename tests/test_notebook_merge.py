"""The cell-by-cell merge ``make update`` gives git for notebooks, on small notebooks whose answer is read off by hand."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bpelab.course.notebook_merge import NotebookMergeError, main, merge_notebooks

VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"


def cell(cell_id: str, source: str, outputs: list[Any] | None = None, count: int | None = None) -> dict[str, Any]:
    return {"cell_type": "code", "id": cell_id, "source": source, "metadata": {}, "outputs": outputs or [],
            "execution_count": count}  # fmt: skip


def text(value: str) -> dict[str, Any]:
    return {"output_type": "stream", "name": "stdout", "text": value}


def widget(model: str) -> dict[str, Any]:
    return {"output_type": "display_data", "metadata": {}, "data": {VIEW: {"model_id": model, "version_major": 2,
            "version_minor": 0}, "text/plain": "w"}}  # fmt: skip


def notebook(*cells: dict[str, Any], models: tuple[str, ...] = ()) -> dict[str, Any]:
    metadata: dict[str, Any] = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    if models:
        state = {m: {"model_name": "M", "model_module": "x", "model_module_version": "1", "state": {}} for m in models}
        metadata["widgets"] = {STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    return {"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


BASE = notebook(cell("a", "x = 1", [text("1")], 1), cell("b", "y = 2", [text("2")], 2), cell("c", "z = 3"))


def ids(nb: dict[str, Any]) -> list[str]:
    return [c["id"] for c in nb["cells"]]


def test_each_side_adds_a_cell_at_the_end_and_both_are_kept() -> None:
    ours, theirs = copy.deepcopy(BASE), copy.deepcopy(BASE)
    ours["cells"].append(cell("mine", "print('my note')"))
    theirs["cells"].append(cell("new", "print('new in the course')"))
    merged = merge_notebooks(BASE, ours, theirs)
    assert ids(merged.notebook) == ["a", "b", "c", "new", "mine"] and not merged.notes


def test_the_source_decides_who_wins_a_cell_both_changed() -> None:
    ours, theirs = copy.deepcopy(BASE), copy.deepcopy(BASE)
    ours["cells"][0].update(outputs=[text("1 (my run)")], execution_count=7)  # ran only
    theirs["cells"][0].update(source="x = 10", outputs=[text("10")])  # the course changed the code
    ours["cells"][1].update(source="y = 20  # mine", outputs=[text("20")])  # the learner changed the code
    theirs["cells"][1].update(outputs=[text("2 (the course re-ran it)")], execution_count=9)  # re-ran only
    ours["cells"][2]["source"] = "z = 30  # mine"  # both changed the code
    theirs["cells"][2]["source"] = "z = 300"
    merged = merge_notebooks(BASE, ours, theirs)
    a, b, c = merged.notebook["cells"]
    assert (a["source"], a["outputs"]) == ("x = 10", [text("10")])
    assert (b["source"], b["outputs"]) == ("y = 20  # mine", [text("20")])
    assert c["source"] == "z = 30  # mine"
    assert merged.notes == ["cell 2: kept your version; the course changed it too"]


def test_deleted_cells() -> None:
    ours, theirs = copy.deepcopy(BASE), copy.deepcopy(BASE)
    del ours["cells"][0]  # the learner deleted a
    theirs["cells"] = [theirs["cells"][0]]  # the course deleted b and c
    ours["cells"][0]["source"] = "y = 2  # I changed b"  # ... and the learner had changed b
    assert ids(merge_notebooks(BASE, ours, theirs).notebook) == ["b"]


def test_the_widget_state_holds_the_models_of_both_sides_that_the_merged_outputs_show() -> None:
    base = notebook(cell("a", "w1", [widget("m1")]), cell("b", "w2", [widget("m2")]), models=("m1", "m2"))
    ours = notebook(cell("a", "w1", [widget("mine1")]), cell("b", "w2", [widget("mine2")]), models=("mine1", "mine2"))
    theirs = notebook(cell("a", "w1 changed", [widget("new1")]), cell("b", "w2", [widget("m2")]), models=("new1", "m2"))
    merged = merge_notebooks(base, ours, theirs).notebook
    assert [c["outputs"][0]["data"][VIEW]["model_id"] for c in merged["cells"]] == ["new1", "mine2"]
    assert sorted(merged["metadata"]["widgets"][STATE]["state"]) == ["mine2", "new1"]


def test_cells_without_ids_are_refused_with_what_to_do() -> None:
    old = notebook(cell("a", "x"))
    del old["cells"][0]["id"]
    with pytest.raises(NotebookMergeError, match="no id of its own.*JupyterLab 4"):
        merge_notebooks(BASE, old, BASE)


def test_as_git_merge_driver(tmp_path: Path) -> None:
    ours, theirs = copy.deepcopy(BASE), copy.deepcopy(BASE)
    ours["cells"][0]["source"] = "x = 1  # mine"
    theirs["cells"][1]["source"] = "y = 22"
    paths = [tmp_path / name for name in ("base", "ours", "theirs")]
    for path, nb in zip(paths, (BASE, ours, theirs), strict=True):
        path.write_text(json.dumps(nb), encoding="utf-8")
    assert main([str(p) for p in paths]) == 0
    result = json.loads(paths[1].read_text(encoding="utf-8"))
    assert ["".join(c["source"]) for c in result["cells"]] == ["x = 1  # mine", "y = 22", "z = 3"]
    paths[2].write_text("{not json", encoding="utf-8")
    before = paths[1].read_bytes()
    assert main([str(p) for p in paths]) == 1
    assert paths[1].read_bytes() == before, "a failed merge leaves the learner's version"
