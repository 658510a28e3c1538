"""Without byte fallback, a run of unknown characters is one ``<unk>`` id, but ``encode_as_pieces`` shows the run's
own text (``PopulateSentencePieceText`` in ``src/sentencepiece_processor.cc`` joins the pieces of the run): the
course's encoder shows the same pieces as ``sentencepiece``, held here against it."""

from __future__ import annotations

import sentencepiece as spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_model import parse_model
from bpelab.vocab_files import require_sentencepiece
from tests.sentencepiece_toys import CONTROL, NORMAL, UNKNOWN, reference, toy_model

BASE = [
    ("<unk>", 0.0, UNKNOWN),
    ("<s>", 0.0, CONTROL),
    ("▁", -5.0, NORMAL),
    ("a", -6.0, NORMAL),
    ("b", -7.0, NORMAL),
    ("▁a", -1.0, NORMAL),
    ("ab", -2.0, NORMAL),
]
DATA = toy_model(BASE)
OURS, THEIRS = SentencePieceBPE(parse_model(DATA)), reference(DATA)


def test_a_run_of_unknown_characters_shows_as_its_own_text():
    # '▁a' (-1) beats 'ab' (-2) at both places; '🤖' and '€' are no pieces: one run, one <unk> id
    assert OURS.encode_as_pieces("a🤖€b ab") == ["▁a", "🤖€", "b", "▁a", "b"]
    assert OURS.encode_as_pieces("a🤖€b ab") == THEIRS.encode("a🤖€b ab", out_type=str)
    assert OURS.encode("a🤖€b ab") == THEIRS.encode("a🤖€b ab") == [5, 0, 4, 5, 4]


def test_an_unknown_space_and_the_characters_after_it_show_as_they_are():
    """A model that lacks '▁': the dummy prefix is an unknown character, joined with the unknown ones after it."""
    data = toy_model([("<unk>", 0.0, UNKNOWN), ("a", -1.0, NORMAL)])
    ours, theirs = SentencePieceBPE(parse_model(data)), reference(data)
    for text in ["ça a", " x", "a  €"]:
        assert ours.encode_as_pieces(text) == theirs.encode(text, out_type=str), text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.sampled_from("ab  ç€🤖\u0301\n"), max_size=12))
def test_pieces_equal_sentencepieces_on_text_with_unknown_runs(text):
    assert OURS.encode_as_pieces(text) == THEIRS.encode(text, out_type=str)
    assert OURS.encode(text) == THEIRS.encode(text)


def test_a_trained_model_without_byte_fallback(tmp_path):
    """Lesson 16 cell 8's model: trained by sentencepiece on one line, the default normaliser, no byte fallback."""
    (tmp_path / "tiny.txt").write_text("fine fish find fifty\n" * 20, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(tmp_path / "tiny.txt"),
        model_prefix=str(tmp_path / "nfkc"),
        model_type="bpe",
        vocab_size=30,
        num_threads=1,
        minloglevel=2,
    )
    ours = SentencePieceBPE.from_model_file(tmp_path / "nfkc.model")
    theirs = spm.SentencePieceProcessor(model_file=str(tmp_path / "nfkc.model"))
    for text in ["🤖€", "a🤖€b fine", "ﬁne  ２０２４ 🤖", "fine 日本語 fish"]:
        assert ours.encode_as_pieces(text) == theirs.encode(text, out_type=str), text
        assert ours.encode(text) == theirs.encode(text), text
    assert ours.encode_as_pieces("🤖€") == ["▁", "🤖€"]


def test_with_byte_fallback_the_pieces_are_still_the_byte_pieces():
    model = load_sentencepiece("mistral_v1")
    theirs = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    assert model.encode_as_pieces("a 🤖ꙮ")[-7:] == [
        "<0xF0>",
        "<0x9F>",
        "<0xA4>",
        "<0x96>",
        "<0xEA>",
        "<0x99>",
        "<0xAE>",
    ]
    assert model.encode_as_pieces("a 🤖ꙮ") == theirs.encode("a 🤖ꙮ", out_type=str)


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from("ab  ç€🤖\u0301"), max_size=12))
def test_the_replay_of_a_model_without_byte_fallback_ends_with_the_encoders_pieces(text):
    """The merge replay (the stepper's) of a model without byte fallback ends with sentencepiece's pieces, a run of
    unknown characters joined as the encoder shows it (it raised on any run of two or more)."""
    from bpelab.analysis.sentencepiece_replay import replay_sentencepiece

    replay_sentencepiece(OURS, text)  # raises AssertionError where the replay and the encoder part
