"""The merge stepper in a real browser: in the static site with no kernel, in JupyterLab (its narrow
default layout, its keys, its training form), and in a lesson served by Voilà.

Static site (issue 11, item 1; issue 14, item 2): COPIES of lessons 04, 07 and 11 are executed with
``bpelab.course.lessons.run_lesson`` (which stores widget state), written out as pages by the site
writer (``bpelab.course.html_export``), and opened as ``file://`` in Chromium, with no server. Next
is pressed three times on the lesson's first stepper; the page must then show what the trainer (or,
in lesson 07, the encoder replay) computes for step 3, here in the test: the merged pair, the new
symbol and its count. Back, First, Last, Play and the → key are checked on lesson 04 as well, and
lesson 04's real-text stepper is walked with → through all 200 merges, each checked against
``train_bpe``; a text typed into its "Train on your own text" form trains as ``train_bpe`` does.

JupyterLab (issue 11, item 4): at 1280×800 with the file browser open, no text element of the
stepper is wider than its box (``scrollWidth`` against ``clientWidth``).

The same keys and the same form everywhere (issue 30, item 6): → or N, ← or B, Home and End on the lesson page,
in JupyterLab and on lesson 04 served by Voilà (the ``voila_app`` fixture); the "train on your own text" form
trains with Python's ``train_bpe`` wherever a kernel answers (JupyterLab, Voilà).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bpelab import train_bpe
from bpelab.analysis.replay import replay_word
from bpelab.bench.stepper import real_text
from bpelab.course.lessons import run_lesson
from bpelab.paths import REPO_ROOT
from bpelab.wordpiece import train_wordpiece
from bpelab.words import MergeStep
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
WIDGET_TIMEOUT_MS = 30_000


def symbol_text(symbol: Any, token_bytes: dict[int, bytes] | None) -> str:
    """How the stepper names a symbol: repr of the string, or of the bytes' text with the id."""
    if token_bytes is None:
        return repr(symbol)
    return f"{token_bytes[symbol].decode('utf-8')!r} [{symbol}]"


def expected_step_3_lesson04() -> tuple[MergeStep[Any], None]:
    return train_bpe(TOY, 10).steps[2], None  # lesson 04: result = train_bpe(corpus, 10), the toy corpus


def expected_step_3_lesson07() -> tuple[MergeStep[Any], dict[int, bytes]]:
    replay = replay_word("cl100k_base", " tokenization")  # lesson 07: MergeStepper.for_word(cl100k, ...)
    return replay.steps[2], replay.token_bytes


def expected_step_3_lesson11() -> tuple[MergeStep[Any], None]:
    return train_wordpiece(TOY, 8).steps[2], None  # lesson 11: MergeStepper(train_wordpiece(CLASSIC, 8))


LESSONS: dict[str, Callable[[], tuple[MergeStep[Any], dict[int, bytes] | None]]] = {
    "04_merging_step_by_step.ipynb": expected_step_3_lesson04,
    "07_regex_and_real_tokenizers.ipynb": expected_step_3_lesson07,
    "11_beyond_bpe.ipynb": expected_step_3_lesson11,
}


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three lessons, executed afresh (copies) and written as pages with their scripts."""
    lessons = tmp_path_factory.mktemp("lessons")
    copies = []
    for name in LESSONS:
        copy = lessons / name
        shutil.copy(REPO_ROOT / "notebooks" / name, copy)
        run_lesson(copy)
        copies.append(copy)
    return write_static_site(tmp_path_factory.mktemp("site"), copies, guide=None)


def open_page(page: Page, site: Path, lesson: str) -> Locator:
    """The lesson's page from disk; returns its first stepper once the widget manager drew it."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto((site / lesson.replace(".ipynb", ".html")).as_uri())
    stepper = page.locator(".bpe-stepper").first
    expect(stepper.locator(".bpe-step-label")).to_contain_text("Step 0 of", timeout=WIDGET_TIMEOUT_MS)
    assert page.evaluate("() => window.bpelabStatic === true"), "the site writer marks its pages as static"
    # blob: is the page itself handing a widget its ES module (anywidget), not a request to a host
    elsewhere = sorted({url for url in requests if not url.startswith(("file:", "data:", "blob:"))})
    assert not elsewhere, f"the page asked other hosts for: {elsewhere}"
    return stepper


