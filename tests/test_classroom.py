"""Classroom mode, driven in-process: the page's requests are set as it sets them (``train_request``).

``ClassroomStepper`` is one anywidget (the merge stepper plus the data its form needs); its ES module
draws the form, so what is tested here is what Python computes and answers. The browser tests
(tests/browser/test_present_app.py, test_present_page.py) drive the drawn page.

Known answers are hand-checkable: in "low ×5, lower ×2, newest ×3, widest ×2" the pairs l+o and o+w
both occur 7 times (in low and lower), and l+o is met first; in "step pest pets" s+t and p+e both
occur twice, s+t first, p+e smaller.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import anywidget
import ipywidgets
import pytest

from bpelab import train_bpe
from bpelab.paths import REPO_ROOT
from bpelab.widgets import MergeStepper
from bpelab.widgets.classroom import (
    CORPORA,
    MAX_CHARACTERS,
    MAX_MERGES,
    OWN_TEXT,
    ClassroomStepper,
    _problem_with,
    _summary,
)
from bpelab.widgets.form_training import train_for_form

TOY_LABEL = CORPORA[0].label


def request(
    app: ClassroomStepper,
    text: str,
    merges: object,
    tie_break: str = "first",
    keep_step: bool = False,
    stop_at_single: bool = False,
) -> None:
    """What the page's Train (or tie toggle) sends with a kernel (the stop rule off unless asked: train_bpe's run)."""
    n = app.train_request.get("n", 0) + 1
    app.train_request = {
        "text": text,
        "merges": merges,
        "tie_break": tie_break,
        "keep_step": keep_step,
        "stop_at_single": stop_at_single,
        "n": n,
    }


def test_the_app_is_one_anywidget_with_no_ipywidgets_inside():
    """Issue 14: one Python class that computes, one ES module that draws (no second drawing path)."""
    app = ClassroomStepper()
    assert isinstance(app, anywidget.AnyWidget) and isinstance(app, MergeStepper)
    assert not isinstance(app, ipywidgets.Box) and not hasattr(app, "children")
    inside = [n for n in app.trait_names() if n != "layout" and isinstance(getattr(app, n), ipywidgets.Widget)]
    assert not inside, f"widgets inside the app: {inside}"
    assert "export default { render: renderClassroom }" in app._esm
    assert "export default { render: renderStepper }" not in app._esm  # the stepper's is dropped inside the app
    assert "function renderStepper(" in app._esm and "function trainBpe(" in app._esm
    assert app.train_form and app.projector


def test_it_starts_on_the_toy_corpus_trained_with_the_first_merge_l_o():
    app = ClassroomStepper()
    assert app.corpus_label == TOY_LABEL
    assert app.text.split().count("low") == 5 and app.text.split().count("widest") == 2
    assert app.upcoming_pair == ("l", "o") and app.num_steps == 10
    assert app.corpus_labels == [c.label for c in CORPORA] + [OWN_TEXT]
    assert repr(app) == f"ClassroomStepper ({TOY_LABEL}): 10 merges; step 0 of 10; next merge: 'l' + 'o' (count 7)"


def test_the_ready_made_corpora_are_synced_as_data_for_the_pages_chooser():
    app = ClassroomStepper(train=False)
    assert app.corpora == [{"label": c.label, "text": c.read(), "merges": c.merges} for c in CORPORA]
    assert "corpora" in app.keys and "train_request" in app.keys and "message" in app.keys  # synced traitlets


def test_every_ready_made_corpus_fills_the_box_and_trains():
    app = ClassroomStepper(train=False)
    assert not app.trained and app.num_steps == 0
    for corpus in CORPORA:
        app.choose(corpus.label)
        assert app.text == corpus.read() and app.text.strip()
        assert app.merges == corpus.merges
        assert app.train()
        assert app.result.merges == train_bpe(corpus.read(), corpus.merges).merges
        assert app.num_steps == len(app.result.merges) > 0


def test_the_pages_train_request_trains_with_train_bpe_and_those_settings():
    app = ClassroomStepper()
    request(app, "nest sent tens net ten", 6, "lexicographic")
    expected = train_bpe("nest sent tens net ten", 6, tie_break="lexicographic")
    assert app.result.merges == expected.merges
    assert app.step == 0 and app.num_steps == 6
    assert app.trace["merges"][0][3] == str(expected.steps[0].count)  # the page draws this trace
    assert (app.text, app.merges, app.tie_break, app.corpus_label) == (
        "nest sent tens net ten",
        6,
        "lexicographic",
        OWN_TEXT,
    )
    assert app.message.startswith("Trained 6 merges on 5 words (5 different), ties: smallest pair.")
    app.next()
    assert app.highlighted_pair == expected.merges[0][0] == ("e", "n")


def test_the_same_request_twice_trains_twice():
    """Each press carries a new counter, so pressing Train again after a step starts over at step 0."""
    app = ClassroomStepper()
    request(app, "step pest pets", 4)
    app.next()
    request(app, "step pest pets", 4)
    assert app.step == 0


def test_switching_the_tie_rule_retrains_and_keeps_the_step():
    app = ClassroomStepper(corpus="step pest pets", stop_at_single=False)
    app.next()
    assert app.highlighted_pair == ("s", "t")  # first seen
    app.tie_break = "lexicographic"  # from Python
    assert app.step == 1 and app.highlighted_pair == ("p", "e")  # the smaller of the tied pairs
    assert app.result.merges == train_bpe("step pest pets", 10, tie_break="lexicographic").merges
    request(app, "step pest pets", 10, "first", keep_step=True)  # the page's toggle
    assert app.step == 1 and app.highlighted_pair == ("s", "t")


def test_editing_a_ready_made_corpus_makes_it_your_own_text_and_nothing_retrains():
    app = ClassroomStepper()
    before = app.result
    app.text = app.text + " lowest"
    assert app.corpus_label == OWN_TEXT
    assert app.result is before  # nothing retrains while the class types
    app.train()
    assert app.result.initial_word_freq[("l", "o", "w", "e", "s", "t", "</w>")] == 1


@pytest.mark.parametrize("text", ["", "   \n\t  "])
def test_no_text_gives_a_friendly_message_not_an_exception(text):
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    request(app, text, 10)
    assert not app.trained and app.num_steps == 0
    assert "no text to train on" in app.message
    assert "no text to train on" in app.render_text()


def test_a_text_too_long_for_a_class_is_refused_with_its_length():
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = "ab " * (MAX_CHARACTERS // 3 + 1)
    assert app.train() is False
    assert f"{len(app.text):,} characters" in app.message


def test_asking_for_more_merges_than_exist_says_how_many_were_made():
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = "ab ab"  # a+b, then ab+</w>: two merges and every word is one symbol
    app.merges = 10
    app.train()
    assert app.num_steps == 2
    assert "after 2 every word is a single symbol" in app.message


def test_bad_settings_are_refused_with_a_clear_error():
    app = ClassroomStepper(train=False)
    with pytest.raises(ValueError, match="merges must be a whole number"):
        app.merges = 0
    with pytest.raises(ValueError, match="tie_break must be one of"):
        app.tie_break = "random"
    with pytest.raises(ValueError, match="choose one of"):
        app.choose("Shakespeare")
    with pytest.raises(TypeError, match="text must be a str"):
        app.text = 3  # type: ignore[assignment]


@pytest.mark.parametrize("typed", [900, 0, -3, 2.5, None])
def test_merges_out_of_range_from_the_page_get_a_message_and_keep_the_run(typed):
    """TEACHING.md promises a message above 500 merges or below 1, not a silent clamp."""
    app = ClassroomStepper()
    before = app.result
    request(app, app.text, typed)
    assert app.result is before and app.merges == 10
    assert f"from 1 to {MAX_MERGES} merges; you asked for" in app.message


def test_a_request_the_app_cannot_read_gets_a_message_not_a_traceback():
    app = ClassroomStepper()
    app.train_request = {"text": None, "n": 1}
    assert "cannot read" in app.message


def test_tie_rules_have_one_name_each_in_the_message_and_the_pair_table():
    app = ClassroomStepper()
    assert "ties: first seen" in app.message
    app.tie_break = "lexicographic"  # the API's value stays
    assert "ties: smallest pair" in app.message and "lexicographic" not in app.message
    assert app.trace["tieBreak"] == "lexicographic"  # the page names it "smallest pair" (TIE_RULE_NAMES)


CASES = [
    ("the cat sat", 0),
    ("the cat sat", 501),
    ("", 10),
    (" \t\n\x1c ", 10),
    ("ab " * (MAX_CHARACTERS // 3 + 1), 10),
    ("é" * (MAX_CHARACTERS + 1), 10),  # code points, not bytes or UTF-16 units
    ("the cat sat", 10),
]


def test_the_page_without_a_kernel_says_what_python_says():
    """classroom.js's problemWith and runSummary (the static page's messages) are Python's sentences."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (Node 20: apt-get install nodejs)")
    settings = (
        ("ab ab", "first", False),
        ("step pest pets", "lexicographic", False),
        ("nest sent tens", "first", True),
    )
    runs = [train_for_form(t, 30, tie_break=rule, stop_at_single=stop) for t, rule, stop in settings]
    script = """
import { readFileSync } from "node:fs";
import { problemWith, runSummary } from "./bpelab/widgets/static/classroom.js";
const [cases, runs] = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify([cases.map(([t, m]) => problemWith(t, m)), runs.map((r) => runSummary(r))]));
"""
    facts = [
        {
            "made": len(r.merges),
            "words": sum(r.initial_word_freq.values()),
            "distinct": len(r.initial_word_freq),
            "tieBreak": r.tie_break,
            "stoppedEarly": r.stopped_early,
            "asked": 30,
            "pairsLeft": any(len(word) > 1 for word in r.word_freq),
        }
        for r in runs
    ]
    out = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps([CASES, facts]),
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
        timeout=60,
    )
    problems, summaries = json.loads(out.stdout)
    assert problems == [_problem_with(t, m) for t, m in CASES]
    texts = [text for text, _, _ in settings]
    assert "no pair occurs twice" in summaries[2]
    assert summaries == [_summary(t, r, 30) for t, r in zip(texts, runs, strict=True)]


