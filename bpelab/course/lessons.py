"""Re-run lessons in place, top to bottom in a fresh kernel, so their stored outputs are today's (``make lessons``).

A teacher who edits a cell runs this to re-lock the outputs that ``make test`` (nbval) compares.
Each lesson runs with the notebooks folder as its working directory, as JupyterLab and nbval run
it, and keeps its widgets' state so the static pages (``make html``) can draw them without a kernel.
Nothing that changes from run to run is kept: no execution times, no interpreter version, and the
widgets' random model ids are replaced by ids derived from the lesson's name, so re-running an
untouched lesson leaves ``git diff`` empty. A lesson whose metadata says
``"bpelab": {"store_widget_state": false}`` keeps no widget state (lesson 00's probe only means
something in a live kernel).

    python -m bpelab.course.lessons            # every lesson
    python -m bpelab.course.lessons 04 07      # only the lessons whose names start with 04 or 07
    python -m bpelab.course.lessons --folder my_copy 04    # a copy of the notebooks somewhere else
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from bpelab.paths import REPO_ROOT

NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
TIMEOUT_S = 1800
"""A cell that runs longer than half an hour is stuck, not slow (the slowest lesson cell takes about a minute)."""


def lesson_paths(only: list[str] | None = None, folder: Path = NOTEBOOKS_DIR) -> list[Path]:
    """The lessons in reading order; with ``only``, those whose file names start with one of its prefixes."""
    paths = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    if not only:
        return paths
    chosen = [p for p in paths if any(p.name.startswith(prefix) for prefix in only)]
    unknown = [prefix for prefix in only if not any(p.name.startswith(prefix) for p in paths)]
    if unknown:
        names = ", ".join(p.name[:2] for p in paths)
        raise SystemExit(f"no lesson starts with {', '.join(unknown)}; the lessons are {names}")
    return chosen


def run_lesson(path: Path) -> None:
    """Execute one notebook in place in a fresh ``python3`` kernel and save it with its widget state."""
    notebook = nbformat.read(path, as_version=4)
    keep_state = notebook.metadata.get("bpelab", {}).get("store_widget_state", True)
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=keep_state,
        record_timing=False,
    )
    # Checkers that pass record it for the course map: in a file of this run's own, not the user's cache.
    previous = os.environ.get("BPELAB_PROGRESS_FILE")
    try:
        with tempfile.TemporaryDirectory(prefix="bpelab-progress-", ignore_cleanup_errors=True) as folder:
            os.environ["BPELAB_PROGRESS_FILE"] = os.path.join(folder, "progress.json")
            client.execute()
    finally:
        if previous is None:
            os.environ.pop("BPELAB_PROGRESS_FILE")
        else:
            os.environ["BPELAB_PROGRESS_FILE"] = previous
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = joined_streams(cell.outputs)
    notebook.metadata["language_info"] = {"name": "python"}
    path.write_text(stable_model_ids(nbformat.writes(notebook), path.name) + "\n", encoding="utf-8")


def joined_streams(outputs: list) -> list:
    """One output per run of printed text: how the kernel chunks a print depends on timing."""
    joined: list = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if previous is not None and output.output_type == previous.output_type == "stream":
            if previous.name == output.name:
                previous.text += output.text
                continue
        joined.append(output)
    return joined


TQDM_TIMING = re.compile(r"\s*\[[0-9:]+(?:&lt;|<)[^\]]*\]")
"""What a tqdm bar's text says of time, " [00:08&lt;00:00, 156.54it/s]" (elapsed, left, rate): different on every run."""


def without_timings(model_state: dict) -> None:
    """Drop the timings from a saved tqdm bar's text (``802/? [00:08<00:00, 156.54it/s]`` keeps ``802/?``), so a
    re-run of an untouched lesson changes no byte of its widget state."""
    value = model_state.get("value")
    if isinstance(value, str) and TQDM_TIMING.search(value):
        model_state["value"] = TQDM_TIMING.sub("", value)


def stable_model_ids(text: str, seed: str) -> str:
    """Give a saved notebook's widget models ids and an order that depend only on the notebook's content.

    The kernel names models with random ids and the saved state lists them in the order messages arrived.
    Here models are numbered depth-first from the widgets the cells display (in cell order), following
    each model's references to others; models nothing displays come last, ordered by their content.
    """
    notebook = json.loads(text)
    widgets = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {})
    state: dict[str, dict] = widgets.get("state", {})
    for model in state.values():
        without_timings(model.get("state", {}))
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in order or model_id not in state:
            return
        order.append(model_id)
        for child in re.findall(r"IPY_MODEL_([0-9a-f]{32})", json.dumps(state[model_id], sort_keys=True)):
            visit(child)

    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                visit(view["model_id"])
    for model_id in sorted(
        state, key=lambda m: re.sub(r"IPY_MODEL_[0-9a-f]{32}", "", json.dumps(state[m], sort_keys=True))
    ):
        visit(model_id)
    if state:
        widgets["state"] = {model_id: state[model_id] for model_id in order}
        text = json.dumps(notebook, indent=1, ensure_ascii=False)
    displayed = [
        view["model_id"]
        for cell in notebook.get("cells", [])
        for output in cell.get("outputs", [])
        if (view := output.get("data", {}).get("application/vnd.jupyter.widget-view+json"))
    ]
    new_ids = {
        old: hashlib.sha256(f"{seed}:{index}".encode()).hexdigest()[:32]
        for index, old in enumerate(order + [m for m in displayed if m not in order])
    }
    if new_ids:  # in one pass: run on a file whose ids are already these, no id is replaced twice
        text = re.sub("|".join(new_ids), lambda found: new_ids[found.group()], text)
    # written as a Jupyter server writes a notebook (nbformat: keys sorted), so that opening a lesson and
    # letting JupyterLab autosave it leaves its file byte for byte as committed
    return json.dumps(json.loads(text), sort_keys=True, indent=1, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("only", nargs="*", help="lesson number prefixes such as 04 (default: every lesson)")
    parser.add_argument(
        "--folder", type=Path, default=NOTEBOOKS_DIR, help="the folder that holds the lessons (default: notebooks/)"
    )
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        raise SystemExit(f"no folder {args.folder}: pass --folder the folder that holds the lessons")
    # Figures must be drawn inline as in JupyterLab, and each run gets its own IPython history database.
    os.environ.pop("MPLBACKEND", None)
    with tempfile.TemporaryDirectory(prefix="bpelab-ipython-", ignore_cleanup_errors=True) as ipython_dir:
        os.environ["IPYTHONDIR"] = ipython_dir
        for path in lesson_paths(args.only, args.folder):
            print(f"running {path.name} ...", end=" ", flush=True)
            start = time.perf_counter()
            try:
                run_lesson(path)
            except Exception as error:  # the cell's own traceback is the message a teacher needs
                print("failed")
                print(error, file=sys.stderr)
                return 1
            print(f"saved ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
