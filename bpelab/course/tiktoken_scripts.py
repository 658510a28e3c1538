r"""GPT-2, GPT-4, GPT-4o and Llama 3's encoders for pages without Python (``make html`` puts them in the site).

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

js-tiktoken ships no Llama 3. Its ranks script is written here from the course's own verified offline
file (``data/tokenizers/llama3.tiktoken``, made by ``python -m bpelab.setup_data``), in the form
js-tiktoken's ``Tiktoken`` constructor reads: ``bpe_ranks`` is lines of "<anything> <first rank>
<token> <token>…", each token in base64 and each one rank above the one before.

Every page encoding's split pattern (js-tiktoken's three replaced, Llama 3's) is the course's own
(``bpelab.patterns``, which cuts as tiktoken does) written for JavaScript by ``page_pattern``:
``(?i:…)`` spelled out with every case Rust's regex folds together (``'ſ`` is a contraction too),
possessive quantifiers made greedy, and ``\s`` spelled as Unicode's White_Space, which tiktoken's
regex means and JavaScript's does not (JavaScript's also holds U+FEFF). js-tiktoken's own patterns
missed all three, and its GPT-4 pattern predates tiktoken's ``\s++$``.

Neither script calls ``define``: the pages load require.js, which rejects anonymous AMD modules.
"""

from __future__ import annotations

import base64
import json
import tarfile
from pathlib import Path

import regex

from bpelab.course.npm_assets import CACHE_DIR, NpmAsset, fetch_tarball
from bpelab.patterns import ENCODING_PATTERN_NAMES, PATTERNS
from bpelab.production import LLAMA3_SPECIAL_TOKENS, read_tiktoken_file
from bpelab.vocab_files import require
from bpelab.widgets.js_regex import js_pattern_with_case

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
JS_TIKTOKEN_ENCODINGS = ("r50k_base", "cl100k_base", "o200k_base")
"""The encodings whose ranks come from js-tiktoken's package."""
COURSE_ENCODINGS = ("llama3",)
"""The encodings whose ranks script is written from the course's offline data (js-tiktoken has no Llama 3)."""
BROWSER_ENCODINGS = JS_TIKTOKEN_ENCODINGS + COURSE_ENCODINGS
"""The production encodings a static page can use."""
POSSESSIVE_MARK = regex.compile(r"(?<=(?<!\\)[+*?]|\{\d+(?:,\d*)?\})\+")
"""A ``+`` right after a quantifier (``+ * ?`` unescaped, or ``{n,m}``; not ``\\p{L}``'s brace)."""
PAGE_PATTERN_NAMES = {**ENCODING_PATTERN_NAMES, "llama3": "llama3"}
"""Each page encoding's split pattern in ``bpelab.patterns.PATTERNS``."""
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


def without_possessives(pattern: str) -> str:
    """``pattern`` with its possessive quantifiers (``\\p{L}++``, ``?+``, ``{1,3}+``) made greedy: JavaScript
    has none. In tiktoken's four split patterns nothing after a possessive run could match what
    backtracking would give back (a letter run ends the piece; ``\\s++$`` needs the end either way), so
    the pieces are the same; tests/test_js_production.py holds the page's cuts to Python's on generated text."""
    return POSSESSIVE_MARK.sub("", pattern)


def page_pattern(name: str) -> str:
    """The split pattern a page uses for ``name``: the course's (``bpelab.patterns``, cutting as tiktoken's
    does, tests/test_regex_engines.py) written for JavaScript's ``RegExp`` with the ``u`` flag. js-tiktoken's
    own cut otherwise: its ``\\s`` is JavaScript's, which holds U+FEFF; its ``'s|'S`` misses ``'ſ``, which
    tiktoken's ``(?i:'s)`` matches; its GPT-4 pattern predates tiktoken's ``\\s++$`` (" \\n " is one piece)."""
    pattern = js_pattern_with_case(without_possessives(PATTERNS[PAGE_PATTERN_NAMES[name]]))
    if pattern is None:
        raise RuntimeError(f"the {name} split pattern could not be written for JavaScript")
    return pattern


def ranks_as_script(name: str, ranks_module: str) -> str:
    """One ``js-tiktoken/ranks/<name>`` ES module as a classic script, its split pattern corrected."""
    if not ranks_module.startswith(RANKS_EXPORT):
        raise RuntimeError(f"js-tiktoken's ranks/{name}.js does not start with {RANKS_EXPORT!r}")
    ranks = json.loads(ranks_module[len(RANKS_EXPORT) :].rstrip().removesuffix(";"))
    ranks["pat_str"] = page_pattern(name)
    data = json.dumps(ranks)
    return (
        f"/* js-tiktoken {JS_TIKTOKEN.version} (MIT): the {name} ranks, as a classic script (split pattern corrected) */\n"
        f"(window.{RANKS_GLOBAL} = window.{RANKS_GLOBAL} || {{}})[{name!r}] = {data};\n"
    )


def compressed_ranks(ranks: dict[bytes, int]) -> str:
    """Ranks in js-tiktoken's ``bpe_ranks`` text: one line per run of consecutive ranks, "ranks <first
    rank> <base64 token> <base64 token>…" (its constructor skips the line's first word)."""
    lines: list[list[str]] = []
    previous = None
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if previous is None or rank != previous + 1:
            lines.append(["ranks", str(rank)])
        lines[-1].append(base64.b64encode(token).decode("ascii"))
        previous = rank
    return "\n".join(" ".join(line) for line in lines)


def llama3_ranks_script(ranks_file: Path) -> str:
    """Llama 3's ranks, pattern and special tokens as a classic script js-tiktoken's ``Tiktoken`` takes."""
    ranks = read_tiktoken_file(ranks_file)
    data = {
        "pat_str": page_pattern("llama3"),
        "special_tokens": {token: len(ranks) + i for i, token in enumerate(LLAMA3_SPECIAL_TOKENS)},
        "bpe_ranks": compressed_ranks(ranks),
    }
    return (
        "/* Llama 3's tokenizer (Meta, Llama 3 Community License) for js-tiktoken, written by bpelab from its\n"
        "   verified ranks file; see bpelab/course/tiktoken_scripts.py */\n"
        f"(window.{RANKS_GLOBAL} = window.{RANKS_GLOBAL} || {{}})['llama3'] = {json.dumps(data)};\n"
    )


def install_llama3_script(static_dir: Path) -> str:
    """Write Llama 3's ranks script under ``static_dir``; return its path under _static/. Raises
    TokenizerDataError (a RuntimeError) naming the command to run when the offline data is missing."""
    relative = ranks_script("llama3")
    path = static_dir / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(llama3_ranks_script(require("llama3")), encoding="utf-8")
    return relative


def install_tiktoken_scripts(static_dir: Path, cache_dir: Path = CACHE_DIR) -> list[str]:
    """Write the encoder and every ranks script under ``static_dir/tiktoken/``; return their paths
    under _static/. Raises RuntimeError (npm missing, offline, a changed package) with the reason."""
    with tarfile.open(fetch_tarball(BASE64_JS, cache_dir), "r:gz") as archive:
        base64_module = _member(archive, "package/index.js")
    written = []
    with tarfile.open(fetch_tarball(JS_TIKTOKEN, cache_dir), "r:gz") as archive:
        scripts = {CORE_SCRIPT: core_script(_member(archive, ENCODER_CORE), base64_module)}
        for name in JS_TIKTOKEN_ENCODINGS:
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
