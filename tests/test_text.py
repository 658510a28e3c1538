"""Lesson 01's functions: counting bytes, and the character tokenizer."""

import pytest

from bpelab import CharTokenizer, byte_count


def test_byte_count_counts_utf8_bytes_by_hand():
    assert byte_count("hello") == {"chars": 5, "bytes": 5, "bytes_per_char": 1.0}
    assert byte_count("é") == {"chars": 1, "bytes": 2, "bytes_per_char": 2.0}
    assert byte_count("日本") == {"chars": 2, "bytes": 6, "bytes_per_char": 3.0}
    assert byte_count("👍") == {"chars": 1, "bytes": 4, "bytes_per_char": 4.0}
    assert byte_count("añb") == {"chars": 3, "bytes": 4, "bytes_per_char": 1.33}
    assert byte_count("") == {"chars": 0, "bytes": 0, "bytes_per_char": 0.0}


def test_char_tokenizer_round_trips_code_points():
    tok = CharTokenizer()
    assert tok.encode("hi 👍") == [104, 105, 32, 128077]
    assert tok.decode([104, 105, 32, 128077]) == "hi 👍"


def test_bad_input():
    with pytest.raises(ValueError, match="lone surrogate U\\+D800"):
        byte_count("a\ud800b")
    with pytest.raises(TypeError, match="must be a str"):
        byte_count(b"bytes")
    with pytest.raises(ValueError, match="not a code point"):
        CharTokenizer().decode([104, -1])
    with pytest.raises(TypeError, match="needs a str"):
        CharTokenizer().encode(None)
