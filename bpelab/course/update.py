"""``make update``: bring a clone up to the course's latest version, keeping everything the learner did.

A learner's edits and runs live in the course's own notebooks, so a plain ``git pull`` stops at the first lesson
both changed (a conflict inside the notebook's JSON) or refuses to start (local changes would be overwritten).
This does what nbgitpuller does on a hub (jupyterhub/nbgitpuller, ``nbgitpuller/pull.py``, ``GitPuller.update``),
with a merge that knows notebooks:

1. fetch the course's branch (the current branch's upstream, else ``origin/<branch>``);
2. commit everything the learner changed or added (not what .gitignore leaves out) on their branch, so that
   their work before the update stays in git, whatever happens next;
3. merge the course's branch: notebooks cell by cell (``bpelab.course.notebook_merge``, a merge driver given to
   git for this one command), other files with ``-Xours`` (where both changed the same lines, the learner's win);
4. a file the learner changed and the course deleted is kept; a file the learner deleted and the course
   changed comes back (as nbgitpuller does). Nothing is left in conflict.

It says what arrived, which cells kept the learner's version although the course changed them, and the commit
that holds the learner's work as it was.

    python -m bpelab.course.update [REMOTE [BRANCH]]
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path

DRIVER = "bpelab-notebook"
LEARNER = ("bpelab learner", "learner@bpelab.invalid")
"""Who the commits are by when git knows no name (a fresh machine): git refuses to commit without one."""


class UpdateError(RuntimeError):
    """The update cannot start or finish; the message says what to do. The learner's files are as they were."""


