"""The encode explorer: type text, see it as tokens (lessons 05 onwards).

Pick a tokenizer (your own, or GPT-2, GPT-4, GPT-4o, Llama 3, Mistral 7B), type or paste text, and see the
tokens as chips with their ids, whitespace made visible, the token count and bytes per token.

Tokens and chips are not always the same number: tokens that make up one character as you see it
(an emoji cut into byte pieces, or 👍🏽 kept as 👍 and a skin tone) are drawn as ONE chip, so the
count shown first is always the number of TOKENS, the number a model sees, and the chips are
counted beside it.

Python computes, the browser draws. The widget is an ``anywidget``: Python encodes the text with
each tokenizer (ids and each token's text or bytes, synced as ``encodings``) and one ES module
(``static/explorer.js``, bundled with the chips it draws) draws them. On a page without a kernel
(the course's static site) the same module encodes typed text itself: the word-level tokenizers by
replaying their merges (sent as ``tokenizers``), GPT-2, GPT-4, GPT-4o and Llama 3 with js-tiktoken,
Mistral 7B with the course's SentencePiece encoder (``static/sentencepiece.js``), each vocabulary loaded only
when chosen (``bpelab.widgets.view_tokenizers`` lists them); a tokenizer the page cannot run (a byte-level one of your
own) says it needs the running notebook. The note under the chips says which models use each
encoding, from tiktoken's own model table (``bpelab.model_table``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import regex
import traitlets

from bpelab.byte_level import BPETokenizer
from bpelab.patterns import resolve_pattern, split_text
from bpelab.text import replace_lone_surrogates
from bpelab.token_build import TokenBuild
from bpelab.widgets.chips import Chip, chips_text, is_invisible, make_chips, name_invisible
from bpelab.widgets.encoders import Encoded, encoder_for
from bpelab.widgets.esm import bundle
from bpelab.widgets.fallback import counted, counted_unit, with_fallback_text
from bpelab.widgets.js_regex import js_pattern
from bpelab.widgets.token_build_view import build_for
from bpelab.widgets.view_tokenizers import LABELS, VIEW_TOKENIZERS, load_view_tokenizer, page_entry
from bpelab.widgets.whole_state import OpensWhole
from bpelab.words import END_OF_WORD, TrainingResult

DEFAULT_TEXT = "Tokenizers don't read words. They read pieces: 2024, naïve, 東京, 🙂👍🏽\n\tand   spaces."
MAX_TOKENS_SHOWN = 3000
"""The tokens per tokenizer kept in the widget's state (so in a saved notebook); the page asks Python for the
rest of a longer text by message (``ALL_TOKENS``) and draws them as they scroll into view."""
ALL_TOKENS = "all tokens"
PRECOMPUTE_CHARS = 500
"""Up to this many characters, every tokenizer's encoding is sent when the view is made (so that switching
needs no kernel, and a static page shows Llama 3 too for the stored text); a longer text is encoded for the
chosen tokenizer only, to keep notebooks small. After that first drawing, a production tokenizer no row shows
is let go (``EncodeExplorer.showing``): a changed text is encoded for the others only while one is at hand."""
EXPLORER_MODULES = (
    "chips.js",
    "bpe.js",
    "sentencepiece.js",
    "sentencepiece_build.js",
    "production.js",
    "token_build.js",
    "token_build_view.js",
    "chips_in_view.js",
    "page_address.js",
    "explorer_link.js",
    "encode_in_slices.js",
    "view_basics.js",
    "word_level.js",
    "count_line.js",
    "chip_builds.js",
    "explorer.js",
)
"""What the explorer's ES module is made of (``esm.bundle`` joins them)."""
BROWSER_ENCODINGS = ("r50k_base", "cl100k_base", "o200k_base", "llama3")
"""tiktoken encodings a static page runs itself (js-tiktoken; ``bpelab/course/tiktoken_scripts.py``)."""
PUNCTUATION_PROBE = "end."
"""A word-level split that cuts this in two counts punctuation as pieces of its own."""


def _constant(value: object) -> Callable[[], object]:
    return lambda: value


def _describe(tokenizer: object, index: int) -> str:
    if isinstance(tokenizer, TrainingResult):
        return f"your word-level BPE ({len(tokenizer.merges)} merges)"
    if isinstance(tokenizer, BPETokenizer):
        return f"your byte-level BPE ({tokenizer.vocab_size} tokens)"
    return f"your tokenizer {index + 1}"


