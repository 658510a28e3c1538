"""The widgets' ES modules (``bpelab/widgets/static/*.js``), bundled into the one module anywidget loads.

anywidget gives each widget ONE module (``_esm``), as text: it cannot follow ``import`` statements
to sibling files (in a static page it loads from a ``blob:`` URL). The modules are therefore written
as ordinary ES modules, which ``node --test`` imports file by file, and ``bundle`` joins them in the
order given, dropping their imports of each other. The rules that makes work (checked here):

- a module imports a sibling on one line only: ``import { a, b } from "./chips.js";``;
- top-level names are unique across the bundled files;
- only the last file has ``export default``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
_SIBLING_IMPORT = re.compile(r"""^import\s*\{[^}]*\}\s*from\s*["']\./([\w.-]+\.js)["'];?\s*$""", re.MULTILINE)


@cache
def bundle(*names: str) -> str:
    """The files ``names`` (under ``static/``) as one ES module, dependencies first."""
    parts = []
    for position, name in enumerate(names):
        text = (STATIC_DIR / name).read_text(encoding="utf-8")
        for needed in _SIBLING_IMPORT.findall(text):
            if needed not in names[:position]:
                raise ValueError(f"{name} imports {needed}: bundle it before {name}")
        if position < len(names) - 1 and re.search(r"^export default", text, re.MULTILINE):
            raise ValueError(f"{name} has `export default` but is not the last module of the bundle")
        parts.append(f"// ---- {name} ----\n" + _SIBLING_IMPORT.sub("", text))
    return "\n".join(parts)


STEPPER_MODULES = ("chips.js", "bpe.js", "trace.js", "stepper.js")
"""What the merge stepper's module is made of."""
