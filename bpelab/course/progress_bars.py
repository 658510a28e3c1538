"""Progress bars left out of the static pages (``make html``).

A bar is transient: in the notebook it moved while the cell ran; on a page it is a stopped bar, red
when its loop ended early ("6753/9744"), which reads as a failure. tqdm's widget (an HBox of HTML, a
progress bar and HTML) and its text on stderr are both removed; what a cell printed besides is kept.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import nbformat

from bpelab.course.site_notes import WIDGET_STATE, WIDGET_VIEW

TEXT_PROGRESS = re.compile(
    r"^\s*(?:[^\r\n|]*:\s*)?\d{1,3}%\|[^\r\n|]*\|\s*[\d.]+[kMGT]?/[\d.]+[kMGT]?(?:\s*\[[^\]\r\n]*\])?\s*$"
)
"""One state of tqdm's text bar, e.g. `` 69%|██████▉   | 6753/9744 [00:00<00:00, 13926.84it/s]``."""

PROGRESS_MODELS = ("FloatProgressModel", "IntProgressModel")


def _is_progress_widget(model_id: str, state: dict[str, Any]) -> bool:
    """tqdm's notebook bar: an HBox of exactly (HTML, a Progress bar, HTML)."""
    model = state.get(model_id, {})
    if model.get("model_name") != "HBoxModel":
        return False
    children = [str(child).removeprefix("IPY_MODEL_") for child in model.get("state", {}).get("children", [])]
    names = [state.get(child, {}).get("model_name") for child in children]
    return len(names) == 3 and names[0] == names[2] == "HTMLModel" and names[1] in PROGRESS_MODELS


def _is_progress_output(output: nbformat.NotebookNode, state: dict[str, Any]) -> bool:
    data = output.get("data", {})
    if WIDGET_VIEW not in data:
        return False
    if data[WIDGET_VIEW].get("model_id") in state:
        return _is_progress_widget(data[WIDGET_VIEW]["model_id"], state)
    text = str(data.get("text/plain", ""))  # no saved state: the bar's text summary
    return bool(TEXT_PROGRESS.match(text)) or (text.startswith("HBox(children=(HTML(") and "Progress(" in text)


def _without_text_bars(text: str) -> str:
    """The stream's text without the lines (or ``\\r``-separated states) that are tqdm bars."""
    kept = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        states = [part for part in body.split("\r") if not TEXT_PROGRESS.match(part)]
        if "".join(states).strip() or (body == "" and line.endswith("\n")):
            kept.append("\r".join(states) + line[len(body) :])
    return "".join(kept)


def drop_progress_bars(nb: nbformat.NotebookNode) -> int:
    """Remove progress bars from the notebook's outputs (in place); return how many outputs changed.

    A bar is transient: in the notebook it moved while the cell ran; on a page it is a stopped bar,
    red when its loop ended early ("6753/9744"), which reads as a failure. What a cell printed
    besides a bar is kept."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    changed = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                text = _without_text_bars(str(output.get("text", "")))
                if text != output.get("text"):
                    changed += 1
                    if not text.strip():
                        continue
                    output = copy.deepcopy(output)
                    output["text"] = text
            elif _is_progress_output(output, state):
                changed += 1
                continue
            outputs.append(output)
        cell["outputs"] = outputs
    return changed
