"""Saved lessons keep no run's timings in their widget state: tqdm's bars say " [00:08<00:00, 156.54it/s]" after
their count, different on every run, so each ``make lessons`` changed bytes that no one edited."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpelab.course.lessons import WIDGET_STATE, stable_model_ids

LESSONS = sorted((Path(__file__).parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _values(notebook: dict) -> list[str]:
    state = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return [m["state"]["value"] for m in state.values() if isinstance(m.get("state", {}).get("value"), str)]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_no_saved_progress_bar_says_how_long_it_took(path):
    timed = [v for v in _values(json.loads(path.read_text(encoding="utf-8"))) if "it/s]" in v or "s/it]" in v]
    assert not timed, f"{path.name}: {timed[:3]}"


def _saved(values: list[str]) -> str:
    models = {f"{i:032x}": {"model_name": "HTMLModel", "state": {"value": v}} for i, v in enumerate(values)}
    return json.dumps({"cells": [], "metadata": {"widgets": {WIDGET_STATE: {"state": models}}}})


def test_a_bars_count_stays_and_its_timing_goes_and_so_two_runs_save_the_same_bytes():
    first = stable_model_ids(_saved([" 802/? [00:08&lt;00:00, 156.54it/s]", "100%", "a [note] kept"]), "x.ipynb")
    second = stable_model_ids(_saved([" 802/? [00:01&lt;00:00, 912.20it/s]", "100%", "a [note] kept"]), "x.ipynb")
    assert first == second
    assert sorted(_values(json.loads(first))) == sorted([" 802/?", "100%", "a [note] kept"])
    slow = stable_model_ids(_saved([" 3/10 [01:02:03<00:10,  7.51s/it]"]), "y.ipynb")
    assert _values(json.loads(slow)) == [" 3/10"]


def test_ids_given_again_to_a_saved_lesson_are_the_same_ids():
    saved = stable_model_ids(_saved(["a", "b", "c"]), "z.ipynb")
    assert stable_model_ids(saved, "z.ipynb") == saved
