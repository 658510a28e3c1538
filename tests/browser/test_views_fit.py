"""The views of issue 23 fit the screens a class uses: a projector (1280×720) and a phone (390 px wide).

On the static pages of lessons 07 (side by side, and the token-build panel a chip opens) and 10 (the chat
view), as a reader opens them from disk: the page never scrolls sideways; nothing in a view is cut by
hidden overflow; whatever reaches past the window's right edge lies inside a scrolling region a keyboard
can reach (axe-core's rules hold the region's name and focus). At 1280×720 the side-by-side rows with
their counts, and the opened panel, are each shorter than the screen, so a projector shows them whole.
The lessons' own texts are used: "Why is Kubernetes one token? 1234567 don't  stop" (lesson 07) and the
four-turn conversation of lesson 10 §10, each longer than a phone's width in chips.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab.course.html_export import NOTEBOOKS_DIR
from tests.browser.axe import axe_script, axe_violations, describe_violations
from tests.browser.lab import save_screenshot
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

WIDGET_TIMEOUT_MS = 60_000
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
LESSONS = ["07_regex_and_real_tokenizers", "10_tokens_in_practice"]

OVERFLOW_JS = r"""(selector) => {
  const problems = [];
  const scrolls = (el) => /(auto|scroll)/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth;
  for (const view of document.querySelectorAll(selector)) {
    for (const el of view.querySelectorAll('*')) {
      if (el.closest('.bpe-sr, .bpe-sr-only')) continue;  // text for screen readers, clipped on purpose
      const style = getComputedStyle(el);
      const name = `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 70);
      if (['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${name} cuts its content (${el.scrollWidth}px in ${el.clientWidth}px)`);
      }
      const box = el.getBoundingClientRect();
      if (box.width && box.right > innerWidth + 1) {
        let region = el.parentElement;
        while (region && region !== view.parentElement && !scrolls(region)) region = region.parentElement;
        if (!region || region === view.parentElement) problems.push(`${name} reaches ${Math.round(box.right)}px`);
      }
    }
  }
  return {page: document.documentElement.scrollWidth, window: innerWidth, problems: problems.slice(0, 12)};
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    notebooks = [NOTEBOOKS_DIR / f"{name}.ipynb" for name in LESSONS]
    return write_static_site(tmp_path_factory.mktemp("fit-site"), notebooks, guide=None)


def assert_fits(page: Page, selector: str, where: str) -> None:
    measured = page.evaluate(OVERFLOW_JS, selector)
    assert measured["page"] <= measured["window"], f"{where}: the page scrolls sideways ({measured})"
    assert not measured["problems"], f"{where}: " + "; ".join(measured["problems"])


@pytest.mark.parametrize("screen", [PROJECTOR, PHONE], ids=["projector", "phone"])
def test_side_by_side_and_token_build_fit(page: Page, pages: Path, screen: dict[str, int]) -> None:
    page.set_viewport_size(screen)
    page.goto((pages / f"{LESSONS[0]}.html").as_uri())
    view = page.locator(".bpe-compare").first
    expect(view.locator(".bpe-compare-row")).to_have_count(4, timeout=WIDGET_TIMEOUT_MS)
    expect(view.locator(".bpe-compare-row").last.locator("[data-bpe-chip]").first).to_be_visible(
        timeout=WIDGET_TIMEOUT_MS
    )
    view.scroll_into_view_if_needed()
    where = f"lesson 07 side by side at {screen['width']}×{screen['height']}"
    assert_fits(page, ".bpe-compare", where)
    if screen is PROJECTOR:
        rows = view.locator(".bpe-compare-scroll").bounding_box()
        table = view.locator("table").first.bounding_box()
        assert rows and table
        height = table["y"] + table["height"] - rows["y"]
        assert height <= screen["height"], f"{where}: the rows and their counts take {height:.0f}px"

    view.locator(".bpe-compare-row").first.locator("[data-bpe-chip]").nth(2).click()  # " Ku" under GPT-2
    panel = page.locator(".bpe-token-build").first
    expect(panel).to_contain_text("Step 0 of", timeout=WIDGET_TIMEOUT_MS)
    panel.get_by_role("button", name="Last").click()
    expect(panel).to_contain_text("Step", timeout=WIDGET_TIMEOUT_MS)
    panel.scroll_into_view_if_needed()
    assert_fits(page, ".bpe-token-build", f"lesson 07 token-build panel at {screen['width']}px")
    if screen is PROJECTOR:
        box = panel.bounding_box()
        assert box and box["height"] <= screen["height"], f"the token-build panel is {box} tall at 720"
    save_screenshot(page, f"fit_compare_{screen['width']}")
    axe_script()
    found = axe_violations(page, [".bpe-compare"])
    assert not found, describe_violations(found)


@pytest.mark.parametrize("screen", [PROJECTOR, PHONE], ids=["projector", "phone"])
def test_chat_view_fits(page: Page, pages: Path, screen: dict[str, int]) -> None:
    page.set_viewport_size(screen)
    page.goto((pages / f"{LESSONS[1]}.html").as_uri())
    view = page.locator(".bpe-chat").first
    expect(view.locator(".bpe-chip-special").first).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    view.scroll_into_view_if_needed()
    assert_fits(page, ".bpe-chat", f"lesson 10 chat view at {screen['width']}×{screen['height']}")
    save_screenshot(page, f"fit_chat_{screen['width']}")
    axe_script()
    found = axe_violations(page, [".bpe-chat"])
    assert not found, describe_violations(found)
