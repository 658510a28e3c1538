"""The stepper's own training form, drawn from its ES module in a page with no kernel (issue 21, item 6).

Under each word-level stepper of a static lesson, "Train on your own text" offers a checkbox, "cut off
punctuation first". A rule meant for the merges box (``input{width:5em}``) made the checkbox 5em wide,
so a wide gap stood between the box and its words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab import train_bpe
from bpelab.widgets.stepper import MergeStepper
from tests.browser.lab import save_screenshot
from tests.browser.standalone import standalone_page

pytestmark = pytest.mark.browser


def test_the_checkbox_of_the_train_form_sits_next_to_its_words(page: Page, tmp_path: Path) -> None:
    page.goto(standalone_page(MergeStepper(train_bpe("low lower newest widest", 5)), "renderStepper", tmp_path))
    page.locator(".bpe-train-details summary").click()
    box = page.locator("input.bpe-split-punctuation")
    expect(box).to_be_visible()
    found = box.evaluate("""(box) => {
      const label = box.closest('label'), range = document.createRange();
      range.setStart(label, [...label.childNodes].indexOf(box) + 1);
      range.setEnd(label, label.childNodes.length);
      const words = range.getBoundingClientRect(), own = box.getBoundingClientRect();
      return {width: own.width, gap: words.left - own.right, em: parseFloat(getComputedStyle(box).fontSize)};
    }""")
    save_screenshot(page, "stepper_train_form_checkbox", locator=page.locator(".bpe-train-form"))
    assert found["width"] <= 2 * found["em"], f"the checkbox is {found['width']:.0f}px wide: {found}"
    assert found["gap"] <= found["em"], f"{found['gap']:.0f}px between the checkbox and its words: {found}"
