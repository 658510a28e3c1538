"""Are the installed packages inside the ranges bpelab declares? Asked by ``import bpelab`` and by lesson 00.

Learners install the course into the environment they already have (a venv, conda, a JupyterHub, Colab),
so the versions there are whatever they are. The ranges the course was tested with (``make test-compat``)
are those of ``pyproject.toml``; an installed bpelab carries them in its own metadata, so the check works
the same in a clone and in an installed package, and needs no file outside the package.
It only reports: a missing or odd package is a line with the pip command that fixes it, never a crash.
"""

from __future__ import annotations

import importlib.metadata
import tomllib
import warnings
from dataclasses import dataclass
from functools import cache

from bpelab.paths import REPO_ROOT, running_from_clone

COURSE_EXTRA = "course"
"""The extra with the front end and the course's tools (JupyterLab, Voila, nbconvert): not needed in Colab."""


class VersionWarning(UserWarning):
    """An installed package is outside the range the course was tested with."""


@dataclass(frozen=True)
class Declared:
    """One package bpelab declares, the range it allows, and what is installed."""

    name: str
    specifier: str
    """The allowed range, such as ">=8.1" ("" when any version is allowed)."""
    installed: str | None
    """The installed version, or None when the package is missing."""
    extra: str = ""
    """"" for what the lessons import; "course" for the front end and tools, which may be absent."""

    @property
    def in_range(self) -> bool:
        if self.installed is None:
            return bool(self.extra)  # a front end the learner does not use (Colab has its own) is fine
        from packaging.requirements import Requirement  # imported here: a missing packaging must not break import
        from packaging.version import InvalidVersion, Version

        try:
            return Version(self.installed) in Requirement(f"{self.name}{self.specifier}").specifier
        except InvalidVersion:
            return True  # a local build with a version packaging cannot read: nothing to say about it

    @property
    def fix(self) -> str:
        return f'pip install "{self.name}{self.specifier}"'

    @property
    def problem(self) -> str:
        """What is wrong, in words ("" when nothing is)."""
        if self.in_range:
            return ""
        if self.installed is None:
            return f"{self.name} is not installed (the course needs {self.name}{self.specifier})"
        return f"{self.name} {self.installed} is outside the course's range {self.specifier}"


@cache
def declared_requirements() -> tuple[str, ...]:
    """bpelab's requirement strings: from pyproject.toml in a clone, else from the installed metadata."""
    pyproject = REPO_ROOT / "pyproject.toml"
    if running_from_clone() and pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
        course = project.get("optional-dependencies", {}).get(COURSE_EXTRA, [])
        return (*project["dependencies"], *(f"{r}; extra == '{COURSE_EXTRA}'" for r in course))
    try:
        return tuple(importlib.metadata.requires("bpelab") or ())
    except importlib.metadata.PackageNotFoundError:
        return ()


def _installed(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def declared(requirements: tuple[str, ...] | None = None) -> list[Declared]:
    """Every package the lessons import and every one of the course extra, for this Python, sorted by name.

    Raises ImportError when ``packaging`` (which reads the ranges) is missing: the callers say so.
    """
    from packaging.requirements import InvalidRequirement, Requirement

    found: dict[str, Declared] = {}
    for line in declared_requirements() if requirements is None else requirements:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        marker = requirement.marker
        if marker is None or marker.evaluate({"extra": ""}):
            extra = ""
        elif marker.evaluate({"extra": COURSE_EXTRA}):
            extra = COURSE_EXTRA
        else:
            continue  # another Python's bound, or the test extra
        name = requirement.name.lower()
        found.setdefault(name, Declared(name, str(requirement.specifier), _installed(name), extra))
    return sorted(found.values(), key=lambda d: d.name)


def out_of_range(requirements: tuple[str, ...] | None = None) -> list[Declared]:
    """The declared packages that are missing (lessons' packages only) or installed outside their range."""
    return [d for d in declared(requirements) if not d.in_range]


def version_message(problems: list[Declared]) -> str:
    """One paragraph: what is wrong, and the pip commands that fix it."""
    lines = [f"  {d.problem}: {d.fix}" for d in problems]
    return (
        "bpelab: some packages are outside the versions the course was tested with, so some lessons may fail:\n"
        + "\n".join(lines)
        + "\nRun those commands (in a notebook: %pip install ...), then restart the kernel."
    )


def warn_if_out_of_range() -> None:
    """One warning naming every out-of-range package; silent when all is well, and never raises."""
    try:
        problems = out_of_range()
    except Exception:  # the check must never stop `import bpelab`
        return
    if problems:
        warnings.warn(version_message(problems), VersionWarning, stacklevel=3)
