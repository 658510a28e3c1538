"""How a token was built, in a real browser: click a chip of the explorer, step through the panel.

Under GPT-4o, ` Kubernetes` is one token; clicking its chip opens the panel (class ``bpe-token-build``),
and stepping with Next and the arrow keys reaches "Step n of n" with one chip holding tiktoken's id.
At every step the parts shown join back into the token, and the line the panel writes is the one
Python writes (``bpelab.widgets.token_build_view.build_lines``): on the static page JavaScript built it
(token_build.js on js-tiktoken's ranks), in JupyterLab Python did. A chip GPT-2 cuts in two tokens
(東, three UTF-8 bytes) opens its first token, drawn as bytes, and a second click its second; a chip of
lesson 03's toy word-level tokenizer is built from its merge log. A chip clicked in the side-by-side view
opens the same panel.
axe-core: no serious or critical finding in the panel.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from bpelab.production import FRIENDLY_NAMES, load_encoding, mergeable_ranks
from bpelab.token_build import build_with_ranks
from bpelab.widgets.token_build_view import build_lines, part_text
from tests.browser.axe import axe_script, axe_violations, describe_violations
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import static_page_of, write_notebook

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
WORD = " Kubernetes"
NAMES = ["r50k_base", "o200k_base"]
EXPLORER_NAMES = [*NAMES, "llama3"]
MADE_INSIDE = " температу"  # Llama 3: ' темп' + 'ерату', and 'ерату' has no parents of its own (lesson 07, section 7)
NOTEBOOK = "99_token_build.ipynb"
TOY_TEXT = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2  # lesson 03's toy corpus


def explorer_notebook(folder: Path) -> Path:
    return write_notebook(
        folder / NOTEBOOK,
        "99 — How a token was built",
        "from bpelab import train_bpe\nfrom bpelab.widgets import EncodeExplorer\n"
        f"toy = train_bpe({TOY_TEXT!r}, 10)\n"
        f"EncodeExplorer({{'toy': toy}}, production={EXPLORER_NAMES!r}, text='hi')",
        f"from bpelab.widgets import CompareView\nCompareView({{'toy': toy}}, production={NAMES!r}, text={WORD!r})",
    )


@pytest.fixture(scope="module")
def static_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return static_page_of(
        explorer_notebook(tmp_path_factory.mktemp("token-build-notebook")), tmp_path_factory.mktemp("token-build-site")
    )


def shown_parts(panel: Locator) -> list[str]:
    return [t for t in panel.locator(".bpe-tb-parts .bpe-chip > span[aria-hidden]:first-child").all_inner_texts()]


def choose_and_type(explorer: Locator, name: str, text: str) -> None:
    explorer.locator(".bpe-tokenizer-select select").select_option(label=FRIENDLY_NAMES[name])
    explorer.locator(".bpe-explorer-input textarea").fill(text)
    n = len(load_encoding(name).encode_ordinary(text))
    count = explorer.locator(".bpe-token-count")
    expect(count).to_contain_text(re.compile(rf"^\s*{n} tokens?"), timeout=TIMEOUT_MS)
    # the count in bold, the rest once: "1 token · 1 chip · …" once drew a stray "tokens" after the line
    assert count.locator("b").first.inner_text() == str(n)
    assert not re.search(r"bytes per token\s+tokens", count.inner_text()), count.inner_text()


def step_kubernetes_to_the_end(page: Page, explorer: Locator, where: str) -> None:
    """Click ` Kubernetes` under GPT-4o; Next once, then → to the end; every step as Python writes it."""
    enc = load_encoding("o200k_base")
    [token_id] = enc.encode_ordinary(WORD)
    build = build_with_ranks(enc.decode_single_token_bytes(token_id), mergeable_ranks(enc))
    n = len(build.steps)
    lines = build_lines(build)
    choose_and_type(explorer, "o200k_base", WORD)
    explorer.locator(".bpe-explorer-chips .bpe-chip").first.click()
    panel = explorer.locator(".bpe-token-build")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    label = panel.locator(".bpe-step-label")
    expect(label).to_have_text(f"Step 0 of {n}")
    save_screenshot(page, f"token_build_{where}_step0", locator=panel)
    panel.locator("button.bpe-next").click()
    for k in range(1, n + 1):
        expect(label).to_have_text(f"Step {k} of {n}")
        parts = shown_parts(panel)
        assert "".join(parts) == part_text(WORD.encode()), (k, parts)  # the shown parts replay to the token
        assert len(parts) == len(WORD.encode()) - k
        assert f"Step {k} of {n}: " + panel.locator(".bpe-tb-step").inner_text() == lines[k + 1]
        if k < n:
            page.keyboard.press("ArrowRight")
    expect(panel.locator("button.bpe-next")).to_be_disabled()
    last = panel.locator(".bpe-tb-parts .bpe-chip")
    expect(last).to_have_count(1)
    expect(last.locator(".bpe-chip-id")).to_have_text(str(token_id))
    expect(panel).to_contain_text(f"rank {token_id}")
    save_screenshot(page, f"token_build_{where}_last_step", locator=panel)
    page.keyboard.press("Home")
    expect(label).to_have_text(f"Step 0 of {n}")
    page.keyboard.press("End")
    expect(label).to_have_text(f"Step {n} of {n}")
    axe_script()
    found = axe_violations(page, [".bpe-token-build", ".bpe-explorer-chips"])
    assert not found, describe_violations(found)


def token_with_a_part_made_inside_it_is_built(page: Page, explorer: Locator, where: str) -> None:
    """Llama 3's ` температу`: reached (its parent `ерату` is made below its rank), every step as Python writes it."""
    ranks = mergeable_ranks("llama3")
    build = build_with_ranks(MADE_INSIDE.encode(), ranks)
    assert build.reachable
    lines = build_lines(build)
    n = len(build.steps)
    choose_and_type(explorer, "llama3", MADE_INSIDE)
    explorer.locator(".bpe-explorer-chips .bpe-chip").first.click()
    panel = explorer.locator(".bpe-token-build")
    expect(panel.locator(".bpe-step-label")).to_have_text(f"Step 0 of {n}", timeout=TIMEOUT_MS)
    expect(panel.locator(".bpe-tb-unreachable")).to_have_count(0)
    expect(panel.locator(".bpe-tb-inside")).to_have_text(lines[1])  # why ату sits under ерату, which ranks below it
    page.keyboard.press("End")
    expect(panel.locator(".bpe-step-label")).to_have_text(f"Step {n} of {n}")
    assert f"Step {n} of {n}: " + panel.locator(".bpe-tb-step").inner_text() in lines
    expect(panel.locator(".bpe-tb-parts .bpe-chip .bpe-chip-id")).to_have_text(str(ranks[MADE_INSIDE.encode()]))
    save_screenshot(page, f"token_build_{where}_made_inside", locator=panel)


