"""Cut positions and the spans tokenizers cut differently (``bpelab.cuts``), and its JavaScript twin.

Hand-checkable rows first; then the promise on the hardest text the course generates (many scripts,
digits, ZWJ sequences, combining marks, emoji) under the real tokenizers: every byte boundary cut
by some row but not all lies inside exactly one differing span, none cut by every row does, and the
spans end at common cuts. ``static/cuts.js`` must give the same spans and the same covering of a
word-level tokenizer's text, on the same rows.

A stretch's count is the tokens of a row that overlap it: held on generated text in thirteen kinds of
writing (``MANY_SCRIPTS``) against a count made here from tiktoken's own token byte offsets.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import train_bpe
from bpelab.cuts import (
    compared_lengths,
    covering_lengths,
    cut_positions,
    differing_spans,
    token_ranges,
    tokens_overlapping,
)
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


# Thirteen kinds of writing, each as units a word is made of (letters, signs, whole emoji sequences),
# plus real words and interface strings, where conjuncts and vowel signs are cut at different bytes.
SCRIPT_UNITS: dict[str, list[str]] = {
    "Latin with accents": [*"aeinorstuzAEÉàáâãçèéêëíîïñóôõöúüýÿœßŁłőŠšșẞ"],
    "Cyrillic": [*"абвгдежзийклмнопрстуфхцчшщъыьэюяЁёЖЩІЇЄҐ"],
    "Greek": [*"αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΩϊΐ"],
    "Arabic": [*"ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأؤإئةى", *"\u064b\u064e\u064f\u0650\u0651\u0652"],
    "Hebrew": [*"אבגדהוזחטיכךלמםנןסעפףצץקרשת", *"\u05b0\u05b4\u05b7\u05b8\u05bc"],
    "Devanagari": [*"कखगघचछजटडणतथदधनपबभमयरलवशषसह", *"ािीुूृेैोौ", "\u094d", *"ंःँ", "\u093c"],
    "Tamil": [*"கஙசஞடணதநபமயரலவழளறன", *"ாிீுூெேைொோௌ", "\u0bcd", *"அஆஇஈஉஎஏஐஒ"],
    "Thai": [*"กขคงจฉชซญดตถทนบปผพฟภมยรลวศสหอฮ", *"ะัาำิีึืุู", *"เแโใไ", *"่้๊๋็์"],
    "CJK": [*"東京日本語中文字学生的是不了人我在有他这为大来以个上们", *"あいうえおかきくけこアイウエオカタナ"],
    "Hangul": [*"한국어안녕하세요가나다라마바사아자차카타파", "\u1100\u1161\u11a8"],
    "emoji with ZWJ": ["👩\u200d💻", "👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "👍🏽", "🇫🇷", "🙂", "❤\ufe0f", "\u200d"],
    "combining marks": [*"\u0300\u0301\u0302\u0303\u0308\u0323\u0331\u20dd"],
    "digits": [*"0123456789", *"٠١٢٣٤٥٦٧٨٩", *"०१२३४५६७८९", *"๐๑๒๓"],
}
REAL_WORDS = [
    *["naïve", "Ελληνικά", "Привет", "مرحبا", "שלום", "東京", "한국어", "ภาษาไทย", "2024", "👩\u200d👩\u200d👧"],
    *["नमस्ते", "फ़ाइल", "खोलें", "सहेजें", "रद्द", "करें", "सेटिंग्स", "खोजें"],
    *["வணக்கம்", "கோப்பைத்", "திற", "சேமி", "ரத்து", "செய்", "அமைப்புகள்", "தேடு"],
]
SEPARATORS = [" ", " ", "  ", "\n", ", ", " — ", "… ", " | ", "\t", ""]
MANY_SCRIPTS = st.lists(
    st.tuples(
        st.one_of(
            st.sampled_from(REAL_WORDS),
            st.sampled_from(list(SCRIPT_UNITS.values())).flatmap(
                lambda units: st.lists(st.sampled_from(units), min_size=1, max_size=8).map("".join)
            ),
        ),
        st.sampled_from(SEPARATORS),
    ),
    max_size=14,
).map(lambda parts: "".join(word + separator for word, separator in parts))
"""Generated text in thirteen kinds of writing, words of one script at a time, mixed in one text."""


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
    answered = zip(covering, answers["covered"], answers["compared"], answers["ranges"], strict=True)
    for case, covered, compared, ranges in answered:
        pieces = [bytes(p) if isinstance(p, list) else p for p in case["pieces"]]
        assert [tuple(c) for c in covered] == covering_lengths(case["text"], pieces, case["wordEnd"])
        assert compared == compared_lengths(covering_lengths(case["text"], pieces, case["wordEnd"]))
        assert [tuple(r) for r in ranges] == token_ranges(case["text"], pieces, case["wordEnd"])


def test_the_generator_writes_every_script_it_names() -> None:
    scripts = {
        "Latin with accents": r"\p{Latin}",
        "Cyrillic": r"\p{Cyrillic}",
        "Greek": r"\p{Greek}",
        "Arabic": r"\p{Arabic}",
        "Hebrew": r"\p{Hebrew}",
        "Devanagari": r"\p{Devanagari}",
        "Tamil": r"\p{Tamil}",
        "Thai": r"\p{Thai}",
        "CJK": r"[\p{Han}\p{Hiragana}\p{Katakana}]",
        "Hangul": r"\p{Hangul}",
        "emoji with ZWJ": r"\p{Extended_Pictographic}|\u200d|\p{Regional_Indicator}|\p{Emoji_Modifier}|\ufe0f",
        "combining marks": r"\p{Mn}|\p{Me}",
        "digits": r"\p{Nd}",
    }
    assert scripts.keys() == SCRIPT_UNITS.keys()
    for name, units in SCRIPT_UNITS.items():
        for unit in units:  # every code point of a unit is of its script (or a mark or joiner it uses)
            assert all(regex.match(scripts[name] + r"|\p{M}|\u200d|\ufe0f", c) for c in unit), (name, unit)


def test_the_tokens_of_a_stretch_are_those_sharing_a_byte_with_it() -> None:
    # "20 x" as a word-level row: "2" "0" "</w>" "x</w>"; the bare "</w>" ends "20", at byte 2
    ranges = token_ranges("20 x", ["2", "0", "</w>", "x</w>"], END_OF_WORD)
    assert ranges == [(0, 1), (1, 2), (2, 2), (3, 4)]
    assert tokens_overlapping(ranges, 0, 2) == [0, 1, 2]
    assert tokens_overlapping(ranges, 2, 4) == [3]  # the space is no token; the bare </w> ended the word before
    assert tokens_overlapping(ranges, 1, 2) == [1, 2]
    # a token that crosses an edge counts in both stretches it touches (differing_spans never makes one)
    assert tokens_overlapping([(0, 4), (4, 6)], 0, 2) == [0]
    assert tokens_overlapping([(0, 4), (4, 6)], 2, 5) == [0, 1]
    assert tokens_overlapping([(0, 4), (4, 6)], 4, 6) == [1]  # touching at byte 4 shares no byte
    # "ते" (6 bytes, one character as you see it) cut 2|1|2|1 and 3|3: cuts 0, 3 and 6 are common, so two
    # stretches inside one character; the first row has 2 tokens in each, not its 4 in both
    te = "\u0924\u0947".encode()
    first = [te[:2], te[2:3], te[3:5], te[5:]]
    assert differing_spans([[len(p) for p in first], [3, 3]]) == [(0, 3), (3, 6)]
    assert [tokens_overlapping(token_ranges("ते", first), a, b) for a, b in [(0, 3), (3, 6)]] == [[0, 1], [2, 3]]
    with pytest.raises(ValueError, match="start < end"):
        tokens_overlapping(ranges, 2, 2)


def tiktoken_byte_offsets(name: str, text: str) -> list[tuple[int, int]]:
    """Each token's bytes in the text, from tiktoken alone: its ids, each id's bytes, added up."""
    encoding = load_encoding(name)
    offsets, at = [], 0
    for token in encoding.encode_ordinary(text):
        size = len(encoding.decode_single_token_bytes(token))
        offsets.append((at, at + size))
        at += size
    assert at == len(text.encode("utf-8"))
    return offsets


@settings(max_examples=80, deadline=None)
@given(MANY_SCRIPTS)
def test_each_stretch_counts_the_tokens_of_each_row_overlapping_it(text: str) -> None:
    """Four real tokenizers on text in thirteen kinds of writing: bpelab's tokens of a stretch are those
    whose tiktoken byte offsets share a byte with it, and no token is counted in two stretches."""
    rows = rows_of(text)
    spans = differing_spans(rows)
    for name in PRODUCTION:
        encoding = load_encoding(name)
        offsets = tiktoken_byte_offsets(name, text)
        ranges = token_ranges(text, encoding.decode_tokens_bytes(encoding.encode_ordinary(text)))
        counted: Counter[int] = Counter()
        for start, end in spans:
            want = [k for k, (a, b) in enumerate(offsets) if a < end and start < b]
            assert tokens_overlapping(ranges, start, end) == want, (name, start, end)
            assert all(start <= offsets[k][0] and offsets[k][1] <= end for k in want)  # none crosses an edge
            counted.update(want)
        assert set(counted.values()) <= {1}
