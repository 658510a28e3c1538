"""Static lesson pages for the browser tests, written the way ``make html`` writes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bpelab.course.html_export import WEB_ASSETS, fetch_tarball, install_assets, write_site


def write_static_site(out: Path, notebooks: list[Path], **options: Any) -> Path:
    """Write ``notebooks`` as pages into ``out`` with the widget manager and the course's page scripts.

    Skips the calling test, with the reason, when the page scripts cannot be fetched (npm and its
    registry are needed once; ``make html`` says the same)."""
    for asset in WEB_ASSETS:
        try:
            fetch_tarball(asset)
        except RuntimeError as err:
            pytest.skip(f"the page scripts could not be fetched ({err}); `make html` explains")
    write_site(out, notebooks, log=lambda *_: None, **options)
    problems = install_assets(out / "_static")
    assert not problems, problems
    return out
