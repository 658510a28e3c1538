"""The encode explorer (bpelab/widgets/explorer.py), driven in-process: chips and notes for every kind
of tokenizer, the words-or-pieces count, and what Python sends the page (every tokenizer's encoding
of a short text, and what the page needs to encode without Python). Token counts come from
tiktoken; word counts by hand. The drawing itself is JavaScript: tests/test_js_explorer.py."""

from __future__ import annotations

import pytest
import tiktoken
from ipywidgets.embed import embed_data

from bpelab import BPETokenizer, train_bpe
from bpelab.production import load_encoding
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


# ---- issue 9 item 12: chips and their note, for every kind of tokenizer ------------------------


@pytest.mark.parametrize("word_split", [None, WORDS])
def test_a_word_level_end_of_word_is_never_glued_to_the_next_word(toy, word_split):
    explorer = EncodeExplorer({"words": toy}, production=(), text=EMOJI_TEXT, word_split=word_split)
    texts = [chip.text for chip in explorer.chips]
    # every chip that holds </w> holds it at its end: nothing of the next word is glued on
    assert all(not text.count(END_OF_WORD) or text.endswith(END_OF_WORD) for text in texts)
    assert THUMBS in texts  # two code points, two tokens, one chip
    if word_split is None:
        assert FAMILY in texts  # one word: five code points in one chip
    else:
        assert ZWJ in texts  # regex's \w holds the joiner: a word, and a chip, of its own


def test_the_word_level_note_says_code_points_are_kept_apart_not_cut(toy):
    explorer = EncodeExplorer({"words": toy}, production=(), text=EMOJI_TEXT)
    assert "fewer chips than tokens" in explorer.note
    assert "code points they keep apart" in explorer.note and "cut" not in explorer.note


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base"])
def test_the_byte_level_note_says_bytes_are_cut(name):
    explorer = EncodeExplorer(production=[name], text=EMOJI_TEXT)
    assert explorer.token_count == len(tiktoken.get_encoding(name).encode(EMOJI_TEXT))
    assert "UTF-8 bytes they cut" in explorer.note
    assert {" " + FAMILY, " " + THUMBS} <= {c.text for c in explorer.chips}


def test_a_learners_byte_level_tokenizer_cuts_emoji_bytes_too(byte_level):
    explorer = EncodeExplorer({"bytes": byte_level}, production=(), text=EMOJI_TEXT)
    assert explorer.ids == byte_level.encode(EMOJI_TEXT)
    assert "UTF-8 bytes they cut" in explorer.note


def test_no_note_when_every_token_is_its_own_chip():
    explorer = EncodeExplorer(production=["cl100k_base"], text="plain words only")
    assert explorer.note == ""


# ---- issue 9 item 11: words, or pieces (words and punctuation) --------------------------------


def test_a_split_that_cuts_punctuation_off_counts_pieces_and_says_so(toy):
    text = "low, lower. newest!"  # by hand: low , lower . newest ! = 6 pieces; 3 words on whitespace
    split = EncodeExplorer({"words": toy}, production=(), text=text, word_split=WORDS)
    assert split.word_count == 6
    assert split.tokenizers[0]["wordUnit"] == "pieces (words and punctuation)"
    assert (
        split.render_text()
        .splitlines()[0]
        .startswith(
            f"EncodeExplorer (words): {split.token_count} tokens for 6 pieces (words and punctuation), 19 bytes"
        )
    )
    spaces = EncodeExplorer({"words": toy}, production=(), text=text)
    assert spaces.word_count == 3
    assert spaces.tokenizers[0]["wordUnit"] == "words"


def test_production_tokenizers_count_no_words():
    explorer = EncodeExplorer(production=["o200k_base"], text="two words")
    assert explorer.word_count is None
    assert " for " not in explorer.render_text().splitlines()[0]


def test_the_text_fallback_of_a_word_level_tokenizer(toy):
    explorer = EncodeExplorer({"toy": toy}, production=(), text="lowest low")
    # by hand from the toy merges: lowest = low + est</w>, low = low</w>
    assert toy.merges[:3] and explorer.pieces == ["low", "est</w>", "low</w>"]
    assert explorer.render_text() == (
        "EncodeExplorer (toy): 3 tokens for 2 words, 10 bytes, 3.33 bytes per token\nlow | est</w> | low</w>"
    )


# ---- issue 14: Python computes, the page draws (and encodes by itself without a kernel) ---------


def test_every_tokenizer_is_encoded_for_a_short_text_and_stored_with_the_widget():
    text = "Café crème at 9 am? 👍🏽"
    names = ["r50k_base", "cl100k_base", "o200k_base", "llama3"]
    explorer = EncodeExplorer(production=names, text=text)
    assert explorer.selected == 0
    for label, name in zip(explorer.labels, names, strict=True):  # encoded without ever being chosen
        sent = explorer.encodings[label]
        expected = load_encoding(name).encode_ordinary(text)
        assert sent["text"] == text and sent["ids"] == expected and sent["count"] == len(expected)
        assert b"".join(bytes(piece) for piece in sent["pieces"]) == text.encode()
    # what a static page stores: one model holding the encodings and the module that draws them
    state = embed_data(views=[explorer])["manager_state"]["state"]
    model = state[explorer.model_id]["state"]
    assert model["encodings"]["GPT-4 (cl100k_base)"]["ids"] == tiktoken.get_encoding("cl100k_base").encode(text)