def expect_step(
    stepper: Locator, n: int, total: int, step: MergeStep[Any], token_bytes: dict[int, bytes] | None
) -> None:
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step {n} of {total}", timeout=WIDGET_TIMEOUT_MS)
    a, b = step.pair
    merged = stepper.locator(".bpe-pair")
    expect(merged).to_contain_text(f"Merged at step {n}:")
    expect(merged).to_contain_text(f"{symbol_text(a, token_bytes)} + {symbol_text(b, token_bytes)}")
    expect(merged).to_contain_text(f"→ {symbol_text(step.new_symbol, token_bytes)}")
    expect(merged).to_contain_text(f" {step.count})")


@pytest.mark.parametrize("lesson", list(LESSONS))
def test_next_three_times_in_the_static_page_shows_the_trainers_step_3(
    page: Page, static_site: Path, lesson: str
) -> None:
    step, token_bytes = LESSONS[lesson]()
    stepper = open_page(page, static_site, lesson)
    total = int(stepper.locator(".bpe-step-label").inner_text().rsplit(" ", 1)[1])
    for _ in range(3):
        stepper.locator("button.bpe-next").click()
    expect_step(stepper, 3, total, step, token_bytes)
    # the screen-reader announcement follows the view
    expect(stepper.locator(".bpe-announce [role='status']")).to_contain_text(f"Step 3 of {total}: merged")
    stepper.scroll_into_view_if_needed()
    save_screenshot(page, f"static_stepper_{lesson[:2]}_step3", locator=stepper)


def test_back_first_last_play_and_arrow_keys_work_in_the_static_page(page: Page, static_site: Path) -> None:
    result = train_bpe(TOY, 10)
    stepper = open_page(page, static_site, "04_merging_step_by_step.ipynb")
    label = stepper.locator(".bpe-step-label")
    stepper.locator("button.bpe-last").click()
    expect(label).to_have_text("Step 10 of 10")
    expect(stepper.locator("button.bpe-next")).to_be_disabled()
    stepper.locator("button.bpe-back").click()
    expect_step(stepper, 9, 10, result.steps[8], None)
    stepper.locator("button.bpe-first").click()
    expect(label).to_have_text("Step 0 of 10")
    expect(stepper.locator("button.bpe-back")).to_be_disabled()
    page.keyboard.press("ArrowRight")  # the page's keys go to the stepper last used
    page.keyboard.press("ArrowRight")
    expect_step(stepper, 2, 10, result.steps[1], None)
    page.keyboard.press("ArrowLeft")
    expect_step(stepper, 1, 10, result.steps[0], None)
    box = stepper.locator(".bpe-step-box input")
    box.focus()
    page.keyboard.press("ArrowUp")  # the step box's own key
    expect_step(stepper, 2, 10, result.steps[1], None)
    stepper.locator("button.bpe-play").click()  # the timer runs in the page
    expect(label).to_have_text("Step 4 of 10", timeout=WIDGET_TIMEOUT_MS)
    stepper.locator("button.bpe-play").click()


def test_lesson04s_real_text_stepper_steps_through_all_200_merges_in_the_static_page(
    page: Page, static_site: Path
) -> None:
    """Issue 14 item 2: every step, no kernel: → from step 0 to 200, each step's merged pair and count
    as ``train_bpe`` computes them (lesson 04: ``train_bpe(real_text, 200)``), then Last and First."""
    result = train_bpe(real_text(), 200)
    open_page(page, static_site, "04_merging_step_by_step.ipynb")
    real = page.locator(".bpe-stepper").nth(1)  # the lesson's second stepper: the real text
    real.scroll_into_view_if_needed()
    expect(real.locator(".bpe-step-label")).to_have_text("Step 0 of 200")
    label, merged = real.locator(".bpe-step-label"), real.locator(".bpe-pair")
    real.locator("button.bpe-next").focus()  # keys go to the stepper that has the focus
    for n, step in enumerate(result.steps, start=1):
        page.keyboard.press("ArrowRight")
        (a, b), new = step.pair, step.new_symbol
        assert label.inner_text() == f"Step {n} of 200"
        assert merged.inner_text() == f"Merged at step {n}: {a!r} + {b!r} → {new!r} (count {step.count})"
    expect(real.locator("button.bpe-next")).to_be_disabled()
    real.locator("button.bpe-first").click()
    real.locator("button.bpe-last").click()
    expect_step(real, 200, 200, result.steps[199], None)
    save_screenshot(page, "static_stepper_04_real_step200", locator=real)


