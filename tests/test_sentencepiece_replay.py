"""The merge stepper's view of SentencePiece: every single merge, grouped only where the stepper draws the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.analysis.sentencepiece_replay import MAX_CHARACTERS, replay_sentencepiece
from bpelab.sentencepiece import load_sentencepiece
from bpelab.widgets import MergeStepper
from bpelab.words import merge_symbols


def test_score_before_position_by_hand():
    """'▁t' (id 261, score -2) merges before 'he' (score -6), though 'h' + 'e' stands first in 'The t'."""
    replay = replay_sentencepiece(load_sentencepiece("mistral_v1"), "The t")
    assert replay.single_steps[0][:2] == (("▁", "t"), 2)
    assert [pair for pair, _, _ in replay.single_steps][:2] == [("▁", "t"), ("h", "e")]


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from("the cat sat  on mat🤖ⅷ.,"), max_size=30))
def test_the_replay_ends_where_the_encoder_ends(text):
    model = load_sentencepiece("mistral_v1")
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
