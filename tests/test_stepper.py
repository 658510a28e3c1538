"""The merge stepper's Python side: the step it holds and the trace it gives the browser to draw.

Known answers are hand-checkable on the toy corpus "low ×5, lower ×2, newest ×3, widest ×2": its
words have 3, 5, 6 and 6 characters, 55 in all; l+o is the first merge (7 times, in low and
lower). What the browser draws from the trace is checked in tests/browser/test_stepper_in_browser.py.
"""

from __future__ import annotations

import json

import pytest
import tiktoken

from bpelab import BPETokenizer, train_bpe
from bpelab.analysis.replay import merge_sites, replay_word
from bpelab.bench.stepper import real_text
from bpelab.paths import REPO_ROOT
from bpelab.widgets import MergeStepper
from bpelab.widgets.esm import STEPPER_MODULES, bundle
from bpelab.widgets.stepper import TIE_RULE_NAMES, VERSION_CLASS

TOY = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
TOY_CHARACTERS = 5 * 3 + 2 * 5 + 3 * 6 + 2 * 6  # 55, counted by hand


@pytest.fixture(scope="module")
def toy_result():
    return train_bpe(TOY, 10)


@pytest.fixture(scope="module")
def real_result():
    return train_bpe(real_text(), 60)


def symbol_of(stepper: MergeStepper, number: int) -> object:
    """A symbol of the trace, as the trainer named it (word-level: the string itself)."""
    return stepper.trace["symbols"][number]


# ---- stepping ------------------------------------------------------------------------------------


def test_after_n_moves_the_stepper_is_at_step_n_and_highlights_the_pair_of_merge_n(toy_result):
    steps = toy_result.steps
    for n in range(len(steps) + 1):
        stepper = MergeStepper(toy_result)
        for _ in range(n):
            stepper.next()
        assert stepper.step == n == stepper.current_step  # current_step is what the page shows
        if n == 0:
            assert stepper.highlighted_pair is None
        else:
            assert stepper.highlighted_pair == toy_result.merges[n - 1][0]
        assert stepper.upcoming_pair == (steps[n].pair if n < len(steps) else None)
        assert stepper.word_freq == (steps[n - 1].word_freq if n else toy_result.initial_word_freq)


def test_the_first_merge_of_the_toy_corpus_is_l_o_counted_by_hand(toy_result):
    # l+o: 5 in low + 2 in lower = 7; o+w is also 7, but l+o is met first
    stepper = MergeStepper(toy_result)
    assert stepper.render_text() == "MergeStepper: 10 merges; step 0 of 10; next merge: 'l' + 'o' (count 7)"
    a, b, new, count = stepper.trace["merges"][0]
    assert (symbol_of(stepper, a), symbol_of(stepper, b), symbol_of(stepper, new), count) == ("l", "o", "lo", "7")
    stepper.next()
    assert stepper.word_freq[("lo", "w", "</w>")] == 5


def test_back_first_last_and_step_move_to_the_right_step(toy_result):
    stepper = MergeStepper(toy_result)
    total = stepper.num_steps
    stepper.step = 5
    assert stepper.step == 5 and stepper.highlighted_pair == toy_result.steps[4].pair
    stepper.back()
    assert stepper.step == 4
    stepper.last()
    assert stepper.step == total and stepper.upcoming_pair is None
    stepper.next()  # already at the end: stays there
    assert stepper.step == total
    stepper.first()
    assert stepper.step == 0
    stepper.back()
    assert stepper.step == 0
    with pytest.raises(ValueError, match="between 0 and 10"):
        stepper.step = total + 1
    with pytest.raises(TypeError, match="whole number"):
        stepper.step = "3"  # type: ignore[assignment]


def test_a_step_the_page_reports_is_what_python_reads_and_a_stale_one_is_kept_in_range(toy_result):
    """The page sends ``current_step`` when a learner clicks; Python never holds a step the page cannot show."""
    stepper = MergeStepper(toy_result)
    stepper.set_state({"current_step": 7})  # as a message from the browser arrives
    assert stepper.step == 7 and stepper.highlighted_pair == toy_result.steps[6].pair
    stepper.set_state({"current_step": 99})
    assert stepper.step == 10


