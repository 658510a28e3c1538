"""The chat view: type a conversation, see it as a model sees it (lesson 10).

Turns (system, user, assistant) become one stream of tokens in a chat format: gpt-oss's harmony,
GPT-4-era ChatML or Llama 3's headers (``bpelab.chat_formats`` says exactly what each adds).
Special tokens are drawn as dark chips of their own (class ``bpe-chip-special``), with their ids;
the tokens a model is trained to write (an assistant turn's answer and its end token) are
underlined in green and named for screen readers; a table counts the tokens per turn and the
format's overhead.

Python renders every format for the current turns (``renderings``), so a saved notebook shows all
three; on the static site ``static/chat.js`` renders new turns itself with the page's encoders.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import traitlets

from bpelab.chat_formats import (
    FORMAT_LABELS,
    FORMATS,
    HARMONY_INSTRUCTIONS,
    HARMONY_SYSTEM,
    TEXT_ENCODINGS,
    ChatRendering,
    Turn,
    as_turns,
    render_chat,
    special_ids,
)
from bpelab.widgets.chips import chips_text
from bpelab.widgets.esm import bundle
from bpelab.widgets.explorer import BROWSER_ENCODINGS, EXPLORER_MODULES
from bpelab.widgets.fallback import counted, with_fallback_text
from bpelab.widgets.whole_state import OpensWhole

CHAT_MODULES = (*EXPLORER_MODULES, "chat.js")
"""The explorer's modules (chips, page encoders, its small DOM helpers), then the chat view."""
FORMAT_SHORT = {"harmony": "harmony (gpt-oss)", "chatml": "ChatML", "llama3": "Llama 3"}
"""How the static page's note names each format."""
DEFAULT_TURNS = (
    Turn("system", "You are a concise assistant."),
    Turn("user", "What is 17 × 3?"),
    Turn("assistant", "17 × 3 = 51."),
)


def _rendering_for_page(rendering: ChatRendering) -> dict[str, Any]:
    return {
        "turns": [{"role": t.role, "text": t.text} for t in rendering.turns],
        "ids": rendering.ids,
        "pieces": [t.piece.decode() if t.special else list(t.piece) for t in rendering.tokens],
        "special": [t.special for t in rendering.tokens],
        "turn": [t.turn for t in rendering.tokens],
        "own": [t.own for t in rendering.tokens],
        "trained": [t.trained for t in rendering.tokens],
    }


class ChatView(OpensWhole):
    """A conversation rendered in a chat format: ``ChatView([("user", "Hi"), ("assistant", "Hello")])``.

    ``format``: "harmony" (gpt-oss), "chatml" (GPT-4 era) or "llama3".
    """

    _esm = bundle(*CHAT_MODULES)
    turns = traitlets.List(traitlets.Dict()).tag(sync=True)
    format = traitlets.Unicode("harmony").tag(sync=True)
    formats = traitlets.List(traitlets.Dict()).tag(sync=True)
    """What the page needs to render each format itself: its name, label, text encoding, special ids."""
    renderings = traitlets.Dict().tag(sync=True)
    """format -> Python's rendering of ``turns`` (ids, pieces, and per token special/turn/own/trained)."""

    def __init__(self, conversation: Iterable[Turn | tuple[str, str]] = DEFAULT_TURNS, *, format: str = "harmony"):
        if format not in FORMATS:
            raise ValueError(f"unknown chat format {format!r}; choose from {', '.join(FORMATS)}")
        turns = as_turns(conversation)
        formats = [
            {
                "name": name,
                "label": FORMAT_LABELS[name],
                "short": FORMAT_SHORT[name],
                "encoding": TEXT_ENCODINGS[name],
                "browser": TEXT_ENCODINGS[name] in BROWSER_ENCODINGS,
                "specials": special_ids(name),
                "harmonySystem": HARMONY_SYSTEM,
                "harmonyInstructions": HARMONY_INSTRUCTIONS,
            }
            for name in FORMATS
        ]
        super().__init__(turns=[{"role": t.role, "text": t.text} for t in turns], format=format, formats=formats)
        self.add_class("bpe-chat-widget")
        self.observe(lambda _change: self._refresh(), names=["turns"])
        self._refresh()

    @traitlets.validate("format")
    def _valid_format(self, proposal: dict[str, Any]) -> str:
        if proposal["value"] not in FORMATS:
            raise traitlets.TraitError(f"format must be one of {', '.join(FORMATS)}, got {proposal['value']!r}")
        return str(proposal["value"])

    @property
    def conversation(self) -> tuple[Turn, ...]:
        return as_turns(cast(tuple[str, str], (t.get("role"), t.get("text"))) for t in self.turns)  # as_turns checks

    @property
    def rendering(self) -> ChatRendering:
        """The conversation in the chosen format."""
        return render_chat(self.conversation, self.format)

    def _refresh(self) -> None:
        try:
            turns = self.conversation
        except (ValueError, TypeError):
            self.renderings = {}
            return
        self.renderings = {name: _rendering_for_page(render_chat(turns, name)) for name in FORMATS}

    def render_text(self) -> str:
        """The current state as text: what shows where widgets cannot render."""
        r = self.rendering
        trained = sum(1 for t in r.tokens if t.trained)
        head = f"ChatView ({FORMAT_LABELS[self.format]}): {counted(len(r.ids), 'token')}, {r.overhead} of them the format's, "
        head += f"{trained} trained on"
        shown = chips_text([t.piece.decode() if t.special else t.piece for t in r.tokens[:60]])
        return head + "\n" + shown + (" | …" if len(r.tokens) > 60 else "")

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # the summary, and what brings the widget back where it is shown as text (an untrusted notebook)
        return with_fallback_text(super()._repr_mimebundle_(**kwargs), self.render_text(), "chat view")
