"""Lesson 05's ``check_decode_words``: right answers pass, typical mistakes are named, nothing raises."""

from __future__ import annotations

import re

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
    while words and not words[-1]:  # an empty word at the end leaves no space (lesson 05 says so)
        words.pop()
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


def drop_last_character(symbols):
    # the text always ends with the last word's marker turned into a space... unless the last word is unfinished
    return "".join(symbols).replace("</w>", " ")[:-1]


def finished_words_only(symbols):
    words, current = [], ""
    for symbol in symbols:
        current += symbol
        if symbol.endswith("</w>"):
            words.append(current[: -len("</w>")])
            current = ""
    return " ".join(words)  # the pieces after the last marker are lost


@pytest.mark.parametrize(
    "wrong, failing, hint",
    [
        (drop_last_character, "decode_words(['s', 'low'])", "cut off the last character"),
        (finished_words_only, "decode_words(['s', 'low'])", "the last word has no '</w>'"),
        (lambda s: (x.replace("</w>", " ") for x in s), "decode_words(['low', '</w>'])", "''.join("),
    ],
    ids=["[:-1]", "finished words only", "a generator"],
)
def test_a_last_word_without_its_marker_is_kept_and_the_bug_named(capsys, wrong, failing, hint):
    assert not check_decode_words(wrong, record=False)
    report = capsys.readouterr().out
    assert failing in report, report
    assert hint in report.split("hint:", 1)[1], report
    assert "list(...)" not in report, report


def drop_one_end_space(symbols):
    # the lesson's rule read as "remove the one space after the last word"
    return "".join(symbols).replace("</w>", " ").removesuffix(" ")


def as_the_lesson_states_it(symbols):
    """Written from lesson 05's words alone, without bpelab: each '</w>' a space, then no space at the very end."""
    text = ""
    for symbol in symbols:
        text += symbol.replace("</w>", " ")
    while text.endswith(" "):
        text = text[:-1]
    return text


def test_an_empty_word_at_the_end_leaves_no_space_as_the_lesson_says(capsys):
    assert check_decode_words(as_the_lesson_states_it, record=False)
    capsys.readouterr()
    assert not check_decode_words(drop_one_end_space, record=False)
    report = capsys.readouterr().out
    assert "decode_words(['low</w>', '</w>'])" in report and "expected: 'low'" in report, report
    assert "a '</w>' alone at the end (an empty word) leaves another" in report.split("hint:", 1)[1], report


def test_spaces_dropped_at_the_start_are_named(capsys):
    assert not check_decode_words(lambda s: "".join(s).replace("</w>", " ").lstrip(" "), record=False)
    report = capsys.readouterr().out
    assert "at the START of the text (.lstrip)" in report.split("hint:", 1)[1], report


@pytest.mark.parametrize(
    "wrong",
    [
        lambda s: re.sub(" +", " ", "".join(s).replace("</w>", " ")).rstrip(" "),
        lambda s: "".join(s).replace("</w>", " ").replace("  ", " ").rstrip(" "),
    ],
    ids=["re.sub", "replace two spaces"],
)
def test_collapsing_the_space_of_an_empty_word_is_rejected_and_named(capsys, wrong):
    assert not check_decode_words(wrong, record=False)
    report = capsys.readouterr().out
    assert "decode_words(['low</w>', '</w>', 'x</w>'])" in report, report
    assert "you made a run of spaces into one" in report.split("hint:", 1)[1], report


def test_dropping_empty_words_gets_its_own_hint(capsys):
    assert not check_decode_words(lambda s: " ".join(w for w in "".join(s).split("</w>") if w), record=False)
    hint = capsys.readouterr().out.split("hint:", 1)[1]
    assert "you dropped the empty words" in hint and "BOTH ends" not in hint, hint


def test_the_general_hint_drops_every_space_at_the_end(capsys):
    assert not check_decode_words(lambda s: "?" + "".join(s), record=False)
    assert "drop every space at the very end" in capsys.readouterr().out


def test_a_decoder_that_reads_each_symbols_end_passes_as_lesson_05_says(capsys):
    """Lesson 05 says a decoder that reads the marker at each symbol's end tells a typed '</w>' from the marker
    and that the exercise accepts it: ['see</w>', 'a', '<', '/', 'w', '>', 'b</w>'] gives 'see a</w>b'."""
    assert written_independently(["see</w>", "a", "<", "/", "w", ">", "b</w>"]) == "see a</w>b"
    assert check_decode_words(written_independently, record=False)


def drop_a_lone_last_marker_then_one_space(symbols):
    """A learner's fix for ['low</w>', '</w>']: drop one '</w>' alone at the end, then one space. Two empty words
    at the end leave a space behind (['low</w>', '</w>', '</w>'] -> 'low ')."""
    if symbols and symbols[-1] == "</w>":
        symbols = symbols[:-1]
    text = "".join(symbols).replace("</w>", " ")
    return text[:-1] if text.endswith(" ") else text


@pytest.mark.parametrize(
    "wrong",
    [
        drop_a_lone_last_marker_then_one_space,
        lambda s: "".join(s).replace("</w>", " ").removesuffix(" ").removesuffix(" "),
    ],
    ids=["lone last marker, then one space", "two spaces, one at a time"],
)
def test_a_decoder_that_drops_only_one_or_two_end_spaces_is_rejected_and_named(capsys, wrong):
    assert wrong(["low</w>", "</w>", "</w>"]) == "low "  # the wrong answer, as a learner's decoder gives it
    assert not check_decode_words(wrong, record=False)
    report = capsys.readouterr().out
    assert "'</w>', '</w>'" in report.split("expected:", 1)[0], report  # a case with several markers at the end
    hint = report.split("hint:", 1)[1]
    assert "several '</w>' alone at the end" in hint and ".rstrip(' ')" in hint, hint


def test_hints_and_the_input_line_use_the_learners_name(capsys):
    """Lesson 05's stubs are my_decode_words and my_encode_word: the report names those, not the package's."""
    from bpelab.exercises.word_encoding import check_encode_word

    assert not check_decode_words(lambda s: (x for x in s), record=False)
    report = capsys.readouterr().out
    assert "input:    my_decode_words(" in report and "my_decode_words returns one string" in report, report
    assert not check_encode_word(lambda word, merges: [*word, "</w>"], record=False)
    report = capsys.readouterr().out
    assert "input:    my_encode_word(" in report, report
