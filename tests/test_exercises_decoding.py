"""Lesson 05's ``check_decode_words``: right answers pass, typical mistakes are named, nothing raises."""

from __future__ import annotations

import pytest

from bpelab.exercises.decoding import check_decode_words


def written_independently(symbols):
    """A correct decoder that never calls bpelab: words end where a symbol ends with the marker."""
    words, current = [], ""
    for symbol in symbols:
        if symbol.endswith("</w>"):
            words.append(current + symbol[: -len("</w>")])
            current = ""
        else:
            current += symbol
    if current:
        words.append(current)
    return " ".join(words)


def test_a_correct_decoder_passes(capsys):
    assert check_decode_words(written_independently)
    assert capsys.readouterr().out.startswith("✅ decode_words: all")


def test_an_unfinished_stub_is_not_yet(capsys):
    def stub(symbols):
        # your code here
        ...

    result = check_decode_words(stub)
    assert not result and result.status == "not yet"
    assert capsys.readouterr().out.startswith("⏳ decode_words: not yet")


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda s: "".join(s), "still in the text"),
        (lambda s: "".join(s).replace("</w>", ""), "run together"),
        (lambda s: "".join(s).replace("</w>", " "), "after the last word"),
        (lambda s: " ".join(s).replace("</w>", "").strip(), "space between every two symbols"),
        (lambda s: list(s), "not a list"),
    ],
)
def test_typical_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_decode_words(wrong)
    report = capsys.readouterr().out
    assert report.startswith("❌ decode_words") and hint in report


def test_a_crashing_decoder_is_reported_not_raised(capsys):
    def crashes(symbols):
        return symbols[10]  # IndexError on short inputs

    assert not check_decode_words(crashes)
    assert "IndexError" in capsys.readouterr().out
