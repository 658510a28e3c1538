"""The encode explorer (bpelab/widgets/explorer.py), driven in-process: chips and notes for every kind
of tokenizer, the words-or-pieces count, the views a static page switches without a kernel, and
the markup assistive technology reads. Token counts come from tiktoken; word counts by hand."""

from __future__ import annotations

import html
import re

import pytest
import tiktoken
from ipywidgets.embed import embed_data

from bpelab import BPETokenizer, train_bpe
from bpelab.widgets import EncodeExplorer
from bpelab.widgets.explorer import PRECOMPUTE_CHARS
from bpelab.words import END_OF_WORD

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
WORDS = r"\w+|[^\w\s]+"  # lesson 05's split: words, and punctuation apart
ZWJ = "\u200d"
FAMILY = f"👩{ZWJ}👩{ZWJ}👧"
THUMBS = "👍🏽"
EMOJI_TEXT = f"low {FAMILY} {THUMBS} lower"


@pytest.fixture(scope="module")
def toy():
    return train_bpe(TOY, 10)


@pytest.fixture(scope="module")
def byte_level():
    return BPETokenizer().train("the cat sat on the mat the cat ate the rat", 262)


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def chip_ids(markup: str) -> list[str]:
    return re.findall(r'class="bpe-chip-id"[^>]*>([^<]*)<', markup)


# ---- issue 9 item 12: chips and their note, for every kind of tokenizer ------------------------


def chip_texts(markup: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<span class="bpe-chip[^"]*"[^>]*><span[^>]*>([^<]*)</span>', markup)]


@pytest.mark.parametrize("word_split", [None, WORDS])
def test_a_word_level_end_of_word_is_never_glued_to_the_next_word(toy, word_split):
    explorer = EncodeExplorer({"words": toy}, production=(), text=EMOJI_TEXT, word_split=word_split)
    markup = explorer.chips_view.value
    # every chip that shows </w> shows it at its end: nothing of the next word is glued on
    assert all(not text.count(END_OF_WORD) or text.endswith(END_OF_WORD) for text in chip_texts(markup))
    # and its ids: never an end-of-word id beside the joiner's '?' ("3 ?")
    end_id = str(toy.vocabulary.index(END_OF_WORD))
    assert not any(len(ids.split()) > 1 and end_id in ids.split() for ids in chip_ids(markup))
    assert THUMBS in chip_texts(markup)  # two code points, two tokens, one chip
    if word_split is None:
        assert FAMILY in chip_texts(markup)  # one word: five code points in one chip
    else:
        assert "U+200D" in chip_texts(markup)  # regex's \w holds the joiner: a word, and a chip, of its own


def test_the_word_level_note_says_code_points_are_kept_apart_not_cut(toy):
    explorer = EncodeExplorer({"words": toy}, production=(), text=EMOJI_TEXT)
    note = plain(explorer.count_view.value)
    assert "fewer chips than tokens" in note
    assert "code points they keep apart" in note and "cut" not in note


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base"])
def test_the_byte_level_note_says_bytes_are_cut(name):
    explorer = EncodeExplorer(production=[name], text=EMOJI_TEXT)
    assert explorer.token_count == len(tiktoken.get_encoding(name).encode(EMOJI_TEXT))
    note = plain(explorer.count_view.value)
    assert "UTF-8 bytes they cut" in note
    assert {" " + FAMILY, " " + THUMBS} <= {
        c.text for c in explorer._make_chips(explorer.tokenizer_name, explorer._pieces)
    }


def test_a_learners_byte_level_tokenizer_cuts_emoji_bytes_too(byte_level):
    explorer = EncodeExplorer({"bytes": byte_level}, production=(), text=EMOJI_TEXT)
    assert explorer.ids == byte_level.encode(EMOJI_TEXT)
    assert "UTF-8 bytes they cut" in plain(explorer.count_view.value)


def test_no_note_when_every_token_is_its_own_chip():
    explorer = EncodeExplorer(production=["cl100k_base"], text="plain words only")
    assert "fewer chips" not in plain(explorer.count_view.value)


# ---- issue 9 item 11: words, or pieces (words and punctuation) --------------------------------


