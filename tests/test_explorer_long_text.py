"""A long text with a kernel: the count is the full count, and what Python sends the page stays small.

The page draws every chip it has as the chip box scrolls (``static/chips_in_view.js``); with a kernel,
Python keeps the first ``MAX_TOKENS_SHOWN`` ids and pieces and the full count in the widget's state, so a saved
notebook never holds 100 KB of ids, and sends all of them when the page asks, as a message no notebook keeps
(tests/browser/test_explorer_links_and_long_text.py draws them in JupyterLab).
"""

from __future__ import annotations

import re

import tiktoken

from bpelab.bench.page_long_text import long_text
from bpelab.production import FRIENDLY_NAMES
from bpelab.widgets import EncodeExplorer
from bpelab.widgets.explorer import ALL_TOKENS, MAX_TOKENS_SHOWN


def test_a_long_text_sends_the_full_count_and_at_most_the_first_ids() -> None:
    text = long_text(30_000)
    explorer = EncodeExplorer(production=("o200k_base",), text=text)
    sent = explorer.encodings[FRIENDLY_NAMES["o200k_base"]]
    expected = tiktoken.get_encoding("o200k_base").encode_ordinary(text)
    assert sent["count"] == len(expected) > MAX_TOKENS_SHOWN
    assert sent["ids"] == expected[:MAX_TOKENS_SHOWN]
    assert explorer.token_count == len(expected)
    assert len(sent["pieces"]) == MAX_TOKENS_SHOWN  # the first pieces only: a saved lesson stays small


def test_the_long_text_is_multilingual_and_exactly_as_long_as_asked() -> None:
    text = long_text(100_000)
    assert len(text) == 100_000 and long_text(100_000) == text
    for sample in ("👍🏽", "\u200d", "\n\n", "\u0301", "١٢٣"):
        assert sample in text
    scripts = {"Han": "\u4e00-\u9fff", "Thai": "\u0e00-\u0e7f", "Greek": "\u0370-\u03ff", "Cyrillic": "\u0400-\u04ff"}
    for script, span in scripts.items():
        assert re.search(f"[{span}]", text), script


def test_the_page_asking_for_every_token_gets_tiktokens_ids_as_a_message_not_in_the_state() -> None:
    text = long_text(30_000)
    explorer = EncodeExplorer(production=("cl100k_base", "r50k_base"), text=text)
    sent: list[dict[str, object]] = []
    explorer.send = sent.append  # type: ignore[method-assign]  (what goes to the page, without a kernel)
    label = FRIENDLY_NAMES["r50k_base"]
    explorer._on_page_message(explorer, {"want": ALL_TOKENS, "label": label, "text": text}, [])
    encoding = tiktoken.get_encoding("r50k_base")
    expected = encoding.encode_ordinary(text)
    [message] = sent
    answer = message[ALL_TOKENS]
    assert answer["label"] == label and answer["text"] == text and answer["count"] == len(expected)
    assert answer["ids"] == expected
    assert answer["pieces"] == [list(piece) for piece in encoding.decode_tokens_bytes(expected)]
    assert len(explorer.encodings[FRIENDLY_NAMES["cl100k_base"]]["ids"]) == MAX_TOKENS_SHOWN  # the state: small
    for wrong in ({"want": "other"}, {"want": ALL_TOKENS, "label": "no such", "text": text}, "not a dict"):
        explorer._on_page_message(explorer, wrong, [])
    assert len(sent) == 1  # a message it does not know is left alone
