"""Classroom mode: the merge stepper on a projector, on a corpus the class chooses (``make present``).

A teacher picks one of the lessons' corpora or types a text the class suggests, sets the number of
merges and the tie rule, presses **Train**, and walks the room through the merges with the arrow
keys. Everything is drawn large enough to read from the back of a room, and every control has a
text label, because Voilà's icon font comes from a CDN and is missing offline.

The app trains exactly what is in the text box with ``train_bpe(text, merges, tie_break=...)``
(whitespace-separated words, as in lessons 02 to 04), so what the class sees is what the lessons
compute. ``keyboard_shortcuts()`` is the small script that lets → / ← (and a presenter's clicker)
press Next and Back; the app notebook ``apps/present_stepper.ipynb`` displays it beside the app.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import ipywidgets as widgets

from bpelab.course.corpora import read_corpus
from bpelab.widgets.stepper import TIE_RULE_NAMES, MergeStepper
from bpelab.words import TIE_BREAKS, TieBreak, get_word_frequencies, train_bpe

MAX_MERGES = 500
"""More merges than a class can step through; also keeps the naive trainer's wait short."""
MAX_CHARACTERS = 50_000
"""About 8,000 words: training stays around a second or two on a classroom laptop."""
OWN_TEXT = "your own text"

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
    Corpus("the cat sat on the mat …", _sentence, 8),
    Corpus("a paragraph of English", _english_paragraph, 40),
    Corpus("English, parallel text (lesson 09)", _parallel_english, 100),
)
"""The chooser's ready-made corpora, from the lessons; a last option, "your own text", takes what is typed."""

CLASSROOM_CSS = """<style>
.bpe-classroom { --jp-widgets-font-size: 20px; --jp-widgets-inline-height: 40px;
  --jp-widgets-inline-label-width: auto; font-size: 20px; }
.bpe-classroom .widget-button, .bpe-classroom .widget-toggle-button { font-size: 20px; height: auto;
  min-height: 40px; padding: 2px 14px; }
.bpe-classroom .bpe-train { font-weight: bold; }
.bpe-classroom .bpe-corpus-choice select { font-size: 20px; }
.bpe-classroom textarea { font-size: 20px; line-height: 1.3; font-family: ui-monospace, Menlo, Consolas, monospace; }
.bpe-classroom .bpe-tie-rule { display: flex; flex-flow: row nowrap; align-items: center; }
.bpe-classroom .widget-html-content { line-height: 1.35; }
.bpe-classroom .bpe-message { font-size: 18px; flex: 1 1 400px; }
.bpe-classroom .bpe-keys { font-size: 15px; color: #444; }
</style>"""
"""Large type for a projector, scoped to the app's container so nothing else on a page changes. The
stepper draws its own projector layout (``MergeStepper(..., projector=True)``, in ``static/stepper.js``)."""

KEYBOARD_JS = r"""
(function () {
  // Classroom mode: → / PageDown / N press "Next ▶", ← / PageUp / B press "◀ Back"
  // (a presenter's clicker sends PageDown and PageUp). Installed once per page.
  if (window.__bpeClassroomKeys) { return; }
  window.__bpeClassroomKeys = true;
  var NEXT = { ArrowRight: 1, PageDown: 1, n: 1, N: 1 };
  var BACK = { ArrowLeft: 1, PageUp: 1, b: 1, B: 1 };
  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) { return; }
    // only on a Voilà page (its <body data-voila>): in JupyterLab, N and B also edit the notebook
    if (!document.body.hasAttribute('data-voila')) { return; }
    var target = event.target;
    if (target && target.closest &&
        (target.isContentEditable || target.closest('input, textarea, select, .widget-slider, .widget-dropdown'))) {
      return;  // typing a corpus, or moving a slider: the keys belong to that control
    }
    var which = NEXT[event.key] ? 'next' : (BACK[event.key] ? 'back' : null);
    if (!which) { return; }
    var button = document.querySelector('.bpe-classroom button.bpe-' + which);
    if (!button) { return; }
    event.preventDefault();
    if (!button.disabled) { button.click(); }
  });
})();
"""


