"""Keep a notebook's widget state through JupyterLab's saves: a Jupyter server pre-save hook.

Why it is needed. With ``saveState`` on, JupyterLab 4's widget manager writes into the notebook the
state of the widget models alive in the kernel only (jupyter-widgets/ipywidgets#3888, open). A lesson
opened without being run draws its widgets from the state saved in the file, and none of them is alive;
restoring them marks the notebook changed (so does the kernel's ``language_info``), so the next autosave
wrote the file with no models at all, and the next time it opened every widget read "Error displaying
widget: model not found". A session run, saved, closed, reopened and autosaved lost its widgets the same way.

What the hook does. The server runs it on every save it receives, autosave included, before writing the
file. For each model the notebook's outputs still show (and each model those refer to) that the save
lacks, it takes the model's state from the file on disk. It also keeps the file's ``language_info``
when the kernel only adds details to it: the lessons store ``{"name": "python"}``, and JupyterLab fills
in the running Python's version on opening. And a model the save sends back unchanged keeps the file's
spelling of it: a save made while a lesson still opens sends the widget state JupyterLab read from the file
(the course's JupyterLab extension keeps it there for the widget manager), and JavaScript writes 101.0
back as 101. So opening a lesson and letting it autosave writes back what was there, byte for byte, and a
saved session survives any number of reopenings and autosaves.

File > Save Notebook As writes a new file, so there is no file on disk to take the models from: the hook
then looks in the notebooks beside it for the models the outputs show (their ids are random UUIDs, so a
notebook holding them is the one the copy was made from).

It only ever adds what the outputs need; everything JupyterLab sends is written as sent. ``make lab``
turns it on for the course's environment (``bpelab.course.lab_settings`` enables it as a server
extension); ``jupyter server extension list`` shows it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MAX_NEIGHBOUR_BYTES = 50_000_000
"""A notebook beside a Save As target larger than this is not read for models (a save must stay quick)."""
MODEL_REFERENCE = "IPY_MODEL_"
"""How a widget's state names another model (a box's children, a widget's layout and style)."""


def shown_model_ids(notebook: Mapping[str, Any]) -> list[str]:
    """The ids of the models the notebook's outputs display, in cell order."""
    shown: list[str] = []
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) if isinstance(cell, dict) else []:
            view = output.get("data", {}).get(WIDGET_VIEW) if isinstance(output, dict) else None
            if isinstance(view, dict) and isinstance(view.get("model_id"), str):
                shown.append(view["model_id"])
    return shown


def model_references(value: Any) -> set[str]:
    """The ids of the models a saved model's state refers to: ``"IPY_MODEL_<id>"`` strings, and the
    widget views an ``Output`` widget holds in its own outputs."""
    found: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if item.startswith(MODEL_REFERENCE):
                found.add(item[len(MODEL_REFERENCE) :])
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            view = item.get(WIDGET_VIEW)
            if isinstance(view, dict) and isinstance(view.get("model_id"), str):
                found.add(view["model_id"])
            pending.extend(item.values())
    return found


def models_to_keep(shown: Iterable[str], states: Mapping[str, Any]) -> set[str]:
    """The models of ``states`` that the shown widgets need: the shown ones, every model they refer to
    (transitively), and every model that refers only to kept ones, such as a ``jslink`` between two
    shown widgets (nothing displays a link, yet the page needs it to keep them in step)."""
    references = {model_id: model_references(entry) for model_id, entry in states.items()}
    kept: set[str] = set()
    pending = list(shown)
    while pending:
        while pending:
            model_id = pending.pop()
            if model_id in states and model_id not in kept:
                kept.add(model_id)
                pending.extend(references[model_id])
        pending = [m for m, refs in references.items() if m not in kept and refs and refs <= kept]
    return kept


def widget_state(notebook: Mapping[str, Any]) -> Mapping[str, Any]:
    """The notebook's saved widget state (``{"state": {...}, "version_major": 2, ...}``), or ``{}``."""
    widgets = notebook.get("metadata", {}).get("widgets")
    state = widgets.get(WIDGET_STATE) if isinstance(widgets, dict) else None
    return state if isinstance(state, dict) else {}


def kept_language_info(incoming: Any, on_disk: Any) -> Any:
    """The file's ``language_info`` if the save only adds details to it (same values for every key the
    file has), otherwise the incoming one: a changed language or version is written."""
    if isinstance(incoming, dict) and isinstance(on_disk, dict) and on_disk:
        if all(incoming.get(key) == value for key, value in on_disk.items()):
            return on_disk
    return incoming


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value: 101 and 101.0 are one number (JavaScript keeps no
    difference between them), but true is not 1 and "1" is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(value, b[key]) for key, value in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def saved_model_ids(notebook: Mapping[str, Any]) -> set[str]:
    """The ids of the models whose state the notebook holds."""
    models = widget_state(notebook).get("state", {})
    return set(models) if isinstance(models, dict) else set()