def test_the_page_is_told_which_tokenizers_it_can_run_without_python(toy, byte_level):
    explorer = EncodeExplorer({"words": toy, "bytes": byte_level}, word_split=WORDS)
    kinds = {t["label"]: (t["kind"], t.get("browser")) for t in explorer.tokenizers}
    assert kinds == {
        "words": ("word", None),
        "bytes": ("other", None),
        "GPT-2 (r50k_base)": ("tiktoken", True),
        "GPT-4 (cl100k_base)": ("tiktoken", True),
        "GPT-4o (o200k_base)": ("tiktoken", True),
        "Llama 3": ("tiktoken", True),  # its ranks script is written by make html from the course data
        "Mistral 7B (SentencePiece)": ("sentencepiece", True),  # static/sentencepiece.js and its pieces script
    }
    words = explorer.tokenizers[0]
    assert words["merges"][0] == [*toy.merges[0][0], toy.merges[0][1]]
    assert words["vocabulary"] == list(toy.vocabulary)
    possessive = EncodeExplorer({"words": toy}, production=(), word_split="gpt2")
    assert possessive.tokenizers[0]["kind"] == "word-python"  # GPT-2's pattern is possessive: not in JavaScript


def test_choosing_a_tokenizer_in_python_tells_the_page():
    explorer = EncodeExplorer(production=["r50k_base", "cl100k_base"], text="hello")
    explorer.tokenizer_name = "GPT-4 (cl100k_base)"
    assert explorer.selected == 1
    assert explorer.ids == tiktoken.get_encoding("cl100k_base").encode("hello")
    with pytest.raises(ValueError, match="choose one of"):
        explorer.tokenizer_name = "GPT-5"


def test_a_long_text_is_encoded_for_the_chosen_tokenizer_only_until_another_is_chosen():
    text = "word " * (PRECOMPUTE_CHARS // 5 + 1)
    explorer = EncodeExplorer(production=["r50k_base", "cl100k_base"], text=text)
    other = explorer.labels[1]
    assert set(explorer.encodings) == {explorer.labels[0]}
    explorer.tokenizer_name = other
    assert explorer.encodings[other]["count"] == len(tiktoken.get_encoding("cl100k_base").encode(text))


def test_typing_in_the_page_reaches_python_and_its_encoding_comes_back():
    explorer = EncodeExplorer(production=["o200k_base"], text="hi")
    explorer.set_state({"text": "hello again"})  # what the front end's model.save_changes() does
    assert explorer.encodings["GPT-4o (o200k_base)"]["ids"] == tiktoken.get_encoding("o200k_base").encode("hello again")


@pytest.mark.parametrize("lesson", ["05_encoding_and_decoding.ipynb", "10_tokens_in_practice.ipynb"])
def test_the_lessons_saved_explorer_module_is_todays(lesson):
    """A static page draws the explorer with the module the notebook saved: after a change to
    explorer.js, chips.js, bpe.js or production.js, re-run the lesson (make lessons ONLY="05 10")."""
    import nbformat

    from bpelab.course.html_export import NOTEBOOKS_DIR, WIDGET_STATE

    nb = nbformat.read(NOTEBOOKS_DIR / lesson, as_version=4)
    saved = [
        entry["state"]["_esm"]
        for entry in nb.metadata["widgets"][WIDGET_STATE]["state"].values()
        if entry["model_name"] == "AnyModel"
        and entry["state"].get("_anywidget_id") == "bpelab.widgets.explorer.EncodeExplorer"  # not the chat view's
    ]
    assert saved, f"{lesson} saved no explorer"
    today = EncodeExplorer(production=["cl100k_base"], text="hi")._esm
    assert all(module == today for module in saved), (
        f'{lesson} holds an older explorer module: make lessons ONLY="05 10"'
    )


# ---- review of lessons 05/07: a word-level tokenizer on long text, and a lone surrogate ----------------


def test_a_word_level_encoder_encodes_each_distinct_word_once_and_gives_encode_words_output(monkeypatch):
    """The explorer re-encodes the whole text on every keystroke; a word is encoded the same way wherever it
    stands, so each distinct word is replayed once and kept. The output must be exactly encode_word's."""
    from bpelab import read_corpus, split_text
    from bpelab.widgets import encoders

    trained = train_bpe(" ".join(split_text(read_corpus("english_train")[:20_000], WORDS)), 200)
    text = read_corpus("english_heldout")[:20_000]
    words = split_text(text, WORDS)
    calls = []
    real = encoders.encode_word
    monkeypatch.setattr(encoders, "encode_word", lambda word, merges: calls.append(word) or real(word, merges))
    encode = encoders.encoder_for(trained, WORDS)
    ids, symbols = encode(text)
    assert symbols == [s for w in words for s in real(w, trained.merges)]
    vocab = {}
    for i, s in enumerate(trained.vocabulary):
        vocab.setdefault(s, i)
    assert ids == [vocab.get(s, "?") for s in symbols]
    assert sorted(calls) == sorted(set(words))  # each distinct word once
    encode(text + " again")  # the next keystroke: only the new word is replayed
    assert calls[len(set(words)) :] == ["again"] or "again" in set(words)


@pytest.mark.parametrize("text", ["a\ud800b here", "low \udfff lower", "a\udc80b here"])
def test_a_lone_surrogate_is_drawn_as_the_replacement_character_by_a_word_level_tokenizer(toy, text):
    """A lone surrogate is no character: tiktoken encodes it as U+FFFD, and the word-level rows draw it so."""
    explorer = EncodeExplorer({"toy": toy}, text=text)
    shown = explorer.render_text()
    assert "\ufffd" in shown and "\ud800" not in shown
    explorer.tokenizer_name = "GPT-4 (cl100k_base)"
    assert "\ufffd" in explorer.render_text()
