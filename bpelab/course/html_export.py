"""The course as static web pages (``make html``): read every lesson before installing anything.

Each lesson is written with its outputs exactly as committed (nothing is run), so the pages show
what the lessons print. Widgets whose state the notebook saved (the merge stepper of lesson 04,
the encode explorer of lesson 05, …) are drawn in their first view by the Jupyter widgets "HTML
manager"; a widget without saved state shows its one-line text summary instead. Links between
lessons point at the pages, ``index.html`` lists the lessons, and the teacher's guide
(``notebooks/TEACHING.md``) becomes ``TEACHING.html``.

Nothing on the pages comes from a CDN: nbconvert's default page loads require.js, MathJax and the
widget manager from the internet, so the pages here use their own template and two JavaScript
packages copied into ``site/_static/``, fetched once with ``npm pack`` from the npm registry (at
pinned versions, checked against their published sha512) and cached in ``build/web-assets/``.
Without npm or the registry the pages are still written: widgets then show their text summaries
and formulas stay as TeX source, and the command says so.

    python -m bpelab.course.html_export              # all lessons and the guide into site/
    python -m bpelab.course.html_export --out /tmp/x notebooks/04_merging_step_by_step.ipynb
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jinja2 import DictLoader

from bpelab.course.paths import REPO_ROOT

NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
GUIDE = NOTEBOOKS_DIR / "TEACHING.md"
SITE_DIR = REPO_ROOT / "site"
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
        "package/dist/embed.js": "html-manager/embed.js",
        "package/dist/embed.js.LICENSE.txt": "html-manager/embed.js.LICENSE.txt",
    },
    folders={"package/dist": "html-manager"},
    folder_suffixes=(".woff2", ".woff"),
)
"""Draws widgets from their saved state, without a kernel (``embed.js`` needs no require.js). Its
icon fonts come along (the woff formats browsers use), so that nothing is missing offline."""

MATHJAX = NpmAsset(
    package="mathjax",
    version="3.2.2",
    integrity="sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
    licence="Apache-2.0",
    files={"package/es5/tex-chtml.js": "mathjax/tex-chtml.js", "package/LICENSE": "mathjax/LICENSE"},
    folders={"package/es5/output/chtml/fonts/woff-v2": "mathjax/output/chtml/fonts/woff-v2"},
)
"""Typesets the few formulas of lessons 08, 09 and 11; it finds its fonts beside its script."""

WEB_ASSETS: tuple[NpmAsset, ...] = (WIDGET_MANAGER, MATHJAX)

PAGE_TEMPLATE = r"""
{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{% block jupyter_widgets %}
{%- if "widgets" in nb.metadata -%}
<script>window.__jupyter_widgets_assets_path__ = "_static/html-manager/";</script>
<script src="_static/html-manager/embed.js"></script>
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
.bpe-site-nav a { margin-right: 16px; }
.bpe-site-nav .bpe-site-note { color: #555; }
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


def _exporter():  # nbconvert is imported here: it is slow to import and only this command needs it
    from nbconvert import HTMLExporter

    return HTMLExporter(
        template_name="lab",
        extra_loaders=[DictLoader({"bpelab_page.html.j2": PAGE_TEMPLATE})],
        template_file="bpelab_page.html.j2",
    )


def rewrite_links(page: str, targets: dict[str, str]) -> str:
    """``href="05_encoding_and_decoding.ipynb#x"`` becomes ``href="05_encoding_and_decoding.html#x"``,
    for every source file in ``targets`` (source name -> page name); other links are left alone."""

    def swap(match: re.Match[str]) -> str:
        target = targets.get(match.group("file"))
        return match.group(0) if target is None else f'href="{target}{match.group("anchor") or ""}"'

    return re.sub(r'href="(?:\./)?(?P<file>[^"#/:]+)(?P<anchor>#[^"]*)?"', swap, page)


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


def export_notebook(nb: nbformat.NotebookNode, title: str, exporter=None, *, guide: bool = False) -> str:
    """One notebook as a page, outputs as stored (nothing is executed); ``guide``: link the teacher's guide."""
    nb = copy.deepcopy(nb)
    nb.metadata["title"] = title
    nb.metadata["bpelab_math"] = has_math(nb)
    resources = {"metadata": {"name": title}, "bpelab_guide": guide}
    body, _resources = (exporter or _exporter()).from_notebook_node(nb, resources=resources)
    return body


def markdown_notebook(text: str) -> nbformat.NotebookNode:
    """A Markdown file as a one-cell notebook, so that it gets the same page as the lessons."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(text)]
    return nb


def index_markdown(lessons: list[tuple[str, str]], guide: bool) -> str:
    """The front page: the lessons in order (page, title), the guide, and how to run the course."""
    rows = []
    for page, title in lessons:
        number, _dash, name = title.partition(" — ")
        rows.append(f"| {number} | [{name or title}]({page}) |" if name else f"| | [{title}]({page}) |")
    lines = [
        "# bpelab: learn Byte-Pair Encoding by building it",
        "",
        "These pages are the course's notebooks as they are stored, with every output, so that you can read",
        "the whole course before installing anything. Widgets show their first view; to click through them",
        "and to run the code, get the course and open it with `make lab`.",
        "",
        "| # | Lesson |",
        "|---|---|",
        *rows,
        "",
    ]
    if guide:
        lines += ["For teachers: [the teacher's guide](TEACHING.html), and classroom mode (`make present`).", ""]
    return "\n".join(lines)


def write_site(
    out_dir: Path = SITE_DIR, notebooks: list[Path] | None = None, *, guide: Path | None = GUIDE, log=print
) -> list[Path]:
    """Write a page per notebook, the guide's page and ``index.html`` into ``out_dir``; return the pages."""
    sources = list(notebooks) if notebooks is not None else lesson_paths()
    if not sources:
        raise FileNotFoundError(f"no notebooks to export (looked for {LESSON_PATTERN} in {NOTEBOOKS_DIR})")
    for source in sources:
        if source.suffix != ".ipynb" or not source.is_file():
            raise FileNotFoundError(f"{source} is not a notebook file (.ipynb)")
    out_dir.mkdir(parents=True, exist_ok=True)
    has_guide = guide is not None and guide.is_file()
    targets = {source.name: page_name(source) for source in sources}
    if has_guide:
        targets[guide.name] = page_name(guide)
    exporter = _exporter()

    def write(nb: nbformat.NotebookNode, title: str, path: Path, note: str) -> Path:
        page = export_notebook(nb, title, exporter, guide=has_guide)
        path.write_text(rewrite_links(page, targets), encoding="utf-8")
        log(f"  {path.name:40} {note}")
        return path

    written, listed = [], []
    for source in sources:
        nb = nbformat.read(source, as_version=4)
        title = title_of(nb, source.stem)
        written.append(write(nb, title, out_dir / page_name(source), title + widget_note(nb)))
        listed.append((page_name(source), title))
    if has_guide:
        nb = markdown_notebook(guide.read_text(encoding="utf-8"))
        title = title_of(nb, "Teacher's guide")
        written.append(write(nb, title, out_dir / page_name(guide), title))
    front = markdown_notebook(index_markdown(listed, has_guide))
    written.append(write(front, "bpelab", out_dir / "index.html", "the list of lessons"))
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
    args = parser.parse_args(argv)
    out = args.out.resolve()
    print(f"Writing the course as web pages into {out}")
    try:
        write_site(out, args.notebooks or None)
    except FileNotFoundError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.no_assets:
        problems = ["skipped (--no-assets)"]
    else:
        problems = install_assets(out / STATIC)
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
