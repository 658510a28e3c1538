"""Every script drawn in a font that holds it, in every view, on a static page and in JupyterLab (issue 29, §3).

One notebook shows the six views on the first sentence of each language of the course's parallel corpus, and on
Vietnamese, emoji, Hebrew, Bengali and Armenian (``tests/browser/glyphs.py``'s samples): the explorer (GPT-4,
whose Tamil tokens are mostly fragments, and GPT-4o), tokenizers side by side (GPT-2, GPT-4, GPT-4o), the merge
stepper and the classroom stepper (trained on the longest word of each sample), the chat view (one turn per
sample), and the token-build panel (opened from GPT-4o's first chip of each script in the explorer). The notebook
is run as the lessons are and written as ``make html`` writes it (the static page, file://), then run live in
JupyterLab. In each view, every text Chromium draws with a character beyond ASCII (chips, text boxes, the
stepper's pairs and log, the panel's steps and tree, the views' own words) is held to the three rules of
``glyphs.py``: every character is in a font it was drawn with; a font that drew a script's letters holds all of
that script's letters the samples have; every emoji is one picture. Every script of the samples must be among
the texts checked (and, where a view shows the samples whole, every letter), so a view that drew none cannot
pass. Screenshots go to test-output/browser/.

On main's font list (``ui-monospace, Menlo, Consolas, monospace``), Debian's Chromium drew GPT-4's Tamil chip
வா in DejaVu Sans Mono (two boxes), ⋅ப in Noto Sans Grantha, and Vietnamese ế ẫ ở ẵ from a letter and a loose
accent (DejaVu Sans Mono lacks them).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import CDPSession, Locator, Page, expect

from bpelab.production import FRIENDLY_NAMES, load_encoding
from bpelab.widgets.chips import CHIP_CSS, TEXT_FONTS, make_chips
from bpelab.widgets.esm import STATIC_DIR
from tests.browser.glyphs import (
    DrawnText,
    cdp_session,
    drawn_texts,
    expected_scripts,
    must_draw,
    repertoire_of,
    script_samples,
    scripts_in,
    text_scripts,
)
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import static_page_of, write_notebook

pytestmark = pytest.mark.browser

TIMEOUT_MS = 30_000
NOTEBOOK = "99_glyphs.ipynb"
SAMPLES = script_samples()
TEXT = "\n".join(SAMPLES.values())
REPERTOIRE = repertoire_of(SAMPLES.values())
"""Each script's letters in the samples: a font that draws a script's letters must hold all of them."""
WORDS = " ".join(max(text.split(), key=len) for text in SAMPLES.values())
"""The longest word of each sample: the steppers show every one (30 words at most in the classroom's)."""
MERGES = 40

VIEWS = {
    "explorer": ".bpe-explorer",
    "side by side": ".bpe-compare",
    "stepper": ".bpe-stepper:not(.bpe-classroom .bpe-stepper)",
    "classroom": ".bpe-classroom",
    "chat": ".bpe-chat",
}
WHOLE_TEXT = ("explorer", "side by side", "chat")
"""The views given every sample whole (the steppers get a word of each)."""


def glyph_notebook(folder: Path) -> Path:
    """The six views (the token-build panel opens from the explorer's chips) on every sample."""
    turns = [("user" if k % 2 == 0 else "assistant", text) for k, text in enumerate(SAMPLES.values())]
    return write_notebook(
        folder / NOTEBOOK,
        "99 — Every script in its own font",
        "from bpelab import train_bpe\n"
        "from bpelab.widgets import ChatView, ClassroomStepper, CompareView, EncodeExplorer, MergeStepper\n"
        f"TEXT = {TEXT!r}\nWORDS = {WORDS!r}",
        "EncodeExplorer(production=('cl100k_base', 'o200k_base'), text=TEXT)",
        "CompareView(production=('r50k_base', 'cl100k_base', 'o200k_base'), text=TEXT)",
        f"MergeStepper(train_bpe(WORDS, {MERGES}), top_words=40)",
        f"ClassroomStepper(corpus=WORDS, merges={MERGES})",
        f"ChatView({turns!r})",
    )


def letters(texts: list[str]) -> set[str]:
    return {ch for text in texts for ch, script in must_draw(text) if script not in ("Zyyy", "Zinh")}


def faults(texts: list[DrawnText], view: str, whole_text: bool = False, scripts: set[str] | None = None) -> list[str]:
    """What is wrong in ``texts``: each text drawn wrong, and every script (of the samples, or ``scripts``)
    none of them holds (with ``whole_text``, every letter of the samples that none of them holds)."""
    found = [f"{view}: {t.describe(REPERTOIRE)}" for t in texts if t.problems(REPERTOIRE)]
    missing = (expected_scripts(SAMPLES) if scripts is None else scripts) - scripts_in(texts)
    if missing:
        found.append(f"{view}: no text in {sorted(missing)} was drawn, so none was checked")
    unseen = letters(list(SAMPLES.values())) - letters([t.text for t in texts]) if whole_text else set()
    if unseen:
        found.append(f"{view}: {len(unseen)} letters of the samples were not drawn: {''.join(sorted(unseen))[:80]}")
    return found


def check_views(page: Page, label: str) -> None:
    """Every view's texts, the stepper half-way, the token-build panels: all faults in one message."""
    session = cdp_session(page)
    found: list[str] = []
    counted: dict[str, int] = {}
    for view, selector in VIEWS.items():
        root = page.locator(selector).first
        expect(root.locator(".bpe-chip").first).to_be_visible(timeout=TIMEOUT_MS)
        if view == "explorer":
            draw_every_page(page, root)
        texts = drawn_texts(page, session, selector)
        counted[view] = len(texts)
        found += faults(texts, view, whole_text=view in WHOLE_TEXT)
        save_screenshot(page, f"glyphs_{label}_{view.replace(' ', '_')}", locator=root)
    stepper = page.locator(VIEWS["stepper"]).first
    stepper.locator("input[type=number]").first.fill(str(MERGES // 2))
    stepper.locator("input[type=number]").first.press("Enter")
    expect(stepper.locator(".bpe-chip-merged").first).to_be_visible(timeout=TIMEOUT_MS)
    found += faults(drawn_texts(page, session, VIEWS["stepper"]), f"stepper at step {MERGES // 2}")
    panels, opened = token_build_texts(page, session, label)
    counted["token build"] = len(panels)
    found += faults(panels, "token build", scripts=opened)
    print(f"{label}: texts checked per view: {counted}")
    assert not found, f"{len(found)} faults ({label}):\n" + report(found)


def report(found: list[str], per_view: int = 10) -> str:
    """The faults view by view, boxes and letters taken apart (rule 1) first, at most ``per_view`` each."""
    by_view: dict[str, list[str]] = {}
    for line in found:
        by_view.setdefault(line.split(":")[0], []).append(line)
    shown = []
    for view, lines in by_view.items():
        lines.sort(key=lambda line: " is in none of " not in line)
        shown += lines[:per_view]
        if len(lines) > per_view:
            shown.append(f"{view}: ... and {len(lines) - per_view} more")
    return "\n".join(shown)


def draw_every_page(page: Page, explorer: Locator) -> None:
    """The explorer draws a long text's chips page by page as they scroll into view: scroll them all in."""
    box = explorer.locator(".bpe-chips-box")
    drawn = box.evaluate("""async (box) => {
        for (let k = 0; k < 200 && box.querySelector('.bpe-chips-later'); k++) {
            box.scrollTop += box.clientHeight;
            await new Promise((done) => setTimeout(done, 50));
        }
        box.scrollTop = 0;
        return !box.querySelector('.bpe-chips-later');
    }""")
    assert drawn, "the explorer left pages of chips undrawn"


def panel_chips() -> dict[str, tuple[int, int]]:
    """For each script, the first of GPT-4o's chips (bpelab's grouping of tiktoken's tokens) whose first token
    is whole text of that script: its place and that token's id. A clicked chip opens its first token; one
    that is part of a character (all of Amharic's, in GPT-4o) is drawn as bytes, with no letter to check."""
    encoding = load_encoding("o200k_base")
    ids = encoding.encode_ordinary(TEXT)
    pieces = [encoding.decode_single_token_bytes(i) for i in ids]
    chosen: dict[str, tuple[int, int]] = {}
    for k, chip in enumerate(make_chips(pieces)):
        try:
            first = pieces[chip.tokens[0]].decode("utf-8")
        except UnicodeDecodeError:
            continue
        for script in text_scripts(first):
            chosen.setdefault(script, (k, ids[chip.tokens[0]]))
    return chosen


def token_build_texts(page: Page, session: CDPSession, label: str) -> tuple[list[DrawnText], set[str]]:
    """Open the panel from GPT-4o's first chip of each script: the texts of each panel, and the scripts opened."""
    explorer = page.locator(VIEWS["explorer"]).first
    explorer.locator("select").first.select_option(label=FRIENDLY_NAMES["o200k_base"])
    chips = explorer.locator(".bpe-chips-box .bpe-chip")
    first_id = str(load_encoding("o200k_base").encode_ordinary(TEXT)[0])
    # the static page loads GPT-4o's vocabulary (several MB) first: on a busy machine that took more than 5 s
    expect(chips.first.locator(".bpe-chip-id")).to_have_text(first_id, timeout=TIMEOUT_MS)
    draw_every_page(page, explorer)
    chosen = panel_chips()
    panels: list[DrawnText] = []
    for script, (k, token) in sorted(chosen.items()):
        chips.nth(k).click()
        panel = explorer.locator(f".bpe-token-build[data-token-id='{token}']")
        expect(panel.locator(".bpe-tb-tree")).to_be_visible(timeout=TIMEOUT_MS)
        panels += drawn_texts(page, session, f"{VIEWS['explorer']} .bpe-token-build")
        if script == "Taml":
            save_screenshot(page, f"glyphs_{label}_token_build_tamil", locator=panel)
    return panels, set(chosen)


# ---- the static page: make html's export, opened as file:// ----------------------------------------


@pytest.fixture(scope="module")
def static_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    notebook = glyph_notebook(tmp_path_factory.mktemp("glyphs-notebook"))
    return static_page_of(notebook, tmp_path_factory.mktemp("glyphs-site"))


def test_every_view_on_the_static_page_draws_each_script_in_a_font_that_holds_it(page: Page, static_page: Path) -> None:
    page.goto(static_page.as_uri())
    check_views(page, "static")


# ---- JupyterLab: the same notebook, run live ----------------------------------------------------------


@pytest.fixture
def lab_notebook(lab_root: Path, tmp_path: Path) -> Iterator[str]:
    shutil.copy(glyph_notebook(tmp_path), lab_root / NOTEBOOK)
    yield NOTEBOOK
    (lab_root / NOTEBOOK).unlink(missing_ok=True)


def test_every_view_in_jupyterlab_draws_each_script_in_a_font_that_holds_it(
    lab_page: Page, lab_server: RunningServer, lab_notebook: str
) -> None:
    open_notebook(lab_page, lab_server.url, lab_notebook)
    run_all_cells(lab_page)
    check_views(lab_page, "lab")


FONT_FAMILY = re.compile(r"font-family:([^;}]+)")
VIEW_FONTS = {
    "var(--bpe-text-fonts,monospace)",
    "var(--jp-ui-font-family,sans-serif)",
    "bpe-signs,var(--jp-ui-font-family,sans-serif)",
    "bpe-signs",  # the @font-face that names it
}
"""The font lists a view may name: the learner's text, and the page's own words (JupyterLab's UI font, with ≠
from a font that holds it)."""


def test_every_view_takes_the_learner_s_text_fonts_from_the_one_list() -> None:
    """No view names fonts of its own: each CSS font-family is the shared list or the UI's, and the notebook's
    HTML chips (chips.py) use the list itself, read from chips.js."""
    named = {
        f"{path.name}: {value.strip()}"
        for path in sorted(STATIC_DIR.glob("*.js"))
        if not path.name.endswith(".test.js")
        for value in FONT_FAMILY.findall(path.read_text(encoding="utf-8"))
        if value.strip() not in VIEW_FONTS
    }
    assert not named, f"fonts named outside TEXT_FONTS: {sorted(named)}"
    assert f"font-family:{TEXT_FONTS};" in CHIP_CSS
    assert '"Noto Sans Tamil"' in TEXT_FONTS and TEXT_FONTS.endswith("monospace")


def test_the_rules_catch_what_debian_s_chromium_drew_before() -> None:
    """The faults seen on main, as Chromium reported them, and what the fixed font list gives."""

    def font(name: str, postscript: str, glyphs: int) -> dict[str, object]:
        return {"familyName": name, "postScriptName": postscript, "glyphCount": glyphs}

    dejavu = font("DejaVu Sans Mono", "DejaVuSansMono", 1)
    mono = font("Noto Sans Mono", "NotoSansMono-Regular", 4)
    grantha = font("Noto Sans Grantha", "NotoSansGrantha-Regular", 1)
    tamil = font("Noto Sans Tamil", "NotoSansTamil-Regular", 2)
    emoji = font("Noto Color Emoji", "NotoColorEmoji", 2)

    def wrong(text: str, *fonts: dict[str, object]) -> bool:
        return bool(DrawnText("", text, fonts).problems(REPERTOIRE))

    assert wrong("வா", {**dejavu, "glyphCount": 2})  # two boxes
    assert wrong("ế", {**dejavu, "glyphCount": 2})  # ê and a loose acute
    assert wrong("the", {**dejavu, "glyphCount": 3})  # a Latin font without Vietnamese's letters
    assert wrong("⋅பு", dejavu, grantha, tamil)  # Grantha drew ப, Tamil the vowel sign: two fonts
    assert wrong("👨\u200d👩", {**dejavu, "glyphCount": 3})
    assert wrong("⋅👨\u200d👩\u200d👧", dejavu, {**emoji, "glyphCount": 3})  # the family fell apart
    assert not wrong("⋅பு", dejavu, tamil)
    assert not wrong("⋅việc", dejavu, mono)  # DejaVu Sans Mono drew only the ⋅
    assert not wrong("👨\u200d👩\u200d👧 ❤\ufe0f", dejavu, emoji)
    assert wrong("≠", font("Noto Sans", "NotoSans-Regular", 2))  # = and U+0338's slash beside it
