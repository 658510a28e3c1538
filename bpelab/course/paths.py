"""Where the course's files are: lessons read data relative to the repository, never by absolute path."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def data_dir() -> Path:
    """The repository's ``data/`` folder (or ``$BPELAB_DATA_DIR`` when set)."""
    override = os.environ.get("BPELAB_DATA_DIR")
    return Path(override) if override else REPO_ROOT / "data"
