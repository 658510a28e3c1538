"""The course as static web pages (``make html``): read every lesson before installing anything.

Each lesson is written with its outputs exactly as committed (nothing is run), so the pages show
what the lessons print. Widgets whose state the notebook saved (the merge stepper of lesson 04,
the encode explorer of lesson 05, …) are drawn by the Jupyter widgets "HTML manager"
(``embed-amd.js``, which loads custom widget modules with require.js); a widget without saved state
shows its text summary instead (without the notebook's "run this cell" line). The course's widgets are anywidgets: the saved state holds
each widget's ES module, and require.js finds the ``anywidget`` front end in ``_static/anywidget/``,
a copy of the AMD build inside the installed ``anywidget`` wheel. Pages set ``window.bpelabStatic``
so a widget knows no kernel answers (the stepper then offers to train typed text in the page).
Progress bars (tqdm's
widget or its text on stderr) are left out: on a page they are only a stopped bar, red when the
loop ended early, which reads as an error.

Links: between lessons they point at the pages; the teacher's guide (``notebooks/TEACHING.md``)
becomes ``TEACHING.html`` and the README ``README.html``; ``index.html`` lists the lessons. A link
to another file of the repository (``../data/README.md``) points at ``--source-url`` + its path
when that is given (the GitHub Pages workflow passes the repository's blob URL at the commit built),
and is otherwise left as it is, with a warning that names it.

Nothing on the pages comes from a CDN: nbconvert's default page loads require.js, MathJax and the
widget manager from the internet, so the pages here use their own template (``page_template``) and
two JavaScript packages (and require.js) copied into ``site/_static/``, fetched once with ``npm pack``
from the npm registry (at pinned versions, checked against their published sha512) and cached in
``build/web-assets/``.
Without npm or the registry the pages are still written: widgets then show their text summaries
and formulas stay as TeX source, and the command says so.

    python -m bpelab.course.html_export              # all lessons and the guide into site/
    python -m bpelab.course.html_export --out /tmp/x notebooks/04_merging_step_by_step.ipynb
    python -m bpelab.course.html_export --source-url https://github.com/me/bpelab/blob/main/
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import nbformat

# (`name as name`: names this module held before it was split, still importable from here)
from bpelab.course.npm_assets import CACHE_DIR as CACHE_DIR
from bpelab.course.npm_assets import NpmAsset as NpmAsset
from bpelab.course.npm_assets import fetch_tarball as fetch_tarball
from bpelab.course.npm_assets import install_asset as install_asset
from bpelab.course.page_template import page_exporter
from bpelab.course.present_page import PAGE_NAME as PRESENT_PAGE
from bpelab.course.present_page import write_present_page
from bpelab.course.progress_bars import drop_progress_bars
from bpelab.course.site_assets import MATHJAX as MATHJAX
from bpelab.course.site_assets import REQUIREJS as REQUIREJS
from bpelab.course.site_assets import WEB_ASSETS as WEB_ASSETS
from bpelab.course.site_assets import WIDGET_MANAGER as WIDGET_MANAGER
from bpelab.course.site_assets import install_assets
from bpelab.course.site_notes import WIDGET_STATE as WIDGET_STATE
from bpelab.course.site_notes import WIDGET_VIEW as WIDGET_VIEW
from bpelab.course.site_notes import page_note, widget_note
from bpelab.paths import REPO_ROOT

NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
GUIDE = NOTEBOOKS_DIR / "TEACHING.md"
README = REPO_ROOT / "README.md"
SITE_DIR = REPO_ROOT / "site"
ANYWIDGET_AMD = "anywidget/nbextension/index.js"
"""anywidget's front end as an AMD module, inside its wheel (``define(["@jupyter-widgets/base"], ...)``)."""
ANYWIDGET_DIR = "anywidget"
"""Its folder under _static/ (require.js maps the module name ``anywidget`` to ``anywidget/index``)."""
SOURCE_URL_VARIABLE = "BPELAB_SOURCE_URL"
"""The environment's default for ``--source-url`` (the GitHub Pages workflow sets it)."""
STATIC = "_static"
LESSON_PATTERN = "[0-9][0-9]_*.ipynb"


# ---- the pages -----------------------------------------------------------------------------------


def lesson_paths(folder: Path = NOTEBOOKS_DIR) -> list[Path]:
    """The lessons, in reading order."""
    return sorted(folder.glob(LESSON_PATTERN))


