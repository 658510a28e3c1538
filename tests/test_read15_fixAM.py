"""Read 15, fix AM: lesson 10 after a fresh reviewer's read.

``check_tokens_saved`` passed measures that change the texts before counting them (strip, rstrip, collapsing
whitespace, NFKC, counting line by line, a rewrite of spaces taken for an empty one); ``check_room_for_answer``
passed dropping a byte-order mark; the "measured against the rewrite" hint missed a guarded division; and the
lesson's prose said a few things loosely. Each wrong answer is written as a learner would write it; each expected
share is counted here with tiktoken directly.
"""

from __future__ import annotations

import unicodedata

import nbformat
import pytest
import tiktoken

import bpelab
from bpelab.chat_formats import render_chat
from bpelab.exercises import EXERCISES
from bpelab.exercises.practice import check_room_for_answer, check_tokens_saved

LESSON = "notebooks/10_tokens_in_practice.ipynb"


def _cell(cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id)


def _share(original: str, rewrite: str, name: str) -> float:
    encoding = tiktoken.get_encoding(name)
    before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


def _refused(check, fn, capsys) -> str:
    result = check(fn, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


# ---- finding 1: tokens_saved counts each text as it is --------------------------------------------------------------


def test_the_new_cases_are_tiktokens_own_shares():
    o200k = "o200k_base"
    wanted = {
        ("Summarise  this  review,  please.", "Summarise this review.  ", o200k),
        ("Summarise this review.", "   ", o200k),
        ("Summarise this review:\n- in French\n- in three sentences\n", "French summary,\n3 sentences", o200k),
        ("\uff33\uff55\uff4d\uff4d\uff41\uff52\uff49\uff53\uff45 this review.", "Summarise it.", o200k),
        ("Summarise this review in \ufb01ve sentences.", "Summarise in \ufb01ve.", "cl100k_base"),
    }
    cases = {case.args: case.expected for case in EXERCISES["tokens_saved"].cases()}
    assert wanted <= set(cases)
    for args in wanted:
        assert cases[args] == _share(*args), args
    assert abs(_share("Summarise  this  review,  please.", "Summarise this review.  ", o200k) - 0.364) < 0.001
    assert _share("Summarise this review.", "   ", o200k) == (6 - 1) / 6
    assert any(unicodedata.normalize("NFKC", original) != original for original, _, _ in wanted)


def _counted(change):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(change(original)))
        after = len(encoding.encode_ordinary(change(rewrite)))
        return (before - after) / before

    return tokens_saved


def by_lines(original, rewrite, encoding_name):
    encoding = bpelab.load_encoding(encoding_name)
    before = sum(len(encoding.encode_ordinary(line)) for line in original.splitlines())
    after = sum(len(encoding.encode_ordinary(line)) for line in rewrite.splitlines())
    return (before - after) / before


def blank_is_empty(original, rewrite, encoding_name):
    if not rewrite.strip():
        return 1.0
    encoding = bpelab.load_encoding(encoding_name)
    before, after = len(encoding.encode_ordinary(original)), len(encoding.encode_ordinary(rewrite))
    return (before - after) / before


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_counted(str.strip), "don't strip it (strip(), rstrip(), lstrip())"),
        (_counted(str.rstrip), "don't strip it (strip(), rstrip(), lstrip())"),
        (_counted(lambda t: " ".join(t.split())), "' '.join(text.split())"),
        (_counted(lambda t: unicodedata.normalize("NFKC", t)), "normalize('NFKC'"),
        (by_lines, "splitlines()"),
        (blank_is_empty, "a rewrite of only spaces is not empty"),
    ],
    ids=["strip", "rstrip", "collapse", "NFKC", "lines", "blank"],
)
def test_a_text_changed_before_counting_is_refused_and_told(fn, hint, capsys):
    out = _refused(check_tokens_saved, fn, capsys)
    assert hint in out, out
    if fn is not blank_is_empty:
        assert "cost tokens" in out or "other tokens" in out, out


# ---- finding 3: the rewrite-based share, however the empty rewrite is guarded ---------------------------------------


def test_a_share_of_the_rewrite_guarded_for_the_empty_one_gets_its_hint(capsys):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(rewrite))
        return (before - after) / after if after else 1.0

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert "measured the saving against the rewrite" in out, out


def test_the_unguarded_share_of_the_rewrite_still_gets_its_hint(capsys):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(rewrite))
        return (before - after) / after

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert "measured the saving against the rewrite" in out, out


# ---- finding 2: room_for_answer counts a byte-order mark ------------------------------------------------------------


def test_a_byte_order_mark_costs_a_token():
    o200k = tiktoken.get_encoding("o200k_base")
    assert len(o200k.encode_ordinary("\ufeffHello")) == 2 and len(o200k.encode_ordinary("Hello")) == 1
    assert any("\ufeff" in case.args[1] for case in EXERCISES["room_for_answer"].cases())
    assert any("\ufeff" in case.args[0] for case in EXERCISES["room_for_answer"].cases())


