"""Lessons 05, 06 and 07, seventeenth fresh read (fixAV): wrong decode_ids and build_vocab answers the checkers
accepted or misnamed, a line-split split_pieces blamed on slices, guards missing in lesson 06, and sentences that
named the wrong column, crate or method."""

from __future__ import annotations

import codecs
import unicodedata

import nbformat
import pytest
import regex

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.byte_level import check_build_vocab, check_decode_ids
from bpelab.exercises.real_tokenizers import check_split_pieces
from tests.shown_solutions import lesson_path, shown_solution


def _hint(out: str) -> str:
    return out.split("hint:", 1)[1] if "hint:" in out else ""


def _cells(lesson: str) -> list:
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _text(lesson: str, index: int) -> str:
    return " ".join(_cells(lesson)[index].source.split())


# ---- finding 1: decode_ids answers that only work when the cut is at the end -------------------------------------


def _prefix_then_one(vocab, ids):
    data = b"".join(vocab[i] for i in ids)
    try:
        return data.decode()
    except UnicodeDecodeError as e:
        return data[: e.start].decode() + "\ufffd"


def _ignore_then_one(vocab, ids):
    data = b"".join(vocab[i] for i in ids)
    text = data.decode(errors="ignore")
    if text.encode() != data:
        text += "\ufffd"
    return text


def _hold_back_tail(vocab, ids):
    data = b"".join(vocab[i] for i in ids)
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        text = decoder.decode(data)
    except UnicodeDecodeError as e:
        return data[: e.start].decode() + "\ufffd"
    return text + "\ufffd" if decoder.getstate()[0] else text


def _last_byte_dropped(vocab, ids):
    data = b"".join(vocab[i] for i in ids)
    try:
        return data.decode()
    except UnicodeDecodeError:
        return data[:-1].decode(errors="ignore") + "\ufffd"


