"""Shared fixtures: small real texts read from the course's own data.

Where the course map's record of passed exercises goes during tests: see the repository's root ``conftest.py``.
"""

import pytest

from bpelab.paths import data_dir


@pytest.fixture(scope="session")
def english_sample() -> str:
    return (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:40_000]
