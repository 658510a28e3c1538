"""Which exercises you have passed: a small file in your cache folder, for the course map (lesson 00).

Every ``check_*`` that passes adds the exercise's name here (``record_pass``, called by
``bpelab.exercises.core``). The file is plain JSON, stays on your computer (``~/.cache/bpelab/progress.json``
on Linux; never inside the repository, never uploaded) and holds only exercise names. Delete it, or call
``reset_progress()``, to start the map afresh.

``$BPELAB_PROGRESS_FILE`` puts it somewhere else (the tests and ``make lessons`` give each run a fresh
one, so your own map is never touched by them); set to an empty string, nothing is recorded.
A checker never fails because of this file: if it cannot be read or written (a read-only home, a full
disk, a damaged file), the pass is simply not recorded.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from bpelab.paths import user_cache_dir

FORMAT = "bpelab-progress v1"


def progress_file() -> Path | None:
    """Where passes are recorded: ``$BPELAB_PROGRESS_FILE`` when set (None if empty), else the cache folder."""
    override = os.environ.get("BPELAB_PROGRESS_FILE")
    if override is not None:
        return Path(override) if override else None
    return user_cache_dir() / "progress.json"


def passed_exercises() -> set[str]:
    """The names of the exercises passed so far (empty when nothing was recorded or the file is unreadable)."""
    path = progress_file()
    if path is None:
        return set()
    try:
        content = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # missing, unreadable or damaged: start from nothing
        return set()
    names = content.get("passed") if isinstance(content, dict) else None
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def record_pass(name: str) -> bool:
    """Add ``name`` to the passed exercises; True if it is in the file now. Never raises."""
    try:
        path = progress_file()
        if path is None:
            return False
        done = passed_exercises()
        if name in done:
            return True
        content = json.dumps({"format": FORMAT, "passed": sorted(done | {name})}, indent=1)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside it, then moved over it: two notebooks passing at once never leave half a file.
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".progress-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(content + "\n")
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        return True
    except Exception:  # a read-only home, a full disk: the check itself still counts
        return False


def reset_progress() -> Path | None:
    """Forget every recorded pass (the course map starts empty again); returns the file that was removed."""
    path = progress_file()
    if path is None:
        return None
    path.unlink(missing_ok=True)
    return path
