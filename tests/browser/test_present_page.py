"""site/present.html (issue 14, items 3 and 4): classroom mode with no Python, opened as ``file://``.

A teacher types the class's text, chooses the merges and the tie rule, presses Train, and steps with
the → key: every merge the page shows must be the one ``train_bpe`` makes here on the same text,
with its count. At 1280×720 a twelve-word text keeps every word row in view (tests/browser/projector.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab import train_bpe
from bpelab.course.present_page import write_present_page
from tests.browser.lab import save_screenshot
from tests.browser.projector import TWELVE_WORDS, check_projector_layout

pytestmark = pytest.mark.browser

CLASS_TEXT = "nest sent tens net ten 中文 中文字 naïve nai\u0308ve 👩\u200d💻👩\u200d💻 ok, ok!"


@pytest.fixture
def present(page: Page, tmp_path: Path) -> Page:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(write_present_page(tmp_path).as_uri())
    expect(page.locator(".bpe-stepper .bpe-step-label")).to_have_text("Step 0 of 10")  # the toy corpus
    yield page
    elsewhere = sorted({url for url in requests if not url.startswith(("file:", "data:", "blob:"))})
    assert not elsewhere, f"the page asked other hosts for: {elsewhere}"


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
def test_present_page_trains_typed_text_exactly_as_train_bpe(present: Page, tie_break: str) -> None:
    page = present
    result = train_bpe(CLASS_TEXT, 40, tie_break=tie_break)
    page.locator(".bpe-train-form textarea").fill(CLASS_TEXT)
    page.locator(".bpe-train-form input[type=number]").fill("40")
    page.locator(".bpe-train-form select").select_option(tie_break)
    page.locator("button.bpe-train").click()
    total = len(result.steps)
    label, merged = page.locator(".bpe-step-label"), page.locator(".bpe-pair")
    expect(label).to_have_text(f"Step 0 of {total}")
    for n, step in enumerate(result.steps, start=1):
        page.keyboard.press("ArrowRight")  # the focus is on Train, inside the stepper
        (a, b), new = step.pair, step.new_symbol
        assert label.inner_text() == f"Step {n} of {total}"
        # the projector writes the step number once, in the label ("at step n" is hidden)
        assert merged.inner_text() == f"Merged: {a!r} + {b!r} → {new!r} (count {step.count})"
    expect(page.locator(".bpe-message")).to_contain_text(f"{total} merges")
    save_screenshot(page, f"present_page_{tie_break}_last_step")


def test_present_page_shows_twelve_words_on_a_1280_by_720_projector(present: Page) -> None:
    page = present
    page.set_viewport_size({"width": 1280, "height": 720})
    page.locator(".bpe-train-form textarea").fill(TWELVE_WORDS)
    page.locator("button.bpe-train").click()
    for _ in range(3):
        page.locator("button.bpe-next").click()
    expect(page.locator(".bpe-step-label")).to_contain_text("Step 3 of")
    save_screenshot(page, "present_page_1280x720_twelve_words")
    check_projector_layout(page.locator(".bpe-stepper"))
