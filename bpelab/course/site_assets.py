"""The scripts every page of the static site uses (the widget manager, require.js, MathJax, js-tiktoken, Mistral's pieces),
from their npm packages (``npm_assets.py``), into ``site/_static/``."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

from bpelab.course.npm_assets import CACHE_DIR, NpmAsset, install_asset
from bpelab.course.sentencepiece_script import install_sentencepiece_scripts
from bpelab.course.tiktoken_scripts import JS_TIKTOKEN, install_llama3_script, install_tiktoken_scripts

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
    try:  # GPT-2/4/4o for the explorer without Python; each page loads them only when one is chosen
        install_tiktoken_scripts(static_dir, cache_dir)
    except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError, KeyError) as err:
        problems.append(
            f"{JS_TIKTOKEN.package}@{JS_TIKTOKEN.version}: {err} (the explorer's GPT tokenizers without Python)"
        )
    try:  # Llama 3's ranks, from the course's offline data (js-tiktoken has none)
        install_llama3_script(static_dir)
    except (RuntimeError, OSError, ValueError) as err:
        problems.append(f"Llama 3 for the explorer without Python: {err}")
    try:  # Mistral 7B's pieces and scores, from the course's offline data, for static/sentencepiece.js
        install_sentencepiece_scripts(static_dir)
    except (RuntimeError, OSError, ValueError) as err:
        problems.append(f"Mistral 7B for the explorer without Python: {err}")
    if installed:
        (static_dir / "THIRD_PARTY.txt").write_text(
            "Scripts these pages use, copied unchanged from their npm packages:\n" + "\n".join(installed) + "\n",
            encoding="utf-8",
        )
    return problems