def test_a_text_typed_into_a_static_stepper_trains_there_exactly_as_train_bpe(page: Page, static_site: Path) -> None:
    """Issue 14 item 3: the static page trains typed text in the browser; each merge is train_bpe's."""
    text = "nest sent tens net ten 中文 中文字 👍🏽👍🏽 e\u0301e\u0301"
    stepper = open_page(page, static_site, "04_merging_step_by_step.ipynb")
    stepper.locator("summary").click()  # the form is folded under the stepper
    stepper.locator("textarea").fill(text)
    stepper.locator(".bpe-train-form input[type=number]").fill("12")
    stepper.locator(".bpe-train-form select").select_option("lexicographic")
    stepper.locator("button.bpe-train").click()
    result = train_bpe(text, 12, tie_break="lexicographic")
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step 0 of {len(result.steps)}")
    for n, step in enumerate(result.steps, start=1):
        stepper.locator("button.bpe-next").click()
        expect_step(stepper, n, len(result.steps), step, None)
    expect(stepper.locator(".bpe-pairs")).to_contain_text("ties: smallest pair")


def labels(page: Page) -> list[str]:
    steppers = page.locator(".bpe-stepper")
    return [steppers.nth(i).locator(".bpe-step-label").inner_text() for i in range(steppers.count())]


SCROLL_SETTLED = """() => new Promise((done) => {
  let last = window.scrollY, still = 0;
  const look = () => { still = window.scrollY === last ? still + 1 : 0; last = window.scrollY;
    if (still >= 10) done(true); else requestAnimationFrame(look); };
  requestAnimationFrame(look);
})"""


def scrolled_to(page: Page, before: float, *, down: bool, after: str, key: str | None = None) -> None:
    """Wait for the page to scroll (down or up) from ``before``; a failure says where it stayed.

    With ``key`` (the key just pressed): if the page has not moved after 5 s, the key is pressed once more.
    On a busy machine a key pressed while the last key's smooth scroll is still ending can be lost in it
    (seen once in a full run: PageUp after End); a key a stepper swallows is swallowed both times."""
    moved = f"(y) => window.scrollY {'>' if down else '<'} y"
    try:
        if key is None:
            page.wait_for_function(moved, arg=before, timeout=10_000)
        else:
            try:
                page.wait_for_function(moved, arg=before, timeout=5_000)
            except PlaywrightTimeout:
                page.keyboard.press(key)
                page.wait_for_function(moved, arg=before, timeout=10_000)
        # a key scrolls smoothly: wait until it has stopped, so the next key starts from where this one ended
        page.wait_for_function(SCROLL_SETTLED, timeout=10_000)
    except PlaywrightTimeout:
        state = page.evaluate(
            "() => [window.scrollY, document.activeElement.tagName, document.activeElement.className]"
        )
        pytest.fail(
            f"{after}: the page did not scroll {'down' if down else 'up'} from {before} (scrollY, focus: {state})"
        )


def test_the_steppers_keys_in_the_static_lesson_page(page: Page, static_site: Path) -> None:
    """Issue 30 item 6: the same keys as JupyterLab and classroom mode on a lesson's page: → or N, ← or B,
    Home, End, once a button of the stepper has the focus."""
    stepper = open_page(page, static_site, "04_merging_step_by_step.ipynb")
    stepper.locator("button.bpe-play").focus()
    label = stepper.locator(".bpe-step-label")
    for key, shown in (("n", 1), ("N", 2), ("ArrowRight", 3), ("B", 2), ("b", 1), ("End", 10), ("ArrowLeft", 9)):
        page.keyboard.press(key)
        expect(label).to_have_text(f"Step {shown} of 10")
    page.keyboard.press("Home")
    expect(label).to_have_text("Step 0 of 10")


