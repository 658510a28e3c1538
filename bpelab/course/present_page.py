"""Classroom mode without Python: ``site/present.html``, written by ``make html``.

Literally the same app as ``make present``: a ``ClassroomStepper`` is built here, and the page holds
its ES module (``static/classroom.js`` around the stepper's ``static/stepper.js``) and the values it
syncs (the toy corpus trained by ``train_bpe``, the ready-made corpora, the limits) in a small
stand-in for anywidget's model, with no widget manager. The page sets ``bpelabStatic`` (no kernel
answers), so Train trains in the page with ``static/bpe.js`` (held to ``train_bpe`` by
tests/test_js_training.py). Everything is inline, so the page works opened as ``file://`` (where a
page cannot load a module from a sibling file).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anywidget

from bpelab.widgets.classroom import ClassroomStepper

PAGE_NAME = "present.html"

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Classroom mode: Byte-Pair Encoding, merge by merge</title>
<style>
/* the title scales with the window; the app below sizes its own type to fill the rest (classroom_fit.js) */
body {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 4px 16px; color: #000; background: #fff;
  font-size: clamp(12px, min(1.45vw, 2.6vh), 34px); }}
/* the title and the note share one line: a 720-pixel projector needs every line for the words */
.bpe-page-head {{ display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1em; margin: 0 0 2px 0; }}
h1 {{ font-size: 1.25em; margin: 0; }}
.bpe-page-note {{ margin: 0; color: #333; }}
.bpe-page-note a {{ color: #0b4f8a; text-decoration: underline; }}
@media (max-width: 640px) {{ body {{ margin: 4px 8px; font-size: 18px; }} }}
</style>
</head>
<body>
<main>
<header class="bpe-page-head">
<h1>Byte-Pair Encoding, merge by merge</h1>
<p class="bpe-page-note">Classroom mode: training runs in this page, exactly as <code>train_bpe</code> does.
<a href="index.html">All lessons</a></p>
</header>
<div id="bpe-app"></div>
</main>
<script type="module">
{module}
// ---- the page: anywidget's model, stood in for (nothing to sync with: no kernel here) ----
globalThis.bpelabStatic = true;
const values = {values};
const listeners = {{}};
const model = {{
  get: (name) => values[name],
  set: (name, value) => {{
    if (values[name] === value) return;
    values[name] = value;
    for (const callback of listeners["change:" + name] ?? []) callback();  // as Backbone tells a change
  }},
  on: (event, callback) => {{ (listeners[event] ??= []).push(callback); }},
  off: (event, callback) => {{ listeners[event] = (listeners[event] ?? []).filter((c) => c !== callback); }},
  save_changes: () => {{}},
  send: () => {{}},
}};
renderClassroom({{ model, el: document.getElementById("bpe-app") }});
</script>
</body>
</html>
"""


def _inline(script: str) -> str:
    """Script text that cannot end its <script> element early ("</script" and "<!--" escaped)."""
    return re.sub(r"</(script)", r"<\\/\1", script, flags=re.IGNORECASE).replace("<!--", "<\\!--")


def synced_values(app: anywidget.AnyWidget) -> dict[str, Any]:
    """The values ``app`` (any anywidget) syncs to its page: its own traitlets, not the widget frame's."""
    own = set(app.trait_names(sync=True)) - set(anywidget.AnyWidget.class_trait_names(sync=True))
    return {name: getattr(app, name) for name in sorted(own)}


def present_html() -> str:
    """The page's text: the classroom app's module, and the state of ``ClassroomStepper()`` (the toy corpus)."""
    app = ClassroomStepper()
    return PAGE.format(module=_inline(app._esm), values=_inline(json.dumps(synced_values(app))))


def write_present_page(out_dir: Path) -> Path:
    """Write ``present.html`` into ``out_dir``; return its path."""
    path = out_dir / PAGE_NAME
    path.write_text(present_html(), encoding="utf-8")
    return path


__all__ = ["PAGE_NAME", "present_html", "synced_values", "write_present_page"]
