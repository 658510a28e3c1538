"""SentencePiece's BPE rules on cases small enough to check by hand, each also held against ``sentencepiece``."""

import pytest

from bpelab.sentencepiece import SPACE, SentencePieceBPE, decode_byte_run, load_sentencepiece
from bpelab.sentencepiece_model import ModelFileError, parse_model
from bpelab.vocab_files import TokenizerDataError, require_sentencepiece
from tests.sentencepiece_toys import CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED, reference, toy_model, with_bytes

BASE = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("▁", -5.0, NORMAL), ("a", -6.0, NORMAL), ("b", -7.0, NORMAL)]


def both(pieces, **options):
    """Our model and sentencepiece's, from the same hand-written bytes."""
    data = toy_model(pieces, **options)
    return SentencePieceBPE(parse_model(data)), reference(data)


def pieces_of(model: SentencePieceBPE, text: str) -> list[str]:
    return [model.pieces[i] for i in model.encode(text)]


def test_equal_scores_go_to_the_leftmost_pair_whatever_the_ids():
    # "ba" has the lower id: a rule by id (or by merge rank) would join b+a first.
    ours, theirs = both([*BASE, ("ba", -1.0, NORMAL), ("ab", -1.0, NORMAL)])
    assert pieces_of(ours, "aba") == ["▁", "ab", "a"]
    assert ours.encode("aba") == theirs.encode("aba")


def test_the_higher_score_wins_wherever_it_is():
    ours, theirs = both([*BASE, ("ba", -1.0, NORMAL), ("ab", -2.0, NORMAL)])
    assert pieces_of(ours, "aba") == ["▁", "a", "ba"]
    assert ours.encode("aba") == theirs.encode("aba")


def test_the_dummy_prefix_and_spaces_become_the_space_symbol():
    ours, theirs = both([*BASE, ("▁a", -1.0, NORMAL), ("▁▁", -2.0, NORMAL)])
    assert ours.normalize("a  a ") == f"{SPACE}a{SPACE}{SPACE}a{SPACE}"
    assert pieces_of(ours, "a  a ") == ["▁a", "▁", "▁a", "▁"]  # the leftmost ▁▁ loses to the better ▁a
    assert ours.encode("a  a ") == theirs.encode("a  a ")


def test_remove_extra_whitespaces_strips_and_collapses_as_the_spec_says():
    ours, theirs = both([*BASE, ("▁a", -1.0, NORMAL)], remove_extra_whitespaces=True)
    assert ours.normalize("   a   b  ") == f"{SPACE}a{SPACE}b"
    assert ours.normalize("    ") == ""
    for text in ["   a   b  ", "    ", "a\t a"]:
        assert ours.encode(text) == theirs.encode(text)
        assert ours.decode(ours.encode(text)) == theirs.decode(theirs.encode(text))


def test_without_the_dummy_prefix_the_first_word_has_no_space():
    ours, theirs = both([*BASE, ("▁a", -1.0, NORMAL)], add_dummy_prefix=False)
    assert pieces_of(ours, "a a") == ["a", "▁a"]
    assert ours.encode("a a") == theirs.encode("a a")


def test_an_unused_piece_still_joins_then_splits_back():
    pieces = [*BASE, ("ab", -1.0, UNUSED), ("abb", -2.0, NORMAL)]
    ours, theirs = both(pieces)
    assert pieces_of(ours, "abb") == ["▁", "abb"], "a+b (unused) then ab+b"
    assert pieces_of(ours, "ab") == ["▁", "a", "b"], "the unused ab is given back as a, b"
    for text in ["abb", "ab", "ab abb abab"]:
        assert ours.encode(text) == theirs.encode(text)


def test_a_user_defined_symbol_is_never_split_nor_joined():
    pieces = [*BASE, ("<x>", 0.0, USER_DEFINED), ("<x>b", -0.5, NORMAL), ("a<", -1.0, NORMAL), ("ba", -1.5, NORMAL)]
    ours, theirs = both(pieces)
    # "<x>b" scores best but "<x>" is frozen; "a<" cannot take the "<" of "<x>", only the free one at the end
    assert pieces_of(ours, "ba<x>ba<") == ["▁", "ba", "<x>", "b", "a<"]
    assert ours.encode("ba<x>ba<") == theirs.encode("ba<x>ba<")


def test_without_byte_fallback_a_run_of_unknown_characters_is_one_unk():
    ours, theirs = both(BASE)
    assert pieces_of(ours, "aççb") == ["▁", "a", "<unk>", "b"]
    assert ours.encode("aççb") == theirs.encode("aççb")
    assert ours.decode(ours.encode("aççb")) == "a \u2047 b" == theirs.decode(theirs.encode("aççb"))


