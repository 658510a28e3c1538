"""Mistral 7B (SentencePiece) in the explorer, the side-by-side view and the token-build panel, in Python.

Known answers come from the ``sentencepiece`` library (ids, pieces) and from hand-checkable cases (the dummy
prefix alone before a digit, the leftmost-first joins of a run of ``▁``); a build's steps are held to lesson 16's
replay (``replay_sentencepiece``, a second implementation of the merge rule), and the panel's text to the page's.
"""

from __future__ import annotations

import random

import pytest
import sentencepiece as spm

from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
from bpelab.sentencepiece import SPACE, SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_build import build_piece
from bpelab.sentencepiece_model import PieceType, parse_model
from bpelab.vocab_files import require_sentencepiece
from bpelab.widgets.compare import CompareView
from bpelab.widgets.encoders import encoder_for
from bpelab.widgets.explorer import EncodeExplorer
from bpelab.widgets.token_build_view import build_for, build_lines
from bpelab.widgets.view_tokenizers import LABELS, page_entry
from tests.sentencepiece_toys import CONTROL, NORMAL, UNKNOWN, reference, toy_model, with_bytes
from tests.test_token_build_view import lines_in_js

MISTRAL = LABELS["mistral_v1"]
TAMIL_AND_EMOJI = "தமிழ் எழுத்து 👩\u200d👩\u200d👧 👍🏽 2024"


def library() -> spm.SentencePieceProcessor:
    return spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))


def test_the_explorer_offers_mistral_and_gives_sentencepieces_ids() -> None:
    explorer = EncodeExplorer(text=TAMIL_AND_EMOJI)
    assert MISTRAL in explorer.labels
    entry = next(t for t in explorer.tokenizers if t["label"] == MISTRAL)
    assert entry["kind"] == "sentencepiece" and entry["browser"] is True and entry["encoding"] == "mistral_v1"
    ids, pieces = explorer.encoding_of(MISTRAL)
    assert ids == library().encode(TAMIL_AND_EMOJI)
    assert b"".join(pieces) == TAMIL_AND_EMOJI.encode("utf-8")  # type: ignore[arg-type]
    assert explorer.encodings[MISTRAL]["ids"] == ids  # precomputed for the page: a short text


def test_chips_show_spaces_and_byte_fallback_characters_whole() -> None:
    """Decoding one id at a time would lose every word's space and draw each byte piece as U+FFFD."""
    explorer = EncodeExplorer(text=TAMIL_AND_EMOJI, selected=MISTRAL)
    texts = [chip.text for chip in explorer.chips]
    assert "\ufffd" not in "".join(texts)
    assert "ழ்" in texts  # three byte pieces <0xE0><0xAE><0xB4> and the virama ்: one chip, one grapheme
    assert any(text.startswith(" ") for text in texts)
    byte_pieces = [i for i in explorer.ids if load_sentencepiece("mistral_v1").types[i] == PieceType.BYTE]
    assert len(byte_pieces) >= 6 and explorer.chip_count < explorer.token_count


def test_the_dummy_prefix_alone_covers_no_byte_of_the_text() -> None:
    ids, pieces = encoder_for(load_sentencepiece("mistral_v1"))("2024")
    assert [load_sentencepiece("mistral_v1").pieces[i] for i in ids] == [SPACE, "2", "0", "2", "4"]
    assert pieces == [b"", b"2", b"0", b"2", b"4"]


def test_a_literal_lower_eighth_block_stays_itself() -> None:
    """'▁' typed in the text is read as a space by the model; its chip still shows the character typed."""
    _ids, pieces = encoder_for(load_sentencepiece("mistral_v1"))(f"a{SPACE}b c")
    assert b"".join(pieces) == f"a{SPACE}b c".encode()  # type: ignore[arg-type]


def test_side_by_side_lines_mistral_up_with_gpt4() -> None:
    view = CompareView(text="Tokenizers don't read 2024 words.", chosen=["GPT-4 (cl100k_base)", MISTRAL])
    assert view.counts[MISTRAL] == len(library().encode("Tokenizers don't read 2024 words."))
    spans = view.differing_spans
    assert spans and all(0 <= a < b <= len(view.text) for a, b in spans)
    between = view.tokens_between(0, len(view.text.encode()))
    assert len(between[MISTRAL]) == view.counts[MISTRAL]  # the dummy prefix is in ▁Token here
    assert "Mistral 7B (SentencePiece)" in view.render_text()


def test_the_page_entry_is_named_and_an_unknown_name_refused() -> None:
    assert page_entry("mistral_v1")["note"].startswith("Mistral 7B (SentencePiece) writes a space as ▁")
    with pytest.raises(ValueError, match="choose from .*mistral_v1"):
        EncodeExplorer(production=["mistral_v2"])


