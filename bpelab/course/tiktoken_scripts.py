"""GPT-2, GPT-4 and GPT-4o's encoders for pages without Python (``make html`` puts them in the site).

The encode explorer on a static page encodes typed text in the browser. The production encodings
come from ``js-tiktoken`` (npm, MIT; a JavaScript port of tiktoken: the same split patterns
rewritten for JavaScript's regular expressions, the same rank-merge loop) and its one dependency
``base64-js``, both pinned and checked against their published sha512 like the site's other scripts.

A page opened as ``file://`` cannot ``fetch()`` or ``import()`` a sibling file, but a classic
``<script src>`` it adds runs. So the npm files are rewritten (not changed in substance) as classic
scripts that set a global, and each vocabulary is its own script, loaded only when a learner picks
that tokenizer (o200k's ranks are about 2.3 MB; a page without them stays small):

    _static/tiktoken/tiktoken.js          window.bpelabTiktoken = {Tiktoken}
    _static/tiktoken/ranks/<name>.js      window.bpelabTiktokenRanks["<name>"] = {pat_str, bpe_ranks, …}

Neither script calls ``define``: the pages load require.js, which rejects anonymous AMD modules.
"""

from __future__ import annotations

import tarfile
from pathlib import Path

from bpelab.course.html_export import CACHE_DIR, NpmAsset, fetch_tarball

JS_TIKTOKEN = NpmAsset(
    package="js-tiktoken",
    version="1.0.21",
    integrity="sha512-biOj/6M5qdgx5TKjDnFT1ymSpM5tbd3ylwDtrQvFQSu0Z7bBYko2dF+W/aUkXUPuk6IVpRxk/3Q2sHOzGlS36g==",
    licence="MIT",
    files={},
    folders={},
)
BASE64_JS = NpmAsset(
    package="base64-js",
    version="1.5.1",
    integrity="sha512-AKpaYlHn8t4SVbOHCy+b5+KKgvR4vrsD8vbvrbiQJps7fKDTkjkDry6ji0rUJjC0kzbNePLwzxq8iypo41qeWA==",
    licence="MIT",
    files={},
    folders={},
)
ENCODER_CORE = "package/dist/chunk-VL2OQCWN.js"
"""js-tiktoken 1.0.21's ``Tiktoken`` class (what ``js-tiktoken/lite`` re-exports)."""
CORE_IMPORT = "import base64 from 'base64-js';"
CORE_EXPORT = "export { Tiktoken, getEncodingNameForModel, never };"
RANKS_EXPORT = "export default "
BROWSER_ENCODINGS = ("r50k_base", "cl100k_base", "o200k_base")
"""The production encodings a static page can use (Llama 3's ranks are not in js-tiktoken)."""
FOLDER = "tiktoken"
"""Their folder under _static/."""
CORE_SCRIPT = f"{FOLDER}/tiktoken.js"
CORE_GLOBAL = "bpelabTiktoken"
RANKS_GLOBAL = "bpelabTiktokenRanks"


def ranks_script(name: str) -> str:
    """The path under _static/ of one encoding's ranks script."""
    if name not in BROWSER_ENCODINGS:
        raise ValueError(f"no browser ranks for {name!r}; choose from {', '.join(BROWSER_ENCODINGS)}")
    return f"{FOLDER}/ranks/{name}.js"


def _member(archive: tarfile.TarFile, name: str) -> str:
    data = archive.extractfile(name)
    if data is None:
        raise RuntimeError(f"the npm package has no file {name}")
    return data.read().decode("utf-8")


def core_script(encoder_module: str, base64_module: str) -> str:
    """js-tiktoken's ES module and base64-js's CommonJS module as one classic script."""
    if CORE_IMPORT not in encoder_module or CORE_EXPORT not in encoder_module:
        raise RuntimeError(f"{ENCODER_CORE} is not the file expected (its import or export line changed)")
    body = encoder_module.replace(CORE_IMPORT, "var base64 = base64Module.exports;").replace(CORE_EXPORT, "")
    return (
        f"/* js-tiktoken {JS_TIKTOKEN.version} (MIT) and base64-js {BASE64_JS.version} (MIT), from the npm registry,\n"
        "   wrapped by bpelab as a classic script: a page opened as file:// cannot import ES modules. */\n"
        "(function () {\n"
        "var base64Module = {exports: {}};\n"
        "(function (module, exports) {\n"
        + base64_module
        + "\n})(base64Module, base64Module.exports);\n"
        + body
        + f"\nwindow.{CORE_GLOBAL} = {{Tiktoken: Tiktoken}};\n}})();\n"
    )


def ranks_as_script(name: str, ranks_module: str) -> str:
    """One ``js-tiktoken/ranks/<name>`` ES module as a classic script."""
    if not ranks_module.startswith(RANKS_EXPORT):
        raise RuntimeError(f"js-tiktoken's ranks/{name}.js does not start with {RANKS_EXPORT!r}")
    data = ranks_module[len(RANKS_EXPORT) :].rstrip().removesuffix(";")
    return (
        f"/* js-tiktoken {JS_TIKTOKEN.version} (MIT): the {name} ranks, as a classic script */\n"
        f"(window.{RANKS_GLOBAL} = window.{RANKS_GLOBAL} || {{}})[{name!r}] = {data};\n"
    )


def install_tiktoken_scripts(static_dir: Path, cache_dir: Path = CACHE_DIR) -> list[str]:
    """Write the encoder and every ranks script under ``static_dir/tiktoken/``; return their paths
    under _static/. Raises RuntimeError (npm missing, offline, a changed package) with the reason."""
    with tarfile.open(fetch_tarball(BASE64_JS, cache_dir), "r:gz") as archive:
        base64_module = _member(archive, "package/index.js")
    written = []
    with tarfile.open(fetch_tarball(JS_TIKTOKEN, cache_dir), "r:gz") as archive:
        scripts = {CORE_SCRIPT: core_script(_member(archive, ENCODER_CORE), base64_module)}
        for name in BROWSER_ENCODINGS:
            scripts[ranks_script(name)] = ranks_as_script(name, _member(archive, f"package/dist/ranks/{name}.js"))
    for relative, text in scripts.items():
        path = static_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(relative)
    (static_dir / FOLDER / "THIRD_PARTY.txt").write_text(
        f"js-tiktoken {JS_TIKTOKEN.version} (MIT) and base64-js {BASE64_JS.version} (MIT), from the npm registry;\n"
        "their ES and CommonJS modules wrapped unchanged as classic scripts (see bpelab/course/tiktoken_scripts.py).\n",
        encoding="utf-8",
    )
    return written
