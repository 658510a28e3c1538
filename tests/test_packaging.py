"""Setup and packaging: consistent pins, a Makefile that checks Python first, and a wheel that runs anywhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from bpelab import paths
from bpelab.paths import REPO_ROOT
from tests.installing import (
    add_nbval,
    clean_env,
    copy_repository,
    fresh_venv,
    run,
    run_lessons_under_nbval,
    seed_tokenizer_store,
    uv,
)

PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MAKEFILE = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")


def read_pins(path: Path) -> dict[str, str]:
    """Package name to its whole pin line (version and environment marker), comments dropped."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            assert "==" in line, f"{path.name}: {line!r} is not an exact pin"
            pins[_name(line)] = line.split("==", 1)[1].strip()
    return pins


COURSE = read_pins(REPO_ROOT / "requirements.txt")
TEST = read_pins(REPO_ROOT / "requirements-test.txt")
TEST_ONLY_DIRECT = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}


def _makefile_variable(name: str) -> str:
    match = re.search(rf"^{name}\s*:?=\s*(\S+)", MAKEFILE, re.MULTILINE)
    assert match, f"the Makefile sets no {name}"
    return match.group(1)


# ---- one source of truth for the pins ----------------------------------------------------------------


def test_test_pins_hold_every_course_pin_at_the_same_version():
    assert set(COURSE) <= set(TEST)
    differ = {name: (COURSE[name], TEST[name]) for name in COURSE if COURSE[name] != TEST[name]}
    assert not differ, f"requirements.txt and requirements-test.txt disagree: {differ}. Run: make pins"


def test_a_learners_pins_hold_no_test_only_package():
    assert set(TEST) >= TEST_ONLY_DIRECT, "every test package is pinned in requirements-test.txt"
    leaked = TEST_ONLY_DIRECT & set(COURSE)
    assert not leaked, f"test-only packages in the learner's requirements.txt: {leaked}"
    # Packages only the test tools pull in stay out too (pytest's plugins and helpers, Playwright's greenlet).
    assert not {"pluggy", "iniconfig", "execnet", "greenlet", "coverage", "sortedcontainers"} & set(COURSE)


def test_every_direct_need_is_pinned_where_it_is_used():
    course_direct = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    course_direct |= {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["course"]}
    assert course_direct <= set(COURSE), course_direct - set(COURSE)
    # The lessons import these two (11 and 12): a learner needs them, not only the tests.
    assert {"tokenizers", "sentencepiece"} <= set(COURSE)


def test_pins_keep_the_versions_the_stored_outputs_were_made_with():
    """These versions change what the lessons print; changing one means re-running the lessons (make lessons)."""
    assert COURSE["regex"] == "2025.7.34"  # Unicode tables that match tiktoken's (lesson 07)
    assert COURSE["tiktoken"] == "0.14.0"
    assert COURSE["matplotlib"] == "3.11.2"
    assert COURSE["pandas"] == "3.1.1"


def test_the_makefile_installs_the_pinned_uv():
    assert TEST["uv"] == _makefile_variable("UV_VERSION")


def test_python_requirement_matches_the_pins():
    """pyproject's floor is bpelab's own (3.11); the Makefile checks the pinned set's (3.11.5: soupsieve 4.1.2)."""
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"
    assert _makefile_variable("MIN_PYTHON") == "3.11.5"
    assert "--python-version $(MIN_PYTHON)" in MAKEFILE, "make pins resolves for the oldest Python it accepts"


# ---- the package carries its data --------------------------------------------------------------------


def test_every_package_is_listed_for_the_wheel():
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(REPO_ROOT).parts) for init in (REPO_ROOT / "bpelab").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(on_disk - listed)}"
    assert PYPROJECT["tool"]["setuptools"]["package-dir"] == {"bpelab.data": "data"}


def test_every_folder_the_wheel_carries_is_a_listed_package():
    """A folder of data files (the widgets' scripts in bpelab/widgets/static) is a package to setuptools too:
    unlisted, building the wheel warns that it is absent from the packages configuration."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    folders = {
        ".".join(folder.relative_to(REPO_ROOT).parts)
        for folder in [REPO_ROOT / "bpelab", *(REPO_ROOT / "bpelab").rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__" and any(f.is_file() for f in folder.iterdir())
    }
    assert folders <= listed, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(folders - listed)}"
    package_data = PYPROJECT["tool"]["setuptools"]["package-data"]
    assert package_data.get("bpelab.widgets.static") == ["*.js"], "the widgets' scripts go into the wheel"


def test_installed_copy_of_the_data_is_preferred(tmp_path, monkeypatch):
    monkeypatch.delenv("BPELAB_DATA_DIR", raising=False)
    assert paths.data_dir() == REPO_ROOT / "data", "in a clone, the repository's data/"
    assert paths.tokenizer_store_dir() == REPO_ROOT / "data" / "tokenizers"

    installed = tmp_path / "site-packages" / "bpelab"
    (installed / "data").mkdir(parents=True)
    monkeypatch.setattr(paths, "PACKAGE_DIR", installed)
    monkeypatch.setattr(paths, "REPO_ROOT", installed.parent)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert paths.data_dir() == installed / "data"
    assert paths.tokenizer_store_dir() == tmp_path / "cache" / "bpelab" / "tokenizers", "never inside site-packages"

    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "mine"))
    assert paths.data_dir() == tmp_path / "mine"
    assert paths.tokenizer_store_dir() == tmp_path / "mine" / "tokenizers"


# ---- the Makefile checks the interpreter before installing anything ------------------------------------


def _bin_without_uv(tmp_path: Path) -> Path:
    """A PATH with only what the Makefile's first steps need, so a uv installed on this machine is not found."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("make", "id", "rm", "sed"):
        found = subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True, text=True).stdout.strip()
        assert found, f"{tool} is needed"
        (folder / tool).symlink_to(found)
    return folder


