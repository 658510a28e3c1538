"""Updates keep the learner's work (issue 30 item 2): ``make update`` for a clone, nbgitpuller for a hub.

A local bare repository stands in for the course's remote. The course holds lessons 03 and 04 as committed. A
learner clones it, edits a cell of each lesson, adds a cell of notes to lesson 03 and a scratch file, and runs both
lessons: every execution count moves, every text output changes, and every widget gets a new model (new ids in the
outputs and the saved widget state), as a Run All in JupyterLab does (a stand-in for a kernel run, which would take
minutes and change the same fields). The course meanwhile fixes a sentence of lesson 04, changes one of its code
cells (one the learner only ran) and another that the learner also edited, inserts a cell, and adds lesson 17.
Then the learner updates.

Kept: every cell the learner wrote, as they wrote it; their outputs where the course did not change the cell;
their scratch file; their work as it was, in a commit. Arrived: lesson 17, the course's sentence, changed cell
and new cell. Nothing stops in a conflict, and every notebook is valid with the widget models its outputs show.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from bpelab.course.save_hook import missing_models
from bpelab.paths import REPO_ROOT

L03, L04, L17 = (
    "notebooks/03_counting_pairs.ipynb",
    "notebooks/04_merging_step_by_step.ipynb",
    "notebooks/17_new_lesson.ipynb",
)
LEARNERS_CODE = "\n# my answer: I counted the pairs by hand first"
LEARNERS_NOTE = "My notes: ties are broken by the first pair seen."
COURSE_SENTENCE = " (The course fixed this sentence.)"
COURSE_CODE = "\n# the course changed this cell"


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=os.environ)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stdout}{result.stderr}"
    return result.stdout


@pytest.fixture(autouse=True)
def no_git_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A learner's machine with no git name or email (make update must commit all the same)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "home").mkdir()


COURSE_ID = ["-c", "user.name=course", "-c", "user.email=course@example.invalid"]


def make_course(tmp_path: Path) -> tuple[Path, Path]:
    """The course's working copy (lessons 03 and 04 as this checkout holds them) and its bare remote. Read from
    disk, not with git: make test-compat runs this in a copy of the files without a .git folder."""
    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    for lesson in (L03, L04):
        shutil.copyfile(REPO_ROOT / lesson, course / lesson)
    (course / "README.md").write_text("The course.\n", encoding="utf-8")
    git(course, "init", "-q", "-b", "main")
    git(course, "add", "-A")
    git(course, *COURSE_ID, "commit", "-q", "-m", "the course")
    remote = tmp_path / "course.git"
    git(tmp_path, "clone", "-q", "--bare", str(course), str(remote))
    git(course, "remote", "add", "origin", str(remote))
    return course, remote


def code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in notebook.cells if c.cell_type == "code" and c.outputs]


def run_all(path: Path, tag: str) -> None:
    """What a Run All writes: new execution counts, new text in every output, new widget models."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.execution_count = (cell.execution_count or 0) + 100
        for output in cell.outputs:
            if "text" in output:
                output.text += f" [{tag}]"
            if "text/plain" in output.get("data", {}):
                output.data["text/plain"] += f" [{tag}]"
    text = nbformat.writes(notebook)
    for model_id in json.loads(text)["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}):
        text = text.replace(model_id, f"{tag}{model_id[len(tag) :]}")
    path.write_text(text, encoding="utf-8")


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


@dataclass
class LearnersWork:
    """The cells the learner wrote (by lesson and id) and the outputs of cells the course leaves alone."""

    written: dict[str, dict[str, str]]
    ran_unchanged: dict[str, tuple[str, str]]  # lesson -> (cell id, its output text after the learner's run)
    both_changed: str  # the id of the cell of lesson 04 both changed
    course_changed: str  # the id of the cell of lesson 04 the course changed and the learner only ran


def learner_works(clone: Path) -> LearnersWork:
    """Edit a cell of lessons 03 and 04 (two in 04), add a cell of notes to 03 and a scratch file, run both."""
    for lesson in (L03, L04):
        run_all(clone / lesson, "mine")
    n03 = nbformat.read(clone / L03, as_version=4)
    edited03 = code_cells(n03)[2]
    edited03.source += LEARNERS_CODE
    note = nbformat.v4.new_markdown_cell(LEARNERS_NOTE)
    n03.cells.insert(n03.cells.index(edited03) + 1, note)
    nbformat.write(n03, clone / L03)
    n04 = nbformat.read(clone / L04, as_version=4)
    edited04, both = code_cells(n04)[2], code_cells(n04)[3]
    edited04.source += LEARNERS_CODE
    both.source += LEARNERS_CODE + " (and the course changed it too)"
    nbformat.write(n04, clone / L04)
    (clone / "notebooks" / "my_scratch.py").write_text("print('my own file')\n", encoding="utf-8")
    untouched = code_cells(n04)[1]
    return LearnersWork(
        written={
            L03: {edited03.id: edited03.source, note.id: note.source},
            L04: {edited04.id: edited04.source, both.id: both.source},
        },
        ran_unchanged={L04: (untouched.id, json.dumps(untouched.outputs, sort_keys=True))},
        both_changed=both.id,
        course_changed=code_cells(n04)[5].id,
    )


def course_changes(course: Path, work: LearnersWork) -> dict[str, str]:
    """Fix a sentence, change two code cells and insert one in lesson 04; add lesson 17; push. Returns what the
    learner should get: cell id -> source."""
    n04 = nbformat.read(course / L04, as_version=4)
    sentence = next(c for c in n04.cells if c.cell_type == "markdown" and len(c.source) > 200)
    sentence.source += COURSE_SENTENCE
    changed = next(c for c in n04.cells if c.get("id") == work.course_changed)
    changed.source += COURSE_CODE
    changed.outputs = [nbformat.v4.new_output("stream", name="stdout", text="the course's new output\n")]
    both = next(c for c in n04.cells if c.get("id") == work.both_changed)
    both.source += COURSE_CODE
    new_cell = nbformat.v4.new_code_cell("print('a cell the course added')")
    n04.cells.insert(n04.cells.index(changed) + 1, new_cell)
    nbformat.write(n04, course / L04)
    run_all(course / L04, "course")  # the course re-locks its outputs (make lessons): new counts, outputs, models
    lesson17 = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# 17 — A new lesson"), nbformat.v4.new_code_cell("1 + 1")]
    )
    nbformat.write(lesson17, course / L17)
    git(course, "add", "-A")
    git(course, *COURSE_ID, "commit", "-q", "-m", "lesson 04 fixed, lesson 17 added")
    git(course, "push", "-q", "origin", "main")
    return {sentence.id: sentence.source, changed.id: changed.source, new_cell.id: new_cell.source}  # new cell last