def git(*args: str, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git in ``cwd``, its messages in English (they are read below); a failure raises UpdateError."""
    result = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, "LANG": "C", "LC_ALL": "C"}
    )
    if check and result.returncode != 0:
        raise UpdateError(f"git {' '.join(args)} failed:\n{result.stdout}{result.stderr}".rstrip())
    return result


def identity(cwd: Path) -> list[str]:
    """``-c user.name=... -c user.email=...`` when git has none configured, else nothing."""
    name = git("config", "user.name", cwd=cwd, check=False).stdout.strip()
    email = git("config", "user.email", cwd=cwd, check=False).stdout.strip()
    return (
        [] if name and email else ["-c", f"user.name={name or LEARNER[0]}", "-c", f"user.email={email or LEARNER[1]}"]
    )


def upstream_of(cwd: Path, remote: str | None, branch: str | None) -> tuple[str, str, str]:
    """(remote, branch, remote-tracking ref) of the course's branch to update from."""
    if remote is None:
        tracked = git("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}", cwd=cwd, check=False)
        if tracked.returncode == 0 and "/" in tracked.stdout:
            remote, branch = tracked.stdout.strip().split("/", 1)
        else:
            remote = "origin"
    if branch is None:
        current = git("symbolic-ref", "--short", "HEAD", cwd=cwd, check=False)
        if current.returncode != 0:
            raise UpdateError("no branch is checked out (a detached HEAD): run git switch main, then make update")
        branch = current.stdout.strip()
    if git("remote", "get-url", remote, cwd=cwd, check=False).returncode != 0:
        raise UpdateError(f"this clone has no remote called {remote!r}: git remote add {remote} <the course's URL>")
    return remote, branch, f"{remote}/{branch}"


def commit_learners_work(cwd: Path) -> str | None:
    """Commit every change and new file (git add -A); return the commit, or None when there was nothing."""
    git("add", "-A", cwd=cwd)
    if git("diff", "--cached", "--quiet", cwd=cwd, check=False).returncode == 0:
        return None
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M")
    git(*identity(cwd), "commit", "-q", "-m", f"My work before updating the course ({stamp}, make update)", cwd=cwd)
    return git("rev-parse", "--short", "HEAD", cwd=cwd).stdout.strip()


def _merge_config(attributes: Path) -> list[str]:
    """The notebook merge driver and the attributes that give it every notebook, for one git command."""
    driver = f"{shlex.quote(sys.executable)} -m bpelab.course.notebook_merge %O %A %B %P"
    return [
        "-c",
        f"merge.{DRIVER}.name=notebooks merged cell by cell (bpelab)",
        "-c",
        f"merge.{DRIVER}.driver={driver}",
        "-c",
        f"core.attributesFile={attributes}",
    ]


def unmerged(cwd: Path) -> list[str]:
    listing = git("diff", "--name-only", "--diff-filter=U", "-z", cwd=cwd).stdout
    return [name for name in listing.split("\0") if name]


def merge_course(cwd: Path, ref: str) -> str:
    """Merge ``ref`` into the learner's branch, settling every conflict for the learner; return git's output."""
    with tempfile.TemporaryDirectory() as folder:
        attributes = Path(folder) / "attributes"
        attributes.write_text(f"*.ipynb merge={DRIVER}\n", encoding="utf-8")
        config = [*_merge_config(attributes), *identity(cwd)]
        merged = git(*config, "merge", "--no-edit", "-Xours", ref, cwd=cwd, check=False)
        said = merged.stdout + merged.stderr
        if merged.returncode == 0:
            return said
        left = unmerged(cwd)
        if not left:  # not a conflict: nothing was merged (say, an untracked file in the way)
            git("merge", "--abort", cwd=cwd, check=False)
            raise UpdateError(f"git could not merge the course's changes:\n{said}".rstrip())
        for name in left:
            if (cwd / name).exists():
                git("add", "--", name, cwd=cwd)  # the learner's version, changed here and deleted by the course
            else:
                git("checkout", ref, "--", name, cwd=cwd)  # deleted here, changed by the course: it comes back
        git(*config, "commit", "-q", "--no-edit", cwd=cwd)
        return said + "".join(f"kept or restored: {name}\n" for name in left)


def update(cwd: Path, remote: str | None = None, branch: str | None = None) -> str:
    """Update the clone at ``cwd``; return the report."""
    if shutil.which("git") is None:
        raise UpdateError("git is not installed: install it (https://git-scm.com), then run make update again")
    top = git("rev-parse", "--show-toplevel", cwd=cwd, check=False)
    if top.returncode != 0:
        raise UpdateError(f"{cwd} is not a git clone of the course: make update needs one (git clone <course URL>)")
    cwd = Path(top.stdout.strip())
    if git("rev-parse", "-q", "--verify", "MERGE_HEAD", cwd=cwd, check=False).returncode == 0:
        raise UpdateError("a merge is under way in this clone: finish it (git commit) or undo it (git merge --abort)")
    remote, branch, ref = upstream_of(cwd, remote, branch)
    git("fetch", "-q", remote, branch, cwd=cwd)
    git("update-ref", f"refs/remotes/{ref}", "FETCH_HEAD", cwd=cwd)
    saved = commit_learners_work(cwd)
    before = git("rev-parse", "HEAD", cwd=cwd).stdout.strip()
    said = merge_course(cwd, ref)
    changes = git("diff", "--name-status", f"{before}..HEAD", cwd=cwd).stdout.splitlines()
    lines = [f"updated from {ref}"]
    if not changes:
        lines.append("the course has nothing new")
    lines += [f"  new: {c.split(chr(9))[-1]}" for c in changes if c.startswith("A")]
    lines += [f"  changed: {c.split(chr(9))[-1]}" for c in changes if c.startswith("M")]
    lines += [f"  removed: {c.split(chr(9))[-1]}" for c in changes if c.startswith("D")]
    kept = [line for line in said.splitlines() if "kept your version" in line or line.startswith("kept or restored")]
    if kept:
        lines.append(
            f"where you and the course changed the same cell, yours is kept (the course's: git show {ref}:PATH):"
        )
        lines += [f"  {line}" for line in kept]
    if saved:
        lines.append(f"your work as it was before the update: commit {saved} (git show {saved}:PATH)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        print(update(Path.cwd(), *(args[:2] if args else [])))
    except UpdateError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
