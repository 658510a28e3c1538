"""``make lab`` writes JupyterLab's venv-wide defaults (widget state saved with the notebook, no news prompt),
enables the course's save hook for every Jupyter server of the venv, and installs the course's JupyterLab
extension (a save while a lesson opens keeps its saved widgets; its behaviour is tested by
``bpelab/course/lab_extension/saved_widgets.test.js`` and in a browser by ``tests/browser/test_saved_widget_state.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpelab.course.lab_settings import (
    LAB_EXTENSION,
    install_lab_extension,
    lab_extensions_dir,
    main,
    overrides_path,
    server_config_path,
    write_overrides,
    write_server_config,
)
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


def test_the_server_config_enables_the_save_hook_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    path = write_server_config(tmp_path)
    assert path == tmp_path / "etc/jupyter/jupyter_server_config.d/bpelab.json"  # read by every server of the venv
    first = path.read_bytes()
    config = json.loads(first)
    assert config == {"ServerApp": {"jpserver_extensions": {"bpelab.course.save_hook": True}}}
    write_server_config(tmp_path)
    assert path.read_bytes() == first


def test_a_jupyter_server_of_this_environment_reads_the_server_config() -> None:
    """``make lab`` writes into the venv's sys.prefix, and the venv's ``jupyter lab`` looks there."""
    from jupyter_core.paths import jupyter_config_path

    assert server_config_path().parents[1] in [Path(p) for p in jupyter_config_path()]


def test_the_extension_is_copied_whole_and_a_second_run_changes_nothing(tmp_path: Path) -> None:
    folder = install_lab_extension(tmp_path)
    assert folder == tmp_path / "share/jupyter/labextensions/bpelab-saved-widgets"
    source = REPO_ROOT / "bpelab" / "course" / "lab_extension"
    for name in ("package.json", "saved_widgets.js"):
        assert (folder / name).read_bytes() == (source / name).read_bytes()
    assert not list(folder.glob("*.test.js")), "the extension's tests stay in the repository"
    assert json.loads((folder / "install.json").read_text(encoding="utf-8"))["packageName"] == "bpelab"
    stamps = {path.name: path.stat().st_mtime_ns for path in folder.iterdir()}
    install_lab_extension(tmp_path)
    assert {path.name: path.stat().st_mtime_ns for path in folder.iterdir()} == stamps


def test_jupyterlab_finds_the_extension_where_it_is_copied(tmp_path: Path) -> None:
    """What the server reads to list the extension in the page (and ``jupyter labextension list`` shows)."""
    from jupyterlab_server.config import get_federated_extensions

    install_lab_extension(tmp_path)
    found = get_federated_extensions([str(lab_extensions_dir(tmp_path))])
    assert set(found) == {LAB_EXTENSION}
    build = found[LAB_EXTENSION]["jupyterlab"]["_build"]
    assert build == {"load": "saved_widgets.js", "extension": "./extension"}
    assert (lab_extensions_dir(tmp_path) / LAB_EXTENSION / build["load"]).is_file()
    # the name the script registers its container under is the one JupyterLab looks it up by
    script = (lab_extensions_dir(tmp_path) / LAB_EXTENSION / build["load"]).read_text(encoding="utf-8")
    assert f'const NAME = "{LAB_EXTENSION}";' in script


def test_a_jupyterlab_of_this_environment_looks_where_the_extension_is_copied() -> None:
    from jupyter_core.paths import jupyter_path

    assert lab_extensions_dir() in [Path(p) for p in jupyter_path("labextensions")]


def test_the_command_writes_all_three(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(tmp_path) == 0
    assert overrides_path(tmp_path).exists() and server_config_path(tmp_path).exists()
    assert (lab_extensions_dir(tmp_path) / LAB_EXTENSION / "package.json").exists()
    assert "widgets" in capsys.readouterr().out


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
