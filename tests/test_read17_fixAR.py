"""Lesson 16's seventeenth fresh read (fixAR): next_merge hints that named another bug or a value the learner never
wrote, and sentences of the lesson and its package that said what was not so."""

from __future__ import annotations

import ast
import inspect

import nbformat

from bpelab.exercises import sentencepiece_states
from bpelab.exercises.sentencepiece import check_next_merge
from tests.lesson16_solutions import LESSON, hint


def _default_minus_1e9_then_in_scores(symbols, scores):
    best = None
    best_score = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        score = scores.get(piece, -1e9)
        if best is None or score > best_score:
            best, best_score = i, score
    return best if best is not None and symbols[best] + symbols[best + 1] in scores else None


def _default_minus_1e9(symbols, scores):
    best = None
    best_score = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        score = scores.get(piece, -1e9)
        if best is None or score > best_score:
            best, best_score = i, score
    return best


def _default_zero(symbols, scores):
    best = None
    best_score = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        score = scores.get(piece, 0)
        if best is None or score > best_score:
            best, best_score = i, score
    return best


def test_a_default_tied_with_a_found_piece_is_named_not_the_start(capsys):
    """Finding 2: best starts at None; the -1e9 a pair that is no piece gets is the bug, though 'ab' was found at
    exactly -1e9 in a tie case."""
    assert not check_next_merge(_default_minus_1e9_then_in_scores, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "scores.get" in said and "-1e9" in said, said
    assert "starts at a number" not in said and "best is None" not in said.split("scores.get")[0], said


def test_a_missing_piece_scored_by_the_learners_default_names_that_default(capsys):
    """Finding 3: the learner wrote scores.get(piece, -1e9), so the hint may not say they scored it 0."""
    assert not check_next_merge(_default_minus_1e9, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "scores.get(piece, 0)" not in said and "scores it 0" not in said, said
    assert "scores.get(piece, -1e9)" in said, said


def test_a_default_of_zero_is_still_named(capsys):
    assert not check_next_merge(_default_zero, record=False).passed
    said = hint(capsys.readouterr().out)
    assert "scores.get(piece, 0)" in said, said


def _cell(cell_id: str) -> str:
    notebook = nbformat.read(LESSON, as_version=4)
    return next(cell.source for cell in notebook.cells if cell.get("id") == cell_id)


def test_the_ids_kept_out_of_memory_are_not_given_an_uncomputed_number():
    """Finding 4: no cell computes 280,000."""
    assert "280,000" not in _cell("a16e001b")


def test_the_replay_compares_with_the_courses_encoder_and_says_so():
    """Finding 5: mistral is the course's SentencePieceBPE (load_sentencepiece), not the sentencepiece library."""
    source = _cell("a16e0012")
    assert "mistral.encode_as_pieces" in source
    assert "Mistral's encoder gives" not in source
    assert "the course's" in source


def _docstring_after(module, name: str) -> str:
    tree = ast.parse(inspect.getsource(module))
    body = tree.body
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return after.value.value
    raise AssertionError(name)


def test_mistral_texts_say_only_what_holds_of_the_japanese_text():
    """Finding 6: Mistral v1 holds pieces of two CJK characters (数据, 获取, 一个): 'never joins' was false."""
    doc = _docstring_after(sentencepiece_states, "MISTRAL_TEXTS")
    assert "never joins" not in doc, doc
    from bpelab import load_sentencepiece

    japanese = next(text for text in sentencepiece_states.MISTRAL_TEXTS if "東京" in text)
    pieces = load_sentencepiece("mistral_v1").encode_as_pieces(japanese)
    assert all(len(piece.lstrip("▁")) <= 1 for piece in pieces), pieces  # what the docstring now says
    assert "one piece each" in doc, doc