def title_of(nb: nbformat.NotebookNode, fallback: str) -> str:
    """The notebook's first level-1 heading, e.g. "04 — Merging, step by step"."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            match = re.search(r"^#\s+(.+?)\s*$", cell.source, flags=re.MULTILINE)
            if match:
                return match.group(1)
    return fallback


def page_name(source: Path) -> str:
    return source.stem + ".html"


RELATIVE_HREF = re.compile(r'href="(?P<path>(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)[^"#?]+)(?P<anchor>[?#][^"]*)?"')
"""A link to a file by relative path (not ``https:``, ``mailto:``, ``/abs`` or ``#anchor``)."""


def rewrite_links(
    page: str,
    targets: dict[str, str],
    *,
    base: Path | None = None,
    pages: dict[Path, str] | None = None,
    source_url: str | None = None,
    repo_root: Path = REPO_ROOT,
    unresolved: list[str] | None = None,
) -> str:
    """Point a page's relative links where a reader of the site can follow them.

    ``href="05_encoding_and_decoding.ipynb#x"`` becomes ``href="05_encoding_and_decoding.html#x"``
    for every source file named in ``targets`` (file name -> page name). With ``base`` (the folder
    of the page's source), a link is resolved as a path: a file with a page in ``pages`` (absolute
    path -> page name) gets that page (``../README.md`` -> ``README.html``); another existing file of
    the repository gets ``source_url`` + its path in the repository when ``source_url`` is given, and
    is otherwise kept and appended to ``unresolved``, as is a link to a file that does not exist.
    """

    site_pages = {*targets.values(), *(pages or {}).values(), "index.html", page_name(GUIDE), page_name(README)}

    def swap(match: re.Match[str]) -> str:
        path, anchor = match.group("path"), match.group("anchor") or ""
        if path.startswith(f"{STATIC}/"):
            return match.group(0)
        if base is not None:
            resolved = Path(os.path.normpath(base / unquote(path)))
            if pages and resolved in pages:
                return f'href="{pages[resolved]}{anchor}"'
        target = targets.get(path.removeprefix("./"))
        if target is not None and "/" not in path.removeprefix("./"):
            return f'href="{target}{anchor}"'
        if base is None or path in site_pages:
            return match.group(0)  # a page of the site itself (the navigation bar's links)
        if resolved.exists() and resolved.is_relative_to(repo_root):
            in_repo = resolved.relative_to(repo_root).as_posix()
            if source_url:
                return f'href="{source_url.rstrip("/")}/{in_repo}{anchor}"'
            if unresolved is not None:
                unresolved.append(in_repo)
        elif not resolved.exists() and unresolved is not None:
            unresolved.append(f"{path} (no such file next to {base.name}/)")
        return match.group(0)

    return RELATIVE_HREF.sub(swap, page)


MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[")
"""Inline or display TeX in Markdown: only pages with a formula load MathJax."""


def has_math(nb: nbformat.NotebookNode) -> bool:
    return any(cell.cell_type == "markdown" and MATH.search(cell.source) for cell in nb.cells)


REMOTE_IMAGE = re.compile(r'<img\b[^>]*\bsrc="(?:https?:)?//[^"]*"[^>]*>')
ALT_TEXT = re.compile(r'\balt="([^"]*)"')


def without_remote_images(page: str) -> str:
    """Each image from another host (a README's badge) becomes its alt text: the pages load nothing
    from the internet (nor tell a third party who reads them); a link around the image still works."""

    def alt(match: re.Match[str]) -> str:
        found = ALT_TEXT.search(match.group(0))
        return f'<span class="bpe-remote-image">{found.group(1) if found else "image"}</span>'

    return REMOTE_IMAGE.sub(alt, page)


def export_notebook(
    nb: nbformat.NotebookNode,
    title: str,
    exporter: Any = None,
    *,
    guide: bool = False,
) -> str:
    """One notebook as a page, outputs as stored (nothing is executed); ``guide``: link the teacher's guide."""
    nb = copy.deepcopy(nb)
    nb.metadata["title"] = title
    nb.metadata["bpelab_math"] = has_math(nb)
    resources = {"metadata": {"name": title}, "bpelab_guide": guide, "bpelab_note": page_note(nb)}
    body, _resources = (exporter or page_exporter()).from_notebook_node(nb, resources=resources)
    return body


def install_anywidget(out_dir: Path) -> None:
    """Copy anywidget's AMD front end from the installed wheel to ``out_dir/_static/anywidget/index.js``."""
    source = Path(importlib.util.find_spec("anywidget").origin).parent.parent / ANYWIDGET_AMD  # type: ignore[union-attr,arg-type]
    target = out_dir / STATIC / ANYWIDGET_DIR
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target / "index.js")


def markdown_notebook(text: str) -> nbformat.NotebookNode:
    """A Markdown file as a one-cell notebook, so that it gets the same page as the lessons."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    return nb


def index_markdown(lessons: list[tuple[str, str]], guide: bool, readme: bool = False) -> str:
    """The front page: the lessons in order (page, title), the guide, and how to run the course."""
    rows = []
    for page, title in lessons:
        number, _dash, name = title.partition(" — ")
        rows.append(f"| {number} | [{name or title}]({page}) |" if name else f"| | [{title}]({page}) |")
    lines = [
        "# bpelab: learn Byte-Pair Encoding by building it",
        "",
        "These pages are the course's notebooks as they are stored, with every output, so that you can read",
        "the whole course before installing anything. Much works here without Python: the merge steppers step",
        "through every merge and train a text you type, and the encode explorers encode a text you type with",
        "the lesson's tokenizers and GPT-2, GPT-4, GPT-4o and Llama 3; each page says what works in it. Running the",
        "code needs Python: get the course and open it with `make lab`.",
        "",
        "| # | Lesson |",
        "|---|---|",
        *rows,
        "",
    ]
    if readme:
        lines += ["How to install and run the course: [the README](README.html).", ""]
    if guide:
        lines += ["For teachers: [the teacher's guide](TEACHING.html), and classroom mode (`make present`).", ""]
    lines += [
        f"Classroom mode in the browser, no installation: [type a text, train it, step through the merges]({PRESENT_PAGE}).",
        "",
    ]
    return "\n".join(lines)


def write_site(
    out_dir: Path = SITE_DIR,
    notebooks: list[Path] | None = None,
    *,
    guide: Path | None = GUIDE,
    readme: Path | None = README,
    source_url: str | None = None,
    log: Callable[..., object] = print,
) -> list[Path]:
    """Write a page per notebook, the guide's and the README's pages and ``index.html`` into
    ``out_dir``, with anywidget's front end and the classroom page ``present.html``; return the pages."""
    sources = list(notebooks) if notebooks is not None else lesson_paths()
    if not sources:
        raise FileNotFoundError(f"no notebooks to export (looked for {LESSON_PATTERN} in {NOTEBOOKS_DIR})")
    for source in sources:
        if source.suffix != ".ipynb" or not source.is_file():
            raise FileNotFoundError(f"{source} is not a notebook file (.ipynb)")
    out_dir.mkdir(parents=True, exist_ok=True)
    documents = [doc for doc in (guide, readme) if doc is not None and doc.is_file()]
    has_guide = guide in documents
    targets = {source.name: page_name(source) for source in [*sources, *documents]}
    pages = {source.resolve(): page_name(source) for source in [*sources, *documents]}
    for index in (out_dir / "index.html", SITE_DIR / "index.html"):  # the README links site/index.html
        pages[index.resolve()] = "index.html"
    install_anywidget(out_dir)
    write_present_page(out_dir)
    log(f"  {PRESENT_PAGE:40} classroom mode, training in the page")
    exporter = page_exporter()
    unresolved: list[str] = []

    def write(nb: nbformat.NotebookNode, title: str, path: Path, note: str, source: Path | None) -> Path:
        page = without_remote_images(export_notebook(nb, title, exporter, guide=has_guide))
        base = source.resolve().parent if source is not None else None
        page = rewrite_links(page, targets, base=base, pages=pages, source_url=source_url, unresolved=unresolved)
        path.write_text(page, encoding="utf-8")
        log(f"  {path.name:40} {note}")
        return path

    written, listed = [], []
    for source in sources:
        nb = nbformat.read(source, as_version=4)
        title = title_of(nb, source.stem)
        dropped = drop_progress_bars(nb)
        note = title + widget_note(nb) + (f"  ({dropped} progress bar output(s) left out)" if dropped else "")
        written.append(write(nb, title, out_dir / page_name(source), note, source))
        listed.append((page_name(source), title))
    for document in documents:
        nb = markdown_notebook(document.read_text(encoding="utf-8"))
        title = title_of(nb, "Teacher's guide" if document == guide else "bpelab")
        written.append(write(nb, title, out_dir / page_name(document), title, document))
    front = markdown_notebook(index_markdown(listed, has_guide, readme in documents))
    written.append(write(front, "bpelab", out_dir / "index.html", "the list of lessons", None))
    if unresolved:
        log(
            "  links that do not lead to a page here (--source-url points links to repository files at the repository):\n"
            + "\n".join(f"    {path}" for path in sorted(set(unresolved)))
        )
    return written


# ---- the command ------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bpelab.course.html_export", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons to export (default: all of notebooks/)")
    parser.add_argument("--out", type=Path, default=SITE_DIR, help="folder for the pages (default: site/)")
    parser.add_argument("--no-assets", action="store_true", help="skip the page scripts (widgets show text)")
    parser.add_argument(
        "--source-url",
        default=os.environ.get(SOURCE_URL_VARIABLE) or None,
        help="where the repository's files can be read, e.g. https://github.com/me/bpelab/blob/main/ : links to"
        f" files with no page of their own point there (default: ${SOURCE_URL_VARIABLE}, else they are kept)",
    )
    args = parser.parse_args(argv)
    if args.source_url and not re.match(r"https?://[^/\s]+/\S*$", args.source_url):
        print(f"error: --source-url must be an http(s) address ending in /, not {args.source_url!r}", file=sys.stderr)
        return 1
    out = args.out.resolve()
    print(f"Writing the course as web pages into {out}")
    try:
        write_site(out, args.notebooks or None, source_url=args.source_url)
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    problems = ["skipped (--no-assets)"] if args.no_assets else install_assets(out / STATIC)
    if problems:
        print(
            "\nWarning: the pages are written, but without these scripts widgets show their text summaries",
            "and formulas stay as TeX:",
            *(f"  - {p}" for p in problems),
            sep="\n",
            file=sys.stderr,
        )
    print(f"\nDone: open {out / 'index.html'} in a browser (no server and no internet needed).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
