"""The chat view's JavaScript (static/chat.js) renders conversations exactly as bpelab.chat_formats does.

A static page lays out and encodes typed turns itself; under Node, with the same js-tiktoken scripts a
page loads, its layout, ids, turns, own-text and trained-on marks, and per-turn counts equal Python's on
generated conversations (Python's are held to openai-harmony and the published templates by
tests/test_chat_formats.py).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from bpelab.chat_formats import FORMATS, as_turns, chat_layout, render_chat
from bpelab.widgets.chat import ChatView
from tests import test_js_production
from tests.test_chat_formats import TRICKY

NODE = shutil.which("node")
DRIVER = Path(__file__).parent / "js" / "render_chat_with_js.mjs"
static_dir = test_js_production.static_dir  # the fixture: the js-tiktoken scripts a page loads
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
FORMAT_FOR_PAGE = {f["name"]: f for f in ChatView().formats}
ROLES = ("system", "user", "assistant")


def generated_conversations(n: int, seed: int = 23) -> list[list[tuple[str, str]]]:
    """Conversations of 1-5 turns whose text mixes the tricky strings (special-looking text, digits, emoji,
    Python-only whitespace) with random assigned characters of every script (no surrogates)."""
    rng = random.Random(seed)
    # U+FEFF and U+0085 included: JavaScript's \s holds U+FEFF and not U+0085, tiktoken's regex the reverse; the
    # page's patterns spell \s as Unicode's White_Space (bpelab.widgets.js_regex), so they cut as tiktoken does
    tricky = [*TRICKY, "\ufeff\ufeff<", "õ  \x85"]

    def character() -> str:
        while True:
            ch = chr(rng.randrange(0x20, 0x30000) if rng.random() < 0.5 else rng.randrange(0x20, 0x250))
            if ch.isprintable() or ch.isspace():
                return ch

    def text() -> str:
        return "".join(rng.choice(tricky) if rng.random() < 0.4 else character() for _ in range(rng.randrange(0, 9)))

    return [[(rng.choice(ROLES), text()) for _ in range(rng.randrange(1, 6))] for _ in range(n)]


def _render_in_js(static: Path, cases: list[dict[str, object]], tmp_path: Path) -> list[dict[str, object]]:
    cases_path, out_path = tmp_path / "cases.json", tmp_path / "out.json"
    cases_path.write_text(json.dumps(cases), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, str(DRIVER), str(static), str(cases_path), str(out_path)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result: list[dict[str, object]] = json.loads(out_path.read_text(encoding="utf-8"))
    return result


def test_javascript_renders_every_format_as_python_does(static_dir: Path, tmp_path: Path) -> None:
    many = generated_conversations(300)
    cases = [
        {"turns": [{"role": r, "text": t} for r, t in conv], "format": FORMAT_FOR_PAGE[name]}
        for conv in many
        for name in FORMATS
    ]
    results = _render_in_js(static_dir, cases, tmp_path)
    rendered_in_page = 0
    for case, got in zip(cases, results, strict=True):
        turns = as_turns((t["role"], t["text"]) for t in case["turns"])  # type: ignore[union-attr]
        name = case["format"]["name"]  # type: ignore[index]
        assert got["layout"] == chat_layout(turns, name)
        if got["rendering"] is None:  # this page has no encoder for it (Llama 3 before the site ships its ranks)
            continue
        rendered_in_page += 1
        python = render_chat(turns, name)
        js = got["rendering"]
        assert js["ids"] == python.ids
        assert js["special"] == [t.special for t in python.tokens]
        assert js["turn"] == [t.turn for t in python.tokens]
        assert js["own"] == [t.own for t in python.tokens]
        assert js["trained"] == [t.trained for t in python.tokens]
        rows = [
            {
                "turn": r["turn"],
                "role": r["role"],
                "tokens": r["tokens"],
                "text": r["text tokens"],
                "format": r["format tokens"],
                "trained": r["trained on"],
            }
            for r in python.tokens_per_turn()
        ]
        assert got["summary"]["rows"] == rows and got["summary"]["overhead"] == python.overhead
    assert rendered_in_page >= 600  # harmony and ChatML at least, every conversation
