"""Lesson 02's split_words checker: the reference (the `regex` module) and where Python's re parts from it, and
typical mistakes get their hint, whichever module the learner used."""

from __future__ import annotations

import re
import unicodedata

import pytest
import regex

from bpelab.exercises.pre_tokenization import SPLIT_WORDS, WORDS_AND_PUNCTUATION, check_split_words, split_words


def test_reference_on_hand_checked_examples():
    assert split_words("Hello, world!") == ["Hello", ",", "world", "!"]
    assert split_words("Wait... what?!") == ["Wait", "...", "what", "?!"]
    assert split_words("isn't") == ["isn", "'", "t"]
    assert split_words(" \t\n") == []


RE_PARTS_FROM_REGEX = {
    "नमस्ते",
    "می\u200cخواهم",
    "👩\u200d👩\u200d👧",
    "x² ½ ﬁne",
    "cafe\u0301",
    "Chapter Ⅻ. Ⓐbc",
    "a\x1cb c\x1fd",
    "snake‿case 🅐bc",
    "🄰bc corp 🅰ir",
}
"""The cases in which Python's `re` finds other pieces than the reference (the `regex` module): marks that combine
with a letter, the zero-width non-joiner and joiner (lesson 02, section 3b), and the numbers of category No
(² and ½), which are `\\w` for `re` but not for `regex`; the alphabetic symbols (Ⓐ), `\\w` for `regex` only; and
U+001C–U+001F, whitespace for `re`'s `\\s` (as for ``str.isspace``), not for `regex`'s; the connector ‿,
`\\w` for `regex` only; and the squared letters 🄰 and 🅰, alphabetic symbols too."""


def test_re_parts_from_the_reference_exactly_on_the_cases_that_try_it():
    for case in SPLIT_WORDS.build_cases():
        by_re = re.findall(WORDS_AND_PUNCTUATION, case.args[0])
        assert (by_re != case.expected) == (case.args[0] in RE_PARTS_FROM_REGEX), case.note


def test_a_correct_function_passes(capsys):
    assert check_split_words(lambda text: regex.findall(r"\w+|[^\w\s]+", text))
    assert "✅ split_words: all 22 checks passed." in capsys.readouterr().out


def test_the_stub_is_not_yet(capsys):
    def split_words(text):
        # your code here
        ...

    result = check_split_words(split_words)
    assert not result and result.status == "not yet"
    assert capsys.readouterr().out.startswith("⏳ split_words: not yet")


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda text: text.split(), "punctuation is still stuck to the words"),
        (lambda text: re.findall(r"\w+", text), "the punctuation is missing"),
        (lambda text: re.findall(r"\w+|[^\w\s]", text), "add + after [^\\w\\s]"),
        (lambda text: re.findall(r"\w+|\W+", text), "\\W also matches spaces"),
        (lambda text: re.findall(r"\w|[^\w\s]+", text), "every letter became its own piece"),
        (lambda text: [p.lower() for p in re.findall(r"\w+|[^\w\s]+", text)], "don't lowercase"),
        (lambda text: set(re.findall(r"\w+|[^\w\s]+", text)), "you returned a set"),
        (lambda text: sorted(set(re.findall(r"\w+|[^\w\s]+", text))), "the distinct pieces, sorted"),
        # issue 9 item 26: an English-letters-only pattern, and re.split instead of re.findall
        (lambda text: re.findall(r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+", text), "\\w matches a letter of any alphabet"),
        (lambda text: re.findall(r"[a-zA-Z]+|[^a-zA-Z\s]+", text), "only some characters as word characters"),
        (lambda text: re.findall(r"\w+|[^\w\s]+", text, re.ASCII), "with the ASCII flag"),
        (lambda text: re.split(r"\W+", text), "re.split returns what lies BETWEEN the matches"),
        (lambda text: re.split(r"(\W+)", text), "re.split returns what lies BETWEEN the matches"),
        (lambda text: re.split(r"\s+", text), "cuts at whitespace only"),
        # the same mistakes run by the regex module, as lesson 02 now shows it
        (lambda text: regex.findall(r"\w+", text), "the punctuation is missing"),
        (lambda text: regex.findall(r"\w+|[^\w\s]", text), "add + after [^\\w\\s]"),
        (lambda text: [p.lower() for p in regex.findall(r"\w+|[^\w\s]+", text)], "don't lowercase"),
        (lambda text: re.findall(r"\w+|[^\w\s]+", text), "Run \\w+|[^\\w\\s]+ itself with the regex module"),
        # review of lesson 02: the Unicode-category pattern, a normalised text, a pattern that keeps ZWJ sequences
        (
            lambda text: regex.findall(r"[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]+", text),
            "[\\p{L}\\p{N}_], which counts the same characters as re's \\w",
        ),
        (
            lambda text: regex.findall(r"\w+|[^\w\s]+", unicodedata.normalize("NFKC", text)),
            "normalised the text (NFKC)",
        ),
        (lambda text: regex.findall(r"\w+|[^\w\s]+", unicodedata.normalize("NFC", text)), "normalised the text (NFC)"),
        (
            lambda text: regex.findall(r"(?:\p{So}\u200d)+\p{So}|\w+|[^\w\s]+", text),
            "your split kept the zero-width joiner (U+200D) inside a piece",
        ),
        # fresh-eyes review of lessons 02 and 08: \w spelled from the letters, not Alphabetic; str.split first
        (
            lambda text: regex.findall(
                r"[\p{L}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\p{L}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\s]+", text
            ),
            "Alphabetic also holds Roman numerals such as Ⅻ and circled letters such as Ⓐ",
        ),
        (
            lambda text: [p for w in text.split() for p in regex.findall(r"\w+|[^\w\s]+", w)],
            "cut the text with text.split() first (str.split cuts there)",
        ),
    ],
)
def test_typical_mistakes_get_their_hint(wrong, hint, capsys):
    result = check_split_words(wrong)
    report = capsys.readouterr().out
    assert not result and result.status == "failed"
    assert hint in report, report