def _stripped(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace").strip()


def _nfkc(vocab, ids):
    return unicodedata.normalize("NFKC", b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace"))


def _crlf(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace").replace("\r\n", "\n")


@pytest.mark.parametrize(
    ("wrong", "words"),
    [
        (_prefix_then_one, ["one '\ufffd'", "goes on"]),
        (_ignore_then_one, ["errors='ignore'", "end"]),
        (_hold_back_tail, ["one '\ufffd'", "goes on"]),
        (_last_byte_dropped, ["last byte"]),
        (_stripped, ["whitespace", "strip"]),
        (_nfkc, ["normalize('NFKC'"]),
        (_crlf, ["'\\r\\n'"]),
    ],
)
def test_decode_ids_refuses_answers_right_only_for_a_cut_at_the_end(capsys, wrong, words):
    result = check_decode_ids(wrong, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    said = _hint(out)
    for word in words:
        assert word in said, out
    assert "for each" not in said or "errors='replace'" in said, out


def test_decode_ids_cases_cut_at_the_start_and_in_the_middle():
    from bpelab.exercises.byte_level import DECODE_IDS

    expected = [case.expected for case in DECODE_IDS.build_cases()]
    assert "\ufffd\ufffd\ufffd!" in expected, expected
    assert "caf\ufffd ok" in expected, expected
    assert " hi\n" in expected and "a\r\nb" in expected and any("ﬁ" in e for e in expected), expected


def test_the_shown_decode_ids_still_passes(capsys):
    assert check_decode_ids(shown_solution("06", "36cc064b", "decode_ids"), record=False).passed, capsys.readouterr()


# ---- finding 2: an incremental decoder never flushed ---------------------------------------------------------------


def _incremental_no_final(vocab, ids):
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    return "".join(decoder.decode(vocab[i]) for i in ids)


def _incremental_final(vocab, ids):
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    return "".join(decoder.decode(vocab[i]) for i in ids) + decoder.decode(b"", final=True)


def test_an_incremental_decoder_without_final_is_told_to_flush(capsys):
    assert not check_decode_ids(_incremental_no_final, record=False).passed
    out = capsys.readouterr().out
    said = _hint(out)
    assert "final=True" in said, out
    assert "errors='ignore'" not in said, out


def test_an_incremental_decoder_with_final_passes(capsys):
    assert check_decode_ids(_incremental_final, record=False).passed, capsys.readouterr().out


# ---- finding 3: lesson 06's check cells are guarded like 05's and 07's ------------------------------------------


@pytest.mark.parametrize(("index", "name"), [(52, "build_vocab"), (56, "decode_ids")])
def test_lesson_06_check_cells_are_guarded(index, name):
    source = _cells("06")[index].source
    assert f'if "{name}" in globals():' in source, source
    assert f"{name} is not defined yet: run the exercise cell above (def {name} ...) first, then this one." in source, (
        source
    )
    namespace: dict = {}
    exec(compile(source, "cell", "exec"), namespace)  # run before the stub cell: no NameError


# ---- finding 4: lesson 05 names the table's column by its heading ----------------------------------------------


def test_lesson_05_names_the_training_text_column():
    text = _text("05", 23)
    assert "(the last column)" not in text.split("A piece is a symbol")[0], text
    assert "in the English training text?" in text, text


# ---- finding 5: build_vocab must read the merge's new id ---------------------------------------------------------


def _numbered_by_count(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in merges.items():  # noqa: B007 (the learner never reads it: that is the bug)
        vocab[len(vocab)] = vocab[a] + vocab[b]
    return vocab


def _numbered_from_256(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for k, (a, b) in enumerate(merges):
        vocab[256 + k] = vocab[a] + vocab[b]
    return vocab


@pytest.mark.parametrize("wrong", [_numbered_by_count, _numbered_from_256])
def test_build_vocab_refuses_ids_it_numbered_itself(capsys, wrong):
    assert not check_build_vocab(wrong, record=False).passed
    out = capsys.readouterr().out
    said = _hint(out)
    assert "vocab[new]" in said and "merge" in said and "len(vocab)" in said, out


def test_the_shown_build_vocab_still_passes(capsys):
    assert check_build_vocab(shown_solution("06", "92b531a9", "build_vocab"), record=False).passed, (
        capsys.readouterr().out
    )


# ---- finding 6: bytearray values and chr(i).encode() get their own hints ---------------------------------------


def _bytearray_values(merges):
    vocab = {i: bytearray([i]) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def _chr_encode(merges):
    vocab = {i: chr(i).encode() for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def test_build_vocab_names_bytearray(capsys):
    assert not check_build_vocab(_bytearray_values, record=False).passed
    out = capsys.readouterr().out
    assert "bytearray is another type" in _hint(out), out


def test_build_vocab_names_chr_encode(capsys):
    assert not check_build_vocab(_chr_encode, record=False).passed
    out = capsys.readouterr().out
    said = _hint(out)
    assert "chr(i).encode()" in said and "UTF-8" in said and "bytes([i])" in said, out


# ---- finding 7: split into lines, the pattern on line + '\n', the end trimmed ------------------------------------


def _lines_with_their_breaks(text, pattern):
    pieces = []
    for line in text.split("\n"):
        pieces += regex.findall(pattern, line + "\n")
    last = pieces.pop()[:-1]
    if last:
        pieces.append(last)
    return pieces


def test_split_pieces_names_lines_split_with_their_breaks_kept(capsys):
    assert not check_split_pieces(_lines_with_their_breaks, record=False).passed
    out = capsys.readouterr().out
    said = _hint(out)
    assert "into lines first" in said, out
    assert "Meta" not in said and "slices" not in said, out


# ---- finding 8: fancy-regex depends on regex-automata, not the regex crate --------------------------------------


def test_lesson_07_names_regex_automata():
    text = _text("07", 84)
    assert "to Rust's `regex` crate" not in text, text
    assert "regex-automata 0.4.16" in text or "regex-automata` 0.4.16" in text, text
    assert "rust-lang/regex at commit 2b52759, regex 1.13.1" not in text, text
    recap = " ".join(next(c.source for c in _cells("07") if c.get("id") == "9dc74c43").split())
    assert "goes to Rust's `regex` crate" not in recap, recap


# ---- finding 9: the solution note names the incremental decoder ------------------------------------------------


def test_solution_note_names_the_incremental_decoder():
    text = _text("06", 57)
    assert "Only" not in text, text
    assert "final=True" in text, text


# ---- finding 10: the course's own BPETokenizer.decode is refused -----------------------------------------------


def _through_the_course(vocab, ids):
    t = BPETokenizer()
    t.vocab = vocab
    return t.decode(ids)


def test_decode_ids_refuses_the_courses_decode(capsys):
    assert not check_decode_ids(_through_the_course, record=False).passed
    assert "that is the course's" in capsys.readouterr().out
