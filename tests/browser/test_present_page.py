"""site/present.html (issue 14, items 3 and 4; issue 30, items 5 and 6): classroom mode with no Python,
opened as ``file://``.

A teacher types the class's text, chooses the merges and the tie rule, presses Train, and steps with
the → key: every merge the page shows must be the one ``train_bpe`` makes here on the same text,
with its count. At 1280×720 a twelve-word text keeps every word row in view (tests/browser/projector.py).
Issue 30: the type grows to fill the screen (22 px and more with the corpus hidden), a class's twelve long
words stay in view at every step at 100 %, 125 % and 150 % browser zoom, the text box shows the whole text,
"stop when no pair occurs twice" is on by default and says where it stopped, the step box jumps, Play has
a speed, and the keys are the stepper's everywhere (→ or N, ← or B, Home, End).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bpelab import train_bpe
from bpelab.course.present_page import write_present_page
from bpelab.widgets.classroom import CORPORA
from bpelab.widgets.form_training import train_for_form
from tests.browser.lab import save_screenshot
from tests.browser.projector import (
    LARGE_TEXT_PX,
    LONG_MERGES,
    LONG_WORDS,
    TWELVE_WORDS,
    ZOOMS,
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
    page.locator(".bpe-stop-single input").uncheck()  # every merge train_bpe makes, count 1 too
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


# ---- issue 30, item 5: a classroom readable from the back ------------------------------------------------


def hide_the_corpus(page: Page) -> None:
    page.locator("button.bpe-hide-settings").click()
    expect(page.locator(".bpe-corpus-input textarea")).to_be_hidden()


HIDDEN_CORPUS_RUNS = ("toy", "twelve", "long")
"""The page's own toy corpus (10 merges); twelve short words (10 merges, stopping when no pair occurs twice);
the class's twelve long words, 100 merges (the 28-letter symbols that step 47 makes are the widest lines)."""


@pytest.mark.parametrize("run", HIDDEN_CORPUS_RUNS)
def test_with_the_corpus_hidden_text_grows_to_22px_and_all_stays_in_view_at_1280_by_720(
    present: Page, run: str
) -> None:
    """Issue 30 item 5: the type grows with the room it has (it stayed 18.6 px with 170 px left empty): chips and
    tables of at least 22 px, every row, the pair table and the merge log in view, no word broken, at every step;
    for the long words too (the type was 20.75 px: the fit shrank it for the steps whose long symbols wrap)."""
    page = present
    page.set_viewport_size({"width": 1280, "height": 720})
    if run == "long":
        train_long_words(page)
    elif run == "twelve":
        train_in_the_form(page.locator(".bpe-classroom"), TWELVE_WORDS, 10, stop_at_single=True)
    steps = int(page.locator(".bpe-step-label").inner_text().rsplit(" ", 1)[1])
    hide_the_corpus(page)
    save_screenshot(page, f"present_page_1280x720_hidden_{run}")
    wrong = check_every_step(page, "body", steps, large=LARGE_TEXT_PX)
    assert not wrong, summary(wrong)


@pytest.mark.parametrize("zoom", list(ZOOMS))
def test_a_class_s_long_words_stay_in_view_at_every_step_at_browser_zoom(present: Page, zoom: str) -> None:
    """Issue 30 item 5: 100 merges on twelve long words, the corpus hidden, at 100 %, 125 % and 150 % zoom: at
    every step every word row, the pair table and the merge log in view; no word broken over lines (never
    before its </w>); no text under 18 device pixels."""
    page = present
    width, height, factor = ZOOMS[zoom]
    page.set_viewport_size({"width": width, "height": height})
    train_long_words(page)
    hide_the_corpus(page)
    name = f"present_page_zoom_{zoom.rstrip('%')}_long_words"
    save_screenshot(page, f"{name}_step0")
    page.locator("button.bpe-last").click()
    save_screenshot(page, f"{name}_last")
    page.locator("button.bpe-first").click()
    wrong = check_every_step(page, "body", LONG_MERGES, zoom=factor)
    assert not wrong, summary(wrong)


@pytest.mark.parametrize("zoom", list(ZOOMS))
def test_the_text_box_shows_the_whole_sentence(present: Page, zoom: str) -> None:
    """Issue 30 item 5: the box showed 2.5 lines of the class's sentence; it grows to hold all of it."""
    page = present
    width, height, _ = ZOOMS[zoom]
    page.set_viewport_size({"width": width, "height": height})
    box = page.locator(".bpe-corpus-input textarea")
    box.fill(LONG_WORDS + " " + TWELVE_WORDS)
    page.wait_for_timeout(600)  # the page sizes its type again once typing pauses (200 ms)
    sizes = box.evaluate("(t) => [t.scrollHeight, t.clientHeight]")
    save_screenshot(page, f"present_page_zoom_{zoom.rstrip('%')}_text_box")
    assert sizes[0] <= sizes[1] + 1, f"the box shows {sizes[1]} of the text's {sizes[0]} pixels"


