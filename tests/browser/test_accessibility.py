"""WCAG 2.1 AA in a real browser: axe-core on the course's widgets and pages, wherever a learner meets them.

Six places: the widgets of lessons 04 and 05 in JupyterLab after Run All, the classroom page
(Voilà, ``make present``), three static lesson pages (``make html``) opened as ``file://``, and the
static classroom page ``present.html``.
Each test fails on any *serious* or *critical* axe finding inside the course's own markup, and
its message lists every finding (rule, element, markup). Every run also writes the findings to
``test-output/accessibility/<page>.json`` and a screenshot beside them.

What is NOT checked, because the course does not write it: JupyterLab's own chrome (menus, side
bars, toolbars, status bar, cell prompts and editors: ``LAB_CHROME``) and Voilà's (its loading
spinner and page frame: ``VOILA_CHROME``). axe reports findings there that only JupyterLab and
Voilà can fix. A static page, by contrast, is written by ``bpelab.course.html_export`` from top
to bottom, so it is checked whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from bpelab.course.html_export import NOTEBOOKS_DIR
from bpelab.paths import REPO_ROOT
from tests.browser.axe import axe_script, axe_violations, count_nodes, describe_violations
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

REPORT_DIR = REPO_ROOT / "test-output" / "accessibility"
WIDGET_TIMEOUT_MS = 30_000
LOAD_TIMEOUT_MS = 120_000

WIDGET_OUTPUTS = ".jp-OutputArea-output:has(> .jupyter-widgets)"
"""The output areas in which the course's widgets are drawn (JupyterLab's and Voilà's markup alike)."""

LAB_CHROME = [
    "#jp-top-panel",  # menu bar
    "#jp-left-stack",  # file browser and the other side panels
    "#jp-right-stack",
    ".jp-SideBar",
    "#jp-main-statusbar",
    ".jp-Toolbar",  # the notebook's toolbar
    ".jp-InputArea",  # prompts and the code editor
    ".jp-OutputPrompt",
]
"""JupyterLab's own markup: excluded, named here so that a reader knows what "the course's markup" leaves out."""

VOILA_CHROME = ["#loading", ".voila-spinner", ".jp-OutputPrompt", ".jp-InputPrompt"]
"""Voilà's own markup around the app: its loading screen and the cells' prompts (hidden in Voilà)."""


def check(page: Page, name: str, include: list[str], exclude: list[str] | None = None) -> None:
    """Run axe on the page, keep the findings and a screenshot under test-output/, fail on any."""
    axe_script()  # skips the test, with the reason, when axe-core cannot be had
    found = axe_violations(page, include, exclude)
    REPORT_DIR.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {
        "page": name,
        "include": include,
        "exclude": exclude or [],
        "violations": len(found),
        "elements": count_nodes(found),
        "findings": found,
    }
    (REPORT_DIR / f"{name}.json").write_text(json.dumps(record, indent=2, ensure_ascii=False), encoding="utf-8")
    save_screenshot(page, f"accessibility_{name}")
    print(f"{name}: {len(found)} serious/critical rule(s) on {count_nodes(found)} element(s)")
    assert not found, f"{name}: axe-core (WCAG 2.1 A/AA) found:\n{describe_violations(found)}"


# ---- JupyterLab --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lesson", "widget"),
    [("04_merging_step_by_step.ipynb", ".bpe-stepper"), ("05_encoding_and_decoding.ipynb", ".bpe-explorer")],
)
def test_widgets_in_jupyterlab_have_no_serious_axe_findings(
    lab_page: Page, lab_server: RunningServer, lesson: str, widget: str
) -> None:
    """After Run All, every widget output of the lesson passes axe's WCAG 2.1 A/AA rules."""
    axe_script()  # before the slow part: skip at once if axe-core cannot be had
    open_notebook(lab_page, lab_server.url, lesson)
    run_all_cells(lab_page)
    expect(lab_page.locator(widget).first).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    check(lab_page, f"jupyterlab_{lesson[:2]}", [WIDGET_OUTPUTS], LAB_CHROME)


# ---- the classroom page (Voilà) ---------------------------------------------------------------


def test_classroom_page_has_no_serious_axe_findings(page: Page, classroom_server: RunningServer) -> None:
    """The classroom app, as Voilà serves it: its output passes axe (Voilà's frame excluded)."""
    axe_script()
    page.goto(classroom_server.url + "/", wait_until="domcontentloaded", timeout=LOAD_TIMEOUT_MS)
    expect(page.locator(".bpe-classroom .bpe-step-label")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    # the app is one anywidget: its output holds no ipywidgets (.jupyter-widgets) element
    check(page, "classroom", [".jp-OutputArea-output:has(.bpe-classroom)"], VOILA_CHROME)


# ---- static pages (make html) -----------------------------------------------------------------

STATIC_LESSONS = ["04_merging_step_by_step", "05_encoding_and_decoding", "08_compression_curves"]
"""The stepper, the explorer, and a lesson with plots, formulas and a progress bar."""


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    notebooks = [NOTEBOOKS_DIR / f"{name}.ipynb" for name in STATIC_LESSONS]
    return write_static_site(tmp_path_factory.mktemp("a11y-site"), notebooks)


@pytest.mark.parametrize("lesson", STATIC_LESSONS)
def test_static_lesson_page_has_no_serious_axe_findings(page: Page, static_site: Path, lesson: str) -> None:
    """The whole page, as a reader opens it from disk once its widgets are drawn (no chrome to exclude:
    the exporter writes every element)."""
    axe_script()
    page.goto((static_site / f"{lesson}.html").as_uri())
    if page.locator(".jupyter-widgets script[type='application/vnd.jupyter.widget-view+json']").count():
        expect(page.locator(".widget-subarea").first).to_be_attached(timeout=WIDGET_TIMEOUT_MS)
    page.wait_for_load_state("load")
    check(page, f"static_{lesson[:2]}", ["html"])


def test_present_page_has_no_serious_axe_findings(page: Page, tmp_path: Path) -> None:
    """site/present.html, classroom mode without Python, whole, after training a text and one step."""
    from bpelab.course.present_page import write_present_page

    axe_script()
    page.goto(write_present_page(tmp_path).as_uri())
    page.locator("button.bpe-train").click()
    page.locator("button.bpe-next").click()
    expect(page.locator(".bpe-step-label")).to_contain_text("Step 1 of")
    check(page, "present_page", ["html"])
