"""The merge stepper: replay BPE training one merge at a time (lessons 04, 07 and 11).

Give it what ``bpelab.train_bpe`` returned and step through the merges: every word is drawn as
token chips, with the pair just merged and the pair about to merge marked, beside the table of
pair counts, the merge log and the running totals.

Step numbering: step ``n`` is the corpus after ``n`` merges (step 0: nothing merged yet). At step
``n`` the stepper highlights ``result.steps[n - 1].pair``, the pair merged AT step n, where it now
stands as one merged chip (``highlighted_pair``); it also marks ``result.steps[n].pair``, the pair
that merges next (``upcoming_pair``). So after n clicks of "Next ▶" from the start, the stepper
shows step n and highlights ``result.steps[n - 1].pair``.

One view, everywhere. Each step's whole view is one HTML string (``view_html(step)``), computed in
Python. The first steps' views are computed at once and kept in a ``widgets.Stack``, whose shown
child follows the step box through ``jslink``; the Play timer is linked to the step box the same
way. Links and the timer run in the browser, so a page without a kernel (the course's static site,
``make html``) can still step: the small script ``bpelab/widgets/static/stepper.js`` lets Next,
Back, First, Last and the → / ← keys move the step box there. With a kernel, Python does the moves
and draws any step past the precomputed ones into the Stack's last child. The precomputed views are
bounded (``static_steps`` steps and ``STATIC_BYTES`` of HTML) so that a notebook stays small; past
the bound, a page without a kernel says that those steps need one.

``render_text()`` is the same state as one line of text: it is what a notebook shows where widgets
cannot render, and what nbval compares.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Sequence
from heapq import nsmallest
from typing import Any

import ipywidgets as widgets
import regex

from bpelab.analysis.replay import WordReplay, merge_sites, replay_word
from bpelab.widgets.chips import CHIP_CSS, PALETTE, chips_html, make_chips
from bpelab.words import END_OF_WORD, count_pairs

Symbol = Hashable

STEPPER_VERSION = 3
"""Raised whenever the stepper's saved widget state changes shape; a lesson saved by an older
version shows an out-of-date view in the static site (``tests/test_stepper.py`` checks the lessons)."""
VERSION_CLASS = f"bpe-stepper-v{STEPPER_VERSION}"

STATIC_STEPS = 40
"""How many steps' views are computed up front (for pages without a kernel), at most."""
STATIC_BYTES = 160_000
"""...and at most this much HTML per stepper, so that a lesson file stays well under 1 MB."""

TIE_RULE_NAMES: dict[str, str] = {"first": "first seen", "lexicographic": "smallest pair"}
"""What people read for ``tie_break="first"`` and ``"lexicographic"``, everywhere in the course's widgets."""

STEPPER_CSS = """<style>
.bpe-stepper .bpe-sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0, 0, 0, 0); white-space: nowrap; border: 0; }
.bpe-stepper .bpe-controls { flex-wrap: wrap; align-items: center; gap: 4px 6px; }
.bpe-stepper .bpe-status > div { margin: 2px 0; overflow-wrap: anywhere; }
.bpe-stepper .bpe-step-label { font-weight: bold; font-size: 1.1em; }
.bpe-stepper .bpe-columns { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: flex-start; }
.bpe-stepper .bpe-left { flex: 1 1 340px; min-width: 0; }
.bpe-stepper .bpe-right { flex: 1 1 280px; min-width: 0; }
.bpe-stepper .bpe-words { max-height: 360px; overflow: auto; }
.bpe-stepper .bpe-words:focus, .bpe-stepper .bpe-log:focus { outline: 2px solid #1a5fb4; }
.bpe-stepper .bpe-word-table, .bpe-stepper .bpe-pair-table { border-collapse: collapse; }
.bpe-stepper .bpe-word-table td { vertical-align: top; }
.bpe-stepper .bpe-word-table .bpe-freq { text-align: right; padding-right: 8px; white-space: nowrap; }
.bpe-stepper .bpe-pair-table td { padding: 0 6px 0 0; overflow-wrap: anywhere; }
.bpe-stepper .bpe-pair-table .bpe-score { text-align: right; }
.bpe-stepper .bpe-pair-table .bpe-winner { font-weight: bold; }
.bpe-stepper .bpe-bar { background: #4477AA; height: 10px; }
.bpe-stepper .bpe-log { max-height: 220px; overflow: auto; }
.bpe-stepper .bpe-log div { line-height: 1.4; overflow-wrap: anywhere; }
.bpe-stepper .bpe-legend, .bpe-stepper .bpe-note { font-size: 0.9em; }
.bpe-stepper .bpe-merged-sample { outline: 3px solid #222; outline-offset: -1px; font-weight: bold; padding: 0 3px; }
.bpe-stepper .bpe-next-sample { border-bottom: 3px dashed #000; }
</style>"""
"""Scoped to the stepper. The columns wrap instead of clipping (``flex-wrap``, ``min-width: 0``)."""

