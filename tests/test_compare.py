"""Tokenizers side by side (``bpelab.widgets.CompareView``): rows, counts and the marked stretches.

The promise, on generated multilingual text (scripts, digits, ZWJ sequences, combining marks,
emoji): each row's ids are tiktoken's own (or bpelab's, for a lesson tokenizer), and the marked
spans are exactly the byte ranges where the rows' cut positions differ; each stretch's tokens
(``tokens_between``) are the row's tokens overlapping it, counted here from tiktoken's own byte offsets
on text in thirteen kinds of writing. The page lays the rows out itself (``static/compare.js``): its
spans, each chip's byte range and each stretch said in words must be Python's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import regex
import tiktoken
import traitlets
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import train_bpe
from bpelab.cuts import cut_positions
from bpelab.production import FRIENDLY_NAMES, load_encoding
from bpelab.widgets import CompareView
from bpelab.widgets.chips import make_chips, show_whitespace
from bpelab.widgets.encoders import encoder_for
from bpelab.words import END_OF_WORD
from tests.test_cuts import MANY_SCRIPTS, MULTILINGUAL, assert_spans_are_where_cuts_differ, tiktoken_byte_offsets
from tests.test_js_training import generated_texts

NODE = shutil.which("node")
RUNNER = Path(__file__).parent / "js" / "compare_with_js.mjs"
PRODUCTION = ("r50k_base", "cl100k_base", "o200k_base", "llama3")
TOY = train_bpe("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2, 10)
WORDS = r"\w+|[^\w\s]+"


def rows_from_tiktoken(text: str, names: tuple[str, ...]) -> list[list[int]]:
    out = []
    for name in names:
        encoding = load_encoding(name)
        out.append([len(p) for p in encoding.decode_tokens_bytes(encoding.encode_ordinary(text))])
    return out


@settings(max_examples=25, deadline=None)
@given(MULTILINGUAL)
def test_four_production_rows_have_tiktokens_ids_and_the_spans_where_cuts_differ(text: str) -> None:
    view = CompareView(text=text)
    assert view.chosen == [FRIENDLY_NAMES[name] for name in PRODUCTION]
    for name in PRODUCTION:
        sent = view.encodings[FRIENDLY_NAMES[name]]
        assert sent["ids"] == load_encoding(name).encode_ordinary(text)
        assert view.counts[FRIENDLY_NAMES[name]] == len(sent["ids"])
    rows = rows_from_tiktoken(text, PRODUCTION)
    assert_spans_are_where_cuts_differ(rows, view.differing_spans)


def toy_ranges_by_hand(text: str, pieces: list[str]) -> list[tuple[int, int]]:
    """The toy's tokens' bytes, found one after the other in the text (whitespace skipped); a bare
    "</w>" sits where the word before it ends."""
    data, ranges, at = text.encode("utf-8"), [], 0
    for piece in pieces:
        raw = piece.removesuffix(END_OF_WORD).encode("utf-8")
        start = data.index(raw, at) if raw else at
        ranges.append((start, start + len(raw)))
        at = start + len(raw)
    return ranges


@settings(max_examples=25, deadline=None)
@given(MANY_SCRIPTS)
def test_each_stretch_lists_the_tokens_of_each_row_that_overlap_it(text: str) -> None:
    """``tokens_between`` of every marked stretch: as many tokens as share a byte with it, by tiktoken's
    byte offsets (and, for the lesson tokenizer, its tokens found in the text by hand)."""
    view = CompareView({"toy": TOY}, text=text, chosen=["toy", *(FRIENDLY_NAMES[n] for n in PRODUCTION[:3])])
    offsets = {FRIENDLY_NAMES[name]: tiktoken_byte_offsets(name, text) for name in PRODUCTION[:3]}
    offsets["toy"] = toy_ranges_by_hand(text, view.encoding_of("toy")[1])
    for start, end in view.differing_spans:
        counts = {label: len(tokens) for label, tokens in view.tokens_between(start, end).items()}
        want = {
            label: sum(1 for a, b in ranges if (a < end and start < b) or (a == b and start < a <= end))
            for label, ranges in offsets.items()
        }
        assert counts == want, (start, end)


def test_a_stretch_inside_one_character_counts_its_own_tokens_not_the_characters() -> None:
    """The issue's case: GPT-2 cuts नमस्ते into byte pieces; its last character स्ते holds two stretches,
    and each gets the tokens overlapping it (from tiktoken's byte offsets), not all of the character's."""
    text = "… — नमस्ते"
    view = CompareView(text=text, chosen=[FRIENDLY_NAMES[n] for n in ("r50k_base", "cl100k_base", "o200k_base")])
    gpt2 = tiktoken_byte_offsets("r50k_base", text)
    for start, end in view.differing_spans:
        shown = view.tokens_between(start, end)[FRIENDLY_NAMES["r50k_base"]]
        assert len(shown) == sum(1 for a, b in gpt2 if a < end and start < b) < len(gpt2)


def test_a_lesson_tokenizer_row_has_bpelabs_ids_and_its_skipped_whitespace_is_no_disagreement() -> None:
    text = "low lowest  newer\twidest"
    view = CompareView({"toy": TOY}, text=text, chosen=["toy", "GPT-2 (r50k_base)"], word_split=WORDS)
    ids, pieces = encoder_for(TOY, WORDS)(text)
    assert view.encodings["toy"]["ids"] == ids and view.encodings["toy"]["pieces"] == pieces
    # GPT-2 keeps each space on the next word ("⋅lowest"); the toy skips it: both cut at "low" and
    # the space, so "low" agrees and every later word is cut differently (the space joins GPT-2's word)
    spans = view.differing_spans
    assert (0, 3) not in spans
    gpt2 = [
        len(p) for p in load_encoding("r50k_base").decode_tokens_bytes(load_encoding("r50k_base").encode_ordinary(text))
    ]
    toy_cuts = set()
    at = 0
    for piece in pieces:  # the toy's cuts found by hand: words in order, whitespace skipped
        word = piece.removesuffix(END_OF_WORD)
        found = text.index(word, at)
        toy_cuts |= {found, found + len(word)}
        at = found + len(word)
    toy_cuts |= {0, len(text)}
    common = toy_cuts & set(cut_positions(gpt2))
    assert all(a in common and b in common for a, b in spans)
    hand = CompareView({"toy": TOY}, text="low lowest", chosen=["toy", "GPT-2 (r50k_base)"], word_split=WORDS)
    assert hand.encoding_of("toy")[1] == ["low</w>", "low", "est</w>"]  # GPT-2: "low", "⋅lowest"
    assert hand.differing_spans == [(3, 10)]  # "low" agrees; the toy cuts " lowest" in two
    assert "toy: " in view.render_text() and "GPT-2 (r50k_base): " in view.render_text()


def test_rows_follow_the_menu_and_bad_choices_say_what_to_do() -> None:
    view = CompareView(text="abc", chosen=["Llama 3", "GPT-2 (r50k_base)"])
    assert view.chosen == ["GPT-2 (r50k_base)", "Llama 3"]
    with pytest.raises(traitlets.TraitError, match="choose 2 to 4"):
        view.chosen = ["Llama 3"]
    with pytest.raises(traitlets.TraitError, match="no tokenizer is labelled"):
        view.chosen = ["Llama 3", "GPT-5"]
    with pytest.raises(ValueError, match="at least two tokenizers"):
        CompareView(production=["r50k_base"])
    view.text = "x" * 3001  # too long to read side by side: the page says so, nothing is sent
    assert view.encodings == {}


@pytest.mark.skipif(
    "o200k_harmony" not in tiktoken.list_encoding_names(),
    reason=f"tiktoken {tiktoken.__version__} predates o200k_harmony (the pinned one, make test, has it)",
)
def test_gpt_oss_harmony_cuts_ordinary_text_as_gpt4o_so_it_needs_no_row() -> None:
    """What the view says of o200k_harmony, checked on the course's hardest generated text."""
    harmony, gpt4o = tiktoken.get_encoding("o200k_harmony"), load_encoding("o200k_base")
    for text in generated_texts(200, seed=3):
        assert harmony.encode_ordinary(text) == gpt4o.encode_ordinary(text)
    assert harmony.n_vocab > gpt4o.n_vocab  # its special tokens are the difference


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_page_lays_out_the_same_spans_and_chips_as_python() -> None:
    cases, expected = [], []
    for text in generated_texts(120, seed=77):
        view = CompareView(
            {"toy": TOY}, text=text, chosen=["toy", "GPT-2 (r50k_base)", "GPT-4 (cl100k_base)", "Llama 3"]
        )
        rows = []
        chips = []
        for label in view.chosen:
            _ids, pieces = view.encoding_of(label)
            word_end = END_OF_WORD if label == "toy" else None
            rows.append({"pieces": [p if isinstance(p, str) else list(p) for p in pieces], "wordEnd": word_end})
            row_chips: list[tuple[int, int]] = []
            for c in make_chips(pieces, word_end=word_end):
                if c.raw.removesuffix(b"</w>") or not row_chips:
                    row_chips.append((c.tokens[0], c.tokens[-1]))
                else:  # a bare "</w>" covers no text: drawn with the chip before it
                    row_chips[-1] = (row_chips[-1][0], c.tokens[-1])
            chips.append(row_chips)
        cases.append({"text": text, "rows": rows})
        expected.append((view.differing_spans, chips))
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    other_unicode = 0
    for case, answer, (spans, chips) in zip(cases, json.loads(done.stdout), expected, strict=True):
        assert [tuple(s) for s in answer["spans"]] == spans, case["text"]
        if answer["graphemes"] != regex.findall(r"\X", case["text"]):
            # chips group a character as you see it: where the page's Unicode draws those lines elsewhere than
            # the regex module's (older regex releases the course allows lack Unicode 15.1's Indic rules), the
            # two groupings differ by version, not by code; the spans above do not depend on it
            other_unicode += 1
        else:
            assert [[tuple(c[:2]) for c in row] for row in answer["chips"]] == chips
        data = case["text"].encode("utf-8")
        for row, laid in zip(case["rows"], answer["chips"], strict=True):
            for first, last, start, end in laid:  # each chip covers exactly its tokens' bytes in the text
                raw = b"".join(
                    bytes(p) if isinstance(p, list) else p.removesuffix(END_OF_WORD).encode()
                    for p in row["pieces"][first : last + 1]
                )
                assert data[start:end] == raw
    assert other_unicode <= len(cases) // 4, f"{other_unicode} of {len(cases)} texts segmented otherwise"


def said_in_python(view: CompareView, start: int, end: int) -> str:
    """What the page's list says of one stretch, written from Python's ``tokens_between``."""
    data = view.text.encode("utf-8")
    parts = [
        f"{label}: {len(tokens)} token{'' if len(tokens) == 1 else 's'} ({' | '.join(tokens)})"
        for label, tokens in view.tokens_between(start, end).items()
    ]
    return f"“{show_whitespace(data[start:end].decode('utf-8', 'replace'))}” (bytes {start}–{end}): {'; '.join(parts)}"


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
@settings(max_examples=4, deadline=None)
@given(st.lists(MANY_SCRIPTS, min_size=15, max_size=15))
def test_the_page_says_each_stretch_with_pythons_tokens(texts: list[str]) -> None:
    """The list under the page's table (compare_stretches.js describeSpan) on text in thirteen kinds of
    writing: each stretch's text, and each row's count and tokens, exactly as Python's; the bands hold
    every stretch once and start and end where no chip is cut."""
    cases, views = [], []
    for text in texts:
        view = CompareView(
            {"toy": TOY}, text=text, chosen=["toy", "GPT-2 (r50k_base)", "GPT-4 (cl100k_base)", "Llama 3"]
        )
        rows = []
        for label in view.chosen:
            _ids, pieces = view.encoding_of(label)
            word_end = END_OF_WORD if label == "toy" else None
            rows.append({"pieces": [p if isinstance(p, str) else list(p) for p in pieces], "wordEnd": word_end})
        cases.append({"text": text, "rows": rows, "labels": view.chosen})
        views.append(view)
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for view, answer in zip(views, json.loads(done.stdout), strict=True):
        spans = view.differing_spans
        assert answer["described"] == [said_in_python(view, start, end) for start, end in spans], view.text
        assert [tuple(s) for band in answer["bands"] for s in band["spans"]] == spans
        for band in answer["bands"]:
            for row in answer["chips"]:
                assert not any(a < band["start"] < b or a < band["end"] < b for _f, _l, a, b in row)


@pytest.mark.parametrize("lesson", ["05_encoding_and_decoding.ipynb", "09_multilingual_tax.ipynb"])
def test_the_lessons_saved_side_by_side_module_is_todays(lesson: str) -> None:
    """A static page draws the view with the module the notebook saved: after a change to compare.js,
    cuts.js, explorer.js, chips.js, bpe.js or production.js, re-run the lesson (make lessons ONLY="05 09")."""
    import nbformat

    from bpelab.course.html_export import NOTEBOOKS_DIR, WIDGET_STATE

    nb = nbformat.read(NOTEBOOKS_DIR / lesson, as_version=4)
    saved = [
        entry["state"]["_esm"]
        for entry in nb.metadata["widgets"][WIDGET_STATE]["state"].values()
        if entry["state"].get("_anywidget_id") == "bpelab.widgets.compare.CompareView"
    ]
    assert saved, f"{lesson} saved no side-by-side view"
    assert all(module == CompareView._esm for module in saved), (
        f'{lesson} holds an older module: make lessons ONLY="05 09"'
    )


@pytest.mark.parametrize("text", ["\ud800", "a\udc00b", "x\ud83d \ud83d\ude00 y"])
def test_a_lone_surrogate_is_replaced_as_tiktoken_replaces_it(text):
    view = CompareView(text=text)
    assert "\ufffd" in view.text and view.text.encode("utf-8")  # U+FFFD in its place; a pair stays one character
    counts = view.counts
    for name in ["r50k_base", "cl100k_base", "o200k_base"]:
        assert counts[FRIENDLY_NAMES[name]] == len(tiktoken.get_encoding(name).encode(text))
    view.differing_spans, view.render_text()  # drawn and counted without an error
    view.text = "ok\udfff"
    assert view.text == "ok\ufffd"
