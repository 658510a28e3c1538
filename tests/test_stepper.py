"""The merge stepper, driven in-process: ``Button.click()`` runs the handlers without a browser.

Known answers are hand-checkable on the toy corpus "low ×5, lower ×2, newest ×3, widest ×2": its
words have 3, 5, 6 and 6 characters, 55 in all; l+o is the first merge (7 times, in low and
lower). The views a page without a kernel shows are checked against the view drawn live.
"""

from __future__ import annotations

import html
import json
import re

import pytest
import tiktoken
from ipywidgets.widgets.widget_link import DirectionalLink

from bpelab import BPETokenizer, train_bpe
from bpelab.analysis.replay import merge_sites, replay_word
from bpelab.bench.stepper import real_text
from bpelab.course.paths import REPO_ROOT
from bpelab.widgets import MergeStepper
from bpelab.widgets.stepper import STATIC_BYTES, TIE_RULE_NAMES, VERSION_CLASS

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
TOY_CHARACTERS = 5 * 3 + 2 * 5 + 3 * 6 + 2 * 6  # 55, counted by hand


@pytest.fixture(scope="module")
def toy_result():
    return train_bpe(TOY, 10)


@pytest.fixture(scope="module")
def real_result():
    return train_bpe(real_text(), 60)


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def part(markup: str, css: str) -> str:
    """The inner HTML of the first ``<div class='css' ...>``, nested divs included."""
    start = re.search(rf"<div class='{css}'[^>]*>", markup)
    assert start, f"no {css} in the view"
    depth, position = 1, start.end()
    for tag in re.finditer(r"<(/?)div\b[^>]*>", markup[position:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return markup[position : position + tag.start()]
    raise AssertionError(f"{css} is not closed")


def chip_texts(markup: str, kind: str) -> list[str]:
    return [
        html.unescape(m)
        for m in re.findall(rf'class="bpe-chip[^"]*bpe-chip-{kind}[^"]*"[^>]*><span[^>]*>([^<]*)</span>', markup)
    ]


# ---- stepping ------------------------------------------------------------------------------------


def test_after_n_clicks_of_next_the_stepper_shows_step_n_and_highlights_the_pair_of_merge_n(toy_result):
    steps = toy_result.steps
    for n in range(len(steps) + 1):
        stepper = MergeStepper(toy_result)
        for _ in range(n):
            stepper.next_button.click()
        shown = stepper.shown_html
        assert stepper.step == n == stepper.step_box.value == stepper.views.selected_index
        assert plain(part(shown, "bpe-step-label")) == f"Step {n} of {len(steps)}"
        if n == 0:
            assert stepper.highlighted_pair is None and "Nothing merged yet" in plain(shown)
        else:
            (a, b), new = toy_result.merges[n - 1]
            assert stepper.highlighted_pair == (a, b)
            assert f"Merged at step {n}: {a!r} + {b!r} → {new!r}" in plain(part(shown, "bpe-pair"))
            assert set(chip_texts(shown, "merged")) == {new}
        assert stepper.upcoming_pair == (steps[n].pair if n < len(steps) else None)
        assert stepper.word_freq == (steps[n - 1].word_freq if n else toy_result.initial_word_freq)


def test_the_first_merge_of_the_toy_corpus_is_l_o_counted_by_hand(toy_result):
    # l+o: 5 in low + 2 in lower = 7; o+w is also 7, but l+o is met first
    stepper = MergeStepper(toy_result)
    assert stepper.render_text() == "MergeStepper: 10 merges; step 0 of 10; next merge: 'l' + 'o' (count 7)"
    stepper.next()
    assert stepper.word_freq[("lo", "w", "</w>")] == 5


def test_back_first_last_and_the_step_box_move_to_the_right_step(toy_result):
    stepper = MergeStepper(toy_result)
    total = stepper.num_steps
    assert stepper.first_button.disabled and stepper.back_button.disabled
    stepper.step_box.value = 5
    assert stepper.step == 5 and stepper.highlighted_pair == toy_result.steps[4].pair
    stepper.back_button.click()
    assert stepper.step == 4 and stepper.step_box.value == 4
    stepper.last_button.click()
    assert stepper.step == total and stepper.upcoming_pair is None
    assert stepper.next_button.disabled and stepper.last_button.disabled
    stepper.next_button.click()  # already at the end: stays there
    assert stepper.step == total
    stepper.first_button.click()
    assert stepper.step == 0 and stepper.step_box.value == 0
    stepper.back()
    assert stepper.step == 0
    stepper.step = 3
    assert stepper.step_box.value == 3 and "Step 3 of 10" in plain(stepper.shown_html)
    with pytest.raises(ValueError, match="between 0 and 10"):
        stepper.step = total + 1


def test_the_play_timer_moves_the_stepper(toy_result):
    stepper = MergeStepper(toy_result)
    stepper.play_button.value = True
    assert stepper.play_button.description == "Pause" and stepper._timer.playing
    stepper.step_box.value = 2  # what each tick of the browser-side timer does, through its link
    assert stepper.step == 2
    stepper._timer.value = 1  # a timer value echoed back late moves nothing
    assert stepper.step == 2
    stepper._timer.playing = False  # the timer reached its end
    assert not stepper.play_button.value and stepper.play_button.description == "Play"


def test_the_browser_side_links_tie_the_step_box_to_the_views_and_the_timer(toy_result):
    """What makes stepping work without a kernel: links the browser runs by itself."""
    stepper = MergeStepper(toy_result)
    pairs = {(link.source[0], link.source[1], link.target[0], link.target[1]) for link in stepper._links}
    assert (stepper.step_box, "value", stepper.views, "selected_index") in pairs
    assert (stepper.step_box, "value", stepper._timer, "value") in pairs  # a new view starts from the step
    assert (stepper.play_button, "value", stepper._timer, "playing") in pairs
    assert len(stepper.views.children) == stepper.num_steps + 1  # selected_index == step, always valid
    one_way = [link for link in stepper._links if link.target == (stepper.views, "selected_index")]
    assert [type(link) for link in one_way] == [DirectionalLink]  # a view change is never echoed as a step


# ---- the precomputed views equal the live view ---------------------------------------------------


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
def test_every_precomputed_view_equals_the_view_drawn_live(tie_break):
    result = train_bpe(TOY, 10, tie_break=tie_break)
    stored, live = MergeStepper(result), MergeStepper(result, static_steps=0)
    assert stored.static_steps == 10 and live.static_steps == 0 and stored.live_page is None
    for k in [*range(11), 4, 0, 10, 2]:  # forward, then jumps
        stored.step, live.step = k, k
        assert stored.views.children[k] is stored.pages[k]
        if k > 0:  # the live stepper draws every later step into its one shared child
            assert live.views.children[k] is live.live_page
        assert stored.shown_html == live.shown_html, f"step {k}"


def test_precomputed_views_are_bounded_and_say_that_later_steps_need_a_kernel(real_result):
    stepper = MergeStepper(real_result, top_words=40, static_steps=40)
    assert 0 < stepper.static_steps < stepper.num_steps == 60
    assert sum(len(p.value) for p in stepper.pages) <= STATIC_BYTES
    beyond = plain(stepper.live_page.value)
    assert f"Steps {stepper.static_steps + 1} to 60 need a running kernel" in beyond
    assert f"shows steps 0 to {stepper.static_steps}" in plain(stepper.children[0].value)
    assert stepper.views.children[-1] is stepper.live_page
    fresh = MergeStepper(real_result, top_words=40, static_steps=60)
    stepper.step = fresh.step = 50
    assert stepper.shown_html == fresh.shown_html  # with a kernel, every step is drawn
    stepper.step = 1  # back inside the stored steps: the shared child says again what it is
    assert plain(stepper.live_page.value) == beyond
    small = MergeStepper(real_result, top_words=3, static_steps=5)
    assert small.static_steps == 5 and len(small.pages) == 6


# ---- what the view says --------------------------------------------------------------------------


def test_characters_per_token_counts_a_words_own_characters_wherever_the_end_marker_is():
    """Issue 9 item 10: toy step 3 is 55 characters in 48 tokens = 1.15, step 10 is 55 / 22 = 2.50,
    and the value depends only on the tokens, whichever tie rule made them."""
    assert sum(len(word) for word in TOY.split()) == TOY_CHARACTERS
    for tie_break in ("first", "lexicographic"):
        result = train_bpe(TOY, 10, tie_break=tie_break)
        stepper = MergeStepper(result)
        for k in range(11):
            stepper.step = k
            corpus = result.steps[k - 1].word_freq if k else result.initial_word_freq
            tokens = sum(len(word) * n for word, n in corpus.items())
            stats = plain(part(stepper.shown_html, "bpe-stats"))
            assert f"{tokens} tokens" in stats
            assert f"{TOY_CHARACTERS / tokens:.2f} characters per token" in stats
    first = MergeStepper(train_bpe(TOY, 10))
    assert f"{first.characters_per_token(3):.2f}" == "1.15" and f"{first.characters_per_token(10):.2f}" == "2.50"
    assert "counts as none" in plain(first.shown_html)


def test_pieces_are_called_words_and_punctuation_where_punctuation_is_counted(toy_result, real_result):
    """Issue 9 item 11: lesson 04's real text is split with punctuation apart."""
    real = plain(MergeStepper(real_result).shown_html)
    assert "tokens in 2350 pieces (words and punctuation)" in real
    assert "distinct pieces (words and punctuation)" in real
    toy = plain(MergeStepper(toy_result).shown_html)
    assert "tokens in 12 words" in toy and "showing all 4 distinct words" in toy and "punctuation" not in toy


def test_chip_colours_follow_the_symbol_not_the_position(toy_result):
    """Issue 9 item 13: the two e's of newest have one colour; so does every copy of a symbol."""
    stepper = MergeStepper(toy_result)
    for k in range(stepper.num_steps + 1):
        stepper.step = k
        colour_of: dict[str, set[str]] = {}
        for colour, text in re.findall(
            r'class="bpe-chip[^"]*" style="background:(#[0-9A-Fa-f]{6})[^"]*"[^>]*><span[^>]*>([^<]*)</span>',
            stepper.shown_html,
        ):
            colour_of.setdefault(html.unescape(text), set()).add(colour)
        assert colour_of and all(len(colours) == 1 for colours in colour_of.values()), (k, colour_of)
    assert "colours follow the symbol" in plain(stepper.children[-1].value)


def test_tie_rules_have_one_name_each_and_decide_the_first_row_of_the_pair_table():
    result = train_bpe(TOY, 6, tie_break="lexicographic")
    stepper = MergeStepper(result)
    assert TIE_RULE_NAMES == {"first": "first seen", "lexicographic": "smallest pair"}
    for step in result.steps:
        table = part(stepper.shown_html, "bpe-pairs")
        assert "ties: smallest pair" in plain(table)
        rows = re.findall(r"<tr(?: class='bpe-winner')?><td>(.*?)</tr>", html.unescape(table))
        a, b = step.pair
        assert f"{a!r} + {b!r}" in rows[0] and "★" in rows[0]  # the winner is the first row
        assert all("★" not in row for row in rows[1:])
        stepper.next()
        assert stepper.highlighted_pair == step.pair
    assert "ties: first seen" in plain(MergeStepper(train_bpe(TOY, 2)).shown_html)


def test_each_step_is_announced_politely_to_screen_readers(toy_result):
    stepper = MergeStepper(toy_result)
    stepper.step = 3
    announcer = stepper.announcer.value
    assert "role='status'" in announcer and "aria-live='polite'" in announcer
    assert plain(announcer) == "Step 3 of 10: merged low + </w> into low</w>, count 5"
    assert f"data-announce='{html.escape(plain(announcer))}'" in stepper.shown_html  # for pages without a kernel
    stepper.first()
    assert plain(stepper.announcer.value) == "Step 0 of 10: nothing merged yet"


def test_controls_have_names_classes_and_the_scrolling_boxes_take_the_keyboard(toy_result):
    stepper = MergeStepper(toy_result)
    controls = {
        "bpe-first": stepper.first_button,
        "bpe-back": stepper.back_button,
        "bpe-next": stepper.next_button,
        "bpe-last": stepper.last_button,
        "bpe-play": stepper.play_button,
        "bpe-step-box": stepper.step_box,
    }
    for css, control in controls.items():
        assert css in control._dom_classes
        assert re.search("[A-Za-z]{3,}", control.description)  # a name in words, not an icon
        assert control.tooltip
    assert "bpe-stepper" in stepper._dom_classes and VERSION_CLASS in stepper._dom_classes
    shown = stepper.shown_html
    assert re.search(r"class='bpe-words' tabindex='0' role='region' aria-label='words at step 0'", shown)
    assert re.search(r"class='bpe-log' tabindex='0' role='region' aria-label='merge log'", shown)


def test_the_layout_wraps_instead_of_clipping(toy_result):
    css = MergeStepper(toy_result).children[0].value
    assert "flex-wrap: wrap" in css and "min-width: 0" in css
    assert "<td style='white-space:nowrap'>" not in MergeStepper(toy_result).shown_html  # the old clipped cells


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


def test_a_long_text_shows_the_top_words_in_a_scrolling_box(real_result):
    stepper = MergeStepper(real_result, top_words=40)
    distinct = len(real_result.initial_word_freq)
    shown = stepper.shown_html
    assert f"showing 40 of {distinct} distinct pieces" in plain(shown)
    assert part(shown, "bpe-words").count("<tr>") == 40
    assert ".bpe-stepper .bpe-words { max-height: 360px; overflow: auto; }" in stepper.children[0].value
    stepper.step_box.value = 17
    stepper.last()
    assert stepper.step == 60 and "Step 60 of 60" in plain(stepper.shown_html)
    total_tokens = sum(len(w) * c for w, c in real_result.word_freq.items())
    assert f"<b>{total_tokens}</b> tokens" in stepper.shown_html


def test_a_stepper_needs_a_training_result():
    with pytest.raises(TypeError, match="for_word"):
        MergeStepper(BPETokenizer())
    with pytest.raises(ValueError, match="top_words"):
        MergeStepper(train_bpe(TOY, 2), top_words=0)
    with pytest.raises(ValueError, match="static_steps"):
        MergeStepper(train_bpe(TOY, 2), static_steps=-1)
    with pytest.raises(ValueError, match="no recorded steps"):
        MergeStepper(train_bpe(TOY, 2, method="fast"))


def test_zero_merges_is_a_stepper_with_one_state():
    stepper = MergeStepper(train_bpe(TOY, 0))
    assert stepper.render_text().startswith("MergeStepper: 0 merges; step 0 of 0")
    stepper.next_button.click()
    assert stepper.step == 0 and len(stepper.views.children) == 1


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


# ---- the lessons' saved widget state -------------------------------------------------------------


def saved_states() -> list[tuple[str, dict]]:
    found = []
    for path in sorted((REPO_ROOT / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        state = nb.get("metadata", {}).get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
        found += [(path.name, model) for model in state.get("state", {}).values()]
    return found


def test_every_saved_stepper_in_the_lessons_comes_from_the_current_widget_version():
    """A lesson saved by an older stepper shows a stale view in the static site (the "□ First"
    glyphs of issue 11): re-run it with ``python -m bpelab.course.lessons NN``."""
    steppers = [
        (name, model)
        for name, model in saved_states()
        if "bpe-stepper" in model.get("state", {}).get("_dom_classes", [])
    ]
    stale = sorted({name for name, model in steppers if VERSION_CLASS not in model["state"]["_dom_classes"]})
    assert not stale, f"re-run these lessons, their saved merge steppers are older than {VERSION_CLASS}: {stale}"
    assert {name[:2] for name, _model in steppers} >= {"04", "07", "11"}
