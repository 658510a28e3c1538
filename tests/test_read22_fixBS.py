"""Read 22 of lesson 16 (fixBS): cell 2 says what 0.2.3's README still says of the four points, cell 24 prints the
first pieces and their count rather than every piece, and tests/test_sentencepiece_versions.py says which of 0.2.2's
files hold 0.2.3's code."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import nbformat
import pandas as pd

from bpelab.analysis.sentencepiece_replay import MAX_CHARACTERS, replay_sentencepiece
from bpelab.sentencepiece import load_sentencepiece
from tests.lesson16_solutions import LESSON


def cell(cell_id: str) -> str:
    return next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id).source


def flat(text: str) -> str:
    return " ".join(text.split())


# ---- finding 1: 0.2.3's README still covers whitespace and raw sentences; only NFKC is gone -------------------------


def test_cell_2_says_what_the_0_2_3_readme_still_says():
    text = flat(cell("a16e0002"))
    assert "has no such sections" not in text, text[:2000]
    assert "Why SentencePiece?" in text
    assert "Reversible & Lossless Tokenization (Whitespace as a Basic Symbol)" in text and "line 72" in text
    assert "escapes whitespaces with a meta-symbol" in text and "line 75" in text
    assert "trains tokenization and detokenization models directly from raw sentences" in text and "line 82" in text
    assert "NFKC" in text.split("0.2.3's README", 1)[1], "the sentence must say that NFKC is what 0.2.3's README lost"


# ---- finding 2: cell 24 prints every piece of a replay on one line ---------------------------------------------------


def test_cell_24_does_not_print_every_piece_of_a_long_text(monkeypatch):
    mistral = load_sentencepiece("mistral_v1")
    text = ("The robot sat on the mat, and the cat sat on the robot. " * 40)[:MAX_CHARACTERS]
    replay = replay_sentencepiece(mistral, text, name="Mistral 7B")
    assert len(replay.pieces) > 300
    shown: list = []
    out = io.StringIO()
    with redirect_stdout(out):
        exec(cell("a16e0012"), {"replay": replay, "mistral": mistral, "pd": pd, "display": shown.append})
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) < 400, max(lines, key=len)[:400]
    said = out.getvalue()
    assert f"{len(replay.pieces):,}" in said, said
    assert repr(replay.pieces[0]) in said
    assert shown and len(shown[0]) == 12


# ---- finding 3: 0.2.2's bpe_model_trainer.cc is not 0.2.3's code --------------------------------------------------


def test_versions_docstring_says_only_the_comparator_is_0_2_3s():
    source = flat((Path(__file__).parent / "test_sentencepiece_versions.py").read_text(encoding="utf-8"))
    assert "bpe_model_trainer.cc and bpe_model.cc hold 0.2.3's code" not in source
    assert "SymbolPairComparator" in source.split("QUEUE_TRAINER = ", 1)[1].split("def train", 1)[0]
    assert "0.2.2 gives 0.2.3's list" in flat(cell("a16e0021"))
