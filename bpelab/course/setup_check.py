"""Lesson 00: is this machine ready for the course? One table, and for each problem the command that fixes it.

The check looks at three things the lessons rely on: the Python and package versions the stored
outputs were made with, the widget library, and the four real tokenizers' vocabularies, loaded
from the verified offline files (never from the internet). It only reports: a problem becomes a
row with a fix, never an exception, so a learner on a broken machine still sees what to do.
"""

from __future__ import annotations

import importlib.metadata
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bpelab.course.paths import REPO_ROOT
from bpelab.course.tokenizer_data import FIX_COMMAND, status
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES, load_encoding

if TYPE_CHECKING:
    import ipywidgets

KEY_PACKAGES: tuple[str, ...] = (
    "tiktoken",
    "regex",
    "ipywidgets",
    "jupyterlab",
    "matplotlib",
    "pandas",
    "tokenizers",
    "sentencepiece",
)
"""The packages the lessons import directly (the rest come with them)."""

MIN_PYTHON = (3, 11)
SETUP_COMMAND = "make setup   (or: pip install -r requirements.txt)"
SAMPLE_TEXT = "Hello, world! Tokenizers turn text into numbers."
"""Encoded by each real tokenizer and decoded back, to prove the vocabulary really works."""

OK, WARNING, PROBLEM = "ok", "warning", "problem"
_MARKS = {OK: "✅", WARNING: "⚠️", PROBLEM: "❌"}


@dataclass(frozen=True)
class CheckResult:
    """One row of the report: what was checked, how it went, and what to do if it did not."""

    item: str
    status: str
    """"ok", "warning" (works, but outputs may differ from the stored ones) or "problem"."""
    detail: str
    fix: str = ""


def check_python(min_version: tuple[int, int] = MIN_PYTHON) -> CheckResult:
    """Major.minor only: the patch level changes nothing the lessons show."""
    found = sys.version_info[:2]
    shown = f"{found[0]}.{found[1]}"
    if found < min_version:
        return CheckResult(
            "Python", PROBLEM, f"{shown} is too old", f"install Python {min_version[0]}.{min_version[1]} or newer"
        )
    return CheckResult("Python", OK, shown)


def pinned_versions(requirements: Path | None = None) -> dict[str, str]:
    """The exact versions in requirements.txt, keyed by lower-case name; empty when the file is absent."""
    path = requirements if requirements is not None else REPO_ROOT / "requirements.txt"
    if not path.exists():
        return {}
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[_normal(name)] = version.split(";", 1)[0].strip()  # "1.0 ; sys_platform == 'win32'"
    return pins


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def check_packages(names: tuple[str, ...] = KEY_PACKAGES, pins: dict[str, str] | None = None) -> list[CheckResult]:
    """Each package's installed version; a different version than the pin is a warning, a missing one a problem."""
    pins = pinned_versions() if pins is None else pins
    results = []
    for name in names:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            results.append(CheckResult(name, PROBLEM, "not installed", SETUP_COMMAND))
            continue
        pinned = pins.get(_normal(name))
        if pinned and pinned != version:
            results.append(
                CheckResult(
                    name, WARNING, f"{version}, the course was run with {pinned}: outputs may differ", SETUP_COMMAND
                )
            )
        else:
            results.append(CheckResult(name, OK, version))
    return results


def check_widgets() -> CheckResult:
    """Whether a widget can be built in this kernel. Whether it *shows* is for the front end: see widget_probe."""
    try:
        import ipywidgets

        ipywidgets.HTML("probe")
    except Exception as err:  # any failure here means the same thing to a learner
        return CheckResult("widgets (kernel side)", PROBLEM, f"cannot build a widget: {err}", SETUP_COMMAND)
    return CheckResult("widgets (kernel side)", OK, f"ipywidgets {ipywidgets.__version__} builds widgets")


def check_tokenizers(names: tuple[str, ...] = ENCODING_NAMES, sample: str = SAMPLE_TEXT) -> list[CheckResult]:
    """Each real tokenizer, loaded from its verified offline file, encoding ``sample`` and decoding it back.

    A missing or damaged file is reported before anything is loaded, so nothing ever tries the
    internet.
    """
    found = status()
    results = []
    for name in names:
        label = FRIENDLY_NAMES.get(name, name)
        state = found.get(name, "unknown")
        if state != "ok":
            problem = state.split(" (", 1)[0]  # the path in brackets means little to a learner
            results.append(CheckResult(label, PROBLEM, f"vocabulary file {problem}", FIX_COMMAND))
            continue
        try:
            encoding = load_encoding(name)
            ids = encoding.encode(sample)
            round_trip = encoding.decode(ids) == sample
        except Exception as err:  # report, never raise: the learner needs the fix, not a traceback
            results.append(CheckResult(label, PROBLEM, f"could not load: {err}", FIX_COMMAND))
            continue
        if not round_trip:
            results.append(CheckResult(label, PROBLEM, "decoding did not give the text back", FIX_COMMAND))
            continue
        results.append(
            CheckResult(label, OK, f"offline, n_vocab {encoding.n_vocab:,}; sample = {len(ids)} tokens, round trip ok")
        )
    return results


def format_report(results: list[CheckResult]) -> str:
    """The rows as an aligned text table, then one line per fix to run."""
    width = max(len(r.item) for r in results)
    lines = [f"{_MARKS.get(r.status, '?')} {r.item:<{width}}  {r.detail}" for r in results]
    fixes = list(dict.fromkeys(r.fix for r in results if r.status != OK and r.fix))
    problems = sum(r.status == PROBLEM for r in results)
    warnings = sum(r.status == WARNING for r in results)
    lines.append("")
    if problems == 0 and warnings == 0:
        lines.append("Everything is ready. On to lesson 01!")
    else:
        lines.append(f"{problems} problem(s), {warnings} warning(s). To fix, run in a terminal at the repository root:")
        lines += [f"    {fix}" for fix in fixes]
        lines.append("then restart the kernel and run this cell again.")
    return "\n".join(lines)


def check_environment(*, show: bool = True) -> list[CheckResult]:
    """Run every check; print the table when ``show`` is true; return the rows."""
    results = [check_python(), *check_packages(), check_widgets(), *check_tokenizers()]
    if show:
        print(format_report(results))
    return results


WIDGET_FALLBACK = "(Widgets are not drawn here: open this notebook in JupyterLab 4 or Notebook 7, trust it, run again)"
"""What a front end without widget support shows instead of the widget (ipywidgets cuts text/plain at 110)."""


def widget_probe() -> ipywidgets.HTML:
    """A small green widget that says widgets render. Where they do not, its text fallback says so."""
    import ipywidgets

    class _Probe(ipywidgets.HTML):
        def __repr__(self) -> str:
            return WIDGET_FALLBACK

    return _Probe(
        "<b style='color:#1a7f37'>✅ widgets render</b>: interactive lessons will work here.",
        layout=ipywidgets.Layout(border="1px solid #1a7f37", padding="2px 8px", width="fit-content"),
    )
