"""The chat view (lesson 10 §10) in a real browser: on lesson 10's static page opened as file:// (no kernel)
and in JupyterLab with a kernel, typed turns are rendered with the ids of bpelab.chat_formats (itself held
to openai-harmony and the published templates); special tokens are chips of their own kind
(``bpe-chip-special``) with their ids; trained-on tokens are marked for the eye and for screen readers.
axe-core finds nothing serious or critical in the view. Screenshots go to test-output/browser/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from bpelab.chat_formats import FORMAT_LABELS, render_chat
from bpelab.course.html_export import NOTEBOOKS_DIR
from tests.browser.axe import axe_script, axe_violations, describe_violations
from tests.browser.lab import open_notebook, run_all_cells, save_screenshot
from tests.browser.servers import RunningServer
from tests.browser.static_pages import write_static_site

pytestmark = pytest.mark.browser

WIDGET_TIMEOUT_MS = 30_000
LESSON_10 = "10_tokens_in_practice.ipynb"
TYPED = "Is <|end|> a token? 2024-11-25, naïve 👍🏽"
"""Typed into the second turn: text that spells a special token must stay ordinary text."""


def lesson_conversation(chat: Locator) -> list[tuple[str, str]]:
    turns = chat.locator(".bpe-chat-turn")
    return [
        (turns.nth(i).locator("select").input_value(), turns.nth(i).locator("textarea").input_value())
        for i in range(turns.count())
    ]


def shown_ids(chat: Locator) -> list[int]:
    lines = chat.locator(".bpe-chips-box .bpe-chip-id").all_inner_texts()
    return [int(part) for line in lines for part in line.split()]


def check_format(chat: Locator, name: str, turns: list[tuple[str, str]]) -> None:
    """The view's ids, special chips and trained-on marks are render_chat's for ``name``."""
    chat.locator("select").first.select_option(label=FORMAT_LABELS[name])
    expected = render_chat(turns, name)
    status = chat.locator(".bpe-token-count")
    expect(status).to_contain_text(re.compile(rf"^\s*{len(expected.ids)} tokens?"), timeout=WIDGET_TIMEOUT_MS)
    assert shown_ids(chat) == expected.ids, name
    specials = chat.locator(".bpe-chip.bpe-chip-special")
    assert specials.count() == sum(1 for t in expected.tokens if t.special)
    assert specials.first.locator(".bpe-sr").inner_text().endswith("special token")
    trained = chat.locator(".bpe-chip.bpe-chip-trained .bpe-chip-id").all_inner_texts()
    assert [int(part) for line in trained for part in line.split()] == expected.trained_ids
    assert "trained on" in chat.locator(".bpe-chip.bpe-chip-trained .bpe-sr").first.inner_text()
    expect(status).to_contain_text(f"{expected.overhead} of them the format's")


def type_second_turn(chat: Locator) -> list[tuple[str, str]]:
    chat.locator(".bpe-chat-turn textarea").nth(1).fill(TYPED)
    turns = lesson_conversation(chat)
    assert turns[1][1] == TYPED
    return turns


@pytest.fixture(scope="module")
def lesson10_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Lesson 10 as `make html` writes it, from the committed notebook (nothing re-run)."""
    site = write_static_site(tmp_path_factory.mktemp("lesson10-site"), [NOTEBOOKS_DIR / LESSON_10], guide=None)
    return site / LESSON_10.replace(".ipynb", ".html")


def test_lesson10_static_page_renders_typed_turns_with_pythons_ids(page: Page, lesson10_page: Path) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(lesson10_page.as_uri())
    chat = page.locator(".bpe-chat").first
    expect(chat).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    chat.scroll_into_view_if_needed()
    stored = lesson_conversation(chat)
    for name in ("llama3", "harmony"):  # the saved renderings: every format, Llama 3 included
        check_format(chat, name, stored)
    turns = type_second_turn(chat)
    check_format(chat, "harmony", turns)  # rendered by the page itself
    save_screenshot(page, "chat_static_harmony_typed", locator=chat)
    check_format(chat, "chatml", turns)
    save_screenshot(page, "chat_static_chatml_typed", locator=chat)
    chat.locator(".bpe-chat-add").click()
    expect(chat.locator(".bpe-chat-turn")).to_have_count(len(turns) + 1)
    chat.locator(".bpe-chat-remove").last.click()
    expect(chat.locator(".bpe-chat-turn")).to_have_count(len(turns))
    off_disk = [url for url in requests if not url.startswith(("file:", "data:", "blob:"))]
    assert not off_disk, f"the page asked the network for {off_disk}"
    axe_script()
    found = axe_violations(page, [".bpe-chat"])
    assert not found, describe_violations(found)


def test_lesson10_chat_view_in_jupyterlab_follows_typed_turns(lab_page: Page, lab_server: RunningServer) -> None:
    lab_page.set_viewport_size({"width": 1280, "height": 900})
    open_notebook(lab_page, lab_server.url, LESSON_10)
    run_all_cells(lab_page)
    chat = lab_page.locator(".bpe-chat").first
    expect(chat).to_be_visible(timeout=WIDGET_TIMEOUT_MS)
    chat.scroll_into_view_if_needed()
    turns = type_second_turn(chat)
    for name in ("llama3", "chatml", "harmony"):  # Python renders: Llama 3 too
        check_format(chat, name, turns)
    chat.scroll_into_view_if_needed()
    save_screenshot(lab_page, "chat_lab_harmony_typed", locator=chat)
    save_screenshot(lab_page, "chat_lab_page")
    axe_script()
    found = axe_violations(lab_page, [".bpe-chat"])
    assert not found, describe_violations(found)
