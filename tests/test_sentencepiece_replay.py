"""The merge stepper's view of SentencePiece: every single merge, grouped only where the stepper draws the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.analysis.sentencepiece_replay import MAX_CHARACTERS, replay_sentencepiece
from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_model import parse_model
from bpelab.widgets import MergeStepper
from bpelab.words import merge_symbols
from tests.sentencepiece_toys import CONTROL, NORMAL, UNKNOWN, reference, toy_model


def test_score_before_position_by_hand():
    """'▁t' (id 261, score -2) merges before 'he' (score -6), though 'h' + 'e' stands first in 'The t'."""
    replay = replay_sentencepiece(load_sentencepiece("mistral_v1"), "The t")
    assert replay.single_steps[0][:2] == (("▁", "t"), 2)
    assert [pair for pair, _, _ in replay.single_steps][:2] == [("▁", "t"), ("h", "e")]


MISTRAL = load_sentencepiece("mistral_v1")  # held: read again once nothing holds it


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("the cat sat  on mat🤖ⅷ.,"), max_size=30))
def test_the_replay_ends_where_the_encoder_ends(text):
    model = MISTRAL
    replay = replay_sentencepiece(model, text)  # never refused: a run the stepper cannot draw ends its steps early
    assert replay.pieces == model.encode_as_pieces(text)
    state = next(iter(replay.initial_word_freq))
    for pair, _, at in replay.single_steps:  # SentencePiece's own order, one place at a time
        assert (state[at], state[at + 1]) == pair
        state = (*state[:at], pair[0] + pair[1], *state[at + 2 :])
    assert list(state) == replay.pieces
    state = next(iter(replay.initial_word_freq))
    for step in replay.steps:  # what the stepper's browser code draws, step after step
        state = merge_symbols(state, step.pair)
        assert state == next(iter(step.word_freq))
    drawn = sum(replay.merges_at_once)
    assert drawn == (len(replay.single_steps) if replay.stepper_stops_at is None else replay.stepper_stops_at)
    if replay.stepper_stops_at is None:
        assert list(state) == replay.pieces
        assert replay.end_note.startswith("no merges left")
    else:  # the last step says that it is not SentencePiece's last merge, and which merge comes next
        (a, b), _, _ = replay.single_steps[replay.stepper_stops_at]
        assert replay.end_note.startswith(f"the stepper stops early, before single merge {replay.stepper_stops_at + 1}")
        assert f"join {a} + {b} at every place at once" in replay.end_note
        assert "no merges left" not in replay.end_note


def test_byte_pieces_show_from_the_start_and_the_stepper_takes_it():
    replay = replay_sentencepiece(load_sentencepiece("mistral_v1"), "a 🤖 b")
    assert next(iter(replay.initial_word_freq))[3:7] == ("<0xF0>", "<0x9F>", "<0xA4>", "<0x96>")
    stepper = MergeStepper(replay)
    stepper.last()
    assert "no merges left" in stepper.render_text()


def test_not_a_sentencepiece_model_is_refused():
    with pytest.raises(TypeError, match="SentencePieceBPE"):
        replay_sentencepiece("mistral_v1", "text")  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["   ", "a     b", "    indented code"])
def test_runs_of_spaces_give_every_single_merge_and_say_where_the_stepper_stops(text):
    """Mistral's '▁' pieces all score -1e9: SentencePiece joins a run of them leftmost first, which merging the pair
    everywhere at once does not draw; the replay still comes back, with every single merge."""
    model = load_sentencepiece("mistral_v1")
    replay = replay_sentencepiece(model, text)
    assert replay.pieces == model.encode_as_pieces(text)
    assert replay.stepper_stops_at is not None
    assert replay.single_steps[replay.stepper_stops_at][0] == ("▁", "▁")
    assert "stepper stops" in replay.summary()
    MergeStepper(replay)  # the steps it can draw


def test_a_few_thousand_characters_are_refused_up_front_and_the_limit_is_replayed():
    model = load_sentencepiece("mistral_v1")
    text = "the cat sat on the mat, " * 200  # 4,800 characters
    with pytest.raises(ValueError, match=f"{MAX_CHARACTERS:,} characters"):
        replay_sentencepiece(model, text)
    replay = replay_sentencepiece(model, text[:MAX_CHARACTERS])
    assert replay.pieces == model.encode_as_pieces(text[:MAX_CHARACTERS])


def test_the_end_note_says_why_a_run_of_spaces_stops_the_stepper():
    """'▁▁▁▁return': after ▁ + ▁ at symbol 0, ▁▁ + ▁ scores the same -1e9 and stands further left than the next
    ▁ + ▁, so SentencePiece takes it; a step joining ▁ + ▁ everywhere would give ▁▁ ▁▁."""
    replay = replay_sentencepiece(load_sentencepiece("mistral_v1"), "    return x")
    note = replay.end_note
    assert note.startswith("the stepper stops early, before single merge 8 of 10: ")
    assert "SentencePiece joins ▁ + ▁ at symbol 0, then ▁▁ + ▁ (−score 1,000,000,000, the same score" in note
    assert "the 3 single merges left are in single_steps" in note
    assert note in replay.summary()


def test_the_end_note_names_a_better_piece_that_interrupts_a_run():
    """A toy where joining a + b makes 'abc' possible, and 'abc' scores higher than 'ab': SentencePiece takes it
    before the second a + b; no tie is involved, and the note does not claim one."""
    pieces = [
        ("<unk>", 0.0, UNKNOWN),
        ("<s>", 0.0, CONTROL),
        ("ab", -1.0, NORMAL),
        ("abc", -0.5, NORMAL),
        ("▁", -5.0, NORMAL),
        ("a", -6.0, NORMAL),
        ("b", -7.0, NORMAL),
        ("c", -8.0, NORMAL),
    ]
    data = toy_model(pieces, add_dummy_prefix=False)
    model = SentencePieceBPE(parse_model(data))
    replay = replay_sentencepiece(model, "abcab")
    assert replay.pieces == ["abc", "ab"] == reference(data).encode("abcab", out_type=str)
    assert replay.stepper_stops_at == 0
    assert replay.end_note == (
        "the stepper stops early, before single merge 1 of 3: SentencePiece joins a + b at symbol 0, then ab + c "
        "(−score 0.5), while a step would join a + b at every place at once; the 3 single merges left are in "
        "single_steps"
    )


def test_a_replay_the_stepper_draws_to_the_end_says_no_merges_left():
    replay = replay_sentencepiece(load_sentencepiece("mistral_v1"), "The cat sat.")
    assert replay.stepper_stops_at is None
    assert replay.end_note == "no merges left: no two neighbouring symbols form a piece"


def test_a_model_with_user_defined_pieces_is_refused_with_what_they_are_and_what_to_do():
    with pytest.raises(ValueError, match=r"20 user-defined pieces \(\[REFERENCE_DOC_0\], \.\.\.\).*mistral_v1"):
        replay_sentencepiece(load_sentencepiece("mistral_v3"), "hi")


def test_the_steppers_last_step_says_where_and_why_a_replay_stopped_early():
    """Four spaces before a word: SentencePiece joins the ▁ run leftmost first, which steps cannot draw."""
    mistral = load_sentencepiece("mistral_v1")
    early = MergeStepper(replay_sentencepiece(mistral, "    return x"))
    early.last()
    assert "stepper stops early" in early.render_text() and "no merges left" not in early.render_text()
    assert "stops early" in early.trace["endNote"]
    whole = MergeStepper(replay_sentencepiece(mistral, "The t"))
    whole.last()
    assert whole.render_text().endswith("no merges left: no two neighbouring symbols form a piece")
