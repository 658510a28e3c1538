"""Lesson 16's eighth fresh read: wrong answers its checkers accepted, and hints that named another bug."""

from __future__ import annotations

import math
import unicodedata

import pytest

from bpelab.exercises.sentencepiece import check_byte_fallback, check_next_merge


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _best_by_default(default: float):
    def next_merge(symbols, scores):
        if len(symbols) < 2:
            return None
        best = max(range(len(symbols) - 1), key=lambda i: scores.get(symbols[i] + symbols[i + 1], default))
        return best if symbols[best] + symbols[best + 1] in scores else None

    return next_merge


@pytest.mark.parametrize("default", [-2e9, -1e10, -1e18])
def test_a_default_score_for_a_missing_piece_is_rejected_and_named(default, capsys):
    assert not check_next_merge(_best_by_default(default), record=False).passed
    assert "scores.get(piece, ...)" in _hint(capsys.readouterr().out)


def test_a_default_of_minus_infinity_is_rejected_and_named(capsys):
    """Once thought right, now rejected (fixL): a piece may score -inf too (a hand-edited model), and sentencepiece
    0.2.0 to 0.2.3 merge it; the max then ties it with every pair that is no piece and keeps the first, so on
    (['x', 'a', 'b'], {'ab': -inf}) this answer gives None where the merge is at 1."""
    assert not check_next_merge(_best_by_default(float("-inf")), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "scores.get(piece, float('-inf'))" in hint and "ties" in hint, hint


def test_ranking_plus_zero_above_minus_zero_is_rejected():
    def next_merge(symbols, scores):
        best, key = None, None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or (scores[piece], math.copysign(1, scores[piece])) > key):
                best, key = i, (scores[piece], math.copysign(1, scores[piece]))
        return best

    assert not check_next_merge(next_merge, record=False).passed


@pytest.mark.parametrize("or_more", [True, False])
def test_returning_the_first_pair_scoring_zero_is_named(or_more, capsys):
    def next_merge(symbols, scores):
        best = None
        for i in range(len(symbols) - 1):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores:
                if (scores[piece] >= 0) if or_more else (scores[piece] == 0):
                    return i
                if best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]:
                    best = i
        return best

    assert not check_next_merge(next_merge, record=False).passed
    assert "first pair scoring 0" in _hint(capsys.readouterr().out)


def test_scanning_from_the_right_is_named(capsys):
    def next_merge(symbols, scores):
        best = None
        for i in reversed(range(len(symbols) - 1)):
            piece = symbols[i] + symbols[i + 1]
            if piece in scores and (best is None or scores[piece] > scores[symbols[best] + symbols[best + 1]]):
                best = i
        return best

    assert not check_next_merge(next_merge, record=False).passed
    assert "right to left" in _hint(capsys.readouterr().out)


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_a_normalised_lookup_is_rejected_and_named(form, capsys):
    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if unicodedata.normalize(form, piece) in vocab:
                out.append(piece)
            else:
                out += [f"<0x{b:02X}>" for b in piece.encode("utf-8")]
        return out

    assert not check_byte_fallback(byte_fallback, record=False).passed
    assert f"normalize('{form}'" in _hint(capsys.readouterr().out)


def test_a_model_is_shared_while_held_and_let_go_after():
    """Lesson 16 held Mistral's v3 model (about 15 MB) to its end after one cell used it: a cache kept every model
    read for the kernel's life, and the lesson went over the memory budget. In a process of its own: another test
    file of the same pytest worker may hold the model (an exception's traceback does), which is no leak."""
    import subprocess
    import sys

    code = """if True:
        import gc
        from bpelab import sentencepiece
        from bpelab.sentencepiece import load_sentencepiece

        first = load_sentencepiece("mistral_v3")
        assert load_sentencepiece("mistral_v3") is first
        del first
        gc.collect()
        print([path for path in sentencepiece._LOADED if "v3" in path])
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("text", "named"), [(b"hello", "decode it first"), (42, "this is an int")])
def test_the_replay_names_a_text_of_another_type(text, named):
    from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
    from bpelab.sentencepiece import load_sentencepiece

    with pytest.raises(TypeError, match=named):
        replay_sentencepiece(load_sentencepiece("mistral_v1"), text)


def test_one_merge_is_said_in_the_singular():
    from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
    from bpelab.sentencepiece import load_sentencepiece

    summary = replay_sentencepiece(load_sentencepiece("mistral_v1"), "a").summary()  # ▁ + a
    assert summary.startswith("1 single merge,") and "1 stepper step" in summary and "steps" not in summary
