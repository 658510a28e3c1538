"""Classroom mode: the merge stepper on a projector, on a corpus the class chooses (``make present``).

A teacher picks one of the lessons' corpora or types a text the class suggests, sets the number of
merges and the tie rule, presses **Train**, and walks the room through the merges with the keys
(→ or N next, ← or B back, Home, End; a presenter's clicker too), jumps with the step box or lets
Play run at the speed chosen. The text grows to fill the screen (classroom.js measures it), and every
control has a text label. "Stop when no pair occurs twice", on by default, ends the run where merging
would shorten the text by one token for one more vocabulary entry, and says so (``bpelab.widgets.form_training``).

``ClassroomStepper`` is ONE widget: the merge stepper (an anywidget) plus the data its form needs
(the ready-made corpora, the limits). Its ES module (``static/classroom.js``, around the stepper's
``static/stepper.js``) draws the chooser, the text box, the merges, both tie rules, Train and the
keys, in Voilà and in the static page ``site/present.html`` alike. With a kernel, Train asks Python:
the app trains exactly what is in the box with ``train_bpe(text, merges, tie_break=...)``
(whitespace-separated words, as in lessons 02 to 04; cut at the first merge of a pair seen once when
the stop rule is on) and sends the new trace. Without one, the same form trains in the page with
``static/bpe_train.js``, held equal to ``train_bpe`` by the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import traitlets

from bpelab.corpora import read_corpus
from bpelab.widgets.esm import CLASSROOM_MODULES, bundle
from bpelab.widgets.form_training import (
    MOST_CHARACTERS,
    MOST_MERGES,
    reporting,
    stop_reason,
    too_slow,
    train_for_form,
)
from bpelab.widgets.stepper import TIE_RULE_NAMES, MergeStepper
from bpelab.words import TIE_BREAKS, get_word_frequencies, train_bpe

MAX_MERGES = MOST_MERGES
MAX_CHARACTERS = MOST_CHARACTERS
OWN_TEXT = "your own text"
STEPPER_SETTINGS: dict[str, Any] = {
    "top_words": 30,
    "top_pairs": 6,
    "log_rows": 6,
    "train_form": True,
    "projector": True,
}
"""The stepper's settings on a projector: the word rows, pair table and log fit a 1280×720 screen."""

TIE_RULES: tuple[tuple[str, str], ...] = tuple((TIE_RULE_NAMES[rule], rule) for rule in TIE_BREAKS)
"""The tie toggle's labels for ``train_bpe``'s two rules: "first seen" and "smallest pair", the names
the stepper's pair table and legend use too (``bpelab.words.TIE_BREAKS`` holds the API's values)."""


@dataclass(frozen=True)
class Corpus:
    """A corpus the chooser offers: its label, how to read it, and a sensible number of merges."""

    label: str
    read: Callable[[], str]
    merges: int


