"""The page's own trainer (``static/bpe_train.js``), in Chromium, at the page's limit, beside ``train_bpe``.

A static page (and the classroom page) trains a learner's text in JavaScript: up to 50,000 characters
and 500 merges. This opens a page holding that module in Chromium and does what Train does there: train
in slices that yield to the browser between them (``trainBpeInSlices``), then build the trace the stepper
draws (``traceOf``). The peer is Python's ``train_bpe`` on the same text, same merges, in the same run;
both are timed on the wall clock (the page's time is what a learner waits), best of 2, alternating. The
text is the course's own: the parallel corpus in its 16 languages, then English to 50,000 characters.
Beside the time: the JavaScript heap the page holds once the run is ready (``performance.memory`` with
precise figures, after a garbage collection), and the merges, which must be ``train_bpe``'s.
Needs Chromium and Playwright (``make setup-test``); without them the row says so and is skipped.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bpelab.bench.common import Row, note, seconds
from bpelab.bench.drawing import chromium_path
from bpelab.corpora import load_parallel, read_corpus
from bpelab.course.present_page import _inline
from bpelab.widgets.esm import bundle
from bpelab.words import train_bpe

CHARACTERS = 50_000
MERGES = 500
TARGET_RATIO = 0.25
TARGET_HEAP_MB = 100
PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>page trainer bench</title></head><body>
<script type="module">
{module}
window.trainAsThePageDoes = async (text, merges) => {{
  // what Train does in a lesson's page (stepper.js): train in slices, then the trace for the stepper
  const start = performance.now();
  const result = await trainBpeInSlices(text, merges, {{ tieBreak: "first" }});
  const trace = traceOf(result, {{ topWords: 40, topPairs: 10 }});
  const ms = performance.now() - start;
  window.held = {{ result, trace }}; // kept, as the page keeps them while the learner steps
  window.gc();
  return {{ ms, heap: performance.memory.usedJSHeapSize, merges: result.steps.map((s) => [...s.pair, s.count]) }};
}};
window.heapNow = () => {{ window.held = null; window.gc(); return performance.memory.usedJSHeapSize; }};
window.bpeReady = true;
</script></body></html>
"""


def page_limit_text(characters: int = CHARACTERS) -> str:
    """The course's text at the page's limit: every language of the parallel corpus, then English."""
    parallel = "\n".join(sentence for sentences in load_parallel().values() for sentence in sentences)
    return (parallel + "\n\n" + read_corpus("english_train"))[:characters]


def page_runs(text: str, merges: int, repeats: int) -> tuple[list[float], float, list[float], Any]:
    """Milliseconds of each page run and seconds of each ``train_bpe`` run (alternating), the heap held
    after a run in MB (above the page's heap before it), and the merges the page learned."""
    from playwright.sync_api import sync_playwright  # a test package: imported only when measuring

    chromium = chromium_path()
    if chromium is None:
        raise FileNotFoundError("Chromium is not installed")
    page_ms: list[float] = []
    python_s: list[float] = []
    held_mb = 0.0
    learned = None
    with tempfile.TemporaryDirectory() as folder:
        page_path = Path(folder) / "trainer.html"
        module = bundle("bpe.js", "bpe_train.js", "trace.js")
        page_path.write_text(PAGE.format(module=_inline(module)), encoding="utf-8")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--no-first-run",
                    "--enable-precise-memory-info",
                    "--js-flags=--expose-gc",
                ],
            )
            try:
                page = browser.new_page()
                page.goto(page_path.as_uri())
                page.wait_for_function("() => window.bpeReady === true", timeout=30_000)
                for _ in range(repeats):
                    before = page.evaluate("() => window.heapNow()")
                    run = page.evaluate("([t, n]) => window.trainAsThePageDoes(t, n)", [text, merges])
                    page_ms.append(run["ms"])
                    held_mb = max(held_mb, (run["heap"] - before) / 1e6)
                    learned = run["merges"]
                    start = time.perf_counter()
                    train_bpe(text, merges)
                    python_s.append(time.perf_counter() - start)
            finally:
                browser.close()
    return page_ms, held_mb, python_s, learned


def rows(quick: bool = False) -> list[Row]:
    """One row: the page's training at its limit against train_bpe, and the heap it holds."""
    merges = 100 if quick else MERGES
    text = page_limit_text()
    what = f"page trainer in Chromium (bpe_train.js + trace), {len(text):,} characters in 16 languages, {merges} merges"
    try:
        page_ms, held_mb, python_s, learned = page_runs(text, merges, repeats=1 if quick else 2)
    except ImportError:
        return [note(f"{what}: skipped, Playwright is not installed (make setup-test installs it)")]
    except FileNotFoundError as err:
        return [note(f"{what}: skipped, {err} (e.g. apt-get install chromium, or set BPELAB_CHROMIUM)")]
    expected = [[*step.pair, step.count] for step in train_bpe(text, merges).steps]
    assert learned == expected, "the page's trainer learned other merges than train_bpe"
    ours, peer = min(page_ms) / 1000, min(python_s)
    ratio = ours / peer
    return [
        (
            f"{what}, wall clock; identical merges",
            f"{seconds(ours)}, JS heap held {held_mb:.1f} MB",
            f"train_bpe {seconds(peer)}",
            f"{ratio:.3f}x (target < {TARGET_RATIO}x: {'met' if ratio < TARGET_RATIO else 'NOT MET'}; "
            f"heap target <= {TARGET_HEAP_MB} MB: {'met' if held_mb <= TARGET_HEAP_MB else 'NOT MET'})",
        )
    ]


if __name__ == "__main__":
    for row in rows():
        print(" | ".join(row))
