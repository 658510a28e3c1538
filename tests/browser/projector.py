"""What "a projector shows the words" means, measured in the page (issue 14, item 4).

At 1280×720, with a text of twelve distinct words trained and a few steps taken: every word row
(``.bpe-word-row``), the step line and the next pair are inside the window without scrolling; the
stats and the legend sit on one line; nothing inside the stepper scrolls by itself.
"""

from __future__ import annotations

from playwright.sync_api import Locator

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
  const stats = root.querySelector('.bpe-stats').getBoundingClientRect();
  const legend = root.querySelector('.bpe-legend').getBoundingClientRect();
  return {
    rows: rows.length,
    rowsOut: rows.filter((r) => !inView(r)).map((r) => r.textContent.slice(0, 30)),
    stepLine: inView(root.querySelector('.bpe-step-label')),
    nextPair: inView(root.querySelector('.bpe-next-pair')),
    oneLine: Math.abs(stats.top - legend.top) < 4 && stats.height < 30 && legend.height < 30,
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
    assert found["oneLine"], "the stats and the legend are not on one line"
    assert not found["scrollers"], f"boxes that scroll inside the page: {found['scrollers']}"