def assert_nothing_lost(clone: Path, course: Path, work: LearnersWork, arrived: dict[str, str]) -> None:
    assert not subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"], cwd=clone, capture_output=True).stdout
    for path in clone.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            assert "<<<<<<<" not in path.read_text(encoding="utf-8", errors="replace"), f"conflict markers in {path}"
    lessons = {}
    for lesson in (L03, L04, L17):
        lessons[lesson] = nbformat.read(clone / lesson, as_version=4)
        nbformat.validate(lessons[lesson])
        assert not missing_models(lessons[lesson]), f"{lesson} shows widget models it does not save"
    for lesson, cells in work.written.items():
        sources = {c.id: c.source for c in lessons[lesson].cells}
        for cell_id, source in cells.items():
            assert sources.get(cell_id) == source, f"{lesson}: the learner's cell {cell_id} was not kept"
    for lesson, (cell_id, outputs) in work.ran_unchanged.items():
        cell = next(c for c in lessons[lesson].cells if c.id == cell_id)
        assert json.dumps(cell.outputs, sort_keys=True) == outputs, f"{lesson}: the learner's outputs were lost"
    sources = {c.id: c.source for c in lessons[L04].cells}
    for cell_id, source in arrived.items():
        assert sources.get(cell_id) == source, f"lesson 04: the course's change to cell {cell_id} did not arrive"
    ids = [c.id for c in lessons[L04].cells]
    new_cell = list(arrived)[-1]
    assert ids.index(new_cell) == ids.index(work.course_changed) + 1, "the course's new cell is not where it put it"
    assert (clone / L17).read_bytes() == (course / L17).read_bytes(), "lesson 17 did not arrive as the course wrote it"
    assert (clone / "notebooks" / "my_scratch.py").read_text(encoding="utf-8") == "print('my own file')\n"


def make_update_command() -> list[str]:
    """The command ``make update`` runs, as this Python would run it (read from the Makefile)."""
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nupdate: ", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip().lstrip("@") for line in recipe.splitlines() if "bpelab.course.update" in line]
    assert len(steps) == 1, "make update has no step that runs bpelab.course.update"
    command = shlex.split(steps[0])
    assert command[0] == "$(PY)"
    return [sys.executable, *[arg for arg in command[1:] if not arg.startswith("$(")]]


