"""site/present.html (issue 14, items 3 and 4): classroom mode with no Python, opened as ``file://``.

A teacher types the class's text, chooses the merges and the tie rule, presses Train, and steps with
the → key: every merge the page shows must be the one ``train_bpe`` makes here on the same text,
with its count. At 1280×720 a twelve-word text keeps every word row in view (tests/browser/projector.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab import train_bpe
from bpelab.course.present_page import write_present_page
from bpelab.widgets.classroom import CORPORA
from tests.browser.lab import save_screenshot
from tests.browser.projector import (
    LONG_MERGES,
    LONG_WORDS,
    TWELVE_WORDS,
    check_every_step,
    check_projector_layout,
    summary,
    train_in_the_form,
)

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
    page.locator(".bpe-corpus-input textarea").fill(CLASS_TEXT)
    page.locator(".bpe-merges input").fill("40")
    page.locator(f".bpe-tie-rule button[data-tie={tie_break}]").click()
    page.locator("button.bpe-train").click()
    total = len(result.steps)
    label, merged = page.locator(".bpe-step-label"), page.locator(".bpe-pair")
    expect(label).to_have_text(f"Step 0 of {total}")
    for n, step in enumerate(result.steps, start=1):
        page.keyboard.press("ArrowRight")  # the focus is on Train, in the form above the stepper
        (a, b), new = step.pair, step.new_symbol
        assert label.inner_text() == f"Step {n} of {total}"
        # the projector writes the step number once, in the label ("at step n" is hidden)
        assert merged.inner_text() == f"Merged: {a!r} + {b!r} → {new!r} (count {step.count})"
    expect(page.locator(".bpe-message")).to_contain_text(f"Trained in this page: {total} merges")
    save_screenshot(page, f"present_page_{tie_break}_last_step")


def test_present_page_shows_twelve_words_on_a_1280_by_720_projector(present: Page) -> None:
    page = present
    page.set_viewport_size({"width": 1280, "height": 720})
    page.locator(".bpe-corpus-input textarea").fill(TWELVE_WORDS)
    page.locator("button.bpe-train").click()
    for _ in range(3):
        page.locator("button.bpe-next").click()
    expect(page.locator(".bpe-step-label")).to_contain_text("Step 3 of")
    save_screenshot(page, "present_page_1280x720_twelve_words")
    check_projector_layout(page.locator(".bpe-stepper"))


def test_present_page_offers_the_lessons_corpora_as_voila_does(present: Page) -> None:
    """The same chooser as ``make present`` (the corpora come from Python's CORPORA, as data); a
    ready-made corpus trains in the page exactly as ``train_bpe``; tie toggles keep the step."""
    page = present
    options = page.locator(".bpe-corpus-choice select option").all_inner_texts()
    assert options == [*(corpus.label for corpus in CORPORA), "your own text"]
    sentence = CORPORA[1]
    page.locator(".bpe-corpus-choice select").select_option(label=sentence.label)
    expect(page.locator(".bpe-corpus-input textarea")).to_have_value(sentence.read())
    page.locator("button.bpe-train").click()
    result = train_bpe(sentence.read(), sentence.merges)
    page.keyboard.press("PageDown")
    (a, b), new = result.merges[0]
    expect(page.locator(".bpe-pair")).to_contain_text(f"{a!r} + {b!r} → {new!r} (count {result.steps[0].count})")
    smallest = train_bpe(sentence.read(), sentence.merges, tie_break="lexicographic")
    page.locator(".bpe-tie-rule button", has_text="smallest pair").click()
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step 1 of {len(smallest.merges)}")
    (a, b), new = smallest.merges[0]
    expect(page.locator(".bpe-pair")).to_contain_text(f"{a!r} + {b!r} → {new!r} (count {smallest.steps[0].count})")
    expect(page.locator(".bpe-message")).to_contain_text("ties: smallest pair")


def test_present_page_keys_step_but_typing_in_the_box_does_not(present: Page) -> None:
    """N / B and PageDown / PageUp step (no notebook on this page owns the letters); in the text box
    every key types."""
    page = present
    label = page.locator(".bpe-step-label")
    box = page.locator(".bpe-corpus-input textarea")
    box.press("End")
    box.press_sequentially(" n b")  # N and B typed into the text
    box.press("PageDown")
    expect(label).to_have_text("Step 0 of 10")
    expect(box).to_have_value(re.compile(r" n b$"))
    page.locator("h1").click()  # the focus leaves the box, as a teacher's click on the page
    page.keyboard.press("n")
    expect(label).to_have_text("Step 1 of 10")
    page.keyboard.press("PageDown")
    expect(label).to_have_text("Step 2 of 10")
    page.keyboard.press("b")
    expect(label).to_have_text("Step 1 of 10")


def train_long_words(page: Page) -> None:
    train_in_the_form(page.locator(".bpe-classroom"), LONG_WORDS, LONG_MERGES)
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step 0 of {LONG_MERGES}")


def test_a_class_s_twelve_long_words_fit_1280_by_720_at_every_step(present: Page) -> None:
    """Issue 21 item 2: twelve distinct long words, 100 merges; at every step every word row, the pair table
    and the merge log are in view, no chips overlap, </w> never sits alone on a line, no text under 18px."""
    page = present
    page.set_viewport_size({"width": 1280, "height": 720})
    train_long_words(page)
    assert len(train_bpe(LONG_WORDS, LONG_MERGES).merges) == LONG_MERGES
    save_screenshot(page, "present_page_1280x720_long_words_step0")
    wrong = check_every_step(page, "body", LONG_MERGES)
    save_screenshot(page, "present_page_1280x720_long_words_last")
    assert not wrong, summary(wrong)


@pytest.mark.parametrize("width", [375, 505])
def test_present_page_never_scrolls_sideways_on_a_phone(present: Page, width: int) -> None:
    """Issue 21 item 2: on a phone the page is no wider than the screen, before and after the long words merge."""
    page = present
    page.set_viewport_size({"width": width, "height": 800})
    train_long_words(page)
    measure = "() => [document.documentElement.scrollWidth, window.innerWidth]"
    widths = [page.evaluate(measure)]
    page.locator("button.bpe-last").click()
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step {LONG_MERGES} of {LONG_MERGES}")
    widths.append(page.evaluate(measure))
    save_screenshot(page, f"present_page_phone_{width}")
    assert all(scroll <= inner for scroll, inner in widths), f"wider than a {width}px screen: {widths}"


def test_the_toy_corpus_fits_1280_by_720_at_every_step(present: Page) -> None:
    """The page as it opens (the toy corpus, 10 merges): "newest" and "widest" kept their </w> (issue 21)."""
    page = present
    page.set_viewport_size({"width": 1280, "height": 720})
    wrong = check_every_step(page, "body", 10)
    assert not wrong, summary(wrong)