def test_keys_go_to_the_stepper_in_use_and_scroll_the_page_when_none_is(page: Page, static_site: Path) -> None:
    """Issue 21 item 3, on lesson 04's page (a toy stepper of 10 merges, the real text's of 200, one more):
    a fresh page scrolls with PageDown, End, Home, Space and the arrows and steps nothing; after Last on the
    200-merge stepper, ← ← move that one; a click on a stepper's words or step label gives it the keys; a
    click elsewhere on the page gives them back to the page."""
    open_page(page, static_site, "04_merging_step_by_step.ipynb")
    steppers = page.locator(".bpe-stepper")
    expect(steppers).to_have_count(3)
    toy, real = steppers.nth(0), steppers.nth(1)
    expect(real.locator(".bpe-step-label")).to_have_text("Step 0 of 200")
    fresh = labels(page)
    assert fresh == ["Step 0 of 10", "Step 0 of 200", "Step 0 of 15"]
    scroll = lambda: page.evaluate("() => window.scrollY")  # noqa: E731
    for key, moves_down in (("PageDown", True), ("Space", True), ("End", True), ("PageUp", False), ("Home", False)):
        before = scroll()
        page.keyboard.press(key)
        scrolled_to(page, before, down=moves_down, after=key, key=key)
        assert labels(page) == fresh, f"{key} on a fresh page stepped a stepper"
    for key in ("ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    assert labels(page) == fresh, "arrows on a fresh page stepped a stepper"

    real.scroll_into_view_if_needed()
    real.locator("button.bpe-last").click()  # Last goes disabled: the focus falls back to the page
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(real.locator(".bpe-step-label")).to_have_text("Step 198 of 200")
    assert labels(page)[0] == "Step 0 of 10", "the keys moved the toy stepper, not the one in use"

    toy.scroll_into_view_if_needed()
    toy.locator(".bpe-words").click()  # its words: the keys are the toy's now
    page.keyboard.press("ArrowRight")
    expect(toy.locator(".bpe-step-label")).to_have_text("Step 1 of 10")
    real.scroll_into_view_if_needed()
    real.locator(".bpe-step-label").click()  # the step label: back to the real text's
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("PageUp")
    expect(real.locator(".bpe-step-label")).to_have_text("Step 196 of 200")
    assert labels(page)[0] == "Step 1 of 10"
    save_screenshot(page, "static_stepper_04_keys_in_use", locator=real)

    page.locator("h1").first.click()  # a click outside every stepper: the page has its keys again
    before, now = scroll(), labels(page)
    page.keyboard.press("PageDown")
    scrolled_to(page, before, down=True, after="PageDown after a click outside the steppers")
    assert labels(page) == now


def test_the_page_trains_50000_characters_and_500_merges_showing_progress(page: Page, static_site: Path) -> None:
    """Issue 21 item 4: at the page's own limit the form says how far training is while it runs, and the
    run is train_bpe's, merge for merge (checked at the last step, as the 600-text test checks them all)."""
    from tests.test_js_training import long_text

    text = long_text()
    result = train_bpe(text, 500)
    stepper = open_page(page, static_site, "04_merging_step_by_step.ipynb")
    stepper.locator("summary").click()
    stepper.locator("textarea").fill(text)
    stepper.locator(".bpe-train-form input[type=number]").fill("500")
    stepper.locator(".bpe-split-punctuation").set_checked(False)
    stepper.evaluate(
        """(box) => { window.bpeMessages = []; const m = box.querySelector('.bpe-message');
        new MutationObserver(() => window.bpeMessages.push(m.textContent)).observe(m, {childList: true, characterData: true, subtree: true}); }"""
    )
    stepper.locator("button.bpe-train").click()
    message = stepper.locator(".bpe-message")
    expect(message).to_contain_text("Trained in this page", timeout=60_000)
    shown = page.evaluate("() => window.bpeMessages")
    assert any(m.startswith("Training in this page: ") and m.endswith(" of 500 merges…") for m in shown), shown
    expect(message).to_contain_text(": 500 merges. Press Next or →.")
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 500")
    stepper.locator("button.bpe-last").click()
    expect_step(stepper, 500, 500, result.steps[499], None)
    stepper.scroll_into_view_if_needed()
    save_screenshot(page, "static_stepper_04_trained_50000_characters", locator=stepper)


def test_the_train_form_refuses_an_empty_merges_box_and_its_text_box_is_wide(page: Page, static_site: Path) -> None:
    """Issue 21 item 6: an empty merges box, or 0, says what to type and never "Press Next"; the text box
    takes the form's width (it was 185 px)."""
    stepper = open_page(page, static_site, "04_merging_step_by_step.ipynb")
    stepper.locator("summary").click()
    form = stepper.locator(".bpe-train-form")
    box = form.locator("textarea")
    box.fill("low lower newest widest")
    message = stepper.locator(".bpe-message")
    for typed, says in (("", "Type how many merges to learn, from 1 to 500."), ("0", "from 1 to 500, not 0")):
        form.locator("input[type=number]").fill(typed)
        stepper.locator("button.bpe-train").click()
        expect(message).to_contain_text(says)
        expect(message).not_to_contain_text("Press Next")
        expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 10")  # the lesson's run stays
    width, form_width = box.evaluate(
        "(t) => [t.getBoundingClientRect().width, t.closest('.bpe-train-form').clientWidth]"
    )
    assert width >= 0.9 * form_width and width > 400, f"the text box is {width:.0f} px of the form's {form_width} px"


def test_a_lesson_with_widget_state_stays_under_one_megabyte(static_site: Path) -> None:
    """Lesson 04 holds three steppers, one of 200 merges: their traces keep the notebook small."""
    for name in LESSONS:
        copy = next(static_site.parent.glob(f"lessons*/{name}"))
        size = copy.stat().st_size
        assert size < 1_000_000, f"{name} is {size:,} bytes with its widget state"
        nb = nbformat.read(copy, as_version=4)
        assert "widgets" in nb.metadata


# ---- JupyterLab at 1280×800 with the file browser open -------------------------------------------------

NARROW_NOTEBOOK = "stepper_layout_check.ipynb"
CLIPPED_JS = """(root) => {
  const clipped = [];
  for (const el of root.querySelectorAll('.bpe-status > div, .bpe-words-note, .bpe-pairs, .bpe-pairs td, .bpe-log div, .bpe-legend, .widget-button, .widget-label')) {
    if (el.closest('.bpe-words') || getComputedStyle(el).display === 'none') continue;
    if (el.scrollWidth > el.clientWidth + 1) clipped.push(`${el.className || el.tagName}: ${el.textContent.slice(0, 60)}`);
  }
  return clipped;
}"""


@pytest.fixture
def narrow_notebook(lab_root: Path) -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from bpelab import train_bpe\nfrom bpelab.bench.stepper import real_text\n"
            "from bpelab.widgets import MergeStepper\n"
            "stepper = MergeStepper(train_bpe(real_text(), 30), top_words=40, top_pairs=10)\nstepper"
        )
    ]
    nbformat.write(nb, lab_root / NARROW_NOTEBOOK)
    return NARROW_NOTEBOOK