def _toy() -> str:
    return ("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2).strip()


def _sentence() -> str:
    # the SYLLABUS's "known trap": many walkthroughs claim t+h merges first here; count and see
    return "the cat sat on the mat the cat ate the rat"


def _english_paragraph(min_words: int = 60) -> str:
    """The first paragraph of the course's English training text with at least ``min_words`` words."""
    for paragraph in read_corpus("english_train").split("\n\n"):
        if len(paragraph.split()) >= min_words:
            return paragraph.strip()
    raise ValueError(f"data/english_train.txt has no paragraph of {min_words} words or more")


def _parallel_english() -> str:
    return read_corpus("parallel:en").strip()


CORPORA: tuple[Corpus, ...] = (
    Corpus("toy: low, lower, newest, widest", _toy, 10),
    Corpus("the cat sat on the mat …", _sentence, 6),
    Corpus("a paragraph of English", _english_paragraph, 40),
    Corpus("English, parallel text (lesson 09)", _parallel_english, 100),
)
"""The chooser's ready-made corpora, from the lessons; a last option, "your own text", takes what is typed."""


class ClassroomStepper(MergeStepper):
    """The merge stepper with its own corpus chooser and training form, for teaching from a projector.

    ``ClassroomStepper()`` starts on the toy corpus, already trained (``corpus=`` takes another
    ready-made corpus's label, or a text; ``train=False`` waits for Train); ``.choose(label)`` picks a
    ready-made corpus, ``.text = "..."`` types one, ``.train()`` (or the page's Train button) trains it
    and the stepper shows the new run from step 0. Switching the tie rule retrains at once and keeps
    the step, so the class can watch the same moment under the other rule.

    One widget, drawn by one ES module (``static/classroom.js`` around ``static/stepper.js``): with a
    kernel, the page's Train asks Python (``train_request``), which answers with a new ``trace`` and a
    ``message``; on a page without one (``site/present.html``) the same form trains with ``bpe.js``.
    """

    _esm = bundle(*CLASSROOM_MODULES)
    corpora = traitlets.List(traitlets.Dict()).tag(sync=True)
    corpus_label = traitlets.Unicode(OWN_TEXT).tag(sync=True)
    train_merges = traitlets.Int(10).tag(sync=True)
    tie_break = traitlets.Unicode("first").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    train_request = traitlets.Dict().tag(sync=True)
    max_merges = traitlets.Int(MAX_MERGES).tag(sync=True)
    max_characters = traitlets.Int(MAX_CHARACTERS).tag(sync=True)
    stop_at_single = traitlets.Bool(True).tag(sync=True)
    """Stop when no pair occurs twice (on by default: a class's own words soon leave only pairs seen once)."""

    def __init__(
        self,
        *,
        corpus: str | None = None,
        merges: int | None = None,
        tie_break: str = "first",
        stop_at_single: bool = True,
        train: bool = True,
    ) -> None:
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
        self._corpora_by_label = {c.label: c for c in CORPORA}
        self._trained_with: tuple[str, int, str, bool] | None = None
        super().__init__(train_bpe("", 0), **STEPPER_SETTINGS)  # nothing to replay until the first Train
        self.corpora = [{"label": c.label, "text": c.read(), "merges": c.merges} for c in CORPORA]
        self.tie_break = tie_break
        self.stop_at_single = bool(stop_at_single)
        first = corpus if corpus is not None else CORPORA[0].label
        if first in self._corpora_by_label or first == OWN_TEXT:
            self.choose(first)
        else:
            self.corpus_label = OWN_TEXT
            self.text = first
        if merges is not None:
            self.merges = merges
        if train:
            self.train()
        else:
            self.message = "Choose a corpus or type a text, then press Train."

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def corpus_labels(self) -> list[str]:
        """What the chooser offers: the ready-made corpora, then "your own text"."""
        return [*self._corpora_by_label, OWN_TEXT]

    def choose(self, label: str) -> None:
        """Pick a ready-made corpus (its text fills the box, its merge count the merges), or
        ``"your own text"`` (an empty box to type in)."""
        if label not in self.corpus_labels:
            raise ValueError(f"choose one of {self.corpus_labels}, got {label!r}")
        with self.hold_sync():
            self.corpus_label = label
            if label == OWN_TEXT:
                self.train_text = ""
            else:
                corpus = next(c for c in self.corpora if c["label"] == label)
                self.train_text, self.train_merges = corpus["text"], corpus["merges"]

    @property
    def text(self) -> str:
        return self.train_text

    @text.setter
    def text(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"text must be a str, got {type(value).__name__}")
        with self.hold_sync():
            preset = next((c["text"] for c in self.corpora if c["label"] == self.corpus_label), None)
            if preset is not None and value != preset:
                self.corpus_label = OWN_TEXT  # the class edited a ready-made corpus: it is their own text now
            self.train_text = value

    @property
    def merges(self) -> int:
        return self.train_merges

    @merges.setter
    def merges(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MERGES:
            raise ValueError(f"merges must be a whole number from 1 to {MAX_MERGES}, got {value!r}")
        self.train_merges = value

    @traitlets.validate("tie_break")
    def _valid_tie_break(self, proposal: dict[str, Any]) -> str:
        if proposal["value"] not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {proposal['value']!r}")
        return str(proposal["value"])

    @property
    def trained(self) -> bool:
        """True once a text has been trained (before that, the stepper has nothing to replay)."""
        return self._trained_with is not None

    def train(self) -> bool:
        """Train the text in the box; show the run at step 0 (or a message saying why not). True if trained."""
        return self._train(self.text, self.merges, self.tie_break, keep_step=False)

    def render_text(self) -> str:
        """The app's state in one line of text: what shows where widgets cannot render."""
        if not self.trained:
            return f"{self._title()}: {self.message}"
        return super().render_text()

    def _title(self) -> str:
        return f"ClassroomStepper ({self.corpus_label})"

    # ---- what the page asks -----------------------------------------------------------------------

    @traitlets.observe("tie_break", "stop_at_single")
    def _on_rule_change(self, _change: dict[str, Any]) -> None:
        """The other tie rule (or stop rule) set from Python: retrain, and show the same moment under it."""
        if self.trained and not self._answering:
            self._train(self.text, self.merges, self.tie_break, keep_step=True)

    _answering = False

    @traitlets.observe("train_request")
    def _on_train_request(self, change: dict[str, Any]) -> None:
        """The page's Train (or tie toggle): {text, merges, tie_break, stop_at_single, keep_step, n}; n makes
        each press new."""
        request = change["new"]
        if not request:
            return
        text, merges, tie_break = request.get("text"), request.get("merges"), request.get("tie_break")
        if not isinstance(text, str) or tie_break not in TIE_BREAKS:
            self.message = "The page sent a request this app cannot read; reload the page."
            return
        if isinstance(merges, float) and merges.is_integer():
            merges = int(merges)  # JavaScript numbers arrive as floats when JSON has 6.0
        if isinstance(merges, bool) or not isinstance(merges, int):
            merges = 0  # what _problem_with answers for: no whole number of merges
        self._answering = True
        try:
            with self.hold_sync():
                self.text = text  # an edited ready-made corpus becomes "your own text"
                self.tie_break = tie_break
                self.stop_at_single = bool(request.get("stop_at_single", self.stop_at_single))
                if 1 <= merges <= MAX_MERGES:
                    self.train_merges = merges
        finally:
            self._answering = False
        self._train(text, merges, tie_break, keep_step=bool(request.get("keep_step")))

    def _train(self, text: str, merges: int, tie_break: str, *, keep_step: bool) -> bool:
        problem = _problem_with(text, merges)
        if problem:
            self.message = problem
            return False
        self.message = "Training…"  # reaches the screen before the wait
        step = self.step if keep_step else 0
        result = train_for_form(
            text, merges, tie_break=tie_break, stop_at_single=self.stop_at_single, progress=reporting(self._say)
        )
        self.message = "Drawing the steps…"
        trace = self._load(result, top_words=self.top_words, top_pairs=self.top_pairs)
        with self.hold_sync():
            self.trace = trace
            self.current_step = min(step, self.num_steps)
            self._trained_with = (text, merges, tie_break, self.stop_at_single)
            self.message = _summary(text, result, merges)
        return True


def _problem_with(text: str, merges: int = 1) -> str | None:
    """A friendly sentence when there is nothing sensible to train, else None."""
    if not 1 <= merges <= MAX_MERGES:
        return (
            f"Classroom mode learns from 1 to {MAX_MERGES} merges; you asked for {merges}. "
            "Change the number of merges, then press Train."
        )
    if not text.strip():
        return "There is no text to train on yet: choose a corpus above, or type a few words, then press Train."
    if len(text) > MAX_CHARACTERS:
        return (
            f"This text has {len(text):,} characters; classroom mode trains at most {MAX_CHARACTERS:,} "
            "(stepping through more is slow and hard to read). Paste a shorter part, then press Train."
        )
    return too_slow(text, merges) or None


def _summary(text: str, result: Any, asked: int) -> str:
    words = get_word_frequencies(text)
    made = len(result.merges)
    rule = dict((value, label) for label, value in TIE_RULES)[result.tie_break]
    parts = [
        f"Trained {made} merge{'s' if made != 1 else ''} on {sum(words.values())} words "
        f"({len(words)} different), ties: {rule}."
    ]
    if result.stopped_early:
        parts.append(stop_reason(result, asked))
    else:
        parts.append("Step with Next ▶.")
    return " ".join(parts)
