"""Tokenizers side by side in a real browser: in a static page opened as file:// (no kernel; the page
encodes typed text itself) and in JupyterLab (Python encodes), for four tokenizers on generated
multilingual text, each row's ids are tiktoken's (or bpelab's, for a lesson tokenizer) and the marked
bands hold exactly the byte ranges where the rows' cut positions differ (computed here from tiktoken's
and bpelab's own tokens with ``bpelab.cuts``). On interface text in Hindi and Tamil, where many
stretches are a few bytes inside one character, the ≠ marks and the bands are measured: no two marks
overlap, no band's dashed edge runs through a mark or a chip. axe-core: no serious or critical finding.
Screenshots go to test-output/browser/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import regex
from playwright.sync_api import Locator, Page, expect

from bpelab import read_corpus, split_text, train_bpe
from bpelab.cuts import compared_lengths, covering_lengths, differing_spans
from bpelab.production import FRIENDLY_NAMES, load_encoding
from bpelab.widgets.encoders import encoder_for
from bpelab.words import END_OF_WORD
from tests.browser.axe import axe_script, axe_violations, describe_violations
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import static_page_of, write_notebook
from tests.test_js_training import generated_texts

pytestmark = pytest.mark.browser

WIDGET_TIMEOUT_MS = 30_000
WORDS = r"\w+|[^\w\s]+"
TOY_CORPUS = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
HARD = "Why is Kubernetes one token? 東京 naïve e\u0301 👩\u200d👩\u200d👧 👍🏽 2024-11-25 ١٢٣ नमस्ते"


def typed_texts() -> list[str]:
    """The hand-made hard text, then generated ones (many scripts, ZWJ, combining marks, digits)."""
    generated = [t for t in generated_texts(60, seed=9) if 20 < len(t.encode()) < 200][:3]
    return [HARD, *(t.replace("\r\n", "\n") for t in generated)]  # a text box keeps line ends as \n


def expected_rows(text: str, rows: list[tuple[str, Any]]) -> tuple[dict[str, list[str]], list[list[int]]]:
    """Each row's ids as the page writes them, and the marked spans, from tiktoken and bpelab alone."""
    ids, lengths = {}, []
    for name, tokenizer in rows:
        if isinstance(tokenizer, str):
            encoding = load_encoding(tokenizer)
            row_ids = encoding.encode_ordinary(text)
            pieces: list[Any] = list(encoding.decode_tokens_bytes(row_ids))
            word_end = None
        else:
            row_ids, pieces = encoder_for(tokenizer, WORDS)(text)
            word_end = END_OF_WORD
        ids[name] = [str(i) for i in row_ids]
        lengths.append(compared_lengths(covering_lengths(text, pieces, word_end)))
    return ids, [list(span) for span in differing_spans(lengths)]


def shown(view: Locator, text: str, page: Page) -> tuple[dict[str, list[str]], list[list[int]]]:
    """Wait until every row shows ``text``; read each row's ids and the stretches the bands hold."""
    page.wait_for_function(
        "([root, text]) => root.querySelector('.bpe-compare-grid')?.dataset.text === text"
        " && !root.querySelector('.bpe-compare-message')",  # every row drawn, none still waiting for Python
        arg=[view.element_handle(), text],
        timeout=WIDGET_TIMEOUT_MS,
    )
    return view.evaluate(
        """(root) => [
            Object.fromEntries([...root.querySelectorAll('.bpe-compare-row')].map((row) => [row.dataset.tokenizer,
                [...row.querySelectorAll('.bpe-chip')].flatMap((chip) => chip.dataset.ids.split(' '))])),
            [...root.querySelectorAll('.bpe-compare-differs')].flatMap((band) => band.dataset.spans.split(' ')
                .map((span) => span.split('-').map(Number))),
        ]"""
    )


def type_and_check(page: Page, view: Locator, rows: list[tuple[str, Any]], label: str) -> None:
    for k, text in enumerate(typed_texts()):
        view.locator("textarea").fill(text)
        want_ids, want_spans = expected_rows(text, rows)
        got_ids, got_spans = shown(view, text, page)
        assert got_ids == want_ids, text
        assert got_spans == want_spans, text
        if k == 0:
            save_screenshot(page, f"compare_{label}_hard_text", locator=view)


# ---- a static page: no kernel ------------------------------------------------------------------

STATIC_ROWS = ["toy, 10 merges", *(FRIENDLY_NAMES[n] for n in ("r50k_base", "cl100k_base", "o200k_base"))]


