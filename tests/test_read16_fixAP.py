"""Lesson 16's sixteenth fresh read (fixAP): next_merge's ties between pieces of different looks (a '▁' piece
against a plain one, ASCII against non-ASCII, letters against digits and punctuation) and their hint; the str.index
and stopped-early hints said only where their model explains the answer; byte_fallback's '<unk>' hint; the article
of a type's name; cells 2 and 31 and the teaching notes on what the sources say."""

from __future__ import annotations

import re

import nbformat
import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge, next_merge
from tests.lesson16_solutions import LESSON, hint, shown_solution

SPACE = "\u2581"

# ---- finding 1: a tie broken by what the piece looks like ---------------------------------------------------------


def preferring(prefer):
    """The shown loop, but of equal scores a pair ``prefer`` likes replaces a best it does not like."""

    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece not in scores:
                continue
            if best is None:
                best = i
                continue
            top = symbols[best] + symbols[best + 1]
            if scores[piece] > scores[top] or (
                scores[piece] == scores[top]
                and prefer(symbols[i], symbols[i + 1])
                and not prefer(symbols[best], symbols[best + 1])
            ):
                best = i
        return best

    return next_merge


RULES = {
    "made only of '▁'": lambda a, b: not (a + b).strip(SPACE),
    "not only '▁'": lambda a, b: bool((a + b).strip(SPACE)),
    "hold a '▁'": lambda a, b: SPACE in a + b,
    "non-ASCII": lambda a, b: not (a + b).replace(SPACE, "").isascii(),
    "ASCII characters only": lambda a, b: (a + b).replace(SPACE, "").isascii(),
    "letters only": lambda a, b: (a + b).replace(SPACE, "").isalpha(),
    "other than letters": lambda a, b: not (a + b).replace(SPACE, "").isalpha(),
}


@pytest.mark.parametrize("named", list(RULES))
def test_a_tie_broken_by_the_looks_of_the_piece_is_refused_with_its_hint(named, capsys):
    assert not check_next_merge(preferring(RULES[named]), record=False).passed
    line = hint(capsys.readouterr().out)
    assert "what the piece looks like" in line and named in line and "leftmost" in line, line


@pytest.mark.parametrize(
    "case",
    [
        (["a", "b", SPACE, SPACE], {"ab": -1e9, SPACE * 2: -1e9}),
        ([SPACE, SPACE, "a", "b"], {SPACE * 2: -1e9, "ab": -1e9}),
        (["a", "b", "é", "è"], {"ab": -2.0, "éè": -2.0}),
        (["é", "è", "a", "b"], {"éè": -2.0, "ab": -2.0}),
        (["a", "b", "1", "2"], {"ab": -3.0, "12": -3.0}),
        (["1", "2", "a", "b"], {"12": -3.0, "ab": -3.0}),
        (["a", "b", "c", "."], {"ab": -3.0, "c.": -3.0}),
        (["c", ".", "a", "b"], {"c.": -3.0, "ab": -3.0}),
    ],
)
def test_the_ties_of_different_looks_are_checked(case):
    from bpelab.exercises.sentencepiece import NEXT_MERGE

    assert next_merge(*case) == 0
    assert any(c.args == case and c.expected == 0 for c in NEXT_MERGE.cases()), case


def test_the_shown_solution_still_passes(capsys):
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert check_byte_fallback(shown_solution("a16e0c02", "byte_fallback"), record=False).passed


# ---- finding 2: each hint only where its model explains the answer --------------------------------------------------


@pytest.mark.parametrize(
    "prefer",
    [lambda a, b: (a + b).startswith(SPACE), lambda a, b: SPACE not in b],
    ids=["starts with '▁'", "right symbol without '▁'"],
)
def test_a_tie_rule_without_str_index_is_not_told_about_str_index(prefer, capsys):
    assert not check_next_merge(preferring(prefer), record=False).passed
    line = hint(capsys.readouterr().out)
    assert "str.index" not in line and "TEXT stands first" not in line, line
    assert "what the piece looks like" in line, line


