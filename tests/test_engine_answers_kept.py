"""Two answers a checker saw as right when they came back, and yet wrong for anyone who keeps them.

1. A function that hands back the same list or dict at every call, emptied and filled again (a global cleared at
   the top, or a default argument ``out=[]`` with ``out.clear()``): each case passes as it runs, and a caller who
   keeps two answers finds both equal to the last. Lesson 16's fresh read 17 found check_byte_fallback accepting it.
2. An answer that holds itself (``d["me"] = d``): the report must name it, not say "the checker itself failed"
   (lesson 00: a checker does not crash because of your code). Lessons 00–04's fresh read 17."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import bpelab.exercises
from bpelab.exercises.core import EXERCISES
from bpelab.exercises.sentencepiece import check_byte_fallback
from bpelab.exercises.warmup import check_count_characters

for _module in pkgutil.iter_modules(bpelab.exercises.__path__):
    importlib.import_module(f"bpelab.exercises.{_module.name}")

SHARED_HINT = "hands back the same"


def test_a_global_dict_cleared_at_each_call_is_refused_and_named():
    counts: dict[str, int] = {}

    def count_characters(text):
        counts.clear()
        for ch in text:
            counts[ch] = counts.get(ch, 0) + 1
        return counts

    result = check_count_characters(count_characters, record=False)
    assert not result.passed and result.failed_case == 1
    assert SHARED_HINT in result.message and "out = {}" in result.message, result.message
    assert "checker itself failed" not in result.message


def test_a_default_list_cleared_at_each_call_is_refused_and_named():
    def byte_fallback(pieces, vocab, out=[]):  # noqa: B006 (the mistake under test)
        out.clear()
        for piece in pieces:
            if piece in vocab:
                out.append(piece)
            else:
                out.extend(f"<0x{b:02X}>" for b in piece.encode("utf-8"))
        return out

    result = check_byte_fallback(byte_fallback, record=False)
    assert not result.passed
    assert SHARED_HINT in result.message and "out = []" in result.message, result.message


def test_the_same_function_with_a_new_list_at_each_call_passes():
    def byte_fallback(pieces, vocab):
        out = []
        for piece in pieces:
            if piece in vocab:
                out.append(piece)
            else:
                out.extend(f"<0x{b:02X}>" for b in piece.encode("utf-8"))
        return out

    result = check_byte_fallback(byte_fallback, record=False)
    assert result.passed, result.message


def _holding_itself(kind: str):
    def answer(*args):
        if kind == "list":
            me: list = [1]
            me.append(me)
            return me
        mine: dict = {"a": 1}
        mine["me"] = mine
        return mine

    return answer


@pytest.mark.parametrize("kind", ["list", "dict"])
@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_an_answer_that_holds_itself_is_reported_by_every_checker(name, kind):
    result = EXERCISES[name].run(_holding_itself(kind), record=False)
    assert not result.passed
    assert "checker itself failed" not in result.message, result.message
