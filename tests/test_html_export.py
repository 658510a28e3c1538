"""``make html``: lessons as static pages, outputs as stored, widget state embedded, nothing from a CDN.

Known answers come from the notebooks themselves (their stored outputs and saved widget state),
read here with nbformat, independently of the exporter.
"""

from __future__ import annotations

import html
import io
import json
import re
import tarfile
from pathlib import Path

import nbformat
import pytest

from bpelab.course.html_export import (
    NOTEBOOKS_DIR,
    WIDGET_STATE,
    NpmAsset,
    fetch_tarball,
    main,
    rewrite_links,
    write_site,
)

LESSON_00 = NOTEBOOKS_DIR / "00_start_here.ipynb"
LESSON_04 = NOTEBOOKS_DIR / "04_merging_step_by_step.ipynb"
LESSON_05 = NOTEBOOKS_DIR / "05_encoding_and_decoding.ipynb"
VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Lessons 00, 04 and 05 and a small guide, exported once for every test here."""
    for lesson in (LESSON_00, LESSON_04, LESSON_05):
        if not lesson.exists():
            pytest.fail(f"{lesson.name} is missing: these tests export it")
    root = tmp_path_factory.mktemp("site-src")
    guide = root / "TEACHING.md"
    guide.write_text(
        "# Teaching\n\nStart with [the stepper](04_merging_step_by_step.ipynb#6.-The-merge-stepper).\n",
        encoding="utf-8",
    )
    out = tmp_path_factory.mktemp("site")
    write_site(out, [LESSON_00, LESSON_04, LESSON_05], guide=guide, log=lambda *_: None)
    return out


def page(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def test_every_lesson_the_guide_and_an_index_get_a_page(site: Path):
    names = sorted(p.name for p in site.glob("*.html"))
    assert names == [
        "00_start_here.html",
        "04_merging_step_by_step.html",
        "05_encoding_and_decoding.html",
        "TEACHING.html",
        "index.html",
    ]
    index = page(site, "index.html")
    for name, title in (("04_merging_step_by_step.html", "Merging, step by step"), ("TEACHING.html", "teacher")):
        assert f'href="{name}"' in index and title in index


def test_links_between_lessons_point_at_the_pages(site: Path):
    lesson04 = page(site, "04_merging_step_by_step.html")
    assert 'href="05_encoding_and_decoding.html"' in lesson04
    assert "05_encoding_and_decoding.ipynb" not in lesson04
    guide = page(site, "TEACHING.html")
    assert 'href="04_merging_step_by_step.html#6.-The-merge-stepper"' in guide


def test_rewriting_leaves_other_links_alone():
    targets = {"05_x.ipynb": "05_x.html"}
    source = '<a href="05_x.ipynb">a</a> <a href="./05_x.ipynb#s">b</a> <a href="https://e.org/05_x.ipynb">c</a>'
    assert rewrite_links(source + ' <a href="../README.md">d</a>', targets) == (
        '<a href="05_x.html">a</a> <a href="05_x.html#s">b</a> <a href="https://e.org/05_x.ipynb">c</a>'
        ' <a href="../README.md">d</a>'
    )


def test_the_saved_widget_state_is_embedded_and_every_view_finds_its_model(site: Path):
    nb = nbformat.read(LESSON_04, as_version=4)
    saved = nb.metadata["widgets"][WIDGET_STATE]
    lesson04 = page(site, "04_merging_step_by_step.html")
    blocks = re.findall(rf'<script type="{re.escape(WIDGET_STATE)}">\s*(.*?)\s*</script>', lesson04, flags=re.DOTALL)
    assert len(blocks) == 1
    assert json.loads(blocks[0])["state"].keys() == saved["state"].keys()
    views = re.findall(rf'<script type="{re.escape(VIEW)}">\s*(.*?)\s*</script>', lesson04, flags=re.DOTALL)
    stored_views = [
        o.data[VIEW]["model_id"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if VIEW in o.get("data", {})
    ]
    assert [json.loads(v)["model_id"] for v in views] == stored_views
    assert all(model in saved["state"] for model in stored_views)
    assert 'src="_static/html-manager/embed.js"' in lesson04


def test_outputs_are_the_stored_ones_and_widgets_keep_their_text_summary(site: Path):
    nb = nbformat.read(LESSON_04, as_version=4)
    printed = next(o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream")
    lesson04 = page(site, "04_merging_step_by_step.html")
    assert html.escape(printed.splitlines()[0], quote=False) in lesson04
    summary = next(
        o.data["text/plain"] for c in nb.cells if c.cell_type == "code" for o in c.outputs if VIEW in o.get("data", {})
    )
    assert f'<pre class="bpe-widget-fallback">{html.escape(summary, quote=False)}</pre>' in lesson04


def test_a_widget_without_saved_state_shows_its_text(tmp_path: Path):
    nb = nbformat.read(LESSON_05, as_version=4)
    nb.metadata.pop("widgets")  # as a notebook saved without its widget state
    source = tmp_path / "05_encoding_and_decoding.ipynb"
    nbformat.write(nb, source)
    text = next(
        o.data["text/plain"] for c in nb.cells if c.cell_type == "code" for o in c.outputs if VIEW in o.get("data", {})
    )
    write_site(tmp_path / "out", [source], guide=None, log=lambda *_: None)
    lesson05 = (tmp_path / "out" / "05_encoding_and_decoding.html").read_text(encoding="utf-8")
    assert html.escape(text, quote=False) in lesson05
    assert VIEW not in lesson05 and "html-manager" not in lesson05  # no widget to draw, no script


def test_nothing_is_loaded_from_another_host(site: Path):
    for path in site.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        remote = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//[^"]+"', text)
        assert not remote, f"{path.name} loads {remote[:3]}"
        assert "cdnjs" not in text and "unpkg.com" not in text and "jsdelivr" not in text


def test_a_tampered_cached_script_is_refused_and_deleted(tmp_path: Path):
    asset = NpmAsset(
        "left-pad",
        "1.3.0",
        integrity="sha512-" + "A" * 86 + "==",
        licence="WTFPL",
        files={"package/index.js": "left-pad.js"},
        folders={},
    )
    fake = io.BytesIO()
    with tarfile.open(fileobj=fake, mode="w:gz") as archive:
        data = b"module.exports = 'not the real file'"
        info = tarfile.TarInfo("package/index.js")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    cached = tmp_path / asset.tarball_name
    cached.write_bytes(fake.getvalue())
    with pytest.raises(RuntimeError, match="not the published file"):
        fetch_tarball(asset, tmp_path)
    assert not cached.exists()


def test_the_command_writes_pages_even_without_the_scripts_and_says_so(tmp_path: Path, capsys):
    assert main(["--no-assets", "--out", str(tmp_path), str(LESSON_05)]) == 0
    assert (tmp_path / "05_encoding_and_decoding.html").exists() and (tmp_path / "index.html").exists()
    assert "widgets show their text summaries" in capsys.readouterr().err


def test_a_missing_notebook_is_a_clear_error(tmp_path: Path, capsys):
    assert main(["--no-assets", "--out", str(tmp_path), str(tmp_path / "99_nothing.ipynb")]) == 1
    assert "99_nothing.ipynb is not a notebook file" in capsys.readouterr().err


def test_without_npm_and_without_a_cache_each_script_is_named_as_missing(tmp_path: Path, monkeypatch):
    import bpelab.course.html_export as html_export

    monkeypatch.setattr(html_export.shutil, "which", lambda _name: None)
    problems = html_export.install_assets(tmp_path / "_static", cache_dir=tmp_path / "cache")
    assert [p.split(":")[0] for p in problems] == [f"{a.package}@{a.version}" for a in html_export.WEB_ASSETS]
    assert all("npm is not installed" in p for p in problems)
