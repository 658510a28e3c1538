"""Lesson 02 checker: from text to a table of spelled words, ``get_word_frequencies(text)``.

The reference splits on whitespace only (``text.split()``: every character ``str.isspace`` says is whitespace,
``\\r``, ``\\f``, the no-break space and U+001C–U+001F included, which the ``regex`` module's ``\\s`` leaves
out), keeps case and punctuation, spells each word as its Python
characters (a combining accent is a symbol of its own) plus ONE symbol ``'</w>'``, counts with whole numbers,
and keeps words in first-seen order.
"""

from __future__ import annotations

import itertools
import re
import string
import unicodedata
from typing import Any

import regex

from bpelab.exercises.comparing import same
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH, made_up_words
from bpelab.words import END_OF_WORD, get_word_frequencies

_SPLIT_MARKER = tuple(END_OF_WORD)  # ('<', '/', 'w', '>')


LONG_TEXT_WORDS = 1_500
"""The longest case's words: more than a maxsplit of 1,000 (``text.split(None, 1000)``) keeps apart."""


def _keys(attempt: Attempt) -> list[Any]:
    return list(attempt.got)


MARKER_SPLIT_HINT = "'</w>' was split into the characters '<', '/', 'w', '>': it must be ONE symbol"
"""Said wherever a learner spells a word with ``word + '</w>'`` and then splits it into characters."""


def marker_split_apart(symbols: Any) -> bool:
    """Whether a spelled word ends with the four characters of ``'</w>'`` instead of the one symbol."""
    return isinstance(symbols, (tuple, list)) and tuple(symbols[-len(_SPLIT_MARKER) :]) == _SPLIT_MARKER


def _marker_split(attempt: Attempt) -> bool:
    return any(marker_split_apart(k) for k in _keys(attempt))


def _marker_missing(attempt: Attempt) -> bool:
    keys = _keys(attempt)
    return bool(keys) and all(isinstance(k, tuple) and END_OF_WORD not in k for k in keys) and bool(attempt.expected)


def _marker_glued(attempt: Attempt) -> bool:
    """Some word ends with a symbol such as ``'t</w>'``: the marker glued to the last character."""
    return any(
        isinstance(k, tuple) and k and isinstance(k[-1], str) and k[-1].endswith(END_OF_WORD) and k[-1] != END_OF_WORD
        for k in _keys(attempt)
    )


def _whitespace_inside(attempt: Attempt) -> bool:
    return any(
        k in ((END_OF_WORD,), ("", END_OF_WORD)) or any(isinstance(s, str) and s.isspace() for s in k)
        for k in _keys(attempt)
    )


def _counted(words: list[str]) -> dict[tuple[str, ...], int]:
    """Words found some other way than ``text.split()``, spelled and counted as the reference does."""
    counts: dict[tuple[str, ...], int] = {}
    for word in words:
        symbols = (*word, END_OF_WORD)
        counts[symbols] = counts.get(symbols, 0) + 1
    return counts


def _by_graphemes(text: str) -> dict[tuple[str, ...], int]:
    """A typical variant: each word spelled by graphemes (regex's ``\\X``), what the eye sees as one character."""
    counts: dict[tuple[str, ...], int] = {}
    for word in text.split():
        symbols = (*regex.findall(r"\X", word), END_OF_WORD)
        counts[symbols] = counts.get(symbols, 0) + 1
    return counts


def _invisible(ch: str) -> bool:
    """A character that shows nothing and is not whitespace for ``str.split``: a format character (Cf) such as the
    zero-width space U+200B or the byte-order mark U+FEFF, or the Mongolian vowel separator U+180E."""
    return not ch.isspace() and (unicodedata.category(ch) == "Cf" or ch == "\u180e")


def _split_at_invisible(attempt: Attempt) -> str | None:
    """The words were cut at invisible characters too, as if they were whitespace (``[\\s\\u200b\\ufeff]+``): said
    with the characters cut at. Whitespace as ``str.split`` has it, or as the ``regex`` module's ``\\s`` has it."""
    text = attempt.args[0]
    invisible = sorted({ch for ch in text if _invisible(ch)})
    if not invisible or not isinstance(attempt.got, dict) or len(invisible) > 6:
        return None
    for size in range(1, len(invisible) + 1):
        for cut in itertools.combinations(invisible, size):
            for space in ("\\s", "\\s\\x1c-\\x1f\\x85"):
                words = [w for w in regex.split(f"[{space}{''.join(cut)}]+", text) if w]
                if same(attempt.got, _counted(words), ordered=False):
                    named = ", ".join(
                        f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a format character').lower()})" for ch in cut
                    )
                    return (
                        f"you cut the words at {named}, as if at whitespace: such characters are invisible, but "
                        "str.isspace() is False for them, so text.split() does not cut there and they stay inside "
                        "their words; split with text.split() alone"
                    )
    return None


