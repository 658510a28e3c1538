"""Tokenizers side by side: the same text, one row of chips per tokenizer, the cuts lined up.

Choose 2 to 4 tokenizers (your own, GPT-2, GPT-4, GPT-4o, Llama 3, Mistral 7B): each gets a row of chips, and
the rows are aligned on the text's bytes, so a place where one tokenizer cuts and another does not
is a vertical line in one row and none in the other. The stretches cut differently
(``bpelab.cuts.differing_spans``) are marked, and each is said in words with each row's tokens that
overlap it (``tokens_between``; ``bpelab.cuts`` defines "overlap"); beside each row, its token
count, bytes per token and count against the first row. gpt-oss's ``o200k_harmony`` cuts ordinary text exactly as GPT-4o's
``o200k_base`` (only its special tokens differ), so it gets a sentence, not a duplicate row.

It is the encode explorer with several rows: the same tokenizers, the same encodings sent to the
page, the same page encoders on the static site (``static/compare.js`` draws, with the explorer's
chips).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import traitlets

from bpelab.cuts import compared_lengths, covering_lengths, differing_spans, token_ranges, tokens_overlapping
from bpelab.widgets.chips import chips_text, show_whitespace
from bpelab.widgets.esm import bundle
from bpelab.widgets.explorer import DEFAULT_TEXT, EXPLORER_MODULES, PRECOMPUTE_CHARS, EncodeExplorer
from bpelab.widgets.fallback import counted
from bpelab.widgets.view_tokenizers import VIEW_TOKENIZERS
from bpelab.words import END_OF_WORD

COMPARE_MODULES = (*EXPLORER_MODULES, "cuts.js", "compare_stretches.js", "compare.js")
"""What the side-by-side view's ES module is made of (``esm.bundle`` joins them)."""
MAX_ROWS = 4
MAX_CHARS = 3000
"""The longest text compared side by side: rows of chips wider than that are no longer read."""


SHOWN_TOKENS = 40
"""The tokens of a row the text view shows (then as many more as end the character the 40th cuts)."""


def _whole_characters(pieces: Sequence[str | bytes], at_least: int) -> int:
    """How many of the first tokens the text view shows: ``at_least``, or a few more when the ``at_least``-th ends
    inside a character's UTF-8 bytes (Thai, an emoji in GPT-2's row), so that no half of a character is shown."""
    raw = [p if isinstance(p, bytes) else p.encode("utf-8", "surrogatepass") for p in pieces]
    shown = min(at_least, len(raw))
    while shown < len(raw):
        try:
            b"".join(raw[:shown]).decode("utf-8")
            break
        except UnicodeDecodeError as error:
            if error.reason != "unexpected end of data":  # a character cut at the end: take the next token
                break
        shown += 1
    return shown


