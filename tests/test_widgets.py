"""The course widgets, driven in-process: ``Button.click()`` runs the handlers without a browser."""

from __future__ import annotations

import html
import re

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import BPETokenizer, decode_words, get_word_frequencies, load_encoding, train_bpe
from bpelab.analysis.replay import merge_sites, replay_word
from bpelab.course.corpora import read_corpus
from bpelab.widgets import EncodeExplorer, MergeStepper, chips_html, group_at_graphemes, make_chips, show_whitespace
from bpelab.widgets.chips import PALETTE

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2


@pytest.fixture(scope="module")
def toy_result():
    return train_bpe(TOY, 10)


@pytest.fixture(scope="module")
def long_text() -> str:
    """Whole paragraphs of the course's English text, at least 2,000 words."""
    paragraphs, words = [], 0
    for paragraph in read_corpus("english_train").split("\n\n"):
        paragraphs.append(paragraph)
        words += len(paragraph.split())
        if words >= 2000:
            break
    assert words >= 2000, "the English corpus should hold 2,000 words"
    return "\n\n".join(paragraphs)


def chip_backgrounds(markup: str) -> list[str]:
    return re.findall(r'class="bpe-chip[^"]*" style="background:(#[0-9A-Fa-f]{6});', markup)


def first_integer(markup: str) -> int:
    text = re.sub(r"<[^>]+>", "", markup)
    return int(re.search(r"\d+", text).group())


# ---- the merge stepper ---------------------------------------------------------------------------


def test_after_n_clicks_of_next_the_stepper_shows_step_n_and_highlights_the_pair_of_merge_n(toy_result):
    steps = toy_result.steps
    for n in range(len(steps) + 1):
        stepper = MergeStepper(toy_result)
        for _ in range(n):
            stepper.next_button.click()
        assert stepper.step == n
        assert stepper.step_label.value == f"Step {n} of {len(steps)}"
        if n == 0:
            assert stepper.highlighted_pair is None
        else:
            # the issue's wording: after n clicks, highlight result.steps[n-1]'s pair
            a, b = steps[n - 1].pair
            assert stepper.highlighted_pair == (a, b)
            assert f"{a!r} + {b!r}" in html.unescape(stepper.pair_view.value)
            merged = re.findall(
                r'class="bpe-chip[^"]*bpe-chip-merged[^"]*"[^>]*><span>([^<]*)</span>', stepper.words_view.value
            )
            assert merged and all(html.unescape(m) == a + b for m in merged)
        assert stepper.upcoming_pair == (steps[n].pair if n < len(steps) else None)
        assert stepper.word_freq == (steps[n - 1].word_freq if n else toy_result.initial_word_freq)


def test_the_first_merge_of_the_toy_corpus_is_l_o_counted_by_hand(toy_result):
    # l+o occurs in "low" (x5) and "lower" (x2): 7 times, tied with o+w; the first seen wins
    stepper = MergeStepper(toy_result)
    assert stepper.render_text() == "MergeStepper: 10 merges; step 0 of 10; next merge: 'l' + 'o' (count 7)"
    stepper.next()
    assert stepper.word_freq[("lo", "w", "</w>")] == 5


def test_back_first_last_and_slider_move_to_the_right_step(toy_result):
    stepper = MergeStepper(toy_result)
    total = len(toy_result.steps)
    assert stepper.first_button.disabled and stepper.back_button.disabled
    stepper.slider.value = 5
    assert stepper.step == 5 and stepper.highlighted_pair == toy_result.steps[4].pair
    stepper.back_button.click()
    assert stepper.step == 4 and stepper.slider.value == 4
    stepper.last_button.click()
    assert stepper.step == total and stepper.upcoming_pair is None
    assert stepper.next_button.disabled and stepper.last_button.disabled
    stepper.next_button.click()  # already at the end: stays there
    assert stepper.step == total
    stepper.first_button.click()
    assert stepper.step == 0 and stepper.slider.value == 0
    stepper.back()
    assert stepper.step == 0
    stepper.step = 3
    assert stepper.slider.value == 3 and stepper.step_label.value == f"Step 3 of {total}"
    with pytest.raises(ValueError, match="between 0 and 10"):
        stepper.step = total + 1


