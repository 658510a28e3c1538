"""Writing a file so that a failure midway never destroys the good copy already there.

Writing in place truncates the old file first: a full disk or a size limit then leaves half a file that no
longer loads. Writing a temporary file in the same folder and renaming it over the old one (``os.replace``,
atomic on one file system) leaves either the old file or the whole new one.
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path``: all of it, or nothing (the old file stays)."""
    existing_mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else None
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        # mkstemp makes the file private (0600); give it the mode a plain write would have
        os.chmod(temporary, existing_mode if existing_mode is not None else 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
