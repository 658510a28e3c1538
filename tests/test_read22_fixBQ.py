"""Read 22 of lessons 10 and 13 (fixBQ): three sentences scoped to what the lessons compute, each held by a test."""

from __future__ import annotations

from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSON10 = NOTEBOOKS / "10_tokens_in_practice.ipynb"
LESSON13 = NOTEBOOKS / "13_your_tokenizer_for_real.ipynb"


def _cell(lesson: Path, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(lesson, as_version=4).cells if c.id == cell_id)


def _text(lesson: Path, cell_id: str) -> str:
    return " ".join(_cell(lesson, cell_id).source.split())  # line breaks read as spaces


def _output(lesson: Path, cell_id: str) -> str:
    return "".join(o.get("text", "") for o in _cell(lesson, cell_id).outputs if o.output_type == "stream")


# ---- finding 1: "Special tokens have ids beyond the ordinary vocabulary" is true of the section's encodings only ------


def test_lesson10_special_token_ids_scoped_to_the_sections_encodings() -> None:
    prose = _text(LESSON10, "0d04101c")
    assert "Special tokens have ids beyond the ordinary vocabulary." not in prose
    assert "In the three encodings of this section" in prose, prose[:800]
    assert "other tokenizers put them first" in prose.lower()
    assert "lesson 13" in prose and "lesson 16" in prose


def test_lesson10_next_cell_prints_where_the_special_ids_start() -> None:
    out = _output(LESSON10, "e20b9915")
    for line in (
        "cl100k_base with ChatML's two: learned ids 0 to 100,255, special ids 100,257 to 100,276",
        "llama3: learned ids 0 to 127,999, special ids 128,000 to 128,255",
        "o200k_harmony: learned ids 0 to 199,997, special ids 199,998 to 201,087",
    ):
        assert line in out, out


# ---- finding 2: not every Tamil letter starts with E0 AE (U+0BD0 TAMIL OM is E0 AF 90) -------------------------------


def test_lesson10_tamil_bytes_scoped_to_the_storys_words() -> None:
    prose = _text(LESSON10, "a1bd6862")
    assert "the first two of the three bytes that every Tamil letter starts with" not in prose
    assert "every Tamil letter" not in prose
    assert "every word of the story" in prose, prose
    assert "\u0bd0".encode() == b"\xe0\xaf\x90"  # the letter the old sentence was wrong about


def test_lesson10_counting_cell_collects_the_tamil_words_first_bytes() -> None:
    out = _output(LESSON10, "5a0e1c37")
    assert (
        "Tamil: the first two bytes of each of the 446 words of the story that start with a letter: {b'\\xe0\\xae'}"
        in out
    ), out


# ---- finding 3: with the last tenth kept aside, not every sentence of the plot is trained on -------------------------


def test_lesson13_trained_on_sentences_true_for_both_recipes() -> None:
    prose = _text(LESSON13, "cbbc6424")
    assert "every sentence of the plot in its language (the cell above counts them), so your" not in prose
    assert "last tenth" in prose, prose
    out = _output(LESSON13, "7d20b022")
    assert "576 of 576" in out
    assert "with its last tenth kept aside" in out and "31 to 32 of the 36 sentences of each language" in out, out
