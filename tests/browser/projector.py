"""What "a projector shows the words" means, measured in the page (issue 14, item 4).

At 1280×720, with a text of twelve distinct words trained and a few steps taken: every word row
(``.bpe-word-row``), the step line and the next pair are inside the window without scrolling; the
stats and the legend are one line each, and share it wherever their widths allow; nothing inside the
stepper scrolls by itself.
"""

from __future__ import annotations

from playwright.sync_api import Locator, Page

TWELVE_WORDS = "the cat sat on the mat while a dog ran past every house"
"""Twelve different words (thirteen in all), as a class might suggest them."""

MEASURE_JS = """(root) => {
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; };
  const rows = [...root.querySelectorAll('.bpe-word-row')];
  const scrollers = [...root.querySelectorAll('*')].filter((el) => {
    const s = getComputedStyle(el);
    return /(auto|scroll)/.test(s.overflowY + s.overflowX) && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
  }).map((el) => el.className || el.tagName);
  const statsEl = root.querySelector('.bpe-stats'), legendEl = root.querySelector('.bpe-legend');
  const stats = statsEl.getBoundingClientRect(), legend = legendEl.getBoundingClientRect();
  const line = (el) => 1.6 * parseFloat(getComputedStyle(el).fontSize);
  // one line each; side by side unless the two cannot share the line (a fitted classroom's type grows until
  // they cannot: at 22 px and more they need about 1,300 px of a 1280x720 projector's 1,248)
  const room = statsEl.parentElement.getBoundingClientRect().width;
  const gap = parseFloat(getComputedStyle(statsEl.parentElement).columnGap) || 0;
  const share = stats.width + gap + legend.width <= room;
  return {
    rows: rows.length,
    rowsOut: rows.filter((r) => !inView(r)).map((r) => r.textContent.slice(0, 30)),
    stepLine: inView(root.querySelector('.bpe-step-label')),
    nextPair: inView(root.querySelector('.bpe-next-pair')),
    oneLine: (!share || Math.abs(stats.top - legend.top) < 4) && stats.height < line(statsEl) && legend.height < line(legendEl),
    scrollers,
    scrolled: scrollY,
  };
}"""


def check_projector_layout(stepper: Locator) -> None:
    """Assert the measures above on the stepper drawn in ``stepper``'s page (scrolled to the top)."""
    stepper.page.evaluate("() => window.scrollTo(0, 0)")
    found = stepper.evaluate(MEASURE_JS)
    assert found["rows"] == 12, f"expected a row per distinct word, found {found['rows']}"
    assert not found["rowsOut"], f"word rows outside the 1280×720 window: {found['rowsOut']}"
    assert found["stepLine"] and found["nextPair"], f"the step line or the next pair is out of view: {found}"
    assert found["oneLine"], "the stats or the legend wraps, or they take two lines where one would hold both"
    assert not found["scrollers"], f"boxes that scroll inside the page: {found['scrollers']}"


# ---- a class's own long words, at every step (issue 21, item 2) ------------------------------------------

LONG_WORDS = (
    "internationalization antidisestablishmentarianism photosynthesis extraordinary misunderstanding "
    "responsibility characteristics environmental communication thermodynamics unbelievable transformation"
)
"""Twelve distinct long words (12 to 28 letters) as a class might suggest them: 100 merges leave the two
longest whole, and before that their chips span most of the screen."""
LONG_MERGES = 100
SMALLEST_TEXT_PX = 18
LARGE_TEXT_PX = 22
"""Issue 30: on a 1280×720 projector with the corpus hidden, chips and tables at least this large."""

ZOOMS = {"100%": (1280, 720, 1.0), "125%": (1024, 576, 1.25), "150%": (853, 480, 1.5)}
"""Browser zoom on a 1280×720 projector, as CSS pixels: Playwright's device_scale_factor keeps CSS pixels, so
a zoom is a smaller viewport (1280/1.25 × 720/1.25 ...). Text sizes are then checked in device pixels."""

