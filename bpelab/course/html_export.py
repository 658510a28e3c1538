"""The course as static web pages (``make html``): read every lesson before installing anything.

Each lesson is written with its outputs exactly as committed (nothing is run), so the pages show
what the lessons print. Widgets whose state the notebook saved (the merge stepper of lesson 04,
the encode explorer of lesson 05, …) are drawn by the Jupyter widgets "HTML manager"
(``embed-amd.js``, which loads custom widget modules with require.js); a widget without saved state
shows its one-line text summary instead. The course's widgets are anywidgets: the saved state holds
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
widget manager from the internet, so the pages here use their own template and two JavaScript
packages (and require.js) copied into ``site/_static/``, fetched once with ``npm pack`` from the npm registry (at
pinned versions, checked against their published sha512) and cached in ``build/web-assets/``.
Without npm or the registry the pages are still written: widgets then show their text summaries
and formulas stay as TeX source, and the command says so.

    python -m bpelab.course.html_export              # all lessons and the guide into site/
    python -m bpelab.course.html_export --out /tmp/x notebooks/04_merging_step_by_step.ipynb
    python -m bpelab.course.html_export --source-url https://github.com/me/bpelab/blob/main/
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import nbformat
from jinja2 import DictLoader

from bpelab.course.present_page import PAGE_NAME as PRESENT_PAGE
from bpelab.course.present_page import write_present_page
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
CACHE_DIR = REPO_ROOT / "build" / "web-assets"
STATIC = "_static"
LESSON_PATTERN = "[0-9][0-9]_*.ipynb"


@dataclass(frozen=True)
class NpmAsset:
    """Files taken from one pinned npm package: ``files`` maps a path in its tarball to a path under _static/."""

    package: str
    version: str
    integrity: str
    licence: str
    files: dict[str, str]
    folders: dict[str, str]
    """A folder in the tarball to a folder under _static/: the files directly inside are copied..."""
    folder_suffixes: tuple[str, ...] = ("",)
    """...when their names end with one of these."""

    @property
    def tarball_name(self) -> str:
        return f"{self.package.lstrip('@').replace('/', '-')}-{self.version}.tgz"


WIDGET_MANAGER = NpmAsset(
    package="@jupyter-widgets/html-manager",
    version="1.0.15",
    integrity="sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
    licence="BSD-3-Clause",
    files={
        "package/dist/embed-amd.js": "html-manager/embed-amd.js",
        "package/dist/embed.js.LICENSE.txt": "html-manager/embed.js.LICENSE.txt",
    },
    folders={"package/dist": "html-manager"},
    folder_suffixes=(".woff2", ".woff"),
)
"""Draws widgets from their saved state, without a kernel. ``embed-amd.js``, not ``embed.js``: only
the AMD build loads custom widget modules (anywidget), through require.js. Its icon fonts come along
(the woff formats browsers use), so that nothing is missing offline."""

REQUIREJS = NpmAsset(
    package="requirejs",
    version="2.3.8",
    integrity="sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
    licence="MIT",
    files={"package/require.js": "requirejs/require.js"},
    folders={},
)
"""The module loader ``embed-amd.js`` needs; ``paths`` points it at the local anywidget."""

MATHJAX = NpmAsset(
    package="mathjax",
    version="3.2.2",
    integrity="sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
    licence="Apache-2.0",
    files={"package/es5/tex-chtml.js": "mathjax/tex-chtml.js", "package/LICENSE": "mathjax/LICENSE"},
    folders={"package/es5/output/chtml/fonts/woff-v2": "mathjax/output/chtml/fonts/woff-v2"},
)
"""Typesets the few formulas of lessons 08, 09 and 11; it finds its fonts beside its script."""

WEB_ASSETS: tuple[NpmAsset, ...] = (WIDGET_MANAGER, REQUIREJS, MATHJAX)

PAGE_TEMPLATE = r"""
{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{% block jupyter_widgets %}
{%- if "widgets" in nb.metadata -%}
<script>window.__jupyter_widgets_assets_path__ = "_static/html-manager/"; window.bpelabStatic = true;</script>
<script src="_static/requirejs/require.js"></script>
<script>require.config({paths: {anywidget: "_static/anywidget/index"}});</script>
<script src="_static/html-manager/embed-amd.js"></script>
{%- endif -%}
{% endblock jupyter_widgets %}
{%- block html_head_js_mathjax -%}
{%- if nb.metadata.get("bpelab_math") -%}
<script>
// MathJax 3, with the one MathJax 2 call the widget library makes (Hub.Queue) mapped onto it
window.MathJax = {
  tex: {inlineMath: [["$", "$"], ["\\(", "\\)"]], processEscapes: true},
  Hub: {Queue: function () {}},
  startup: {ready: function () {
    MathJax.startup.defaultReady();
    MathJax.Hub = {Queue: function (job) {
      var element = Array.isArray(job) ? job[2] : null;
      if (element) { MathJax.typesetPromise([element]); }
    }};
  }}
};
</script>
<script src="_static/mathjax/tex-chtml.js" async></script>
{%- endif -%}
{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block extra_css %}
<style type="text/css">
.bpe-site-nav { font-family: var(--jp-ui-font-family, sans-serif); font-size: 14px; padding: 8px 16px;
  margin: 0 0 12px 0; background: #f3f6fa; border-bottom: 1px solid #d0d7de; }
.bpe-site-nav a { margin-right: 16px; color: #0b4f8a; }
.bpe-site-nav .bpe-site-note { color: #4a4a4a; }
/* WCAG 2.1 AA contrast (4.5:1) on the code cells' grey: JupyterLab's light theme draws prompts at half
   opacity (2.2:1) and a few syntax colours at 4.2-4.4:1; the same hues, darker */
body {
  --jp-cell-prompt-not-active-opacity: 1;
  --jp-cell-prompt-not-active-font-color: #616161;
  --jp-mirror-editor-operator-color: #8a1ad6;
  --jp-mirror-editor-meta-color: #8a1ad6;
  --jp-mirror-editor-number-color: #007000;
  --jp-mirror-editor-quote-color: #007000;
  --jp-mirror-editor-comment-color: #3a7070;
  --jp-mirror-editor-atom-color: #4040c0;
  --jp-mirror-editor-bracket-color: #5f5f3f;
  --jp-mirror-editor-error-color: #c00000;
}
/* links in running text are underlined: colour alone does not mark them (WCAG 1.4.1); "body" outranks
   the theme's own rule, which comes later in the page */
body .jp-RenderedHTMLCommon a:link, body .jp-RenderedHTMLCommon a:visited, .bpe-site-nav a {
  text-decoration: underline;
}
.jupyter-widgets { font-family: var(--jp-ui-font-family); font-size: var(--jp-ui-font-size1); }
.bpe-widget-fallback { white-space: pre-wrap; font-size: var(--jp-code-font-size, 13px); }
.jupyter-widgets:has(> .widget-subarea) > .bpe-widget-fallback { display: none; }
</style>
{% endblock extra_css %}
{%- block body_header -%}
{{ super() }}
<nav class="bpe-site-nav"><a href="index.html">bpelab: all lessons</a>
{%- if resources.bpelab_guide %}<a href="TEACHING.html">Teacher's guide</a>{% endif %}
<span class="bpe-site-note">A copy to read, with the outputs as stored; to run the code and use the widgets, open the
course with <code>make lab</code>.</span></nav>
{%- endblock body_header -%}
{%- block data_widget_view scoped %}
<div class="jupyter-widgets jp-OutputArea-output {{ extra_class }}">
<script type="application/vnd.jupyter.widget-view+json">
{{ output.data['application/vnd.jupyter.widget-view+json'] | json_dumps | escape_html_script }}
</script>
{%- if 'text/plain' in output.data %}
<pre class="bpe-widget-fallback">{{ output.data['text/plain'] | escape }}</pre>
{%- endif %}
</div>
{%- endblock data_widget_view -%}
"""
"""nbconvert's "lab" page with local scripts only, a navigation bar, and each widget's text
summary kept under it (hidden once the widget manager has drawn the widget)."""

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


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


def _exporter() -> Any:  # nbconvert is imported here: it is slow to import and only this command needs it
    from nbconvert import HTMLExporter

    return HTMLExporter(
        template_name="lab",
        extra_loaders=[DictLoader({"bpelab_page.html.j2": PAGE_TEMPLATE})],
        template_file="bpelab_page.html.j2",
    )


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


def widget_note(nb: nbformat.NotebookNode) -> str:
    """How the page will show the notebook's widgets: drawn from saved state, or as their text."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    views = [
        output["data"][WIDGET_VIEW]["model_id"]
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]
    drawn = sum(model in state for model in views)
    notes = [f"{drawn} widget{'s' * (drawn != 1)} drawn"] if drawn else []
    if len(views) > drawn:
        notes.append(f"{len(views) - drawn} shown as text (no saved widget state)")
    return f"  ({'; '.join(notes)})" if notes else ""


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
    resources = {"metadata": {"name": title}, "bpelab_guide": guide}
    body, _resources = (exporter or _exporter()).from_notebook_node(nb, resources=resources)
    return body


# ---- transient output: progress bars ------------------------------------------------------------

TEXT_PROGRESS = re.compile(
    r"^\s*(?:[^\r\n|]*:\s*)?\d{1,3}%\|[^\r\n|]*\|\s*[\d.]+[kMGT]?/[\d.]+[kMGT]?(?:\s*\[[^\]\r\n]*\])?\s*$"
)
"""One state of tqdm's text bar, e.g. `` 69%|██████▉   | 6753/9744 [00:00<00:00, 13926.84it/s]``."""

PROGRESS_MODELS = ("FloatProgressModel", "IntProgressModel")


def _is_progress_widget(model_id: str, state: dict[str, Any]) -> bool:
    """tqdm's notebook bar: an HBox of exactly (HTML, a Progress bar, HTML)."""
    model = state.get(model_id, {})
    if model.get("model_name") != "HBoxModel":
        return False
    children = [str(child).removeprefix("IPY_MODEL_") for child in model.get("state", {}).get("children", [])]
    names = [state.get(child, {}).get("model_name") for child in children]
    return len(names) == 3 and names[0] == names[2] == "HTMLModel" and names[1] in PROGRESS_MODELS


def _is_progress_output(output: nbformat.NotebookNode, state: dict[str, Any]) -> bool:
    data = output.get("data", {})
    if WIDGET_VIEW not in data:
        return False
    if data[WIDGET_VIEW].get("model_id") in state:
        return _is_progress_widget(data[WIDGET_VIEW]["model_id"], state)
    text = str(data.get("text/plain", ""))  # no saved state: the bar's text summary
    return bool(TEXT_PROGRESS.match(text)) or (text.startswith("HBox(children=(HTML(") and "Progress(" in text)


def _without_text_bars(text: str) -> str:
    """The stream's text without the lines (or ``\\r``-separated states) that are tqdm bars."""
    kept = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        states = [part for part in body.split("\r") if not TEXT_PROGRESS.match(part)]
        if "".join(states).strip() or (body == "" and line.endswith("\n")):
            kept.append("\r".join(states) + line[len(body) :])
    return "".join(kept)


def drop_progress_bars(nb: nbformat.NotebookNode) -> int:
    """Remove progress bars from the notebook's outputs (in place); return how many outputs changed.

    A bar is transient: in the notebook it moved while the cell ran; on a page it is a stopped bar,
    red when its loop ended early ("6753/9744"), which reads as a failure. What a cell printed
    besides a bar is kept."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    changed = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                text = _without_text_bars(str(output.get("text", "")))
                if text != output.get("text"):
                    changed += 1
                    if not text.strip():
                        continue
                    output = copy.deepcopy(output)
                    output["text"] = text
            elif _is_progress_output(output, state):
                changed += 1
                continue
            outputs.append(output)
        cell["outputs"] = outputs
    return changed


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
        "the whole course before installing anything. The merge steppers step here too; to run the code and",
        "try your own text, get the course and open it with `make lab`.",
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
    exporter = _exporter()
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


# ---- the two scripts, from the npm registry --------------------------------------------------------


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode("ascii")


def fetch_tarball(asset: NpmAsset, cache_dir: Path = CACHE_DIR) -> Path:
    """The package's tarball from the cache, or from the npm registry with ``npm pack``; checked either way."""
    cached = cache_dir / asset.tarball_name
    if not cached.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is not installed (it fetches the page scripts once; e.g. apt-get install npm)")
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
            run = subprocess.run(
                [npm, "pack", f"{asset.package}@{asset.version}", "--pack-destination", tmp, "--silent"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            fetched = Path(tmp) / asset.tarball_name
            if run.returncode != 0 or not fetched.exists():
                tail = "\n".join((run.stderr or run.stdout).strip().splitlines()[-5:])
                raise RuntimeError(f"npm pack {asset.package}@{asset.version} failed:\n{tail}")
            fetched.replace(cached)
    found = _integrity(cached)
    if found != asset.integrity:
        cached.unlink()
        raise RuntimeError(f"{cached.name} is not the published file (sha512 differs); it was deleted, run again")
    return cached


def install_asset(asset: NpmAsset, static_dir: Path, cache_dir: Path = CACHE_DIR) -> None:
    """Copy the asset's files out of its (verified) tarball into ``static_dir``."""
    tarball = fetch_tarball(asset, cache_dir)
    with tarfile.open(tarball, "r:gz") as archive:
        wanted = dict(asset.files)
        for member in archive.getmembers():
            folder = str(Path(member.name).parent)
            if member.isfile() and folder in asset.folders and member.name.endswith(asset.folder_suffixes):
                wanted[member.name] = f"{asset.folders[folder]}/{Path(member.name).name}"
        for name, target in wanted.items():
            data = archive.extractfile(name)
            if data is None:
                raise RuntimeError(f"{tarball.name} has no file {name}")
            path = static_dir / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.read())


def install_assets(static_dir: Path, cache_dir: Path = CACHE_DIR) -> list[str]:
    """Put the page scripts into ``static_dir``; return one line per asset that could not be had."""
    static_dir.mkdir(parents=True, exist_ok=True)
    problems, installed = [], []
    for asset in WEB_ASSETS:
        try:
            install_asset(asset, static_dir, cache_dir)
            installed.append(f"{asset.package} {asset.version} ({asset.licence}), from the npm registry")
        except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError, KeyError) as err:
            problems.append(f"{asset.package}@{asset.version}: {err}")
    from bpelab.course.tiktoken_scripts import JS_TIKTOKEN, install_tiktoken_scripts  # that module imports this one

    try:  # GPT-2/4/4o for the explorer without Python; each page loads them only when one is chosen
        install_tiktoken_scripts(static_dir, cache_dir)
    except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError, KeyError) as err:
        problems.append(
            f"{JS_TIKTOKEN.package}@{JS_TIKTOKEN.version}: {err} (the explorer's GPT tokenizers without Python)"
        )
    if installed:
        (static_dir / "THIRD_PARTY.txt").write_text(
            "Scripts these pages use, copied unchanged from their npm packages:\n" + "\n".join(installed) + "\n",
            encoding="utf-8",
        )
    return problems


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
