"""The course's pre-save hook keeps the state of every widget model a notebook's outputs show.

JupyterLab 4 saves only the models alive in the kernel (jupyter-widgets/ipywidgets#3888): a lesson opened
and autosaved without being run lost all 24 of lesson 05's models. The notebooks here are made by hand,
as the widget manager writes them: a progress bar is an HBox of three widgets, each with a layout and a
style, every link an ``"IPY_MODEL_<id>"`` string; the save JupyterLab sends after opening a lesson holds
an empty ``state`` and the kernel's full ``language_info`` (both measured in the browser, see
tests/browser/test_saved_widget_state.py).
"""

from __future__ import annotations

import copy
import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jupyter_server.services.contents.filemanager import FileContentsManager

from bpelab.course import save_hook
from bpelab.course.save_hook import (
    WIDGET_STATE,
    WIDGET_VIEW,
    model_references,
    notebook_to_save,
    same_json,
    shown_model_ids,
)
from bpelab.paths import REPO_ROOT

KERNEL_LANGUAGE_INFO = {
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "name": "python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
    "version": "3.11.7",
}
"""What JupyterLab writes into a notebook's metadata once its kernel has started (seen in the browser)."""


def ref(model_id: str) -> str:
    return f"IPY_MODEL_{model_id}"


def model(name: str, **state: Any) -> dict[str, Any]:
    return {
        "model_module": "@jupyter-widgets/controls",
        "model_module_version": "2.0.0",
        "model_name": name,
        "state": state,
    }


def shows(model_id: str) -> dict[str, Any]:
    """A cell output displaying a widget."""
    return {
        "output_type": "display_data",
        "metadata": {},
        "data": {
            "text/plain": "HBox(...)",
            WIDGET_VIEW: {"model_id": model_id, "version_major": 2, "version_minor": 0},
        },
    }


