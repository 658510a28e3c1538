"""What each static page says it can do (``make html``): true for that page, computed from its notebook.

A page drawn from saved widget state has no kernel, yet much works in it: the merge steppers step
through every merge, the word-level ones train a text the reader types, and the encode explorer
encodes typed text with the lesson's word-level tokenizers, GPT-2, GPT-4, GPT-4o and Llama 3 (js-tiktoken) and
Mistral 7B (static/sentencepiece.js), the
chat view renders typed turns in each format, with the page's own encoders.
What needs Python is running the code, a tokenizer the browser does not have (a byte-level one of your own), and a widget
the notebook saved no state for. Each page's note names exactly those, from the notebook's own
widget state, so that no page says "open make lab" for something that works in it.
"""

from __future__ import annotations

from typing import Any

import nbformat

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
STEPPER = "bpelab.widgets.stepper.MergeStepper"
EXPLORER = "bpelab.widgets.explorer.EncodeExplorer"
CHAT = "bpelab.widgets.chat.ChatView"
COMPARE = "bpelab.widgets.compare.CompareView"


def saved_state(nb: nbformat.NotebookNode) -> dict[str, Any]:
    """The notebook's saved widget models, by id (empty without saved state)."""
    state: dict[str, Any] = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return state


def widget_views(nb: nbformat.NotebookNode) -> list[str]:
    """The model id of every widget an output shows, in order."""
    return [
        output["data"][WIDGET_VIEW]["model_id"]
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]


def widget_note(nb: nbformat.NotebookNode) -> str:
    """How the page will show the notebook's widgets: drawn from saved state, or as their text."""
    state = saved_state(nb)
    views = widget_views(nb)
    drawn = sum(model in state for model in views)
    notes = [f"{drawn} widget{'s' * (drawn != 1)} drawn"] if drawn else []
    if len(views) > drawn:
        notes.append(f"{len(views) - drawn} shown as text (no saved widget state)")
    return f"  ({'; '.join(notes)})" if notes else ""


def _trains_in_page(trace: dict[str, Any]) -> bool:
    """The stepper offers "Train on your own text" in a page: word-level runs scored by count (stepper.js)."""
    return not trace.get("ids") and trace.get("scoreName", "count") == "count"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def page_abilities(nb: nbformat.NotebookNode) -> tuple[list[str], list[str]]:
    """(what works in the page, what needs Python), each as phrases, from the notebook's widgets."""
    state = saved_state(nb)
    here: list[str] = []
    python: list[str] = ["running the code"]
    steppers = explorers = compares = trainable = as_text = 0
    in_browser: list[str] = []
    kernel_only: list[str] = []
    chat_here: list[str] = []
    chat_python: list[str] = []
    compare_here: list[str] = []
    compare_python: list[str] = []
    for model_id in widget_views(nb):
        model = state.get(model_id)
        if model is None:
            as_text += 1
            continue
        widget = model.get("state", {})
        kind = widget.get("_anywidget_id")
        if kind == STEPPER:
            steppers += 1
            trainable += _trains_in_page(widget.get("trace") or {})
        elif kind in (EXPLORER, COMPARE):
            explorers += kind == EXPLORER
            compares += kind == COMPARE
            for tokenizer in widget.get("tokenizers") or []:
                label = str(tokenizer.get("label", "")).split(" (")[0]
                works = tokenizer.get("kind") == "word" or tokenizer.get("browser", False)
                if kind == EXPLORER:
                    target = in_browser if works else kernel_only
                else:
                    target = compare_here if works else compare_python
                if label and label not in target:
                    target.append(label)
        elif kind == CHAT:
            for chat_format in widget.get("formats") or []:
                target = chat_here if chat_format.get("browser", False) else chat_python
                label = str(chat_format.get("short", chat_format.get("name", "")))
                if label and label not in target:
                    target.append(label)
    if steppers:
        what = "the merge stepper steps" if steppers == 1 else f"the {steppers} merge steppers step"
        train = ""
        if trainable == steppers:
            train = " and trains a text you type" if steppers == 1 else ", and each trains a text you type"
        elif trainable:
            train = f", and the word-level one{'s' * (trainable != 1)} train{'s' * (trainable == 1)} a text you type"
        here.append(f"{what} through every merge{train} (click a stepper, then ← and → step it)")
    if explorers:
        here.append(f"the encode explorer encodes text you type with {_and(in_browser)}" if in_browser else "")
        if kernel_only and compare_python != kernel_only:
            python.append(f"{_and(kernel_only)} in the explorer")
    if compares:
        here.append(
            f"the side-by-side view lines up {_and(compare_here)} on text you type" if len(compare_here) > 1 else ""
        )
    if kernel_only and compare_python == kernel_only:
        python.append(f"{_and(kernel_only)} in the explorer and the side-by-side view")
    elif compare_python:
        python.append(f"{_and(compare_python)} in the side-by-side view")
    if chat_here:
        here.append(f"the chat view renders turns you type as {_and(chat_here)} tokens")
    if chat_python:
        python.append(f"new turns as {_and(chat_python)} tokens in the chat view")
    if as_text:
        python.append("the widget shown as text" if as_text == 1 else f"the {as_text} widgets shown as text")
    return [h for h in here if h], python


def page_note(nb: nbformat.NotebookNode) -> str:
    """The note under a page's navigation bar (HTML): a copy to read; what works here; what needs Python."""
    here, python = page_abilities(nb)
    note = "A copy to read, with the outputs as stored."
    if here:
        note += f" In this page {_and(here)}."
    needs = _and(python)
    verb = "needs" if len(python) == 1 else "need"
    return note + f" {needs[0].upper()}{needs[1:]} {verb} Python: open the course with <code>make lab</code>."
