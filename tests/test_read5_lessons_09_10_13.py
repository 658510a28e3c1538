"""Wrong answers a fifth fresh reader wrote for the checkers of lessons 09 and 10, each refused now: a UTF-8 byte count
written by hand with the range ends one off, a ratio that is 0.0 for a single character, texts stripped of their
new lines, a premium whose `reference` has no default (or another one), a premium that skips sentences of spaces, a
room for the answer counted paragraph by paragraph. And the check cells of lessons 09, 10 and 13 say what to do
when they run before their exercise cell (a fresh kernel), instead of raising NameError."""

from __future__ import annotations

import nbformat
import pytest
import tiktoken

from bpelab.exercises.practice import check_bytes_per_char, check_premium, check_room_for_answer
from bpelab.exercises.toy_encoders import count_o200k_tokens, encodings_let_go_after


def hint_of(capsys) -> str:
    out = capsys.readouterr().out
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


# ---- lesson 09: bytes_per_char ---------------------------------------------------------------------------------


def _by_hand(texts, upper_limits, inclusive):
    """Bytes counted from the code point with hand-written limits (1, 2, 3 bytes below them, 4 above)."""

    def n_bytes(ch):
        o = ord(ch)
        for size, limit in enumerate(upper_limits, start=1):
            if (o <= limit) if inclusive else (o < limit):
                return size
        return 4

    chars = sum(len(t) for t in texts)
    return sum(n_bytes(ch) for t in texts for ch in t) / chars if chars else 0.0


def ends_left_out(texts):
    """`1 if o < 0x7F else 2 if o < 0x7FF else 3 if o < 0xFFFF else 4`: the last code point of each range is one off."""
    return _by_hand(texts, (0x7F, 0x7FF, 0xFFFF), inclusive=False)


def next_range_let_in(texts):
    """`1 if o <= 0x80 else 2 if o <= 0x800 else 3 if o <= 0x10000 else 4`: the first code point of the next range is
    one off."""
    return _by_hand(texts, (0x80, 0x800, 0x10000), inclusive=True)


def the_right_limits(texts):
    """`1 if o <= 0x7F else 2 if o <= 0x7FF else 3 if o <= 0xFFFF else 4`: the UTF-8 rule, written by hand."""
    return _by_hand(texts, (0x7F, 0x7FF, 0xFFFF), inclusive=True)


def nothing_for_one_character(texts):
    b, c = sum(len(t.encode("utf-8")) for t in texts), sum(len(t) for t in texts)
    return b / c if c > 1 else 0.0


def new_lines_stripped(texts):
    texts = [t.rstrip("\n") for t in texts]
    return sum(len(t.encode("utf-8")) for t in texts) / sum(len(t) for t in texts)


def test_the_boundary_characters_take_the_bytes_python_says():
    """The six characters at the edges of UTF-8's ranges, measured by Python (the independent count)."""
    sizes = {ch: len(ch.encode("utf-8")) for ch in "\x7f\x80\u07ff\u0800\uffff\U00010000"}
    assert list(sizes.values()) == [1, 2, 2, 3, 3, 4]
    assert the_right_limits(["\x7f\x80\u07ff\u0800\uffff\U00010000"]) == 15 / 6


@pytest.mark.parametrize("wrong", [ends_left_out, next_range_let_in])
def test_a_byte_count_by_hand_one_off_at_a_range_edge_is_refused(wrong, capsys):
    result = check_bytes_per_char(wrong, record=False)
    assert not result.passed
    assert "U+0080" in hint_of(capsys)


def test_the_byte_count_by_hand_with_the_right_limits_passes():
    assert check_bytes_per_char(the_right_limits, record=False).passed


def test_a_ratio_of_zero_for_a_single_character_is_refused(capsys):
    assert not check_bytes_per_char(nothing_for_one_character, record=False).passed
    assert "one character" in hint_of(capsys)


def test_texts_stripped_of_their_new_lines_are_refused(capsys):
    assert not check_bytes_per_char(new_lines_stripped, record=False).passed
    assert "new line" in hint_of(capsys)


# ---- lesson 09: premium ----------------------------------------------------------------------------------------


def _total(texts, encode):
    return sum(len(encode(t)) for t in texts)


def premium_without_default(texts_by_language, encode, language, reference):
    return _total(texts_by_language[language], encode) / _total(texts_by_language[reference], encode)


def premium_against_german(texts_by_language, encode, language, reference="de"):
    return _total(texts_by_language[language], encode) / _total(texts_by_language[reference], encode)


def premium_skipping_spaces(texts_by_language, encode, language, reference="en"):
    def total(texts):
        return sum(len(encode(t)) for t in texts if t.strip())

    return total(texts_by_language[language]) / total(texts_by_language[reference])


@pytest.mark.parametrize("wrong", [premium_without_default, premium_against_german])
def test_a_premium_whose_reference_is_not_english_by_default_is_refused(wrong, capsys):
    assert not check_premium(wrong, record=False).passed
    assert "reference='en'" in hint_of(capsys)


def test_a_premium_that_skips_sentences_of_spaces_is_refused(capsys):
    assert not check_premium(premium_skipping_spaces, record=False).passed
    assert "only spaces" in hint_of(capsys)


def test_a_sentence_of_spaces_costs_tokens():
    """o200k and cl100k both give a sentence of three spaces at least one token (tiktoken, independent)."""
    for name in ("cl100k_base", "o200k_base"):
        assert len(tiktoken.get_encoding(name).encode("   ")) >= 1


# ---- lesson 10: room_for_answer --------------------------------------------------------------------------------


def room_by_paragraphs(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system) - sum(count_tokens(p) for p in user.split("\n\n")))


def test_hello_world_in_two_paragraphs_costs_more_whole_than_in_parts():
    """tiktoken (independent of the course's counter): the blank line between the paragraphs is a token."""
    enc = tiktoken.get_encoding("o200k_base")
    assert len(enc.encode("Hello\n\nWorld")) > len(enc.encode("Hello")) + len(enc.encode("World"))
    with encodings_let_go_after("o200k_base"):
        assert count_o200k_tokens("Hello\n\nWorld") == len(enc.encode("Hello\n\nWorld"))


def test_a_room_counted_paragraph_by_paragraph_is_refused(capsys):
    assert not check_room_for_answer(room_by_paragraphs, record=False).passed
    assert "count the user's message whole" in hint_of(capsys)


# ---- the notebooks' check cells ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lesson, name",
    [
        ("09_multilingual_tax", "bytes_per_char"),
        ("09_multilingual_tax", "premium"),
        ("10_tokens_in_practice", "estimate_cost"),
        ("10_tokens_in_practice", "room_for_answer"),
        ("10_tokens_in_practice", "tokens_saved"),
        ("13_your_tokenizer_for_real", "byte_level_text"),
    ],
)
def test_check_cells_say_to_run_the_exercise_cell_first(lesson, name, capsys):
    nb = nbformat.read(f"notebooks/{lesson}.ipynb", as_version=4)
    (source,) = [c.source for c in nb.cells if c.cell_type == "code" and f"check_{name}({name}" in c.source]
    exec(source, {})  # a fresh kernel: the exercise cell has not run, and nothing was imported
    assert f"{name} is not defined yet: run the exercise cell above" in capsys.readouterr().out
