"""The merge stepper: replay BPE training one merge at a time (lessons 04 and 07).

Give it what ``bpelab.train_bpe`` returned and step through the merges: every word is drawn as
token chips, with the pair just merged and the pair about to merge marked, beside the table of
pair counts, the merge log and the running totals.

Step numbering: step ``n`` is the corpus after ``n`` merges (step 0: nothing merged yet). At step
``n`` the stepper highlights ``result.steps[n - 1].pair``, the pair merged AT step n, where it now
stands as one merged chip (``highlighted_pair``); it also marks ``result.steps[n].pair``, the pair
that merges next (``upcoming_pair``). So after n clicks of "Next ▶" from the start, the stepper
shows step n and highlights ``result.steps[n - 1].pair``.

Only what is on screen is drawn (the most frequent words, the top pairs), so a step stays fast on
a real text. ``render_text()`` is the same state as one line of text: it is what a notebook shows
where widgets cannot render, and what nbval compares.
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Sequence
from heapq import nsmallest
from typing import Any

import ipywidgets as widgets

from bpelab.analysis.replay import WordReplay, merge_sites, replay_word
from bpelab.widgets.chips import CHIP_CSS, chips_html
from bpelab.words import END_OF_WORD, count_pairs

Symbol = Hashable


def _check_result(result: object) -> None:
    if not hasattr(result, "steps") or not hasattr(result, "initial_word_freq"):
        hint = ""
        if hasattr(result, "encode"):
            hint = " To replay how a tokenizer builds one word, use MergeStepper.for_word(tokenizer, text)."
        raise TypeError(
            "MergeStepper needs what bpelab.train_bpe(text, num_merges) returns (a TrainingResult), "
            f"got {type(result).__name__}.{hint}"
        )
    if not result.steps and getattr(result, "merges", None):  # type: ignore[attr-defined]
        raise ValueError(
            "this result holds merges but no recorded steps (method='fast' records none); "
            "train with train_bpe(text, num_merges) (method='naive') to replay it"
        )


def _check_positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    return value


class MergeStepper(widgets.VBox):
    """Step through the merges of a BPE training run (or of one word's encoding).

    ``MergeStepper(train_bpe(text, 10))``; then click, or use ``.next()``, ``.back()``,
    ``.first()``, ``.last()``, or set ``.step``.
    """

    def __init__(self, result: Any, *, top_words: int = 40, top_pairs: int = 10, log_rows: int = 200) -> None:
        super().__init__()
        _check_result(result)
        self.result = result
        self.top_words = _check_positive(top_words, "top_words")
        self.top_pairs = _check_positive(top_pairs, "top_pairs")
        self.log_rows = _check_positive(log_rows, "log_rows")
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
        self._stats_cache: dict[int, str] = {}
        self._log_cache: list[str] = []
        self._step = 0
        self._drawing = False
        self._build()
        self._show(0)

    # ---- construction ------------------------------------------------------------------------

    @classmethod
    def for_word(cls, tokenizer: object, text: str, **kwargs: Any) -> MergeStepper:
        """Replay how a byte-level tokenizer (a ``BPETokenizer``, a tiktoken ``Encoding``, or a
        name such as "cl100k_base") builds ``text``, merge by merge, lowest rank first."""
        return cls(replay_word(tokenizer, text), **kwargs)

    def _build(self) -> None:
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
        # The timer lives in the browser (a hidden Play widget); its buttons are icon-only, which
        # may not load offline, so the visible control is the text button above.
        self._timer = widgets.Play(
            min=0, max=max(n, 1), interval=800, show_repeat=False, layout=widgets.Layout(display="none")
        )
        self.slider = widgets.IntSlider(
            min=0, max=n, value=0, description="step", continuous_update=True, layout=widgets.Layout(width="320px")
        )
        self.slider.add_class("bpe-slider")
        self.step_label = widgets.Label()
        self.step_label.add_class("bpe-step-label")
        self.pair_view = widgets.HTML()
        self.pair_view.add_class("bpe-pair")
        self.next_pair_view = widgets.HTML()
        self.next_pair_view.add_class("bpe-next-pair")
        self.stats_view = widgets.HTML()
        self.stats_view.add_class("bpe-stats")
        self.words_note = widgets.HTML()
        self.words_view = widgets.HTML(layout=widgets.Layout(max_height="360px", overflow="auto", width="100%"))
        self.words_view.add_class("bpe-words")
        self.pairs_view = widgets.HTML()
        self.pairs_view.add_class("bpe-pairs")
        self.log_view = widgets.HTML(layout=widgets.Layout(max_height="220px", overflow="auto"))
        self.log_view.add_class("bpe-log")
        legend = widgets.HTML(
            "<small>Chips: <b style='outline:3px solid #222'>&nbsp;bold outline&nbsp;</b> = merged at this step; "
            "<span style='border-bottom:3px dashed #000'>dashed underline</span> = the pair that merges next. "
            "<code>&lt;/w&gt;</code> marks the end of a word.</small>"
        )

        self.slider.observe(lambda change: self._go(change["new"]), names="value")
        self._timer.observe(lambda change: self._go(change["new"]), names="value")
        self._timer.observe(self._on_timer_playing, names="playing")
        self.play_button.observe(self._on_play_toggled, names="value")

        controls = widgets.HBox(
            [
                self.first_button,
                self.back_button,
                self.next_button,
                self.last_button,
                self.play_button,
                self.slider,
                self._timer,
            ]
        )
        self.pair_view.layout.margin = "0 0 0 16px"
        status = widgets.VBox([widgets.HBox([self.step_label, self.pair_view]), self.next_pair_view, self.stats_view])
        left = widgets.VBox([self.words_note, self.words_view, legend], layout=widgets.Layout(width="58%"))
        right = widgets.VBox([self.pairs_view, self.log_view], layout=widgets.Layout(width="42%", margin="0 0 0 12px"))
        self.children = [controls, status, widgets.HBox([left, right])]
        self.add_class("bpe-stepper")

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

    # ---- drawing -------------------------------------------------------------------------------

    def _title(self) -> str:
        if isinstance(self.result, WordReplay):
            return f"MergeStepper ({self.result.name}, {self.result.text!r})"
        return "MergeStepper"

    def _symbol_text(self, symbol: Symbol) -> str:
        if self._token_bytes is None:
            return repr(symbol)
        data = self._token_bytes[symbol]  # type: ignore[index]
        try:
            shown = repr(data.decode("utf-8"))
        except UnicodeDecodeError:
            shown = repr(data)
        return f"{shown} [{symbol}]"

    def _pair_text(self, pair: tuple[Symbol, Symbol]) -> str:
        return f"{self._symbol_text(pair[0])} + {self._symbol_text(pair[1])}"

    def _pieces(self, word: Sequence[Symbol]) -> tuple[list[str | bytes], list[object] | None]:
        if self._token_bytes is None:
            return [str(s) for s in word], None
        return [self._token_bytes[s] for s in word], list(word)  # type: ignore[index]

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
        # keep every control in step without re-entering _go
        self.slider.value = step
        if self._timer.value != step and 0 <= step <= self._timer.max:
            self._timer.value = step
        self.first_button.disabled = self.back_button.disabled = step == 0
        self.next_button.disabled = self.last_button.disabled = step == total
        self.step_label.value = f"Step {step} of {total}"
        self.pair_view.value = self._pair_html(step)
        self.next_pair_view.value = self._next_pair_html(step)
        self.stats_view.value = self._stats_html(step)
        self.words_note.value = self._words_note()
        self.words_view.value = self._words_html(step)
        self.pairs_view.value = self._pairs_html(step)
        self.log_view.value = self._log_html(step)

    def _pair_html(self, step: int) -> str:
        if step == 0:
            return "<b>Step 0:</b> nothing merged yet."
        done = self._merge_steps[step - 1]
        return (
            f"<b>Merged at step {step}:</b> <code>{html.escape(self._pair_text(done.pair))}</code> → "
            f"<code>{html.escape(self._symbol_text(done.new_symbol))}</code> ({self._score_name} {done.count})"
        )

    def _next_pair_html(self, step: int) -> str:
        if step == self.num_steps:
            return "<b>No merges left</b> in this replay."
        coming = self._merge_steps[step]
        return f"Next merge (step {step + 1}): <code>{html.escape(self._pair_text(coming.pair))}</code> ({self._score_name} {coming.count})"

    def _words_note(self) -> str:
        distinct = len(self._word_counts)
        what = "pieces" if self._token_bytes is not None else "words"
        if distinct > len(self._visible):
            return f"<small>showing {len(self._visible)} of {distinct} distinct {what} (the most frequent)</small>"
        return f"<small>showing all {distinct} distinct {what}</small>"

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
            chips = chips_html(pieces, ids, show_ids=ids is not None, marks=marks, css=False)
            rows.append(
                f"<tr><td style='text-align:right;padding-right:8px'>×{self._word_counts[index]}</td><td>{chips}</td></tr>"
            )
        return (
            CHIP_CSS
            + "<table class='bpe-word-table' style='line-height:1.9;border-collapse:collapse'>"
            + "".join(rows)
            + "</table>"
        )

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
        order = list(scores)
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
                width = int(160 * score / biggest) if biggest else 0
                bar = f"<div style='background:#4477AA;height:10px;width:{width}px'></div>"
            weight = "font-weight:bold;" if is_winner else ""
            rows.append(
                f"<tr style='{weight}'><td style='white-space:nowrap'><code>{html.escape(self._pair_text(pair))}</code></td>"
                f"<td style='text-align:right;padding:0 6px'>{score}</td><td>{bar}</td><td style='white-space:nowrap'>{mark}</td></tr>"
            )
        if self._lower_wins:
            heading = f"Ranks of the adjacent pairs (lowest merges first; top {len(top)} of {len(scores)})"
        else:
            rule = "ties: smallest pair" if self._tie_break == "lexicographic" else "ties: first seen"
            heading = f"Pair counts at step {step} (top {len(top)} of {len(scores)}; {rule})"
            if winner is None:
                heading += ": training stopped here"
        return (
            f"<b>{html.escape(heading)}</b><table class='bpe-pair-table' style='line-height:1.4;border-collapse:collapse'>"
            f"<tr><th>pair</th><th>{self._score_name}</th><th></th><th></th></tr>{''.join(rows)}</table>"
        )

    def _log_row(self, k: int) -> str:
        s = self._merge_steps[k - 1]
        text = f"{k}. {self._pair_text(s.pair)} → {self._symbol_text(s.new_symbol)} ({self._score_name} {s.count})"
        return html.escape(text)

    def _log_html(self, step: int) -> str:
        while len(self._log_cache) < step:
            self._log_cache.append(self._log_row(len(self._log_cache) + 1))
        first = max(1, step - self.log_rows + 1)
        rows = [f"<div style='line-height:1.4'>{self._log_cache[k - 1]}</div>" for k in range(first, step)]
        if step > 0:
            rows.append(f"<div style='line-height:1.4'><b>{self._log_cache[step - 1]}</b></div>")
        hidden = f"<div><small>({first - 1} earlier merges not shown)</small></div>" if first > 1 else ""
        body = hidden + "".join(rows) if rows else "<div><small>no merges yet</small></div>"
        return f"<b>Merge log</b> ({step} of {self.num_steps})" + body

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
            n_bytes = sum(sum(len(self._token_bytes[s]) for s in word) * c for word, c in corpus.items())  # type: ignore[index]
            return (
                f"<b>{tokens}</b> tokens for {n_bytes} bytes: <b>{n_bytes / tokens:.2f}</b> bytes per token"
                if tokens
                else "no tokens"
            )
        chars = sum(sum(len(s) for s in word if s != END_OF_WORD) * c for word, c in corpus.items())
        start_vocab = len({s for word in self._corpora[0] for s in word})
        return (
            f"vocabulary <b>{start_vocab + step}</b> symbols ({start_vocab} to start + {step} merges) · "
            f"<b>{tokens}</b> tokens in {words} words · <b>{tokens / words if words else 0:.2f}</b> tokens per word · "
            f"<b>{chars / tokens if tokens else 0:.2f}</b> characters per token"
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