def test_a_generator_expression_is_not_called_yield(capsys):
    """(m for m in …) is a generator too, but the learner wrote no `yield`: name what they wrote."""
    result = SPLIT_WORDS.run(lambda text: (piece for piece in re.findall(WORDS_AND_PUNCTUATION, text)))
    assert not result.passed
    assert "`yield`" not in result.message, result.message
    assert "generator expression" in result.message and "square brackets" in result.message, result.message


def test_the_re_hint_says_re_counts_more_elsewhere():
    """re's \\w is not a subset of regex's: it counts ² (category No), which regex's \\w does not."""
    assert re.findall(r"\w+", "x²") == ["x²"] and regex.findall(r"\w+", "x²") == ["x"]
    (hint,) = [
        h for h in (diagnose_re(case) for case in SPLIT_WORDS.build_cases() if case.args[0] == "नमस्ते") if h is not None
    ]
    assert "² and ½ are \\w for re, not for regex" in hint


def diagnose_re(case):
    from bpelab.exercises.cases import Attempt
    from bpelab.exercises.diagnosers import first_hint

    wrong = re.findall(WORDS_AND_PUNCTUATION, case.args[0])
    history = [(c.args, re.findall(WORDS_AND_PUNCTUATION, c.args[0])) for c in SPLIT_WORDS.build_cases()]
    return first_hint(SPLIT_WORDS.diagnosers, Attempt(case.args, case.expected, wrong, None, lambda: history))


def test_a_pattern_that_keeps_joined_emoji_is_not_called_ascii_only(capsys):
    wrong = lambda text: regex.findall(r"(?:\p{So}\u200d)+\p{So}|\w+|[^\w\s]+", text)  # noqa: E731
    assert not check_split_words(wrong, record=False)
    assert "[A-Za-z]" not in capsys.readouterr().out


# ---- get_word_frequencies (lesson 02, exercise 2): leaks found in review ------------------------------------


def _table(words):
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return counts


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (  # splits on spaces, tabs and new lines by hand: '\r', '\f' and the no-break space stay inside words
            lambda text: _table(
                tuple(w) + ("</w>",) for w in text.replace("\n", " ").replace("\t", " ").split(" ") if w
            ),
            "any run of whitespace",
        ),
        (
            lambda text: _table(tuple(regex.findall(r"\X", w)) + ("</w>",) for w in text.split()),
            "regex's \\X, a grapheme",
        ),
    ],
)
def test_get_word_frequencies_mistakes_are_rejected_and_named(wrong, hint, capsys):
    from bpelab.exercises import check_get_word_frequencies

    assert not check_get_word_frequencies(wrong, record=False)
    assert hint in capsys.readouterr().out


def test_get_word_frequencies_counts_must_be_whole_numbers(capsys):
    from bpelab.exercises import check_get_word_frequencies

    def get_word_frequencies(text):
        counts = {}
        for word in text.split():
            key = tuple(word) + ("</w>",)
            counts[key] = counts.get(key, 0) + 1.0
        return counts

    result = check_get_word_frequencies(get_word_frequencies, record=False)
    out = capsys.readouterr().out
    assert not result and result.status == "failed"
    hint = out.split("hint:", 1)[1]
    assert "the values are right, but 2.0 is a float where an int is expected, like 2" in hint, out
    assert "add 1, not 1.0" in hint, out


