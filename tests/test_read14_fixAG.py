"""Lessons 05 and 07, fourteenth fresh read (fixAG): wrong answers the checkers passed or misnamed, cells that read
the live widget, and the fancy-regex prose."""

from __future__ import annotations

import re

import pytest

from bpelab.exercises.decoding import DECODE_WORDS, check_decode_words
from bpelab.exercises.word_encoding import ENCODE_WORD, check_encode_word
from tests.shown_solutions import shown_solution


def _hint(result) -> str:
    return next(line for line in result.message.splitlines() if line.strip().startswith("hint:"))


def _encode_reference():
    return shown_solution("05", "cell-10", "my_encode_word")


def _decode_reference():
    return shown_solution("05", "cell-25", "my_decode_words")


# ---- finding 1: a merge by a regex built from the pair without re.escape ----------------------------------------


def encode_word_unescaped_regex(word, merges):
    """The learner's: the pair as a regex between whitespace boundaries, the symbols not escaped."""
    symbols = list(word) + ["</w>"]
    for (a, b), _new in merges:
        symbols = re.sub(rf"(?<!\S){a} {b}(?!\S)", a + b, " ".join(symbols)).split(" ")
    return symbols


def encode_word_unescaped_plain(word, merges):
    """The learner's: `pattern = a + " " + b` with re.sub on the spelled word (no boundaries, no escaping)."""
    symbols = list(word) + ["</w>"]
    for (a, b), _new in merges:
        pattern = a + " " + b
        symbols = re.sub(pattern, a + b, " ".join(symbols)).split(" ")
    return symbols


def encode_word_escaped_regex(word, merges):
    """The same regex with re.escape (and the replacement given as a function, so no escape in it is read)."""
    symbols = list(word) + ["</w>"]
    for (a, b), new in merges:
        pattern = rf"(?<!\S){re.escape(a)} {re.escape(b)}(?!\S)"
        symbols = re.sub(pattern, lambda _match, new=new: new, " ".join(symbols)).split(" ")
    return symbols


def _special_cases():
    return [c for c in ENCODE_WORD.cases() if any(set(x) & set(".()+?*\\") for (a, b), _ in c.args[1] for x in (a, b))]


def test_the_checker_holds_cases_whose_merges_hold_regex_special_symbols():
    reference = _encode_reference()
    cases = _special_cases()
    assert cases
    wrong = 0
    for case in cases:
        word, merges = case.args
        expected = reference(word, merges)
        assert encode_word_escaped_regex(word, merges) == expected, case
        try:
            wrong += encode_word_unescaped_regex(word, merges) != expected
        except re.error:
            wrong += 1
    assert wrong >= 2


def test_an_unescaped_regex_merge_fails_and_is_told_re_escape():
    result = check_encode_word(encode_word_unescaped_regex, record=False)
    assert not result.passed, result.message
    assert "re.escape" in _hint(result), result.message