def split_character(chip: Chip) -> str:
    """The first character as you see it (a grapheme, the regex module's ``\\X``) that the chip's tokens split:
    ``é`` in a chip ``fé`` whose tokens are ``fe`` and U+0301, not the whole chip. The chip's text if none is."""
    cuts = {len(chip.raw[:offset].decode("utf-8", "replace")) for offset in chip.joins}
    for grapheme in regex.finditer(r"\X", chip.text):
        if any(grapheme.start() < cut < grapheme.end() for cut in cuts):
            return grapheme.group()
    return chip.text.removesuffix(END_OF_WORD)


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
        shown = split_character(kept_apart)  # the character, not its whole chip ("é", not "afé")
        shown = name_invisible(shown) if is_invisible(shown) else shown.strip()  # never "such as , whose"
        reasons.append(f"one character as you see it, such as {shown}, whose code points they keep apart")
    if not reasons:
        return ""
    return "fewer chips than tokens: a chip spanning several tokens holds " + ", or ".join(reasons)


class EncodeExplorer(OpensWhole):
    """Type text and see it tokenized as chips, by your tokenizer(s) or a production one.

    ``EncodeExplorer()`` offers the five production tokenizers (``view_tokenizers.VIEW_TOKENIZERS``);
    ``EncodeExplorer({"mine, 200 merges": result})`` puts yours first (a mapping from a label to a
    tokenizer, or a list of tokenizers). ``word_split``: the regex a word-level tokenizer's training
    text was cut with (default: whitespace).
    """

    _esm = bundle(*EXPLORER_MODULES)
    widget_noun = "explorer"
    """What the text shown in place of the widget asks to draw (``fallback.draw_hint``)."""
    tokenizers = traitlets.List(traitlets.Dict()).tag(sync=True)
    """What the page needs to know of each tokenizer: its label, its kind, and for the ones it can
    run without Python the data to run them (a word-level tokenizer's merges, vocabulary and split)."""
    text = traitlets.Unicode(DEFAULT_TEXT).tag(sync=True)
    selected = traitlets.Int(0).tag(sync=True)
    encodings = traitlets.Dict().tag(sync=True)
    """label -> {"text", "ids", "pieces", "error"}: Python's encoding of ``text`` (pieces: a word-level
    token's text, or a byte-level token's bytes as a list of numbers)."""
    show_ids = traitlets.Bool(True).tag(sync=True)
    max_tokens = traitlets.Int(MAX_TOKENS_SHOWN).tag(sync=True)
    build_request = traitlets.Dict().tag(sync=True)
    """The chip the learner clicked, set by the page: {"label", "text", "index"} (the token's position)."""
    token_build = traitlets.Dict().tag(sync=True)
    """Python's answer: the request, and "build" (TokenBuild.as_dict(), the panel's data) or "error"."""

    def __init__(
        self,
        tokenizers: Mapping[str, object] | Sequence[object] | object | None = None,
        *,
        text: str = DEFAULT_TEXT,
        production: Sequence[str] = VIEW_TOKENIZERS,
        selected: str | None = None,
        show_ids: bool = True,
        word_split: str | None = None,
    ) -> None:
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
        self._loaded_here: set[str] = set()
        """The labels of the production tokenizers: loaded by the view when needed, let go when not shown."""
        self._drawn = False
        self._word_level: set[str] = set()
        described: list[dict[str, Any]] = []
        for label, tok in self._learner_tokenizers(tokenizers):
            encoder_for(tok, word_split)  # a clear error now, not on the first keystroke
            self._add(label, _constant(tok))
            if isinstance(tok, TrainingResult):
                self._word_level.add(label)
            described.append(self._describe_for_page(label, tok))
        for name in production:
            described.append(page_entry(name))  # a clear error for an unknown name
            self._add(LABELS[name], partial(load_view_tokenizer, name))
            self._loaded_here.add(LABELS[name])
        if not self._labels:
            raise ValueError("nothing to choose from: pass a tokenizer or keep the production ones")
        if selected is not None and selected not in self._labels:
            raise ValueError(f"selected must be one of {self._labels}, got {selected!r}")
        self._encoded: dict[str, tuple[str, list[Any], list[str | bytes], str | None]] = {}
        super().__init__(
            tokenizers=described,
            text=text,
            selected=self._labels.index(selected) if selected is not None else 0,
            show_ids=show_ids,
        )
        self.add_class("bpe-explorer-widget")
        self.observe(lambda _change: self._refresh(), names=["text", "selected"])
        self.observe(lambda change: self._answer_build(change["new"]), names=["build_request"])
        self.on_msg(self._on_page_message)
        self._refresh()

    def _describe_for_page(self, label: str, tok: object) -> dict[str, Any]:
        if isinstance(tok, TrainingResult):
            split = js_pattern(resolve_pattern(self.word_split) or "") if self.word_split is not None else None
            if self.word_split is None or split is not None:
                return {
                    "label": label,
                    "kind": "word",
                    "merges": [[left, right, merged] for (left, right), merged in tok.merges],
                    "vocabulary": list(tok.vocabulary),
                    "split": split,
                    "wordUnit": self.word_unit,
                }
        return {"label": label, "kind": "word-python" if isinstance(tok, TrainingResult) else "other"}

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

    @traitlets.validate("selected")
    def _valid_selected(self, proposal: dict[str, Any]) -> int:
        value = int(proposal["value"])
        if not 0 <= value < len(self.tokenizers or self._labels):
            raise traitlets.TraitError(f"selected must be 0 to {len(self._labels) - 1}, got {value}")
        return value

    @traitlets.validate("text")
    def _valid_text(self, proposal: dict[str, Any]) -> str:
        """A str; a lone surrogate (half of a UTF-16 pair, no character, no UTF-8 bytes) becomes U+FFFD here,
        as tiktoken's ``encode`` replaces it, so every row encodes, draws and counts the same text."""
        if not isinstance(proposal["value"], str):
            raise TypeError(f"text must be a str, got {type(proposal['value']).__name__}")
        return replace_lone_surrogates(str(proposal["value"]))

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def labels(self) -> list[str]:
        """The tokenizers' names, in the menu's order."""
        return list(self._labels)

    @property
    def tokenizer_name(self) -> str:
        return self._labels[self.selected]

    @tokenizer_name.setter
    def tokenizer_name(self, label: str) -> None:
        if label not in self._labels:
            raise ValueError(f"choose one of {self._labels}, got {label!r}")
        self.selected = self._labels.index(label)

    def encoding_of(self, label: str | None = None) -> tuple[list[Any], list[str | bytes]]:
        """(ids, token pieces) of the current text under ``label`` (default: the one chosen)."""
        label = label or self.tokenizer_name
        if label not in self._labels:
            raise ValueError(f"choose one of {self._labels}, got {label!r}")
        _text, ids, pieces, _error = self._encode(label, self.text)
        return list(ids), list(pieces)

    @property
    def ids(self) -> list[Any]:
        return self.encoding_of()[0]

    @property
    def pieces(self) -> list[str | bytes]:
        return self.encoding_of()[1]

    @property
    def token_count(self) -> int:
        """The number of tokens (what a model sees), not the number of chips."""
        return len(self.ids)

    @property
    def chips(self) -> list[Chip]:
        """The chips drawn for the tokenizer chosen now (the first ``MAX_TOKENS_SHOWN`` tokens)."""
        return self._make_chips(self.tokenizer_name, self.pieces[:MAX_TOKENS_SHOWN])

    @property
    def chip_count(self) -> int:
        return len(self.chips)

    @property
    def note(self) -> str:
        """Why there are fewer chips than tokens, or "" (the page shows it beside the count)."""
        return why_fewer_chips(self.chips)

    @property
    def word_count(self) -> int | None:
        """How many words (or pieces) a word-level tokenizer closed with ``</w>``; None for others."""
        if self.tokenizer_name not in self._word_level:
            return None
        return sum(1 for piece in self.pieces if isinstance(piece, str) and piece.endswith(END_OF_WORD))

    def render_text(self) -> str:
        """The current state as text: what shows where widgets cannot render."""
        _text, _ids, pieces, error = self._encode(self.tokenizer_name, self.text)
        if error:
            return f"EncodeExplorer ({self.tokenizer_name}): {error}"
        n_bytes = len(self.text.encode("utf-8", "surrogatepass"))
        head = f"EncodeExplorer ({self.tokenizer_name}): {counted(self.token_count, 'token')}"
        if self.word_count is not None:
            head += f" for {counted_unit(self.word_count, self.word_unit)}"
        head += f", {counted(n_bytes, 'byte')}"
        if self.token_count:
            head += f", {n_bytes / self.token_count:.2f} bytes per token"
        word_end = END_OF_WORD if self.tokenizer_name in self._word_level else None
        shown = chips_text(pieces[:40], word_end=word_end)
        return head + "\n" + shown + (" | …" if len(pieces) > 40 else "")

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # the summary, and what brings the widget back where it is shown as text (an untrusted notebook)
        return with_fallback_text(super()._repr_mimebundle_(**kwargs), self.render_text(), self.widget_noun)

    # ---- computing what the page draws ----------------------------------------------------------

    def _make_chips(self, label: str, pieces: Sequence[str | bytes]) -> list[Chip]:
        return make_chips(pieces, word_end=END_OF_WORD if label in self._word_level else None)

    def _encoder(self, label: str) -> Callable[[str], Encoded]:
        encoder = self._encoders.get(label)
        if encoder is None:
            encoder = self._encoders[label] = encoder_for(self._sources[label](), self.word_split)
        return encoder

    def _encode(self, label: str, text: str) -> tuple[str, list[Any], list[str | bytes], str | None]:
        cached = self._encoded.get(label)
        if cached is not None and cached[0] == text:
            return cached
        try:
            ids, pieces = self._encoder(label)(text)
            error = None
        except (ValueError, TypeError, KeyError) as err:
            ids, pieces, error = [], [], f"could not encode this text: {err}"
        self._encoded[label] = (text, list(ids), list(pieces), error)
        return self._encoded[label]

    def showing(self) -> list[str]:
        """The labels of the rows the page shows now (the explorer: the chosen tokenizer)."""
        return [self.tokenizer_name]

    def _at_hand(self, label: str, text: str) -> bool:
        """Whether ``label``'s encoding of ``text`` costs no loading: the view's first drawing (which loads
        every tokenizer once), a tokenizer of the learner's own, one held now, or ``text`` already encoded."""
        cached = self._encoded.get(label)
        return (
            not self._drawn
            or label not in self._loaded_here
            or label in self._encoders
            or (cached is not None and cached[0] == text)
        )

    def _let_go_of_unshown(self) -> None:
        """Drop the production tokenizers no row shows (issue 30's memory budget: each vocabulary costs 10 to
        40 MB, and a view offering five held them all until the kernel ended). Choosing one again loads it
        (up to a second); until the text changes, its encoding is still at hand. After the first drawing even
        the shown ones go: a lesson run top to bottom leaves its views holding nothing, and the rows a learner
        types into load once (the page answers from its own encoders meanwhile) and are then kept."""
        shown = set(self.showing()) if self._drawn else set()
        for label in [label for label in self._encoders if label in self._loaded_here and label not in shown]:
            del self._encoders[label]
        self._drawn = True

    def _refresh(self) -> None:
        """Encode the text with the chosen tokenizer, and with the others too while it is short
        enough to keep every encoding in the notebook and they are at hand (``_at_hand``); send them to the
        page."""
        text = self.text
        chosen = self.tokenizer_name
        encodings = {}
        for label in self._labels:
            if label == chosen or (len(text) <= PRECOMPUTE_CHARS and self._at_hand(label, text)):
                _text, ids, pieces, error = self._encode(label, text)
                encodings[label] = {
                    "text": text,
                    "ids": ids[:MAX_TOKENS_SHOWN] if error is None else [],
                    "pieces": [p if isinstance(p, str) else list(p) for p in pieces[:MAX_TOKENS_SHOWN]],
                    "count": len(ids),
                    "error": error,
                }
        self.encodings = encodings
        self._let_go_of_unshown()

    # ---- how a clicked chip's token was built (the panel, static/token_build_view.js) ----------

    def build_of(self, index: int, label: str | None = None) -> TokenBuild:
        """How the ``index``-th token of the current text (under ``label``, default: the one chosen) was built."""
        label = label or self.tokenizer_name
        ids, pieces = self.encoding_of(label)
        if not ids:
            raise ValueError(
                "the text is empty, so it has no token to build: give the explorer a text first (type one in its "
                "box, or set explorer.text = ' Kubernetes')"
            )
        if not 0 <= index < len(ids):
            raise ValueError(f"index must be 0 to {len(ids) - 1} (a token of the text), got {index}")
        return build_for(self._sources[label](), ids[index], pieces[index])

    def _answer_build(self, request: dict[str, Any]) -> None:
        """Answer the page's request: the build, or what went wrong, with the request it answers."""
        if not request:
            return
        answer: dict[str, Any] = dict(request)
        try:
            if request.get("label") not in self._labels or request.get("text") != self.text:
                raise ValueError("the text or tokenizer changed: click the chip again")
            answer["build"] = self.build_of(int(request["index"]), str(request["label"])).as_dict()
        except (ValueError, TypeError, KeyError) as err:
            answer["error"] = str(err)
        self.token_build = answer

    def _on_page_message(self, _widget: object, content: Any, _buffers: object) -> None:
        """The page asks for every token of a long text: ``encodings`` holds the first ``MAX_TOKENS_SHOWN``
        (a saved notebook stays small), the rest goes as a message, which no notebook keeps."""
        if not isinstance(content, dict) or content.get("want") != ALL_TOKENS:
            return
        label, text = content.get("label"), content.get("text")
        if label not in self._labels or not isinstance(text, str):
            return
        _text, ids, pieces, error = self._encode(label, text)
        if error is None:
            shown = [p if isinstance(p, str) else list(p) for p in pieces]
            self.send({ALL_TOKENS: {"label": label, "text": text, "ids": ids, "pieces": shown, "count": len(ids)}})
