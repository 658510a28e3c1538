"""Read 22 (lessons 05-07): a learner who reads the lesson's global tokenizer (tok.vocab, cl100k.ranks) instead of the
function's own parameter was told to do what the code already did ("join the bytes first"). A parameter the function
never reads is named, with the global it reads instead."""

from __future__ import annotations

import sys

import pytest

from bpelab import BPETokenizer
from bpelab.exercises.byte_level import check_build_vocab, check_decode_ids
from bpelab.exercises.running import unread_parameters

tok = BPETokenizer().train("a lesson's text, café and more café " * 4, 270)


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def test_decode_ids_through_the_global_tokenizer_is_named(capsys):
    def decode_ids(vocab, ids):
        return b"".join(tok.vocab[i] for i in ids).decode("utf-8", errors="replace")

    assert not check_decode_ids(decode_ids, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "never reads its parameter `vocab`" in hint and "`tok`" in hint, hint


def test_decode_through_the_global_s_method_is_the_course_s_own(capsys):
    def decode_ids(vocab, ids):
        return tok.decode(ids)

    assert not check_decode_ids(decode_ids, record=False).passed
    assert "handed the course's own" in _hint(capsys.readouterr().out)


def test_build_vocab_from_the_global_merges_is_named(capsys):
    def build_vocab(merges):
        vocab = {i: bytes([i]) for i in range(256)}
        for (a, b), new in tok.merges.items():
            vocab[new] = vocab[a] + vocab[b]
        return vocab

    assert not check_build_vocab(build_vocab, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "never reads its parameter `merges`" in hint and "`tok`" in hint, hint


def _reads_all(vocab, ids):
    return [vocab[i] for i in ids]


def _reads_in_a_lambda(vocab, ids):
    return list(map(lambda i: vocab[i], ids))


def _reads_in_a_generator(vocab, ids):
    return b"".join(vocab[i] for i in ids)


def _reads_in_a_nested_function(vocab, ids):
    def one(i):
        return vocab[i]

    return [one(i) for i in ids]


def _reads_two_at_once(vocab, ids):
    return vocab, ids  # 3.13 loads the two with one instruction


def _leaves_one(vocab, ids):
    return [i for i in ids]


def _leaves_one_it_names_with_underscore(_vocab, ids):
    return list(ids)


def _uses_locals(vocab, ids):
    return locals()["vocab"]


@pytest.mark.parametrize(
    ("fn", "unread"),
    [
        (_reads_all, ()),
        (_reads_in_a_lambda, ()),
        (_reads_in_a_generator, ()),
        (_reads_in_a_nested_function, ()),
        (_reads_two_at_once, ()),
        (_leaves_one, ("vocab",)),
        (_leaves_one_it_names_with_underscore, ()),
        (_uses_locals, ()),
        (print, ()),
        (lambda *args: None, ()),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)),
)
def test_unread_parameters(fn, unread):
    assert unread_parameters(fn) == unread, sys.version


def test_a_method_s_self_is_not_counted():
    class Decoder:
        def decode_ids(self, vocab, ids):
            return [vocab[i] for i in ids]

    assert unread_parameters(Decoder().decode_ids) == ()


def test_an_int_past_python_s_digit_limit_is_shown_by_its_length():
    """Read 22 (lesson 11): an int over 4,300 digits has no repr on Python 3.11+, and the report of a case with one
    made the checker fail ("the checker itself failed")."""
    from bpelab.exercises.showing import short

    assert short(10**100000 - 1) == "an int of 100,000 digits"
    assert short(10**100000) == "an int of 100,001 digits"
    assert short(-(10**5000)) == "-an int of 5,001 digits"
    assert short([10**9999]) == "[an int of 10,000 digits]"
    assert short(10**4000) == repr(10**4000)


def test_a_forgotten_step_keeps_the_exercise_s_own_hint(capsys):
    """A parameter left unread with no global read instead (the division by the text's bytes forgotten) is named
    by the exercise's hint, which says what to do with it."""
    import math

    from bpelab.exercises.fair_comparisons import check_bits_per_byte

    assert not check_bits_per_byte(lambda p, t: -sum(math.log2(x) for x in p), record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "never reads" not in hint and "len(text.encode('utf-8'))" in hint, hint
