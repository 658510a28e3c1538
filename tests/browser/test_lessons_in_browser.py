"""The lessons' widgets, used as a learner uses them: in JupyterLab, in Chromium, by clicking and typing.

Unit tests already call the widgets' Python API; these check what only a browser shows: that the
widget renders at all (not its text fallback), that a click reaches the kernel and the view is
redrawn, and that what is drawn agrees with an answer computed here, independently of the page.
Each test runs a COPY of the lesson (see conftest.py) and saves a screenshot to test-output/browser/.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import regex
import tiktoken
from playwright.sync_api import Locator, Page, expect

from bpelab import train_bpe
from bpelab.course.setup_check import WIDGET_FALLBACK
from bpelab.paths import REPO_ROOT
from bpelab.words import TrainingResult
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer

pytestmark = pytest.mark.browser

WIDGET_TIMEOUT_MS = 30_000


def lesson_path(name: str) -> Path:
    """The lesson in the repository; a missing lesson fails loudly (the test says what it needs)."""
    path = REPO_ROOT / "notebooks" / name
    if not path.exists():
        pytest.fail(f"notebooks/{name} does not exist: this test needs the lesson (see its docstring)")
    return path


def run_lesson(page: Page, server: RunningServer, name: str) -> None:
    """Open lesson ``name`` (the server's copy of it) in JupyterLab and run all its cells."""
    lesson_path(name)
    open_notebook(page, server.url, name)
    run_all_cells(page)


def code_cell_with(page: Page, source_fragment: str) -> Locator:
    """The first code cell whose source contains ``source_fragment``."""
    cell = page.locator(".jp-CodeCell").filter(has=page.locator(".jp-InputArea", has_text=source_fragment)).first
    expect(cell, f"no code cell containing {source_fragment!r}").to_have_count(1)
    return cell


# ---- lesson 00: the setup check --------------------------------------------------------------


def test_lesson00_environment_check_shows_a_live_widget(lab_page: Page, lab_server: RunningServer) -> None:
    """The setup cell prints an all-✅ report, and ``widget_probe()`` draws a real widget: its green
    box is in the page and its text fallback (shown where it is not drawn) is not."""
    run_lesson(lab_page, lab_server, "00_start_here.ipynb")
    cell = code_cell_with(lab_page, "widget_probe()")
    output = cell.locator(".jp-OutputArea")

    probe = output.locator(".jupyter-widgets.widget-html", has_text="widgets render")
    expect(probe).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    expect(output).not_to_contain_text(WIDGET_FALLBACK)

    report = output.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stdout']").inner_text()
    assert "Python" in report and "cl100k" in report, f"the setup report is missing rows:\n{report}"
    assert "❌" not in report, f"the setup check found a problem in the browser's kernel:\n{report}"
    save_screenshot(lab_page, "lesson00_environment_check", locator=cell)


# ---- lesson 04: the merge stepper -------------------------------------------------------------

LESSON_04 = "04_merging_step_by_step.ipynb"
CORPUS_04 = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
MERGES_04 = 10
SOURCE_04 = (
    'corpus = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2',
    "result = train_bpe(corpus, 10)",
    "stepper = MergeStepper(result)",
)
"""How the lesson builds its FIRST stepper: the test replays the same training, so it checks that
the lesson still says so before trusting the comparison."""


def lesson_sources(name: str) -> str:
    return "\n".join(cell.source for cell in nbformat.read(lesson_path(name), as_version=4).cells)


def expect_step(stepper: Locator, result: TrainingResult, n: int) -> None:
    """The stepper shows step ``n``: its label, the pair merged at step n, and that pair drawn as
    merged chips wherever the new symbol now stands in the corpus."""
    total = len(result.steps)
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step {n} of {total}", timeout=WIDGET_TIMEOUT_MS)
    step = result.steps[n - 1]
    a, b = step.pair
    pair_view = stepper.locator(".bpe-pair")
    expect(pair_view).to_contain_text(f"Merged at step {n}:")
    expect(pair_view).to_contain_text(f"{a!r} + {b!r}")
    expect(pair_view).to_contain_text(f"{a + b!r} (count {step.count})")
    # the new symbol exists only because of this merge: each place it stands is a merged chip
    merged_here = [step.new_symbol] * sum(word.count(step.new_symbol) for word in step.word_freq)
    # the chip's visible label (screen readers get a spoken text beside it, hidden from the eye)
    labels = stepper.locator(".bpe-words .bpe-chip-merged > span[aria-hidden='true']:not(.bpe-chip-id):visible")
    expect(labels).to_have_text(merged_here)


def test_lesson04_stepper_next_and_back_match_train_bpe(lab_page: Page, lab_server: RunningServer) -> None:
    """In the lesson's first stepper, three clicks of Next show "Step 3 of N" and the pair merged at
    step 3 by ``train_bpe`` run here on the same corpus (``result.steps[2].pair``), drawn as merged
    chips; one click of Back then shows step 2."""
    sources = lesson_sources(LESSON_04)
    for line in SOURCE_04:
        assert line in sources, f"{LESSON_04} no longer contains {line!r}: update CORPUS_04 and SOURCE_04 here"
    result = train_bpe(CORPUS_04, MERGES_04)
    assert len(result.steps) == MERGES_04

    run_lesson(lab_page, lab_server, LESSON_04)
    stepper = lab_page.locator(".bpe-stepper").first
    expect(stepper).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    stepper.scroll_into_view_if_needed()
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step 0 of {MERGES_04}")

    for n in (1, 2, 3):
        stepper.locator(".bpe-next").click()
        expect_step(stepper, result, n)  # wait for each redraw: a click is a round trip to the kernel
    save_screenshot(lab_page, "lesson04_stepper_after_3_next", locator=stepper)

    stepper.locator(".bpe-back").click()
    expect_step(stepper, result, 2)


CELL_COUNT_JS = "() => window.jupyterapp.shell.currentWidget.content.widgets.length"


def test_lesson04_after_a_click_on_its_words_or_chips_the_keys_step_and_never_edit_the_notebook(
    lab_page: Page, lab_server: RunningServer
) -> None:
    """Issue 30 item 6: a learner clicks a word row (or a chip of the pair table, anything that is not a
    control) in the lesson's first stepper, then presses N: the stepper steps and JupyterLab does not take
    the key; B steps back and inserts no cell (in command mode B inserts a cell below). Typing in the
    stepper's own text box still types, b and n included, and moves no step."""
    result = train_bpe(CORPUS_04, MERGES_04)
    run_lesson(lab_page, lab_server, LESSON_04)
    page = lab_page
    stepper = page.locator(".bpe-stepper").first
    expect(stepper).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    stepper.scroll_into_view_if_needed()
    expect(stepper.locator(".bpe-step-label")).to_have_text(f"Step 0 of {MERGES_04}")
    cells = page.evaluate(CELL_COUNT_JS)

    stepper.locator(".bpe-word-row").nth(1).click()  # a word row: no control, nothing focusable
    page.keyboard.press("n")
    expect_step(stepper, result, 1)
    page.keyboard.press("N")
    expect_step(stepper, result, 2)
    page.keyboard.press("b")
    expect_step(stepper, result, 1)
    stepper.locator(".bpe-pair-table code").first.click()  # a pair's chip text in the pair table
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect_step(stepper, result, 3)
    page.keyboard.press("B")
    expect_step(stepper, result, 2)
    save_screenshot(page, "lesson04_keys_after_a_click_on_the_words", locator=stepper)
    assert page.evaluate(CELL_COUNT_JS) == cells, "a key pressed after a click in the stepper edited the notebook"

    stepper.locator("summary").click()  # the "train on your own text" form
    box = stepper.locator(".bpe-train-form textarea")
    box.click()
    box.press("Control+End")
    box.press_sequentially(" bnbn")
    expect(box).to_have_value(re.compile(r" bnbn$"))
    expect_step(stepper, result, 2)
    assert page.evaluate(CELL_COUNT_JS) == cells, "typing in the stepper's text box edited the notebook"


# ---- lesson 05: the encode explorer -----------------------------------------------------------

LESSON_05 = "05_encoding_and_decoding.ipynb"
GPT4_LABEL = "GPT-4 (cl100k_base)"
SENTENCE = "Café crème at 9 am? Naïve tokenizers meet 🙂 and 👍🏽."
"""Accents (one token or several?), a digit, an emoji that is one token, and one that cl100k cuts
into five byte pieces (thumbs up + skin tone): the case where chips and tokens differ."""


def chips_expected(text: str, token_bytes: list[bytes]) -> int:
    """How many chips a tokenization should draw, counted without bpelab: a chip ends where a token
    ends on a grapheme boundary (a token ending inside a character joins the next one)."""
    boundaries = set()
    offset = 0
    for grapheme in regex.findall(r"\X", text):
        offset += len(grapheme.encode("utf-8"))
        boundaries.add(offset)
    ends, offset = [], 0
    for piece in token_bytes:
        offset += len(piece)
        ends.append(offset)
    return sum(end in boundaries for end in ends)


def test_lesson05_explorer_counts_tokens_like_tiktoken(lab_page: Page, lab_server: RunningServer) -> None:
    """Typing a sentence into the explorer (GPT-4 selected) shows tiktoken's cl100k_base token count,
    the UTF-8 byte count, and one chip per grapheme-aligned group of tokens."""
    encoding = tiktoken.get_encoding("cl100k_base")
    ids = encoding.encode(SENTENCE)
    n_bytes = len(SENTENCE.encode("utf-8"))
    n_chips = chips_expected(SENTENCE, [encoding.decode_single_token_bytes(i) for i in ids])
    assert n_chips < len(ids), "the sentence should contain a character cut into several tokens"

    run_lesson(lab_page, lab_server, LESSON_05)
    explorers = lab_page.locator(".bpe-explorer").filter(
        has=lab_page.locator(".bpe-tokenizer-select option", has_text=GPT4_LABEL)
    )
    expect(explorers.first, f"no encode explorer offering {GPT4_LABEL}").to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    explorer = explorers.first
    explorer.scroll_into_view_if_needed()

    explorer.locator(".bpe-tokenizer-select select").select_option(label=GPT4_LABEL)
    box = explorer.locator(".bpe-explorer-input textarea")
    box.fill("")
    box.press_sequentially(SENTENCE)  # a keystroke at a time, as a learner types

    count = explorer.locator(".bpe-token-count")
    # the byte count proves the view shows THIS text; then the token count must be tiktoken's
    expect(count).to_contain_text(f"{n_bytes} bytes", timeout=WIDGET_TIMEOUT_MS)
    shown = re.search(r"(\d+)\s+tokens", count.inner_text())
    assert shown, f"no token count in {count.inner_text()!r}"
    assert int(shown.group(1)) == len(ids), f"explorer shows {shown.group(1)} tokens, tiktoken gives {len(ids)}"
    expect(explorer.locator(".bpe-explorer-chips .bpe-chip")).to_have_count(n_chips)
    save_screenshot(lab_page, "lesson05_explorer_gpt4_sentence", locator=explorer)
