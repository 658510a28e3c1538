"""``make html`` as a reader meets it: a lesson page opened from disk in Chromium, with no network.

The page must draw the merge stepper's first view from the saved widget state (not its text
summary) and ask no other host for anything. The widget manager script comes from the cache that
``make html`` fills from the npm registry (the test fills it too); without npm it is skipped and says why.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab.course.html_export import NOTEBOOKS_DIR, WEB_ASSETS, fetch_tarball, install_assets, write_site
from tests.browser.lab import save_screenshot

pytestmark = pytest.mark.browser

LESSON_04 = NOTEBOOKS_DIR / "04_merging_step_by_step.ipynb"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for asset in WEB_ASSETS:  # from the cache, or fetched once from the npm registry as `make html` does
        try:
            fetch_tarball(asset)
        except RuntimeError as err:
            pytest.skip(f"the page scripts could not be fetched ({err}); `make html` explains")
    out = tmp_path_factory.mktemp("site")
    write_site(out, [LESSON_04], log=lambda *_: None)
    problems = install_assets(out / "_static")
    assert not problems, problems
    return out


def test_lesson04_page_draws_the_stepper_from_saved_state_offline(page: Page, site: Path) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((site / "04_merging_step_by_step.html").as_uri())
    stepper = page.locator(".bpe-stepper").first
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 10", timeout=30_000)
    expect(stepper.locator(".bpe-next-pair")).to_contain_text("'l' + 'o' (count 7)")
    expect(stepper.locator(".bpe-words .bpe-chip")).to_have_count(4 + 7 + 6 + 7)  # low, newest, lower, widest + </w>
    expect(page.locator(".bpe-widget-fallback").first).to_be_hidden()
    stepper.scroll_into_view_if_needed()
    save_screenshot(page, "static_site_lesson04_stepper", locator=stepper)
    # blob: is the page handing a widget its ES module (anywidget), not a request to a host
    elsewhere = sorted({url for url in requests if not url.startswith(("file:", "data:", "blob:"))})
    assert not elsewhere, f"the page asked other hosts for: {elsewhere}"