@pytest.fixture(scope="module")
def static_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-view notebook run as the lessons are (widget state stored), exported as `make html` does."""
    notebook = write_notebook(
        tmp_path_factory.mktemp("compare-notebook") / "99_compare.ipynb",
        "99 — Side by side, static",
        "from bpelab import train_bpe\nfrom bpelab.widgets import CompareView\n"
        f"toy = train_bpe({TOY_CORPUS!r}, 10)\n"
        f"CompareView({{'toy, 10 merges': toy}}, production=('r50k_base', 'cl100k_base', 'o200k_base'), "
        f"chosen={STATIC_ROWS!r}, word_split={WORDS!r}, text='low lowest 2024')",
    )
    return static_page_of(notebook, tmp_path_factory.mktemp("compare-site"))


def test_a_link_reopens_the_same_text_and_rows(page: Page, static_page: Path) -> None:
    """The text and the ticked rows live in the page address: opening it again shows the same view."""
    page.goto(static_page.as_uri())
    view = page.locator(".bpe-compare")
    expect(view).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    text = "Kubernetes 👩\u200d👩\u200d👧 e\u0301\nline two"
    view.locator("label", has_text="toy, 10 merges").locator("input").uncheck()  # three rows: GPT-2, GPT-4, GPT-4o
    view.locator("textarea").fill(text)
    shown(view, text, page)
    page.wait_for_function("() => location.hash.includes('bpe-w')", timeout=WIDGET_TIMEOUT_MS)
    address = page.url
    page.goto("about:blank")
    page.goto(address)
    again = page.locator(".bpe-compare")
    expect(again.locator("textarea")).to_have_value(text, timeout=WIDGET_TIMEOUT_MS)
    rows = dict(zip(STATIC_ROWS[1:], ("r50k_base", "cl100k_base", "o200k_base"), strict=True))
    want_ids, want_spans = expected_rows(text, list(zip(rows, rows.values(), strict=True)))
    got_ids, got_spans = shown(again, text, page)
    assert list(got_ids) == list(rows.values())  # the rows the link named, no more
    assert got_ids == {rows[label]: ids for label, ids in want_ids.items()} and got_spans == want_spans


def test_static_page_rows_have_tiktokens_ids_and_bands_where_cuts_differ(page: Page, static_page: Path) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(static_page.as_uri())
    view = page.locator(".bpe-compare")
    expect(view).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    toy = train_bpe(TOY_CORPUS, 10)
    rows: list[tuple[str, Any]] = [
        ("toy, 10 merges", toy),
        *((n, n) for n in ("r50k_base", "cl100k_base", "o200k_base")),
    ]
    type_and_check(page, view, rows, "static_1280x720")
    save_screenshot(page, "compare_static_1280x720_page")
    off_disk = [url for url in requests if not url.startswith(("file:", "data:", "blob:"))]
    assert not off_disk, f"the page asked the network for {off_disk}"
    # at most four rows: with four ticked, the fifth box cannot be ticked; with two, none can be unticked
    boxes = view.locator("fieldset input")
    assert boxes.count() == 4  # the toy and three production tokenizers: all chosen
    axe_script()
    found = axe_violations(page, [".bpe-compare"])
    assert not found, describe_violations(found)


# ---- JupyterLab: Python encodes, Llama 3 included -------------------------------------------------

LESSON_05 = "05_encoding_and_decoding.ipynb"
ENGLISH = "your word-level BPE (English, 1000 merges)"


def test_lesson05_view_in_jupyterlab_has_python_s_ids_with_llama3_and_the_bands(
    lab_page: Page, lab_server: RunningServer
) -> None:
    lab_page.set_viewport_size({"width": 1280, "height": 720})
    open_notebook(lab_page, lab_server.url, LESSON_05)
    run_all_cells(lab_page)
    view = lab_page.locator(".bpe-compare").first
    expect(view).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    view.scroll_into_view_if_needed()
    save_screenshot(lab_page, "compare_lesson05_lab_1280x720")
    # GPT-2 out, Llama 3 in: four rows, the lesson's own first
    view.get_by_role("checkbox", name=FRIENDLY_NAMES["r50k_base"]).uncheck()
    view.get_by_role("checkbox", name="Llama 3").check()
    english = train_bpe(" ".join(split_text(read_corpus("english_train"), WORDS)), 1000, method="fast")
    rows: list[tuple[str, Any]] = [(ENGLISH, english), *((n, n) for n in ("cl100k_base", "o200k_base", "llama3"))]
    type_and_check(lab_page, view, rows, "lab_lesson05")
    axe_script()
    found = axe_violations(lab_page, [".bpe-compare"])
    assert not found, describe_violations(found)


# ---- the hook the token-build panel will open from ----------------------------------------------


def test_a_chip_click_calls_on_chip_click_with_its_tokens_by_mouse_and_by_keyboard(page: Page, tmp_path: Path) -> None:
    """``renderCompare({model, el, onChipClick})``: a click (or Enter on a focused chip) hands over the
    chip's tokenizer, ids and byte range; ` Kubernetes` under GPT-4o is one token, tiktoken's id."""
    from bpelab.widgets import CompareView
    from tests.browser.standalone import standalone_page

    text = "Why is Kubernetes one token?"
    widget = CompareView(text=text, chosen=[FRIENDLY_NAMES["r50k_base"], FRIENDLY_NAMES["o200k_base"]])
    entry = "((args) => renderCompare({ ...args, onChipClick: (chip) => { globalThis.clicked = chip; } }))"
    page.goto(standalone_page(widget, entry, tmp_path))
    row = page.locator(".bpe-compare-row[data-tokenizer='o200k_base']")
    chip = row.locator(".bpe-chip").filter(has_text="Kubernetes")
    expect(chip).to_have_count(1, timeout=WIDGET_TIMEOUT_MS)
    chip.click()
    clicked = page.evaluate("() => { const c = globalThis.clicked; return [c.name, c.ids, c.start, c.end]; }")
    assert clicked == ["o200k_base", load_encoding("o200k_base").encode_ordinary(" Kubernetes"), 6, 17]
    page.evaluate("() => { globalThis.clicked = null; }")
    gpt2 = page.locator(".bpe-compare-row[data-tokenizer='r50k_base'] .bpe-chip").filter(has_text="ber")
    gpt2.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => globalThis.clicked.name") == "r50k_base"


# ---- narrow stretches: the marks and the bands, measured -----------------------------------------

UI_TEXTS = {  # menu and dialog words, where the rows cut inside conjuncts and vowel signs at different bytes
    "hindi": "फ़ाइल खोलें | सहेजें | रद्द करें | सेटिंग्स | खोजें… — नमस्ते",
    "tamil": "கோப்பைத் திற | சேமி | ரத்து செய் | அமைப்புகள் | தேடு… — வணக்கம்",
}
MEASURE = """(root) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  const glyph = (e) => { const range = document.createRange(); range.selectNodeContents(e); return box(range); };
  const border = (e) => parseFloat(getComputedStyle(e).borderLeftWidth);
  return {
    bands: [...root.querySelectorAll('.bpe-compare-differs')].map((b) => ({ ...box(b), border: border(b), start: b.dataset.start, end: b.dataset.end })),
    marks: [...root.querySelectorAll('.bpe-compare-mark')].map((m) => ({ ...box(m), glyph: glyph(m), start: m.dataset.start, end: m.dataset.end })),
    chips: [...root.querySelectorAll('.bpe-compare-row .bpe-chip')].map((c) => ({ ...box(c), text: c.textContent })),
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    """Whether two boxes share more than ``slack`` pixels each way (touching is not overlapping)."""
    return min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack and (
        min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack
    )


@pytest.mark.parametrize("language", sorted(UI_TEXTS))
def test_narrow_stretches_get_marks_that_overlap_nothing_and_bands_that_cut_no_chip(
    page: Page, tmp_path: Path, language: str
) -> None:
    from bpelab.widgets import CompareView
    from tests.browser.standalone import standalone_page

    text = UI_TEXTS[language]
    widget = CompareView(text=text)
    page.goto(standalone_page(widget, "renderCompare", tmp_path))
    view = page.locator(".bpe-compare")
    _ids, spans = shown(view, text, page)
    assert spans == [list(s) for s in widget.differing_spans]  # every stretch in exactly one band
    edges, at = {0}, 0  # where characters as you see them end (regex's \X), in bytes
    for character in regex.findall(r"\X", text):
        at += len(character.encode("utf-8"))
        edges.add(at)
    inside_a_character = [s for s in widget.differing_spans if not {s[0], s[1]} <= edges]
    assert len(inside_a_character) >= 4, f"{language}: too few stretches inside a character: {inside_a_character}"
    save_screenshot(page, f"compare_narrow_stretches_{language}", locator=view.locator(".bpe-compare-scroll"))
    found = view.evaluate(MEASURE)
    marks, bands, chips = found["marks"], found["bands"], found["chips"]
    assert len(marks) == len(bands) and chips
    for k, mark in enumerate(marks):
        for other in marks[k + 1 :]:
            assert not overlap(mark, other), f"the ≠ of bytes {mark['start']}–{mark['end']} overlaps the next"
        assert not any(overlap(mark, chip) for chip in chips), (
            f"the ≠ of bytes {mark['start']}–{mark['end']} covers a chip"
        )
        band = next(b for b in bands if (b["start"], b["end"]) == (mark["start"], mark["end"]))
        inside = (band["left"] + band["border"], band["right"] - band["border"])
        assert inside[0] <= mark["glyph"]["left"] and mark["glyph"]["right"] <= inside[1], (
            f"a dashed edge of the band at bytes {band['start']}–{band['end']} runs through its ≠"
        )
    for band in bands:
        for edge in (band["left"], band["right"]):
            cut = [c["text"] for c in chips if c["left"] + 1 < edge < c["right"] - 1 and overlap(c, band)]
            assert not cut, f"the band at bytes {band['start']}–{band['end']} has an edge through the chips {cut}"