def test_an_unescaped_plain_pattern_fails_and_is_told_both_bugs():
    result = check_encode_word(encode_word_unescaped_plain, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "re.escape" in hint and "inside longer symbols" in hint, result.message


def test_the_escaped_regex_merge_passes():
    assert check_encode_word(encode_word_escaped_regex, record=False).passed


# ---- finding 2: a merge step that skips a match, repeated until nothing changes --------------------------------


def encode_word_padded_replace_repeated(word, merges):
    text = " " + " ".join(list(word) + ["</w>"]) + " "
    for (a, b), new in merges:
        while True:
            replaced = text.replace(f" {a} {b} ", f" {new} ")
            if replaced == text:
                break
            text = replaced
    return text.split()


def encode_word_two_steps_repeated(word, merges):
    symbols = list(word) + ["</w>"]
    for (a, b), new in merges:
        changed = True
        while changed:
            changed = False
            i = 0
            while i < len(symbols) - 1:
                if symbols[i] == a and symbols[i + 1] == b:
                    symbols[i : i + 2] = [new]
                    changed = True
                    i += 2
                else:
                    i += 1
    return symbols


def test_runs_of_equal_symbols_tell_the_repeated_skipping_step_apart():
    reference = _encode_reference()
    runs = [c for c in ENCODE_WORD.cases() if set(c.args[0]) == {"a"} and len(c.args[0]) >= 5]
    assert runs
    for wrong in (encode_word_padded_replace_repeated, encode_word_two_steps_repeated):
        assert any(wrong(*c.args) != reference(*c.args) for c in runs), wrong
    assert reference("aaaaa", [(("a", "a"), "aa")]) == ["aa", "aa", "a", "</w>"]
    assert encode_word_two_steps_repeated("aaaaa", [(("a", "a"), "aa")]) == ["aa", "a", "aa", "</w>"]


@pytest.mark.parametrize("wrong", [encode_word_padded_replace_repeated, encode_word_two_steps_repeated])
def test_a_skipping_merge_repeated_until_nothing_changes_fails_with_its_hint(wrong):
    result = check_encode_word(wrong, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "until nothing changed" in hint and "once" in hint, result.message


def test_the_lessons_encode_word_still_passes():
    assert check_encode_word(_encode_reference(), record=False).passed


# ---- finding 3: re.sub(' +$', '', text) drops spaces before a line break ----------------------------------------


def decode_words_dollar(symbols):
    return re.sub(" +$", "", "".join(symbols).replace("</w>", " "))


def decode_words_dollar_multiline(symbols):
    return re.sub(" +$", "", "".join(symbols).replace("</w>", " "), flags=re.M)


def test_the_reference_keeps_spaces_before_a_line_break():
    reference = _decode_reference()
    assert reference(["end</w>", "\n"]) == "end \n"
    assert decode_words_dollar(["end</w>", "\n"]) == "end\n"
    assert reference(["one</w>", "\nline</w>", "two</w>"]) == "one \nline two"
    assert decode_words_dollar_multiline(["one</w>", "\nline</w>", "two</w>"]) == "one\nline two"
    cases = [c.args for c in DECODE_WORDS.cases()]
    for wrong in (decode_words_dollar, decode_words_dollar_multiline):
        assert any(wrong(*args) != reference(*args) for args in cases), wrong


@pytest.mark.parametrize("wrong", [decode_words_dollar, decode_words_dollar_multiline])
def test_dollar_at_a_line_break_fails_with_its_hint(wrong):
    result = check_decode_words(wrong, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "$" in hint and "line break" in hint and r"\Z" in hint, result.message


def test_the_lessons_decode_words_still_passes():
    assert check_decode_words(_decode_reference(), record=False).passed


# ---- finding 4: cells that read the live explorer -----------------------------------------------------------------

import contextlib  # noqa: E402
import io  # noqa: E402

import nbformat  # noqa: E402

from tests.shown_solutions import lesson_path  # noqa: E402


def _cell(lesson: str, cell_id: str) -> str:
    return next(c.source for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id)


def _run(source: str, namespace: dict) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, namespace)
    return out.getvalue()


def test_lesson_05_prints_the_family_under_the_english_tokenizer_and_keeps_the_learners_explorer():
    from bpelab import split_text, train_bpe
    from bpelab.widgets import EncodeExplorer

    words = r"\w+|[^\w\s]+"
    namespace = {
        "EncodeExplorer": EncodeExplorer,
        "split_text": split_text,
        "WORDS": words,
        # a small stand-in for the lesson's English tokenizer: the cells only need a word-level tokenizer
        "english": train_bpe("low lower newest widest the slowest", 20),
        "toy": train_bpe("low lower", 5),
    }
    _run(_cell("05", "cell-35"), namespace)
    explorer = namespace["explorer"]
    explorer.text = "my own text"  # what the learner typed
    explorer.tokenizer_name = "GPT-2 (r50k_base)"  # what the learner chose
    printed_37 = _run(_cell("05", "cell-37"), namespace)
    printed = _run(_cell("05", "e05-family-code"), namespace)
    assert explorer.text == "my own text" and explorer.tokenizer_name == "GPT-2 (r50k_base)"
    assert "my own text" not in printed_37 and "slow" in printed_37
    report = printed.splitlines()[2:]
    assert report[0].startswith("EncodeExplorer (your word-level BPE (English, 1000 merges)): 14 tokens"), printed
    assert "U+200D ZERO WIDTH JOINER" in report[1], printed


def test_lesson_07_builds_kubernetes_under_gpt4o_whatever_the_explorer_shows():
    from bpelab.production import load_encoding
    from bpelab.widgets import EncodeExplorer

    word = " Kubernetes"
    encodings = {name: load_encoding(name) for name in ("o200k_base", "r50k_base")}
    namespace = {"word": word, "encodings": encodings, "EncodeExplorer": EncodeExplorer}
    _run(_cell("07", "3f0406ed"), namespace)
    fresh = _run(_cell("07", "cd7a6b67"), dict(namespace))
    explorer = namespace["explorer"]
    explorer.tokenizer_name = "GPT-2 (r50k_base)"
    explorer.text = "hello world"
    namespace_after = dict(namespace)
    after = _run(_cell("07", "cd7a6b67"), namespace_after)
    assert after == fresh
    assert namespace_after["kube"].token == word.encode()
    assert explorer.text == "hello world" and explorer.tokenizer_name == "GPT-2 (r50k_base)"


# ---- finding 5: split_pieces run line by line ----------------------------------------------------------------------

import regex  # noqa: E402

from bpelab.exercises.real_tokenizers import check_split_pieces  # noqa: E402


def split_pieces_lines_lost(text, pattern):
    return [piece for line in text.split("\n") for piece in regex.findall(pattern, line)]


def split_pieces_lines_put_back(text, pattern):
    pieces = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        pieces += regex.findall(pattern, line)
        if i < len(lines) - 1:
            pieces.append("\n")
    return pieces


@pytest.mark.parametrize(
    ("wrong", "said"), [(split_pieces_lines_lost, "lost"), (split_pieces_lines_put_back, "pieces of their own")]
)
def test_splitting_lines_first_is_told_what_it_did(wrong, said, capsys):
    result = check_split_pieces(wrong, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "text.split('\\n')" in hint and said in hint, hint
    assert "slices" not in hint and "regex.split(r'(\\s+)'" not in hint, hint


def test_the_whole_text_split_still_passes():
    assert check_split_pieces(lambda text, pattern: regex.findall(pattern, text), record=False).passed


# ---- finding 6: what sends a pattern to fancy-regex's backtracking VM ---------------------------------------------


def test_lesson_07_lists_what_fancy_regex_marks_hard_with_its_source_lines():
    prose = _cell("07", "7ba78969")
    for construct in (
        "`\\K` (343)",
        "`\\G` (347)",
        "`\\R` (197)",
        "backtracking-control verb",
        "conditional",
        "`\\b` and `\\B`",
        "`\\Z`",
        "possessive quantifier",
        "atomic group (line 339)",
        "lookaround such as `(?!\\S)` (line 270)",
        "lines 2509–2522",
        "commit e8d6986",
    ):
        assert construct in prose, construct
    assert "only when the pattern holds a lookaround" not in prose
