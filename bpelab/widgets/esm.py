"""The widgets' ES modules (``bpelab/widgets/static/*.js``), bundled into the one module anywidget loads.

anywidget gives each widget ONE module (``_esm``), as text: it cannot follow ``import`` statements
to sibling files (in a static page it loads from a ``blob:`` URL). The modules are therefore written
as ordinary ES modules, which ``node --test`` imports file by file, and ``bundle`` joins them in the
order given, dropping their imports of each other. The rules that makes work (checked here):

- a module imports a sibling on one line only: ``import { a, b } from "./chips.js";``;
- top-level names are unique across the bundled files;
- the last file's ``export default`` is the widget's entry point; an earlier file's (the stepper's,
  inside the classroom app) is dropped, so each module also works as a widget by itself.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
_SIBLING_IMPORT = re.compile(r"""^import\s*\{[^}]*\}\s*from\s*["']\./([\w.-]+\.js)["'];?\s*$""", re.MULTILINE)
_DEFAULT_EXPORT = re.compile(r"^export default [^\n]*;\s*$", re.MULTILINE)


@cache
def bundle(*names: str) -> str:
    """The files ``names`` (under ``static/``) as one ES module, dependencies first."""
    parts = []
    for position, name in enumerate(names):
        text = (STATIC_DIR / name).read_text(encoding="utf-8")
        for needed in _SIBLING_IMPORT.findall(text):
            if needed not in names[:position]:
                raise ValueError(f"{name} imports {needed}: bundle it before {name}")
        text = _SIBLING_IMPORT.sub("", text)
        if position < len(names) - 1:
            text = _DEFAULT_EXPORT.sub("", text)
            if re.search(r"^export default", text, re.MULTILINE):
                raise ValueError(f"{name}: write its `export default` on one line ending with ';'")
        parts.append(f"// ---- {name} ----\n" + text)
    return "\n".join(parts)


STEPPER_MODULES = (
    "view_basics.js",
    "chips.js",
    "bpe.js",
    "count_line.js",
    "bpe_train.js",
    "trace.js",
    "stepper_text.js",
    "stepper_view.js",
    "train_form.js",
    "stepper.js",
)
"""What the merge stepper's module is made of: what every view draws with, how it counts (count_line.js), how it
writes symbols, how it draws a step, its "train on your own text" form, the widget."""

CLASSROOM_MODULES = (*STEPPER_MODULES, "classroom_fit.js", "classroom.js")
"""Classroom mode's module: the stepper, with the classroom's form around it and its type fitted to the screen."""