def missing_models(notebook: Mapping[str, Any]) -> set[str]:
    """The models the notebook's outputs show that its own widget state lacks."""
    return set(shown_model_ids(notebook)) - saved_model_ids(notebook)


def notebook_to_save(
    incoming: Mapping[str, Any], on_disk: Mapping[str, Any], *, same_file: bool = True
) -> dict[str, Any]:
    """``incoming`` (the notebook a front end saves, as JSON) with the state of each model its outputs
    show, or need, that it lacks, taken from ``on_disk`` (the file it replaces; with ``same_file=False``,
    the notebook a Save As copied, whose ``language_info`` is not this file's), and the file's own copy
    of each model it sends unchanged (see ``same_json``). Neither is changed."""
    saved = dict(incoming)
    metadata = dict(incoming.get("metadata", {}))
    saved["metadata"] = metadata
    if same_file and "language_info" in metadata and "language_info" in on_disk.get("metadata", {}):
        metadata["language_info"] = kept_language_info(metadata["language_info"], on_disk["metadata"]["language_info"])

    incoming_state, disk_state = widget_state(incoming), widget_state(on_disk)
    incoming_models = incoming_state.get("state", {})
    disk_models = disk_state.get("state", {})
    if not isinstance(incoming_models, dict) or not isinstance(disk_models, dict):
        return saved
    known = {**disk_models, **incoming_models}  # a model alive in the kernel wins over its old state
    missing = sorted(models_to_keep(shown_model_ids(incoming), known) - incoming_models.keys())
    unchanged = [m for m, entry in incoming_models.items() if m in disk_models and same_json(entry, disk_models[m])]
    if missing or unchanged:
        from_disk = {m: disk_models[m] for m in [*missing, *unchanged]}
        # the version fields describe the state's format: the file's when the save sent none
        state = {**disk_state, **incoming_state, "state": {**incoming_models, **from_disk}}
        widgets = metadata.get("widgets")
        metadata["widgets"] = {**(widgets if isinstance(widgets, dict) else {}), WIDGET_STATE: state}
    return saved


def notebook_on_disk(contents_manager: Any, path: str) -> dict[str, Any] | None:
    """The notebook file a save will replace, as JSON; None when there is none or it is not JSON."""
    try:
        os_path = contents_manager._get_os_path(path)  # the file contents manager's own path check
        with open(os_path, encoding="utf-8") as file:
            loaded = json.load(file)
    except Exception:  # no such file (a new notebook), not a file manager, not JSON: nothing to keep
        return None
    return loaded if isinstance(loaded, dict) else None


def notebooks_beside(contents_manager: Any, path: str) -> Iterator[dict[str, Any]]:
    """The other notebooks in the folder of ``path``, as JSON, in name order (unreadable ones skipped)."""
    try:
        target = Path(contents_manager._get_os_path(path))
        neighbours = sorted(p for p in target.parent.glob("*.ipynb") if p != target)
    except Exception:  # not a file manager: nothing to look in
        return
    for neighbour in neighbours:
        try:
            if neighbour.stat().st_size > MAX_NEIGHBOUR_BYTES:
                continue
            loaded = json.loads(neighbour.read_text(encoding="utf-8"))
        except Exception:  # gone meanwhile, unreadable, not JSON
            continue
        if isinstance(loaded, dict):
            yield loaded


def keep_shown_widget_state(model: dict[str, Any], path: str, contents_manager: Any, **_: Any) -> None:
    """The pre-save hook (the server calls it with keywords before writing ``path``)."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    sent = len(widget_state(model["content"]).get("state", {}))
    on_disk = notebook_on_disk(contents_manager, path)
    if on_disk is not None:
        model["content"] = notebook_to_save(model["content"], on_disk)
    elif missing_models(model["content"]):  # a new file (Save As): the models are in the notebook it copied
        for neighbour in notebooks_beside(contents_manager, path):
            if missing_models(model["content"]) & saved_model_ids(neighbour):
                model["content"] = notebook_to_save(model["content"], neighbour, same_file=False)
            if not missing_models(model["content"]):
                break
    kept = len(widget_state(model["content"]).get("state", {})) - sent
    if kept and getattr(contents_manager, "log", None) is not None:
        contents_manager.log.info("bpelab: kept the saved state of %d widget models %s shows", kept, path)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """Jupyter server's entry point: this module is a server extension."""
    return [{"module": "bpelab.course.save_hook"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    """Add the hook to the server's contents manager (after any the user configured)."""
    server_app.contents_manager.register_pre_save_hook(keep_shown_widget_state)
    server_app.log.info("bpelab: widget state the outputs show is kept on every save (%s)", __name__)