def notebook(outputs: list[dict[str, Any]], state: dict[str, Any] | None, **metadata: Any) -> dict[str, Any]:
    cell = {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": outputs, "source": "x"}
    meta: dict[str, Any] = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    meta.update(metadata)
    if state is not None:
        meta["widgets"] = {WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    return {"cells": [cell], "metadata": meta, "nbformat": 4, "nbformat_minor": 5}


def saved_models(nb: dict[str, Any]) -> dict[str, Any]:
    return nb["metadata"]["widgets"][WIDGET_STATE]["state"]


def progress_bar(prefix: str) -> dict[str, Any]:
    """tqdm's notebook bar as ipywidgets saves it: HBox(label, bar, count), each with its layout and style."""
    models = {
        f"{prefix}box": model(
            "HBoxModel",
            children=[ref(f"{prefix}label"), ref(f"{prefix}bar"), ref(f"{prefix}count")],
            layout=ref(f"{prefix}box-layout"),
        ),
        f"{prefix}box-layout": model("LayoutModel"),
    }
    for part, name in (("label", "HTMLModel"), ("bar", "FloatProgressModel"), ("count", "HTMLModel")):
        models[f"{prefix}{part}"] = model(
            name, layout=ref(f"{prefix}{part}-layout"), style=ref(f"{prefix}{part}-style")
        )
        models[f"{prefix}{part}-layout"] = model("LayoutModel")
        models[f"{prefix}{part}-style"] = model("HTMLStyleModel")
    return models


def test_an_autosave_without_live_widgets_writes_back_every_model_the_outputs_show() -> None:
    bar = progress_bar("new-")
    stale = progress_bar("old-")  # from an earlier run of the cell: nothing shows it any more
    on_disk = notebook([shows("new-box")], {**stale, **bar})
    incoming = notebook([shows("new-box")], {})  # what JupyterLab sends: no model is alive in the kernel
    saved = notebook_to_save(incoming, on_disk)
    assert saved_models(saved) == bar  # 11 models: the box, its 3 children, 4 layouts, 3 styles
    assert len(bar) == 11
    assert saved["cells"] == incoming["cells"]


def test_models_inside_an_output_widget_and_links_between_shown_widgets_are_kept() -> None:
    states = {
        "out": model("OutputModel", outputs=[shows("button")], layout=ref("out-layout")),
        "out-layout": model("LayoutModel"),
        "button": model("ButtonModel", style=ref("button-style")),
        "button-style": model("ButtonStyleModel"),
        "slider": model("IntSliderModel"),
        "stack": model("StackModel", children=[ref("page")]),
        "page": model("HTMLModel"),
        "link": model("LinkModel", source=[ref("slider"), "value"], target=[ref("stack"), "selected_index"]),
        "gone": model("IntSliderModel"),
        "dangling-link": model("LinkModel", source=[ref("slider"), "value"], target=[ref("gone"), "value"]),
    }
    on_disk = notebook([shows("out"), shows("slider"), shows("stack")], states)
    saved = notebook_to_save(notebook([shows("out"), shows("slider"), shows("stack")], {}), on_disk)
    assert set(saved_models(saved)) == set(states) - {"gone", "dangling-link"}


def test_a_model_alive_in_the_kernel_wins_and_the_inputs_are_not_changed() -> None:
    bar = progress_bar("")
    on_disk = notebook([shows("box")], bar)
    live_box = model(
        "HBoxModel", children=[ref("label"), ref("bar"), ref("count")], layout=ref("box-layout"), box_style="success"
    )
    incoming = notebook([shows("box")], {"box": live_box})
    before = copy.deepcopy((incoming, on_disk))
    saved = notebook_to_save(incoming, on_disk)
    assert saved_models(saved)["box"] == live_box
    assert saved_models(saved)["bar-style"] == bar["bar-style"]
    assert (incoming, on_disk) == before


def test_a_save_with_no_widget_metadata_gets_the_state_and_the_files_format_version() -> None:
    on_disk = notebook([shows("box")], progress_bar(""))
    on_disk["metadata"]["widgets"][WIDGET_STATE]["version_minor"] = 1
    saved = notebook_to_save(notebook([shows("box")], None), on_disk)
    state = saved["metadata"]["widgets"][WIDGET_STATE]
    assert (state["version_major"], state["version_minor"]) == (2, 1)
    assert set(state["state"]) == set(progress_bar(""))


def test_cleared_outputs_keep_nothing_from_the_file() -> None:
    on_disk = notebook([shows("box")], progress_bar(""))
    incoming = notebook([], {})
    assert notebook_to_save(incoming, on_disk) == incoming


@pytest.mark.parametrize(
    ("incoming", "on_disk", "written"),
    [
        (KERNEL_LANGUAGE_INFO, {"name": "python"}, {"name": "python"}),  # the kernel only adds details
        (KERNEL_LANGUAGE_INFO, {**KERNEL_LANGUAGE_INFO, "version": "3.12.1"}, KERNEL_LANGUAGE_INFO),  # another Python
        ({"name": "R"}, {"name": "python"}, {"name": "R"}),  # another language
        ({"name": "python"}, KERNEL_LANGUAGE_INFO, {"name": "python"}),  # the front end sent less: as sent
    ],
)
def test_language_info_is_kept_only_when_the_kernel_adds_details(
    incoming: dict[str, Any], on_disk: dict[str, Any], written: dict[str, Any]
) -> None:
    saved = notebook_to_save(notebook([], None, language_info=incoming), notebook([], None, language_info=on_disk))
    assert saved["metadata"]["language_info"] == written


@pytest.mark.parametrize("lesson", ["04_merging_step_by_step.ipynb", "05_encoding_and_decoding.ipynb"])
def test_a_committed_lesson_opened_and_autosaved_is_written_back_as_it_was(lesson: str) -> None:
    """What JupyterLab sends on the first autosave after opening a lesson (no models alive, the
    kernel's language_info), measured in the browser: the hook must turn it back into the lesson."""
    original = json.loads((REPO_ROOT / "notebooks" / lesson).read_text(encoding="utf-8"))
    assert saved_models(original), f"{lesson} has no saved widget state to lose"
    sent = copy.deepcopy(original)
    sent["metadata"]["widgets"][WIDGET_STATE]["state"] = {}
    sent["metadata"]["language_info"] = KERNEL_LANGUAGE_INFO
    assert notebook_to_save(sent, original) == original


def as_javascript_sends(value: Any) -> Any:
    """``value`` after a trip through a page: JSON.parse then JSON.stringify writes a whole float as an integer."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {key: as_javascript_sends(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_javascript_sends(item) for item in value]
    return value


@pytest.mark.parametrize("lesson", ["04_merging_step_by_step.ipynb", "05_encoding_and_decoding.ipynb"])
def test_a_save_made_while_a_lesson_opens_is_written_back_byte_for_byte(lesson: str) -> None:
    """Measured in the browser: a save before the widget manager has read the lesson's widgets sends them
    as the page read them (the course's JupyterLab extension keeps them), so lesson 05's progress bars come
    back with "max": 101 for the file's 101.0. The file must keep its own spelling."""
    text = (REPO_ROOT / "notebooks" / lesson).read_text(encoding="utf-8")
    original = json.loads(text)
    sent = as_javascript_sends(copy.deepcopy(original))
    sent["metadata"]["language_info"] = KERNEL_LANGUAGE_INFO
    if lesson.startswith("05"):
        assert json.dumps(sent["metadata"]["widgets"]) != json.dumps(original["metadata"]["widgets"]), (
            "lesson 05 no longer holds a whole float in its widget state: this case tests nothing there"
        )
    written = nbformat.writes(nbformat.from_dict(notebook_to_save(sent, original))) + "\n"
    assert written == text


def test_a_model_sent_back_changed_is_written_as_sent_even_where_python_calls_it_equal() -> None:
    bar = progress_bar("")
    on_disk = notebook([shows("box")], bar)
    changed = copy.deepcopy(bar)
    changed["bar"]["state"]["value"] = 1  # was absent; and below, True where the file has 1
    changed["label"]["state"]["value"] = True
    on_disk_label = copy.deepcopy(on_disk)
    saved_models(on_disk_label)["label"]["state"]["value"] = 1
    saved = notebook_to_save(notebook([shows("box")], changed), on_disk_label)
    assert saved_models(saved)["bar"]["state"]["value"] == 1
    assert saved_models(saved)["label"]["state"]["value"] is True


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values, st.booleans())
def test_same_json_is_equal_text_once_a_page_has_written_both(a: Any, b: Any, round_trip: bool) -> None:
    """Differential: ``same_json`` against the JSON text a page would write for each (half the time ``b`` is
    ``a`` after such a trip, which must count as the same)."""
    if round_trip:
        b = as_javascript_sends(a)
    text = lambda v: json.dumps(as_javascript_sends(v), sort_keys=True)  # noqa: E731
    assert same_json(a, b) == (text(a) == text(b))
    if round_trip:
        assert same_json(a, b)


# ---- generated widget graphs -------------------------------------------------------------------------


@st.composite
def widget_graphs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(on disk, incoming): up to 14 models, each referring to some later ones (as a box refers to its
    children and layout), some shown, the save holding any subset of them, some with a newer state."""
    size = draw(st.integers(1, 14))
    ids = [f"{index:032x}" for index in range(size)]
    states: dict[str, Any] = {}
    for index, model_id in enumerate(ids):
        children = draw(st.lists(st.sampled_from(ids[index + 1 :]), unique=True)) if index + 1 < size else []
        states[model_id] = model("BoxModel", children=[ref(c) for c in children])
    shown = draw(st.lists(st.sampled_from(ids), unique=True))
    on_disk = notebook([shows(m) for m in shown], states)
    sent_ids = draw(st.lists(st.sampled_from(ids), unique=True))
    sent = {m: model("BoxModel", **{**states[m]["state"], "box_style": "live"}) for m in sent_ids}
    return on_disk, notebook([shows(m) for m in shown], sent)


@settings(max_examples=80, deadline=None)
@given(widget_graphs())
def test_every_shown_model_and_all_it_refers_to_is_saved_and_nothing_sent_is_lost(
    graph: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    on_disk, incoming = graph
    saved = notebook_to_save(incoming, on_disk)
    models, sent, disk = saved_models(saved), saved_models(incoming), saved_models(on_disk)
    needed = set(shown_model_ids(incoming))
    while True:  # follow the references by hand: everything a shown widget draws
        more = {r for m in needed for r in model_references(models.get(m, {}))} - needed
        if not more:
            break
        needed |= more
    assert needed <= set(models)
    assert all(models[m] == state for m, state in sent.items())  # what the front end sent is written as sent
    for added in set(models) - set(sent):
        assert models[added] == disk[added]
        assert model_references(models[added]) <= set(models)  # no reference left dangling
    assert notebook_to_save(saved, on_disk) == saved  # a second autosave changes nothing


# ---- in the server ---------------------------------------------------------------------------------


@pytest.fixture
def contents_manager(tmp_path: Path) -> FileContentsManager:
    """Jupyter server's own file manager, with the hook added as the course's server extension adds it."""
    manager = FileContentsManager(root_dir=str(tmp_path))
    save_hook._load_jupyter_server_extension(SimpleNamespace(contents_manager=manager, log=logging.getLogger("test")))
    return manager


def test_the_server_writes_the_state_the_save_lacked(contents_manager: FileContentsManager, tmp_path: Path) -> None:
    bar = progress_bar("")
    (tmp_path / "lesson.ipynb").write_text(json.dumps(notebook([shows("box")], bar)), encoding="utf-8")
    contents_manager.save({"type": "notebook", "content": notebook([shows("box")], {})}, "lesson.ipynb")
    written = nbformat.read(tmp_path / "lesson.ipynb", as_version=4)
    assert written.metadata.widgets[WIDGET_STATE]["state"] == bar


@pytest.mark.parametrize("on_disk", [None, "{not json", "[]"])
def test_a_new_or_unreadable_file_is_replaced_by_the_save_as_sent(
    contents_manager: FileContentsManager, tmp_path: Path, on_disk: str | None
) -> None:
    if on_disk is not None:
        (tmp_path / "mine.ipynb").write_text(on_disk, encoding="utf-8")
    sent = notebook([shows("box")], {})
    contents_manager.save({"type": "notebook", "content": copy.deepcopy(sent)}, "mine.ipynb")
    without_hook = FileContentsManager(root_dir=str(tmp_path))  # what the server writes on its own
    without_hook.save({"type": "notebook", "content": copy.deepcopy(sent)}, "reference.ipynb")
    assert (tmp_path / "mine.ipynb").read_bytes() == (tmp_path / "reference.ipynb").read_bytes()


def test_save_as_takes_the_models_from_the_notebook_it_copied(
    contents_manager: FileContentsManager, tmp_path: Path
) -> None:
    """File > Save Notebook As: a new file, no state sent (the models were restored without a kernel)."""
    bar, other = progress_bar(""), progress_bar("other-")
    (tmp_path / "a_notes.ipynb").write_text(json.dumps(notebook([shows("other-box")], other)), encoding="utf-8")
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    (tmp_path / "lesson.ipynb").write_text(json.dumps(notebook([shows("box")], bar)), encoding="utf-8")
    contents_manager.save({"type": "notebook", "content": notebook([shows("box")], {})}, "mine.ipynb")
    written = nbformat.read(tmp_path / "mine.ipynb", as_version=4)
    assert written.metadata.widgets[WIDGET_STATE]["state"] == bar  # the lesson's models, none of the notes'
    # a model no notebook beside it holds: written as sent
    contents_manager.save({"type": "notebook", "content": notebook([shows("gone")], {})}, "other.ipynb")
    assert nbformat.read(tmp_path / "other.ipynb", as_version=4).metadata.widgets[WIDGET_STATE]["state"] == {}


def test_the_module_is_a_valid_jupyter_server_extension() -> None:
    from jupyter_server.extension.manager import ExtensionPackage

    package = ExtensionPackage(name="bpelab.course.save_hook")
    assert package.validate()
