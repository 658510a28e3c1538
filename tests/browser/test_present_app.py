"""Classroom mode (``make present``) as a teacher uses it: the Voilà app in Chromium, offline.

The app notebook is served by Voilà (the ``voila_app`` fixture) from a copy in the test's server
folder. A teacher types the corpus the class suggested, sets the merges, presses Train, then steps
with the Next button and with the keyboard; every merge the page shows is checked against
``train_bpe`` run here on the same text. The form is drawn by the widget's ES module (the same as
site/present.html's) and, with a kernel, Train asks Python to train. The page must not need the
internet for anything it shows: requests to other hosts fail here, and the test records them.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from bpelab import train_bpe
from bpelab.widgets.classroom import CORPORA
from bpelab.words import TrainingResult
from tests.browser.lab import save_screenshot
from tests.browser.projector import (
    LONG_MERGES,
    LONG_WORDS,
    TWELVE_WORDS,
    ZOOMS,
    check_every_step,
    check_projector_layout,
    summary,
    train_in_the_form,
)
from tests.browser.servers import RunningServer

pytestmark = pytest.mark.browser

APP = "apps/present_stepper.ipynb"
LOAD_TIMEOUT_MS = 120_000  # a kernel start and the first import of bpelab, on a busy machine
WIDGET_TIMEOUT_MS = 30_000
CORPUS = "nest sent tens net ten"
"""What the class suggests. Its letters include N and B's neighbour keys: typing it must not step
the stepper. Its first merge depends on the tie rule (t+</w> and e+n are both met 3 times)."""
MERGES = 6
CORPUS_LABELS = [corpus.label for corpus in CORPORA]


@pytest.fixture
def app_page(page: Page, classroom_server: RunningServer) -> Page:
    """The app open in a fresh page, its first stepper drawn."""
    server = classroom_server
    page.goto(server.url + "/", wait_until="domcontentloaded", timeout=LOAD_TIMEOUT_MS)
    expect(page.locator(".bpe-classroom .bpe-step-label")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    return page


def expect_merge_shown(app: Locator, result: TrainingResult, n: int) -> None:
    """The stepper shows step ``n`` and the pair ``train_bpe`` merged at that step."""
    expect(app.locator(".bpe-step-label")).to_have_text(f"Step {n} of {len(result.steps)}", timeout=WIDGET_TIMEOUT_MS)
    (a, b), new = result.merges[n - 1]
    pair = app.locator(".bpe-pair")
    expect(pair).to_contain_text(f"Merged at step {n}:")
    expect(pair).to_contain_text(f"{a!r} + {b!r}")
    expect(pair).to_contain_text(f"{new!r} (count {result.steps[n - 1].count})")


def test_present_app_trains_a_typed_corpus_and_steps_with_buttons_and_keys(app_page: Page) -> None:
    """Type a corpus, set 6 merges, press Train: Next shows ``train_bpe(corpus, 6).merges[0]``; → and
    N show the next merges, ← and B go back, End shows the last merge and Home step 0; the "smallest pair" toggle shows that rule's first merge."""
    first_seen = train_bpe(CORPUS, MERGES)
    lexicographic = train_bpe(CORPUS, MERGES, tie_break="lexicographic")
    assert len(first_seen.merges) == MERGES
    assert first_seen.merges[0] != lexicographic.merges[0], "the corpus should make the tie rule matter"

    page = app_page
    app = page.locator(".bpe-classroom")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    base = page.url.rstrip("/")
    step_before = app.locator(".bpe-step-label").inner_text()

    box = app.locator(".bpe-corpus-input textarea")
    box.fill("")
    box.press_sequentially(CORPUS)  # a keystroke at a time, as a teacher types
    box.press("ArrowRight")  # moves the cursor in the box; must not step the stepper
    expect(app.locator(".bpe-corpus-choice select")).to_have_value("your own text", timeout=WIDGET_TIMEOUT_MS)
    assert app.locator(".bpe-step-label").inner_text() == step_before, "typing in the box stepped the stepper"

    merges = app.locator(".bpe-merges input")
    merges.fill(str(MERGES))
    merges.press("Enter")
    app.locator(".bpe-stop-single input").uncheck()  # all six merges, the last ones of pairs seen once
    app.locator("button.bpe-train").click()
    # Python's answer: the page without a kernel says "Trained in this page: ..." instead
    expect(app.locator(".bpe-message")).to_contain_text(
        f"Trained {MERGES} merges on {len(CORPUS.split())} words", timeout=WIDGET_TIMEOUT_MS
    )
    expect(app.locator(".bpe-step-label")).to_have_text(f"Step 0 of {MERGES}")

    app.locator("button.bpe-next").click()
    expect_merge_shown(app, first_seen, 1)
    save_screenshot(page, "present_app_after_train_and_next")

    # the keyboard, once the focus has left the text box (a click on the page, as a teacher would)
    app.locator(".bpe-step-label").click()
    page.keyboard.press("ArrowRight")
    expect_merge_shown(app, first_seen, 2)
    page.keyboard.press("n")
    expect_merge_shown(app, first_seen, 3)
    page.keyboard.press("ArrowLeft")
    expect_merge_shown(app, first_seen, 2)
    page.keyboard.press("b")
    expect_merge_shown(app, first_seen, 1)
    page.keyboard.press("End")  # issue 30 item 6: the same keys as the lesson pages and JupyterLab
    expect_merge_shown(app, first_seen, MERGES)
    page.keyboard.press("Home")
    expect(app.locator(".bpe-step-label")).to_have_text(f"Step 0 of {MERGES}", timeout=WIDGET_TIMEOUT_MS)
    page.keyboard.press("N")
    expect_merge_shown(app, first_seen, 1)

    app.locator(".bpe-tie-rule button", has_text="smallest pair").click()
    expect(app.locator(".bpe-message")).to_contain_text("ties: smallest pair", timeout=WIDGET_TIMEOUT_MS)
    expect_merge_shown(app, lexicographic, 1)
    save_screenshot(page, "present_app_lexicographic_step_1")

    # blob: is the page handing the stepper its ES module (anywidget), not a request to a host
    elsewhere = sorted({url for url in requests if not url.startswith((base, "data:", "blob:"))})
    assert not elsewhere, f"stepping asked other hosts for: {elsewhere}"


