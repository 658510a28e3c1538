"""A conversation as a model sees it: the chat formats' special tokens around the turns' text.

A chat model never sees "roles": it sees one stream of token ids in which fixed special tokens mark
where a message starts, whose it is and where it ends. Three formats, each on its own encoding:

- ``harmony``: gpt-oss's format on ``o200k_harmony`` (o200k_base's ranks plus ``<|start|>``,
  ``<|message|>``, ``<|channel|>``, ``<|end|>``, ``<|return|>`` ...; ids from tiktoken's own
  ``o200k_harmony``, or its table copied here for a tiktoken older than that encoding). As
  ``openai-harmony`` renders it for training: first harmony's own system message (model identity,
  knowledge cutoff, a date, reasoning effort, channels; the date fixed here to ``HARMONY_DATE``), then
  a system turn as a developer message ("# Instructions" and your text), user turns as they are,
  assistant turns on the ``final`` channel; the conversation's last message,
  if it is the assistant's, ends with ``<|return|>``, every other one with ``<|end|>``.
- ``chatml``: GPT-4-era ChatML on ``cl100k_base``, as OpenAI's ChatML notes write it
  (openai-python, ``chatml.md``, release v0.28.0): ``<|im_start|>`` + "role\\n" + text +
  ``<|im_end|>`` + "\\n" per turn. ``<|im_start|>`` and ``<|im_end|>`` are not in tiktoken's
  ``cl100k_base`` table; their ids, 100264 and 100265, are the ones tiktoken's README gives in its
  "Extending tiktoken" example (``cl100k_im``).
- ``llama3``: Meta's Llama 3 template (the Llama 3 model card's prompt format; Meta's reference
  ``ChatFormat`` in ``llama/tokenizer.py``): ``<|begin_of_text|>``, then per turn
  ``<|start_header_id|>`` role ``<|end_header_id|>`` "\\n\\n" text.strip() ``<|eot_id|>``; ids from
  Meta's special-token list (``bpelab.production.LLAMA3_SPECIAL_TOKENS``). Like Meta's ``Tokenizer.encode``,
  the text is encoded in pieces where a run of more than 25,000 characters without whitespace, or of only
  whitespace, is cut (``llama3_pieces``).

Text that spells a special token ("<|end|>" typed by a user) is encoded as ordinary text, as
openai-harmony and Meta's reference encoder do: only the format itself places special tokens.

Which tokens are trained on: the ones the model WRITES for an assistant turn, i.e. everything after
the format's priming of an answer, through the token that ends the answer. Harmony primes with
``<|start|>assistant``, so ``<|channel|>final<|message|>`` + text + ``<|end|>``/``<|return|>`` are
trained on; ChatML primes with ``<|im_start|>assistant\\n``: the text and ``<|im_end|>``; Llama 3
primes with its assistant header and "\\n\\n": the text and ``<|eot_id|>``.

A turn's "own" tokens are those that start inside its text; the rest (special tokens, role names,
separators, harmony's system message) is the format's overhead. A token that starts in a prefix
and runs into the text ("\\n " before " hi") counts as overhead. ``static/chat.js`` lays out and
encodes the same way in a page (held equal by tests/test_js_chat.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import tiktoken

from bpelab.production import load_encoding

ROLES = ("system", "user", "assistant")
FORMATS = ("harmony", "chatml", "llama3")
FORMAT_ENCODINGS = {"harmony": "o200k_harmony", "chatml": "cl100k_base", "llama3": "llama3"}
TEXT_ENCODINGS = {"harmony": "o200k_base", "chatml": "cl100k_base", "llama3": "llama3"}
"""The encoding that encodes each format's ordinary text (o200k_harmony's ranks and pattern are o200k_base's)."""
FORMAT_LABELS = {
    "harmony": "gpt-oss (harmony, o200k_harmony)",
    "chatml": "GPT-4 era (ChatML, cl100k_base)",
    "llama3": "Llama 3 (header tokens)",
}
CHATML_SPECIAL = {"<|im_start|>": 100264, "<|im_end|>": 100265}
"""tiktoken's README, "Extending tiktoken": the ids of ChatML's tokens on cl100k_base (``cl100k_im``)."""
HARMONY_SPECIAL = {
    "<|return|>": 200002,
    "<|channel|>": 200005,
    "<|start|>": 200006,
    "<|end|>": 200007,
    "<|message|>": 200008,
}
"""The harmony tokens the format uses, as tiktoken's ``o200k_harmony`` defines them (``tiktoken_ext/openai_public.py``);
used where the installed tiktoken predates that encoding (the course allows tiktoken 0.8), tested equal to it."""
HARMONY_DATE = "2025-08-05"
"""The date harmony's system message states (gpt-oss's release day), fixed so renderings never change."""
HARMONY_SYSTEM = (
    "You are ChatGPT, a large language model trained by OpenAI.\n"
    "Knowledge cutoff: 2024-06\n"
    f"Current date: {HARMONY_DATE}\n\n"
    "Reasoning: medium\n\n"
    "# Valid channels: analysis, commentary, final. Channel must be included for every message."
)
"""openai-harmony's default system message (``SystemContent.new()``) with its date set."""
HARMONY_INSTRUCTIONS = "# Instructions\n\n"
"""What a developer message (where harmony puts a system prompt) writes before the instructions."""
_PYTHON_WHITESPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())


