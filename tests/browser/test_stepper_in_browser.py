"""The merge stepper in a real browser: in the static site with no kernel, and in JupyterLab's
narrow default layout.

Static site (issue 11, item 1): COPIES of lessons 04, 07 and 11 are executed with
``bpelab.course.lessons.run_lesson`` (which stores widget state), written out as pages by the site
writer (``bpelab.course.html_export``), and opened as ``file://`` in Chromium, with no server. Next
is pressed three times on the lesson's first stepper; the page must then show what the trainer (or,
in lesson 07, the encoder replay) computes for step 3, here in the test: the merged pair, the new
symbol and its count. Back, First, Last and the → key are checked on lesson 04 as well.

JupyterLab (issue 11, item 4): at 1280×800 with the file browser open, no text element of the
stepper is wider than its box (``scrollWidth`` against ``clientWidth``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Locator, Page, expect

from bpelab import train_bpe
from bpelab.analysis.replay import replay_word
from bpelab.course.lessons import run_lesson
from bpelab.course.paths import REPO_ROOT
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
    installed = page.evaluate("() => window.__bpeStepperStatic === true")
    assert installed, (
        "the page does not run bpelab/widgets/static/stepper.js: the site writer (bpelab/course/html_export.py) "
        "must add every bpelab/widgets/static/*.js to each page, after the widget manager"
    )
    elsewhere = sorted({url for url in requests if not url.startswith(("file:", "data:"))})
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
    # lesson 04's real-text stepper stores its first steps only: a later one says it needs a kernel
    real = page.locator(".bpe-stepper").filter(has=page.locator(".bpe-static-note")).first
    real.scroll_into_view_if_needed()
    note = real.locator(".bpe-static-note").inner_text()
    stored = int(note.split("shows steps 0 to ")[1].split(";")[0])
    real.locator("button.bpe-last").click()
    expect(real.locator(".bpe-views")).to_contain_text("needs a running kernel", timeout=WIDGET_TIMEOUT_MS)
    real.locator("button.bpe-first").click()
    for n in range(1, stored + 1):
        real.locator("button.bpe-next").click()
        expect(real.locator(".bpe-step-label")).to_contain_text(f"Step {n} of ", timeout=WIDGET_TIMEOUT_MS)
    real.locator("button.bpe-next").click()
    expect(real.locator(".bpe-views")).to_contain_text(f"Step {stored + 1} needs a running kernel")


def test_a_lesson_with_widget_state_stays_under_one_megabyte(static_site: Path) -> None:
    """The precomputed views are bounded: lesson 04 holds three steppers, one over 200 merges."""
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
