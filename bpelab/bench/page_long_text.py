"""100 KB pasted into the explorer of a static page, in Chromium: how soon the count and the first chips show.

The page is the explorer alone, opened as ``file://`` with the site's js-tiktoken scripts (as ``make html``
writes them), for GPT-4o (``o200k_base``). The text is the course's parallel corpus in 16 languages with
emoji, digits and whitespace runs, to 100,000 characters (``long_text``). Pasting it fires the text box's
input event; the page encodes it and draws the first page of chips (``chips_in_view.js``), the rest as the
chip box scrolls. Timed in the page (``performance.now``): to the count line, and to the first frame after
the first chips. Peers from the same run: tiktoken's own ``encode_ordinary`` in Python (the count's
peer: what the kernel path costs) and, in the same page, drawing every chip at once with ``drawChips``
(the chips' peer: what drawing what is in view avoids). Beside them: the page's longest task while it
answered (``PerformanceObserver`` 'longtask'), the time the page could not react to anything.
Needs Chromium and Playwright (``make setup-test``); without them the row says so and is skipped.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from bpelab.bench.common import Row, note, seconds
from bpelab.bench.drawing import chromium_path
from bpelab.course.corpora import load_parallel
from bpelab.course.present_page import _inline, synced_values
from bpelab.course.tiktoken_scripts import install_tiktoken_scripts
from bpelab.production import load_encoding
from bpelab.widgets import EncodeExplorer

CHARACTERS = 100_000
ENCODING = "o200k_base"
SPICE = [
    "👍🏽 ",
    "👨\u200d👩\u200d👧 ",
    "🇫🇷 ",
    "2026-11-25 ",
    "3.14159 ",
    "1,000,000 ",
    "\t\t",
    "   ",
    "\n\n",
    "e\u0301 ",
    "١٢٣ ",
]
"""What tokenizers trip over, mixed in between sentences: skin tones, joiners, flags, digits, whitespace."""

MEASURE = """async ([text, n]) => {
  const box = document.querySelector('.bpe-explorer');
  const area = box.querySelector('textarea'), count = box.querySelector('.bpe-token-count');
  const chipsBox = box.querySelector('.bpe-chips-box');
  const longest = [];
  const watch = new PerformanceObserver((list) => { for (const e of list.getEntries()) longest.push(e.duration); });
  watch.observe({ type: 'longtask' });
  const start = performance.now();
  let counted = null, drawn = null;
  const done = new Promise((resolve) => {
    const check = () => {
      if (counted === null && count.textContent.startsWith(`${n} tokens`)) counted = performance.now() - start;
      if (drawn === null && counted !== null && chipsBox.querySelector('.bpe-chip')) {
        requestAnimationFrame(() => { drawn = performance.now() - start; resolve(); });
      }
    };
    new MutationObserver(check).observe(box, { childList: true, subtree: true, characterData: true });
  });
  area.value = text;
  area.dispatchEvent(new Event('input', { bubbles: true }));
  await done;
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the observer report the last task
  watch.disconnect();
  return { counted, drawn, longest: Math.max(0, ...longest), pages: chipsBox.querySelectorAll('[data-bpe-page]').length };
}"""

DRAW_ALL = """() => {
  // the peer: every chip at once, as the explorer drew up to 3,000 before (here with no limit)
  const box = document.querySelector('.bpe-chips-box');
  const chips = box.querySelectorAll('.bpe-chip').length; // only to be sure the page drew
  const spare = document.createElement('div');
  spare.className = 'bpe-chips-box';
  box.after(spare);
  const start = performance.now();
  spare.append(window.drawEveryChip());
  spare.getBoundingClientRect(); // layout, as a drawn page needs
  return new Promise((resolve) => requestAnimationFrame(() => {
    const ms = performance.now() - start;
    spare.remove();
    resolve({ ms, chips });
  }));
}"""


def long_text(characters: int = CHARACTERS) -> str:
    """Multilingual text of exactly ``characters`` code points: the parallel corpus's 16 languages in
    turn, sentence by sentence, with one of SPICE after each, repeated as needed."""
    by_language = list(load_parallel().values())
    parts: list[str] = []
    size = 0
    k = 0
    while size < characters:
        language = by_language[k % len(by_language)]
        sentence = language[(k // len(by_language)) % len(language)]
        piece = sentence + " " + SPICE[k % len(SPICE)]
        parts.append(piece)
        size += len(piece)
        k += 1
    return "".join(parts)[:characters]


def write_bench_page(folder: Path) -> Path:
    """The explorer alone (GPT-4o chosen, empty text) with the site's tiktoken scripts beside it."""
    try:
        install_tiktoken_scripts(folder / "_static")
    except RuntimeError as err:  # npm missing or offline on a first run: make html says the same
        raise FileNotFoundError(f"the page's tiktoken scripts could not be made ({err})") from err
    explorer = EncodeExplorer(production=(ENCODING,), text="", show_ids=True)
    values = _inline(json.dumps(synced_values(explorer)))
    module = _inline(explorer._esm)
    page = folder / "explorer.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>long text bench</title></head>'
        '<body><div id="app"></div><script type="module">\n'
        f"{module}\n"
        "globalThis.bpelabStatic = true;\n"
        f"const values = {values};\n"
        "const model = { get: (n) => values[n], set: (n, v) => { values[n] = v; }, on: () => {}, off: () => {},"
        " save_changes: () => {}, send: () => {} };\n"
        'renderExplorer({ model, el: document.getElementById("app") });\n'
        f"productionEncoder('{ENCODING}').then((encoder) => {{\n"
        "  window.drawEveryChip = () => {\n"
        "    const { ids, pieces } = encodeOrdinary(encoder, document.querySelector('.bpe-explorer textarea').value);\n"
        "    return drawChips(pieces, { ids, showIds: true, breakLines: true });\n"
        "  };\n"
        "  window.bpeParts = { encoder, encodeOrdinary, makeChips };\n"
        "  window.bpeReady = true;\n"
        "});\n"
        "</script></body></html>",
        encoding="utf-8",
    )
    return page