@dataclass(frozen=True)
class Turn:
    """One message of a conversation: who says it ("system", "user", "assistant") and what."""

    role: str
    text: str


@dataclass(frozen=True)
class ChatToken:
    """One token of a rendered conversation."""

    id: int
    piece: bytes
    special: bool
    turn: int | None
    """The conversation's turn it belongs to; None for the format's own header (harmony's system message)."""
    own: bool
    """True when the token is the turn's own text, False when the format added it (overhead)."""
    trained: bool
    """True when a model is trained to write it (an assistant turn's answer and its end token)."""

    @property
    def kind(self) -> str:
        return "special" if self.special else "text"

    @property
    def text(self) -> str:
        return self.piece.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class ChatRendering:
    """A conversation rendered in one format: its tokens and what they add up to."""

    format: str
    turns: tuple[Turn, ...]
    tokens: tuple[ChatToken, ...]

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.tokens]

    @property
    def trained_ids(self) -> list[int]:
        return [t.id for t in self.tokens if t.trained]

    @property
    def overhead(self) -> int:
        """Tokens that are not any turn's own text."""
        return sum(1 for t in self.tokens if not t.own)

    def tokens_per_turn(self) -> list[dict[str, Any]]:
        """Per turn: its role, all its tokens, its own text's, and how many are trained on."""
        rows = []
        for i, turn in enumerate(self.turns):
            mine = [t for t in self.tokens if t.turn == i]
            own = sum(1 for t in mine if t.own)
            rows.append(
                {
                    "turn": i,
                    "role": turn.role,
                    "tokens": len(mine),
                    "text tokens": own,
                    "format tokens": len(mine) - own,
                    "trained on": sum(1 for t in mine if t.trained),
                }
            )
        return rows


def as_turns(conversation: Iterable[Turn | tuple[str, str]]) -> tuple[Turn, ...]:
    """A conversation as Turns, from Turns or (role, text) pairs; a clear error for anything else."""
    turns = []
    for i, item in enumerate(conversation):
        role, text = (item.role, item.text) if isinstance(item, Turn) else item
        if role not in ROLES:
            raise ValueError(f"turn {i}: role must be one of {', '.join(ROLES)}, got {role!r}")
        if not isinstance(text, str):
            raise TypeError(f"turn {i}: text must be a str, got {type(text).__name__}")
        turns.append(Turn(role, text))
    return tuple(turns)


def python_strip(text: str) -> str:
    """``str.strip()``, spelled out so static/chat.js can strip exactly the same characters."""
    return text.strip(_PYTHON_WHITESPACE)


LLAMA3_WINDOW = 400_000
"""Meta's ``Tokenizer.encode`` encodes a text in windows of this many characters (``TIKTOKEN_MAX_ENCODE_CHARS``)."""
LLAMA3_RUN = 25_000
"""... and cuts a window where a run of whitespace, or of other characters, grows past this many
(``MAX_NO_WHITESPACES_CHARS``; meta-llama/llama3, ``llama/tokenizer.py``, lines 131-155 and 175-199)."""


def llama3_pieces(text: str) -> list[str]:
    """The pieces Meta's ``Tokenizer.encode`` encodes one by one, as its ``_split_whitespaces_or_nonwhitespaces``
    cuts them: a text with no run longer than 25,000 characters is one piece (an empty text too)."""
    pieces: list[str] = []
    for start in range(0, len(text), LLAMA3_WINDOW):
        window = text[start : start + LLAMA3_WINDOW]
        run, in_space, cut = 0, window[0].isspace(), 0
        for i, ch in enumerate(window):
            if in_space != ch.isspace():
                run, in_space = 1, ch.isspace()
            else:
                run += 1
                if run > LLAMA3_RUN:
                    pieces.append(window[cut:i])
                    cut, run = i, 1
        pieces.append(window[cut:])
    return pieces or [""]