def test_the_play_timer_moves_the_stepper(toy_result):
    stepper = MergeStepper(toy_result)
    stepper.play_button.value = True
    assert stepper.play_button.description == "Pause" and stepper._timer.playing
    stepper._timer.value = 2  # what the browser-side timer does on each tick
    assert stepper.step == 2
    stepper._timer.playing = False  # the timer reached its end
    assert not stepper.play_button.value and stepper.play_button.description == "Play"


def test_every_control_has_its_own_css_class(toy_result):
    stepper = MergeStepper(toy_result)
    controls = {
        "bpe-first": stepper.first_button,
        "bpe-back": stepper.back_button,
        "bpe-next": stepper.next_button,
        "bpe-last": stepper.last_button,
        "bpe-play": stepper.play_button,
        "bpe-slider": stepper.slider,
        "bpe-step-label": stepper.step_label,
        "bpe-pair": stepper.pair_view,
    }
    for css, control in controls.items():
        assert css in control._dom_classes
    labels = [stepper.first_button, stepper.back_button, stepper.next_button, stepper.last_button, stepper.play_button]
    assert all(re.search("[A-Za-z]", b.description) for b in labels)  # text, not icons only


def test_text_fallback_is_stable_and_has_no_ids_or_addresses(toy_result):
    one, two = MergeStepper(toy_result), MergeStepper(toy_result)
    bundle = one._repr_mimebundle_()
    assert bundle["text/plain"] == two._repr_mimebundle_()["text/plain"] == one.render_text() == repr(one)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "0x" not in bundle["text/plain"] and "model" not in bundle["text/plain"]
    one.step = 3
    s = toy_result.steps[2]
    assert f"merged at step 3: {s.pair[0]!r} + {s.pair[1]!r} -> {s.new_symbol!r} (count {s.count})" in one.render_text()
    one.last()
    assert one.render_text().endswith("no merges left")


def test_tie_rule_decides_the_first_row_of_the_pair_table():
    result = train_bpe(TOY, 6, tie_break="lexicographic")
    stepper = MergeStepper(result)
    for step in result.steps:
        rows = re.findall(r"<tr style='[^']*'>(.*?)</tr>", html.unescape(stepper.pairs_view.value))
        a, b = step.pair
        assert f"{a!r} + {b!r}" in rows[0] and "★" in rows[0]  # the winner is the first row
        assert all("★" not in row for row in rows[1:])
        stepper.next()
        assert stepper.highlighted_pair == step.pair


def test_a_two_thousand_word_text_shows_the_top_words_in_a_scrolling_box(long_text):
    result = train_bpe(long_text, 30)
    distinct = len(get_word_frequencies(long_text))
    stepper = MergeStepper(result, top_words=40)
    assert f"showing 40 of {distinct} distinct words" in stepper.words_note.value
    assert stepper.words_view.value.count("<tr>") == 40
    assert stepper.words_view.layout.overflow == "auto"
    stepper.slider.value = 17
    stepper.last()
    assert stepper.step == 30 and stepper.step_label.value == "Step 30 of 30"
    total_tokens = sum(len(w) * c for w, c in result.word_freq.items())
    assert f"<b>{total_tokens}</b> tokens" in stepper.stats_view.value


def test_a_stepper_needs_a_training_result():
    with pytest.raises(TypeError, match="for_word"):
        MergeStepper(BPETokenizer())
    with pytest.raises(ValueError, match="top_words"):
        MergeStepper(train_bpe(TOY, 2), top_words=0)
    with pytest.raises(ValueError, match="no recorded steps"):
        MergeStepper(train_bpe(TOY, 2, method="fast"))


def test_zero_merges_is_a_stepper_with_one_state():
    stepper = MergeStepper(train_bpe(TOY, 0))
    assert stepper.render_text().startswith("MergeStepper: 0 merges; step 0 of 0")
    stepper.next_button.click()
    assert stepper.step == 0


# ---- replaying one word ---------------------------------------------------------------------------