def test_the_static_classroom_page_holds_this_classs_state():
    """site/present.html is the same app: the module and the values a fresh ClassroomStepper() syncs."""
    from bpelab.course.present_page import present_html, synced_values

    page = present_html()
    app = ClassroomStepper()
    assert json.dumps(synced_values(app)) in page
    assert app._esm.split("// ---- chips.js ----")[1][:2000] in page
    assert "renderClassroom({ model, el:" in page and "globalThis.bpelabStatic = true" in page


def test_stop_when_no_pair_occurs_twice_is_on_by_default_and_says_where_it_stopped():
    """Issue 30 item 5: "nest sent tens net ten" has two merges of count 3, two of 2, then only pairs seen once
    (counted by hand: n-e-s-t, s-e-n-t, t-e-n-s, n-e-t, t-e-n)."""
    counts = [step.count for step in train_bpe("nest sent tens net ten", 8).steps]
    assert counts[:4] == [3, 3, 2, 2] and set(counts[4:]) == {1}
    app = ClassroomStepper(corpus="nest sent tens net ten", merges=8)
    assert app.stop_at_single is True and "stop_at_single" in app.keys
    assert app.num_steps == 4
    assert app.message.endswith(
        "Stopped after 4 merges of the 8 asked for: no pair occurs twice any more "
        "(merging a pair seen once would shorten the text by one token and add one vocabulary entry)."
    )
    app.stop_at_single = False  # from Python: retrains at once, as a new tie rule does
    assert app.num_steps == 8 and "Step with Next" in app.message
    request(app, "nest sent tens net ten", 8, stop_at_single=True)  # the page's checkbox
    assert app.num_steps == 4 and app.stop_at_single is True