def test_a_split_that_cuts_punctuation_off_counts_pieces_and_says_so(toy):
    text = "low, lower. newest!"  # by hand: low , lower . newest ! = 6 pieces; 3 words on whitespace
    split = EncodeExplorer({"words": toy}, production=(), text=text, word_split=WORDS)
    assert split.word_count == 6
    assert "6 pieces (words and punctuation)" in plain(split.count_view.value)
    assert (
        split.render_text()
        .splitlines()[0]
        .startswith(
            f"EncodeExplorer (words): {split.token_count} tokens for 6 pieces (words and punctuation), 19 bytes"
        )
    )
    spaces = EncodeExplorer({"words": toy}, production=(), text=text)
    assert spaces.word_count == 3
    assert "3 words" in plain(spaces.count_view.value) and "pieces" not in plain(spaces.count_view.value)


def test_production_tokenizers_count_no_words():
    explorer = EncodeExplorer(production=["o200k_base"], text="two words")
    assert explorer.word_count is None
    assert "words" not in plain(explorer.count_view.value)


def test_the_text_fallback_of_a_word_level_tokenizer(toy):
    explorer = EncodeExplorer({"toy": toy}, production=(), text="lowest low")
    # by hand from the toy merges: lowest = low + est</w>, low = low</w>
    assert toy.merges[:3] and explorer._pieces == ["low", "est</w>", "low</w>"]
    assert explorer.render_text() == (
        "EncodeExplorer (toy): 3 tokens for 2 words, 10 bytes, 3.33 bytes per token\nlow | est</w> | low</w>"
    )


# ---- issue 11 item 1: switching tokenizers without a kernel -------------------------------------


def test_every_tokenizer_is_drawn_for_the_stored_text_and_the_menu_is_linked_in_the_browser():
    text = "Café crème at 9 am? 👍🏽"
    names = ["r50k_base", "cl100k_base", "o200k_base"]
    explorer = EncodeExplorer(production=names, text=text)
    assert len(explorer.views.children) == 3 and explorer.views.selected_index == 0
    link = explorer._link
    assert (link.source, link.target) == ((explorer.select, "index"), (explorer.views, "selected_index"))
    for label, name in zip(explorer._labels, names):  # drawn without ever being chosen
        expected = len(tiktoken.get_encoding(name).encode(text))
        assert re.match(rf"{expected} tokens", plain(explorer._counts[label].value))
    # what a static page stores: the Stack's views and the link, all in the widget state
    state = embed_data(views=[explorer])["manager_state"]["state"]
    assert any(entry["model_name"] == "LinkModel" for entry in state.values())
    stored = " ".join(plain(e["state"].get("value", "")) for e in state.values() if e["model_name"] == "HTMLModel")
    for name in names:
        assert f"{len(tiktoken.get_encoding(name).encode(text))} tokens" in stored
    assert "run the notebook to try your own text" in stored


def test_choosing_a_tokenizer_in_python_moves_the_stack_too():
    explorer = EncodeExplorer(production=["r50k_base", "cl100k_base"], text="hello")
    explorer.tokenizer_name = "GPT-4 (cl100k_base)"
    assert explorer.views.selected_index == explorer.select.index == 1
    assert explorer.ids == tiktoken.get_encoding("cl100k_base").encode("hello")


def test_a_long_text_is_drawn_for_the_chosen_tokenizer_only_until_another_is_chosen():
    text = "word " * (PRECOMPUTE_CHARS // 5 + 1)
    explorer = EncodeExplorer(production=["r50k_base", "cl100k_base"], text=text)
    other = explorer._labels[1]
    assert "Not drawn yet" in plain(explorer._counts[other].value) and explorer._chips[other].value == ""
    explorer.tokenizer_name = other
    assert explorer.token_count == len(tiktoken.get_encoding("cl100k_base").encode(text))
    assert "Not drawn yet" not in plain(explorer.count_view.value)


# ---- issue 11 item 3: names and live regions ------------------------------------------------------


def test_every_control_has_a_name_and_the_count_is_a_live_region():
    explorer = EncodeExplorer(production=["cl100k_base"], text="hi")
    assert explorer.select.description and explorer.input.description
    assert "aria-live='polite'" in explorer.count_view.value
    found = re.search(r"<div class='bpe-chips-box'[^>]*>", explorer.chips_view.value)
    assert found is not None
    box = found.group()
    assert "tabindex='0'" in box and "role='region'" in box and "aria-label='GPT-4 (cl100k_base): " in box
    assert [w for w in explorer.children] == [explorer.select, explorer.input, explorer.views, explorer.children[3]]
