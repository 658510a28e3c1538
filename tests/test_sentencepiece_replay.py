"""The merge stepper's view of SentencePiece: every single merge, grouped only where the stepper draws the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
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
    try:
        replay = replay_sentencepiece(model, text)
    except ValueError as err:  # a run of one pair that the stepper could not draw at once: said, not hidden
        assert "one-at-a-time" in str(err)
        return
    assert replay.pieces == model.encode_as_pieces(text)
    assert sum(replay.merges_at_once) == len(replay.single_steps)
    state = next(iter(replay.initial_word_freq))
    for step in replay.steps:  # what the stepper's browser code draws, step after step
        state = merge_symbols(state, step.pair)
        assert state == next(iter(step.word_freq))
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