def half_character_chip_opens_each_token(explorer: Locator) -> None:
    """GPT-2 cuts 東 into two tokens drawn as ONE chip: the first click opens the first (bytes), the second the second."""
    enc = load_encoding("r50k_base")
    first, second = (enc.decode_single_token_bytes(i) for i in enc.encode_ordinary("東"))
    choose_and_type(explorer, "r50k_base", "東")
    chip = explorer.locator(".bpe-explorer-chips .bpe-chip").first
    panel = explorer.locator(".bpe-token-build")
    chip.focus()
    chip.press("Enter")
    expect(panel.locator("h3")).to_contain_text(f"How {part_text(first)} was built")
    expect(panel).to_contain_text("token 1 of them")
    chip.click()
    expect(panel.locator("h3")).to_contain_text(f"How {part_text(second)} was built")
    assert "<" in part_text(first)  # half a character: drawn as its bytes


def word_level_chip_is_built_from_the_merge_log(page: Page, explorer: Locator) -> None:
    """The toy's `est</w>` (in "lowest"): e + s, es + t, est + </w>, merges 4 to 6 of its log, by hand."""
    explorer.locator(".bpe-tokenizer-select select").select_option(label="toy")
    explorer.locator(".bpe-explorer-input textarea").fill("lowest")
    expect(explorer.locator(".bpe-token-count")).to_contain_text(re.compile(r"^\s*2 tokens"), timeout=TIMEOUT_MS)
    explorer.locator(".bpe-explorer-chips .bpe-chip").nth(1).click()
    panel = explorer.locator(".bpe-token-build")
    expect(panel.locator(".bpe-step-label")).to_have_text("Step 0 of 3", timeout=TIMEOUT_MS)
    expect(panel.locator(".bpe-tb-step")).to_contain_text("The 4 symbols the word starts as")
    page.keyboard.press("End")
    expect(panel.locator(".bpe-step-label")).to_have_text("Step 3 of 3")
    expect(panel.locator(".bpe-tb-step")).to_have_text("Merged est + </w> → est</w> (merge 6).")