# ---- the trace the browser draws -----------------------------------------------------------------


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
def test_the_trace_holds_every_step_of_the_run(tie_break):
    """Issue 14 item 1: no precomputed bound; every merge, its count, and each step's pair table."""
    result = train_bpe(real_text(), 200, tie_break=tie_break)
    stepper = MergeStepper(result)
    trace = stepper.trace
    assert len(trace["merges"]) == 200 and len(trace["pairs"]) == len(trace["tokens"]) == 201
    for k, step in enumerate(result.steps):
        a, b, new, count = trace["merges"][k]
        assert (symbol_of(stepper, a), symbol_of(stepper, b)) == step.pair
        assert symbol_of(stepper, new) == step.new_symbol and count == str(step.count)
        table = trace["pairs"][k]
        assert table["total"] == len(step.pair_counts) and table["winner"] == 0  # the winner is the first row
        first = table["rows"][0]
        assert (symbol_of(stepper, first[0]), symbol_of(stepper, first[1])) == step.pair
        tokens = sum(len(word) * n for word, n in step.word_freq.items())
        assert trace["tokens"][k + 1] == tokens
    assert trace["tieBreak"] == tie_break
    assert len(json.dumps(trace)) < 150_000  # lesson 04's 200 real merges, all of them, stay small


def test_characters_per_token_counts_a_words_own_characters_wherever_the_end_marker_is():
    """Issue 9 item 10: toy step 3 is 55 characters in 48 tokens = 1.15, step 10 is 55 / 22 = 2.50,
    and the value depends only on the tokens, whichever tie rule made them."""
    assert sum(len(word) for word in TOY.split()) == TOY_CHARACTERS
    for tie_break in ("first", "lexicographic"):
        stepper = MergeStepper(train_bpe(TOY, 10, tie_break=tie_break))
        assert stepper.trace["characters"] == TOY_CHARACTERS and stepper.trace["hasMarker"]
        assert f"{stepper.characters_per_token(3):.2f}" == "1.15"
        assert f"{stepper.characters_per_token(10):.2f}" == "2.50"
        assert TOY_CHARACTERS / stepper.trace["tokens"][3] == stepper.characters_per_token(3)


def test_pieces_are_called_words_and_punctuation_where_punctuation_is_counted(toy_result, real_result):
    """Issue 9 item 11: lesson 04's real text is split with punctuation apart."""
    real = MergeStepper(real_result).trace
    assert real["unit"] == "pieces (words and punctuation)" and real["wordsTotal"] == 2350
    toy = MergeStepper(toy_result).trace
    assert toy["unit"] == "words" and toy["wordsTotal"] == 12 and toy["distinct"] == 4


def test_symbols_are_numbered_in_the_order_they_appear_so_colours_follow_the_symbol(toy_result):
    """Issue 9 item 13: one number (one colour) per symbol: the starting ones, then each merge's."""
    trace = MergeStepper(toy_result).trace
    assert trace["symbols"][:5] == ["l", "o", "w", "</w>", "e"]
    assert trace["symbols"][-10:] == [new for _pair, new in toy_result.merges]
    assert trace["words"][0] == [0, 1, 2, 3]  # low, the most frequent word


def test_tie_rules_have_one_name_each_and_decide_the_first_row_of_the_pair_table():
    result = train_bpe(TOY, 6, tie_break="lexicographic")
    stepper = MergeStepper(result)
    assert TIE_RULE_NAMES == {"first": "first seen", "lexicographic": "smallest pair"}
    js = (REPO_ROOT / "bpelab" / "widgets" / "static" / "stepper_text.js").read_text(encoding="utf-8")
    assert 'TIE_RULE_NAMES = { first: "first seen", lexicographic: "smallest pair" }' in js  # the same names
    for k, step in enumerate(result.steps):
        rows = stepper.trace["pairs"][k]["rows"]
        assert (symbol_of(stepper, rows[0][0]), symbol_of(stepper, rows[0][1])) == step.pair
        counts = [int(row[2]) for row in rows]
        assert counts == sorted(counts, reverse=True)


def test_each_step_has_a_sentence_for_screen_readers(toy_result):
    stepper = MergeStepper(toy_result)
    assert stepper.announcement(3) == "Step 3 of 10: merged low + </w> into low</w>, count 5"
    assert stepper.announcement(0) == "Step 0 of 10: nothing merged yet"


def test_the_stepper_is_one_anywidget_with_one_es_module(toy_result):
    stepper = MergeStepper(toy_result)
    assert VERSION_CLASS in stepper._dom_classes
    module = stepper._esm
    assert "export default { render: renderStepper }" in module
    assert "\nimport " not in module and not module.startswith("import ")  # the bundle has no imports left
    for name in ("First", "Back", "Next", "Last", "Play"):
        assert f'"{name}"' in module


