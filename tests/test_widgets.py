"""The course widgets, driven in-process: ``Button.click()`` runs the handlers without a browser."""

from __future__ import annotations

import re

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import BPETokenizer, decode_words, load_encoding, train_bpe
from bpelab.widgets import EncodeExplorer, chips_html, group_at_graphemes, make_chips, show_whitespace
from bpelab.widgets.chips import PALETTE

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2


def chip_backgrounds(markup: str) -> list[str]:
    return re.findall(r'class="bpe-chip[^"]*" style="background:(#[0-9A-Fa-f]{6});', markup)


def first_integer(markup: str) -> int:
    text = re.sub(r"<[^>]+>", "", markup)
    return int(re.search(r"\d+", text).group())


# ---- chips ---------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=4), max_size=30))
def test_neighbouring_chips_never_share_a_colour(pieces):
    colours = chip_backgrounds(chips_html(pieces))
    assert len(colours) == len(make_chips(pieces))
    assert all(a != b for a, b in zip(colours, colours[1:]))
    assert set(colours) <= set(PALETTE)


def test_a_split_emoji_is_one_chip_spanning_its_tokens():
    enc = tiktoken.get_encoding("cl100k_base")
    ids = enc.encode("a 🦜 b")
    pieces = enc.decode_tokens_bytes(ids)
    assert any(len(p.decode("utf-8", "replace")) != len(p.decode("utf-8", "ignore")) for p in pieces), (
        "the emoji is split"
    )
    chips = make_chips(pieces)
    assert "".join(c.text for c in chips) == "a 🦜 b"  # no chip cuts the parrot
    parrot = next(c for c in chips if "🦜" in c.text)
    assert len(parrot.tokens) >= 2 and "�" not in parrot.text
    markup = chips_html(pieces, ids, show_ids=True)
    assert len(re.findall(r'class="bpe-chip[ "]', markup)) == len(chips) < len(ids)
    # by hand: the four bytes of U+1F642 cut in two, a skin-tone modifier, a stray byte
    assert group_at_graphemes([b"\xf0\x9f", b"\x99\x82"]) == [(0, 1)]
    assert group_at_graphemes([b"a", "👍".encode(), "🏽".encode()]) == [(0,), (1, 2)]
    assert group_at_graphemes([b"\xff", b"a"]) == [(0,), (1,)]


def test_chips_escape_html_and_show_whitespace():
    markup = chips_html(["<b>", " x", "\t", "\n", '"'], ids=[1, 2, 3, 4, 5], show_ids=True)
    assert "<b>" not in markup.replace('<span class="bpe-chip-id">', "")
    assert "&lt;b&gt;" in markup and "⋅x" in markup and "→" in markup and "↵" in markup
    assert show_whitespace("a b\t\n") == "a⋅b→↵"
    with pytest.raises(ValueError, match="ids"):
        chips_html(["a", "b"], ids=[1])


# ---- the encode explorer --------------------------------------------------------------------------

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Emoji: 🙂👍🏽 and a family 👨‍👩‍👧!",
    "機器学習は楽しい。東京で会いましょう。",
    "  two spaces,\ttabs\nand lines",
]


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base", "llama3"])
def test_the_count_is_the_number_of_tiktoken_tokens(name):
    explorer = EncodeExplorer(production=[name])
    enc = tiktoken.get_encoding(name) if name != "llama3" else load_encoding("llama3")
    for text in SENTENCES:
        explorer.text = text
        expected = len(enc.encode(text))
        assert explorer.token_count == expected
        assert explorer.encodings[explorer.tokenizer_name]["count"] == expected  # what the page's count shows
        assert explorer.chip_count <= expected


def test_the_dropdown_switches_tokenizer_and_the_text_updates_the_chips():
    explorer = EncodeExplorer(text="hello world")
    before = explorer.encodings
    explorer.text = "hello world, again"  # what typing does
    assert explorer.encodings != before and " again" in [chip.text for chip in explorer.chips]
    explorer.tokenizer_name = "GPT-4o (o200k_base)"
    assert explorer.ids == tiktoken.get_encoding("o200k_base").encode("hello world, again")
    with pytest.raises(ValueError, match="choose one of"):
        explorer.tokenizer_name = "GPT-5"


def test_the_explorer_takes_the_learners_tokenizers():
    words = train_bpe(TOY, 10)
    tok = BPETokenizer().train("the cat sat on the mat the cat ate the rat", 262)
    explorer = EncodeExplorer({"words": words, "bytes": tok}, production=())
    explorer.text = "lowest unknown"
    assert "".join(map(str, explorer.pieces)).replace("</w>", " ").split() == ["lowest", "unknown"]
    assert "?" in explorer.ids  # 'u', 'k' were never seen in training
    explorer.tokenizer_name = "bytes"
    explorer.text = "the rat"
    assert explorer.ids == tok.encode("the rat")
    with pytest.raises(TypeError, match="encode and decode"):
        EncodeExplorer({"bad": 42})


def test_a_word_level_tokenizer_can_split_punctuation_off_as_in_training():
    words = train_bpe("low , lower . newest , widest .", 5)
    plain = EncodeExplorer({"words": words}, production=(), text="low, lower.")
    split = EncodeExplorer({"words": words}, production=(), text="low, lower.", word_split=r"\w+|[^\w\s]+")
    assert decode_words(plain.pieces) == "low, lower."  # two words: punctuation stays attached
    assert decode_words(split.pieces) == "low , lower ."  # four words, as in training
    with pytest.raises(ValueError, match="regex"):
        EncodeExplorer(word_split="(")


def test_explorer_text_fallback_is_stable():
    one, two = (
        EncodeExplorer(text="hi there", production=["cl100k_base"]),
        EncodeExplorer(text="hi there", production=["cl100k_base"]),
    )
    text, again = (w._repr_mimebundle_()[0]["text/plain"] for w in (one, two))  # (data, metadata), as anywidget's
    assert text == again
    n = len(tiktoken.get_encoding("cl100k_base").encode("hi there"))
    assert (
        text.splitlines()[0]
        == f"EncodeExplorer (GPT-4 (cl100k_base)): {n} tokens, 8 bytes, {8 / n:.2f} bytes per token"
    )
    assert text.splitlines()[1].replace(" | ", "") == "hi⋅there"


def test_a_count_of_one_is_said_in_the_singular():
    from bpelab.widgets.explorer import EncodeExplorer

    one = EncodeExplorer(text="a", production=["cl100k_base"]).render_text()
    assert one.startswith("EncodeExplorer (") and ": 1 token, 1 byte" in one, one
    two = EncodeExplorer(text="ab c", production=["cl100k_base"]).render_text()
    assert ": 2 tokens, 4 bytes" in two, two