def test_get_word_frequencies_whitespace_cases_agree_with_str_split():
    """The reference is text.split(): '\\r', '\\f', U+00A0 and U+3000 are whitespace for it (str.isspace)."""
    assert all(ch.isspace() for ch in "\r\f\u00a0\u3000")
    from bpelab.words import get_word_frequencies

    assert get_word_frequencies("a\r\nb\fc") == {("a", "</w>"): 1, ("b", "</w>"): 1, ("c", "</w>"): 1}
    assert get_word_frequencies("a\u00a0b\u3000c") == {("a", "</w>"): 1, ("b", "</w>"): 1, ("c", "</w>"): 1}


def test_whitespace_listed_by_hand_is_rejected(capsys):
    import regex

    def split_words(text):
        return regex.findall(r"\w+|[^\w \t\n]+", text)

    assert not check_split_words(split_words, record=False)
    assert "no-break space" in capsys.readouterr().out


# ---- second fresh-eyes review of lessons 02 and 08 ----------------------------------------------------------


def test_punctuation_and_symbols_split_apart_are_rejected_and_named(capsys):
    """``\\p{P}+`` then the other symbols: a run mixing the two (``->``, ``(+)``) comes back in pieces."""
    assert regex.findall(r"\w+|\p{P}+|[^\w\s\p{P}]+", "a -> b") == ["a", "-", ">", "b"]
    assert split_words("a -> b (+)") == ["a", "->", "b", "(+)"]
    wrong = lambda text: regex.findall(r"\w+|\p{P}+|[^\w\s\p{P}]+", text)  # noqa: E731
    result = check_split_words(wrong, record=False)
    out = capsys.readouterr().out
    assert not result, out
    assert "punctuation and symbols" in out and "one run" in out, out


@pytest.mark.parametrize(
    "wrong",
    [
        lambda text: regex.findall(r"\w+|[^\w \t\r\n]+", text),
        lambda text: re.findall(r"\w+|[^\w \t\r\n]+", text),
        lambda text: regex.findall(r"\w+|[^\w \t\r\n\f\v]+", text),
    ],
    ids=["regex", "re", "with \\f and \\v"],
)
def test_whitespace_listed_by_hand_is_told_its_whitespace_is_too_narrow(wrong, capsys):
    """The word characters are right, the whitespace is too narrow: not "only some characters as word characters"."""
    assert not check_split_words(wrong, record=False)
    out = capsys.readouterr().out
    assert "[A-Za-z]" not in out, out
    assert "U+00A0" in out and "whitespace" in out.split("hint:", 1)[1], out


@pytest.mark.parametrize(
    "wrong",
    [
        lambda text: regex.findall(r"\w+|[^\w\s]+", text, flags=regex.ASCII),
        lambda text: re.findall(r"\w+|[^\w\s]+", text, re.ASCII),
        lambda text: regex.findall(r"(?a)\w+|[^\w\s]+", text),
    ],
    ids=["regex.ASCII", "re.ASCII", "(?a)"],
)
def test_the_ascii_flag_is_named(wrong, capsys):
    assert not check_split_words(wrong, record=False)
    hint = capsys.readouterr().out.split("hint:", 1)[1]
    assert "ASCII" in hint and "\\s" in hint and "[A-Za-z]" not in hint, hint


