"""The declared version ranges: shipped inside the package, compared with what is installed, said once on import."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib

from packaging.requirements import Requirement

from bpelab.course import versions
from bpelab.course.versions import Declared, declared, out_of_range, version_message
from bpelab.paths import REPO_ROOT

PROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _normal(requirements) -> set[str]:
    return {str(Requirement(r)) for r in requirements}


def test_the_installed_metadata_carries_the_ranges_of_pyproject():
    """An installed bpelab has no pyproject.toml: what it compares against must come with it."""
    import importlib.metadata

    shipped = importlib.metadata.requires("bpelab") or []
    lessons = {r for r in shipped if "extra ==" not in r}
    assert _normal(lessons) == _normal(PROJECT["dependencies"]), "reinstall bpelab (make setup) after editing pyproject"


def test_every_direct_dependency_has_a_lower_bound():
    for line in [*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["course"]]:
        requirement = Requirement(line)
        assert any(s.operator in (">=", "~=", "==") for s in requirement.specifier), f"{line}: no lower bound"


def test_an_installed_package_reads_its_ranges_from_its_metadata(monkeypatch):
    monkeypatch.setattr(versions, "running_from_clone", lambda: False)
    versions.declared_requirements.cache_clear()
    try:
        names = {d.name for d in declared()}
    finally:
        versions.declared_requirements.cache_clear()
    assert {"pandas", "tiktoken", "ipywidgets", "jupyterlab"} <= names
    assert "pytest" not in names, "the test extra is not the learner's business"


def test_out_of_range_missing_and_markers():
    requirements = (
        "pandas>=99",  # installed, too old
        "no-such-package-bpelab>=1",  # missing: a problem for what the lessons import
        "no-such-front-end-bpelab>=1; extra == 'course'",  # missing front end: fine (Colab brings its own)
        "tqdm<1; python_version < '3'",  # another Python's bound: not this one's
        "pytest<1; extra == 'test'",  # the test extra: not checked
    )
    problems = {d.name: d for d in out_of_range(requirements)}
    assert set(problems) == {"pandas", "no-such-package-bpelab"}
    assert problems["pandas"].fix == 'pip install "pandas>=99"'
    message = version_message(list(problems.values()))
    assert "pandas" in message and "is outside the course's range >=99" in message
    assert "no-such-package-bpelab is not installed" in message and "restart the kernel" in message


def test_an_unreadable_version_is_not_a_crash():
    assert Declared("odd", ">=1", "not a version").in_range


def test_import_bpelab_warns_once_naming_the_package_and_its_fix():
    """An ipywidgets older than the course allows installed: `import bpelab` says so, then imports."""
    code = textwrap.dedent(
        """
        import importlib.metadata, warnings
        real = importlib.metadata.version
        importlib.metadata.version = lambda name: "7.7.1" if name == "ipywidgets" else real(name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import bpelab
        ours = [w for w in caught if w.category.__name__ == "VersionWarning"]
        assert len(ours) == 1, [str(w.message) for w in caught]
        print(ours[0].message)
        print("imported:", hasattr(bpelab, "BPETokenizer"))
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert "ipywidgets 7.7.1 is outside the course's range >=7.7.2" in result.stdout
    assert 'pip install "ipywidgets>=7.7.2"' in result.stdout
    assert "imported: True" in result.stdout


def test_import_bpelab_is_silent_when_every_package_is_in_range():
    code = textwrap.dedent(
        """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import bpelab
        print([str(w.message) for w in caught if w.category.__name__ == "VersionWarning"])
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_without_packaging_import_and_the_check_still_work():
    """packaging reads the ranges; a learner's environment without it gets a row saying so, not a traceback."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["packaging"] = None  # as if it were not installed
        import bpelab
        from bpelab.course.setup_check import check_packages, check_widgets
        (row,) = check_packages()
        print(row.item, row.status, row.fix)
        print(check_widgets().status)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    assert result.returncode == 0, result.stderr
    assert 'packaging problem pip install "packaging>=23"' in result.stdout
    assert result.stdout.splitlines()[1] == "ok"