def skips_mixed_letters(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        letters = [c for c in piece if c.isalpha()]
        if any(c.isascii() for c in letters) and any(not c.isascii() for c in letters):
            continue  # no piece of two scripts
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_a_filter_of_mixed_ascii_letters_gets_the_script_hint(capsys):
    assert not check_next_merge(skips_mixed_letters, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "stopped before the end" not in line, line
    assert "ASCII and non-ASCII letters" in line and "split_by_unicode_script" in line, line


# ---- finding 7: '<unk>' for each unknown piece ---------------------------------------------------------------------


def unk_for_each(pieces, vocab):
    return [piece if piece in vocab else "<unk>" for piece in pieces]


def test_the_unk_hint_says_what_a_model_without_byte_fallback_shows(capsys):
    assert not check_byte_fallback(unk_for_each, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "one piece for each run of unknown text" in line and "the text itself" in line, line
    assert "the id is <unk>'s" in line and "<0xNN>" in line, line


# ---- finding 8: the article of a type's name -----------------------------------------------------------------------


def test_an_int_to_replay_is_named_with_its_article():
    from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
    from bpelab.sentencepiece import load_sentencepiece

    with pytest.raises(TypeError) as refused:
        replay_sentencepiece(load_sentencepiece("mistral_v1"), 1234567)
    assert "this is an int" in str(refused.value), refused.value


def test_every_type_name_gets_its_article():
    from bpelab.wording import a_or_an
    from bpelab.words import _kind

    assert [a_or_an(n) for n in ("int", "object", "str", "float", "NoneType", "ndarray")] == [
        "an int",
        "an object",
        "a str",
        "a float",
        "a NoneType",
        "an ndarray",
    ]
    assert _kind(3).startswith("an int")


def test_a_list_holding_an_object_is_said_with_an():
    from types import SimpleNamespace

    from bpelab.exercises.sentencepiece_fallback import _item_of_another_type

    said = _item_of_another_type(SimpleNamespace(got=["a", 1.5], expected=["a"]))
    assert "holds a float" in said, said
    said = _item_of_another_type(SimpleNamespace(got=["a", object()], expected=["a"]))
    assert "holds an object" in said, said


# ---- findings 3 to 6: the prose ------------------------------------------------------------------------------------


def _cell(cell_id):
    return next(cell for cell in nbformat.read(LESSON, as_version=4).cells if cell.get("id") == cell_id)


def _prose(cell_id):
    return " ".join(_cell(cell_id).source.split())


def test_cell_31_says_which_pieces_score_plus_zero_and_what_the_characters_score():
    text = _prose("a16e0f01")
    assert "every piece it does not learn by merging" not in text, text
    assert "+0.0 goes to its meta pieces, every one of them" in text, text  # fixAX: every meta piece, <pad> too
    assert "single characters" in text and "minus its index among the normal pieces" in text, text
    assert "`bpe_model_trainer.cc` lines 449–452" in text, text
    out = "".join(o.get("text", "") for o in _cell("a16e0f02").outputs)
    assert "every one scores minus its index: True" in out, out
    assert "pieces scoring +0.0: ['<unk>', '<s>', '</s>']" in out, out


def test_cell_2_quotes_the_readme_on_pre_tokenisation():
    text = _prose("a16e0002")
    assert "no pre-tokenisation required" not in text, text
    assert 'pre-tokenisation "is not always required"' in text, text


def test_model_interface_lines_are_those_of_0_2_3():
    """sentencepiece-0.2.3.tar.gz, sentencepiece/src/model_interface.cc: line 251 is blank, 252 the comment "if is
    whitespace (and not in sequence if allow_ws_only_pieces is True)", 253-257 the test and the new word."""
    text = _prose("a16e0002")
    assert "lines 251–256" not in text and "run (lines 252–257)" in text, text


def test_the_teaching_notes_name_the_first_pair_of_the_sentence_right():
    from pathlib import Path

    notes = " ".join((Path(LESSON).parent / "TEACHING.md").read_text(encoding="utf-8").split())
    lesson16 = notes[notes.index("## Lesson 16") :]
    assert "`h` + `e`, the first pair of the sentence" not in lesson16
    assert re.search(r"first pair of the sentence is `▁` \+ `T`, then `T` \+ `h`", lesson16), lesson16[:1500]