def page_runs(text: str, expected: int, repeats: int) -> tuple[list[dict[str, Any]], list[float], list[float]]:
    """Each paste's figures (ms to the count, ms to the first drawn chips, longest task), drawing every
    chip at once (ms), and tiktoken's encode_ordinary (s), alternating."""
    from playwright.sync_api import sync_playwright  # a test package: imported only when measuring

    chromium = chromium_path()
    if chromium is None:
        raise FileNotFoundError("Chromium is not installed")
    encoding = load_encoding(ENCODING)
    pastes: list[dict[str, Any]] = []
    draw_all_ms: list[float] = []
    python_s: list[float] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        page_path = write_bench_page(Path(folder))
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            for _ in range(repeats):
                page.goto(page_path.as_uri())
                page.wait_for_function("() => window.bpeReady === true", timeout=60_000)
                pastes.append(page.evaluate(MEASURE, [text, expected]))
                draw_all_ms.append(page.evaluate(DRAW_ALL)["ms"])
                start = time.perf_counter()
                encoding.encode_ordinary(text)
                python_s.append(time.perf_counter() - start)
        finally:
            browser.close()
    return pastes, draw_all_ms, python_s


def rows(quick: bool = False) -> list[Row]:
    """Two rows: the time to the count beside tiktoken's, the time to the first chips beside drawing all."""
    text = long_text(CHARACTERS // 4 if quick else CHARACTERS)
    size = len(text.encode("utf-8"))
    what = f"explorer in Chromium (file://), {len(text):,} characters ({size / 1000:.0f} KB) in 16 languages pasted, GPT-4o"
    try:
        expected = len(load_encoding(ENCODING).encode_ordinary(text))
        pastes, draw_all_ms, python_s = page_runs(text, expected, repeats=1 if quick else 3)
    except ImportError:
        return [note(f"{what}: skipped, Playwright is not installed (make setup-test installs it)")]
    except FileNotFoundError as err:
        return [note(f"{what}: skipped, {err} (e.g. apt-get install chromium, or set BPELAB_CHROMIUM)")]
    counted = min(p["counted"] for p in pastes) / 1000
    drawn = min(p["drawn"] for p in pastes) / 1000
    longest = min(p["longest"] for p in pastes) / 1000
    peer_count, peer_draw = min(python_s), min(draw_all_ms) / 1000
    return [
        (
            f"{what}: to the count line ({expected:,} tokens), wall clock",
            f"{seconds(counted)} (longest task {seconds(longest)})",
            f"tiktoken encode_ordinary {seconds(peer_count)}",
            f"{counted / peer_count:.1f}x",
        ),
        (
            f"{what}: to the first drawn chips ({pastes[0]['pages']} pages of chips, drawn as scrolled)",
            seconds(drawn),
            f"drawing all {expected:,} chips at once {seconds(peer_draw)}",
            f"{drawn / peer_draw:.3f}x",
        ),
    ]


if __name__ == "__main__":
    for row in rows():
        print(" | ".join(row))
