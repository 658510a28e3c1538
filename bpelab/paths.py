"""Where the course's files are, in a clone of the repository and in an installed package alike.

In a clone, the corpora live in the repository's ``data/`` folder. An installed bpelab (``pip install .``,
Binder, Colab) carries the same files inside the package as ``bpelab/data`` (pyproject.toml maps one to
the other), so the lessons never need to know which case they are in, nor any absolute path.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent
"""The repository's root when bpelab runs from a clone (in an installed package: site-packages)."""


def data_dir() -> Path:
    """The course's corpora: ``$BPELAB_DATA_DIR`` when set, else the installed package's copy, else the clone's."""
    override = os.environ.get("BPELAB_DATA_DIR")
    if override:
        return Path(override)
    packaged = PACKAGE_DIR / "data"
    return packaged if packaged.is_dir() else REPO_ROOT / "data"


def running_from_clone() -> bool:
    """True when bpelab is imported from a clone of the repository (editable install or plain checkout)."""
    return not (PACKAGE_DIR / "data").is_dir() and (REPO_ROOT / "pyproject.toml").is_file()


def user_cache_dir() -> Path:
    """This user's cache folder for bpelab, by each system's convention (nothing is written here by importing)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "bpelab"


def tokenizer_store_dir() -> Path:
    """Where the verified vocabulary files are kept.

    In a clone: ``data/tokenizers/`` (ignored by git), beside the corpora. With ``$BPELAB_DATA_DIR`` set: its
    ``tokenizers/`` folder. In an installed package, whose folder may be read-only: the user's cache folder
    (``~/.cache/bpelab/tokenizers`` on Linux).
    """
    if os.environ.get("BPELAB_DATA_DIR") or running_from_clone():
        return data_dir() / "tokenizers"
    return user_cache_dir() / "tokenizers"
