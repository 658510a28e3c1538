"""Classroom mode without Python: ``site/present.html``, written by ``make html``.

The same ES module as ``make present`` (the merge stepper's ``static/stepper.js`` with its
projector layout), inlined in one page with no widget manager: a small stand-in for anywidget's
model holds the values Python would have synced. The page opens with the toy corpus trained here
by ``train_bpe``; the class then types its own text and presses Train, and the page trains it with
``static/bpe.js`` (held to ``train_bpe`` by tests/test_js_training.py). Everything is inline, so the
page works opened as ``file://`` (where a page cannot load a module from a sibling file).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bpelab.widgets.esm import STEPPER_MODULES, bundle
from bpelab.widgets.trace import training_trace
from bpelab.words import train_bpe

PAGE_NAME = "present.html"
START_TEXT = ("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2).strip()
START_MERGES = 10
SETTINGS = {"top_words": 30, "top_pairs": 6, "log_rows": 6, "train_form": True, "projector": True}
"""As the classroom app (``bpelab.widgets.classroom``) makes its stepper."""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Classroom mode: Byte-Pair Encoding, merge by merge</title>
<style>
body {{ font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 6px 16px; color: #000; background: #fff; }}
h1 {{ font-size: 22px; margin: 2px 0 4px 0; }}
.bpe-page-note {{ font-size: 15px; margin: 0 0 4px 0; color: #333; }}
.bpe-page-note a {{ color: #0b4f8a; text-decoration: underline; }}
.bpe-projector .bpe-train-form textarea {{ font-size: 18px; min-height: 2.6em; height: 2.6em; width: min(46em, 100%); }}
.bpe-projector .bpe-train-form {{ font-size: 18px; }}
.bpe-projector .bpe-train-form input, .bpe-projector .bpe-train-form select {{ font-size: 18px; }}
.bpe-projector .bpe-message {{ font-size: 16px; }}
</style>
</head>
<body>
<main>
<h1>Byte-Pair Encoding, merge by merge</h1>
<p class="bpe-page-note">Classroom mode in the browser: type the class's text, press <b>Train</b>, then step with
<b>→</b> / <b>←</b> (a presenter's clicker too) or the buttons. Training runs in this page, exactly as
<code>train_bpe</code> does. <a href="index.html">All lessons</a></p>
<div id="bpe-app"></div>
</main>
<script type="module">
{module}
// ---- the page: anywidget's model, stood in for (nothing to sync with: no kernel here) ----
const values = {values};
const listeners = {{}};
const model = {{
  get: (name) => values[name],
  set: (name, value) => {{ values[name] = value; }},
  on: (event, callback) => {{ (listeners[event] ??= []).push(callback); }},
  off: () => {{}},
  save_changes: () => {{}},
  send: () => {{}},
}};
renderStepper({{ model, el: document.getElementById("bpe-app") }});
</script>
</body>
</html>
"""


def _inline(script: str) -> str:
    """Script text that cannot end its <script> element early ("</script" and "<!--" escaped)."""
    return re.sub(r"</(script)", r"<\\/\1", script, flags=re.IGNORECASE).replace("<!--", "<\\!--")


def present_html() -> str:
    """The page's text: the stepper's module, and the toy corpus trained by ``train_bpe``."""
    result = train_bpe(START_TEXT, START_MERGES)
    values = {
        "trace": training_trace(result, top_words=SETTINGS["top_words"], top_pairs=SETTINGS["top_pairs"]),
        "current_step": 0,
        "train_text": START_TEXT,
        "train_merges": START_MERGES,
        **SETTINGS,
    }
    return PAGE.format(module=_inline(bundle(*STEPPER_MODULES)), values=_inline(json.dumps(values)))


def write_present_page(out_dir: Path) -> Path:
    """Write ``present.html`` into ``out_dir``; return its path."""
    path = out_dir / PAGE_NAME
    path.write_text(present_html(), encoding="utf-8")
    return path


__all__ = ["PAGE_NAME", "present_html", "write_present_page"]