def test_merge_sites_follow_the_left_to_right_non_overlapping_rule():
    assert merge_sites(("a", "b", "b"), ("ab", "b")) == [(0, 0)]
    assert merge_sites(("a", "a", "a"), ("aa", "a")) == [(0, 0)]
    assert merge_sites(("a", "b", "a", "b"), ("ab", "ab")) == [(0, 0), (2, 1)]
    with pytest.raises(ValueError):
        merge_sites(("a", "b"), ("a", "b", "c"))


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_replaying_a_word_ends_in_tiktokens_ids(name):
    text = " tokenization 👍🏽"
    replay = replay_word(name, text)
    assert replay.replayed == tiktoken.get_encoding(name).encode(text)
    for step in replay.steps:  # every state spells the same bytes
        spelled = b"".join(replay.token_bytes[i] for word in step.word_freq for i in word)
        assert spelled == b"".join(replay.token_bytes[i] for word in replay.initial_word_freq for i in word)
    stepper = MergeStepper.for_word(name, text)
    stepper.last()
    assert stepper.render_text().endswith("no merges left") and stepper.num_steps == len(replay.steps)


def test_replaying_a_word_with_a_trained_tokenizer():
    tok = BPETokenizer().train("the cat sat on the mat the cat ate the rat", 262)
    replay = replay_word(tok, "the cat")
    assert replay.replayed == tok.encode("the cat") and replay.agrees
    # each step merges the learned pair of lowest id first
    ranks = [step.count for step in replay.steps]
    assert all(step.count == min(step.pair_counts.values()) for step in replay.steps) and ranks


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
        assert first_integer(explorer.count_view.value) == expected
        assert len(re.findall(r'class="bpe-chip[ "]', explorer.chips_view.value)) == explorer.chip_count <= expected


def test_the_dropdown_switches_tokenizer_and_the_text_updates_the_chips():
    explorer = EncodeExplorer(text="hello world")
    assert "bpe-tokenizer-select" in explorer.select._dom_classes
    assert "bpe-explorer-input" in explorer.input._dom_classes
    assert "bpe-token-count" in explorer.count_view._dom_classes
    before = explorer.chips_view.value
    explorer.input.value = "hello world, again"  # what typing does
    assert explorer.chips_view.value != before and "again" in explorer.chips_view.value
    assert "⋅world" in explorer.chips_view.value  # the space is drawn
    explorer.tokenizer_name = "GPT-4o (o200k_base)"
    assert explorer.ids == tiktoken.get_encoding("o200k_base").encode("hello world, again")
    with pytest.raises(ValueError, match="choose one of"):
        explorer.tokenizer_name = "GPT-5"


def test_the_explorer_takes_the_learners_tokenizers():
    words = train_bpe(TOY, 10)
    tok = BPETokenizer().train("the cat sat on the mat the cat ate the rat", 262)
    explorer = EncodeExplorer({"words": words, "bytes": tok}, production=())
    explorer.text = "lowest unknown"
    assert "".join(map(str, explorer._pieces)).replace("</w>", " ").split() == ["lowest", "unknown"]
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
    assert decode_words(plain._pieces) == "low, lower."  # two words: punctuation stays attached
    assert decode_words(split._pieces) == "low , lower ."  # four words, as in training
    with pytest.raises(ValueError, match="regex"):
        EncodeExplorer(word_split="(")


def test_explorer_text_fallback_is_stable():
    one, two = (
        EncodeExplorer(text="hi there", production=["cl100k_base"]),
        EncodeExplorer(text="hi there", production=["cl100k_base"]),
    )
    text = one._repr_mimebundle_()["text/plain"]
    assert text == two._repr_mimebundle_()["text/plain"]
    n = len(tiktoken.get_encoding("cl100k_base").encode("hi there"))
    assert (
        text.splitlines()[0]
        == f"EncodeExplorer (GPT-4 (cl100k_base)): {n} tokens, 8 bytes, {8 / n:.2f} bytes per token"
    )
    assert text.splitlines()[1].replace(" | ", "") == "hi⋅there"