def test_stop_when_no_pair_occurs_twice_is_on_by_default_and_says_when_it_stopped(present: Page) -> None:
    """Issue 30 item 5: from step 25 of 100 every merge on the long words has count 1; the stop rule (on by
    default) ends the run before the first of them and says so; off, the run has all 100."""
    page = present
    counts = [step.count for step in train_bpe(LONG_WORDS, LONG_MERGES).steps]
    first_single = counts.index(1)  # merges made before the first count of 1
    assert set(counts[first_single:]) == {1}
    stopped = train_for_form(LONG_WORDS, LONG_MERGES, stop_at_single=True)
    assert len(stopped.merges) == first_single
    checkbox = page.locator(".bpe-stop-single input")
    expect(checkbox).to_be_checked()
    app = page.locator(".bpe-classroom")
    app.locator(".bpe-corpus-input textarea").fill(LONG_WORDS)
    merges = app.locator(".bpe-merges input")
    merges.fill(str(LONG_MERGES))
    merges.press("Enter")
    app.locator("button.bpe-train").click()
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step 0 of {first_single}")
    message = page.locator(".bpe-message")
    expect(message).to_contain_text(
        f"Stopped after {first_single} merges of the {LONG_MERGES} asked for: no pair occurs twice any more"
    )
    page.locator("button.bpe-last").click()
    (a, b), new = stopped.merges[-1]
    expect(page.locator(".bpe-pair")).to_contain_text(f"{a!r} + {b!r} → {new!r} (count {stopped.steps[-1].count})")
    expect(page.locator(".bpe-pairs")).to_contain_text("training stopped here")
    save_screenshot(page, "present_page_stopped_at_single_pairs")
    checkbox.uncheck()
    expect(message).to_contain_text("press Train")
    app.locator("button.bpe-train").click()
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step 0 of {LONG_MERGES}")


def test_the_step_box_jumps_to_a_step(present: Page) -> None:
    """Issue 30 item 5: type a step number, press Enter: the stepper shows that step, train_bpe's merge."""
    page = present
    train_long_words(page)
    hide_the_corpus(page)
    result = train_bpe(LONG_WORDS, LONG_MERGES)
    box = page.locator(".bpe-stepper .bpe-step-box input")
    expect(box).to_be_visible()
    box.fill("57")
    box.press("Enter")
    expect(page.locator(".bpe-step-label")).to_have_text(f"Step 57 of {LONG_MERGES}")
    (a, b), new = result.merges[56]
    expect(page.locator(".bpe-pair")).to_contain_text(f"{a!r} + {b!r} → {new!r} (count {result.steps[56].count})")


def test_play_runs_at_the_speed_chosen(present: Page) -> None:
    """Issue 30 item 5: Play at a quarter of a second per merge goes three times as fast as its 0.8 s."""
    page = present
    train_long_words(page)
    speed = page.locator(".bpe-stepper .bpe-speed select")
    expect(speed).to_have_value("0.8")
    speed.select_option("0.25")
    page.locator("button.bpe-play").click()
    page.wait_for_timeout(3000)
    page.locator("button.bpe-play").click()
    shown = int(page.locator(".bpe-step-label").inner_text().split()[1])
    # 3 s: 12 merges at 0.25 s (fewer on a busy machine), never more than 4 at the 0.8 s of old
    assert 7 <= shown <= 13, f"Play showed {shown} merges in 3 s at 0.25 s per merge"


# ---- issue 30, item 6: one set of keys ------------------------------------------------------------------


def test_classroom_keys_are_the_steppers_on_the_form_and_on_the_page(present: Page) -> None:
    """→ or N next, ← or B back, Home, End: with the focus on a button of the form (Train) and on the page."""
    page = present
    label = page.locator(".bpe-step-label")
    page.locator("button.bpe-train").click()  # the focus on the form's button, outside the stepper
    expect(label).to_have_text("Step 0 of 10")
    for key, shown in (
        ("n", 1),
        ("N", 2),
        ("ArrowRight", 3),
        ("B", 2),
        ("ArrowLeft", 1),
        ("End", 10),
        ("b", 9),
        ("Home", 0),
    ):
        page.keyboard.press(key)
        expect(label).to_have_text(f"Step {shown} of 10")
    page.locator("h1").click()  # the focus on the page itself
    for key, shown in (("End", 10), ("B", 9), ("Home", 0), ("N", 1)):
        page.keyboard.press(key)
        expect(label).to_have_text(f"Step {shown} of 10")
    keys = page.locator(".bpe-keys")
    expect(keys).to_contain_text("→ or N next")
    expect(keys).to_contain_text("← or B back")
    expect(keys).to_contain_text("Home")