LEGEND = (
    "<div class='bpe-legend'>Chips: <span class='bpe-merged-sample'>bold outline</span> = merged at this step · "
    "<span class='bpe-next-sample'>dashed underline</span> = merges next · colours follow the symbol (six "
    "colours, so symbols share them; a striped chip has its left neighbour's colour){end}.</div>"
)
END_MARKER_NOTE = " · <code>&lt;/w&gt;</code> ends a word"

_PUNCTUATION_ONLY = regex.compile(r"^[^\w\s]+$")


def _check_result(result: object) -> None:
    if not hasattr(result, "steps") or not hasattr(result, "initial_word_freq"):
        hint = ""
        if hasattr(result, "encode"):
            hint = " To replay how a tokenizer builds one word, use MergeStepper.for_word(tokenizer, text)."
        raise TypeError(
            "MergeStepper needs what bpelab.train_bpe(text, num_merges) returns (a TrainingResult), "
            f"got {type(result).__name__}.{hint}"
        )
    if not result.steps and getattr(result, "merges", None):
        raise ValueError(
            "this result holds merges but no recorded steps (method='fast' records none); "
            "train with train_bpe(text, num_merges) (method='naive') to replay it"
        )


def _check_count(value: object, name: str, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be a whole number of at least {least}, got {value!r}")
    return value


def word_characters(word: Sequence[Symbol]) -> int:
    """How many characters a word has, counted on its starting symbols: one per character, the
    end-of-word marker ``</w>`` none. Merging never changes it, wherever ``</w>`` ends up."""
    return sum(1 for symbol in word if symbol != END_OF_WORD)


class MergeStepper(widgets.VBox):
    """Step through the merges of a BPE training run (or of one word's encoding).

    ``MergeStepper(train_bpe(text, 10))``; then click, or use ``.next()``, ``.back()``,
    ``.first()``, ``.last()``, or set ``.step``. ``static_steps`` bounds how many steps can be
    stepped through in a page without a kernel.
    """

    def __init__(
        self,
        result: Any,
        *,
        top_words: int = 40,
        top_pairs: int = 10,
        log_rows: int = 12,
        static_steps: int = STATIC_STEPS,
    ) -> None:
        super().__init__()
        _check_result(result)
        self.result = result
        self.top_words = _check_count(top_words, "top_words")
        self.top_pairs = _check_count(top_pairs, "top_pairs")
        self.log_rows = _check_count(log_rows, "log_rows")
        _check_count(static_steps, "static_steps", least=0)
        self._merge_steps = list(result.steps)
        self._corpora = [dict(result.initial_word_freq)] + [dict(s.word_freq) for s in self._merge_steps]
        self._token_bytes: dict[int, bytes] | None = getattr(result, "token_bytes", None)
        self._score_name: str = getattr(result, "score_name", "count")
        self._lower_wins: bool = getattr(result, "lower_wins", False)
        self._tie_break: str = getattr(result, "tie_break", "first")
        sizes = {len(corpus) for corpus in self._corpora}
        if len(sizes) > 1:
            raise ValueError("every step of the result must hold the same words; was it changed after training?")
        counts = list(self._corpora[0].values())
        # word counts never change while merging, so the words on screen are chosen once
        by_frequency = sorted(range(len(counts)), key=lambda i: (-counts[i], i))
        self._visible = by_frequency[: self.top_words]
        self._word_counts = counts
        self._characters = sum(word_characters(word) * n for word, n in self._corpora[0].items())
        self._unit = self._unit_name()
        order = [s for word in self._corpora[0] for s in word] + [step.new_symbol for step in self._merge_steps]
        self._colour_index = {symbol: i for i, symbol in enumerate(dict.fromkeys(order))}
        self._stats_cache: dict[int, str] = {}
        self._step = 0
        self._drawing = False
        self._build(static_steps)
        self._show(0)

    # ---- construction ------------------------------------------------------------------------

    @classmethod
    def for_word(cls, tokenizer: object, text: str, **kwargs: Any) -> MergeStepper:
        """Replay how a byte-level tokenizer (a ``BPETokenizer``, a tiktoken ``Encoding``, or a
        name such as "cl100k_base") builds ``text``, merge by merge, lowest rank first."""
        return cls(replay_word(tokenizer, text), **kwargs)

    def _unit_name(self) -> str:
        """ "words", or "pieces (words and punctuation)" when punctuation stands as pieces of its own."""
        if self._token_bytes is not None:
            return "pieces"
        for word in self._corpora[0]:
            text = "".join(str(s) for s in word if s != END_OF_WORD)
            if _PUNCTUATION_ONLY.match(text):
                return "pieces (words and punctuation)"
        return "words"

    def _build(self, static_steps: int) -> None:
        n = len(self._merge_steps)

        def button(label: str, css: str, tip: str, handler: Any) -> widgets.Button:
            b = widgets.Button(description=label, tooltip=tip, layout=widgets.Layout(width="auto"))
            b.add_class(css)
            b.on_click(lambda _b: handler())
            return b

        self.first_button = button("◀◀ First", "bpe-first", "back to step 0, before any merge", self.first)
        self.back_button = button("◀ Back", "bpe-back", "undo one merge", self.back)
        self.next_button = button("Next ▶", "bpe-next", "make the next merge", self.next)
        self.last_button = button("Last ▶▶", "bpe-last", "jump to the last merge", self.last)
        self.play_button = widgets.ToggleButton(
            description="Play", tooltip="play the merges one by one", layout=widgets.Layout(width="auto")
        )
        self.play_button.add_class("bpe-play")
        self.play_button.disabled = n == 0
        # The timer counts in the browser (a hidden Play widget, linked below); its own buttons are
        # icon-only, which may not load offline, so the visible control is the text button above.
        self._timer = widgets.Play(
            min=0, max=max(n, 1), interval=800, show_repeat=False, layout=widgets.Layout(display="none")
        )
        # A number box, not a slider: it carries its label as an accessible name (ipywidgets'
        # slider handle has none), and ↑ / ↓ step it in any page, with or without a kernel.
        self.step_box = widgets.BoundedIntText(
            min=0,
            max=n,
            value=0,
            description="step",
            tooltip=f"the step to show, 0 to {n}",
            continuous_update=True,
            layout=widgets.Layout(width="150px"),
        )
        self.step_box.add_class("bpe-step-box")

        # the views: steps 0..bound computed now; later steps share one child drawn on demand
        # (one Layout and one style for all of them: each would otherwise be saved with the notebook)
        layout, style = widgets.Layout(), widgets.widget_string.HTMLStyle()

        def page(value: str) -> widgets.HTML:
            view = widgets.HTML(value, layout=layout, style=style)
            view.add_class("bpe-view")
            return view

        self.pages: list[widgets.HTML] = []
        size = 0
        for step in range(n + 1):
            view = self.view_html(step)
            if step > static_steps or (step > 0 and size + len(view) > STATIC_BYTES):
                break
            size += len(view)
            self.pages.append(page(view))
        self.static_steps = len(self.pages) - 1
        children: list[widgets.HTML] = list(self.pages)
        self.live_page: widgets.HTML | None = None
        if n > self.static_steps:
            self.live_page = page(self._beyond_html())
            self.live_page.add_class("bpe-live-view")
            children += [self.live_page] * (n - self.static_steps)
        self.views = widgets.Stack(children, selected_index=0)
        self.views.add_class("bpe-views")

        self.announcer = widgets.HTML()
        self.announcer.add_class("bpe-announce")

        # Python follows the step box only: the timer reaches it through its link, and a timer value
        # echoed back late (after a quick second click) must not move the stepper back
        self.step_box.observe(lambda change: self._go(change["new"]), names="value")
        self._timer.observe(self._on_timer_playing, names="playing")
        self.play_button.observe(self._on_play_toggled, names="value")
        # the same moves in the browser, so they work where no kernel answers. The view follows the
        # step box one way only: a link back would echo each view change to the kernel as a step,
        # late, after a quick second click
        self._links = [
            widgets.jsdlink((self.step_box, "value"), (self.views, "selected_index")),
            widgets.jslink((self.step_box, "value"), (self._timer, "value")),  # the box first: it holds the step
            widgets.jslink((self.play_button, "value"), (self._timer, "playing")),
        ]

        controls = widgets.HBox(
            [
                self.first_button,
                self.back_button,
                self.next_button,
                self.last_button,
                self.play_button,
                self.step_box,
                self._timer,
            ]
        )
        controls.add_class("bpe-controls")
        head = widgets.HTML(STEPPER_CSS + self._head_note())
        head.add_class("bpe-head")
        has_marker = any(END_OF_WORD in word for word in self._corpora[0])
        legend = widgets.HTML(LEGEND.format(end=END_MARKER_NOTE if has_marker else ""))
        legend.add_class("bpe-legend-box")
        self.children = [head, controls, self.announcer, self.views, legend]
        self.add_class("bpe-stepper")
        self.add_class(VERSION_CLASS)

    def _head_note(self) -> str:
        n = self.num_steps
        if n <= self.static_steps:
            return ""
        return (
            f"<div class='bpe-note bpe-static-note'>Without a running kernel (a web page of the course) this "
            f"stepper shows steps 0 to {self.static_steps}; run the notebook to step through all {n}.</div>"
        )

    def _beyond_html(self) -> str:
        return (
            f"<div class='bpe-page bpe-beyond'><p><b>Steps {self.static_steps + 1} to {self.num_steps} need a "
            "running kernel.</b> This page stores the first "
            f"{self.static_steps} steps; open the notebook and run it to see the rest.</p></div>"
        )

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def num_steps(self) -> int:
        """How many merges there are to replay (the last step's number)."""
        return len(self._merge_steps)

    @property
    def step(self) -> int:
        """The current step: the number of merges made so far (0 to ``num_steps``)."""
        return self._step

    @step.setter
    def step(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"step must be a whole number, got {type(value).__name__}")
        if not 0 <= value <= self.num_steps:
            raise ValueError(f"step must be between 0 and {self.num_steps} (the number of merges), got {value}")
        self._go(value)

    def next(self) -> None:
        """One merge forward (stays at the last step)."""
        self._go(min(self._step + 1, self.num_steps))

    def back(self) -> None:
        """One merge back (stays at step 0)."""
        self._go(max(self._step - 1, 0))

    def first(self) -> None:
        self._go(0)

    def last(self) -> None:
        self._go(self.num_steps)

    @property
    def highlighted_pair(self) -> tuple[Symbol, Symbol] | None:
        """The pair merged AT the current step (``result.steps[step - 1].pair``), drawn as a merged
        chip; None at step 0."""
        return self._merge_steps[self._step - 1].pair if self._step > 0 else None

    @property
    def upcoming_pair(self) -> tuple[Symbol, Symbol] | None:
        """The pair that merges next (``result.steps[step].pair``); None after the last merge."""
        return self._merge_steps[self._step].pair if self._step < self.num_steps else None

    @property
    def word_freq(self) -> dict[tuple[Symbol, ...], int]:
        """The corpus as it stands at the current step."""
        return self._corpora[self._step]

    @property
    def shown_html(self) -> str:
        """The HTML of the view the Stack shows now (what a browser draws)."""
        index = self.views.selected_index
        return "" if index is None else self.views.children[index].value

    def characters_per_token(self, step: int | None = None) -> float:
        """The corpus' characters over its tokens at ``step`` (default: now). A character is one of
        a word's own characters; ``</w>`` counts as none, whether alone or inside a merged symbol."""
        corpus = self._corpora[self._step if step is None else step]
        tokens = sum(len(word) * n for word, n in corpus.items())
        return self._characters / tokens if tokens else 0.0

    def render_text(self) -> str:
        """The current state in one line: the text shown where widgets cannot render."""
        n, total = self._step, self.num_steps
        parts = [f"{self._title()}: {total} merge{'s' if total != 1 else ''}", f"step {n} of {total}"]
        if n > 0:
            done = self._merge_steps[n - 1]
            parts.append(
                f"merged at step {n}: {self._pair_text(done.pair)} -> {self._symbol_text(done.new_symbol)} "
                f"({self._score_name} {done.count})"
            )
        if n < total:
            coming = self._merge_steps[n]
            parts.append(f"next merge: {self._pair_text(coming.pair)} ({self._score_name} {coming.count})")
        else:
            parts.append("no merges left")
        return "; ".join(parts)

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.render_text()  # stable: no model id, no address
        return bundle

    # ---- moving --------------------------------------------------------------------------------

    def _go(self, step: int) -> None:
        step = int(step)
        if self._drawing or step == self._step or not 0 <= step <= self.num_steps:
            return  # already there, a control echoing the change being drawn, or out of range
        self._show(step)

    def _show(self, step: int) -> None:
        self._drawing = True
        try:
            self._draw(step)
        finally:
            self._drawing = False

    def _draw(self, step: int) -> None:
        self._step = step
        total = self.num_steps
        if self.live_page is not None:
            self.live_page.value = self.view_html(step) if step > self.static_steps else self._beyond_html()
        # keep the controls in step without re-entering _go (the links do the same in the browser,
        # and carry the step on to the Play timer)
        self.views.selected_index = step
        self.step_box.value = step
        self.first_button.disabled = self.back_button.disabled = step == 0
        self.next_button.disabled = self.last_button.disabled = step == total
        self.announcer.value = (
            f"<div role='status' aria-live='polite' aria-atomic='true' class='bpe-sr-only'>"
            f"{html.escape(self.announcement(step))}</div>"
        )

    def announcement(self, step: int) -> str:
        """The sentence a screen reader hears at ``step``: "Step 3 of 10: merged t + h into th, count 268"."""
        head = f"Step {step} of {self.num_steps}"
        if step == 0:
            return f"{head}: nothing merged yet"
        done = self._merge_steps[step - 1]
        return (
            f"{head}: merged {self._symbol_plain(done.pair[0])} + {self._symbol_plain(done.pair[1])} into "
            f"{self._symbol_plain(done.new_symbol)}, {self._score_name} {done.count}"
        )

    # ---- one step's view, as HTML --------------------------------------------------------------

    def view_html(self, step: int) -> str:
        """Everything the stepper shows at ``step``: the same HTML with or without a kernel."""
        return (
            f"<div class='bpe-page' data-step='{step}' data-announce='{html.escape(self.announcement(step))}'>"
            "<div class='bpe-status'>"
            f"<div class='bpe-step-label'>Step {step} of {self.num_steps}</div>"
            f"<div class='bpe-pair'>{self._pair_html(step)}</div>"
            f"<div class='bpe-next-pair'>{self._next_pair_html(step)}</div>"
            f"<div class='bpe-stats'>{self._stats_html(step)}</div>"
            "</div><div class='bpe-columns'><div class='bpe-left'>"
            f"<div class='bpe-note bpe-words-note'>{self._words_note()}</div>"
            f"<div class='bpe-words' tabindex='0' role='region' aria-label='{self._unit_label()} at step {step}'>"
            f"{self._words_html(step)}</div></div>"
            f"<div class='bpe-right'><div class='bpe-pairs'>{self._pairs_html(step)}</div>"
            f"<div class='bpe-log' tabindex='0' role='region' aria-label='merge log'>{self._log_html(step)}</div>"
            "</div></div></div>"
        )

    def _title(self) -> str:
        if isinstance(self.result, WordReplay):
            return f"MergeStepper ({self.result.name}, {self.result.text!r})"
        return "MergeStepper"

    def _unit_label(self) -> str:
        return self._unit.split(" (")[0]

    def _symbol_text(self, symbol: Symbol) -> str:
        if self._token_bytes is None:
            return repr(symbol)
        data = self._token_bytes[symbol]  # type: ignore[index]
        try:
            shown = repr(data.decode("utf-8"))
        except UnicodeDecodeError:
            shown = repr(data)
        return f"{shown} [{symbol}]"

    def _symbol_plain(self, symbol: Symbol) -> str:
        """A symbol as a screen reader should say it: its text, no quotes or ids."""
        if self._token_bytes is None:
            return str(symbol)
        return self._token_bytes[symbol].decode("utf-8", "replace")  # type: ignore[index]

    def _pair_text(self, pair: tuple[Symbol, Symbol]) -> str:
        return f"{self._symbol_text(pair[0])} + {self._symbol_text(pair[1])}"

    def _pieces(self, word: Sequence[Symbol]) -> tuple[list[str | bytes], list[object] | None]:
        if self._token_bytes is None:
            return [str(s) for s in word], None
        return [self._token_bytes[s] for s in word], list(word)  # type: ignore[index]

    def _colour_of(self, symbol: Symbol) -> str:
        """One colour per symbol, in the order symbols appear (the starting ones, then each merge's)."""
        return PALETTE[self._colour_index[symbol] % len(PALETTE)]

    def _pair_html(self, step: int) -> str:
        if step == 0:
            return "Nothing merged yet."
        done = self._merge_steps[step - 1]
        return (
            f"<b>Merged<span class='bpe-step-ref'> at step {step}</span>:</b> "
            f"<code>{html.escape(self._pair_text(done.pair))}</code> → "
            f"<code>{html.escape(self._symbol_text(done.new_symbol))}</code> ({self._score_name} {done.count})"
        )

    def _next_pair_html(self, step: int) -> str:
        if step == self.num_steps:
            return "<b>No merges left</b> in this replay."
        coming = self._merge_steps[step]
        return (
            f"Next merge<span class='bpe-step-ref'> (step {step + 1})</span>: "
            f"<code>{html.escape(self._pair_text(coming.pair))}</code> ({self._score_name} {coming.count})"
        )

    def _words_note(self) -> str:
        distinct = len(self._word_counts)
        if distinct > len(self._visible):
            return f"showing {len(self._visible)} of {distinct} distinct {self._unit} (the most frequent)"
        if distinct == 1:
            return f"showing the one {self._unit_label()[:-1]}"
        return f"showing all {distinct} distinct {self._unit}"

    def _words_html(self, step: int) -> str:
        words = list(self._corpora[step])
        before = list(self._corpora[step - 1]) if step > 0 else None
        after = list(self._corpora[step + 1]) if step < self.num_steps else None
        rows = []
        for index in self._visible:
            word = words[index]
            marks: dict[int, set[str]] = {}
            if before is not None:
                for _i, j in merge_sites(before[index], word):
                    marks.setdefault(j, set()).add("merged")
            if after is not None:
                for i, _j in merge_sites(word, after[index]):
                    marks.setdefault(i, set()).add("next")
                    marks.setdefault(i + 1, set()).add("next")
            pieces, ids = self._pieces(word)
            word_end = END_OF_WORD if ids is None else None
            colours = [self._colour_of(word[chip.tokens[0]]) for chip in make_chips(pieces, word_end=word_end)]
            chips = chips_html(
                pieces, ids, show_ids=ids is not None, marks=marks, css=False, colours=colours, word_end=word_end
            )
            rows.append(f"<tr><td class='bpe-freq'>×{self._word_counts[index]}</td><td>{chips}</td></tr>")
        return CHIP_CSS + "<table class='bpe-word-table' style='line-height:1.9'>" + "".join(rows) + "</table>"

    def _pairs_html(self, step: int) -> str:
        total = self.num_steps
        if step < total:
            scores, winner = self._merge_steps[step].pair_counts, self._merge_steps[step].pair
        elif self._token_bytes is None:
            scores, winner = count_pairs(self._corpora[step]), None
        else:
            return "<b>Adjacent pairs:</b> none has a rank, so the encoder stops here."
        if not scores:
            return "<b>Pair counts:</b> no pairs left: every word is one symbol."
        if self._lower_wins:
            key = lambda item: (item[1][1], item[0])  # lowest rank, then leftmost  # noqa: E731
        elif self._tie_break == "lexicographic":
            key = lambda item: (-item[1][1], item[1][0])  # noqa: E731
        else:
            key = lambda item: (-item[1][1], item[0])  # highest count, then first seen  # noqa: E731
        top = nsmallest(self.top_pairs, enumerate(scores.items()), key=key)
        biggest = max(count for _i, (_pair, count) in top)
        rows = []
        for _i, (pair, score) in top:
            is_winner = pair == winner
            mark = "★ next" if is_winner else ""
            bar = ""
            if not self._lower_wins:
                width = int(120 * score / biggest) if biggest else 0
                bar = f"<div class='bpe-bar' style='width:{width}px'></div>"
            css = " class='bpe-winner'" if is_winner else ""
            rows.append(
                f"<tr{css}><td><code>{html.escape(self._pair_text(pair))}</code></td>"
                f"<td class='bpe-score'>{score}</td><td>{bar}</td><td>{mark}</td></tr>"
            )
        if self._lower_wins:
            heading = f"Ranks of the adjacent pairs (lowest merges first; top {len(top)} of {len(scores)})"
        else:
            rule = TIE_RULE_NAMES.get(self._tie_break, self._tie_break)
            heading = f"Pair counts (top {len(top)} of {len(scores)}; ties: {rule})"
            if winner is None:
                heading += ": training stopped here"
        return (
            f"<b>{html.escape(heading)}</b><table class='bpe-pair-table' style='line-height:1.4'>"
            f"<tr><th scope='col'>pair</th><th scope='col'>{self._score_name}</th>"
            f"<th scope='col'><span class='bpe-sr-only'>bar</span></th>"
            f"<th scope='col'><span class='bpe-sr-only'>next?</span></th></tr>{''.join(rows)}</table>"
        )

    def _log_row(self, k: int) -> str:
        s = self._merge_steps[k - 1]
        text = f"{k}. {self._pair_text(s.pair)} → {self._symbol_text(s.new_symbol)} ({self._score_name} {s.count})"
        return html.escape(text)

    def _log_html(self, step: int) -> str:
        first = max(1, step - self.log_rows + 1)
        rows = [f"<div>{self._log_row(k)}</div>" for k in range(first, step)]
        if step > 0:
            rows.append(f"<div><b>{self._log_row(step)}</b></div>")
        hidden = f"<div><small>({first - 1} earlier merges not shown)</small></div>" if first > 1 else ""
        body = hidden + "".join(rows) if rows else "<div><small>no merges yet</small></div>"
        return "<b>Merge log</b>" + body

    def _stats_html(self, step: int) -> str:
        cached = self._stats_cache.get(step)
        if cached is None:
            cached = self._stats_cache[step] = self._compute_stats(step)
        return cached

    def _compute_stats(self, step: int) -> str:
        corpus = self._corpora[step]
        tokens = sum(len(word) * count for word, count in corpus.items())
        words = sum(corpus.values())
        if self._token_bytes is not None:
            n_bytes = sum(sum(len(self._token_bytes[s]) for s in word) * c for word, c in corpus.items())
            return (
                f"<b>{tokens}</b> tokens for {n_bytes} bytes: <b>{n_bytes / tokens:.2f}</b> bytes per token"
                if tokens
                else "no tokens"
            )
        start_vocab = len({s for word in self._corpora[0] for s in word})
        has_marker = any(END_OF_WORD in word for word in self._corpora[0])
        marker = "; <code>&lt;/w&gt;</code> counts as none" if has_marker else ""
        return (
            f"vocabulary <b>{start_vocab + step}</b> symbols ({start_vocab} to start + {step} merges) · "
            f"<b>{tokens}</b> tokens in {words} {self._unit} · "
            f"<b>{tokens / words if words else 0:.2f}</b> tokens per {self._unit_label()[:-1]} · "
            f"<b>{self.characters_per_token(step):.2f}</b> characters per token "
            f"(a word's own characters{marker})"
        )

    # ---- play ----------------------------------------------------------------------------------

    def _on_play_toggled(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.play_button.description = "Pause"
            if self._step == self.num_steps:
                self._go(0)
            self._timer.playing = True
        else:
            self.play_button.description = "Play"
            self._timer.playing = False

    def _on_timer_playing(self, change: dict[str, Any]) -> None:
        if not change["new"] and self.play_button.value:
            self.play_button.value = False  # the timer reached the end