def _make_lab(tmp_path: Path, path: Path, *variables: str) -> subprocess.CompletedProcess[str]:
    venv = tmp_path / "venv"
    command = ["make", "--no-print-directory", "-C", str(REPO_ROOT), "lab", f"VENV={venv}", *variables]
    return subprocess.run(command, capture_output=True, text=True, env={"PATH": str(path)}, timeout=60)


def _pyenv_python_310() -> str | None:
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(root.glob("3.10*/bin/python3.10"))
    return str(found[-1]) if found else None


@pytest.mark.parametrize("too_old", ["python 3.10", "a minimum above this Python"])
def test_make_lab_stops_before_installing_when_python_is_too_old(tmp_path, too_old):
    if too_old == "python 3.10":
        python = _pyenv_python_310()
        if python is None:
            pytest.skip("no Python 3.10 on this machine (pyenv install 3.10 to run this case)")
        variables = [f"PYTHON={python}"]
    else:
        variables = [f"PYTHON={sys.executable}", "MIN_PYTHON=99.0"]
    result = _make_lab(tmp_path, _bin_without_uv(tmp_path), *variables)
    assert result.returncode != 0
    assert "Nothing was installed" in result.stderr
    assert "PYTHON=python3.12" in result.stderr and "uv" in result.stderr, "it says what to do"
    assert not (tmp_path / "venv").exists()


def test_make_lab_asks_uv_for_a_newer_python_when_uv_is_there(tmp_path):
    """A stand-in uv records how it was called, and fails: the Makefile must then stop with advice."""
    path = _bin_without_uv(tmp_path)
    record = tmp_path / "uv-called-with"
    (path / "uv").write_text(f'#!/bin/sh\necho "$@" > {record}\nexit 1\n', encoding="utf-8")
    (path / "uv").chmod(0o755)
    result = _make_lab(tmp_path, path, f"PYTHON={sys.executable}", "MIN_PYTHON=99.0")
    assert "that uv" in result.stdout and "finds or downloads" in result.stdout, "it says it uses uv"
    assert record.read_text(encoding="utf-8").split() == [
        "venv",
        "--quiet",
        "--seed",
        "--python",
        ">=99.0",
        str(tmp_path / "venv"),
    ]
    assert result.returncode != 0 and "uv could not provide Python >= 99.0" in result.stderr
    assert not (tmp_path / "venv").exists()


# ---- the wheel, installed elsewhere, runs the course ---------------------------------------------------


@pytest.mark.slow
def test_installed_wheel_runs_lessons_from_anywhere(tmp_path):
    """Build the wheel, install it (not editable) in a fresh venv, and use it from a folder outside the repository."""
    source = copy_repository(tmp_path / "source")
    env = clean_env(tmp_path)
    run([uv(), "build", "--quiet", "--wheel", "--out-dir", str(tmp_path / "dist"), str(source)], cwd=tmp_path, env=env)
    (wheel,) = (tmp_path / "dist").glob("bpelab-*.whl")
    scripts = [name for name in zipfile.ZipFile(wheel).namelist() if name.startswith("bpelab/widgets/static/")]
    assert "bpelab/widgets/static/stepper.js" in scripts, "the widgets' ES modules ship"
    assert not [name for name in scripts if name.endswith(".test.js")], "their unit tests stay in the repository"
    python = fresh_venv(tmp_path / "venv", env, seed_pip=False)
    add_nbval(python, env)
    run([uv(), "pip", "install", "--quiet", "--python", str(python), "--no-deps", str(wheel)], cwd=tmp_path, env=env)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    code = (
        "import bpelab, pathlib; print(pathlib.Path(bpelab.__file__).parent); "
        "print(len(bpelab.read_corpus('english_train'))); print(len(bpelab.load_parallel()))"
    )
    package, characters, languages = run([str(python), "-c", code], cwd=elsewhere, env=env).stdout.split()
    assert Path(package).is_relative_to(tmp_path / "venv"), "bpelab came from the venv, not the repository"
    # Known answers read straight from the repository's files.
    assert int(characters) == len((REPO_ROOT / "data" / "english_train.txt").read_text(encoding="utf-8"))
    assert int(languages) == len(list((REPO_ROOT / "data" / "parallel").glob("*.txt")))

    store = seed_tokenizer_store(python, env, elsewhere)
    assert not store.is_relative_to(tmp_path / "venv"), "the vocabularies are kept outside the installed package"
    setup = run([str(python), "-m", "bpelab.setup_data"], cwd=elsewhere, env=env).stdout
    assert "downloading" not in setup and "Tokenizer data ready" in setup
    assert len(list((tmp_path / "tiktoken-cache").iterdir())) == 3, "r50k, cl100k and o200k placed where tiktoken looks"

    lessons = ["00_start_here.ipynb", "04_merging_step_by_step.ipynb", "09_multilingual_tax.ipynb"]
    report = run_lessons_under_nbval(python, env, lessons, elsewhere / "notebooks")
    assert re.search(r"\d+ passed", report) and "failed" not in report, report


def test_the_readme_pip_path_is_the_one_test_compat_installs():
    """make test-compat installs bpelab as the README tells pip users: ".[course]", from the clone, not editable."""
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert 'pip install ".[course]"' in readme and "python -m bpelab.setup_data" in readme
    driver = (REPO_ROOT / "tests" / "compat" / "run_compat.py").read_text(encoding="utf-8")
    assert 'f"{source}[course]"' in driver and "-e" not in driver.split('f"{source}[course]"')[0].splitlines()[-1]
    assert "course" in PYPROJECT["project"]["optional-dependencies"]
