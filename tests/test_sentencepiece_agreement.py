"""Identical ids: our SentencePiece BPE against the ``sentencepiece`` library on Mistral's v1 and v3 models.

On the course's agreement corpus (about a megabyte), on generated lists of whitespace runs, digits (Latin,
Arabic-Indic, Devanagari), emoji with ZWJ and modifiers, letters with combining marks, tricky words and any
code point, and on every code point from U+0000 to U+10FFFF but the surrogates: ``encode`` gives the same ids, and ``decode`` of them the
same text.
"""

from __future__ import annotations

import functools

import pytest
import sentencepiece as spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.vocab_files import SENTENCEPIECE_SOURCES, require_sentencepiece
from tests.agreement_corpus import TRICKY, agreement_corpus

NAMES = list(SENTENCEPIECE_SOURCES)


def reference(name: str) -> spm.SentencePieceProcessor:
    return spm.SentencePieceProcessor(model_file=str(require_sentencepiece(name)))


def first_difference(ours: list[int], theirs: list[int], model: SentencePieceBPE) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    show = lambda ids: [model.pieces[i] for i in ids[max(0, at - 3) : at + 4]]  # noqa: E731
    return f"first difference at token {at}: ours {show(ours)}, sentencepiece {show(theirs)}"


@functools.cache
def held(name: str) -> SentencePieceBPE:
    """Each model held for the module: load_sentencepiece reads it again once nothing holds it (0.3 s)."""
    return load_sentencepiece(name)


def assert_same(name: str, texts: list[str]) -> None:
    model, theirs = held(name), reference(name)
    expected = theirs.encode(texts)
    for text, want in zip(texts, expected):
        got = model.encode(text)
        assert got == want, f"{text[:60]!r}: {first_difference(got, want, model)}"
    decoded = theirs.decode(expected)
    for ids, want in zip(expected, decoded):
        assert model.decode(ids) == want


@pytest.mark.parametrize("name", NAMES)
def test_identical_ids_on_the_agreement_corpus(name):
    assert_same(name, agreement_corpus() + TRICKY)


def code_points(start: int, stop: int) -> list[int]:
    return [c for c in range(start, stop) if not 0xD800 <= c <= 0xDFFF]


@pytest.mark.parametrize("name", NAMES)
def test_identical_ids_on_every_code_point(name):
    """All 1,112,064 code points, 1,024 consecutive ones a text; then each one below U+20000 after a space.

    Every character of the vocabularies lies below U+20000 (asserted), so the second pass puts each of them at
    the start of a word, where "▁x" may be a piece although "x" after another character joins nothing.
    """
    points = code_points(0, 0x110000)
    assert len(points) == 0x110000 - 2048
    chunks = ["".join(map(chr, points[i : i + 1024])) for i in range(0, len(points), 1024)]
    assert_same(name, chunks)
    assert max(ord(c) for piece in load_sentencepiece(name).mergeable for c in piece) < 0x2_0000
    spaced = [" ".join(map(chr, points[i : i + 1024])) for i in range(0, 0x2_0000 - 2048, 1024)]
    assert_same(name, spaced)


WHITESPACE = st.text(st.sampled_from(" \t\n\r\u00a0\u3000\u2581"), min_size=1, max_size=6)
DIGITS = st.text(st.sampled_from("0123456789٠١٢٣४५"), min_size=1, max_size=8)
EMOJI = st.sampled_from(["👩\u200d👩\u200d👧", "👍🏽", "🇫🇷", "🏳️\u200d🌈", "🤖", "❤️"])
COMBINING = st.builds(
    lambda base, marks: base + marks,
    st.sampled_from("aeoAEиअก"),
    st.text(st.sampled_from("\u0301\u0308\u0327\u093f\u0e31"), max_size=3),
)
WORDS = st.sampled_from(TRICKY + ["Hello", "world", "naïve", "[INST]", "[REFERENCE_DOC_3]", "</s>", "<unk>", "<0x41>"])
ANY_CHARACTER = st.characters(exclude_categories=["Cs"])  # assigned or not, every plane
PIECES = st.one_of(WHITESPACE, DIGITS, EMOJI, COMBINING, WORDS, st.text(ANY_CHARACTER, min_size=1, max_size=5))
GENERATED = st.lists(PIECES, max_size=12).map("".join)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(GENERATED, min_size=1, max_size=8))
def test_identical_ids_on_generated_text(name, texts):
    assert_same(name, texts)


@pytest.mark.parametrize("name", NAMES)
def test_leading_and_trailing_spaces_and_whitespace_runs(name):
    texts = [" " * n + "x" + " " * m for n in range(0, 18) for m in range(0, 18)]
    texts += ["\t" * n + "\n" * m for n in range(0, 5) for m in range(0, 5)]
    assert_same(name, texts)