@pytest.mark.parametrize(
    "drop", [lambda t: t.replace("\ufeff", ""), lambda t: t.lstrip("\ufeff")], ids=["replace", "lstrip"]
)
def test_dropping_a_byte_order_mark_is_refused_and_told(drop, capsys):
    def room_for_answer(system, user, context_window, count_tokens):
        return max(0, context_window - count_tokens(drop(system)) - count_tokens(drop(user)))

    out = _refused(check_room_for_answer, room_for_answer, capsys)
    assert "U+FEFF" in out and "as it is sent" in out, out


# ---- the prose: findings 4 to 10 ------------------------------------------------------------------------------------


def test_cell_10_states_only_what_its_table_shows():
    text = _cell("dde1ff4e").source
    assert "usually costs more" not in text
    assert "in its example prices output costs more" in text


def test_cell_54_points_at_section_1_for_the_refusal():
    text = _cell("04857f57").source
    assert "section 10 shows it" not in text and "(section 1 shows it)" in text
    assert "encode refuses it" in "".join(o.get("text", "") for o in _cell("7b3e1d52").outputs)


def test_cell_29_puts_the_lone_space_column_before_the_other_measure():
    cell = _cell("1e95b9cf")
    table = next(o for o in cell.outputs if o.output_type == "execute_result")["data"]["text/plain"]
    assert 0 <= table.index("a lone space") < table.index("tokens with no space after commas")


def test_cell_61s_short_example_names_the_review():
    text = _cell("5c2d9e63").source
    assert "Sum it up in" not in text
    assert '"Sum up the review below in ≤3\nsentences, in French: pos/neg/neutral?"' in text


def test_cell_62_says_why_typed_special_text_stays_text_and_names_the_cut():
    text = _cell("0d04101c").source
    assert "takes the same `allowed_special`" not in text
    assert "`disallowed_special=()`" in text and "lines 105–106" in text and "lines 121–125" in text
    assert "MAX_NO_WHITESPACES_CHARS" in text


def test_the_recap_says_of_these_samples_and_names_the_indented_json():
    text = _cell("c6190996").source
    assert "Of section 4's five samples" in text and "json.dumps(indent=2)" in text


# ---- finding 5: render_chat cuts long runs as Meta's Tokenizer.encode does ------------------------------------------


def _meta_split(s: str, max_run: int):
    """meta-llama/llama3, llama/tokenizer.py, Tokenizer._split_whitespaces_or_nonwhitespaces (lines 175-199)."""
    current_slice_len = 0
    current_slice_is_space = s[0].isspace() if len(s) > 0 else False
    slice_start = 0
    for i in range(len(s)):
        is_now_space = s[i].isspace()
        if current_slice_is_space ^ is_now_space:
            current_slice_len = 1
            current_slice_is_space = is_now_space
        else:
            current_slice_len += 1
            if current_slice_len > max_run:
                yield s[slice_start:i]
                slice_start = i
                current_slice_len = 1
    yield s[slice_start:]


def _meta_encode(model, s: str) -> list[int]:
    """Tokenizer.encode (lines 99-160) with bos=eos=False and its default allowed/disallowed specials."""
    substrs = (sub for i in range(0, len(s), 400_000) for sub in _meta_split(s[i : i + 400_000], 25_000))
    ids: list[int] = []
    for sub in substrs:
        ids.extend(model.encode(sub, allowed_special=set(), disallowed_special=()))
    return ids


def _meta_dialog_ids(model, dialog) -> list[int]:
    """ChatFormat.encode_message for each message (lines 214-220), after <|begin_of_text|>."""
    special = model._special_tokens
    ids = [special["<|begin_of_text|>"]]
    for role, content in dialog:
        ids.append(special["<|start_header_id|>"])
        ids.extend(_meta_encode(model, role))
        ids.append(special["<|end_header_id|>"])
        ids.extend(_meta_encode(model, "\n\n"))
        ids.extend(_meta_encode(model, content.strip()))
        ids.append(special["<|eot_id|>"])
    return ids


@pytest.mark.parametrize(
    "text",
    ["1234567" * 8000, " " * 30_000 + "hi", "x" * 25_001 + " " + "y" * 60_000, "short, as ever"],
    ids=["digits", "spaces", "two-runs", "short"],
)
def test_llama3_rendering_gives_metas_ids_for_long_runs(text):
    model = bpelab.load_encoding("llama3")
    dialog = [("system", "Be brief."), ("user", text), ("assistant", text)]
    assert list(render_chat(dialog, "llama3").ids) == _meta_dialog_ids(model, dialog)


def test_the_digits_run_is_the_case_the_reviewer_found():
    model = bpelab.load_encoding("llama3")
    turn = [("user", "1234567" * 8000)]
    assert len(_meta_encode(model, "1234567" * 8000)) == 18_668  # three pieces of at most 25,000 characters
    assert len(model.encode_ordinary("1234567" * 8000)) == 18_667  # one piece: what the course gave before
    rendering = render_chat(turn, "llama3")
    assert sum(1 for t in rendering.tokens if t.own) == 18_668 and len(rendering.ids) == 18_674
