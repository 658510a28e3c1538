"""``make lab`` writes JupyterLab's venv-wide defaults: widget state saved with the notebook, no news prompt."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpelab.course.lab_settings import overrides_path, write_overrides
from bpelab.paths import REPO_ROOT

SAVE_STATE = "@jupyter-widgets/jupyterlab-manager:plugin"
NEWS = "@jupyterlab/apputils-extension:notification"


def test_fresh_environment_gets_save_state_and_no_news(tmp_path: Path) -> None:
    path = write_overrides(tmp_path)
    assert path == tmp_path / "share/jupyter/lab/settings/overrides.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    assert settings[SAVE_STATE]["saveState"] is True
    assert settings[NEWS]["fetchNews"] == "false"  # JupyterLab's schema: a string, "true" | "false" | "none"


def test_existing_overrides_are_kept_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    path = overrides_path(tmp_path)
    path.parent.mkdir(parents=True)
    theirs = {
        "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
        SAVE_STATE: {"saveState": False, "other": 3},
    }
    path.write_text(json.dumps(theirs), encoding="utf-8")
    write_overrides(tmp_path)
    first = path.read_bytes()
    settings = json.loads(first)
    assert settings["@jupyterlab/apputils-extension:themes"] == {"theme": "JupyterLab Dark"}
    assert settings[SAVE_STATE] == {"saveState": True, "other": 3}
    write_overrides(tmp_path)
    assert path.read_bytes() == first


def test_broken_overrides_file_is_named_not_overwritten(tmp_path: Path) -> None:
    path = overrides_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="overrides.json is not valid JSON"):
        write_overrides(tmp_path)
    assert path.read_text(encoding="utf-8") == "{not json"


def recipe_lines(target: str) -> list[str]:
    """The command lines of one Makefile target."""
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, flags=re.MULTILINE)
    assert recipe, f"no {target} target"
    return recipe.group(1).splitlines()


def test_make_lab_writes_the_settings_before_starting_jupyterlab() -> None:
    """(``make present`` runs Voila, which neither saves notebooks nor asks about news.)"""
    lines = recipe_lines("lab")
    settings = next(i for i, line in enumerate(lines) if "bpelab.course.lab_settings" in line)
    assert settings < next(i for i, line in enumerate(lines) if "jupyter lab" in line)