def test_nothing_of_the_stepper_is_clipped_at_1280_by_800_with_the_file_browser_open(
    lab_page: Page, lab_server: RunningServer, narrow_notebook: str
) -> None:
    page = lab_page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_notebook(page, lab_server.url, narrow_notebook)
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    expect(page.locator(".jp-FileBrowser")).to_be_visible()
    run_all_cells(page)
    stepper = page.locator(".bpe-stepper").first
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 30", timeout=WIDGET_TIMEOUT_MS)
    for n in range(3):
        stepper.locator("button.bpe-next").click()
        expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step {n + 1} of 30", timeout=WIDGET_TIMEOUT_MS)
    clipped = stepper.evaluate(CLIPPED_JS)
    save_screenshot(page, "stepper_1280x800_file_browser_open")
    assert not clipped, f"text wider than its box: {clipped}"


# ---- JupyterLab: two steppers in a notebook; the notebook keeps its keys ----------------------------------

TWO_STEPPERS = "two_steppers_keys.ipynb"


@pytest.fixture
def two_steppers_notebook(lab_root: Path) -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from bpelab import train_bpe\nfrom bpelab.widgets import MergeStepper\n"
            f"MergeStepper(train_bpe({TOY!r}, 10))"
        ),
        nbformat.v4.new_code_cell(f"MergeStepper(train_bpe({TOY!r} * 2 + 'slow newer', 12))"),
        nbformat.v4.new_code_cell("1 + 1"),
    ]
    nbformat.write(nb, lab_root / TWO_STEPPERS)
    return TWO_STEPPERS


