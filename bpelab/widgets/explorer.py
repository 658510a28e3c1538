"""The encode explorer: type text, see it as tokens (lessons 05 onwards).

Pick a tokenizer (your own, or GPT-2, GPT-4, GPT-4o, Llama 3), type or paste text, and see the
tokens as chips with their ids, whitespace made visible, the token count and bytes per token.

Tokens and chips are not always the same number: tokens that make up one character as you see it
(an emoji cut into byte pieces, or 👍🏽 kept as 👍 and a skin tone) are drawn as ONE chip, so the
count shown first is always the number of TOKENS, the number a model sees, and the chips are
counted beside it.

One implementation serves JupyterLab and the static course pages: the view of EVERY tokenizer is
drawn in Python for the current text and held in a ``Stack``, and the tokenizer menu's index is
``jslink``-ed to the Stack, so switching tokenizers works in the browser alone. Typing needs
Python; the explorer says so on the page, since a static page cannot answer it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import ipywidgets as widgets
import tiktoken

from bpelab.byte_level import BPETokenizer
from bpelab.patterns import resolve_pattern, split_text
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES, load_encoding
from bpelab.widgets.chips import Chip, chips_html, chips_text, make_chips
from bpelab.words import END_OF_WORD, TrainingResult, encode_word

DEFAULT_TEXT = "Tokenizers don't read words. They read pieces: 2024, naïve, 東京, 🙂👍🏽\n\tand   spaces."
MAX_TOKENS_SHOWN = 3000
PRECOMPUTE_CHARS = 500
"""Up to this many characters, every tokenizer's view is drawn (so a static page can switch
between them); a longer text is drawn for the chosen tokenizer only, to keep notebooks small: a
chip costs about 300 bytes of saved state: 500 characters are about 30 KB per view in English prose,
90 KB in emoji and CJK (measured with the four production tokenizers)."""
UNKNOWN_ID = "?"
PUNCTUATION_PROBE = "end."
"""A word-level split that cuts this in two counts punctuation as pieces of its own."""

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


def _constant(value: object) -> Callable[[], object]:
    return lambda: value


def _describe(tokenizer: object, index: int) -> str:
    if isinstance(tokenizer, TrainingResult):
        return f"your word-level BPE ({len(tokenizer.merges)} merges)"
    if isinstance(tokenizer, BPETokenizer):
        return f"your byte-level BPE ({tokenizer.vocab_size} tokens)"
    return f"your tokenizer {index + 1}"


def why_fewer_chips(chips: Sequence[Chip]) -> str:
    """Why a text has fewer chips than tokens, from the chips themselves: tokens that cut a
    character's UTF-8 bytes (byte-level tokenizers only), or tokens that keep apart the code
    points of one character as you see it (any tokenizer: 👍🏽 is 👍 plus a skin tone)."""
    joined = [chip for chip in chips if len(chip.tokens) > 1]
    reasons = []
    if any(chip.cuts_code_point for chip in joined):
        reasons.append("one character whose UTF-8 bytes they cut")
    kept_apart = next((chip for chip in joined if not chip.cuts_code_point), None)
    if kept_apart is not None:
        shown = kept_apart.text.removesuffix(END_OF_WORD).strip()
        reasons.append(f"one character as you see it, such as {shown}, whose code points they keep apart")
    if not reasons:
        return ""
    return "fewer chips than tokens: a chip spanning several tokens holds " + ", or ".join(reasons)


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
        self.word_unit = (
            "pieces (words and punctuation)"
            if word_split is not None and len(split_text(PUNCTUATION_PROBE, word_split)) > 1
            else "words"
        )
        """What a word-level tokenizer's ``</w>`` closes here: words, or words and punctuation."""
        self._labels: list[str] = []
        self._sources: dict[str, Callable[[], object]] = {}
        self._encoders: dict[str, Callable[[str], Encoded]] = {}
        self._word_level: set[str] = set()
        for label, tok in self._learner_tokenizers(tokenizers):
            encoder_for(tok, word_split)  # a clear error now, not on the first keystroke
            self._add(label, _constant(tok))
            if isinstance(tok, TrainingResult):
                self._word_level.add(label)
        for name in production:
            if name not in ENCODING_NAMES:
                raise ValueError(f"unknown production tokenizer {name!r}; choose from {', '.join(ENCODING_NAMES)}")
            self._add(FRIENDLY_NAMES[name], partial(load_encoding, name))
        if not self._labels:
            raise ValueError("nothing to choose from: pass a tokenizer or keep the production ones")
        if selected is not None and selected not in self._labels:
            raise ValueError(f"selected must be one of {self._labels}, got {selected!r}")
        self.show_ids = show_ids
        self._ids: list[Any] = []
        self._pieces: list[str | bytes] = []
        self._error: str | None = None
        self._drawn_for: dict[str, str | None] = dict.fromkeys(self._labels)
        """The text each tokenizer's view was drawn for (None: not drawn)."""
        self._encoded: dict[str, tuple[list[Any], list[str | bytes], str | None]] = {}

        self.select = widgets.Dropdown(
            options=self._labels,
            value=selected or self._labels[0],
            description="tokenizer",
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self.select.add_class("bpe-tokenizer-select")
        self.input = widgets.Textarea(
            value=text,
            description="your text",
            placeholder="Type or paste text here",
            continuous_update=True,
            layout=widgets.Layout(width="auto", height="90px"),
        )
        self.input.add_class("bpe-explorer-input")
        self._counts: dict[str, widgets.HTML] = {}
        self._chips: dict[str, widgets.HTML] = {}
        views = []
        for label in self._labels:
            count = widgets.HTML(layout=widgets.Layout(width="auto"))
            count.add_class("bpe-token-count")
            chips = widgets.HTML(layout=widgets.Layout(width="auto"))
            chips.add_class("bpe-explorer-chips")
            view = widgets.VBox([count, chips], layout=widgets.Layout(width="auto"))
            view.add_class("bpe-explorer-view")
            self._counts[label], self._chips[label] = count, chips
            views.append(view)
        self.views = widgets.Stack(views, selected_index=self.select.index, layout=widgets.Layout(width="auto"))
        self.views.add_class("bpe-explorer-views")
        # the browser switches the views by itself: no kernel needed (a static page has none)
        self._link = widgets.jslink((self.select, "index"), (self.views, "selected_index"))
        note = widgets.HTML(
            "<div style='white-space:normal;overflow-wrap:anywhere;line-height:1.5'><small>"
            "Hover a chip for its ids, text and bytes. ⋅ is a space, → a tab, ↵ a new line. "
            "Tokens that make up one character as you see it are drawn as one chip. "
            "The chips follow your typing while the notebook runs; on a static page of the course only the "
            "tokenizer menu works: run the notebook to try your own text.</small></div>",
            layout=widgets.Layout(width="auto"),
        )
        note.add_class("bpe-explorer-note")
        self.select.observe(lambda _change: self._show_selected(), names="value")
        self.input.observe(lambda _change: self._refresh(), names="value")
        self.children = [self.select, self.input, self.views, note]
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
    def count_view(self) -> widgets.HTML:
        """The count line of the tokenizer shown now."""
        return self._counts[self.tokenizer_name]

    @property
    def chips_view(self) -> widgets.HTML:
        """The chips of the tokenizer shown now."""
        return self._chips[self.tokenizer_name]

    @property
    def ids(self) -> list[Any]:
        return list(self._ids)

    @property
    def token_count(self) -> int:
        """The number of tokens (what a model sees), not the number of chips."""
        return len(self._ids)

    @property
    def chip_count(self) -> int:
        return len(self._make_chips(self.tokenizer_name, self._pieces[:MAX_TOKENS_SHOWN]))

    @property
    def word_count(self) -> int | None:
        """How many words (or pieces) a word-level tokenizer closed with ``</w>``; None for others."""
        if self.tokenizer_name not in self._word_level:
            return None
        return sum(1 for piece in self._pieces if isinstance(piece, str) and piece.endswith(END_OF_WORD))

    def render_text(self) -> str:
        """The current state as text: what shows where widgets cannot render."""
        if self._error:
            return f"EncodeExplorer ({self.tokenizer_name}): {self._error}"
        n_bytes = len(self.text.encode("utf-8", "surrogatepass"))
        head = f"EncodeExplorer ({self.tokenizer_name}): {self.token_count} tokens"
        if self.word_count is not None:
            head += f" for {self.word_count} {self.word_unit}"
        head += f", {n_bytes} bytes"
        if self.token_count:
            head += f", {n_bytes / self.token_count:.2f} bytes per token"
        word_end = END_OF_WORD if self.tokenizer_name in self._word_level else None
        shown = chips_text(self._pieces[:40], word_end=word_end)
        return head + "\n" + shown + (" | …" if len(self._pieces) > 40 else "")

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.render_text()
        return bundle

    # ---- drawing -------------------------------------------------------------------------------

    def _make_chips(self, label: str, pieces: Sequence[str | bytes]) -> list[Chip]:
        return make_chips(pieces, word_end=END_OF_WORD if label in self._word_level else None)

    def _encoder(self, label: str) -> Callable[[str], Encoded]:
        encoder = self._encoders.get(label)
        if encoder is None:
            self._counts[label].value = f"loading {html.escape(label)}…"  # reaches the browser before the wait
            encoder = self._encoders[label] = encoder_for(self._sources[label](), self.word_split)
        return encoder

    def _refresh(self) -> None:
        """Draw the chosen tokenizer's view for the new text, and the others too while the text is
        short enough to keep every view in the notebook."""
        text = self.input.value
        for label in self._labels:
            if label == self.tokenizer_name or len(text) <= PRECOMPUTE_CHARS:
                self._draw(label, text)
            else:
                self._drawn_for[label] = None
                self._counts[label].value = (
                    "<div aria-live='polite' style='white-space:normal;line-height:1.5'>Not drawn yet: a text over "
                    f"{PRECOMPUTE_CHARS:,} characters is drawn for one tokenizer at a time, when you choose it "
                    "in the running notebook.</div>"
                )
                self._chips[label].value = ""
        self._show_selected()

    def _show_selected(self) -> None:
        label, text = self.tokenizer_name, self.input.value
        self.views.selected_index = self.select.index  # the browser does it too, through the link
        if self._drawn_for[label] != text:
            self._draw(label, text)
        self._ids, self._pieces, self._error = self._encoded[label]

    def _draw(self, label: str, text: str) -> None:
        try:
            ids, pieces = self._encoder(label)(text)
            error = None
        except (ValueError, TypeError, KeyError) as err:
            ids, pieces, error = [], [], f"could not encode this text: {err}"
        self._encoded[label] = (ids, pieces, error)
        self._drawn_for[label] = text
        if error is not None:
            self._counts[label].value = f"<div aria-live='polite'>{html.escape(error)}</div>"
            self._chips[label].value = ""
            return
        self._counts[label].value = self._summary_html(label, text, ids, pieces)
        shown, shown_ids = pieces[:MAX_TOKENS_SHOWN], ids[:MAX_TOKENS_SHOWN]
        word_end = END_OF_WORD if label in self._word_level else None
        chips = chips_html(shown, shown_ids, show_ids=self.show_ids, break_lines=True, word_end=word_end)
        self._chips[label].value = (
            f"<div class='bpe-chips-box' role='region' aria-label='{html.escape(label, quote=True)}: the tokens "
            "as chips' tabindex='0' style='max-height:320px;overflow:auto;white-space:normal'>" + chips + "</div>"
        )

    def _summary_html(self, label: str, text: str, ids: list[Any], pieces: list[str | bytes]) -> str:
        shown = pieces[:MAX_TOKENS_SHOWN]
        chips = self._make_chips(label, shown)
        n_tokens, n_bytes = len(ids), len(text.encode("utf-8", "surrogatepass"))
        head = f"<b>{n_tokens}</b> tokens"
        if label in self._word_level:
            n_words = sum(1 for p in pieces if isinstance(p, str) and p.endswith(END_OF_WORD))
            head += f" for {n_words} {self.word_unit}"
        parts = [head, f"{len(chips)} chips", f"{n_bytes} bytes"]
        if n_tokens:
            parts.append(f"{n_bytes / n_tokens:.2f} bytes per token")
        summary = " · ".join(parts)
        if len(chips) != len(shown):
            summary += f" <small>({html.escape(why_fewer_chips(chips))})</small>"
        if n_tokens > MAX_TOKENS_SHOWN:
            summary += f" <small>(showing the first {MAX_TOKENS_SHOWN} tokens)</small>"
        if UNKNOWN_ID in ids[:MAX_TOKENS_SHOWN]:
            summary += " <small>(? = a character never seen in training: it has no id)</small>"
        return (
            f"<div aria-live='polite' style='white-space:normal;overflow-wrap:anywhere;line-height:1.5'>{summary}</div>"
        )
