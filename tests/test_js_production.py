"""The static explorer's production encoders (js-tiktoken, vendored by ``make html``) give tiktoken's ids.

The JavaScript encoder is a second implementation, so it is held to tiktoken (the independent
reference) on the course's whole agreement corpus, through the very scripts a page loads and the
module the explorer calls (bpelab/widgets/static/production.js), run under Node.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import tiktoken

from bpelab.course.tiktoken_scripts import (
    BROWSER_ENCODINGS,
    CORE_SCRIPT,
    core_script,
    install_tiktoken_scripts,
    ranks_as_script,
    ranks_script,
)
from tests.agreement_corpus import TRICKY, agreement_corpus

NODE = shutil.which("node")
DRIVER = Path(__file__).parent / "js" / "encode_with_js_tiktoken.mjs"
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")


@pytest.fixture(scope="module")
def static_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    static = tmp_path_factory.mktemp("site") / "_static"
    try:
        install_tiktoken_scripts(static)
    except RuntimeError as err:  # no npm, or no registry and nothing cached in build/
        pytest.skip(f"js-tiktoken could not be had: {err}")
    return static


def _encode_in_js(static: Path, name: str, docs: list[str], tmp_path: Path) -> list[dict[str, object]]:
    docs_path, out_path = tmp_path / f"{name}-docs.json", tmp_path / f"{name}-out.json"
    docs_path.write_text(json.dumps(docs), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, str(DRIVER), str(static), name, str(docs_path), str(out_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result: list[dict[str, object]] = json.loads(out_path.read_text(encoding="utf-8"))
    return result


@pytest.mark.parametrize("name", BROWSER_ENCODINGS)
def test_browser_ids_equal_tiktoken_on_the_agreement_corpus(static_dir: Path, name: str, tmp_path: Path) -> None:
    docs = agreement_corpus() + TRICKY
    assert sum(len(d.encode()) for d in docs) >= 1_000_000
    encoding = tiktoken.get_encoding(name)
    got = _encode_in_js(static_dir, name, docs, tmp_path)
    for doc, result in zip(docs, got, strict=True):
        expected = encoding.encode_ordinary(doc)
        if result["ids"] != expected:
            ids = result["ids"]
            assert isinstance(ids, list)
            first = next(i for i, (a, b) in enumerate(zip(ids, expected, strict=False)) if a != b)
            pytest.fail(f"{name}: ids differ from tiktoken at token {first} of a document starting {doc[:40]!r}")
        assert result["bytesRoundTrip"], f"{name}: the tokens' bytes do not join back into {doc[:40]!r}"


def test_special_token_text_is_ordinary_text_as_in_the_python_explorer(static_dir: Path, tmp_path: Path) -> None:
    text = "a<|endoftext|>b <|fim_prefix|>"
    (result,) = _encode_in_js(static_dir, "cl100k_base", [text], tmp_path)
    assert result["ids"] == tiktoken.get_encoding("cl100k_base").encode_ordinary(text)
    assert 100257 not in tiktoken.get_encoding("cl100k_base").encode_ordinary(text)


def test_scripts_set_globals_and_never_call_amd_define(static_dir: Path, tmp_path: Path) -> None:
    """The pages load require.js: an anonymous define() from a classic script would break it."""
    probe = tmp_path / "probe.cjs"
    probe.write_text(
        "const vm = require('node:vm'); const fs = require('node:fs');\n"
        "let defined = 0; const window = {}; window.window = window;\n"
        "window.define = function () { defined += 1; }; window.define.amd = {};\n"
        "window.TextEncoder = TextEncoder; window.TextDecoder = TextDecoder;\n"
        "vm.createContext(window);\n"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(static_dir / CORE_SCRIPT))}, 'utf8'), window);\n"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(static_dir / ranks_script('r50k_base')))}, 'utf8'), window);\n"
        "const enc = new window.bpelabTiktoken.Tiktoken(window.bpelabTiktokenRanks.r50k_base);\n"
        "console.log(JSON.stringify({defined, ids: enc.encode('hello world', [], [])}));\n",
        encoding="utf-8",
    )
    assert NODE is not None
    run = subprocess.run([NODE, str(probe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"defined": 0, "ids": tiktoken.get_encoding("r50k_base").encode("hello world")}


def test_a_changed_npm_file_is_refused_not_wrapped_wrongly() -> None:
    with pytest.raises(RuntimeError, match="import or export line changed"):
        core_script("export class Tiktoken {}", "exports.toByteArray = 1")
    with pytest.raises(RuntimeError, match="does not start with"):
        ranks_as_script("r50k_base", "module.exports = {}")
    with pytest.raises(ValueError, match="choose from r50k_base, cl100k_base, o200k_base"):
        ranks_script("llama3")


def test_make_htmls_assets_include_the_browser_encoders(tmp_path: Path) -> None:
    from bpelab.course.html_export import install_assets

    problems = install_assets(tmp_path)
    if problems:
        pytest.skip(f"the page scripts could not be had: {problems}")
    for name in BROWSER_ENCODINGS:
        assert (tmp_path / ranks_script(name)).is_file()
    assert (tmp_path / CORE_SCRIPT).is_file()