def test_in_jupyterlab_the_notebook_keeps_its_keys_and_a_clicked_stepper_gets_them(
    lab_page: Page, lab_server: RunningServer, two_steppers_notebook: str
) -> None:
    """Issue 21 item 3 in JupyterLab: after a stepper was used, a click on a cell gives the keys back to
    the notebook (↑ moves to the cell above, End and → move no stepper); with the focus on a stepper's
    button the keys are that stepper's, not the other one's; a click on a stepper's words gives that stepper
    the keys (issue 30 item 6: JupyterLab focused the cell, took → and inserted a cell on B)."""
    page = lab_page
    open_notebook(page, lab_server.url, two_steppers_notebook)
    run_all_cells(page)
    steppers = page.locator(".bpe-stepper")
    expect(steppers).to_have_count(2, timeout=WIDGET_TIMEOUT_MS)
    first, second = steppers.nth(0), steppers.nth(1)
    second.locator("button.bpe-next").click()
    expect(second.locator(".bpe-step-label")).to_have_text("Step 1 of 12")
    page.locator(".jp-Cell .jp-InputPrompt").nth(2).click()  # the last cell, in command mode
    active = "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex((c) => c.classList.contains('jp-mod-active'))"
    assert page.evaluate(active) == 2
    for key in ("End", "ArrowRight", "PageDown", "Home"):
        page.keyboard.press(key)
    page.keyboard.press("ArrowUp")  # JupyterLab's own key: the cell above becomes active
    page.wait_for_function(f"() => ({active})() === 1", timeout=WIDGET_TIMEOUT_MS)
    expect(second.locator(".bpe-step-label")).to_have_text("Step 1 of 12")
    expect(first.locator(".bpe-step-label")).to_have_text("Step 0 of 10")
    first.locator("button.bpe-next").click()  # a control of the first stepper has the focus: its keys
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(first.locator(".bpe-step-label")).to_have_text("Step 3 of 10")
    expect(second.locator(".bpe-step-label")).to_have_text("Step 1 of 12")
    second.locator(".bpe-words").click()  # a click on its words focuses that stepper: its keys (issue 30, item 6)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("b")
    page.keyboard.press("ArrowRight")
    expect(second.locator(".bpe-step-label")).to_have_text("Step 2 of 12")
    expect(first.locator(".bpe-step-label")).to_have_text("Step 3 of 10")
    assert page.evaluate(CELL_COUNT_JS) == 3, "B after a click on a stepper's words inserted a cell"
    save_screenshot(page, "lab_two_steppers_keys")


# ---- issue 30, item 6: one set of keys, one training form -------------------------------------------------

ONE_STEPPER = "one_stepper_keys_and_form.ipynb"
CELL_COUNT_JS = "() => window.jupyterapp.shell.currentWidget.content.widgets.length"
KEYS_AND_STEPS = (("n", 1), ("N", 2), ("ArrowRight", 3), ("B", 2), ("b", 1), ("End", 10), ("ArrowLeft", 9), ("Home", 0))
"""The keys pressed in turn from step 0 of the toy run (10 merges), and the step each must show."""


@pytest.fixture
def one_stepper_notebook(lab_root: Path) -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from bpelab import train_bpe\nfrom bpelab.widgets import MergeStepper\n"
            f"stepper = MergeStepper(train_bpe({TOY!r}, 10))\nstepper"
        ),
        nbformat.v4.new_code_cell("1 + 1"),
    ]
    nbformat.write(nb, lab_root / ONE_STEPPER)
    return ONE_STEPPER


