"""JupyterLab's settings for the course (``make lab`` writes them into the virtual environment).

Two defaults change, in ``<venv>/share/jupyter/lab/settings/overrides.json`` (JupyterLab reads that
file as the venv-wide default; a learner's own settings still win):

- the widget manager saves widget state with the notebook (``saveState``; JupyterLab's default is not
  to). Without it, a lesson saved after a session keeps outputs that point at widgets it did not save:
  reopened, they read "Error displaying widget: model not found", and ``make html`` draws them as text;
- no "Would you like to receive official Jupyter news?" prompt on first open (``fetchNews``): the
  course needs nothing from the internet, and a learner's first screen is the lesson.

``saveState`` alone saves only the widgets alive in the kernel (jupyter-widgets/ipywidgets#3888): an
autosave of a lesson merely opened would drop every widget it shows. So the Jupyter server gets the
course's pre-save hook too (``bpelab.course.save_hook``, enabled as a server extension in
``<venv>/etc/jupyter/jupyter_server_config.d/bpelab.json``, which every Jupyter server started from
the venv reads).

The server's hook mends the file, not the open page: the widget manager reads the widgets saved in a notebook
only once its new kernel has started, and on a busy machine a save before that (an autosave, or Ctrl+S at once)
empties them from the page's copy, or a widget gives up looking for its model just as it comes; either way it
reads "model not found" until the lesson is opened again. So JupyterLab gets the course's own small extension
too (``bpelab/course/lab_extension``, copied into ``<venv>/share/jupyter/labextensions/bpelab-saved-widgets``),
which fixes both in the page.

Settings already in overrides.json are kept; running it twice writes the same bytes.

    python -m bpelab.course.lab_settings            # into this interpreter's environment (sys.prefix)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

COURSE_OVERRIDES: dict[str, dict[str, Any]] = {
    "@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
}
"""Plugin id -> the settings the course needs (``fetchNews`` is a string in JupyterLab's schema)."""


def _write_if_changed(path: Path, text: str) -> None:
    """Write only what differs: a second run leaves every file (and its mtime) as it was."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def overrides_path(prefix: Path | str = sys.prefix) -> Path:
    """Where JupyterLab looks for an environment's default settings."""
    return Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"


SAVE_HOOK_EXTENSION = "bpelab.course.save_hook"
"""The server extension that keeps the state of the widgets a notebook's outputs show through every save."""


def server_config_path(prefix: Path | str = sys.prefix) -> Path:
    """The course's own file among the Jupyter server settings of an environment."""
    return Path(prefix) / "etc" / "jupyter" / "jupyter_server_config.d" / "bpelab.json"


def write_server_config(prefix: Path | str = sys.prefix) -> Path:
    """Enable the save hook for every Jupyter server of the environment; return the file's path."""
    path = server_config_path(prefix)
    config = {"ServerApp": {"jpserver_extensions": {SAVE_HOOK_EXTENSION: True}}}
    _write_if_changed(path, json.dumps(config, indent=2, sort_keys=True) + "\n")
    return path


LAB_EXTENSION = "bpelab-saved-widgets"
"""The course's JupyterLab extension: its folder name under ``labextensions`` is its package name."""
LAB_EXTENSION_SOURCE = Path(__file__).with_name("lab_extension")
LAB_EXTENSION_FILES = ("package.json", "saved_widgets.js")
INSTALL_NOTE = {
    "packageManager": "python",
    "packageName": "bpelab",
    "uninstallInstructions": "Delete this folder (make lab writes it again)",
}
"""What ``jupyter labextension list`` says of where the extension came from."""


def lab_extensions_dir(prefix: Path | str = sys.prefix) -> Path:
    """Where JupyterLab finds the prebuilt extensions of an environment."""
    return Path(prefix) / "share" / "jupyter" / "labextensions"


def install_lab_extension(prefix: Path | str = sys.prefix) -> Path:
    """Copy the course's JupyterLab extension into the environment; return its folder."""
    folder = lab_extensions_dir(prefix) / LAB_EXTENSION
    for name in LAB_EXTENSION_FILES:
        _write_if_changed(folder / name, (LAB_EXTENSION_SOURCE / name).read_text(encoding="utf-8"))
    _write_if_changed(folder / "install.json", json.dumps(INSTALL_NOTE, indent=2, sort_keys=True) + "\n")
    return folder


def merged_overrides(existing: dict[str, Any]) -> dict[str, Any]:
    """``existing`` with the course's settings added (each plugin's other settings kept)."""
    merged = dict(existing)
    for plugin, settings in COURSE_OVERRIDES.items():
        current = merged.get(plugin)
        merged[plugin] = {**(current if isinstance(current, dict) else {}), **settings}
    return merged


def write_overrides(prefix: Path | str = sys.prefix) -> Path:
    """Add the course's settings to the environment's ``overrides.json``; return its path."""
    path = overrides_path(prefix)
    existing: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
        except json.JSONDecodeError as err:
            raise ValueError(f"{path} is not valid JSON ({err}); fix or delete it, then run make lab again") from err
        if not isinstance(loaded, dict):
            raise ValueError(f"{path} must hold a JSON object (plugin id -> settings); fix or delete it")
        existing = loaded
    _write_if_changed(path, json.dumps(merged_overrides(existing), indent=2, sort_keys=True) + "\n")
    return path


def main(prefix: Path | str = sys.prefix) -> int:
    """Write all three into the environment at ``prefix`` (this interpreter's by default); 1 on a broken file."""
    try:
        path = write_overrides(prefix)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    hook = write_server_config(prefix)
    extension = install_lab_extension(prefix)
    print(f"JupyterLab saves widget state with each notebook and asks no news question ({path});")
    print(f"every save keeps the state of the widgets the notebook shows ({hook});")
    print(f"the widgets saved in a lesson draw when it opens, however slowly its kernel starts ({extension})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