def chat_layout(turns: Sequence[Turn], format: str) -> list[dict[str, Any]]:
    """The format's segments, in order: special tokens, and text encoded as one piece each.

    A segment is ``{"special": bool, "text", "turn", "own_from", "trained_from"}``; for text,
    ``own_from`` / ``trained_from`` are the character offsets where the turn's own text / the
    trained-on part begin (None: none of it); a special token is own never, trained when
    ``trained_from`` is 0.
    """
    out: list[dict[str, Any]] = []

    def special(text: str, turn: int | None, trained: bool = False) -> None:
        out.append(
            {"special": True, "text": text, "turn": turn, "own_from": None, "trained_from": 0 if trained else None}
        )

    def plain(text: str, turn: int | None, own_from: int | None = None, trained_from: int | None = None) -> None:
        out.append({"special": False, "text": text, "turn": turn, "own_from": own_from, "trained_from": trained_from})

    if format == "harmony":
        special("<|start|>", None)
        plain("system", None)
        special("<|message|>", None)
        plain(HARMONY_SYSTEM, None)
        special("<|end|>", None)
        for i, turn in enumerate(turns):
            answer = turn.role == "assistant"
            special("<|start|>", i)
            if turn.role == "system":
                plain("developer", i)
                special("<|message|>", i)
                plain(HARMONY_INSTRUCTIONS + turn.text, i, own_from=len(HARMONY_INSTRUCTIONS))
            elif answer:
                plain("assistant", i)
                special("<|channel|>", i, True)
                plain("final", i, trained_from=0)
                special("<|message|>", i, True)
                plain(turn.text, i, 0, 0)
            else:
                plain(turn.role, i)
                special("<|message|>", i)
                plain(turn.text, i, 0)
            special("<|return|>" if answer and i == len(turns) - 1 else "<|end|>", i, answer)
    elif format == "chatml":
        for i, turn in enumerate(turns):
            answer = turn.role == "assistant"
            head = turn.role + "\n"
            special("<|im_start|>", i)
            plain(head + turn.text, i, len(head), len(head) if answer else None)
            special("<|im_end|>", i, answer)
            plain("\n", i)
    elif format == "llama3":
        special("<|begin_of_text|>", None)
        for i, turn in enumerate(turns):
            answer = turn.role == "assistant"
            special("<|start_header_id|>", i)
            plain(turn.role, i)
            special("<|end_header_id|>", i)
            plain("\n\n", i)
            for piece in llama3_pieces(python_strip(turn.text)):  # Meta cuts very long runs: so do we
                plain(piece, i, 0, 0 if answer else None)
            special("<|eot_id|>", i, answer)
    else:
        raise ValueError(f"unknown chat format {format!r}; choose from {', '.join(FORMATS)}")
    return out


@cache
def special_ids(format: str) -> dict[str, int]:
    """The special tokens a format uses, with their ids in its encoding."""
    if format == "harmony":
        if "o200k_harmony" not in tiktoken.list_encoding_names():
            return dict(sorted(HARMONY_SPECIAL.items()))
        table = dict(load_encoding("o200k_harmony")._special_tokens)  # the encoding is freed once read
    elif format == "chatml":
        return dict(CHATML_SPECIAL)
    elif format == "llama3":
        table = load_encoding("llama3")._special_tokens
    else:
        raise ValueError(f"unknown chat format {format!r}; choose from {', '.join(FORMATS)}")
    used = {s["text"] for s in chat_layout([Turn(r, "") for r in ROLES], format) if s["special"]}
    return {name: table[name] for name in sorted(used)}


def render_chat(conversation: Iterable[Turn | tuple[str, str]], format: str = "harmony") -> ChatRendering:
    """The conversation as ``format``'s token stream (see the module's docstring for each format)."""
    turns = as_turns(conversation)
    layout = chat_layout(turns, format)
    ids_of = special_ids(format)
    encoding = load_encoding(TEXT_ENCODINGS[format])
    tokens: list[ChatToken] = []
    for seg in layout:
        if seg["special"]:
            tokens.append(
                ChatToken(ids_of[seg["text"]], seg["text"].encode(), True, seg["turn"], False, seg["trained_from"] == 0)
            )
            continue
        text: str = seg["text"]
        own = None if seg["own_from"] is None else len(text[: seg["own_from"]].encode("utf-8", "surrogatepass"))
        trained = (
            None if seg["trained_from"] is None else len(text[: seg["trained_from"]].encode("utf-8", "surrogatepass"))
        )
        at = 0
        for token_id in encoding.encode_ordinary(text):
            piece = encoding.decode_single_token_bytes(token_id)
            tokens.append(
                ChatToken(
                    token_id,
                    piece,
                    False,
                    seg["turn"],
                    own is not None and at >= own,
                    trained is not None and at >= trained,
                )
            )
            at += len(piece)
    return ChatRendering(format, turns, tuple(tokens))


__all__ = [
    "FORMATS",
    "ROLES",
    "ChatRendering",
    "ChatToken",
    "Turn",
    "as_turns",
    "chat_layout",
    "llama3_pieces",
    "python_strip",
    "render_chat",
    "special_ids",
]
