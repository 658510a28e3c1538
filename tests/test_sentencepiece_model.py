"""Reading SentencePiece's .model files by hand: the wire format, the schema's defaults, Mistral's two models."""

import pytest
import sentencepiece as spm

from bpelab.sentencepiece_model import ModelFileError, ModelType, PieceType, parse_model, read_model_file, read_varint
from bpelab.vocab_files import SENTENCEPIECE_SOURCES, require_sentencepiece
from tests.sentencepiece_toys import CONTROL, NORMAL, UNKNOWN, USER_DEFINED, toy_model, varint


def test_varints_as_the_protobuf_documentation_writes_them():
    assert read_varint(b"\x01", 0) == (1, 1)
    assert read_varint(b"\xac\x02", 0) == (300, 2)  # protobuf's own example: 0b10_0101100
    assert read_varint(b"\x00\x96\x01", 1) == (150, 3)
    assert read_varint(varint(-1), 0) == (2**64 - 1, 10)


def test_a_hand_written_model_reads_back_field_for_field():
    data = toy_model(
        [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("▁", -0.5, NORMAL), ("[X]", 0.0, USER_DEFINED)],
        remove_extra_whitespaces=True,
    )
    model = parse_model(data)
    assert [(p.piece, p.score, p.type) for p in model.pieces] == [
        ("<unk>", 0.0, PieceType.UNKNOWN),
        ("<s>", 0.0, PieceType.CONTROL),
        ("▁", -0.5, PieceType.NORMAL),
        ("[X]", 0.0, PieceType.USER_DEFINED),
    ]
    assert model.trainer.model_type == ModelType.BPE and model.trainer.vocab_size == 4
    assert model.trainer.pad_id == -1, "a negative int32 is ten bytes of two's complement"
    assert model.normalizer.name == "identity" and model.normalizer.remove_extra_whitespaces
    # fields the toy leaves out take the schema's defaults
    assert model.trainer.unk_surface == " \u2047 " and model.trainer.bos_id == 1
    assert model.normalizer.escape_whitespaces and model.denormalizer is None


@pytest.mark.parametrize("name", list(SENTENCEPIECE_SOURCES))
def test_mistral_models_read_as_sentencepiece_reads_them(name):
    path = require_sentencepiece(name)
    model, theirs = read_model_file(path), spm.SentencePieceProcessor(model_file=str(path))
    assert len(model.pieces) == theirs.get_piece_size()
    assert [p.piece for p in model.pieces] == [theirs.id_to_piece(i) for i in range(theirs.get_piece_size())]
    assert [p.score for p in model.pieces] == [theirs.get_score(i) for i in range(theirs.get_piece_size())]
    checks = {
        PieceType.UNKNOWN: theirs.is_unknown,
        PieceType.CONTROL: theirs.is_control,
        PieceType.UNUSED: theirs.is_unused,
        PieceType.BYTE: theirs.is_byte,
    }
    for kind, is_kind in checks.items():
        assert [i for i, p in enumerate(model.pieces) if p.type == kind] == [
            i for i in range(theirs.get_piece_size()) if is_kind(i)
        ]
    assert (model.trainer.unk_id, model.trainer.bos_id, model.trainer.eos_id, model.trainer.pad_id) == (
        theirs.unk_id(),
        theirs.bos_id(),
        theirs.eos_id(),
        theirs.pad_id(),
    )
    assert model.trainer.model_type == ModelType.BPE and model.trainer.byte_fallback
    assert model.trainer.vocab_size == theirs.get_piece_size()


def test_mistral_names_the_identity_normalizer_and_keeps_extra_spaces():
    for name in SENTENCEPIECE_SOURCES:
        spec = read_model_file(require_sentencepiece(name)).normalizer
        assert (spec.name, spec.precompiled_charsmap, spec.add_dummy_prefix, spec.remove_extra_whitespaces) == (
            "identity",
            b"",
            True,
            False,
        )


def test_v3_adds_user_defined_and_control_pieces():
    model = read_model_file(require_sentencepiece("mistral_v3"))
    user = [p.piece for p in model.pieces if p.type == PieceType.USER_DEFINED]
    assert sorted(user) == sorted(f"[REFERENCE_DOC_{i}]" for i in range(20))
    assert model.pieces[3].piece == "[INST]" and model.pieces[3].type == PieceType.CONTROL


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "no pieces"),
        (b"\x0a\x80", "ends inside a number"),
        (b"\x0a\x05ab", "runs past the end"),
        (b"\x0b", "wire type 3"),
        (b"\x0a\x03\x0a\x01\xff", "not allow"),  # a piece whose text is not UTF-8
    ],
)
def test_a_file_that_is_no_model_is_refused_with_the_reason(data, words):
    with pytest.raises(ModelFileError, match=words):
        parse_model(data)


def test_a_missing_file_says_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="no SentencePiece model at"):
        read_model_file(tmp_path / "none.model")


def test_a_tiktoken_file_is_not_taken_for_a_model(tmp_path):
    path = tmp_path / "vocab.tiktoken"
    path.write_bytes(b"IQ== 0\nIg== 1\n")
    with pytest.raises(ModelFileError, match="vocab.tiktoken"):
        read_model_file(path)
