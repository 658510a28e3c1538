"""One widget alone in a page opened as ``file://``, drawn by its ES module from its Python state.

No kernel, no widget manager, no notebook run: the widget's module and its synced values in a stand-in
for anywidget's model (as site/present.html holds the classroom app). For checking how a widget draws
in seconds rather than the minutes a lesson run and ``make html`` take.
"""

from __future__ import annotations

import json
from pathlib import Path

import anywidget

from bpelab.course.present_page import _inline, synced_values

PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>one widget</title></head>
<body><div id="app"></div><script type="module">
{module}
globalThis.bpelabStatic = true;
const values = {values};
const model = {{ get: (n) => values[n], set: (n, v) => {{ values[n] = v; }}, on: () => {{}}, off: () => {{}},
  save_changes: () => {{}}, send: () => {{}} }};
{entry}({{ model, el: document.getElementById("app") }});
</script></body></html>"""


def standalone_page(widget: anywidget.AnyWidget, entry: str, folder: Path) -> str:
    """Write ``widget`` as a page into ``folder``; ``entry`` is its module's render function. Returns the page's URL."""
    path = folder / "widget.html"
    values = _inline(json.dumps(synced_values(widget)))
    path.write_text(PAGE.format(module=_inline(widget._esm), values=values, entry=entry), encoding="utf-8")
    return path.as_uri()