def test_present_app_shows_its_controls_without_icons_and_says_so_on_empty_text(app_page: Page) -> None:
    """Every control is labelled in words (no CDN icon font offline); an empty box gives a sentence
    saying what to do, not a traceback."""
    app = app_page.locator(".bpe-classroom")
    for css, label in (
        (".bpe-train", "Train"),
        (".bpe-next", "Next"),
        (".bpe-back", "Back"),
        (".bpe-first", "First"),
        (".bpe-last", "Last"),
        (".bpe-hide-settings", "Hide the corpus"),
    ):
        expect(app.locator(f"button{css}")).to_contain_text(label)
    app.locator(".bpe-corpus-choice select").select_option(label="your own text")
    expect(app.locator(".bpe-corpus-input textarea")).to_have_value("", timeout=WIDGET_TIMEOUT_MS)
    app.locator("button.bpe-train").click()
    expect(app.locator(".bpe-message")).to_contain_text("no text to train on", timeout=WIDGET_TIMEOUT_MS)
    expect(app.locator(".bpe-step-label")).to_have_text("Step 0 of 10")  # the last run stays on screen
    hide = app.locator("button.bpe-hide-settings")
    hide.click()
    expect(app.locator(".bpe-corpus-input textarea")).to_be_hidden()
    expect(hide).to_have_text("Show the corpus")
    expect(hide).to_have_attribute("aria-expanded", "false")
    expect(app_page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")).to_have_count(0)


# ---- fitting a projector (issue 11, item 4) ------------------------------------------------------------

OUTSIDE_VIEWPORT_JS = """(selectors) => {
  const out = [];
  for (const css of selectors) {
    const el = document.querySelector(css);
    if (!el) { out.push(css + ': missing'); continue; }
    const box = el.getBoundingClientRect();
    if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight || box.right > window.innerWidth || box.height === 0) {
      out.push(`${css}: ${Math.round(box.left)},${Math.round(box.top)} to ${Math.round(box.right)},${Math.round(box.bottom)}`);
    }
  }
  return out;
}"""

SEEN_TEXT_JS = """(root) => {
  // the text a person SEES: no display:none, no text kept for screen readers only
  const parts = [], walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (parent.closest('.bpe-sr-only, .bpe-sr, option') || !parent.checkVisibility()) continue;
    parts.push(walker.currentNode.textContent);
  }
  return parts.join(' ');
}"""

SELECT_TEXT_FITS_JS = """(select) => {
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.options[select.selectedIndex].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;  // 20: the arrow
  return {text, needed: Math.ceil(context.measureText(text).width), room};
}"""


def test_classroom_mode_fits_a_1280_by_720_projector(app_page: Page) -> None:
    """The toy corpus' words, the pair table and the merge log are all on screen without scrolling;
    the step number is written once; the corpus name is not cut."""
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 720})
    app = page.locator(".bpe-classroom")
    for _ in range(3):
        app.locator("button.bpe-next").click()
    expect(app.locator(".bpe-step-label")).to_have_text("Step 3 of 10", timeout=WIDGET_TIMEOUT_MS)
    page.evaluate("() => window.scrollTo(0, 0)")
    save_screenshot(page, "present_app_1280x720_step3")
    words = ".bpe-classroom .bpe-word-table tr:last-child"  # the fourth toy word
    outside = page.evaluate(OUTSIDE_VIEWPORT_JS, [words, ".bpe-classroom .bpe-pair-table", ".bpe-classroom .bpe-log"])
    assert not outside, f"below the fold or cut at 1280×720: {outside}"
    expect(app.locator(".bpe-word-table tr")).to_have_count(4)
    visible_text = app.evaluate(SEEN_TEXT_JS)
    mentions = re.findall(r"\bstep\s+3\b", visible_text, flags=re.IGNORECASE)
    assert len(mentions) == 1, f"the step number is shown {len(mentions)} times: {visible_text[:400]!r}"
    fit = app.locator(".bpe-corpus-choice select").evaluate(SELECT_TEXT_FITS_JS)
    assert fit["needed"] <= fit["room"], f"the corpus name {fit['text']!r} needs {fit['needed']}px, has {fit['room']}px"