def test_an_english_letters_pattern_still_hears_about_word_characters(capsys):
    assert not check_split_words(lambda text: regex.findall(r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+", text), record=False)
    assert "only some characters as word characters" in capsys.readouterr().out


def test_get_word_frequencies_normalised_with_nfkc_hears_nfkc(capsys):
    from bpelab.exercises import check_get_word_frequencies

    def get_word_frequencies(text):
        counts = {}
        for word in unicodedata.normalize("NFKC", text).split():
            counts[(*word, "</w>")] = counts.get((*word, "</w>"), 0) + 1
        return counts

    assert not check_get_word_frequencies(get_word_frequencies, record=False)
    hint = capsys.readouterr().out.split("hint:", 1)[1]
    assert "NFKC" in hint, hint


def test_a_def_that_names_the_course_functions_result_then_returns_it_is_refused(capsys):
    """``pieces = split_text(text, P); return pieces`` is the course's function as much as ``return split_text(…)``."""
    import bpelab
    from bpelab.exercises import check_get_word_frequencies
    from bpelab.patterns import split_text

    def split_words(text):
        pieces = split_text(text, r"\w+|[^\w\s]+")
        return pieces

    def get_word_frequencies(text: str) -> dict:
        """Mine."""
        counts: dict = dict(bpelab.get_word_frequencies(text))
        return counts

    assert not check_split_words(split_words, record=False)
    assert not check_get_word_frequencies(get_word_frequencies, record=False)
    assert capsys.readouterr().out.count("that is the course's function") == 2


def test_a_def_that_calls_the_course_function_anywhere_is_refused_and_one_of_its_own_is_not(capsys):
    """Naming the course's split_text anywhere in the body is handing in the course's answer (as a lambda calling it
    was refused before a def reworking its result was); the learner's own regex.findall on a copy is theirs."""
    from bpelab.patterns import split_text

    def split_words(text):
        pieces = split_text(text, r"\w+|[^\w\s]+")
        pieces = [piece for piece in pieces if piece]
        return pieces

    def split_words_on_a_copy(text):
        copy = text
        return regex.findall(r"\w+|[^\w\s]+", copy)

    assert not check_split_words(split_words, record=False)
    assert "that is the course's function (bpelab.patterns.split_text)" in capsys.readouterr().out
    assert check_split_words(split_words_on_a_copy, record=False)
    assert "course's function" not in capsys.readouterr().out


def test_a_def_that_imports_the_course_function_in_its_own_body_and_returns_it_is_refused(capsys):
    """An import inside the def is the course's function as much as one at the top of the cell (lesson 00's
    count_characters, lesson 02's get_word_frequencies, through ``from … import … as`` and a dotted name)."""
    from bpelab.exercises import check_count_characters, check_get_word_frequencies

    def count_characters(text):
        from bpelab.exercises.warmup import count_characters as cc

        return cc(text)

    def get_word_frequencies(text):
        import bpelab.words

        counts = bpelab.words.get_word_frequencies(text)
        return dict(counts)

    assert not check_count_characters(count_characters, record=False)
    assert not check_get_word_frequencies(get_word_frequencies, record=False)
    assert capsys.readouterr().out.count("that is the course's function") == 2


# ---- fresh review of lessons 02 and 08 (second round): word classes spelled out by hand --------------------------

CF_FOR_JOINERS = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Cf}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Cf}\s]+"
UNDERSCORE_FOR_PC = r"[\p{Alphabetic}\p{M}\p{Nd}_\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}_\p{Join_Control}\s]+"
CIRCLED_BY_HAND = (
    r"[\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\p{Join_Control}Ⓐ-ⓩ]+|[^\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\p{Join_Control}Ⓐ-ⓩ\s]+"
)


def test_the_new_cases_hold_what_the_regex_module_says():
    """Hand-checked against Unicode's tables: the soft hyphen and the zero-width space are format characters (Cf) but
    not joiners, so neither word characters nor whitespace; ‿ is connector punctuation (Pc); 🅐 is Alphabetic."""
    assert [unicodedata.category(ch) for ch in "\xad\u200b‿🅐"] == ["Cf", "Cf", "Pc", "So"]
    assert regex.fullmatch(r"\p{Alphabetic}", "🅐") and not regex.fullmatch(r"\p{L}", "🅐")
    assert split_words("co\xadoperate a\u200bb") == ["co", "\xad", "operate", "a", "\u200b", "b"]
    assert split_words("snake‿case 🅐bc") == ["snake‿case", "🅐bc"]


@pytest.mark.parametrize(
    ("pattern", "named", "not_named"),
    [
        (CF_FOR_JOINERS, ["\\p{Cf}", "\\p{Join_Control}", "U+00AD"], []),
        (UNDERSCORE_FOR_PC, ["\\p{Pc}", "‿"], []),
        (CIRCLED_BY_HAND, ["Alphabetic", "🅐"], []),
        (
            r"\w+|[^\w\s\x1c-\x1f]+",
            ["U+001C", "kept them out of your class"],
            ["you cut the text with text.split() first"],
        ),
    ],
)
def test_a_word_class_spelled_out_by_hand_is_rejected_and_named(pattern, named, not_named, capsys):
    assert not check_split_words(lambda text: regex.findall(pattern, text), record=False)
    out = capsys.readouterr().out
    assert all(word in out for word in named), out
    assert not any(word in out for word in not_named), out


def test_get_word_frequencies_split_on_regex_whitespace_is_named_as_such(capsys):
    from bpelab.exercises import check_get_word_frequencies

    def split_on_regex_space(text):
        counts = {}
        for word in regex.split(r"\s+", text):
            if word:
                key = tuple(word) + ("</w>",)
                counts[key] = counts.get(key, 0) + 1
        return counts

    assert not check_get_word_frequencies(split_on_regex_space, record=False)
    out = capsys.readouterr().out
    assert "you split on the regex module's \\s" in out and "you found the words with" not in out, out


def test_get_word_frequencies_casefolded_is_named(capsys):
    from bpelab.exercises import check_get_word_frequencies

    def casefolded(text):
        counts = {}
        for word in text.casefold().split():
            key = tuple(word) + ("</w>",)
            counts[key] = counts.get(key, 0) + 1
        return counts

    assert not check_get_word_frequencies(casefolded, record=False)
    out = capsys.readouterr().out
    assert "casefold" in out, out
