"""Read 20, fix BI: lessons 09, 10 and 13.

Lesson 13 said a cold run merges every piece afresh (the cache fills again during the run: each distinct piece is
merged once) and that any difference between the three engines would be a bug (section 3 shows one that is not).
Lesson 10 said the space joins every word in Tamil, Hindi and Korean with both tokenizers, where GPT-4 gives most of
those spaces a token of a space and part of a character, and called the story "characters 0 to 4,664". Lesson 09's
premium let lowercasing the reference texts only through; lesson 10's tokens_saved called NFC on the original only
rounding, and built an ungrammatical hint for rewrite.strip() and the like.
"""

from __future__ import annotations

import unicodedata

import nbformat
import pytest

import bpelab
from bpelab.exercises.multilingual_tax import check_bytes_per_char, premium
from bpelab.exercises.practice import check_premium, check_tokens_saved
from bpelab.exercises.shorter_prompt import _REWRITE_CHANGES
from tests.shown_solutions import lesson_path


def _cells(lesson: str) -> list:
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _cell(lesson: str, cell_id: str):
    return next(c for c in _cells(lesson) if c.id == cell_id)


def _output(cell) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _refused(check, fn, capsys) -> str:
    result = check(fn, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


# ---- finding 1: what "cold" means in lesson 13 ------------------------------------------------------------------------


def test_lesson_13_cold_is_a_cache_that_starts_empty():
    text = _flat(_cell("13", "e091efa4").source)
    assert "every piece is merged afresh" not in text
    assert "starts empty" in text and "distinct" in text and "read from the cache" in text


def test_lesson_13_counts_the_pieces_and_the_distinct_ones():
    cells = _cells("13")
    counting = [c for c in cells if c.cell_type == "code" and "distinct pieces" in _output(c)]
    assert counting, "no cell counts the held-out text's pieces"
    assert "NBVAL_IGNORE_OUTPUT" not in counting[0].source


def test_lesson_13_says_the_bench_megabyte_is_repeated():
    text = _flat(_cell("13", "0f283834").source)
    assert "repeated" in text and "cold" in text and "from_tiktoken" in text


def test_bench_says_what_cold_means():
    import bpelab.bench.encoding as encoding

    doc = _flat(encoding.__doc__ or "")
    assert "distinct piece" in doc and "repeat" in doc


# ---- finding 2: lesson 10, what the space before a word rides on ----------------------------------------------------


def test_lesson_10_space_table_sorts_the_space_tokens():
    cell = next(c for c in _cells("10") if c.cell_type == "code" and "load_parallel" in c.source)
    out = _output(cell)
    assert "part of a character" in out and "whole characters" in out, out


def test_lesson_10_prose_says_gpt4_rides_on_a_fragment():
    text = _flat(_cell("10", "a1bd6862").source)
    assert "Korean, Hindi, Arabic and Tamil, with both tokenizers" not in text
    assert "fragment" in text and "Tamil" in text and "Hindi" in text and "Korean" in text


# ---- finding 3: lesson 13, what rules a difference out --------------------------------------------------------------


def test_lesson_13_does_not_call_every_difference_a_bug():
    text = _flat(_cell("13", "edd10555").source)
    assert "any difference would have been a bug" not in text
    assert "probe" in text


# ---- finding 7: lesson 10, the story's characters -------------------------------------------------------------------


def test_lesson_10_story_range_is_right():
    out = _output(_cell("10", "c1df4e4f"))
    assert "characters 0 to 4,664" not in out
    assert "the first 4,664 characters" in out, out


# ---- finding 4: the rounding hint, and NFC on the original only ------------------------------------------------------


def test_collapsed_double_spaces_are_not_rounding(capsys):
    def bytes_per_char(texts):
        texts = [t.replace("  ", " ") for t in texts]
        return sum(len(t.encode("utf-8")) for t in texts) / sum(len(t) for t in texts)

    out = _refused(check_bytes_per_char, bytes_per_char, capsys)
    assert "decimal place" not in out, out


def test_nfc_on_the_original_only_is_named(capsys):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(unicodedata.normalize("NFC", original)))
        after = len(encoding.encode_ordinary(rewrite))
        return (before - after) / before

    out = _refused(check_tokens_saved, tokens_saved, capsys)
    assert "decimal place" not in out, out
    assert "NFC" in out and "one of the two" in out, out


# ---- finding 5: every hint of a change to the rewrite only reads as a sentence --------------------------------------


@pytest.mark.parametrize("what", sorted({what for what, _ in _REWRITE_CHANGES}))
def test_rewrite_change_hints_read_as_sentences(what, capsys):
    change = next(c for w, c in _REWRITE_CHANGES if w == what)

    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(change(rewrite)))
        return (before - after) / before

    out = _flat(_refused(check_tokens_saved, tokens_saved, capsys))
    # changes that give the same counts on the failing case share its hint: the first one that matches is named
    named = [w for w, _ in _REWRITE_CHANGES if w in out]
    assert named, out
    assert not any(f"{w} changes it" in out for w in named), out
    assert f"{named[0]}, and changed text has other tokens" in out, out


@pytest.mark.parametrize("what", sorted({what for what, _ in _REWRITE_CHANGES}))
def test_every_rewrite_change_is_named_by_a_verb(what):
    # filled into "...: {what}, and changed text has other tokens", each names the call and what it does
    assert what.startswith("rewrite.") and any(f" {verb} " in what for verb in ("drops", "turns")), what


def test_rewrite_strip_hint_reads_as_a_sentence(capsys):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = bpelab.load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(rewrite.strip()))
        return (before - after) / before

    out = _flat(_refused(check_tokens_saved, tokens_saved, capsys))
    assert "ends changes it" not in out, out
    assert "rewrite.strip() drops the spaces, tabs and new lines at its ends, and changed text has other tokens" in out


# ---- finding 6: premium, lowercasing the reference only -------------------------------------------------------------


def test_lowercasing_the_reference_only_is_refused_and_named(capsys):
    def premium_lower_reference(texts_by_language, encode, language, reference="en"):
        language_tokens = sum(len(encode(t)) for t in texts_by_language[language])
        reference_tokens = sum(len(encode(t.lower())) for t in texts_by_language[reference])
        return language_tokens / reference_tokens

    out = _refused(check_premium, premium_lower_reference, capsys)
    assert "lower()" in out and "reference" in out, out


def test_a_case_whose_reference_changes_when_lowercased():
    from bpelab.exercises.multilingual_tax import PREMIUM

    def lowered(texts, reference):
        return {k: [t.lower() for t in v] if k == reference else v for k, v in texts.items()}

    changed = []
    for case in PREMIUM.cases():
        texts, encode, language, *rest = case.args
        reference = rest[0] if rest else "en"
        if premium(lowered(texts, reference), encode, language, reference) != premium(
            texts, encode, language, reference
        ):
            changed.append(case)
    assert changed
