"""Models whose normalizer rewrites text (SentencePiece's default, nmt_nfkc) and whose denormalizer rewrites
decoded text: our character-map reader applies the rules exactly as ``sentencepiece`` does.

The models are trained here by ``sentencepiece`` itself on the course's English (a second each).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.corpora import read_corpus
from bpelab.sentencepiece import SentencePieceBPE


def train(folder: Path, **options: object) -> Path:
    (folder / "input.txt").write_text(read_corpus("english_train")[:60_000], encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / "input.txt"),
        model_prefix=str(folder / "m"),
        model_type="bpe",
        vocab_size=600,
        num_threads=1,
        minloglevel=2,
        **options,
    )
    return folder / "m.model"


@pytest.fixture(scope="module")
def nfkc(tmp_path_factory) -> tuple[SentencePieceBPE, spm.SentencePieceProcessor]:
    path = train(tmp_path_factory.mktemp("nfkc"), byte_fallback=True)  # the default normalizer: nmt_nfkc
    return SentencePieceBPE.from_model_file(path), spm.SentencePieceProcessor(model_file=str(path))


def test_the_default_normalizer_is_nmt_nfkc_with_a_character_map(nfkc):
    ours, _ = nfkc
    assert ours.normalizer.name == "nmt_nfkc" and ours.charsmap is not None


@pytest.mark.parametrize("char", ["ﬁ", "Ａ", "①", "Å", "ｶ", "½", "㍿", "ℌ"])
def test_compatibility_characters_become_their_nfkc_form(nfkc, char):
    ours, _ = nfkc
    assert ours.normalize(char) == "▁" + unicodedata.normalize("NFKC", char)


def test_identical_ids_on_every_code_point(nfkc):
    ours, theirs = nfkc
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    chunks = ["".join(map(chr, points[i : i + 1024])) for i in range(0, len(points), 1024)]
    expected = theirs.encode(chunks)
    assert [ours.encode(chunk) for chunk in chunks] == expected
    assert [ours.decode(ids) for ids in expected] == theirs.decode(expected)


TEXT = st.lists(
    st.one_of(
        st.text(st.sampled_from(" \t\n\u3000\u00a0\u200b"), min_size=1, max_size=4),
        st.sampled_from(["ﬁne", "ＡＢＣ", "①②", "ｶﾞ", "e\u0301", "Straße", "Hello", "world"]),
        st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=4),
    ),
    max_size=10,
).map("".join)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_identical_ids_on_generated_text(nfkc, text):
    ours, theirs = nfkc
    assert ours.encode(text) == theirs.encode(text)
    assert ours.decode(theirs.encode(text)) == theirs.decode(theirs.encode(text))


def test_a_denormalizer_rewrites_decoded_text_as_sentencepiece_does(tmp_path):
    rules = tmp_path / "denormalize.tsv"
    rules.write_text("41\t42\n61 62\t7A\n", encoding="utf-8")  # "A" -> "B", "ab" -> "z"
    path = train(tmp_path, denormalization_rule_tsv=str(rules))
    ours, theirs = SentencePieceBPE.from_model_file(path), spm.SentencePieceProcessor(model_file=str(path))
    ids = theirs.encode("A cab abba  Ab")
    assert ours.encode("A cab abba  Ab") == ids
    assert ours.decode(ids) == "B cz zba Bb" == theirs.decode(ids)
