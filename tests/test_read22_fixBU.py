"""Read 22 (lessons 05-07): encode_word spelled from word.strip() passed every check, though a word of a text split
on spaces only keeps its line break ('end\\n'); decode_ids with one U+FFFD per bad byte, and bytes(ids), were told
only "join the bytes first"; the build panel wrote an invisible token (U+200D) as nothing."""

from __future__ import annotations

from bpelab.exercises.byte_level import check_decode_ids
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.words import merge_symbols


def encode_word_stripped(word, merges):
    symbols = tuple(word.strip()) + ("</w>",)
    for (a, b), _ in merges:
        symbols = merge_symbols(symbols, (a, b))
    return list(symbols)


def test_a_stripped_word_is_refused_and_the_strip_named() -> None:
    result = check_encode_word(encode_word_stripped, record=False)
    assert not result.passed
    assert "strip" in result.message and "'\\n'" in result.message, result.message


def decode_ids_one_per_byte(vocab, ids):
    data = b"".join(vocab[i] for i in ids)
    text, i = "", 0
    while i < len(data):
        for n in (1, 2, 3, 4):
            try:
                text += data[i : i + n].decode("utf-8")
                i += n
                break
            except UnicodeDecodeError:
                pass
        else:
            text += "\ufffd"
            i += 1
    return text


def test_one_replacement_per_bad_byte_is_named() -> None:
    result = check_decode_ids(decode_ids_one_per_byte, record=False)
    assert not result.passed
    assert "maximal" in result.message and "per byte" in result.message, result.message


def decode_ids_as_byte_values(vocab, ids):
    return bytes(ids).decode("utf-8", errors="replace")


def test_ids_read_as_byte_values_are_named() -> None:
    result = check_decode_ids(decode_ids_as_byte_values, record=False)
    assert not result.passed
    assert "above 255" in result.message and "vocab[i]" in result.message, result.message


def test_an_invisible_token_is_named_in_the_build_text() -> None:
    from bpelab.production import load_encoding
    from bpelab.widgets.token_build_view import build_for, build_lines, build_text
    from tests.test_token_build_view import lines_in_js

    o200k = load_encoding("o200k_base")
    zwj = "\u200d".encode()
    (token_id,) = o200k.encode_ordinary("\u200d")
    text = build_text(build_for(o200k, token_id, zwj), "GPT-4o")
    assert text.splitlines()[0].startswith("How U+200D ZERO WIDTH JOINER was built (GPT-4o)"), text
    assert "→ U+200D ZERO WIDTH JOINER (rank" in text, text
    assert "\u200d" not in text, text
    build = build_for(o200k, token_id, zwj)
    assert lines_in_js([(build.as_dict(), "GPT-4o")]) == [build_lines(build, "GPT-4o")]