def test_a_mistral_chip_opens_its_build_by_score() -> None:
    explorer = EncodeExplorer(text="Tokenizers", selected=MISTRAL)
    model = load_sentencepiece("mistral_v1")
    assert [model.pieces[i] for i in explorer.ids] == ["▁Token", "izers"]
    build = explorer.build_of(0)
    assert build.numbering == "score" and build.leaves == "characters" and build.reachable
    assert build.token == "▁Token".encode()
    assert [(s.left + s.right).decode() for s in build.steps][-1] == "▁Token"
    assert [s.number for s in build.steps] == sorted((s.number for s in build.steps), reverse=True)
    lines = build_lines(build, MISTRAL)
    assert lines[1] == "Step 0 of 5: The 6 characters of the piece (▁ is a space), before any merge."
    assert lines[-1].strip() == "n (character)"


def test_builds_are_the_merges_lesson_16s_replay_makes_on_the_piece() -> None:
    """For pieces starting with ▁: the text is the piece with a space for each ▁ but the dummy prefix's; the
    library encodes it as that one piece, and the replay's single merges are the build's steps."""
    model = load_sentencepiece("mistral_v1")
    ids = [i for i, p in enumerate(model.pieces) if model.types[i] == PieceType.NORMAL and p.startswith(SPACE)]
    ids = [i for i in ids if len(model.pieces[i]) > 1 and set(model.pieces[i]) != {SPACE}]
    reference = library()
    for piece_id in random.Random("sentencepiece-builds").sample(ids, 300):
        text = model.pieces[piece_id][1:].replace(SPACE, " ")
        assert reference.encode(text) == [piece_id]
        build = build_piece(model, piece_id)
        singles = replay_sentencepiece(model, text).single_steps
        assert [((s.left.decode(), s.right.decode()), -s.number, s.position) for s in build.steps] == singles


def test_a_run_of_spaces_joins_leftmost_first_and_says_its_score_is_shared() -> None:
    model = load_sentencepiece("mistral_v1")
    build = build_piece(model, model.piece_to_id[SPACE * 4])
    assert [(s.left.decode(), s.right.decode()) for s in build.steps] == [
        (SPACE, SPACE),
        (SPACE * 2, SPACE),
        (SPACE * 3, SPACE),
    ]
    assert build.note.startswith("15 pieces of this model share this score, -1000000000, the lowest of all")


def test_a_byte_piece_and_a_control_piece() -> None:
    model = load_sentencepiece("mistral_v1")
    byte = build_piece(model, model.piece_to_id["<0xE0>"])
    assert byte.token == b"\xe0" and not byte.steps and "byte fallback" in byte.note
    with pytest.raises(ValueError, match="control piece: encoding never builds it"):
        build_for(model, model.piece_to_id["<s>"], b"")


def test_the_panel_says_the_same_in_the_page() -> None:
    model = load_sentencepiece("mistral_v1")
    pieces = ["▁Token", SPACE * 4, "<0xE0>", "東", "▁the", "izers"]
    builds = [build_piece(model, model.piece_to_id[p]) for p in pieces]
    assert lines_in_js([(b.as_dict(), MISTRAL) for b in builds]) == [build_lines(b, MISTRAL) for b in builds]


def test_a_piece_the_encoder_never_gives_is_said_unreachable() -> None:
    """A toy (tests/sentencepiece_toys.py) where "abcd" is a piece but a,b,c,d join as ab | c | d (ab and bc tie at
    -2, the leftmost wins, and neither abc nor cd is a piece): the library never gives abcd either."""
    pieces = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("ab", -2.0, NORMAL), ("bc", -2.0, NORMAL)]
    pieces += [("abcd", -4.0, NORMAL), *((c, -10.0 - k, NORMAL) for k, c in enumerate(f"abcd{SPACE}"))]
    data = toy_model(with_bytes(pieces), byte_fallback=True, add_dummy_prefix=False)
    model = SentencePieceBPE(parse_model(data))
    assert reference(data).encode_as_pieces("abcd") == ["ab", "c", "d"]
    build = build_piece(model, model.piece_to_id["abcd"])
    assert not build.reachable and build.tree is None and build.parts == (b"ab", b"c", b"d")
    assert build_lines(build)[1] == (
        "Merging in score order does not reach this piece: from its characters, joining pairs that form pieces "
        "scoring at least its own stops at 3 parts: ab | c | d. SentencePiece's encoder never gives it."
    )
    assert lines_in_js([(build.as_dict(), "")]) == [build_lines(build)]
