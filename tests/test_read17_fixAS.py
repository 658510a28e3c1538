"""Lessons 00 and 01, seventeenth fresh read (fixAS): wrong answers that passed byte_count, the character
tokenizer and count_characters (stripped, whitespace-only treated as empty, '\\r\\n' cleaned, text normalised,
invisible characters dropped), check cells that stopped with a NameError, and sentences that said more than the
lesson shows (emoji sizes, the byte-level tokenizers' round trip).

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Right answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import unicodedata

import nbformat
import pytest

from bpelab.exercises import check_byte_count, check_char_tokenizer, warmup
from bpelab.exercises.warmup import LONG_TEXT, check_count_characters
from tests.shown_solutions import lesson_path, shown_solution


def hint_of(out: str) -> str:
    """The report, its lines joined (the report wraps long hints)."""
    return " ".join(out.split())


def _cells(lesson):
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _cell(lesson, cell_id):
    return next(c for c in _cells(lesson) if c.id == cell_id)


# ---- finding 1: byte_count counts the text as it is -------------------------------------------------------------


def _counted(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = round(n_bytes / n_chars, 2) if n_chars else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def count_stripped(text):
    text = text.strip()
    return _counted(text)


def blank_is_empty(text):
    if not text.strip():
        return {"chars": 0, "bytes": 0, "bytes_per_char": 0.0}
    return _counted(text)


def blank_per_char(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = round(n_bytes / n_chars, 2) if text.strip() else 0.0
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def isspace_is_empty(text):
    if not text or text.isspace():
        return {"chars": 0, "bytes": 0, "bytes_per_char": 0.0}
    return _counted(text)


def isspace_per_char(text):
    n_chars = len(text)
    n_bytes = len(text.encode("utf-8"))
    per_char = 0.0 if not text or text.isspace() else round(n_bytes / n_chars, 2)
    return {"chars": n_chars, "bytes": n_bytes, "bytes_per_char": per_char}


def windows_line_ends_cleaned(text):
    return _counted(text.replace("\r\n", "\n"))


def nfc_first(text):
    return _counted(unicodedata.normalize("NFC", text))


def test_the_shown_solution_passes_byte_count():
    assert check_byte_count(shown_solution("01", "66d0d7f6", "byte_count"), record=False).passed


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (count_stripped, ["strip"]),
        (blank_is_empty, ["only spaces", "not empty"]),
        (blank_per_char, ["only spaces", "not empty"]),
        (isspace_is_empty, ["only spaces", "not empty"]),
        (isspace_per_char, ["only spaces", "not empty"]),
        (windows_line_ends_cleaned, ["as it is", "\\r\\n"]),
        (nfc_first, ["as it is", "normalize"]),
    ],
)
def test_byte_count_refuses_a_changed_text(wrong, words, capsys):
    assert not check_byte_count(wrong, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert all(word in hint for word in words), hint


# ---- finding 2: the character tokenizer keeps every character ----------------------------------------------------


def _ids(text):
    return [ord(ch) for ch in text]


def _text(ids):
    return "".join(chr(i) for i in ids)


def encode_nfc(text):
    return [ord(ch) for ch in unicodedata.normalize("NFC", text)]


def encode_nfkc(text):
    return [ord(ch) for ch in unicodedata.normalize("NFKC", text)]


def encode_without_joiners(text):
    return [ord(ch) for ch in text if ch != "\u200d"]


def encode_without_selectors(text):
    return [ord(ch) for ch in text if ch != "\ufe0f"]


def encode_cleaning_line_ends(text):
    return [ord(ch) for ch in text.replace("\r\n", "\n")]


def encode_plain_spaces(text):
    return [ord(ch) for ch in text.replace("\u00a0", " ")]


def encode_blank_is_empty(text):
    if not text.strip():
        return []
    return [ord(ch) for ch in text]


def decode_nfc(ids):
    return unicodedata.normalize("NFC", "".join(chr(i) for i in ids))


def decode_blank_is_empty(ids):
    text = "".join(chr(i) for i in ids)
    if not text.strip():
        return ""
    return text


def test_the_shown_solution_passes_the_char_tokenizer():
    encode = shown_solution("01", "c18ee35c", "encode")
    decode = shown_solution("01", "c18ee35c", "decode")
    assert check_char_tokenizer(encode, decode, record=False).passed


@pytest.mark.parametrize(
    ("encode", "decode", "words"),
    [
        (encode_nfc, _text, ["as it is", "normalize"]),
        (encode_nfkc, _text, ["as it is", "normalize"]),
        (encode_without_joiners, _text, ["U+200D", "character too"]),
        (encode_without_selectors, _text, ["U+FE0F", "character too"]),
        (encode_cleaning_line_ends, _text, ["as it is", "\\r\\n"]),
        (encode_plain_spaces, _text, ["U+00A0", "not ' '"]),
        (encode_blank_is_empty, _text, ["only spaces", "not empty"]),
        (_ids, decode_nfc, ["as it is", "normalize"]),
        (_ids, decode_blank_is_empty, ["only spaces", "not empty"]),
    ],
)
def test_the_char_tokenizer_refuses_a_changed_text(encode, decode, words, capsys):
    assert not check_char_tokenizer(encode, decode, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert all(word in hint for word in words), hint


# ---- finding 3: count_characters counts blank texts and invisible characters ----------------------------------


def count(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return counts


def count_blank_is_empty(text):
    if not text.strip():
        return {}
    return count(text)


def count_plain_spaces(text):
    return count(text.replace("\u00a0", " "))


def count_without_bom(text):
    if text.startswith("\ufeff"):
        text = text[1:]
    return count(text)


def count_without_zero_width_space(text):
    return count(text.replace("\u200b", ""))


def test_the_shown_solution_passes_count_characters():
    assert check_count_characters(shown_solution("00", "eb2a14a6", "count_characters"), record=False).passed


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (count_blank_is_empty, ["only spaces", "not empty"]),
        (count_plain_spaces, ["U+00A0", "not ' '"]),
        (count_without_bom, ["U+FEFF", "character too"]),
        (count_without_zero_width_space, ["U+200B", "character too"]),
    ],
)
def test_count_characters_refuses_a_changed_text(wrong, words, capsys):
    assert not check_count_characters(wrong, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert all(word in hint for word in words), hint


def test_long_text_docstring_says_what_it_catches():
    source = io.StringIO()
    with contextlib.redirect_stdout(source):
        cut_short = check_count_characters(lambda text: count(text[: len(LONG_TEXT) - 1]), record=False).passed
        cut_long = check_count_characters(lambda text: count(text[:2000]), record=False).passed
    assert not cut_short and cut_long
    doc = _long_text_doc()
    assert f"{len(LONG_TEXT):,}" in doc and "text[:2000]" in doc and "cannot pass" not in doc, doc


def _long_text_doc():
    """The string literal that follows ``LONG_TEXT = ...`` in warmup.py (an attribute docstring)."""
    tree = ast.parse(inspect.getsource(warmup))
    for first, second in zip(tree.body, tree.body[1:]):
        if isinstance(first, ast.Assign) and getattr(first.targets[0], "id", "") == "LONG_TEXT":
            return " ".join(second.value.value.split())
    raise AssertionError("LONG_TEXT has no docstring")


# ---- finding 4: lesson 01's check cells stand alone ----------------------------------------------------------


@pytest.mark.parametrize(("cell_id", "names"), [("c35fa12a", ["byte_count"]), ("b659f808", ["encode", "decode"])])
def test_lesson_01_check_cells_say_what_to_run_first(cell_id, names):
    source = _cell("01", cell_id).source
    guard = " and ".join(f'"{name}" in globals()' for name in names)
    assert f"if {guard}:" in source, source
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, {})  # a fresh kernel: the exercise cell not run yet
    said = out.getvalue()
    assert "not defined yet: run the exercise cell above (def " in said and "first, then this one." in said, said


# ---- finding 5: how many emoji take four bytes ------------------------------------------------------------------


def _outputs(cell):
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def test_lesson_01_counts_the_emoji_sizes():
    cells = _cells("01")
    (counter,) = [c for c in cells if c.cell_type == "code" and r"\p{Emoji}" in c.source]
    shown = _outputs(counter)
    prose = next(c for c in cells if c.id == "b922b6e7").source
    assert "a few older symbols" not in prose
    for number in ("1,431", "1,249", "168", "14"):
        assert number in shown, shown
    recap = next(c for c in cells if c.id == "afd83ba4").source
    assert "most emoji in 4" not in recap


# ---- finding 6: the byte-level tokenizers' round trip is for well-formed text -----------------------------------


def test_lesson_01_scopes_the_byte_level_round_trip():
    prose = " ".join(_cell("01", "f7684f85").source.split())
    assert "well-formed" in prose and "surrogate" in prose, prose
