"""The merge stepper: replay BPE training one merge at a time (lessons 04, 07 and 11).

Give it what ``bpelab.train_bpe`` returned and step through the merges: every word is drawn as
token chips, with the pair just merged and the pair about to merge marked, beside the table of
pair counts, the merge log and the running totals.

Step numbering: step ``n`` is the corpus after ``n`` merges (step 0: nothing merged yet). At step
``n`` the stepper highlights ``result.steps[n - 1].pair``, the pair merged AT step n, where it now
stands as one merged chip (``highlighted_pair``); it also marks ``result.steps[n].pair``, the pair
that merges next (``upcoming_pair``). So after n clicks of "Next" from the start, the stepper
shows step n and highlights ``result.steps[n - 1].pair``.

Python computes, the browser draws. The widget is an ``anywidget``: Python turns the training run
into a trace once (``bpelab.widgets.trace``, synced as ``trace``), and one ES module draws every
step from it (``esm.py`` bundles ``STEPPER_MODULES``: ``static/stepper.js``, the widget, with
``stepper_view.js``, which draws a step, ``stepper_text.js``, which writes its symbols, and the chips).
Stepping never waits for a kernel, and a page without one (the course's static site) steps through
all the merges with the same code. The browser sends back the step it shows (``current_step``), so
``stepper.step`` reads it; setting ``stepper.step`` in Python moves the page.

Keys, the same in lesson pages, JupyterLab, Voilà and classroom mode: → or N next, ← or B back, Home,
End (PageDown / PageUp from a presenter's clicker); a key the focused stepper takes never reaches the
notebook's own shortcuts. Under a stepper of word-level training, "train on your own text" trains the
typed text: with a kernel here in Python (``train_request``, answered by ``train_bpe`` through
``bpelab.widgets.form_training``), on a static page in the browser (``static/bpe_train.js``).

``render_text()`` is the same state as one line of text: it is what a notebook shows where widgets
cannot render, and what nbval compares.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import traitlets

from bpelab.analysis.replay import WordReplay, replay_word
from bpelab.widgets.esm import STEPPER_MODULES, bundle
from bpelab.widgets.fallback import with_fallback_text
from bpelab.widgets.form_training import (
    MOST_CHARACTERS,
    MOST_MERGES,
    reporting,
    stop_reason,
    too_slow,
    train_for_form,
)
from bpelab.widgets.trace import training_trace, word_characters
from bpelab.widgets.whole_state import OpensWhole
from bpelab.words import TIE_BREAKS

Symbol = Hashable

MAX_WORD_BYTES = 1_000
"""The longest text ``MergeStepper.for_word`` replays (1,000 spaces, its worst case, take about half a second)."""

STEPPER_VERSION = 5
"""Raised whenever the stepper's saved widget state changes shape; a lesson saved by an older
version shows an out-of-date view in the static site (``tests/test_stepper.py`` checks the lessons)."""
VERSION_CLASS = f"bpe-stepper-v{STEPPER_VERSION}"

TIE_RULE_NAMES: dict[str, str] = {"first": "first seen", "lexicographic": "smallest pair"}
"""What people read for ``tie_break="first"`` and ``"lexicographic"``, everywhere in the course's widgets
(``static/stepper_text.js`` holds the same two names)."""

__all__ = ["TIE_RULE_NAMES", "MergeStepper", "word_characters"]


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


class MergeStepper(OpensWhole):
    """Step through the merges of a BPE training run (or of one word's encoding).

    ``MergeStepper(train_bpe(text, 10))``; then click, press → / ←, or use ``.next()``,
    ``.back()``, ``.first()``, ``.last()``, or set ``.step``. Under a run of word-level training a folded
    form trains typed text (Python answers its ``train_request``; a static page trains it itself);
    ``train_form=True`` shows the form open, above the stepper.
    ``projector=True``: large type, every word row in view at 1280×720 (classroom mode).
    """

    _esm = bundle(*STEPPER_MODULES)
    trace = traitlets.Dict().tag(sync=True)
    current_step = traitlets.Int(0).tag(sync=True)
    top_words = traitlets.Int(40).tag(sync=True)
    top_pairs = traitlets.Int(10).tag(sync=True)
    log_rows = traitlets.Int(12).tag(sync=True)
    train_form = traitlets.Bool(False).tag(sync=True)
    projector = traitlets.Bool(False).tag(sync=True)
    train_text = traitlets.Unicode("").tag(sync=True)
    train_request = traitlets.Dict().tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        result: Any,
        *,
        top_words: int = 40,
        top_pairs: int = 10,
        log_rows: int = 12,
        train_form: bool = False,
        projector: bool = False,
    ) -> None:
        _check_count(top_words, "top_words")
        _check_count(top_pairs, "top_pairs")
        _check_count(log_rows, "log_rows")
        trace = self._load(result, top_words=top_words, top_pairs=top_pairs)
        super().__init__(
            trace=trace,
            top_words=top_words,
            top_pairs=top_pairs,
            log_rows=log_rows,
            train_form=bool(train_form),
            projector=bool(projector),
        )
        self.add_class(VERSION_CLASS)

    def _load(self, result: Any, *, top_words: int, top_pairs: int) -> dict[str, Any]:
        """Take ``result`` as the run to replay; return its trace (for the ``trace`` traitlet)."""
        _check_result(result)
        sizes = {len(result.initial_word_freq)} | {len(s.word_freq) for s in result.steps}  # one corpus at a time
        if len(sizes) > 1:
            raise ValueError("every step of the result must hold the same words; was it changed after training?")
        trace = training_trace(result, top_words=top_words, top_pairs=top_pairs)
        self.result = result
        self._merge_steps = list(result.steps)
        self._tokens: list[int] = trace["tokens"]  # each step's token total: no corpus is kept per step
        self._token_bytes: dict[int, bytes] | None = getattr(result, "token_bytes", None)
        self._score_name: str = getattr(result, "score_name", "count")
        self._characters: int = trace["characters"]
        return trace

    @classmethod
    def for_word(cls, tokenizer: object, text: str, **kwargs: Any) -> MergeStepper:
        """Replay how a byte-level tokenizer (a ``BPETokenizer``, a tiktoken ``Encoding``, or a
        name such as "cl100k_base") builds ``text``, merge by merge, lowest rank first.

        For a word or a sentence: at most ``MAX_WORD_BYTES`` UTF-8 bytes. The stepper keeps every step's whole
        state, so one long piece costs time and memory as the square of its length (10,000 spaces, one piece
        under GPT-4's pattern: 9,921 merges, about 40 s and 490 MB here); a longer text gets a clear refusal.
        """
        if isinstance(text, str):
            size = len(text.encode("utf-8", "surrogatepass"))
            if size > MAX_WORD_BYTES:
                raise ValueError(
                    f"for_word replays a word or a sentence, merge by merge, and keeps every step: this text has "
                    f"{size:,} bytes, more than {MAX_WORD_BYTES:,} (a long run of one character, such as spaces, is "
                    "one piece whose replay grows as the square of its length). Pass a shorter stretch, e.g. "
                    "text[:200]; to tokenize a long text, call the tokenizer's encode(text)"
                )
        return cls(replay_word(tokenizer, text), **kwargs)

    @traitlets.observe("train_request")
    def _on_train_request(self, change: dict[str, Any]) -> None:
        """The form's Train: {text, merges, tie_break, split_punctuation, stop_at_single, n} (n: a new press)."""
        request = change["new"]
        if not request:
            return
        text, merges, tie_break = request.get("text"), request.get("merges"), request.get("tie_break")
        if isinstance(merges, float) and merges.is_integer():
            merges = int(merges)  # JavaScript numbers arrive as floats when JSON has 6.0
        valid = isinstance(merges, int) and not isinstance(merges, bool) and 1 <= merges <= MOST_MERGES
        if not isinstance(text, str) or tie_break not in TIE_BREAKS or not valid or not text.strip():
            self.message = (
                "The page sent a request Python cannot train; check the text and the merges, then press Train."
            )
            return
        if len(text) > MOST_CHARACTERS:
            self.message = f"This text has {len(text)} characters; the form trains at most {MOST_CHARACTERS}."
            return
        split_punctuation = bool(request.get("split_punctuation"))
        slow = too_slow(text, merges, split_punctuation=split_punctuation)
        if slow:
            self.message = slow
            return
        self.message = "Training in Python…"
        result = train_for_form(
            text,
            merges,
            tie_break=tie_break,
            split_punctuation=split_punctuation,
            stop_at_single=bool(request.get("stop_at_single")),
            progress=reporting(self._say),
        )
        self.message = "Drawing the steps…"
        trace = self._load(result, top_words=self.top_words, top_pairs=self.top_pairs)
        with self.hold_sync():
            self.trace = trace
            self.current_step = 0
            self.message = _trained_message(result, trace["wordsTotal"], merges)

    def _say(self, message: str) -> None:
        """Show ``message`` at once, while Python is still busy (progress during training)."""
        self.message = message

    @traitlets.validate("current_step")
    def _valid_step(self, proposal: dict[str, Any]) -> int:
        value = proposal["value"]
        return max(0, min(int(value), self.num_steps))  # the browser never asks for more; a stale echo may

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def num_steps(self) -> int:
        """How many merges there are to replay (the last step's number)."""
        return len(self._merge_steps)

    @property
    def step(self) -> int:
        """The current step: the number of merges made so far (0 to ``num_steps``), as the page shows it."""
        return self.current_step

    @step.setter
    def step(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"step must be a whole number, got {type(value).__name__}")
        if not 0 <= value <= self.num_steps:
            raise ValueError(f"step must be between 0 and {self.num_steps} (the number of merges), got {value}")
        self.current_step = value

    def next(self) -> None:
        """One merge forward (stays at the last step)."""
        self.current_step = min(self.step + 1, self.num_steps)

    def back(self) -> None:
        """One merge back (stays at step 0)."""
        self.current_step = max(self.step - 1, 0)

    def first(self) -> None:
        self.current_step = 0

    def last(self) -> None:
        self.current_step = self.num_steps

    @property
    def highlighted_pair(self) -> tuple[Symbol, Symbol] | None:
        """The pair merged AT the current step (``result.steps[step - 1].pair``), drawn as a merged
        chip; None at step 0."""
        return self._merge_steps[self.step - 1].pair if self.step > 0 else None

    @property
    def upcoming_pair(self) -> tuple[Symbol, Symbol] | None:
        """The pair that merges next (``result.steps[step].pair``); None after the last merge."""
        return self._merge_steps[self.step].pair if self.step < self.num_steps else None

    @property
    def word_freq(self) -> dict[tuple[Symbol, ...], int]:
        """The corpus as it stands at the current step."""
        return self._merge_steps[self.step - 1].word_freq if self.step else dict(self.result.initial_word_freq)

    def characters_per_token(self, step: int | None = None) -> float:
        """The corpus' characters over its tokens at ``step`` (default: now). A character is one of
        a word's own characters; ``</w>`` counts as none, whether alone or inside a merged symbol."""
        tokens = self._tokens[self.step if step is None else step]
        return self._characters / tokens if tokens else 0.0

    def render_text(self) -> str:
        """The current state in one line: the text shown where widgets cannot render."""
        n, total = self.step, self.num_steps
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
            notes = getattr(self.result, "notes", None)
            if notes:
                parts.append(f"why: {notes[n]}")
        else:
            end_note = getattr(self.result, "end_note", None)  # a replay that stops early says where and why
            parts.append(end_note if isinstance(end_note, str) and end_note else "no merges left")
        return "; ".join(parts)

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        # the summary, and what brings the widget back where it is shown as text (an untrusted notebook)
        return with_fallback_text(super()._repr_mimebundle_(**kwargs), self.render_text(), "stepper")

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

    def _symbol_plain(self, symbol: Symbol) -> str:
        """A symbol as a screen reader should say it: its text, no quotes or ids."""
        if self._token_bytes is None:
            return str(symbol)
        return self._token_bytes[symbol].decode("utf-8", "replace")  # type: ignore[index]

    def _pair_text(self, pair: tuple[Symbol, Symbol]) -> str:
        return f"{self._symbol_text(pair[0])} + {self._symbol_text(pair[1])}"


def _trained_message(result: Any, words: int, asked: int) -> str:
    """What the form says once Python has trained (``static/train_form.js`` says the same "in this page")."""
    learned = len(result.merges)
    head = (
        f"Trained in Python (train_bpe) on {words} word{'' if words == 1 else 's'}: "
        f"{learned} merge{'' if learned == 1 else 's'}."
    )
    why = stop_reason(result, asked)
    return f"{head} {why} Press Next or →." if why else f"{head} Press Next or →."
