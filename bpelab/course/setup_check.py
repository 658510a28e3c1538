"""Lesson 00: is this machine ready for the course? One table, and for each problem the command that fixes it.

The check looks at three things the lessons rely on: the Python and package versions (inside the
ranges bpelab declares, and, in a clone, the pins the stored outputs were made with), the widget
library, and the four real tokenizers' vocabularies, loaded from the verified offline files (never
from the internet). It only reports: a problem becomes a row with a fix, never an exception, so a
learner on a broken machine still sees what to do.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from bpelab.course.versions import Declared, declared
from bpelab.paths import REPO_ROOT, running_from_clone
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES, load_encoding
from bpelab.vocab_files import FIX_COMMAND, status

MIN_PYTHON = (3, 11, 5)
"""What the Makefile accepts (its MIN_PYTHON): the exact pins (requirements.txt) need it."""
REQUIRES_PYTHON = (3, 11)
"""What bpelab declares (pyproject.toml's requires-python): below it, pip does not install bpelab. Between the two
(3.11.0 to 3.11.4), a pip install resolves other versions of some packages than the pins: the course runs, and some
outputs may differ."""
SETUP_COMMAND = "make setup   (or: pip install -r requirements.txt)"
INSTALL_COMMAND = 'pip install "bpelab[course]"   (from a clone: pip install ".[course]")'
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


def check_python(
    min_version: tuple[int, ...] = MIN_PYTHON,
    *,
    requires: tuple[int, ...] = REQUIRES_PYTHON,
    found: tuple[int, ...] | None = None,
) -> CheckResult:
    """The whole version, patch level included: below ``requires`` bpelab cannot be installed (a problem); from it
    up to ``min_version`` (3.11.0 to 3.11.4) a pip install works but cannot take every exact pin (a warning, as for
    a package other than its pin). ``found``: the version to judge (default: this Python's)."""
    found = tuple(sys.version_info[:3]) if found is None else tuple(found)
    shown = ".".join(map(str, found))
    wanted = ".".join(map(str, min_version))
    if found < requires:
        needed = ".".join(map(str, requires))
        return CheckResult(
            "Python",
            PROBLEM,
            f"{shown} is too old: bpelab needs {needed} or newer",
            f"install Python {wanted} or newer",
        )
    if found < min_version:
        return CheckResult(
            "Python",
            WARNING,
            f"{shown}: the course runs, but its exact pins (make lab, requirements.txt) need {wanted} or newer, "
            "so some packages and outputs may differ",
            f"for the exact pins, install Python {wanted} or newer",
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


def check_packages(packages: list[Declared] | None = None, pins: dict[str, str] | None = None) -> list[CheckResult]:
    """Each declared package: missing or outside bpelab's range is a problem, with the pip command that fixes
    it; in range but not the pinned version (in a clone) is a warning, since some outputs may differ."""
    if packages is None:
        try:
            packages = declared()
        except ImportError as err:  # packaging reads the ranges; without it, say so and check the rest
            return [CheckResult("packaging", PROBLEM, f"not installed ({err})", 'pip install "packaging>=23"')]
    pins = pinned_versions() if pins is None else pins
    results = []
    for package in packages:
        if package.extra and package.in_range:
            continue  # the front end and tools: a row only when wrong (Colab, a JupyterHub, VS Code bring their own)
        if not package.in_range:
            detail = "not installed" if package.installed is None else package.problem.split(" ", 1)[1]
            results.append(CheckResult(package.name, PROBLEM, detail, package.fix))
            continue
        pinned = pins.get(_normal(package.name))
        if pinned and pinned != package.installed:
            detail = f"{package.installed}, the course was run with {pinned}: outputs may differ"
            results.append(CheckResult(package.name, WARNING, detail, SETUP_COMMAND))
        else:
            results.append(CheckResult(package.name, OK, str(package.installed)))
    return results


def check_widgets(packages: list[Declared] | None = None) -> CheckResult:
    """Whether a widget can be built in this kernel. Whether it *shows* is for the front end: see widget_probe."""
    item = "widgets (kernel side)"
    try:
        packages = declared() if packages is None else packages
    except ImportError:
        packages = []  # the packages row already says packaging is missing
    wanted = next((p for p in packages if p.name == "ipywidgets"), None)
    if wanted is not None and not wanted.in_range:
        return CheckResult(item, PROBLEM, f"the course's widgets cannot run: {wanted.problem}", wanted.fix)
    try:
        import ipywidgets

        ipywidgets.HTML("probe")
    except Exception as err:  # any failure here means the same thing to a learner
        return CheckResult(item, PROBLEM, f"cannot build a widget: {err}", INSTALL_COMMAND)
    return CheckResult(item, OK, f"ipywidgets {ipywidgets.__version__} builds widgets")


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
        where = "at the repository root" if running_from_clone() else "(or in a cell, starting with %)"
        lines.append(f"{problems} problem(s), {warnings} warning(s). To fix, run in a terminal {where}:")
        lines += [f"    {fix}" for fix in fixes]
        lines.append("then restart the kernel and run this cell again.")
    return "\n".join(lines)


def check_environment(*, show: bool = True) -> list[CheckResult]:
    """Run every check; print the table when ``show`` is true; return the rows."""
    results = [check_python(), *check_packages(), check_widgets(), *check_tokenizers()]
    if show:
        print(format_report(results))
    return results


WIDGET_FALLBACK = (
    "(Widget probe: run this cell in JupyterLab, Notebook 7 or VS Code, and a green ✅ box replaces this line)"
)
"""The probe's text, shown wherever it is not drawn (ipywidgets cuts text/plain at 110 characters). A kernel cannot
know whether a front end draws what it sends, and the stored lesson ran with none (nbval, ``make lessons``): so the
text says what the learner will see where widgets are drawn, true on every page that shows it."""


def widget_probe() -> object:
    """A small green widget that says widgets render; where it is not drawn, its text says where it would be.

    Without a usable ipywidgets it is a line of text that says so (the report above has the fix)."""
    if check_widgets().status != OK:
        return _Text("❌ widgets cannot be built in this kernel: see the widgets row above for the fix")
    import ipywidgets

    class _Probe(ipywidgets.HTML):
        def __repr__(self) -> str:
            return WIDGET_FALLBACK

    return _Probe(
        "<b style='color:#1a7f37'>✅ widgets render</b>: interactive lessons will work here.",
        layout=ipywidgets.Layout(border="1px solid #1a7f37", padding="2px 8px", width="fit-content"),
    )


class _Text(str):
    """A message that a notebook shows as plain text, without quotes."""

    def __repr__(self) -> str:
        return str(self)
