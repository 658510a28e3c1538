"""Findings of the nineteenth fresh read of lessons 14 and 15 (fixBD): the EXAMPLES tables could not show a piece
holding their separator `|`, the bits-per-byte report showed e + a combining accent as a precomposed é, and prose
that said less (or more) than its source."""

from __future__ import annotations

import ast
import math
import re
import unicodedata
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")

LESSON_14 = "notebooks/14_fairer_merges_bigger_tokens.ipynb"
LESSON_15 = "notebooks/15_numbers_glitches_fair_comparisons.ipynb"


def _cells(path: str) -> list[Any]:
    return nbformat.read(path, as_version=4).cells


def _cell(path: str, cell_id: str) -> str:
    (source,) = [c.source for c in _cells(path) if c.id == cell_id]
    return source


def _run(source: str, space: dict[str, Any]) -> Any:
    """Run a cell as IPython does: its last line, an expression, is the cell's result."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "cell", "exec"), space)
    return eval(compile(ast.Expression(last.value), "cell", "eval"), space) if last else None


# ---- 1. lesson 15: every piece of the EXAMPLES tables can be read back, whatever it holds ------------------------

_QUOTED = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
_BYTES = r"<[0-9a-f]{2}(?: [0-9a-f]{2})*>"
_PIECE = re.compile(rf"{_QUOTED}|{_BYTES}|[^\s|'\"<>](?:[^|'\"<>]*[^\s|'\"<>])?")


def _read_back(shown: str) -> list[str | bytes]:
    """The pieces a reader sees in a table's cell: pieces joined by " | ", each as it is, in quotes (a Python
    literal) or, for bytes that are no text, in hex between < and >. Fails where a reader could not tell."""
    pieces: list[str | bytes] = []
    at = 0
    while True:
        match = _PIECE.match(shown, at)
        assert match, f"cannot read a piece at {at} of {shown!r}"
        text = match.group()
        if text[0] in "'\"":
            pieces.append(ast.literal_eval(text))
        elif text[0] == "<":
            pieces.append(bytes.fromhex(text[1:-1]))
        else:
            pieces.append(text)
        at = match.end()
        if at == len(shown):
            return pieces
        assert shown.startswith(" | ", at), f"no separator at {at} of {shown!r}"
        at += 3


TRICKY = ["<|endoftext|>", "a|b || c", 'don\'t say "no"', "x ' y", "in 1999", "<f0 9f>", "1234567", "£1,234.50"]


def test_the_first_table_shows_every_piece_readably() -> None:
    from bpelab.digit_rules import DIGIT_RULES, pattern_with_digits
    from bpelab.patterns import split_text

    space: dict[str, Any] = {}
    _run(_cell(LESSON_15, "f7f9ea20"), space)  # the imports
    source = _cell(LESSON_15, "11d6dd9f")
    assert "EXAMPLES = [" in source
    table = _run(source.replace("EXAMPLES = [", f"EXAMPLES = {TRICKY!r} or [", 1), space)
    for rule in DIGIT_RULES:
        for text in TRICKY:
            expected = split_text(text, pattern_with_digits(rule))
            assert _read_back(table.loc[rule, space["shown_text"](text)]) == expected, (rule, text)


def test_the_second_table_shows_every_token_readably() -> None:
    space: dict[str, Any] = {}
    _run(_cell(LESSON_15, "f7f9ea20"), space)
    _run(_cell(LESSON_15, "11d6dd9f"), space)  # shown_text and shown
    source = _cell(LESSON_15, "af161f9c")
    tree = ast.parse(source)
    (pieces_def,) = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "pieces"]
    exec(compile(ast.Module(body=[pieces_def], type_ignores=[]), "cell", "exec"), space)
    for name in ["r50k_base", "cl100k_base"]:
        encoding = space["load_encoding"](name)
        for text in TRICKY:
            tokens = [encoding.decode_single_token_bytes(i) for i in encoding.encode_ordinary(text)]
            read = _read_back(space["pieces"](encoding, text))
            assert [p if isinstance(p, bytes) else p.encode() for p in read] == tokens, (name, text)


def test_the_endoftext_pieces_read_as_the_lesson_says() -> None:
    space: dict[str, Any] = {}
    _run(_cell(LESSON_15, "f7f9ea20"), space)
    _run(_cell(LESSON_15, "11d6dd9f"), space)
    shown_text = space["shown_text"]
    assert [shown_text(p) for p in ["<|", "endoftext", "|>"]] == ["'<|'", "endoftext", "'|>'"]
    assert [shown_text(p) for p in ["123", "£", ",", "-", "in"]] == ["123", "£", ",", "-", "in"]  # as before
    prose = _cell(LESSON_15, "a2c41e04")
    assert "`'<|' | endoftext | '|>'`" in prose and "holds `|`, a quote" in prose


# ---- 2. lesson 15, exercise 2: the report of case 7 shows the combining accent -------------------------------------


def _after_nfc(probabilities, text):
    return -sum(math.log2(p) for p in probabilities) / len(unicodedata.normalize("NFC", text).encode("utf-8"))


def test_the_report_of_an_nfc_answer_shows_the_combining_accent(capsys) -> None:
    from bpelab.exercises.fair_comparisons import check_bits_per_byte

    assert not check_bits_per_byte(_after_nfc, record=False).passed
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("input:")]
    assert "\\u0301" in line, line


# ---- 3-5. prose --------------------------------------------------------------------------------------------------


def test_lesson_14_gives_both_tolerances_of_same() -> None:
    import inspect

    from bpelab.exercises import comparing

    assert "rel_tol=1e-9, abs_tol=1e-12" in inspect.getsource(comparing.same)
    prose = _cell(LESSON_14, "f11006f0")
    assert "1e-12" in prose and "1e-9" in prose


def test_lesson_14_says_the_punctuation_cut_takes_the_space_before_the_run() -> None:
    prose = _cell(LESSON_14, "c14b0005")
    ours, theirs = prose.split("The SuperBPE authors made other choices.")
    assert "(`[^\\s\\p{L}\\p{N}]`)" not in ours
    assert (
        "` ?[^\\s\\p{L}\\p{N}]{2,}`" in ours and "space before" in ours.split("GPT-2's numbers")[1].split("- Every")[0]
    )
    run = theirs.split("- runs of two or more")[1].split("- spaces followed")[0]
    assert "space before" in run, run


def test_lesson_15_names_the_sections_it_cites() -> None:
    prose = _cell(LESSON_15, "026ce2e6")
    assert '§2.2, "Training Details"' in prose  # Llama 2: its "Tokenizer" paragraph, before §2.2.1
    assert '§2, "Model Architecture"' in prose  # PaLM: its "Vocabulary" item


def test_the_note_of_case_7_writes_its_text_with_the_escape(capsys) -> None:
    """Until the input line can show it, the case's own words give the text as it is written: 'e\\u0301'."""
    from bpelab.exercises.fair_comparisons import check_bits_per_byte

    assert not check_bits_per_byte(_after_nfc, record=False).passed
    (header,) = [line for line in capsys.readouterr().out.splitlines() if "failed" in line and "check 7" in line]
    assert "'e\\u0301'" in header, header