def side_by_side_chip_opens_the_panel(page: Page) -> None:
    """The side-by-side view's GPT-4o row: its one ` Kubernetes` chip opens the panel, stepped to the end."""
    enc = load_encoding("o200k_base")
    [token_id] = enc.encode_ordinary(WORD)
    n = len(build_with_ranks(enc.decode_single_token_bytes(token_id), mergeable_ranks(enc)).steps)
    view = page.locator(".bpe-compare").first
    row = view.locator('.bpe-compare-row[data-tokenizer="o200k_base"]')
    expect(row.locator(".bpe-chip")).to_have_count(1, timeout=TIMEOUT_MS)
    row.locator(".bpe-chip").click()
    panel = view.locator(".bpe-token-build")
    expect(panel.locator(".bpe-step-label")).to_have_text(f"Step 0 of {n}", timeout=TIMEOUT_MS)
    page.keyboard.press("End")
    expect(panel.locator(".bpe-step-label")).to_have_text(f"Step {n} of {n}")
    expect(panel.locator(".bpe-tb-parts .bpe-chip .bpe-chip-id")).to_have_text(str(token_id))


def test_static_page_builds_a_clicked_token_with_javascript(page: Page, static_page: Path) -> None:
    page.goto(static_page.as_uri())
    explorer = page.locator(".bpe-explorer")
    expect(explorer).to_be_visible(timeout=TIMEOUT_MS)
    step_kubernetes_to_the_end(page, explorer, "static")
    token_with_a_part_made_inside_it_is_built(page, explorer, "static")
    half_character_chip_opens_each_token(explorer)
    word_level_chip_is_built_from_the_merge_log(page, explorer)
    side_by_side_chip_opens_the_panel(page)


def test_jupyterlab_builds_a_clicked_token_with_python(
    lab_page: Page, lab_server: RunningServer, lab_root: Path
) -> None:
    explorer_notebook(lab_root)
    open_notebook(lab_page, lab_server.url, NOTEBOOK)
    run_all_cells(lab_page)
    explorer = lab_page.locator(".bpe-explorer").first
    expect(explorer).to_be_visible(timeout=TIMEOUT_MS)
    step_kubernetes_to_the_end(lab_page, explorer, "jupyterlab")
    save_screenshot(lab_page, "token_build_jupyterlab_page")
    token_with_a_part_made_inside_it_is_built(lab_page, explorer, "jupyterlab")
    half_character_chip_opens_each_token(explorer)
    word_level_chip_is_built_from_the_merge_log(lab_page, explorer)
    save_screenshot(lab_page, "token_build_jupyterlab_word_level", locator=explorer)
    side_by_side_chip_opens_the_panel(lab_page)
    save_screenshot(lab_page, "token_build_jupyterlab_side_by_side", locator=lab_page.locator(".bpe-compare").first)
