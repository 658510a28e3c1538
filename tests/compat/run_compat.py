"""``make test-compat``: the course at both ends of its declared version ranges, installed as a learner would.

For Python 3.11 at uv's ``--resolution lowest-direct`` (every direct dependency at the lowest version
pyproject.toml allows), and Python 3.13 at the newest versions the index has, in sequence (the other two corners
only when named: ``LEFT_OUT_BY_DEFAULT``):

1. copy the repository's files (what a fresh clone holds) to a temporary folder;
2. ``python -m venv`` (the pip and setuptools that Python ships, as VS Code's "Create Environment" makes it);
3. install bpelab from that copy the way the README tells pip users, ``.[course]``, not editable, no pins
   (with ``uv pip install``: pip has no lowest-direct resolution, and is minutes slower);
4. ``python -m bpelab.setup_data`` from a folder outside the repository, into empty caches;
5. every lesson (``notebooks/[0-9][0-9]_*.ipynb``) top to bottom in a fresh kernel, from a folder outside the
   repository, two at a time; outputs are not compared (they were made with the pins), an error fails;
6. the unit tests (pytest, hypothesis and openai-harmony added to the venv), without the browser, nbval and install
   tests and those that hold a checker's strictness (``UNIT_TESTS_LEFT_OUT_GLOBS``), in one environment only:
   Python 3.11 with the lowest versions (the one farthest from the pins ``make test`` runs them with), or the one
   environment the command names. Two runs of them no longer fitted CI's 90 minutes beside ``make test`` (the run
   of 2026-11-28 timed out in the second); the other environments still run every lesson. Each checker's right
   path is held there by tests/test_shown_solutions_pass.py.

Every stage prints one line; a failure prints what failed and the run goes on to the end, then exits 1.
Interpreters: ``COMPAT_PYTHONS="3.11=/path/to/python3.11 3.13=/path/to/python3.13"``, else ``python3.11`` and
``python3.13`` on PATH, else pyenv's. Run it with the repository's .venv python (it has uv).
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))  # run as a script: tests.installing is the repository's own helper

from tests.installing import copy_repository  # noqa: E402  (the path above first)

PYTHONS = ("3.11", "3.13")
RESOLUTIONS = ("lowest-direct", "highest")
SHOWN = ("anywidget", "ipywidgets", "matplotlib", "numpy", "pandas", "regex", "tiktoken", "tokenizers", "jupyterlab")
"""The versions printed for each venv, so a log says what was tested."""
UNIT_TESTS_LEFT_OUT = (
    "tests/browser",  # drive Chromium against JupyterLab: the pinned make test does that
    "tests/test_packaging.py",  # checks the pins and installs wheels with them
    "tests/test_binder.py",  # replays Binder's pinned build
    "tests/test_memory_budget.py",  # a kernel's memory with the pinned versions (make test): minutes per lesson here
)
UNIT_TESTS_LEFT_OUT_GLOBS = (
    # A checker's strictness: each wrong answer a fresh read or a mutant wrote is refused and named. The checker and
    # its reference compute with the same libraries at every version, so these hold the course's logic, not the
    # libraries' range; make test runs them (with the pins). About 1,800 tests. What a checker needs from the
    # libraries is held here by tests/test_shown_solutions_pass.py: every shown solution passes its checker.
    "tests/test_read*.py",
    "tests/test_mutation_*.py",
    "tests/test_exercises*.py",
    "tests/test_lesson16_*.py",
    "tests/test_engine_*.py",
    # The pages' JavaScript held equal to Python in Node: the JavaScript is the same at every version, and make test
    # holds the Python side with the pins; minutes of Node per file (tests/test_compare.py keeps the Python side here).
    "tests/test_js_*.py",
)
UNIT_TESTS_DESELECTED = (
    # re-runs a lesson and compares every byte with the stored outputs, which the pins made (nbval's job)
    "tests/test_lessons.py::test_rerunning_an_untouched_lesson_changes_no_byte",
    # installs transformers into a venv of its own with the test environment's uv, which these venvs lack
    "tests/test_export_files.py::test_transformers_loads_the_folder_with_its_roles",
)
LEFT_OUT_BY_DEFAULT = (("3.11", "highest"), ("3.13", "lowest-direct"))
"""Run only when named (``make test-compat COMPAT_ARGS="3.11 highest"``): Python 3.11 at the newest versions, the
environment nearest the pins that ``make test`` runs everything with, and Python 3.13 at the lowest versions, the
middle corner (the lowest versions run at 3.11, Python 3.13 at the newest). Their runs no longer fitted CI's 90
minutes beside ``make test`` (about 45 of them on 2 cores, 2026-11-28)."""
UNIT_TEST_CORNERS = (("3.11", "lowest-direct"),)
"""Where the unit tests run when every environment does (see the module's docstring, step 6)."""
UNIT_TEST_TOOLS = ("pytest", "pytest-timeout", "pytest-xdist", "hypothesis", "openai-harmony")
"""Added to each venv for its unit tests (openai-harmony: tests/test_chat_formats.py compares with it)."""
LESSON_WORKERS = 2
STEP_TIMEOUT_S = 1800
"""The limit for installing, setting up data and the unit tests (each takes a few minutes at most)."""
LESSON_TIMEOUT_S = 600
"""The limit for one lesson (each takes under a minute; run_lesson's own limits fail a stuck cell sooner)."""
STOPPED = -9
"""The exit code ``run`` gives a command it stopped at its time limit."""


def say(text: str) -> None:
    print(text, flush=True)


def find_python(version: str) -> str:
    """The interpreter for ``version``: from COMPAT_PYTHONS, PATH or pyenv; a clear error when there is none."""
    for item in os.environ.get("COMPAT_PYTHONS", "").split():
        wanted, _, path = item.partition("=")
        if wanted == version:
            return path
    candidates = [shutil.which(f"python{version}") or ""]
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    candidates += sorted(glob.glob(f"{pyenv_root}/versions/{version}.*/bin/python{version}"), reverse=True)
    for candidate in filter(None, candidates):
        check = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True)
        if check.returncode == 0 and check.stdout.decode().strip() == str(tuple(map(int, version.split(".")))):
            return candidate
    raise SystemExit(
        f"error: no Python {version} found (tried python{version} on PATH and pyenv). "
        f'Install one, or name it: COMPAT_PYTHONS="{version}=/path/to/python{version}" make test-compat'
    )