def press_keys_and_check(page: Page, stepper: Locator) -> None:
    label = stepper.locator(".bpe-step-label")
    for key, shown in KEYS_AND_STEPS:
        page.keyboard.press(key)
        expect(label).to_have_text(f"Step {shown} of 10", timeout=WIDGET_TIMEOUT_MS)


def _stepper_at_step_0(page: Page, url: str, notebook: str) -> tuple[Locator, int]:
    """The notebook of one stepper opened in JupyterLab and run: its stepper at step 0, and how many cells it has."""
    open_notebook(page, url, notebook)
    run_all_cells(page)
    stepper = page.locator(".bpe-stepper").first
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 10", timeout=WIDGET_TIMEOUT_MS)
    return stepper, page.evaluate(CELL_COUNT_JS)


def test_in_jupyterlab_the_steppers_keys_work_and_b_adds_no_cell(
    lab_page: Page, lab_server: RunningServer, one_stepper_notebook: str
) -> None:
    """Issue 30 item 6: → or N, ← or B, Home, End on the focused stepper, as in the lesson pages and classroom
    mode; B (insert a cell below, in command mode) and N never reach the notebook."""
    page = lab_page
    stepper, cells = _stepper_at_step_0(page, lab_server.url, one_stepper_notebook)
    stepper.locator("button.bpe-next").click()
    stepper.locator("button.bpe-back").focus()  # a button of the stepper has the focus, at step 1
    page.keyboard.press("b")
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 10", timeout=WIDGET_TIMEOUT_MS)
    stepper.locator("button.bpe-play").focus()  # Back went disabled at step 0: the focus on a live button
    press_keys_and_check(page, stepper)
    save_screenshot(page, "lab_stepper_keys_b_adds_no_cell")
    assert page.evaluate(CELL_COUNT_JS) == cells, "a key pressed on the stepper edited the notebook"


FORM_TEXT = "nest sent tens net ten bob nan"
"""What a learner types into the form: 7 words, letters b and n (the stepper's keys) included."""


def train_in_the_form_with_python(page: Page, stepper: Locator) -> None:
    """Type ``FORM_TEXT`` into the stepper's "train on your own text" form a key at a time (12 merges, smallest
    pair on ties, stop when no pair occurs twice), press Train, and check that Python trained it (the message
    names train_bpe; a page without a kernel says "Trained in this page" instead) with the merges of
    ``train_for_form``, stepping with Next, then N."""
    from bpelab.widgets.form_training import train_for_form

    expected = train_for_form(FORM_TEXT, 12, tie_break="lexicographic", stop_at_single=True)
    assert expected.stopped_early and len(expected.merges) < 12
    stepper.locator("summary").click()
    form = stepper.locator(".bpe-train-form")
    form.locator("textarea").press_sequentially(FORM_TEXT)
    form.locator("input[type=number]").fill("12")
    form.locator("select").select_option("lexicographic")
    form.locator(".bpe-stop-single").check()
    stepper.locator("button.bpe-train").click()
    message = stepper.locator(".bpe-message")
    expect(message).to_contain_text(
        f"Trained in Python (train_bpe) on 7 words: {len(expected.merges)} merges.", timeout=WIDGET_TIMEOUT_MS
    )
    expect(message).to_contain_text("no pair occurs twice")
    total = len(expected.steps)
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step 0 of {total}")
    stepper.locator("button.bpe-next").click()
    for n, step in enumerate(expected.steps, start=1):
        if n > 1:
            page.keyboard.press("n")
        expect_step(stepper, n, total, step, None)


def test_in_jupyterlab_the_train_form_trains_with_python(
    lab_page: Page, lab_server: RunningServer, one_stepper_notebook: str
) -> None:
    """Issue 30 item 6: the stepper's "train on your own text" form in JupyterLab: typed (letters such as b and n
    included, which must not edit the notebook), trained by Python's train_bpe, stepped with the keys."""
    page = lab_page
    stepper, cells = _stepper_at_step_0(page, lab_server.url, one_stepper_notebook)
    train_in_the_form_with_python(page, stepper)
    save_screenshot(page, "lab_stepper_trained_with_python", locator=stepper)
    assert page.evaluate(CELL_COUNT_JS) == cells, "typing in the form edited the notebook"


