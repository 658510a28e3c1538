"""Lesson 16's fourteenth fresh read (fixAF): a next_merge that skips pieces enclosed in <...> or [...], one that skips
pairs whose left symbol has 16 characters or more, and byte_fallback's hint for a list carried over from call to call
given to an answer that puts '<s>' or '▁' in front of its output."""

from __future__ import annotations

import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge
from bpelab.exercises.sentencepiece_states import (
    MISTRAL_TEXTS,
    MIXED_LINES,
    MIXED_PIECES,
    _mixed_model,
    real_encoding_cases,
)
from bpelab.sentencepiece import load_sentencepiece, require_sentencepiece
from tests.lesson16_solutions import hint, shown_solution

SPACE = "\u2581"


# ---- finding 1: pieces enclosed in <...> or [...] skipped ----------------------------------------------------------


def skips_enclosed(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        piece = symbols[i] + symbols[i + 1]
        if piece.startswith("<") and piece.endswith(">") or piece.startswith("[") and piece.endswith("]"):  # noqa: RUF021 - as the learner wrote it
            continue
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_an_answer_skipping_enclosed_pieces_is_refused_with_its_hint(capsys):
    assert not check_next_merge(skips_enclosed, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "special token" in line and "'[]'" in line and "'<>'" in line, line


def test_mistral_merges_the_enclosed_pieces_in_a_case():
    """Some state's winning pair makes '[]', '<>' and '<?>', and sentencepiece keeps them whole."""
    spm = pytest.importorskip("sentencepiece")
    sp = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    text = next(t for t in MISTRAL_TEXTS if "<?>" in t)
    pieces = sp.encode_as_pieces(text)
    assert {"[]", "<>", "<?>"} <= set(pieces), pieces
    assert load_sentencepiece("mistral_v1").encode_as_pieces(text) == pieces
    won = set()
    for case in real_encoding_cases():
        symbols, _ = case.args
        if case.expected is not None:
            won.add(symbols[case.expected] + symbols[case.expected + 1])
    assert {"[]", "<>", "<?>"} <= won


# ---- finding 2: a left symbol of 16 characters or more never merges --------------------------------------------------


def skips_long_left(symbols, scores):
    best = None
    for i in range(len(symbols) - 1):
        if len(symbols[i]) >= 16:
            continue
        piece = symbols[i] + symbols[i + 1]
        if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
            best = i
    return best


def test_an_answer_skipping_long_left_symbols_is_refused_with_its_hint(capsys):
    assert not check_next_merge(skips_long_left, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "16" in line and "max_sentencepiece_length" in line and "left" in line, line


def test_the_permissive_model_holds_a_long_word_and_merges_onto_a_long_left_symbol():
    model = _mixed_model()
    long_words = [p for p in MIXED_PIECES if len(p) > 17 and p in model.mergeable]
    assert "▁internationalizations" in long_words
    assert any("internationalizations" in line.split() for line in MIXED_LINES)
    assert model.encode_as_pieces("internationalizations") == ["▁internationalizations"]
    assert model.encode_as_pieces("internationalization") == ["▁internationalization"]
    long_left = [
        case for case in real_encoding_cases() if case.expected is not None and len(case.args[0][case.expected]) >= 16
    ]
    assert long_left


# ---- finding 3: '<s>' or '▁' put in front is not a list carried over -------------------------------------------------


def with_bos(pieces, vocab):
    out = ["<s>"]
    for piece in pieces:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


def with_dummy_prefix(pieces, vocab):
    out = [SPACE]
    for piece in pieces:
        out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
    return out


@pytest.mark.parametrize(("answer", "added"), [(with_bos, "'<s>'"), (with_dummy_prefix, "'▁'")])
def test_a_piece_put_in_front_is_named_not_a_carried_over_list(answer, added, capsys):
    assert not check_byte_fallback(answer, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "out=[]" not in line and "calls before" not in line, line
    assert added in line and "in front" in line, line


def test_a_carried_over_list_is_still_named(capsys):
    def byte_fallback(pieces, vocab, out=[]):  # noqa: B006 - the mistake under test
        for piece in pieces:
            out += [piece] if piece in vocab else [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    assert not check_byte_fallback(byte_fallback, record=False).passed
    line = hint(capsys.readouterr().out)
    assert "out=[]" in line and "ONCE" in line, line


def test_the_shown_solutions_still_pass():
    assert check_next_merge(shown_solution("a16e0c01", "next_merge"), record=False).passed
    assert check_byte_fallback(shown_solution("a16e0c02", "byte_fallback"), record=False).passed


# ---- findings 4-6: the lesson's prose on training's words, the +0.0 pieces and an Inherited mark at a piece's start --


def _cells():
    import nbformat

    from tests.lesson16_solutions import LESSON

    return {cell.get("id"): cell for cell in nbformat.read(LESSON, as_version=4).cells}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _out(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def test_training_words_start_at_the_first_space_of_a_run():
    cells = _cells()
    table = _flat(cells["a16e0002"].source)
    assert "pieces between spaces" not in table and "cuts each sentence at whitespace" not in table
    assert "first `▁` of a run" in table and "model_interface.cc` lines 208–267" in table and "252–257" in table
    recap = _flat(cells["a16e002c"].source)
    assert "pieces between spaces" not in recap and "`▁▁▁▁def` is one word" in recap
    out = _out(cells["a16e0002cb"]).splitlines()
    assert len(out) == 2 and "'▁▁'" not in out[0] and "'▁▁'" in out[1], out


def test_the_pieces_at_plus_zero_are_named():
    cells = _cells()
    prose = _flat(cells["a16e0f01"].source)
    assert "only to its special pieces" not in prose and "256 byte pieces" in prose and "user-defined" in prose
    out = _out(cells["a16e0f02"])
    assert "'BYTE': 256" in out and "'USER_DEFINED': 1" in out, out


def test_an_inherited_mark_at_a_piece_s_start_has_any_script():
    cells = _cells()
    prose = _flat(cells["a16e001eb"].source)
    assert "right after its leading `▁`" in prose and "line 273" in prose
    assert "`̦β`" in prose and "'̦β'" in _out(cells["a16e0022"])