class CompareView(EncodeExplorer):
    """The same text under 2 to 4 tokenizers, one aligned row of chips each, differing stretches marked.

    ``CompareView()`` offers the five production tokenizers (the first four are shown); ``CompareView({"mine": result})`` adds
    yours first. ``chosen``: the labels of the rows shown (default: the first four offered);
    ``word_split`` as for ``EncodeExplorer``. ``differing_spans`` gives the marked byte ranges.
    """

    widget_noun = "comparison"

    _esm = bundle(*COMPARE_MODULES)
    chosen = traitlets.List(traitlets.Unicode()).tag(sync=True)
    max_chars = traitlets.Int(MAX_CHARS).tag(sync=True)

    def __init__(
        self,
        tokenizers: Mapping[str, object] | Sequence[object] | object | None = None,
        *,
        text: str = DEFAULT_TEXT,
        production: Sequence[str] = VIEW_TOKENIZERS,
        chosen: Sequence[str] | None = None,
        show_ids: bool = False,
        word_split: str | None = None,
    ) -> None:
        super().__init__(tokenizers, text=text, production=production, show_ids=show_ids, word_split=word_split)
        if len(self.labels) < 2:
            raise ValueError(f"side by side needs at least two tokenizers, got {self.labels}")
        self.remove_class("bpe-explorer-widget")
        self.add_class("bpe-compare-widget")
        self.chosen = list(chosen) if chosen is not None else self.labels[:MAX_ROWS]
        self.observe(lambda _change: self._refresh(), names=["chosen"])
        self._refresh()

    @traitlets.validate("chosen")
    def _valid_chosen(self, proposal: dict[str, Any]) -> list[str]:
        chosen = [str(label) for label in proposal["value"]]
        unknown = [label for label in chosen if label not in self._labels]
        if unknown:
            raise traitlets.TraitError(f"no tokenizer is labelled {unknown[0]!r}; choose from {self._labels}")
        if not 2 <= len(set(chosen)) == len(chosen) <= MAX_ROWS:
            raise traitlets.TraitError(f"choose 2 to {MAX_ROWS} different tokenizers, got {chosen}")
        return [label for label in self._labels if label in chosen]  # rows in the menu's order

    # ---- the Python API ------------------------------------------------------------------------

    def _rows(self) -> list[tuple[str, list[Any], list[str | bytes]]]:
        rows = []
        for label in self.chosen:
            _text, ids, pieces, error = self._encode(label, self.text)
            if error is None:
                rows.append((label, ids, pieces))
        return rows

    def _lengths(self) -> list[list[int]]:
        return [
            compared_lengths(covering_lengths(self.text, pieces, self._word_end(label)))
            for label, _ids, pieces in self._rows()
        ]

    def _word_end(self, label: str) -> str | None:
        return END_OF_WORD if label in self._word_level else None

    @property
    def differing_spans(self) -> list[tuple[int, int]]:
        """The byte ranges the chosen tokenizers cut differently (what the page marks)."""
        return differing_spans(self._lengths())

    def tokens_between(self, start: int, end: int) -> dict[str, list[str]]:
        """Each chosen row's tokens that overlap the bytes ``start:end`` of the text (``bpelab.cuts``
        says exactly which), whitespace shown (``⋅`` a space): a stretch's count is the length of its
        row's list. A token that is part of a character shows its bytes' text with U+FFFD; a bare
        ``</w>`` shows as itself."""
        data = self.text.encode("utf-8", "surrogatepass")
        out = {}
        for label, _ids, pieces in self._rows():
            word_end = self._word_end(label)
            ranges = token_ranges(self.text, pieces, word_end)
            out[label] = [
                show_whitespace(data[a:b].decode("utf-8", "replace")) if a < b else (word_end or "")
                for a, b in (ranges[i] for i in tokens_overlapping(ranges, start, end))
            ]
        return out

    @property
    def counts(self) -> dict[str, int]:
        """Each chosen tokenizer's token count."""
        return {label: len(ids) for label, ids, _pieces in self._rows()}

    def render_text(self) -> str:
        """The rows as text: what shows where widgets cannot render."""
        data = self.text.encode("utf-8", "surrogatepass")
        rows = self._rows()
        first = len(rows[0][1]) if rows else 0
        spans = self.differing_spans
        stretches = f"{len(spans)} stretch{'' if len(spans) == 1 else 'es'}"  # '1 stretch', '3 stretches'
        lines = [f"CompareView: {len(rows)} tokenizers, {counted(len(data), 'byte')}, {stretches} cut differently"]
        for label, ids, pieces in rows:
            head = f"{label}: {counted(len(ids), 'token')}"
            if ids:
                head += f", {len(data) / len(ids):.2f} bytes per token"
            if first:
                head += f", {len(ids) / first:.2f}× the first row"
            lines.append(head)
            shown = _whole_characters(pieces, SHOWN_TOKENS)
            lines.append(
                "  "
                + chips_text(pieces[:shown], word_end=self._word_end(label))
                + (" | …" if len(pieces) > shown else "")
            )
        for label in self.chosen:  # a row that could not encode the text says why, instead of vanishing
            error = self._encode(label, self.text)[3]
            if error is not None:
                lines.append(f"{label}: {error}")
        return "\n".join(lines)

    # ---- computing what the page draws ----------------------------------------------------------

    def showing(self) -> list[str]:
        """The labels of the rows the page shows now: the chosen ones."""
        return list(self.chosen)

    def _refresh(self) -> None:
        """Encode the text with every chosen tokenizer (and the others too while the text is short and they
        are at hand, so that choosing another row needs no kernel); send them to the page."""
        chosen = self.chosen
        if not chosen:  # EncodeExplorer.__init__ asks before the rows are chosen: the first drawing comes after
            return
        text = self.text
        encodings = {}
        if len(text) <= MAX_CHARS:
            for label in self._labels:
                if label in chosen or (len(text) <= PRECOMPUTE_CHARS and self._at_hand(label, text)):
                    _text, ids, pieces, error = self._encode(label, text)
                    encodings[label] = {
                        "text": text,
                        "ids": ids if error is None else [],
                        "pieces": [p if isinstance(p, str) else list(p) for p in pieces] if error is None else [],
                        "count": len(ids),
                        "error": error,
                    }
        self.encodings = encodings
        self._let_go_of_unshown()