def uv() -> str:
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if not found:
        raise SystemExit("error: uv is missing: run make setup-test first (requirements-test.txt pins uv)")
    return found


def run(
    command: list[str], env: dict[str, str], cwd: Path, timeout: float = STEP_TIMEOUT_S
) -> subprocess.CompletedProcess[str]:
    """Run ``command``; past ``timeout`` seconds, end it and its process group and return exit code ``STOPPED``
    with what it printed so far, so that one stuck step fails its stage, not the whole run. (A lesson's kernel runs
    in a session of its own, as jupyter_client starts it; it ends itself once its parent is gone.)"""
    with subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the command and anything it started in its group
            stdout, stderr = process.communicate()
            stderr += f"\n(stopped: still running after {timeout:.0f} s)"
            return subprocess.CompletedProcess(command, STOPPED, stdout, stderr)
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def clean_env(home: Path) -> dict[str, str]:
    """This environment minus what points at the repository's venv or data; caches and Jupyter under ``home``."""
    dropped = {"VIRTUAL_ENV", "PYTHONPATH", "BPELAB_DATA_DIR", "MPLBACKEND", "TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    uv_cache = subprocess.run([uv(), "cache", "dir"], capture_output=True, text=True, check=True).stdout.strip()
    pip_cache = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pip"
    env.update(
        UV_CACHE_DIR=uv_cache,
        PIP_CACHE_DIR=str(pip_cache),  # pip's download cache stays warm; bpelab's own caches start empty
        XDG_CACHE_HOME=str(home / "cache"),
        TIKTOKEN_CACHE_DIR=str(home / "tiktoken-cache"),
        IPYTHONDIR=str(home / "ipython"),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        UV_NO_PROGRESS="1",
        PYTHONWARNINGS="ignore::DeprecationWarning",
    )
    return env


class Failed(Exception):
    """A stage failed; its message is what the log shows."""


def check(result: subprocess.CompletedProcess[str], what: str) -> str:
    if result.returncode != 0:
        raise Failed(f"{what} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


KERNEL_DID_NOT_START = ("Kernel didn't respond", "Address already in use")
"""What a lesson's run says when its kernel never started (then it is run once more)."""


def run_lessons(python: Path, env: dict[str, str], source: Path, folder: Path) -> list[str]:
    """Every lesson, copied to ``folder`` (outside the repository) and run from there; the failures' lines."""
    folder.mkdir(parents=True)
    lessons = sorted(source.glob("notebooks/[0-9][0-9]_*.ipynb"))
    if not lessons:
        raise Failed("no lessons found in notebooks/")
    for lesson in lessons:
        shutil.copy2(lesson, folder / lesson.name)
    runner = source / "tests" / "compat" / "run_lesson.py"

    def attempt(lesson: Path) -> tuple[int, str]:
        result = run([str(python), str(runner), lesson.name], env, folder, timeout=LESSON_TIMEOUT_S)
        line = (result.stdout.strip().splitlines() or [f"FAIL {lesson.name}:"])[-1]
        if result.returncode != 0:  # the cells it started, with their times, and what the kernel said
            line += "\n" + "\n".join(f"        {text}" for text in result.stderr.strip().splitlines()[-25:])
        return result.returncode, line

    def one(lesson: Path) -> tuple[bool, str]:
        code, line = attempt(lesson)
        if code == STOPPED:
            # Stopped from outside: the kernel or the client hung (seen once in hundreds of runs, cause not
            # found). Say so, with where it was, and run the lesson once more in a fresh kernel: a lesson
            # that hangs again, or fails, fails the run.
            code, again = attempt(lesson)
            line = f"TIMED OUT {lesson.name} after {LESSON_TIMEOUT_S} s, run again: {again}\n        first run:\n{line}"
        elif code != 0 and any(sign in line for sign in KERNEL_DID_NOT_START):
            # Two kernels started side by side can pick the same TCP port (jupyter_client's race: "Address already
            # in use"), and that kernel never answers. Not the lesson's fault: say so, and run it once more.
            code, again = attempt(lesson)
            line = f"KERNEL DID NOT START for {lesson.name}, run again: {again}\n        first run:\n{line}"
        return code == 0, line

    failures = []
    with ThreadPoolExecutor(LESSON_WORKERS) as pool:
        for ok, line in pool.map(one, lessons):
            say(f"      {line}")
            if not ok:
                failures.append(line)
    return failures


def run_unit_tests(python: Path, env: dict[str, str], source: Path, outside: Path, workdir: Path) -> list[str]:
    """Stage 6: pytest in the venv over the clone's tests (its data store the one just verified); what failed."""
    tools = [uv(), "pip", "install", "--quiet", "--python", str(python), *UNIT_TEST_TOOLS]
    check(run(tools, env, workdir), "installing pytest")
    store = Path(check(run([str(python), "-c", _STORE], env, outside), "finding the store").strip())
    shutil.copytree(store, source / "data" / "tokenizers")  # the clone's own store: the files just verified
    pytest = [str(python), "-m", "pytest", "-q", "-n", str(LESSON_WORKERS), "-p", "no:cacheprovider", "tests"]
    pytest += [f"--ignore={path}" for path in UNIT_TESTS_LEFT_OUT]
    pytest += [f"--ignore-glob={pattern}" for pattern in UNIT_TESTS_LEFT_OUT_GLOBS]
    pytest += [f"--deselect={test}" for test in UNIT_TESTS_DESELECTED] + ["--durations=8"]
    result = run(pytest, env, source)
    say(f"      pytest: {(result.stdout.strip().splitlines() or ['(no output)'])[-1]}")
    slowest = result.stdout.split("slowest 8 durations", 1)[-1].splitlines()[1:9]
    say("\n".join(f"        {line}" for line in slowest if line.strip()))
    return [f"unit tests:\n{result.stdout[-6000:]}"] if result.returncode != 0 else []


def one_venv(version: str, resolution: str, workdir: Path, unit_tests: bool = True) -> list[str]:
    """All six stages for one interpreter and one resolution (the sixth only if ``unit_tests``); returns what
    failed (nothing when all passed)."""
    label = f"Python {version}, {resolution}"
    started = time.monotonic()
    python_found = find_python(version)
    home, venv = workdir / "home", workdir / "venv"
    env = clean_env(home)
    try:
        say(f"[{label}] 1/6 copying the repository's files (a fresh clone) to {workdir.name}/clone")
        source = copy_repository(workdir / "clone")

        say(f"[{label}] 2/6 {python_found} -m venv (with the pip and setuptools it ships)")
        check(run([python_found, "-m", "venv", str(venv)], env, workdir), "python -m venv")
        python = venv / "bin" / "python"

        say(f'[{label}] 3/6 installing bpelab from the clone: ".[course]", not editable, no pins, {resolution}')
        install = [uv(), "pip", "install", "--quiet", "--python", str(python), "--resolution", resolution]
        check(run(install + [f"{source}[course]"], env, workdir), "installing bpelab[course]")
        code = f"import importlib.metadata as m; print(', '.join(f'{{n}} {{m.version(n)}}' for n in {SHOWN!r}))"
        say(f"      {check(run([str(python), '-c', code], env, workdir), 'listing versions').strip()}")

        say(f"[{label}] 4/6 python -m bpelab.setup_data (from a folder outside the repository, empty caches)")
        outside = workdir / "outside"
        outside.mkdir()
        data = check(run([str(python), "-m", "bpelab.setup_data"], env, outside), "setup_data")
        say(f"      {data.strip().splitlines()[-1]}")

        say(f"[{label}] 5/6 every lesson top to bottom (nbclient, {LESSON_WORKERS} at a time; outputs not compared)")
        failures = run_lessons(python, env, source, outside / "lessons")

        if unit_tests:
            say(f"[{label}] 6/6 unit tests (not the browser, nbval or install tests)")
            failures += run_unit_tests(python, env, source, outside, workdir)
        else:
            corners = " and ".join(f"{v} {r}" for v, r in UNIT_TEST_CORNERS)
            say(f"[{label}] 6/6 unit tests: not here (they run only at {corners}; make test runs them with the pins)")
    except Failed as err:
        failures = [str(err)]
    minutes = (time.monotonic() - started) / 60
    say(f"[{label}] {'passed' if not failures else 'FAILED'} in {minutes:.1f} min")
    return [f"{label}: {failure}" for failure in failures]


_STORE = "from bpelab.paths import tokenizer_store_dir; print(tokenizer_store_dir())"


def main(argv: list[str]) -> int:
    pythons = [a for a in argv if a in PYTHONS] or list(PYTHONS)
    resolutions = [a for a in argv if a in RESOLUTIONS] or list(RESOLUTIONS)
    started = time.monotonic()
    failures: list[str] = []
    one_asked = len(pythons) * len(resolutions) == 1
    asked = [
        (version, resolution)
        for version in pythons
        for resolution in resolutions
        if argv or (version, resolution) not in LEFT_OUT_BY_DEFAULT
    ]
    for version, resolution in asked:
        unit_tests = one_asked or (version, resolution) in UNIT_TEST_CORNERS
        with tempfile.TemporaryDirectory(prefix=f"bpelab-compat-{version}-{resolution}-") as folder:
            failures += one_venv(version, resolution, Path(folder), unit_tests)
    minutes = (time.monotonic() - started) / 60
    if failures:
        say(f"\ntest-compat FAILED ({minutes:.1f} min):\n" + "\n".join(failures))
        return 1
    say(f"\ntest-compat passed: {len(asked)} environments in {minutes:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