def test_make_update_keeps_the_learners_edits_and_runs_and_brings_the_courses_changes(tmp_path: Path) -> None:
    course, remote = make_course(tmp_path)
    clone = tmp_path / "learner"
    git(tmp_path, "clone", "-q", str(remote), str(clone))
    work = learner_works(clone)
    before = {lesson: (clone / lesson).read_bytes() for lesson in (L03, L04)}
    arrived = course_changes(course, work)

    done = subprocess.run(make_update_command(), cwd=clone, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "new: notebooks/17_new_lesson.ipynb" in done.stdout, done.stdout
    assert "kept your version" in done.stdout, "the cell both changed is named"
    assert_nothing_lost(clone, course, work, arrived)
    assert git(clone, "status", "--porcelain") == "", "the update left changes uncommitted or in conflict"
    git(clone, "merge-base", "--is-ancestor", "origin/main", "HEAD")  # the course's commit is merged
    saved = done.stdout.split("your work as it was before the update: commit ")[1].split()[0]
    for lesson, content in before.items():  # the learner's files as they were, in git
        assert git(clone, "show", f"{saved}:{lesson}").encode() == content

    again = subprocess.run(make_update_command(), cwd=clone, capture_output=True, text=True)
    assert again.returncode == 0 and "the course has nothing new" in again.stdout, again.stdout + again.stderr


def test_nbgitpuller_keeps_the_learners_edits_and_runs_and_brings_the_courses_changes(tmp_path: Path) -> None:
    """A hub's path: the learner's copy is made, then updated, by nbgitpuller's own code (what an nbgitpuller
    link runs on the hub), against the same bare repository. Its merge is git's, line by line, with ``-Xours``."""
    GitPuller = pytest.importorskip("nbgitpuller.pull", reason="nbgitpuller is in the pinned test extra only").GitPuller

    course, remote = make_course(tmp_path)
    clone = tmp_path / "hub-home" / "course"
    url = remote.as_uri()  # file://, as a hub's https:// URL: a shallow clone, as nbgitpuller makes by default
    said = "".join(GitPuller(url, str(clone), branch="main").pull())
    assert (clone / L04).is_file(), said
    work = learner_works(clone)
    arrived = course_changes(course, work)

    said = "".join(GitPuller(url, str(clone), branch="main").pull())  # the learner clicks the link again
    assert "CONFLICT" not in said, said
    assert_nothing_lost(clone, course, work, arrived)
    assert git(clone, "status", "--porcelain") == "?? notebooks/my_scratch.py\n", (
        "only the learner's new file is left out"
    )


def test_where_both_add_a_cell_at_the_same_place_nbgitpuller_keeps_only_the_learners_and_make_update_both(
    tmp_path: Path,
) -> None:
    """What the README and the teacher's guide warn of: nbgitpuller merges by lines, so the course's cell added at
    the end of a lesson, where the learner added one too, does not arrive; the cell-by-cell merge keeps both."""
    GitPuller = pytest.importorskip("nbgitpuller.pull", reason="nbgitpuller is in the pinned test extra only").GitPuller

    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    lesson = course / L03
    base = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A lesson"), nbformat.v4.new_code_cell("1")])
    nbformat.write(base, lesson)
    git(course, "init", "-q", "-b", "main")
    git(course, "add", "-A")
    git(course, *COURSE_ID, "commit", "-q", "-m", "the course")
    remote = tmp_path / "course.git"
    git(tmp_path, "clone", "-q", "--bare", str(course), str(remote))
    git(course, "remote", "add", "origin", str(remote))
    hub, clone = tmp_path / "hub" / "course", tmp_path / "clone"
    "".join(GitPuller(remote.as_uri(), str(hub), branch="main").pull())
    git(tmp_path, "clone", "-q", str(remote), str(clone))
    for copy in (hub, clone):
        mine = nbformat.read(copy / L03, as_version=4)
        mine.cells.append(nbformat.v4.new_markdown_cell(LEARNERS_NOTE))
        nbformat.write(mine, copy / L03)
    theirs = nbformat.read(lesson, as_version=4)
    theirs.cells.append(nbformat.v4.new_code_cell("print('a cell the course added')"))
    nbformat.write(theirs, lesson)
    git(course, "add", "-A")
    git(course, *COURSE_ID, "commit", "-q", "-m", "a cell at the end")
    git(course, "push", "-q", "origin", "main")

    "".join(GitPuller(remote.as_uri(), str(hub), branch="main").pull())
    done = subprocess.run(make_update_command(), cwd=clone, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    sources = {name: [c.source for c in nbformat.read(copy / L03, as_version=4).cells] for name, copy in
               (("nbgitpuller", hub), ("make update", clone))}  # fmt: skip
    assert sources["nbgitpuller"] == ["# A lesson", "1", LEARNERS_NOTE]
    assert sources["make update"] == ["# A lesson", "1", "print('a cell the course added')", LEARNERS_NOTE]