STR_WHITESPACE = (
    "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000"
)
"""Every character ``str.isspace`` says is whitespace (29), where ``text.split()`` cuts: a case that puts each one
between two words rejects a list of whitespace written by hand."""


_CONTROL_NAMES = {
    "\t": "tab",
    "\n": "line feed",
    "\v": "vertical tab",
    "\f": "form feed",
    "\r": "carriage return",
    "\x1c": "file separator",
    "\x1d": "group separator",
    "\x1e": "record separator",
    "\x1f": "unit separator",
    "\x85": "next line",
}


def _whitespace_name(ch: str) -> str:
    """A whitespace character's name, the control characters by what they do (Unicode gives them no name)."""
    return _CONTROL_NAMES.get(ch) or unicodedata.name(ch, "a control character").lower()


def whitespace_named(chars: list[str]) -> str:
    """``U+0009 (tab), U+000A (line feed)``: whitespace characters by code point and name."""
    return ", ".join(f"U+{ord(ch):04X} ({_whitespace_name(ch)})" for ch in chars)


def _them(chars: list[str]) -> str:
    return "them" if len(chars) > 1 else "it"


def _split_ways(text: str) -> dict[str, tuple[list[str], bool]]:
    """The words a learner's split gives, by how it split, and whether it kept the empty strings."""
    by_space = text.split(" ")
    by_lines = [w for line in text.splitlines() for w in line.split(" ")]
    return {
        "text.split(' ')": (by_space, False),
        "text.split(' ') kept": (by_space, True),
        "text.splitlines()": (by_lines, False),
        "text.splitlines() kept": (by_lines, True),
        "re.split(r'\\s+', text)": (re.split(r"\s+", text), True),
        "re.split(r'\\s', text)": (re.split(r"\s", text), True),
    }


def _counts_of(words: list[str], kept_empty: bool) -> dict[tuple[str, ...], int]:
    return _counted([w for w in words if w or kept_empty])


def _consistent_split(attempt: Attempt) -> str | None:
    """The one way of ``_split_ways`` that gives this answer and the answer on every other case too: a learner's
    split is told by the cases it gets wrong and by those it gets right (a whitespace list of ASCII characters
    gives text.split(' ')'s words on a text whose only whitespace is U+00A0 and U+3000, not on '  a\\tb\\n a  ')."""
    text = attempt.args[0]
    if not isinstance(attempt.got, dict) or not isinstance(text, str):
        return None
    here = [
        how
        for how, (words, kept) in _split_ways(text).items()
        if same(attempt.got, _counts_of(words, kept), ordered=False)
    ]
    if not here:
        return None
    others = [(args[0], got) for args, got in attempt.history() if isinstance(args[0], str)]
    for how in here:
        if all(
            isinstance(got, dict) and same(got, _counts_of(*_split_ways(other)[how]), ordered=False)
            for other, got in others
        ):
            return how
    return None


def _split_at_the_space(attempt: Attempt) -> str | None:
    """The words were cut at the space character only, ``text.split(" ")`` (empty strings kept or skipped), maybe
    after cutting the text into lines (``text.splitlines()``), on this case and every other: said with the whitespace
    left inside the words. Or they were cut with ``re.split(r"\\s+", text)`` and the empty strings it leaves kept."""
    how = _consistent_split(attempt)
    if how is None:
        return None
    text = attempt.args[0]
    words, kept_empty = _split_ways(text)[how]
    if how.startswith("re.split"):
        between = (
            " (and between two whitespace characters in a row, as \\s takes one at a time)" if "+" not in how else ""
        )
        return (
            f"you split with {how} and kept what it gave: re.split returns what lies between the matches, so it "
            "leaves an empty string '' at either end where the text starts or ends with whitespace, and for an "
            f"empty text{between}; each became the word ('</w>',): drop the empty strings (if word: …), or split "
            "with text.split() (no argument), which never gives an empty word"
        )
    said = {
        "text.split(' ')": "text.split(' '), at the space character only",
        "text.splitlines()": "text.splitlines(), then each line with line.split(' '), at line breaks and the space only",
    }[how.removesuffix(" kept")]
    left = sorted({ch for word in words for ch in word if ch.isspace()})
    wrong = [whitespace_named(left) + " stayed inside your words"]
    if kept_empty and "" in words:
        wrong.append(
            "an empty string (from an empty text, a space at either end, or two spaces in a row) became the "
            "word ('</w>',)"
        )
    return (
        f"you split with {said}: {'; '.join(wrong[0 if left else 1 :])}. "
        "text.split() (no argument) cuts at any run of whitespace, every character str.isspace() says is "
        "whitespace, and never gives an empty word"
    )


