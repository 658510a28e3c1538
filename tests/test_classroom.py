"""Classroom mode, driven in-process: the controls' handlers run without a browser (``Button.click()``).

Known answers are hand-checkable: in "low ×5, lower ×2, newest ×3, widest ×2" the pairs l+o and o+w
both occur 7 times (in low and lower), and l+o is met first; in "step pest pets" s+t and p+e both
occur twice, s+t first, p+e smaller.
"""

from __future__ import annotations

import re

import pytest

from bpelab import train_bpe
from bpelab.widgets import MergeStepper
from bpelab.widgets.classroom import (
    CORPORA,
    KEYBOARD_JS,
    MAX_CHARACTERS,
    OWN_TEXT,
    ClassroomStepper,
    keyboard_shortcuts,
)

TOY_LABEL = CORPORA[0].label


def plain(markup: str) -> str:
    return re.sub(r"<[^>]+>", "", markup)


def test_it_starts_on_the_toy_corpus_trained_with_the_first_merge_l_o():
    app = ClassroomStepper()
    assert app.corpus_choice.value == TOY_LABEL
    assert app.text.split().count("low") == 5 and app.text.split().count("widest") == 2
    assert isinstance(app.stepper, MergeStepper) and app.stepper in app.stepper_area.children
    assert app.stepper.upcoming_pair == ("l", "o")


def test_every_ready_made_corpus_fills_the_box_and_trains():
    app = ClassroomStepper(train=False)
    assert app.stepper is None
    for corpus in CORPORA:
        app.choose(corpus.label)
        assert app.text == corpus.read() and app.text.strip()
        assert app.merges == corpus.merges
        app.train_button.click()
        assert app.stepper is not None and app.stepper.num_steps == len(app.result.merges) > 0


def test_typed_text_and_train_build_the_stepper_on_train_bpe_with_those_settings():
    app = ClassroomStepper()
    app.choose(OWN_TEXT)
    assert app.text == ""
    app.text = "nest sent tens net ten"
    app.merges = 6
    app.tie_break = "lexicographic"
    app.train_button.click()
    expected = train_bpe("nest sent tens net ten", 6, tie_break="lexicographic")
    assert app.result.merges == expected.merges
    assert app.stepper.step == 0 and app.stepper.num_steps == 6
    app.stepper.next()
    assert app.stepper.highlighted_pair == expected.merges[0][0] == ("e", "n")


def test_switching_the_tie_rule_retrains_and_keeps_the_step():
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = "step pest pets"
    app.train()
    app.stepper.next()
    assert app.stepper.highlighted_pair == ("s", "t")  # first seen
    app.tie_rule.value = "lexicographic"  # what a click on the toggle does
    assert app.stepper.step == 1
    assert app.stepper.highlighted_pair == ("p", "e")  # the smaller of the tied pairs
    assert app.result.merges == train_bpe("step pest pets", 10, tie_break="lexicographic").merges


def test_editing_a_ready_made_corpus_makes_it_your_own_text_and_asks_for_train():
    app = ClassroomStepper()
    before = app.result
    app.text = app.text + " lowest"
    assert app.corpus_choice.value == OWN_TEXT
    assert app.text.endswith(" lowest")  # the box keeps what was typed
    assert app.result is before  # nothing retrains while the class types
    assert "press Train" in plain(app.message.value)
    app.train()
    assert app.result.initial_word_freq[("l", "o", "w", "e", "s", "t", "</w>")] == 1


@pytest.mark.parametrize("text", ["", "   \n\t  "])
def test_no_text_gives_a_friendly_message_not_an_exception(text):
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = text
    app.train_button.click()
    assert app.stepper is None and app.stepper_area.children == ()
    assert "no text to train on" in plain(app.message.value)
    assert "no text to train on" in app.render_text()


