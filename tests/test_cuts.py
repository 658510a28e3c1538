"""Cut positions and the spans tokenizers cut differently (``bpelab.cuts``), and its JavaScript twin.

Hand-checkable rows first; then the promise on the hardest text the course generates (many scripts,
digits, ZWJ sequences, combining marks, emoji) under the real tokenizers: every byte boundary cut
by some row but not all lies inside exactly one differing span, none cut by every row does, and the
spans end at common cuts. ``static/cuts.js`` must give the same spans and the same covering of a
word-level tokenizer's text, on the same rows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import train_bpe
from bpelab.cuts import compared_lengths, covering_lengths, cut_positions, differing_spans
from bpelab.production import load_encoding
from bpelab.widgets.encoders import encoder_for
from bpelab.words import END_OF_WORD
from tests.test_js_training import generated_texts

NODE = shutil.which("node")
RUNNER = Path(__file__).parent / "js" / "cuts_with_js.mjs"
PRODUCTION = ("r50k_base", "cl100k_base", "o200k_base", "llama3")
MULTILINGUAL = st.lists(
    st.sampled_from(
        [
            *"abcXYZ019٣५ ",
            "  ",
            "\n",
            "\t",
            "東京",
            "नमस्ते",
            "Привет",
            "שלום",
            "ሰላም",
            "é",
            "e\u0301",
            "👍🏽",
            "👩\u200d👩\u200d👧",
            "🙂",
            "\u200d",
            "\ufe0f",
            "2024",
            "don't",
            "Kubernetes",
        ]
    ),
    max_size=40,
).map("".join)


def test_hand_checked_rows() -> None:
    assert cut_positions([2, 3]) == [0, 2, 5]
    # "the⋅a": [the][⋅a] against [th][e][⋅a]: only "the" is cut differently
    assert differing_spans([[3, 2], [2, 1, 2]]) == [(0, 3)]
    assert differing_spans([[3, 2], [3, 2]]) == []
    assert differing_spans([[1, 1, 2, 2], [2, 2, 1, 1], [2, 2, 2]]) == [(0, 2), (4, 6)]
    assert differing_spans([[5]]) == []
    with pytest.raises(ValueError, match="different lengths"):
        differing_spans([[3], [2]])
    with pytest.raises(ValueError, match="positive whole number"):
        cut_positions([1, 0])


def test_word_level_rows_cover_the_text_with_gaps() -> None:
    assert covering_lengths("low lower", ["low</w>", "low", "er</w>"], END_OF_WORD) == [
        (3, 0),
        (1, None),
        (3, 1),
        (2, 2),
    ]
    assert covering_lengths("é🙂", [b"\xc3\xa9", b"\xf0\x9f", b"\x99\x82"]) == [(2, 0), (2, 1), (2, 2)]
    with pytest.raises(ValueError, match="not in the text"):
        covering_lengths("abc", ["x"])
    # compared, a gap joins the token after it: "low lowest" as the toy cuts it against GPT-2's "low" "⋅lowest"
    toy = compared_lengths(covering_lengths("low lowest", ["low</w>", "low", "est</w>"], END_OF_WORD))
    assert toy == [3, 4, 3]
    assert differing_spans([toy, [3, 7]]) == [(3, 10)]
    assert (
        differing_spans([compared_lengths(covering_lengths("low low", ["low</w>", "low</w>"], END_OF_WORD)), [3, 4]])
        == []
    )
    assert compared_lengths([(2, None), (1, 0), (1, None)]) == [4]  # a gap at the end joins the token before it
    assert compared_lengths([(2, None)]) == [2]


def rows_of(text: str) -> list[list[int]]:
    rows = []
    for name in PRODUCTION:
        encoding = load_encoding(name)
        rows.append([len(piece) for piece in encoding.decode_tokens_bytes(encoding.encode_ordinary(text))])
    return rows


def assert_spans_are_where_cuts_differ(rows: list[list[int]], spans: list[tuple[int, int]]) -> None:
    cut_sets = [set(cut_positions(row)) for row in rows]
    common = set.intersection(*cut_sets)
    total = sum(rows[0])
    assert all(a in common and b in common and a < b for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:], strict=False))
    for p in range(1, total):
        inside = [(a, b) for a, b in spans if a < p < b]
        cut_by_some = any(p in cuts for cuts in cut_sets)
        if cut_by_some and p not in common:
            assert len(inside) == 1, (p, spans)
        if p in common:
            assert not inside, (p, spans)
    for a, b in spans:  # each span holds a disagreement: some row cuts inside it
        assert any(a < p < b for cuts in cut_sets for p in cuts)


@settings(max_examples=60, deadline=None)
@given(MULTILINGUAL)
def test_spans_are_exactly_where_four_real_tokenizers_cut_differently(text: str) -> None:
    rows = rows_of(text)
    assert_spans_are_where_cuts_differ(rows, differing_spans(rows))


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_javascript_twin_gives_the_same_spans_and_coverings() -> None:
    texts = generated_texts(150, seed=23)
    cases = [rows_of(text) for text in texts]
    toy = train_bpe(" ".join(texts[:40]), 60)
    words = encoder_for(toy, r"\w+|[^\w\s]+")
    covering = []
    for text in texts:
        _ids, pieces = words(text)
        covering.append({"text": text, "pieces": pieces, "wordEnd": END_OF_WORD})
        byte_pieces = load_encoding("cl100k_base").decode_tokens_bytes(
            load_encoding("cl100k_base").encode_ordinary(text)
        )
        covering.append({"text": text, "pieces": [list(p) for p in byte_pieces], "wordEnd": None})
    payload = {"cases": cases, "covering": covering}
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps(payload), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers: dict[str, Any] = json.loads(done.stdout)
    assert sum(bool(differing_spans(rows)) for rows in cases) > len(cases) // 2  # the texts do disagree
    for rows, spans in zip(cases, answers["spans"], strict=True):
        assert [tuple(s) for s in spans] == differing_spans(rows)
    for case, covered, compared in zip(covering, answers["covered"], answers["compared"], strict=True):
        pieces = [bytes(p) if isinstance(p, list) else p for p in case["pieces"]]
        assert [tuple(c) for c in covered] == covering_lengths(case["text"], pieces, case["wordEnd"])
        assert compared == compared_lengths(covering_lengths(case["text"], pieces, case["wordEnd"]))