STEP_JS = """([appCss, next, smallest, large]) => {
  // what the class sees at this step, then (with next) a press of Next: one round trip per step
  const app = document.querySelector(appCss), root = app.querySelector('.bpe-stepper');
  const W = document.documentElement.clientWidth, H = innerHeight;
  const inView = (r) => r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= H && r.right <= W;
  const name = (row) => [...row.querySelectorAll('.bpe-chip > [aria-hidden]')].map((c) => c.textContent).join('|');
  const rows = [...root.querySelectorAll('.bpe-word-row')];
  const problems = [];
  for (const row of rows) if (!inView(row.getBoundingClientRect())) problems.push(`row out of view: ${name(row)}`);
  const chips = [...root.querySelectorAll('.bpe-word-row .bpe-chip')].map((c) => [c.getBoundingClientRect(), c]);
  for (let i = 0; i < chips.length; i++) for (let j = i + 1; j < chips.length; j++) {
    const [a, ca] = chips[i], [b, cb] = chips[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      problems.push(`chips overlap: ${ca.firstChild.textContent} / ${cb.firstChild.textContent}`);
  }
  for (const row of rows) {
    const c = [...row.querySelectorAll('.bpe-chip')].map((x) => x.getBoundingClientRect());
    // the chip that ends the word (it holds </w>) must share a line with the chip before it
    if (c.length > 1 && Math.abs(c[c.length - 1].top - c[c.length - 2].top) > 2) problems.push(`</w> alone on a line: ${name(row)}`);
    // and the word never breaks at all: its chips and its </w> on one line, inside the row
    if (c.length > 1 && Math.abs(c[c.length - 1].top - c[0].top) > 2) problems.push(`word broken over lines: ${name(row)}`);
    if (c.length && c[c.length - 1].right > row.getBoundingClientRect().right + 1) problems.push(`word wider than its row: ${name(row)}`);
  }
  if (large) for (const el of root.querySelectorAll('.bpe-word-row .bpe-chip, .bpe-pair-table td, .bpe-pair-table th, .bpe-log div')) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (el.checkVisibility() && size < large) problems.push(`${size}px under ${large}px: ${el.className || el.tagName}`);
  }
  const walker = document.createTreeWalker(app, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest('.bpe-sr-only, .bpe-sr, option, style, script') || !parent.checkVisibility()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const size = parseFloat(getComputedStyle(parent).fontSize);
    if (size < smallest) problems.push(`${size}px text: ${node.textContent.trim().slice(0, 30)}`);
  }
  for (const css of ['.bpe-step-label', '.bpe-next-pair', '.bpe-pair-table', '.bpe-log'])
    if (!inView(root.querySelector(css).getBoundingClientRect())) problems.push(`${css} out of view`);
  if (scrollX || scrollY) problems.push(`the page is scrolled to ${scrollX},${scrollY}`);
  const label = root.querySelector('.bpe-step-label').textContent;
  if (next) root.querySelector('button.bpe-next').click();
  return {label, problems: [...new Set(problems)]};
}"""


TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def train_in_the_form(app: Locator, text: str, merges: int, *, stop_at_single: bool = False) -> None:
    """Type ``text`` and the number of merges into the classroom's form, set "stop when no pair occurs twice"
    (off: every merge asked for, as train_bpe makes them), and press Train."""
    app.locator(".bpe-corpus-input textarea").fill(text)
    app.locator(".bpe-stop-single input").set_checked(stop_at_single)
    box = app.locator(".bpe-merges input")
    box.fill(str(merges))
    box.press("Enter")
    app.locator("button.bpe-train").click()


def check_every_step(
    page: Page, app_css: str, steps: int, *, zoom: float = 1.0, large: float | None = None
) -> dict[int, list[str]]:
    """Measure the classroom at steps 0 to ``steps`` (it must show step 0); return what is wrong, by step.

    From the teacher's pressing Train to the last merge: every word row inside the window, no two chips
    overlapping, no word broken over lines (its </w> never alone), no visible text under 18 device pixels
    (18 / ``zoom`` CSS pixels), the pair table and the merge log in view; with ``large``, chips and table
    text at least that many CSS pixels.
    """
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(TWO_FRAMES_JS)  # a window just resized tells the page at its next frame
    wrong: dict[int, list[str]] = {}
    for step in range(steps + 1):
        found = page.evaluate(STEP_JS, [app_css, step < steps, SMALLEST_TEXT_PX / zoom, large or 0])
        assert found["label"].startswith(f"Step {step} of {steps}"), f"expected step {step}, saw {found['label']!r}"
        if found["problems"]:
            wrong[step] = found["problems"]
    return wrong


def summary(wrong: dict[int, list[str]]) -> str:
    """What a failing check says: how many steps, and the first few problems."""
    first = [f"step {step}: {problems[:4]}" for step, problems in list(wrong.items())[:4]]
    return f"{len(wrong)} steps with problems; " + "; ".join(first)