def test_a_text_too_long_for_a_class_is_refused_with_its_length():
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = "ab " * (MAX_CHARACTERS // 3 + 1)
    assert app.train() is None
    assert f"{len(app.text):,} characters" in plain(app.message.value)


def test_asking_for_more_merges_than_exist_says_how_many_were_made():
    app = ClassroomStepper(corpus=OWN_TEXT, train=False)
    app.text = "ab ab"  # a+b, then ab+</w>: two merges and every word is one symbol
    app.merges = 10
    app.train()
    assert app.stepper.num_steps == 2
    assert "after 2 every word is a single symbol" in plain(app.message.value)


def test_bad_settings_are_refused_with_a_clear_error():
    app = ClassroomStepper(train=False)
    with pytest.raises(ValueError, match="merges must be a whole number"):
        app.merges = 0
    with pytest.raises(ValueError, match="tie_break must be one of"):
        app.tie_break = "random"
    with pytest.raises(ValueError, match="choose one of"):
        app.choose("Shakespeare")


def test_the_settings_can_be_hidden_to_give_the_stepper_the_screen():
    app = ClassroomStepper()
    app.settings_button.value = True
    assert app.settings.layout.display == "none"
    assert app.settings_button.description == "Show the corpus"
    app.settings_button.value = False
    assert app.settings.layout.display is None


def test_every_button_has_a_text_label_because_icons_are_missing_offline():
    app = ClassroomStepper()
    buttons = [
        app.train_button,
        app.settings_button,
    ]  # the stepper's own buttons are drawn by its ES module: tests/browser/test_present_app.py
    for button in buttons:
        assert re.search(r"[A-Za-z]{3,}", button.description), f"{button.description!r} has no word in it"
        assert not button.icon


def test_the_keyboard_script_presses_the_apps_next_and_back_but_not_while_typing():
    script = keyboard_shortcuts()
    assert script.data == KEYBOARD_JS
    for needle in ("button.bpe-' + which", "ArrowRight", "ArrowLeft", "textarea", "data-voila"):
        assert needle in KEYBOARD_JS
    app = ClassroomStepper()
    assert "bpe-classroom" in app._dom_classes
    module = app.stepper._esm  # the stepper's module draws the buttons the script presses
    assert 'button("Next", "bpe-next"' in module and 'button("Back", "bpe-back"' in module


def test_a_text_given_at_the_start_is_the_classes_own_text():
    app = ClassroomStepper(corpus="hug pug pun", merges=3)
    assert app.corpus_choice.value == OWN_TEXT and app.text == "hug pug pun"
    assert app.result.merges == train_bpe("hug pug pun", 3).merges


@pytest.mark.parametrize("typed", [900, 0, -3])
def test_merges_out_of_range_typed_in_the_box_get_a_message_not_a_silent_clamp(typed):
    """TEACHING.md promises a message above 500 merges or below 1; the box keeps what was typed."""
    app = ClassroomStepper()
    before = app.result
    app.merges_input.value = typed  # what typing in the box does
    assert app.merges_input.value == typed
    assert f"from 1 to 500 merges; you asked for {typed}" in plain(app.message.value)
    assert app.train() is None and app.result is before
    assert "you asked for" in plain(app.message.value)
    app.merges_input.value = 10
    assert "you asked for" not in plain(app.message.value)


def test_tie_rules_have_one_name_each_in_the_toggle_the_message_and_the_pair_table():
    app = ClassroomStepper()
    assert [label for label, _value in app.tie_rule.options] == ["first seen", "smallest pair"]
    assert "ties: first seen" in plain(app.message.value)
    app.tie_rule.value = "lexicographic"  # the API's value stays
    assert "ties: smallest pair" in plain(app.message.value)
    assert app.stepper.trace["tieBreak"] == "lexicographic"  # the page names it "smallest pair" (TIE_RULE_NAMES)
    assert "lexicographic" not in plain(app.message.value)


def test_the_app_asks_the_stepper_for_its_projector_layout():
    """The step box and the "at step n" notes are hidden on the projector, by the stepper's own module
    (the browser tests measure the layout at 1280×720)."""
    app = ClassroomStepper()
    assert app.stepper.projector
    assert ".bpe-projector .bpe-step-box,.bpe-projector .bpe-step-ref" in app.stepper._esm