def test_with_byte_fallback_an_unknown_character_becomes_its_utf8_bytes():
    ours, theirs = both(with_bytes(BASE), byte_fallback=True)
    expected = ["▁", "a", *(f"<0x{b:02X}>" for b in "ç€".encode()), "b"]
    assert pieces_of(ours, "aç€b") == expected
    assert ours.encode("aç€b") == theirs.encode("aç€b")
    assert ours.decode(ours.encode("aç€b")) == "aç€b"


def test_mistral_byte_fallback_on_characters_it_lacks():
    model = load_sentencepiece("mistral_v1")
    for char in "ꙮ⍼𓀀":
        assert char not in model.piece_to_id
        assert pieces_of(model, char) == ["▁", *(f"<0x{b:02X}>" for b in char.encode())]


def test_mistral_whitespace_pieces_and_a_sentence():
    model = load_sentencepiece("mistral_v1")
    assert pieces_of(model, " ") == ["▁▁"], "the dummy prefix and the space"
    assert pieces_of(model, "Hello world") == ["▁Hello", "▁world"]
    assert model.decode(model.encode("  two leading")) == "  two leading", "only the dummy prefix's ▁ is dropped"
    assert pieces_of(model, " a") == ["▁", "▁a"]
    assert model.decode(model.encode(" a")) == " a", "the first piece gave its ▁; the second keeps its own"


def test_invalid_bytes_decode_one_replacement_character_each():
    assert decode_byte_run(b"\xe2\x82") == "\ufffd\ufffd"  # Python's errors="replace" gives one
    assert b"\xe2\x82".decode("utf-8", errors="replace") == "\ufffd"
    assert decode_byte_run(b"\xed\xa0\x80A") == "\ufffd\ufffd\ufffdA"  # an encoded surrogate is no character
    assert decode_byte_run(b"\xc0\xafz\xef\xbf\xbd") == "\ufffd\ufffdz\ufffd"  # overlong; a real U+FFFD


@pytest.mark.parametrize("name", ["mistral_v1", "mistral_v3"])
def test_decoding_byte_pieces_as_sentencepiece_does(name):
    import sentencepiece as spm

    model = load_sentencepiece(name)
    theirs = spm.SentencePieceProcessor(model_file=str(require_sentencepiece(name)))
    b = model.byte_ids
    cases = [
        [b[0xE2], b[0x82]],
        [b[0xE2], b[0x82], b[0xAC]],
        [b[0xFF], model.piece_to_id["▁a"], b[0xC3]],
        [model.piece_to_id["<s>"], model.piece_to_id["▁▁"], model.piece_to_id["▁a"]],
        [b[0x20], model.piece_to_id["▁a"]],
        [model.unk_id, model.unk_id, model.piece_to_id["▁a"]],
    ]
    for ids in cases:
        assert model.decode(ids) == theirs.decode(ids), ids


def test_bad_input_is_refused_with_the_reason():
    model = load_sentencepiece("mistral_v1")
    with pytest.raises(ValueError, match="lone surrogate"):
        model.encode("a\ud800b")
    with pytest.raises(TypeError, match="str"):
        model.encode(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="32000 is not an id"):
        model.decode([1, 32000])
    with pytest.raises(ValueError, match="unknown SentencePiece model"):
        load_sentencepiece("mistral_v9")


def test_a_missing_model_names_the_command_that_fixes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path))
    with pytest.raises(TokenizerDataError, match="make data"):
        load_sentencepiece("mistral_v1")
    (tmp_path / "tokenizers").mkdir()
    (tmp_path / "tokenizers" / "mistral_v1.model").write_bytes(b"damaged")
    with pytest.raises(TokenizerDataError, match="corrupted"):
        load_sentencepiece("mistral_v1")


def test_models_it_cannot_reproduce_are_refused():
    with pytest.raises(ModelFileError, match="UNIGRAM"):
        SentencePieceBPE(parse_model(toy_model(BASE, model_type=1)))
    with pytest.raises(ModelFileError, match="exactly one unknown"):
        SentencePieceBPE(parse_model(toy_model(BASE[1:])))
    with pytest.raises(ModelFileError, match="lacks some of the 256"):
        SentencePieceBPE(parse_model(toy_model(BASE, byte_fallback=True)))
    with pytest.raises(ModelFileError, match="character map's trie size does not fit"):
        SentencePieceBPE(parse_model(toy_model(BASE, normalizer=("nmt_nfkc", b"\xff\x00\x00\x00rules"))))


def test_a_piece_that_ends_in_a_space_joins_across_words():
    """Mistral has no such piece, so the cut in front of each word is safe there; here it must not be made."""
    ours, theirs = both([*BASE, ("a▁", -1.0, NORMAL)])
    assert pieces_of(ours, "a a") == ["▁", "a▁", "a"]
    assert ours.encode("a a") == theirs.encode("a a")