def _ascii_whitespace_only(attempt: Attempt) -> str | None:
    """The words were cut at ASCII whitespace only (``string.whitespace``, ``[ \\t\\n\\r\\f\\v]``, ``\\s`` with
    the ASCII flag): said with the whitespace left inside the words."""
    text = attempt.args[0]
    if not isinstance(attempt.got, dict) or not isinstance(text, str):
        return None
    if not same(attempt.got, _counted(re.findall(r"\S+", text, re.ASCII)), ordered=False):
        return None
    kept = sorted({ch for word in re.findall(r"\S+", text, re.ASCII) for ch in word if ch.isspace()})
    if not kept or any(ch.isascii() for ch in kept):
        return None
    return (
        f"you split at ASCII whitespace only (string.whitespace, [ \\t\\n\\r\\f\\v], or \\s with re.ASCII): "
        f"{whitespace_named(kept)} stayed inside your words, but str.isspace() is True for {_them(kept)}, so "
        "text.split() cuts there; split with text.split() (no argument), which splits on any run of whitespace"
    )


def _whitespace_kept_inside(attempt: Attempt) -> str | None:
    """Some words hold whitespace that ``text.split()`` cuts at: a whitespace class listed by hand
    (``[ \\t\\n\\r\\f\\u00a0]+``). Said with the characters it missed."""
    if not isinstance(attempt.got, dict):
        return None
    kept = sorted(
        {
            s
            for k in _keys(attempt)
            if isinstance(k, tuple)
            for s in k
            if isinstance(s, str) and len(s) == 1 and s.isspace() and s != " "
        }
    )
    if not kept or any(k in ((END_OF_WORD,), ("", END_OF_WORD)) for k in _keys(attempt)):
        return None
    return (
        f"{whitespace_named(kept)} stayed inside your words, but str.isspace() is True for {_them(kept)}, so "
        "text.split() cuts there: a list of whitespace written by hand leaves some out (the line separator U+2028, U+0085, the em space U+2003 …); "
        "split with text.split() (no argument), which splits on any run of whitespace"
    )


def _split_at_most(attempt: Attempt) -> str | None:
    """The words are ``text.split(None, n)``'s for some maxsplit ``n``, on this case and every other: the last one holds
    the rest of the text."""
    text, got = attempt.args[0], attempt.got
    if not isinstance(got, dict) or not isinstance(text, str) or not all(isinstance(n, int) for n in got.values()):
        return None
    cuts = sum(got.values()) - 1
    if not 0 <= cuts < len(text.split()) - 1 or not same(got, _counted(text.split(None, cuts)), ordered=False):
        return None
    if not all(
        isinstance(other, dict) and same(other, _counted(args[0].split(None, cuts)), ordered=False)
        for args, other in attempt.history()
    ):
        return None  # the same maxsplit on every case, or it is some other mistake
    return (
        f"your last word holds the rest of the text: a maxsplit (text.split(None, {cuts})) stops after {cuts:,} cuts, "
        f"and this text has {len(text.split()):,} words. Split with text.split() (no argument), which cuts at every "
        "run of whitespace"
    )


def _no_letter(word: str) -> bool:
    return not any(ch.isalpha() for ch in word)


def _letterless_words_dropped(attempt: Attempt) -> bool:
    """Some words without a letter (digits, punctuation) are missing, every other word is counted right: the learner
    skipped them (``if word.isdigit(): continue``, ``if word in string.punctuation: continue``)."""
    got, text = attempt.got, attempt.args[0]
    if not isinstance(got, dict) or not isinstance(text, str):
        return False
    kept = [w for w in text.split() if not _no_letter(w)]
    for dropped in (
        _no_letter,
        str.isdigit,
        lambda w: w in string.punctuation,
        lambda w: all(not c.isalnum() for c in w),
    ):
        words = [w for w in text.split() if not dropped(w)]
        if len(words) < len(text.split()) and set(kept) <= set(words) and same(got, _counted(words), ordered=False):
            return True
    return False


LETTERLESS_HINT = (
    "words without a letter are missing: every word of text.split() counts, digits and punctuation too ('-', "
    "'1234567', '0070' and '...' are words of 'a - 1234567 0070 ... b'); don't skip any"
)

