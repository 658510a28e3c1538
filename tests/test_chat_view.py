"""The chat view's Python side: what it sends the page, what typed turns do, bad input, lesson 10's saved module."""

from __future__ import annotations

import nbformat
import pytest

from bpelab.chat_formats import FORMATS, render_chat
from bpelab.course.html_export import NOTEBOOKS_DIR, WIDGET_STATE
from bpelab.widgets import ChatView


def test_every_format_is_rendered_for_the_page_and_typed_turns_are_rendered_again():
    view = ChatView([("user", "Hi"), ("assistant", "Hello")])
    assert sorted(view.renderings) == sorted(FORMATS)
    view.set_state({"turns": [{"role": "user", "text": "Is <|end|> a token?"}]})  # what the page's save_changes does
    for name in FORMATS:
        expected = render_chat([("user", "Is <|end|> a token?")], name)
        sent = view.renderings[name]
        assert sent["ids"] == expected.ids
        assert sent["special"] == [t.special for t in expected.tokens]
        assert sent["trained"] == [False] * len(expected.ids)  # no assistant turn: nothing is trained on
    view.format = "llama3"
    assert view.rendering.ids == render_chat([("user", "Is <|end|> a token?")], "llama3").ids
    assert repr(view).startswith("ChatView (Llama 3 (header tokens)): ")


def test_special_chips_and_ids_the_page_gets_are_tiktokens():
    view = ChatView()
    specials = {f["name"]: f["specials"] for f in view.formats}
    assert specials["harmony"]["<|return|>"] == 200002 and specials["harmony"]["<|start|>"] == 200006
    assert specials["chatml"] == {"<|im_start|>": 100264, "<|im_end|>": 100265}
    assert specials["llama3"]["<|eot_id|>"] == 128009


def test_bad_input_says_what_to_do():
    with pytest.raises(ValueError, match="unknown chat format 'alpaca'; choose from harmony, chatml, llama3"):
        ChatView(format="alpaca")
    with pytest.raises(ValueError, match="turn 0: role must be one of system, user, assistant"):
        ChatView([("tool", "x")])
    view = ChatView()
    with pytest.raises(Exception, match="format must be one of"):
        view.format = "alpaca"


def test_lesson10_saved_the_chat_module_of_today():
    """A static page draws the chat view with the module lesson 10 saved: re-run it after a change (make lessons ONLY=10)."""
    nb = nbformat.read(NOTEBOOKS_DIR / "10_tokens_in_practice.ipynb", as_version=4)
    saved = [
        entry["state"]["_esm"]
        for entry in nb.metadata["widgets"][WIDGET_STATE]["state"].values()
        if entry["state"].get("_anywidget_id") == "bpelab.widgets.chat.ChatView"
    ]
    assert saved, "lesson 10 saved no chat view"
    assert all(module == ChatView()._esm for module in saved), (
        "lesson 10 holds an older chat module: make lessons ONLY=10"
    )