def test_in_jupyterlab_the_train_form_shows_pythons_progress_while_it_trains(
    lab_page: Page, lab_server: RunningServer, one_stepper_notebook: str
) -> None:
    """Read 13 of lesson 04: the form said only "Training in Python…" for as long as training took. The page now
    sees the count grow ("n of N merges", sent by the kernel while train_bpe runs), then the trained run; the text
    is the longest English the form trains its most merges on (MOST_WORK)."""
    from bpelab.widgets.form_training import MOST_MERGES, most_merges_for, progress_message

    page = lab_page
    text = real_text()
    while most_merges_for(text) < MOST_MERGES:  # cut at a space until the form allows its most merges
        text = text[: text.rindex(" ", 0, len(text) * 9 // 10)]
    stepper, _ = _stepper_at_step_0(page, lab_server.url, one_stepper_notebook)
    stepper.locator("summary").click()
    stepper.locator("textarea").fill(text)
    stepper.locator(".bpe-train-form input[type=number]").fill(str(MOST_MERGES))
    stepper.evaluate(
        """(box) => { window.bpeMessages = []; const m = box.querySelector('.bpe-message');
        new MutationObserver(() => window.bpeMessages.push(m.textContent)).observe(m, {childList: true, characterData: true, subtree: true}); }"""
    )
    stepper.locator("button.bpe-train").click()
    message = stepper.locator(".bpe-message")
    expect(message).to_contain_text("Trained in Python (train_bpe)", timeout=120_000)
    shown = page.evaluate("() => window.bpeMessages")
    counts = [m for m in shown if m.startswith("Training in Python… ")]
    assert progress_message(1, MOST_MERGES) in counts, shown
    assert any(m != progress_message(1, MOST_MERGES) for m in counts), f"the count never grew: {shown}"
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step 0 of {MOST_MERGES}")
    save_screenshot(page, "lab_stepper_trained_with_progress", locator=stepper)


# ---- Voilà: a lesson served as an app (issue 30, item 6) ----------------------------------------------------

VOILA_LESSON = "04_merging_step_by_step.ipynb"
"""The quickest lesson with a stepper in Voilà: its first stepper drawn 11.5 s after the page was asked for, against
23 s for lessons 11 and 16 (one measure each on a shared two-core machine); a whole run with nbconvert took 34 s,
against 39 s for 16, 44 s for 11, 100 s for 14 and 130 s for 07."""
VOILA_LESSON_LOAD_TIMEOUT_MS = 300_000
"""Voilà runs every cell of the lesson before the page's widgets are drawn."""


def test_in_voila_a_lessons_stepper_takes_the_keys_and_its_form_trains_with_python(
    page: Page, voila_app: Callable[[str], RunningServer]
) -> None:
    """Issue 30 item 6, on lesson 04 served by Voilà (one page load): with a button of its first stepper (the toy
    run, 10 merges) focused, → or N, ← or B, Home and End move it, and only it; its "train on your own text" form
    trains with Python's train_bpe (Voilà has a kernel), as in JupyterLab."""
    server = voila_app(VOILA_LESSON)
    page.goto(server.url + "/", wait_until="commit", timeout=VOILA_LESSON_LOAD_TIMEOUT_MS)
    stepper = page.locator(".bpe-stepper").first
    expect(stepper.locator(".bpe-step-label")).to_have_text("Step 0 of 10", timeout=VOILA_LESSON_LOAD_TIMEOUT_MS)
    expect(page.locator(".bpe-stepper")).to_have_count(3, timeout=WIDGET_TIMEOUT_MS)
    assert page.evaluate("() => globalThis.bpelabStatic === true") is False, "Voilà has a kernel"
    others = labels(page)[1:]
    stepper.locator("button.bpe-play").focus()
    press_keys_and_check(page, stepper)
    assert labels(page)[1:] == others, "the keys moved another stepper of the lesson"
    save_screenshot(page, "voila_lesson04_stepper_keys", locator=stepper)
    train_in_the_form_with_python(page, stepper)
    save_screenshot(page, "voila_lesson04_stepper_trained_with_python", locator=stepper)
