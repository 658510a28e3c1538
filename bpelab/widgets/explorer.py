"""The encode explorer: type text, see it as tokens (lessons 05 onwards).

Pick a tokenizer (your own, or GPT-2, GPT-4, GPT-4o, Llama 3), type or paste text, and see the
tokens as chips with their ids, whitespace made visible, the token count and bytes per token.

Tokens and chips are not always the same number: when tokens cut one character (an emoji is often
two or more byte-level tokens), those tokens are drawn as ONE chip, so the count shown first is
always the number of TOKENS, the number a model sees, and the chips are counted beside it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import tiktoken

from bpelab.byte_level import BPETokenizer
from bpelab.patterns import resolve_pattern, split_text
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES, load_encoding
from bpelab.widgets.chips import chips_html, chips_text, make_chips
from bpelab.words import TrainingResult, encode_word

DEFAULT_TEXT = "Tokenizers don't read words. They read pieces: 2024, naïve, 東京, 🙂👍🏽\n\tand   spaces."
MAX_TOKENS_SHOWN = 3000
UNKNOWN_ID = "?"

Encoded = tuple[list[Any], list[str | bytes]]
"""The ids of a text and the text or bytes of each token."""


def encoder_for(tokenizer: object, word_split: str | None = None) -> Callable[[str], Encoded]:
    """How to get (ids, token pieces) out of any tokenizer the course has.

    A tiktoken ``Encoding`` and a ``BPETokenizer`` give each token's bytes; a word-level
    ``TrainingResult`` spells each word with its merges (ids are positions in its vocabulary,
    ``?`` for a character it never saw), cutting the text into words on whitespace, as
    ``train_bpe`` does, or with the regex ``word_split`` if the training text was split that way;
    anything else with ``encode``/``decode`` is asked to
    decode one id at a time. Special-token text is encoded as ordinary text, as in
    tiktoken's ``encode_ordinary``.
    """
    if isinstance(tokenizer, tiktoken.Encoding):
        enc = tokenizer

        def encode_tiktoken(text: str) -> Encoded:
            ids = enc.encode_ordinary(text)
            return ids, list(enc.decode_tokens_bytes(ids))

        return encode_tiktoken
    if isinstance(tokenizer, BPETokenizer):
        tok = tokenizer

        def encode_bytes(text: str) -> Encoded:
            ids = tok.encode_ordinary(text)
            return ids, list(tok.token_bytes(ids))

        return encode_bytes
    if isinstance(tokenizer, TrainingResult):
        merges = tokenizer.merges
        vocab: dict[str, int] = {}
        for i, symbol in enumerate(tokenizer.vocabulary):
            vocab.setdefault(symbol, i)

        def encode_words(text: str) -> Encoded:
            words = split_text(text, word_split) if word_split is not None else text.split()
            symbols = [s for word in words for s in encode_word(word, merges)]
            return [vocab.get(s, UNKNOWN_ID) for s in symbols], list(symbols)

        return encode_words
    if callable(getattr(tokenizer, "encode", None)) and callable(getattr(tokenizer, "decode", None)):
        other: Any = tokenizer

        def encode_other(text: str) -> Encoded:
            ids = list(other.encode(text))
            return ids, [other.decode([i]) for i in ids]

        return encode_other
    raise TypeError(
        "the explorer needs a tokenizer with encode and decode (a BPETokenizer, a tiktoken Encoding, or "
        f"what train_bpe returned), got {type(tokenizer).__name__}"
    )


def _describe(tokenizer: object, index: int) -> str:
    if isinstance(tokenizer, TrainingResult):
        return f"your word-level BPE ({len(tokenizer.merges)} merges)"
    if isinstance(tokenizer, BPETokenizer):
        return f"your byte-level BPE ({tokenizer.vocab_size} tokens)"
    return f"your tokenizer {index + 1}"


class EncodeExplorer(widgets.VBox):
    """Type text and see it tokenized as chips, by your tokenizer(s) or a production one.

    ``EncodeExplorer()`` offers the four production tokenizers;
    ``EncodeExplorer({"mine, 200 merges": result})`` puts yours first (a mapping from a label to a
    tokenizer, or a list of tokenizers). ``word_split``: the regex a word-level tokenizer's training
    text was cut with (default: whitespace).
    """

    def __init__(
        self,
        tokenizers: Mapping[str, object] | Sequence[object] | object | None = None,
        *,
        text: str = DEFAULT_TEXT,
        production: Sequence[str] = ENCODING_NAMES,
        selected: str | None = None,
        show_ids: bool = True,
        word_split: str | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        resolve_pattern(word_split)  # a clear error for a bad regex
        self.word_split = word_split
        self._labels: list[str] = []
        self._sources: dict[str, Callable[[], object]] = {}
        self._encoders: dict[str, Callable[[str], Encoded]] = {}
        for label, tok in self._learner_tokenizers(tokenizers):
            encoder_for(tok, word_split)  # a clear error now, not on the first keystroke
            self._add(label, lambda tok=tok: tok)
        for name in production:
            if name not in ENCODING_NAMES:
                raise ValueError(f"unknown production tokenizer {name!r}; choose from {', '.join(ENCODING_NAMES)}")
            self._add(FRIENDLY_NAMES[name], lambda name=name: load_encoding(name))
        if not self._labels:
            raise ValueError("nothing to choose from: pass a tokenizer or keep the production ones")
        if selected is not None and selected not in self._labels:
            raise ValueError(f"selected must be one of {self._labels}, got {selected!r}")
        self.show_ids = show_ids
        self._ids: list[Any] = []
        self._pieces: list[str | bytes] = []
        self._error: str | None = None

        self.select = widgets.Dropdown(options=self._labels, value=selected or self._labels[0], description="tokenizer")
        self.select.add_class("bpe-tokenizer-select")
        self.input = widgets.Textarea(
            value=text,
            placeholder="Type or paste text here",
            continuous_update=True,
            layout=widgets.Layout(width="100%", height="90px"),
        )
        self.input.add_class("bpe-explorer-input")
        self.count_view = widgets.HTML()
        self.count_view.add_class("bpe-token-count")
        self.chips_view = widgets.HTML(layout=widgets.Layout(max_height="320px", overflow="auto", width="100%"))
        self.chips_view.add_class("bpe-explorer-chips")
        note = widgets.HTML(
            "<small>Hover a chip for its ids, bytes and text. ⋅ is a space, → a tab, ↵ a new line. "
            "Tokens that cut one character are drawn as one chip.</small>"
        )
        self.select.observe(lambda _change: self._refresh(), names="value")
        self.input.observe(lambda _change: self._refresh(), names="value")
        self.children = [self.select, self.input, self.count_view, self.chips_view, note]
        self.add_class("bpe-explorer")
        self._refresh()

    @staticmethod
    def _learner_tokenizers(tokenizers: object) -> list[tuple[str, object]]:
        if tokenizers is None:
            return []
        if isinstance(tokenizers, Mapping):
            return [(str(label), tok) for label, tok in tokenizers.items()]
        if isinstance(tokenizers, (list, tuple)):
            return [(_describe(tok, i), tok) for i, tok in enumerate(tokenizers)]
        return [(_describe(tokenizers, 0), tokenizers)]

    def _add(self, label: str, source: Callable[[], object]) -> None:
        if label in self._sources:
            raise ValueError(f"two tokenizers are labelled {label!r}; give them different names")
        self._labels.append(label)
        self._sources[label] = source

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self.input.value

    @text.setter
    def text(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"text must be a str, got {type(value).__name__}")
        self.input.value = value

    @property
    def tokenizer_name(self) -> str:
        return self.select.value

    @tokenizer_name.setter
    def tokenizer_name(self, label: str) -> None:
        if label not in self._labels:
            raise ValueError(f"choose one of {self._labels}, got {label!r}")
        self.select.value = label

    @property
    def ids(self) -> list[Any]:
        return list(self._ids)

    @property
    def token_count(self) -> int:
        """The number of tokens (what a model sees), not the number of chips."""
        return len(self._ids)

    @property
    def chip_count(self) -> int:
        return len(make_chips(self._pieces[:MAX_TOKENS_SHOWN]))

    def render_text(self) -> str:
        """The current state as text: what shows where widgets cannot render."""
        if self._error:
            return f"EncodeExplorer ({self.tokenizer_name}): {self._error}"
        n_bytes = len(self.text.encode("utf-8", "surrogatepass"))
        head = f"EncodeExplorer ({self.tokenizer_name}): {self.token_count} tokens, {n_bytes} bytes"
        if self.token_count:
            head += f", {n_bytes / self.token_count:.2f} bytes per token"
        return head + "\n" + chips_text(self._pieces[:40]) + (" | …" if len(self._pieces) > 40 else "")

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.render_text()
        return bundle

    # ---- drawing -------------------------------------------------------------------------------

    def _encoder(self, label: str) -> Callable[[str], Encoded]:
        encoder = self._encoders.get(label)
        if encoder is None:
            self.count_view.value = f"loading {html.escape(label)}…"  # reaches the browser before the wait
            encoder = self._encoders[label] = encoder_for(self._sources[label](), self.word_split)
        return encoder

    def _refresh(self) -> None:
        label, text = self.select.value, self.input.value
        try:
            self._ids, self._pieces = self._encoder(label)(text)
            self._error = None
        except (ValueError, TypeError, KeyError) as err:
            self._ids, self._pieces, self._error = [], [], f"could not encode this text: {err}"
            self.count_view.value = html.escape(self._error)
            self.chips_view.value = ""
            return
        shown = self._pieces[:MAX_TOKENS_SHOWN]
        shown_ids = self._ids[:MAX_TOKENS_SHOWN]
        n_tokens, n_chips = len(self._ids), len(make_chips(shown))
        n_bytes = len(text.encode("utf-8", "surrogatepass"))
        parts = [f"<b>{n_tokens}</b> tokens", f"{n_chips} chips", f"{n_bytes} bytes"]
        if n_tokens:
            parts.append(f"{n_bytes / n_tokens:.2f} bytes per token")
        summary = " · ".join(parts)
        if n_chips != min(n_tokens, MAX_TOKENS_SHOWN):
            summary += (
                " <small>(fewer chips than tokens: a chip spanning several tokens holds a character they cut)</small>"
            )
        if n_tokens > MAX_TOKENS_SHOWN:
            summary += f" <small>(showing the first {MAX_TOKENS_SHOWN} tokens)</small>"
        if UNKNOWN_ID in shown_ids:
            summary += " <small>(? = a character never seen in training: it has no id)</small>"
        self.count_view.value = summary
        self.chips_view.value = chips_html(shown, shown_ids, show_ids=self.show_ids, break_lines=True)