def test_twelve_words_of_the_class_are_all_in_view_at_1280_by_720(app_page: Page) -> None:
    """Issue 14 item 4: every word row, the step line and the next pair on a 1280×720 projector."""
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 720})
    app = page.locator(".bpe-classroom")
    app.locator(".bpe-corpus-input textarea").fill(TWELVE_WORDS)
    app.locator("button.bpe-train").click()
    expect(app.locator(".bpe-message")).to_contain_text("on 13 words", timeout=WIDGET_TIMEOUT_MS)
    for n in range(1, 4):
        app.locator("button.bpe-next").click()
        expect(app.locator(".bpe-step-label")).to_contain_text(f"Step {n} of", timeout=WIDGET_TIMEOUT_MS)
    save_screenshot(page, "present_app_1280x720_twelve_words")
    check_projector_layout(app.locator(".bpe-stepper"))


@pytest.mark.parametrize("merges", ["900", "0"])
def test_a_number_of_merges_out_of_range_gets_a_visible_message(app_page: Page, merges: str) -> None:
    app = app_page.locator(".bpe-classroom")
    box = app.locator(".bpe-merges input")
    box.fill(merges)
    box.press("Enter")
    expect(app.locator(".bpe-message")).to_contain_text(
        f"from 1 to 500 merges; you asked for {merges}", timeout=WIDGET_TIMEOUT_MS
    )
    app.locator("button.bpe-train").click()
    expect(app.locator(".bpe-message")).to_contain_text("you asked for", timeout=WIDGET_TIMEOUT_MS)
    expect(box).to_have_value(merges)  # kept as typed, not clamped in silence