ZEROS_HINT = (
    "you changed a number: '0070' is spelled as it is, ('0', '0', '7', '0', '</w>'); keep every word exactly as "
    "text.split() gives it (no lstrip('0'), no int(word))"
)


def _all_ones(attempt: Attempt) -> bool:
    got, expected = attempt.got, attempt.expected
    return got.keys() == expected.keys() and set(got.values()) == {1} and set(expected.values()) != {1}


GET_WORD_FREQUENCIES = Exercise(
    name="get_word_frequencies",
    call="get_word_frequencies(text)",
    reference=get_word_frequencies,
    order_matters=True,
    order_hint=(
        "the right counts, but in a different order: keep the words in the order they first appear in the "
        "text (add each word to the dict when you first meet it; don't sort, and don't go through a set)"
    ),
    cases=lambda: [
        Case(("cat cat dog",), {("c", "a", "t", "</w>"): 2, ("d", "o", "g", "</w>"): 1}, "the example from the lesson"),
        Case(("low",), {("l", "o", "w", "</w>"): 1}, "one word"),
        Case(
            ("dog cat dog",),
            {("d", "o", "g", "</w>"): 2, ("c", "a", "t", "</w>"): 1},
            "first-seen order: 'dog' comes first",
        ),
        Case(("",), {}, "no words at all"),
        Case(
            ("  a\tb\n a  ",),
            {("a", "</w>"): 2, ("b", "</w>"): 1},
            "tabs, newlines and runs of spaces all separate words",
        ),
        Case(
            ("a\r\nb\fc",),
            {("a", "</w>"): 1, ("b", "</w>"): 1, ("c", "</w>"): 1},
            "a Windows line end (\\r\\n) and a form feed (\\f) are whitespace too",
        ),
        Case(
            ("a\u00a0b\u3000c",),
            {("a", "</w>"): 1, ("b", "</w>"): 1, ("c", "</w>"): 1},
            "so are a no-break space (U+00A0) and the ideographic space (U+3000): text.split() splits there",
        ),
        Case(
            ("a\x1cb\x1fc",),
            {("a", "</w>"): 1, ("b", "</w>"): 1, ("c", "</w>"): 1},
            "U+001C and U+001F (information separators) are whitespace for str.isspace(), so text.split() splits "
            "there (the regex module's \\s does not)",
        ),
        Case(
            ("".join(f"w{ch}" for ch in STR_WHITESPACE) + "w",),
            {("w", "</w>"): len(STR_WHITESPACE) + 1},
            "every character str.isspace() says is whitespace separates words: U+0085, U+1680, U+2000–U+200A, "
            "U+2028, U+2029, U+202F, U+205F as well as the space, \\t, \\n, \\r, \\f, U+00A0 and U+3000",
        ),
        Case(
            ("a\u200bb c\ufeffd",),
            {("a", "\u200b", "b", "</w>"): 1, ("c", "\ufeff", "d", "</w>"): 1},
            "the zero-width space (U+200B) and the byte-order mark (U+FEFF) are invisible, but not whitespace: "
            "str.isspace() says no, so text.split() does not cut there, and each stays inside its word",
        ),
        Case(
            ("Low low",),
            {("L", "o", "w", "</w>"): 1, ("l", "o", "w", "</w>"): 1},
            "case is kept: 'Low' and 'low' differ",
        ),
        Case(
            ("hi, hi!",),
            {("h", "i", ",", "</w>"): 1, ("h", "i", "!", "</w>"): 1},
            "punctuation stays in the word: this version splits on whitespace only",
        ),
        Case(
            ("a - 1234567 0070 ... b",),
            note="every word of text.split() counts, digits and punctuation too: '-', '1234567', '0070' and '...' are "
            "words, and '0070' is spelled as it is",
        ),
        Case(
            ("naïve 日本",),
            {("n", "a", "ï", "v", "e", "</w>"): 1, ("日", "本", "</w>"): 1},
            "any character is a symbol",
        ),
        Case(
            ("cafe\u0301 👩\u200d👧",),
            {("c", "a", "f", "e", "\u0301", "</w>"): 1, ("👩", "\u200d", "👧", "</w>"): 1},
            "a symbol is one Python character: e + a combining accent (U+0301) are two, and so are the parts of "
            "the emoji (woman, zero-width joiner, girl)",
        ),
        Case(
            ("ﬁne x²",),
            {("ﬁ", "n", "e", "</w>"): 1, ("x", "²", "</w>"): 1},
            "the ligature ﬁ (U+FB01) is one character, one symbol; ² stays ² (no normalisation)",
        ),
        Case((CLASSIC_TEXT,), note="the classic corpus: low ×5, lower ×2, newest ×3, widest ×2"),
        Case((PARAGRAPH,), note="a paragraph of English"),
        Case((made_up_words(),), note="150 made-up words"),
        Case(
            (made_up_words(LONG_TEXT_WORDS),),
            note=f"{LONG_TEXT_WORDS:,} made-up words: split at every run of whitespace, however many words there are",
        ),
    ],
    diagnosers=[
        on_error(
            TypeError, "a dict key must be a tuple, not a list: use tuple(word) + ('</w>',)", contains="unhashable"
        ),
        when(
            lambda a: any(isinstance(k, str) for k in _keys(a)),
            "the keys should be tuples of symbols like ('c', 'a', 't', '</w>'), not strings like 'cat</w>'",
            any_type=False,
        ),
        when(
            _marker_split,
            MARKER_SPLIT_HINT + ", e.g. tuple(word) + ('</w>',)",
            any_type=False,
        ),
        when(
            _marker_glued,
            "you glued '</w>' to the last character ('t</w>', as subword-nmt spells words): here '</w>' is a "
            "symbol of its own after the last character: tuple(word) + ('</w>',)",
            any_type=False,
        ),
        when(
            _marker_missing,
            "the end-of-word marker '</w>' is missing: spell each word as tuple(word) + ('</w>',)",
            any_type=False,
        ),
        when(_letterless_words_dropped, LETTERLESS_HINT, any_type=False),
        same_as(lambda text: _counted([w.lstrip("0") or w for w in text.split()]), ZEROS_HINT),
        same_as(
            lambda text: _counted([str(int(w)) if w.isdecimal() and w.isascii() else w for w in text.split()]),
            ZEROS_HINT,
        ),
        same_as(
            _by_graphemes,
            "you spelled each word by what the eye sees as one character (regex's \\X, a grapheme): spell it by "
            "Python's characters, tuple(word), so that e + a combining accent are two symbols",
        ),
        same_as(
            lambda text: get_word_frequencies(unicodedata.normalize("NFKC", text)),
            "you normalised the text (NFKC: e + a combining accent became é, the ligature ﬁ became f, i): spell "
            "each word as it is, tuple(word)",
        ),
        same_as(
            lambda text: get_word_frequencies(unicodedata.normalize("NFC", text)),
            "you normalised the text (NFC: e + a combining accent became é): spell each word as it is, tuple(word)",
        ),
        same_as(
            lambda text: get_word_frequencies(text.casefold()),
            "you casefolded the text (text.casefold(): 'Low' became 'low', the ligature ﬁ became f, i): keep every "
            "character as it is ('Low' and 'low' are different words here)",
        ),
        same_as(
            lambda text: get_word_frequencies(text.lower()),
            "you lowercased the text: keep every character as it is ('Low' and 'low' are different words here)",
        ),
        *(
            same_as(
                lambda text, module=module: _counted(module.findall(r"\w+|[^\w\s]+", text)),
                "you split punctuation off the words: this exercise splits on whitespace only (text.split()), "
                "so 'hi,' stays one word",
            )
            for module in (regex, re)  # they differ on some scripts' text (marks, joiners)
        ),
        same_as(
            lambda text: _counted(regex.findall(r"\S+", text)),
            "you split on the regex module's \\s (regex.split(r'\\s+', …) or regex.findall(r'\\S+', …)): its \\s "
            "leaves out U+001C–U+001F (information separators), where text.split() cuts; split with text.split()",
        ),
        _split_at_most,
        _split_at_the_space,
        _split_at_invisible,
        _ascii_whitespace_only,
        _whitespace_kept_inside,
        when(
            _whitespace_inside,
            "some words are empty or contain whitespace: split with text.split() (no argument), "
            "which splits on any run of whitespace: spaces, tabs, new lines, \\r, no-break spaces",
            any_type=False,
        ),
        when(
            _all_ones,
            "every count is 1: count how often each word occurs (add 1 each time you meet it again)",
            any_type=False,
        ),
    ],
    hint="for each word in text.split(): key = tuple(word) + ('</w>',); counts[key] = counts.get(key, 0) + 1",
)


def check_get_word_frequencies(get_word_frequencies: Any, *, record: bool = True) -> CheckResult:
    """Check ``get_word_frequencies(text) -> {spelled word: count}`` in first-seen order; the counts must be ints
    (the engine rejects ``2.0`` where the reference counts ``2``, and says so)."""
    return GET_WORD_FREQUENCIES.check(get_word_frequencies, record=record)