def test_the_stepper_bundle_holds_each_of_its_modules_once():
    """The stepper is three files (the widget, its view, how it writes symbols); a new stepper_*.js left out
    of STEPPER_MODULES would be missing from every page, and bundle() refuses a file imported unbundled."""
    static = REPO_ROOT / "bpelab" / "widgets" / "static"
    files = {p.name for p in static.glob("stepper*.js") if not p.name.endswith(".test.js")}
    assert files == {"stepper.js", "stepper_view.js", "stepper_text.js"}
    assert files <= set(STEPPER_MODULES) and STEPPER_MODULES[-1] == "stepper.js"  # the widget's default export is last
    module = bundle(*STEPPER_MODULES)
    for name in files:
        assert module.count(f"// ---- {name} ----") == 1
    for defined in ("function renderStepper(", "function drawView(", "function pyRepr(", "const STEPPER_CSS ="):
        assert module.count(defined) == 1


def test_every_view_draws_with_the_one_el_and_is_static_of_view_basics():
    """Element building and "is this a static page?" are written once (view_basics.js), not once per widget."""
    static = REPO_ROOT / "bpelab" / "widgets" / "static"
    for path in sorted(static.glob("*.js")):
        if path.name in ("view_basics.js",) or path.name.endswith(".test.js"):
            continue
        text = path.read_text(encoding="utf-8")
        for helper in ("function el(", "function isStatic(", "bpelabStatic === true"):
            assert helper not in text, f"{path.name} writes its own {helper!r}: import it from view_basics.js"


def test_text_fallback_is_stable_and_has_no_ids_or_addresses(toy_result):
    one, two = MergeStepper(toy_result), MergeStepper(toy_result)

    def data(stepper: MergeStepper) -> dict:
        bundle = stepper._repr_mimebundle_()
        return bundle[0] if isinstance(bundle, tuple) else bundle  # anywidget gives (data, metadata)

    bundle = data(one)
    assert bundle["text/plain"] == data(two)["text/plain"]
    # the summary (also the repr), then what to do where it shows instead of the widget (an untrusted notebook)
    assert bundle["text/plain"] == one.render_text() + "\n(Run this cell to draw the stepper.)"
    assert repr(one) == one.render_text()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "0x" not in bundle["text/plain"] and "model" not in bundle["text/plain"]
    one.step = 3
    s = toy_result.steps[2]
    assert f"merged at step 3: {s.pair[0]!r} + {s.pair[1]!r} -> {s.new_symbol!r} (count {s.count})" in one.render_text()
    one.last()
    assert one.render_text().endswith("no merges left")


def test_a_long_text_shows_the_top_words(real_result):
    stepper = MergeStepper(real_result, top_words=40)
    trace = stepper.trace
    assert len(trace["words"]) == len(trace["counts"]) == 40 and trace["distinct"] == len(real_result.initial_word_freq)
    assert trace["counts"] == sorted(trace["counts"], reverse=True)
    stepper.last()
    assert stepper.step == 60
    assert trace["tokens"][60] == sum(len(w) * c for w, c in real_result.word_freq.items())


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
    stepper.next()
    assert stepper.step == 0 and len(stepper.trace["pairs"]) == 1


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
    """A lesson saved by an older stepper shows a stale view in the static site: re-run it with
    ``python -m bpelab.course.lessons NN``. Old steppers were VBoxes of precomputed HTML views."""
    models = saved_states()
    old = sorted({name for name, model in models if "bpe-stepper" in model.get("state", {}).get("_dom_classes", [])})
    assert not old, f"re-run these lessons, they hold the old (precomputed HTML) merge stepper: {old}"
    steppers = [(name, m) for name, m in models if "trace" in m.get("state", {}) and "current_step" in m["state"]]
    stale = sorted({name for name, m in steppers if VERSION_CLASS not in m["state"].get("_dom_classes", [])})
    assert not stale, f"re-run these lessons, their saved merge steppers are older than {VERSION_CLASS}: {stale}"
    assert {name[:2] for name, _model in steppers} >= {"04", "07", "11"}


