"""Which exercises you have passed: a small file in your cache folder, for the course map (lesson 00).

Every ``check_*`` that passes adds the exercise's name here (``record_pass``, called by
``bpelab.exercises.results``); a checker called with ``record=False`` (a lesson showing what it says) adds
nothing. The file is plain JSON, stays on your computer (``~/.cache/bpelab/progress.json`` on Linux; never
inside the repository, never uploaded) and holds only exercise names. Delete it, or call ``reset_progress()``,
to start the map afresh.

``$BPELAB_PROGRESS_FILE`` puts it somewhere else (the tests and ``make lessons`` give each run a fresh
one, so your own map is never touched by them); set to an empty string, nothing is recorded.

Several notebooks (or the processes of a classroom server) may pass exercises at the same moment: each pass
reads, adds and writes the file while holding a lock on ``progress.json.lock`` beside it, so no pass is lost,
and writes a new file beside the old one, then moves it over, so a reader never sees half a file.
A damaged file (not the JSON written here) is never silently replaced: the next pass moves it aside, to
``progress.json.damaged``, says so once, and starts a new file. A checker never fails because of this file:
if it cannot be read or written (a read-only home, a full disk), the pass is simply not recorded.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bpelab.paths import user_cache_dir

FORMAT = "bpelab-progress v1"


class DamagedProgress(ValueError):
    """The progress file exists but does not hold what ``record_pass`` writes."""


def progress_file() -> Path | None:
    """Where passes are recorded: ``$BPELAB_PROGRESS_FILE`` when set (None if empty), else the cache folder."""
    override = os.environ.get("BPELAB_PROGRESS_FILE")
    if override is not None:
        return Path(override) if override else None
    return user_cache_dir() / "progress.json"


def damaged_copy(path: Path) -> Path:
    """Where a damaged progress file is kept: beside it, as ``progress.json.damaged``."""
    return path.with_name(path.name + ".damaged")


def _read(path: Path) -> set[str]:
    """The names in the file (empty if there is no file); ``DamagedProgress`` if it is not what we write."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return set()
    except UnicodeDecodeError as err:
        raise DamagedProgress("not text") from err
    try:
        content = json.loads(text)
    except ValueError as err:
        raise DamagedProgress("not valid JSON") from err
    names = content.get("passed") if isinstance(content, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DamagedProgress("no list of passed exercises in it")
    return set(names)


def passed_exercises() -> set[str]:
    """The names of the exercises passed so far (empty when nothing was recorded or the file is unreadable)."""
    path = progress_file()
    if path is None:
        return set()
    try:
        return _read(path)
    except (OSError, DamagedProgress):
        return set()


def progress_problem() -> str | None:
    """Why the course map cannot show your passes (the file is damaged), or None when all is well."""
    path = progress_file()
    if path is None:
        return None
    try:
        _read(path)
    except DamagedProgress as err:
        return f"your progress file {path} is damaged ({err}); your next passed check keeps it aside as {damaged_copy(path).name}"
    except OSError:
        return None
    return None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``<path>.lock`` (released by the system even if the process dies)."""
    with open(path.with_name(path.name + ".lock"), "a+b") as handle:
        if sys.platform == "win32":
            import msvcrt

            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)  # waits up to 10 s, then OSError: not recorded
            try:
                yield
            finally:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _set_aside(path: Path, why: str) -> None:
    """Move a damaged file to ``progress.json.damaged`` and tell the learner (once: the new file is sound)."""
    kept = damaged_copy(path)
    os.replace(path, kept)
    print(
        f"⚠️ course map: your progress file was damaged ({why}). It is kept as {kept}, and a new one starts "
        "with this pass: exercises passed before are not ticked until you run their checks again.",
        file=sys.stderr,
    )


def record_pass(name: str) -> bool:
    """Add ``name`` to the passed exercises; True if it is in the file now. Never raises."""
    try:
        path = progress_file()
        if path is None:
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(path):
            try:
                done = _read(path)
            except DamagedProgress as err:
                _set_aside(path, str(err))
                done = set()
            if name in done:
                return True
            content = json.dumps({"format": FORMAT, "passed": sorted(done | {name})}, indent=1)
            # Written beside it, then moved over it: a reader never sees half a file.
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
