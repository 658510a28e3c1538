"""Mistral 7B (SentencePiece) in the explorer, the side-by-side view and the token-build panel, in Chromium.

On a static page opened as file:// (no kernel): the page loads Mistral's pieces script only when Mistral is chosen,
and its ids for typed text (English, Tamil, emoji with ZWJ, digits, runs of spaces) are the sentencepiece library's;
the side-by-side row of Mistral lines up with GPT-4o's and has the library's ids; a clicked chip opens its build by
score, the lines Python writes. In JupyterLab: the same views answered by Python. The page stays under 2 MB.
Screenshots go to test-output/browser/ (mistral_*).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sentencepiece as spm
from playwright.sync_api import Locator, Page, expect

from bpelab.sentencepiece import load_sentencepiece
from bpelab.sentencepiece_build import build_piece
from bpelab.vocab_files import require_sentencepiece
from bpelab.widgets.token_build_view import build_lines
from bpelab.widgets.view_tokenizers import LABELS
from tests.browser.axe import axe_script, axe_violations, describe_violations
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import static_page_of, write_notebook

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
MISTRAL = LABELS["mistral_v1"]
NOTEBOOK = "99_mistral.ipynb"
STORED = "Tokenizers don't read words."
TYPED = [
    "Typed here: naïve café, 2024-11-27, don't   stop",
    "தமிழ் எழுத்து முறை 👩\u200d👩\u200d👧 👍🏽 🙂",
    "  leading spaces, e\u0301 東京 हिन्दी\n\tend  ",
]


def library() -> spm.SentencePieceProcessor:
    return spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))


def mistral_notebook(folder: Path) -> Path:
    return write_notebook(
        folder / NOTEBOOK,
        "99 — Mistral in the views",
        f"from bpelab.widgets import EncodeExplorer\nEncodeExplorer(text={STORED!r})",
        "from bpelab.widgets import CompareView\n"
        f"CompareView(text={STORED!r}, chosen=['GPT-4o (o200k_base)', 'Llama 3', {MISTRAL!r}])",
    )


@pytest.fixture(scope="module")
def static_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return static_page_of(
        mistral_notebook(tmp_path_factory.mktemp("mistral-notebook")), tmp_path_factory.mktemp("site")
    )


def shown_ids(explorer: Locator) -> list[int]:
    lines = explorer.locator(".bpe-explorer-chips .bpe-chip-id").all_inner_texts()
    return [int(part) for line in lines for part in line.split()]


def type_under_mistral(page: Page, explorer: Locator, where: str) -> None:
    explorer.locator(".bpe-tokenizer-select select").select_option(label=MISTRAL)
    count = explorer.locator(".bpe-token-count")
    for k, text in enumerate(TYPED):
        explorer.locator(".bpe-explorer-input textarea").fill(text)
        expected = library().encode(text)
        expect(count).to_contain_text(re.compile(rf"^\s*{len(expected)} tokens?"), timeout=TIMEOUT_MS)
        assert shown_ids(explorer) == expected, text
        chips = explorer.locator(".bpe-explorer-chips .bpe-chip > span[aria-hidden]:first-child").all_inner_texts()
        assert "\ufffd" not in "".join(chips)  # byte pieces drawn as the characters they spell
        save_screenshot(page, f"mistral_explorer_{where}_{k}", locator=explorer)


def open_a_build(page: Page, explorer: Locator) -> None:
    """Click the chip of ▁Token ("Tokenizers" typed): its steps are Python's, by score."""
    explorer.locator(".bpe-explorer-input textarea").fill("Tokenizers")
    expect(explorer.locator(".bpe-token-count")).to_contain_text(re.compile(r"^\s*2 tokens"), timeout=TIMEOUT_MS)
    explorer.locator(".bpe-explorer-chips .bpe-chip").first.click()
    model = load_sentencepiece("mistral_v1")
    lines = build_lines(build_piece(model, model.piece_to_id["▁Token"]))
    panel = explorer.locator(".bpe-token-build")
    expect(panel.locator(".bpe-step-label")).to_have_text("Step 0 of 5", timeout=TIMEOUT_MS)
    assert "Step 0 of 5: " + panel.locator(".bpe-tb-step").inner_text() == lines[1]
    page.keyboard.press("End")
    expect(panel.locator(".bpe-tb-step")).to_have_text(lines[6].removeprefix("Step 5 of 5: "))
    expect(panel).to_contain_text("SentencePiece joins the pair forming the highest-scoring piece first")
    save_screenshot(page, "mistral_token_build", locator=panel)


def compare_rows(page: Page, where: str) -> None:
    view = page.locator(".bpe-compare").first
    text = TYPED[1]
    view.locator("textarea").fill(text)
    page.wait_for_function(
        "([root, text]) => root.querySelector('.bpe-compare-grid')?.dataset.text === text"
        " && !root.querySelector('.bpe-compare-message')",
        arg=[view.element_handle(), text],
        timeout=TIMEOUT_MS,
    )
    row = view.locator('.bpe-compare-row[data-tokenizer="mistral_v1"]')
    ids = [int(i) for chip in row.locator(".bpe-chip").all() for i in (chip.get_attribute("data-ids") or "").split()]
    assert ids == library().encode(text)[1:]  # the dummy prefix alone before த covers no byte: no chip of its own
    save_screenshot(page, f"mistral_compare_{where}", locator=view)


def test_static_page_runs_mistral_only_when_chosen(page: Page, static_page: Path) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(static_page.as_uri())
    explorer = page.locator(".bpe-explorer").first
    expect(explorer).to_be_visible(timeout=TIMEOUT_MS)
    expect(explorer.locator(".bpe-explorer-note")).to_contain_text("writes a space as ▁")
    explorer.locator(".bpe-explorer-input textarea").fill("no Mistral yet")
    assert not [url for url in requests if "sentencepiece/" in url]
    type_under_mistral(page, explorer, "static")
    assert len([url for url in requests if url.endswith("/sentencepiece/mistral_v1.js")]) == 1
    open_a_build(page, explorer)
    compare_rows(page, "static")
    off_disk = [url for url in requests if not url.startswith(("file:", "data:", "blob:"))]
    assert not off_disk, f"the page asked the network for {off_disk}"
    assert static_page.stat().st_size <= 2_000_000
    axe_script()
    found = axe_violations(page, [".bpe-explorer", ".bpe-compare"])
    assert not found, describe_violations(found)


def test_jupyterlab_offers_mistral_with_python(lab_page: Page, lab_server: RunningServer, lab_root: Path) -> None:
    mistral_notebook(lab_root)
    lab_page.set_viewport_size({"width": 1280, "height": 900})
    open_notebook(lab_page, lab_server.url, NOTEBOOK)
    run_all_cells(lab_page)
    explorer = lab_page.locator(".bpe-explorer").first
    expect(explorer).to_be_visible(timeout=TIMEOUT_MS)
    type_under_mistral(lab_page, explorer, "jupyterlab")
    open_a_build(lab_page, explorer)
    compare_rows(lab_page, "jupyterlab")