def test_the_lessons_saved_stepper_module_is_todays():
    """A static page draws each stepper with the module the notebook saved: after a change to any of
    STEPPER_MODULES, re-run the lessons that show one (make lessons ONLY="04 07 11")."""
    today = MergeStepper(train_bpe("low lower", 1))._esm
    steppers = [(name, m) for name, m in saved_states() if "renderStepper" in m.get("state", {}).get("_esm", "")]
    assert {name[:2] for name, _model in steppers} >= {"04", "07", "11"}
    stale = sorted({name for name, m in steppers if m["state"]["_esm"] != today})
    assert not stale, f'these lessons hold an older stepper module: make lessons ONLY="04 07 11" ({stale})'


def test_for_word_refuses_a_long_text_with_what_to_do_and_takes_its_worst_case_below_the_limit():
    # 10,000 spaces are one piece under GPT-4's pattern: replayed whole they took about 40 s and 490 MB
    with pytest.raises(ValueError, match=r"10,000 bytes, more than 1,000.*text\[:200\].*encode\(text\)"):
        MergeStepper.for_word("cl100k_base", " " * 10_000)
    with pytest.raises(ValueError, match="1,001 bytes"):
        MergeStepper.for_word("cl100k_base", "é" * 500 + "a")  # counted in UTF-8 bytes, not characters
    stepper = MergeStepper.for_word("cl100k_base", " " * 1_000)  # the limit itself, one piece
    stepper.last()
    assert stepper.result.replayed == tiktoken.get_encoding("cl100k_base").encode(" " * 1_000)


# ---- issue 30, item 6: the training form, answered by Python ------------------------------------------


def form_request(stepper: MergeStepper, text: str, merges: object, **settings: object) -> None:
    """What the stepper's form sends when a kernel is there to answer (static/train_form.js)."""
    n = stepper.train_request.get("n", 0) + 1
    stepper.train_request = {"text": text, "merges": merges, "tie_break": "first", **settings, "n": n}


def test_the_form_trains_with_train_bpe_and_shows_the_run_from_step_0():
    stepper = MergeStepper(train_bpe("low lower", 3))
    stepper.step = 2
    form_request(stepper, "nest sent tens net ten", 6.0, tie_break="lexicographic")  # a JavaScript number
    expected = train_bpe("nest sent tens net ten", 6, tie_break="lexicographic")
    assert stepper.result.merges == expected.merges and stepper.step == 0 and stepper.num_steps == 6
    assert stepper.trace["merges"][0][3] == str(expected.steps[0].count)
    assert stepper.message == "Trained in Python (train_bpe) on 5 words: 6 merges. Press Next or →."


def test_the_form_cuts_punctuation_and_stops_where_no_pair_occurs_twice_when_asked():
    stepper = MergeStepper(train_bpe("low lower", 3))
    form_request(stepper, "nest, sent! tens net ten", 8, split_punctuation=True, stop_at_single=True)
    # cut as lesson 04 cuts: "nest , sent ! tens net ten"; the punctuation pieces are words of their own
    assert stepper.result.initial_word_freq[(",", "</w>")] == 1
    assert [step.count for step in stepper.result.steps] == [3, 3, 2, 2]
    assert "Stopped after 4 merges of the 8 asked for: no pair occurs twice any more" in stepper.message
    assert stepper.message.startswith("Trained in Python (train_bpe) on 7 words: 4 merges.")


@pytest.mark.parametrize(
    "text, merges", [("", 5), ("low", 0), ("low", 501), ("low", True), (3, 5), ("low", "5")], ids=str
)
def test_a_request_python_cannot_train_gets_a_message_and_keeps_the_run(text, merges):
    stepper = MergeStepper(train_bpe("low lower", 3))
    before = stepper.result
    form_request(stepper, text, merges)
    assert stepper.result is before
    assert "cannot train" in stepper.message


def test_form_training_cuts_a_run_before_its_first_pair_seen_once():
    """By hand: "aa aa bc" merges a+a and aa+</w> twice each, then b+c once: the stop rule keeps the first two."""
    from bpelab.widgets.form_training import stop_reason, stopped_at_single

    full = train_bpe("aa aa bc", 10)
    cut = stopped_at_single(full)
    assert [s.count for s in cut.steps] == [2, 2] and cut.stopped_early
    assert cut.merges == full.merges[:2] and cut.word_freq == full.steps[1].word_freq
    assert stop_reason(cut, 10).startswith("Stopped after 2 merges of the 10 asked for")
    assert stopped_at_single(train_bpe("aa aa", 10)).merges == train_bpe("aa aa", 10).merges  # no count of 1
    assert stop_reason(train_bpe("ab ab", 10), 10).endswith("every word is a single symbol: nothing is left to merge.")