def test_the_legend_is_visible_at_1920_by_1080_with_30_words(app_page: Page) -> None:
    page = app_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    app = page.locator(".bpe-classroom")
    words = " ".join(f"w{chr(97 + i % 26)}{chr(97 + i // 26)}rd" for i in range(30))
    box = app.locator(".bpe-corpus-input textarea")
    box.fill(words)
    app.locator("button.bpe-train").click()
    expect(app.locator(".bpe-message")).to_contain_text("on 30 words", timeout=WIDGET_TIMEOUT_MS)
    expect(app.locator(".bpe-word-table tr")).to_have_count(30)
    page.evaluate("() => window.scrollTo(0, 0)")
    save_screenshot(page, "present_app_1920x1080_30_words")
    outside = page.evaluate(OUTSIDE_VIEWPORT_JS, [".bpe-classroom .bpe-legend"])
    assert not outside, f"the legend is off screen: {outside}"


def test_in_voila_the_form_is_the_es_modules_and_train_asks_python(app_page: Page) -> None:
    """Issue 14: one drawing path. No ipywidgets control is on the page; the chooser offers the
    lessons' corpora with "your own text" last; a ready-made corpus, trained by the kernel, shows
    ``train_bpe``'s merges; PageDown / PageUp (a presenter's clicker), End and Home step from the form's buttons."""
    page = app_page
    assert page.evaluate("() => globalThis.bpelabStatic === true") is False, "Voilà has a kernel"
    ipywidgets_controls = ".widget-dropdown, .widget-textarea, .widget-toggle-buttons, .widget-button, .widget-text"
    expect(page.locator(ipywidgets_controls)).to_have_count(0)
    app = page.locator(".bpe-classroom")
    options = app.locator(".bpe-corpus-choice select option").all_inner_texts()
    assert options == [*CORPUS_LABELS, "your own text"]

    sentence = CORPORA[1]
    app.locator(".bpe-corpus-choice select").select_option(label=sentence.label)
    expect(app.locator(".bpe-merges input")).to_have_value(str(sentence.merges))
    app.locator("button.bpe-train").click()
    result = train_bpe(sentence.read(), sentence.merges)
    message = app.locator(".bpe-message")
    expect(message).to_contain_text(f"Trained {len(result.merges)} merges on", timeout=WIDGET_TIMEOUT_MS)
    expect(message).not_to_contain_text("in this page")  # trained by Python, not by bpe.js
    page.keyboard.press("PageDown")  # the focus is on Train, outside the stepper
    expect_merge_shown(app, result, 1)
    page.keyboard.press("PageDown")
    expect_merge_shown(app, result, 2)
    page.keyboard.press("PageUp")
    expect_merge_shown(app, result, 1)
    page.keyboard.press("End")  # Home and End from the form's buttons too (issue 30 item 6)
    expect_merge_shown(app, result, len(result.merges))
    page.keyboard.press("Home")
    expect(app.locator(".bpe-step-label")).to_have_text(f"Step 0 of {len(result.merges)}", timeout=WIDGET_TIMEOUT_MS)


@pytest.mark.parametrize("zoom", ["100%", "150%"])
def test_a_class_s_twelve_long_words_fit_1280_by_720_at_every_step_in_voila(app_page: Page, zoom: str) -> None:
    """Issue 21 item 2, as ``make present`` serves it: twelve distinct long words trained by Python to 100
    merges; at every step every word row, the pair table and the merge log are in view, no chips overlap,
    no word broken over lines, and no text of the app is under 18 device pixels. Issue 30: at 150 % browser
    zoom too (853×480 CSS pixels), with the corpus hidden as a teacher presents."""
    page = app_page
    width, height, factor = ZOOMS[zoom]
    page.set_viewport_size({"width": width, "height": height})
    app = page.locator(".bpe-classroom")
    train_in_the_form(app, LONG_WORDS, LONG_MERGES)
    expect(app.locator(".bpe-message")).to_contain_text(
        f"Trained {LONG_MERGES} merges on 12", timeout=WIDGET_TIMEOUT_MS
    )
    expect(app.locator(".bpe-step-label")).to_have_text(f"Step 0 of {LONG_MERGES}")
    if factor > 1:
        app.locator("button.bpe-hide-settings").click()
    name = f"present_app_zoom_{zoom.rstrip('%')}_long_words"
    save_screenshot(page, f"{name}_step0")
    wrong = check_every_step(page, ".bpe-classroom", LONG_MERGES, zoom=factor)
    save_screenshot(page, f"{name}_last")
    assert not wrong, summary(wrong)
