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
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.course.tiktoken_scripts import (
    BROWSER_ENCODINGS,
    CORE_SCRIPT,
    PAGE_PATTERN_NAMES,
    compressed_ranks,
    core_script,
    install_llama3_script,
    install_tiktoken_scripts,
    page_pattern,
    ranks_as_script,
    ranks_script,
)
from bpelab.patterns import LLAMA3_PATTERN, PATTERNS, split_text
from bpelab.production import load_encoding
from tests.agreement_corpus import TRICKY, agreement_corpus
from tests.engine_characters import KNOWN_CHARACTERS

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
    install_llama3_script(static)  # from the course's offline data, which `make test` prepares
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
    encoding = load_encoding(name)  # tiktoken's Encoding (Llama 3's built from the course's verified file)
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


def _run_page_scripts(static: Path, name: str, tmp_path: Path, then: str, window_setup: str = "") -> object:
    """Run the encoder's and ``name``'s scripts in a Node context standing for the page's window, then
    ``then`` (JavaScript that prints one JSON value, with ``enc`` the encoder); return that value."""
    probe = tmp_path / f"probe-{name}.cjs"
    probe.write_text(
        "const vm = require('node:vm'); const fs = require('node:fs');\n"
        "const window = {TextEncoder, TextDecoder}; window.window = window;\n"
        + window_setup
        + "vm.createContext(window);\n"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(static / CORE_SCRIPT))}, 'utf8'), window);\n"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(static / ranks_script(name)))}, 'utf8'), window);\n"
        f"const enc = new window.bpelabTiktoken.Tiktoken(window.bpelabTiktokenRanks[{name!r}]);\n" + then,
        encoding="utf-8",
    )
    assert NODE is not None
    run = subprocess.run([NODE, str(probe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_scripts_set_globals_and_never_call_amd_define(static_dir: Path, tmp_path: Path) -> None:
    """The pages load require.js: an anonymous define() from a classic script would break it."""
    got = _run_page_scripts(
        static_dir,
        "r50k_base",
        tmp_path,
        "console.log(JSON.stringify({defined, ids: enc.encode('hello world', [], [])}));\n",
        window_setup="let defined = 0; window.define = function () { defined += 1; }; window.define.amd = {};\n",
    )
    assert got == {"defined": 0, "ids": tiktoken.get_encoding("r50k_base").encode("hello world")}


def test_a_changed_npm_file_is_refused_not_wrapped_wrongly() -> None:
    with pytest.raises(RuntimeError, match="import or export line changed"):
        core_script("export class Tiktoken {}", "exports.toByteArray = 1")
    with pytest.raises(RuntimeError, match="does not start with"):
        ranks_as_script("r50k_base", "module.exports = {}")
    with pytest.raises(ValueError, match="choose from r50k_base, cl100k_base, o200k_base, llama3"):
        ranks_script("o200k_harmony")


def test_make_htmls_assets_include_the_browser_encoders(tmp_path: Path) -> None:
    from bpelab.course.html_export import install_assets

    problems = install_assets(tmp_path)
    if problems:
        pytest.skip(f"the page scripts could not be had: {problems}")
    for name in BROWSER_ENCODINGS:
        assert (tmp_path / ranks_script(name)).is_file()
    assert (tmp_path / CORE_SCRIPT).is_file()


# ---- Llama 3: ranks written by make html from the course's data, its pattern rewritten for JavaScript; ----
# ---- the other three: js-tiktoken's patterns corrected the same way ('ſ, and U+FEFF is not a space)  ----

PYTHON_PATTERNS = {name: PATTERNS[short] for name, short in PAGE_PATTERN_NAMES.items()}

HARD = [
    "don't", "DON'T", "it'S", "they'Re", "'LL", "x'ſ", "'ſtate", "A'ſa",  # (?i:'s…) also matches ſ (U+017F)
    "\ufeff!", "x \ufeff\ufeffy", "a\ufeff b",  # U+FEFF is a space to JavaScript's \s, not to tiktoken's
    "\u200d", "👨\u200d👩\u200d👧", "👍🏽", "e\u0301\u0301", "\u0308", "a\u200db", "\u212a",
    "1920", "19201920", "$1,999.99", "٣٤٥٦", "x²³", "१२३४",
    "\r\n", "\r", "\n\n", "    ", "\t", "\u00a0", "\u3000", "\u2028", "\x85", "\x1c", " \n ",
    "中文", "हिन्दी", "Ελληνικά", "русский", "العربية", "<|begin_of_text|>", "...", " ",
]  # fmt: skip
texts = st.lists(st.one_of(st.text(KNOWN_CHARACTERS, max_size=6), st.sampled_from(HARD)), max_size=12).map("".join)


@pytest.mark.parametrize("name", BROWSER_ENCODINGS)
@settings(max_examples=3, deadline=None)
@given(batch=st.lists(texts, min_size=80, max_size=80))
def test_the_page_cuts_and_encodes_generated_text_as_tiktoken(
    static_dir: Path, tmp_path_factory: pytest.TempPathFactory, name: str, batch: list[str]
) -> None:
    """Across scripts, digits, joiners, marks and the spaces the engines disagree on: the page's
    pattern cuts as Python's regex does (itself held to tiktoken's by test_regex_engines.py), and
    its ids are tiktoken's."""
    encoding = load_encoding(name)
    got = _encode_in_js(static_dir, name, batch, tmp_path_factory.mktemp(name))
    for text, result in zip(batch, got, strict=True):
        assert result["cuts"] == split_text(text, PYTHON_PATTERNS[name]), f"{name}: the page cuts {text!r} differently"
        assert result["ids"] == encoding.encode_ordinary(text), f"{name}: ids differ from tiktoken on {text!r}"
        assert result["bytesRoundTrip"]


@pytest.mark.parametrize("name", BROWSER_ENCODINGS)
def test_the_page_on_each_hard_text(static_dir: Path, name: str, tmp_path: Path) -> None:
    encoding = load_encoding(name)
    for text, result in zip(HARD, _encode_in_js(static_dir, name, HARD, tmp_path), strict=True):
        assert result["cuts"] == split_text(text, PYTHON_PATTERNS[name]), f"{name}: the page cuts {text!r} differently"
        assert result["ids"] == encoding.encode_ordinary(text), f"{name}: ids differ from tiktoken on {text!r}"


def test_js_tiktokens_own_patterns_cut_otherwise_and_the_corrected_ones_do_not(tmp_path: Path) -> None:
    """Why the page has patterns of its own: as published, js-tiktoken's cl100k_base cuts "'ſ", " \ufeff!"
    and a text ending " \n " otherwise than tiktoken (the page gave GPT-4 44 tokens for a text tiktoken makes 43)."""
    import tarfile

    from bpelab.course.npm_assets import fetch_tarball
    from bpelab.course.tiktoken_scripts import JS_TIKTOKEN, RANKS_EXPORT

    try:
        with tarfile.open(fetch_tarball(JS_TIKTOKEN), "r:gz") as archive:
            member = archive.extractfile("package/dist/ranks/cl100k_base.js")
            assert member is not None
            published = json.loads(member.read().decode()[len(RANKS_EXPORT) :].rstrip().removesuffix(";"))["pat_str"]
    except RuntimeError as err:
        pytest.skip(f"js-tiktoken could not be had: {err}")
    text = "x'\u017fa \ufeff! \n "
    expected = split_text(text, PYTHON_PATTERNS["cl100k_base"])
    assert expected == ["x", "'\u017f", "a", " \ufeff!", " \n "]
    probe = tmp_path / "cut.cjs"
    probe.write_text(
        f"const text = {json.dumps(text)};\n"
        "const cut = (p) => [...text.matchAll(new RegExp(p, 'ug'))].map((m) => m[0]);\n"
        f"console.log(JSON.stringify([cut({json.dumps(published)}), cut({json.dumps(page_pattern('cl100k_base'))})]));\n",
        encoding="utf-8",
    )
    assert NODE is not None
    run = subprocess.run([NODE, str(probe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    as_published, corrected = json.loads(run.stdout)
    assert as_published != expected and corrected == expected


def test_the_hard_texts_are_hard_for_a_careless_rewrite() -> None:
    """What the JavaScript pattern must get right, shown on the Python side: a contraction ending
    with ſ is cut off, and U+FEFF is not a space (JavaScript's \\s says it is)."""
    assert split_text("A'ſa", LLAMA3_PATTERN) == ["A", "'ſ", "a"]
    assert split_text("\ufeff!", LLAMA3_PATTERN) == ["\ufeff!"]
    pattern = page_pattern("llama3")
    assert "(?i" not in pattern and "\\s" not in pattern and "\\S" not in pattern and "ſ" in pattern


def test_llama3s_special_tokens_are_tiktokens(static_dir: Path, tmp_path: Path) -> None:
    text = "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>"
    got = _run_page_scripts(
        static_dir, "llama3", tmp_path, f"console.log(JSON.stringify(enc.encode({json.dumps(text)}, 'all')));\n"
    )
    assert got == load_encoding("llama3").encode(text, allowed_special="all")


def test_compressed_ranks_start_a_line_wherever_ranks_skip() -> None:
    ranks = {b"a": 0, b"b": 1, b"ab": 5, b"\xff": 6}
    assert compressed_ranks(ranks) == "ranks 0 YQ== Yg==\nranks 5 YWI= /w=="
