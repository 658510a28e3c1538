"""How long the browser takes to draw one step of lesson 04's real-text stepper, beside one frame.

Stepping never waits for Python (the stepper's ES module draws every step from the trace Python
sent), so what a learner feels is the browser's work: the module redraws the chips, the pair
table, the log and the totals, and the browser lays the page out again. This opens a page holding
that module and the trace of the real text of 2,000+ words trained for 200 merges (as lesson 04
does) in Chromium, presses Next through every step, and times each press up to a forced layout.
One frame at 60 Hz is 16 ms: a step within it looks instant. Needs Chromium and Playwright (the
test packages: ``make setup-test``); without them the row says so and is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from bpelab.bench.common import Row, note
from bpelab.bench.stepper import real_text
from bpelab.course.present_page import _inline
from bpelab.widgets.esm import STEPPER_MODULES, bundle
from bpelab.widgets.trace import training_trace
from bpelab.words import train_bpe

FRAME_MS = 16.0
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>stepper drawing bench</title></head>
<body><div id="app"></div>
<script type="module">
{module}
const values = {values};
const model = {{ get: (n) => values[n], set: (n, v) => {{ values[n] = v; }}, on: () => {{}}, off: () => {{}},
  save_changes: () => {{}}, send: () => {{}} }};
renderStepper({{ model, el: document.getElementById("app") }});
window.bpeReady = true;
</script></body></html>
"""
TIME_STEPS_JS = """() => {
  // press Next through every step; each time: the click's handler (the redraw) and a forced layout
  const next = document.querySelector('.bpe-next');
  const times = [];
  while (!next.disabled) {
    const start = performance.now();
    next.click();
    document.body.getBoundingClientRect();
    void document.body.offsetHeight;
    times.push(performance.now() - start);
  }
  return times;
}"""


def chromium_path() -> str | None:
    """Chromium's binary: ``$BPELAB_CHROMIUM``, else a usual place, else on PATH."""
    found = os.environ.get("BPELAB_CHROMIUM") or next((p for p in CHROMIUM_CANDIDATES if Path(p).exists()), None)
    return found or shutil.which("chromium") or shutil.which("chromium-browser")


def bench_page(merges: int) -> str:
    """A page with the stepper's module and the trace of lesson 04's real text (as the widget's defaults)."""
    trace = training_trace(train_bpe(real_text(), merges), top_words=40, top_pairs=10)
    values = {"trace": trace, "current_step": 0, "top_words": 40, "top_pairs": 10, "log_rows": 12, "train_form": False}
    return PAGE.format(module=_inline(bundle(*STEPPER_MODULES)), values=_inline(json.dumps(values)))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def step_times_ms(merges: int, passes: int) -> list[float]:
    """Milliseconds of each Next press: the best of ``passes`` times through all the steps (First in
    between), step by step, as the other rows keep each figure's best (noise only ever adds time)."""
    from playwright.sync_api import sync_playwright  # a test package: imported only when measuring

    chromium = chromium_path()
    if chromium is None:
        raise FileNotFoundError("Chromium is not installed")
    with tempfile.TemporaryDirectory() as folder:
        page_path = Path(folder) / "stepper.html"
        page_path.write_text(bench_page(merges), encoding="utf-8")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
            )
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(page_path.as_uri())
                page.wait_for_function("() => window.bpeReady === true", timeout=30_000)
                runs: list[list[float]] = []
                for _ in range(passes):
                    if not page.locator(".bpe-first").is_disabled():
                        page.click(".bpe-first")
                    runs.append(page.evaluate(TIME_STEPS_JS))
            finally:
                browser.close()
    return [min(step) for step in zip(*runs, strict=True)]


def rows(quick: bool = False) -> list[Row]:
    """One row: the 95th-percentile time to draw a step, over one frame (below 1: within a frame)."""
    merges = 50 if quick else 200
    what = f"stepper step drawn in Chromium, 2,000-word text, {merges} merges (wall clock, best of 3 per step)"
    try:
        times = step_times_ms(merges, passes=3)
    except ImportError:
        return [note(f"{what}: skipped, Playwright is not installed (make setup-test installs it)")]
    except FileNotFoundError as err:
        return [note(f"{what}: skipped, {err} (e.g. apt-get install chromium, or set BPELAB_CHROMIUM)")]
    p95 = percentile(times, 0.95)
    median = percentile(times, 0.5)
    return [
        (
            what,
            f"median {median:.2f} ms, 95th pct {p95:.2f} ms, max {max(times):.2f} ms ({len(times)} steps)",
            f"one frame {FRAME_MS:.0f} ms",
            f"{p95 / FRAME_MS:.3f}",
        )
    ]


if __name__ == "__main__":
    for row in rows():
        print(" | ".join(row))
