"""Trust the shipped lessons, so that a fresh clone's widgets draw from their saved state on first open.

JupyterLab and Notebook 7 draw a widget output, and run a saved page's JavaScript, only in a notebook they
trust: one signed with this user's key (``jupyter trust``), or saved by them. A fresh clone's lessons carry
no signature here, so every widget first shows as its text, until its cell runs. ``make lab`` and Binder's
``postBuild`` sign the lessons (``NN_*.ipynb`` in the folder given) with the notary ``jupyter trust`` uses:
its database and key are in this user's Jupyter data folder (``jupyter --data-dir``), which the server that
``make lab`` starts reads. A lesson already trusted is left alone, so a second run changes nothing; a lesson
the learner saved is trusted already (JupyterLab signs what it saves).

Trusting says "I know where this came from": run it on the lessons of a course you cloned, not on notebooks
someone sent you.

    python -m bpelab.course.trust_lessons [folder]      # default: notebooks
"""

from __future__ import annotations

import sys
from pathlib import Path

LESSON_GLOB = "[0-9][0-9]_*.ipynb"


def trust_lessons(folder: Path | str = "notebooks") -> tuple[list[Path], list[Path]]:
    """Sign every lesson in ``folder`` not trusted yet; return (newly trusted, already trusted)."""
    import nbformat  # slow to import: only here
    from nbformat.sign import NotebookNotary

    lessons = sorted(Path(folder).glob(LESSON_GLOB))
    if not lessons:
        raise FileNotFoundError(f"no lessons ({LESSON_GLOB}) in {folder}: run this from the course's folder")
    notary = NotebookNotary()
    signed, already = [], []
    for path in lessons:
        notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
        if notary.check_signature(notebook):
            already.append(path)
        else:
            notary.sign(notebook)
            signed.append(path)
    return signed, already


def main(argv: list[str] | None = None) -> int:
    """Trust the lessons of the folder named (``notebooks`` by default); 1, with what to do, when there are none."""
    args = sys.argv[1:] if argv is None else argv
    try:
        signed, already = trust_lessons(args[0] if args else "notebooks")
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"lessons trusted, so their widgets draw when opened: {len(signed)} now, {len(already)} already")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