def keyboard_shortcuts() -> Any:
    """The script that makes → / ← (also PageDown / PageUp, N / B) press the app's Next and Back.

    Display it once beside the app (``display(keyboard_shortcuts())``). It does nothing while the
    focus is in a text box, a dropdown or the slider, and nothing outside a Voilà page (in
    JupyterLab N and B would also edit the notebook): the shortcuts are for ``make present``.
    """
    from IPython.display import Javascript

    return Javascript(KEYBOARD_JS)


class ClassroomStepper(widgets.VBox):
    """The merge stepper with its own corpus chooser, for teaching from a projector.

    ``ClassroomStepper()`` starts on the toy corpus, already trained (``corpus=`` takes another
    ready-made corpus's label, or a text; ``train=False`` waits for the button); ``.choose(label)`` picks a
    ready-made corpus, ``.text = "..."`` types one, ``.train()`` (or the Train button) trains it and
    shows a fresh ``MergeStepper`` in ``.stepper``. Switching the tie rule retrains at once and
    keeps the step, so the class can watch the same moment under the other rule.
    """

    def __init__(
        self, *, corpus: str | None = None, merges: int | None = None, tie_break: str = "first", train: bool = True
    ) -> None:
        super().__init__()
        self._corpora = {c.label: c for c in CORPORA}
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
        self.stepper: MergeStepper | None = None
        self.result: Any = None
        self._trained_with: tuple[str, int, str] | None = None
        self._trained_message = ""
        self._typing = False  # True while the app itself changes the box or the chooser
        self._preset_text: str | None = None  # the text the chosen ready-made corpus put in the box

        wide = {"description_width": "initial"}
        self.corpus_choice = widgets.Dropdown(
            options=[*self._corpora, OWN_TEXT],
            description="corpus",
            style=wide,
            layout=widgets.Layout(flex="1 1 420px", min_width="320px"),
        )
        self.corpus_choice.add_class("bpe-corpus-choice")
        # not a BoundedIntText: that one clamps what was typed without a word; _problem_with says why instead
        self.merges_input = widgets.IntText(
            value=10,
            description="merges",
            tooltip=f"how many merges to learn, 1 to {MAX_MERGES}",
            style=wide,
            layout=widgets.Layout(width="200px"),
        )
        self.merges_input.add_class("bpe-merges")
        self.tie_rule = widgets.ToggleButtons(
            options=list(TIE_RULES),
            value=tie_break,
            description="ties",
            style={"button_width": "auto", "description_width": "initial"},
            layout=widgets.Layout(width="auto", flex="0 0 auto"),
            tooltips=[
                "among pairs with the same count, the one met first",
                "among pairs with the same count, the smallest in alphabetical order",
            ],
        )
        self.tie_rule.add_class("bpe-tie-rule")
        self.train_button = widgets.Button(
            description="Train",
            button_style="primary",
            tooltip="learn the merges of the text in the box",
            layout=widgets.Layout(width="auto"),
        )
        self.train_button.add_class("bpe-train")
        self.text_input = widgets.Textarea(
            placeholder="Type or paste a text here: words are cut at spaces, as in lessons 02–04",
            description="text",
            layout=widgets.Layout(width="auto", height="52px"),
        )
        self.text_input.add_class("bpe-corpus-input")
        self.message = widgets.HTML()
        self.message.add_class("bpe-message")
        keys = widgets.HTML(
            "Keys: <b>→</b> / <b>N</b> next · <b>←</b> / <b>B</b> back (a presenter's clicker too) · <b>F11</b> full screen"
        )
        keys.add_class("bpe-keys")
        self.settings_button = widgets.ToggleButton(
            value=False,
            description="Hide the corpus",
            tooltip="give the stepper the whole screen",
            layout=widgets.Layout(width="auto"),
        )
        self.settings_button.add_class("bpe-hide-settings")
        self.stepper_area = widgets.VBox(layout=widgets.Layout(width="100%"))
        self.stepper_area.add_class("bpe-stepper-area")

        self.corpus_choice.observe(self._on_choice, names="value")
        self.text_input.observe(self._on_typed, names="value")
        self.tie_rule.observe(self._on_tie_rule, names="value")
        self.merges_input.observe(self._on_merges_typed, names="value")
        self.train_button.on_click(lambda _button: self.train())
        self.settings_button.observe(self._on_hide_settings, names="value")

        row = widgets.Layout(flex_flow="row wrap", align_items="center", grid_gap="8px 16px", width="100%")
        self.settings = widgets.VBox(
            [
                widgets.HBox(
                    [self.corpus_choice, self.merges_input, self.tie_rule, self.train_button],
                    layout=row,
                ),
                self.text_input,
            ]
        )
        self.settings.add_class("bpe-settings")
        self.children = [
            widgets.HTML(CLASSROOM_CSS),
            self.settings,
            widgets.HBox([self.settings_button, self.message, keys], layout=row),
            self.stepper_area,
        ]
        self.add_class("bpe-classroom")

        first = corpus if corpus is not None else CORPORA[0].label
        if first in self._corpora or first == OWN_TEXT:
            self.choose(first)
        else:
            self.corpus_choice.value = OWN_TEXT
            self.text = first
        if merges is not None:
            self.merges = merges
        if train:
            self.train()

    # ---- the Python API ------------------------------------------------------------------------

    @property
    def corpus_labels(self) -> list[str]:
        """What the chooser offers: the ready-made corpora, then "your own text"."""
        return list(self.corpus_choice.options)

    def choose(self, label: str) -> None:
        """Pick a ready-made corpus (its text fills the box, its merge count the merges), or
        ``"your own text"`` (an empty box to type in)."""
        if label not in self.corpus_labels:
            raise ValueError(f"choose one of {self.corpus_labels}, got {label!r}")
        if self.corpus_choice.value == label:
            self._fill(label)  # choosing the same corpus again restores its text
        else:
            self.corpus_choice.value = label  # _on_choice fills the box

    @property
    def text(self) -> str:
        return self.text_input.value

    @text.setter
    def text(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"text must be a str, got {type(value).__name__}")
        self.text_input.value = value

    @property
    def merges(self) -> int:
        return self.merges_input.value

    @merges.setter
    def merges(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MERGES:
            raise ValueError(f"merges must be a whole number from 1 to {MAX_MERGES}, got {value!r}")
        self.merges_input.value = value

    @property
    def tie_break(self) -> str:
        return self.tie_rule.value

    @tie_break.setter
    def tie_break(self, value: str) -> None:
        if value not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {value!r}")
        self.tie_rule.value = value

    def train(self) -> MergeStepper | None:
        """Train the text in the box; show the new stepper at step 0 (or a message saying why not)."""
        return self._train(keep_step=False)

    def render_text(self) -> str:
        """The app's state in one line of text: what shows where widgets cannot render."""
        head = f"ClassroomStepper ({self.corpus_choice.value})"
        if self.stepper is None:
            return f"{head}: {_plain(self.message.value)}"
        return f"{head}: {self.stepper.render_text()}"

    def __repr__(self) -> str:
        return self.render_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.render_text()
        return bundle

    # ---- behind the controls -------------------------------------------------------------------

    def _fill(self, label: str) -> None:
        self._typing = True
        try:
            if label == OWN_TEXT:
                self._preset_text = None
                self.text_input.value = ""
            else:
                corpus = self._corpora[label]
                self._preset_text = corpus.read()
                self.text_input.value = self._preset_text
                self.merges_input.value = corpus.merges
        finally:
            self._typing = False
        self._say_settings_changed()

    def _on_choice(self, change: dict[str, Any]) -> None:
        if not self._typing:
            self._fill(change["new"])

    def _on_typed(self, _change: dict[str, Any]) -> None:
        if self._typing:
            return
        if self._preset_text is not None and self.text_input.value != self._preset_text:
            # the class edited a ready-made corpus: it is their own text now (the box keeps it)
            self._preset_text = None
            self._typing = True
            try:
                self.corpus_choice.value = OWN_TEXT
            finally:
                self._typing = False
        self._say_settings_changed()

    def _on_hide_settings(self, change: dict[str, Any]) -> None:
        self.settings.layout.display = "none" if change["new"] else None
        self.settings_button.description = "Show the corpus" if change["new"] else "Hide the corpus"

    def _on_tie_rule(self, _change: dict[str, Any]) -> None:
        if self.stepper is not None:
            self._train(keep_step=True)  # the same moment, under the other rule

    def _on_merges_typed(self, change: dict[str, Any]) -> None:
        problem = _problem_with("-", change["new"])  # says so as soon as the number is typed
        if problem:
            self.message.value = problem
        else:
            self._say_settings_changed()

    def _say_settings_changed(self) -> None:
        if self._trained_with is None:
            return
        if self._trained_with != (self.text, self.merges, self.tie_break):
            self.message.value = "The text or the settings changed: press <b>Train</b> to learn its merges."
        else:  # back to what was trained: what the stepper shows is current again
            self.message.value = self._trained_message

    def _train(self, *, keep_step: bool) -> MergeStepper | None:
        text, merges, tie_break = self.text, self.merges, self.tie_break
        problem = _problem_with(text, merges)
        if problem:
            self._show(None, problem)
            return None
        self.message.value = "Training…"  # reaches the screen before the wait
        step = self.stepper.step if (keep_step and self.stepper is not None) else 0
        result = train_bpe(text, merges, tie_break=cast(TieBreak, tie_break))
        stepper = MergeStepper(result, top_words=30, top_pairs=6, log_rows=6, projector=True)
        stepper.step = min(step, stepper.num_steps)
        self.result, self._trained_with = result, (text, merges, tie_break)
        self._trained_message = _summary(text, result, merges)
        self._show(stepper, self._trained_message)
        return stepper

    def _show(self, stepper: MergeStepper | None, message: str) -> None:
        self.stepper = stepper
        self.stepper_area.children = [stepper] if stepper is not None else []
        self.message.value = message


def _problem_with(text: str, merges: int = 1) -> str | None:
    """A friendly sentence when there is nothing sensible to train, else None."""
    if not 1 <= merges <= MAX_MERGES:
        return (
            f"Classroom mode learns from 1 to {MAX_MERGES} merges; you asked for {merges}. "
            "Change the number of merges, then press <b>Train</b>."
        )
    if not text.strip():
        return "There is no text to train on yet: choose a corpus above, or type a few words, then press <b>Train</b>."
    if len(text) > MAX_CHARACTERS:
        return (
            f"This text has {len(text):,} characters; classroom mode trains at most {MAX_CHARACTERS:,} "
            "(stepping through more is slow and hard to read). Paste a shorter part, then press <b>Train</b>."
        )
    return None


def _summary(text: str, result: Any, asked: int) -> str:
    words = get_word_frequencies(text)
    made = len(result.merges)
    rule = dict((value, label) for label, value in TIE_RULES)[result.tie_break]
    parts = [
        f"Trained <b>{made}</b> merge{'s' if made != 1 else ''} on {sum(words.values())} words "
        f"({len(words)} different), ties: {html.escape(rule)}."
    ]
    if result.stopped_early:
        parts.append(
            f"You asked for {asked}, but after {made} every word is a single symbol: nothing is left to merge."
        )
    else:
        parts.append("Step with <b>Next ▶</b>.")
    return " ".join(parts)


def _plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))
