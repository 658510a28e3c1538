"""Lesson 02 checker: ``split_words(text)``, pre-tokenization with the regex ``\\w+|[^\\w\\s]+``.

Runs of word characters (letters, digits, ``_``) become one piece, runs of anything else that is
not whitespace (punctuation, symbols) another; whitespace separates pieces and is dropped. The reference runs
the pattern with the ``regex`` module, as ``bpelab.split_text`` does. Python's ``re`` answers "what is ``\\w``?"
otherwise: it leaves out the marks that combine with a letter (Hindi's virama) and the zero-width joiner and
non-joiner, which ``regex`` counts, and counts the other numbers (category No: ``²``, ``½``, ``①``), which
``regex`` does not. Cases in those scripts tell the two apart, and an answer written with ``re`` (or with
``[\\p{L}\\p{N}_]``, which counts the same characters as ``re``'s ``\\w``) is told so. ``regex``'s ``\\w`` is
UTS #18 Annex C's ``\\p{Alphabetic}`` | ``\\p{Mark}`` | ``\\p{Decimal_Number}`` | ``\\p{Connector_Punctuation}`` |
``\\p{Join_Control}``: Alphabetic holds more than the letters (the letter-like numbers, category Nl, such as ``Ⅻ``, and
symbols such as the circled ``Ⓐ``), so a class built from the letters ``\\p{L}`` is told so too. Whitespace is
``regex``'s ``\\s`` (Unicode's White_Space), which leaves out U+001C–U+001F, the information separators that
``str.isspace`` and ``str.split`` count: a text cut with ``text.split()`` first, or a class that keeps them out of
``[^\\w\\s]``, is told so; whitespace listed by hand
(``[^\\w \\t\\r\\n]``) is told which whitespace it missed, and so is a word class spelled out by hand that counts
some characters the other way round from ``\\w`` (``\\p{Cf}``, every format character, where ``\\w`` has only the two
joiners, ``\\p{Join_Control}``: the soft hyphen U+00AD and the zero-width space U+200B are pieces of their own;
``_`` where it has every connector, ``\\p{Pc}``: ``snake‿case`` is one word; circled letters listed by hand where it has
Alphabetic, which holds ``🅐`` and the squared letters ``🄰``, ``🅰`` too), and the ASCII flag is named as such (it
narrows ``\\w`` and ``\\s`` both), apart from a pattern that counts only English letters as word characters. A run
may mix punctuation (category P: ``-``, ``(``) with symbols (category S: ``>``, ``+``): ``[^\\w\\s]+`` keeps it one
piece, and a pattern that takes the two in separate runs is told so. A typical wrong pattern is recognised whichever
of the two modules runs it; so is a text normalised (NFKC, NFC) before it is split.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import regex

from bpelab.exercises.core import Case, CheckResult, Diagnoser, Exercise, on_error, same_as, when
from bpelab.exercises.samples import PARAGRAPH
from bpelab.exercises.word_frequencies import whitespace_named
from bpelab.patterns import split_text

LETTERS_AND_NUMBERS = r"[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]+"
"""The pattern with ``\\w`` spelled as ``re`` counts it (a letter, a number or ``_``), run with ``regex``."""

LETTERS_NOT_ALPHABETIC = r"[\p{L}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\p{L}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\s]+"
"""``\\w`` spelled out with the letters (``\\p{L}``) where UTS #18 Annex C has ``\\p{Alphabetic}``: it leaves out the
letter-like numbers (Nl, ``Ⅻ``) and the alphabetic symbols (``Ⓐ``)."""

WORDS_AND_PUNCTUATION = r"\w+|[^\w\s]+"
"""Lesson 02's split pattern: words, or runs of punctuation; whitespace only separates."""

WHITE_SPACE = "\t\n\v\f\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
"""Every character of Unicode's White_Space, what ``regex``'s ``\\s`` matches (25 characters): a case that puts each
one between two words rejects a whitespace class listed by hand, or ``\\p{Z}`` plus a few controls."""


def split_words(text: str) -> list[str]:
    """``text`` cut into words and runs of punctuation, in order, whitespace dropped."""
    return split_text(text, WORDS_AND_PUNCTUATION)


ASCII_ONLY_PATTERNS = (
    r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s]+",
    r"[A-Za-z0-9]+|[^A-Za-z0-9\s]+",
    r"[A-Za-z]+|[^A-Za-z\s]+",
)
"""Patterns a learner writes when "word character" means the English alphabet (and perhaps digits)."""


def _ascii_only(attempt: Any) -> bool:
    """The pieces are what an English-letters-only pattern finds in this text, and not what ``re`` finds too (on a
    text of symbols and joiners alone they agree: that says nothing), and the same pattern's pieces came back on a case
    with a letter outside ASCII, where they are wrong: on an ASCII text such as 'x=3.14; y_2', ``[\\p{L}\\p{N}]``
    finds what ``[A-Za-z0-9]`` finds. The ASCII flag has its own hint."""
    text = attempt.args[0]
    if attempt.got == re.findall(WORDS_AND_PUNCTUATION, text):
        return False
    for pattern in ASCII_ONLY_PATTERNS:
        if attempt.got != re.findall(pattern, text):
            continue
        for args, got in [(attempt.args, attempt.got), *attempt.history()]:
            other = args[0]
            if (
                isinstance(other, str)
                and any(not ch.isascii() and unicodedata.category(ch).startswith("L") for ch in other)
                and got == re.findall(pattern, other) != split_words(other)
            ):
                return True
    return False


def _underscore_apart(attempt: Any) -> bool:
    """The pieces are this text's with ``_`` taken as a non-word character: a word class spelled out by hand that
    leaves out the connector punctuation (``[\\p{L}\\p{N}]``, ``[\\p{Alphabetic}\\p{M}\\p{Nd}]``)."""
    text = attempt.args[0]
    return (
        "_" in text
        and attempt.got != attempt.expected
        and attempt.got == _pieces(text, lambda ch: ch != "_" and bool(regex.fullmatch(r"\w", ch)))
    )


ASCII_FLAG_HINT = (
    "with the ASCII flag (re.ASCII, regex.ASCII or (?a)), \\w is only [A-Za-z0-9_] and \\s only the ASCII "
    "whitespace (space, \\t, \\n, \\r, \\f, \\v): letters such as ü and 日 fall out of the words, and a no-break "
    "space (U+00A0) becomes a piece; drop the flag"
)


def _whitespace_kept(attempt: Any) -> str | None:
    """The word characters are right but some whitespace (for ``regex``'s ``\\s``) came back as a piece, or inside
    one: a whitespace class written by hand, such as ``[^\\w \\t\\r\\n]``. Said with the characters it missed.
    A pattern that keeps the plain space too (``\\W+``) is another mistake, with its own hint."""
    got, expected = _got_list(attempt), attempt.expected
    if got == expected or not all(isinstance(piece, str) for piece in got):
        return None
    if [part for piece in got for part in split_words(piece)] != expected:
        return None
    kept = sorted({ch for piece in got for ch in piece if regex.fullmatch(r"\s", ch)})
    if not kept or " " in kept:
        return None
    are = "are" if len(kept) > 1 else "is"
    return (
        f"your split made whitespace into pieces: {whitespace_named(kept)} {are} whitespace for \\s, but not for "
        "the class you wrote. "
        "A list such as [ \\t\\r\\n] leaves out the other whitespace (the no-break space U+00A0, the ideographic "
        "space U+3000, the em space U+2003, the line separator U+2028 …), and \\p{Z} (the separators) leaves out "
        "\\f, \\v and U+0085: write [^\\w\\s]+, and let \\s say what whitespace is"
    )


def _runs_cut_apart(attempt: Any) -> bool:
    """Each expected piece is one or more of the learner's pieces in a row, and only runs of non-word characters are
    cut: punctuation and symbols taken in separate runs (``\\p{P}+|[^\\w\\s\\p{P}]+``), or one character at a time."""
    got, expected = _got_list(attempt), attempt.expected
    if got == expected or not all(isinstance(piece, str) and piece for piece in got):
        return False
    at = 0
    for piece in expected:
        parts: list[str] = []
        while at < len(got) and len("".join(parts)) < len(piece):
            parts.append(got[at])
            at += 1
        if "".join(parts) != piece or (len(parts) > 1 and regex.search(r"\w", piece)):
            return False
    return at == len(got)


def _pieces(text: str, is_word: Callable[[str], bool]) -> list[str]:
    """The runs ``\\w+|[^\\w\\s]+`` finds, with ``is_word`` saying what a word character is (whitespace: regex's)."""
    pieces: list[str] = []
    run, run_is_word = "", False
    for ch in text:
        if regex.fullmatch(r"\s", ch):
            pieces, run = pieces + [run] if run else pieces, ""
            continue
        if run and is_word(ch) != run_is_word:
            pieces.append(run)
            run = ""
        run, run_is_word = run + ch, is_word(ch)
    return pieces + [run] if run else pieces


def _pieces_beside_w(text: str, is_word: Callable[[str], bool]) -> list[str]:
    """What ``[W]+|[^\\w\\s]+`` finds, regex.findall's way, with ``is_word`` saying what the hand-spelled word class
    ``W`` holds while the second alternative keeps ``\\w`` itself: a character in neither class is skipped (lost),
    one in both joins the run it meets (a word run first)."""
    pieces: list[str] = []
    i = 0
    while i < len(text):
        for in_class in (is_word, lambda ch: not regex.fullmatch(r"[\w\s]", ch)):
            j = i
            while j < len(text) and in_class(text[j]):
                j += 1
            if j > i:
                pieces.append(text[i:j])
                i = j
                break
        else:
            i += 1
    return pieces


_MODELS: tuple[Callable[[str, Callable[[str], bool]], list[str]], ...] = (_pieces, _pieces_beside_w)
"""How a hand-spelled word class is used: in both alternatives (``[W]+|[^W\\s]+``), or in the first only, beside
``[^\\w\\s]+`` kept as the course has it."""


CLASS_SLIPS: list[tuple[Callable[[str], bool], bool, str]] = [
    (
        lambda ch: unicodedata.category(ch) == "Cf" and not regex.fullmatch(r"\p{Join_Control}", ch),
        True,
        "{chars}: format characters (Cf), but not joiners: \\w holds only the two joiners, \\p{Join_Control} "
        "(U+200C, U+200D), not every \\p{Cf} (the soft hyphen U+00AD, the zero-width space U+200B, the byte-order "
        "mark U+FEFF …)",
    ),
    (
        lambda ch: bool(regex.fullmatch(r"\p{Join_Control}", ch)),
        False,
        "{chars}: the zero-width non-joiner and joiner are word characters for \\w (\\p{Join_Control})",
    ),
    (
        lambda ch: unicodedata.category(ch) == "Pc",
        False,
        "{chars}: connector punctuation (Pc): \\w holds every \\p{Pc}, the underscore _ and ‿ alike",
    ),
    (
        lambda ch: bool(regex.fullmatch(r"\p{Alphabetic}", ch)) and not unicodedata.category(ch).startswith("L"),
        False,
        "{chars}: Alphabetic, though not a letter (L): \\w holds every \\p{Alphabetic} character, more than \\p{L} "
        "or any list of letters (Roman numerals such as Ⅻ; circled letters such as Ⓐ and 🅐, squared ones such "
        "as 🄰 and 🅰 …)",
    ),
]
"""Characters a word class spelled out by hand often counts the other way round from ``\\w``: each kind's test, whether
the slip counts it as a word character, and what to say."""


def _named(ch: str) -> str:
    name = unicodedata.name(ch, "").lower()
    return (
        f"{ch} (U+{ord(ch):04X})"
        if ch.isprintable() and unicodedata.category(ch) != "Cf"
        else f"U+{ord(ch):04X} ({name})"
    )


def _slips_in(text: str) -> dict[str, int]:
    """The characters of ``text`` of a kind in ``CLASS_SLIPS`` that the slip counts the other way round from ``\\w``,
    with their kind."""
    slips = {ch: kind for ch in dict.fromkeys(text) for kind, (test, _, _) in enumerate(CLASS_SLIPS) if test(ch)}
    return {ch: kind for ch, kind in slips.items() if CLASS_SLIPS[kind][1] != bool(regex.fullmatch(r"\w", ch))}


def _slip_word(slips: dict[str, int], flipped: set[str]) -> Callable[[str], bool]:
    return lambda ch: CLASS_SLIPS[slips[ch]][1] if ch in flipped else bool(regex.fullmatch(r"\w", ch))


def _flips(slips: dict[str, int]) -> Iterator[set[str]]:
    """Every non-empty set of those characters, smallest first."""
    for size in range(1, len(slips) + 1):
        yield from map(set, itertools.combinations(slips, size))


def _explained(text: str, pieces: Any, model: Callable[[str, Callable[[str], bool]], list[str]] = _pieces) -> bool:
    """``pieces`` are what ``\\w+|[^\\w\\s]+`` finds in ``text`` with none, or some, of its slip characters counted
    the other way round (by ``model``: the class in both alternatives, or in the first only)."""
    slips = _slips_in(text)
    if len(slips) > 8:
        return False
    return pieces == _pieces(text, _slip_word(slips, set())) or any(
        pieces == model(text, _slip_word(slips, flipped)) for flipped in _flips(slips)
    )


def _class_slip(attempt: Any) -> str | None:
    """The pieces are what ``\\w+|[^\\w\\s]+`` finds with some of the text's characters of the kinds in
    ``CLASS_SLIPS`` counted the other way round, and on every other case too (with that case's own such characters,
    as a hand-spelled class may slip on more than one kind): a class spelled out by hand (``\\p{Cf}`` for
    ``\\p{Join_Control}``, ``_`` for ``\\p{Pc}``, ``\\p{L}`` for Alphabetic, the joiners left out). Said with the
    characters of this text."""
    got, text = _got_list(attempt), attempt.args[0]
    if got == attempt.expected or not all(isinstance(piece, str) for piece in got):
        return None
    slips = _slips_in(text)
    if not slips or len(slips) > 8:
        return None
    for model, flipped in itertools.product(_MODELS, _flips(slips)):
        if model(text, _slip_word(slips, flipped)) != got:
            continue
        if not all(_explained(args[0], other, model) for args, other in attempt.history()):
            continue
        said = []
        for kind, (_, _, hint) in enumerate(CLASS_SLIPS):
            chars = [ch for ch in flipped if slips[ch] == kind]
            if chars:
                said.append(hint.replace("{chars}", ", ".join(map(_named, sorted(chars)))))
        lost = [ch for ch in flipped if model is _pieces_beside_w and not CLASS_SLIPS[slips[ch]][1]]
        which = "this character is" if len(lost) == 1 else "these characters are"
        beside = f" (your second alternative, [^\\w\\s]+, still uses \\w, so {which} in neither of your classes: lost)"
        return (
            "your word class counts characters of this text the other way round from \\w: "
            + "; ".join(said)
            + (beside if lost else "")
            + ". Use \\w itself, run with the regex module, not a class spelled out by hand"
        )
    return None


LOWERCASE_HINT = "keep the case as it is: don't lowercase"


def _with_either_module(pattern: str, hint: str) -> list[Diagnoser]:
    """A wrong pattern, recognised whether ``re`` or ``regex`` runs it (they differ on some scripts' text)."""
    return [
        same_as(lambda text: split_text(text, pattern), hint),
        same_as(lambda text: re.findall(pattern, text), hint),
    ]


def _got_list(attempt: Any) -> list:
    return attempt.got if isinstance(attempt.got, list) else []


SPLIT_WORDS = Exercise(
    name="split_words",
    call="split_words(text)",
    reference=split_words,
    course_functions=(split_text,),
    cases=[
        Case(("Hello, world!",), ["Hello", ",", "world", "!"], "punctuation comes off the words"),
        Case(("",), [], "no text, no pieces"),
        Case(("  spaced   out  ",), ["spaced", "out"], "whitespace only separates; it never becomes a piece"),
        Case(("Wait... what?!",), ["Wait", "...", "what", "?!"], "a run of punctuation stays together"),
        Case(
            ("a -> b (+) x+=1",),
            ["a", "->", "b", "(+)", "x", "+=", "1"],
            "a run may mix punctuation (- ( )) with symbols (> + =): it is one run of neither word nor space",
        ),
        Case(("isn't",), ["isn", "'", "t"], "the apostrophe is punctuation too"),
        Case(("x=3.14; y_2",), ["x", "=", "3", ".", "14", ";", "y_2"], "digits and _ are word characters"),
        Case(("tab\tand\nnewline",), ["tab", "and", "newline"], "tabs and newlines are whitespace"),
        Case(
            ("line\r\nnext\u00a0word\u3000end" + "".join(f"{ch}w" for ch in WHITE_SPACE),),
            ["line", "next", "word", "end"] + ["w"] * len(WHITE_SPACE),
            "\\r, the no-break space, the ideographic space and every other character of Unicode's White_Space "
            "(\\f, \\v, U+0085, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F) are whitespace too",
        ),
        Case(("Grüße, naïve café!",), ["Grüße", ",", "naïve", "café", "!"], "accented letters are word characters"),
        Case(("日本語です。",), ["日本語です", "。"], "so are Chinese and Japanese characters"),
        Case(
            ("नमस्ते",),
            ["नमस्ते"],
            "Hindi: the marks ् (virama) and े (vowel sign e) combine with the letter before them: one word",
        ),
        Case(
            ("می\u200cخواهم",),
            ["می\u200cخواهم"],
            "Persian 'I want', one word with a zero-width non-joiner (U+200C) inside: it is a word character",
        ),
        Case(
            ("👩\u200d👩\u200d👧",),
            ["👩", "\u200d", "👩", "\u200d", "👧"],
            "the family emoji: symbols joined by zero-width joiners (U+200D), which are word characters",
        ),
        Case(
            ("Chapter Ⅻ. Ⓐbc",),
            ["Chapter", "Ⅻ", ".", "Ⓐbc"],
            "Ⅻ (a Roman numeral, category Nl) and Ⓐ (a circled letter, category So) are Alphabetic in Unicode, and "
            "regex's \\w holds every Alphabetic character: both are word characters",
        ),
        Case(
            ("snake‿case 🅐bc",),
            ["snake‿case", "🅐bc"],
            "‿ (U+203F) is connector punctuation (Pc) like _, and 🅐 (U+1F150) a negative circled letter, Alphabetic "
            "though not a letter (L): regex's \\w holds every Pc and every Alphabetic character, both are word "
            "characters",
        ),
        Case(
            ("🄰bc corp 🅰ir",),
            ["🄰bc", "corp", "🅰ir"],
            "🄰 (U+1F130) is a squared letter and 🅰 (U+1F170) a negative squared one: symbols (So), like Ⓐ and 🅐, "
            "and Alphabetic like them, so regex's \\w holds them: each is part of its word",
        ),
        Case(
            ("co\u00adoperate a\u200bb",),
            ["co", "\u00ad", "operate", "a", "\u200b", "b"],
            "the soft hyphen (U+00AD) and the zero-width space (U+200B) are format characters (Cf) like the two "
            "joiners, but neither joiners nor whitespace: each is a piece of its own",
        ),
        Case(
            ("a\x1cb c\x1fd",),
            ["a", "\x1c", "b", "c", "\x1f", "d"],
            "U+001C and U+001F (information separators) are not whitespace for regex's \\s (Unicode's White_Space), "
            "though str.isspace() says they are: each is a piece of its own",
        ),
        Case(
            ("x² ½ ﬁne",),
            ["x", "²", "½", "ﬁne"],
            "² and ½ are numbers but not digits: not word characters; the ligature ﬁ is a letter, kept as it is",
        ),
        Case(
            ("cafe\u0301",),
            ["cafe\u0301"],
            "é written as e + a combining acute accent (U+0301): the mark is a word character, kept as it is",
        ),
        Case((PARAGRAPH,), note="a paragraph of English"),
    ],
    diagnosers=[
        on_error(
            NameError,
            "regex is not imported (was the kernel restarted?): run the lesson's first cell, which imports regex, "
            "then your split_words cell, then this one",
            contains="'regex'",
        ),
        when(
            lambda attempt: "" in _got_list(attempt),
            "empty strings '' among the pieces: re.split returns what lies BETWEEN the matches (empty where a match "
            "touches the start, the end or another match); regex.findall(r'\\w+|[^\\w\\s]+', text) returns the "
            "matches themselves",
        ),
        same_as(
            lambda text: re.split(r"\s+", text),
            "re.split(r'\\s+', text) cuts at whitespace only, so punctuation stays on the words (and the ends can "
            "give ''): use regex.findall(r'\\w+|[^\\w\\s]+', text), which returns the matches themselves",
        ),
        same_as(
            lambda text: re.findall(WORDS_AND_PUNCTUATION, text),
            "Python's re counts fewer characters as word characters in this text than the regex module does (and "
            "so does [\\p{L}\\p{N}_], which counts the same characters as re's \\w): it leaves out the marks that "
            "combine with a letter (Hindi's ्), the zero-width joiner and non-joiner, and symbols such as Ⓐ "
            "(elsewhere re counts more: ² and ½ are \\w for re, not for regex; and re's \\s counts U+001C–U+001F, which "
            "regex's does not). Run \\w+|[^\\w\\s]+ itself with the regex module (import "
            "regex; regex.findall(...)), as "
            "bpelab.split_text does (section 3b)",
        ),
        same_as(
            lambda text: split_text(text, LETTERS_AND_NUMBERS),
            "Python's re counts fewer characters as word characters in this text than the regex module does (and "
            "so does [\\p{L}\\p{N}_], which counts the same characters as re's \\w): it leaves out the marks that "
            "combine with a letter (Hindi's ्), the zero-width joiner and non-joiner, and symbols such as Ⓐ "
            "(elsewhere re counts more: ² and ½ are \\w for re, not for regex; and re's \\s counts U+001C–U+001F, which "
            "regex's does not). Run \\w+|[^\\w\\s]+ itself with the regex module (import "
            "regex; regex.findall(...)), as "
            "bpelab.split_text does (section 3b)",
        ),
        same_as(
            lambda text: split_text(text, LETTERS_NOT_ALPHABETIC),
            "you spelled \\w out from the letters, \\p{L}; the regex module's \\w takes every Alphabetic character "
            "(UTS #18, Annex C: \\p{Alphabetic}, \\p{Mark}, \\p{Decimal_Number}, \\p{Connector_Punctuation}, "
            "\\p{Join_Control}), and Alphabetic also holds Roman numerals such as Ⅻ and circled letters such as Ⓐ: "
            "use \\w itself",
        ),
        same_as(
            lambda text: [piece for word in text.split() for piece in split_words(word)],
            "U+001C–U+001F (information separators) did not come back as pieces: they are not whitespace for the "
            "regex module's \\s, so [^\\w\\s]+ makes each a piece of its own. Whether you kept them out of your "
            "class or cut the text with text.split() first (str.split cuts there), run \\w+|[^\\w\\s]+ as it is, "
            "on the whole text",
        ),
        *(
            same_as(
                lambda text, form=form: split_words(unicodedata.normalize(form, text)),
                f"you normalised the text ({form}) before splitting ({example}): return the pieces of the text "
                "as it is",
            )
            for form, example in [("NFKC", "ﬁ became fi, ² became 2"), ("NFC", "e + ◌́ became é")]
        ),
        when(
            lambda attempt: (
                "\u200d" in attempt.args[0]
                and "\u200d" not in _got_list(attempt)
                and any("\u200d" in piece for piece in _got_list(attempt) if isinstance(piece, str))
            ),
            "your split kept the zero-width joiner (U+200D) inside a piece; the regex module's \\w counts it as a "
            "word character between two symbols, so \\w+|[^\\w\\s]+ makes it a piece of its own: run exactly that "
            "pattern with regex.findall",
        ),
        _class_slip,  # after the joiner kept inside a joined emoji, which it would call a joiner counted as non-word
        *(
            same_as(flagged, ASCII_FLAG_HINT)
            for flagged in (
                lambda text: re.findall(WORDS_AND_PUNCTUATION, text, re.ASCII),
                lambda text: regex.findall(WORDS_AND_PUNCTUATION, text, flags=regex.ASCII),
            )
        ),
        _whitespace_kept,
        when(
            _ascii_only,
            "your pattern counts only some characters as word characters (like [A-Za-z]), so the others were cut "
            "off the words: \\w matches a letter of any alphabet (ü, é, 日), a digit or _",
        ),
        when(
            _underscore_apart,
            "_ (U+005F) came back as a piece of its own: it is connector punctuation (\\p{Pc}), and \\w counts it as "
            "a word character, so y_2 is one word; your class leaves it out. Use \\w itself, run with the regex "
            "module, not a class spelled out by hand",
        ),
        same_as(
            lambda text: text.split(),
            "that is text.split(): punctuation is still stuck to the words; use regex.findall(r'\\w+|[^\\w\\s]+', text)",
        ),
        *_with_either_module(
            r"\w+",
            "the punctuation is missing: add the second alternative, |[^\\w\\s]+, so runs of punctuation become "
            "pieces too",
        ),
        *_with_either_module(
            r"\w+|[^\w\s]",
            "each punctuation mark became its own piece: add + after [^\\w\\s] so a run like '...' stays together",
        ),
        *_with_either_module(
            r"\w+|\W+",
            "some pieces contain whitespace: \\W also matches spaces; use [^\\w\\s] (neither a word character nor "
            "whitespace)",
        ),
        *_with_either_module(
            r"\w|[^\w\s]+",
            "every letter became its own piece: add + after \\w so a run of letters stays one word",
        ),
        when(
            _runs_cut_apart,
            "a run of punctuation and symbols came back in several pieces ('->' as '-', '>'): [^\\w\\s]+ takes "
            "every character that is neither a word character nor whitespace, punctuation (P) and symbols (S) "
            "alike, so such a run is one run, one piece",
        ),
        same_as(lambda text: [piece.lower() for piece in split_words(text)], LOWERCASE_HINT),
        same_as(lambda text: [piece.lower() for piece in re.findall(WORDS_AND_PUNCTUATION, text)], LOWERCASE_HINT),
        when(
            lambda attempt: isinstance(attempt.got, (set, frozenset)),
            "you returned a set, which forgets order and repeats: return the list that regex.findall gives",
            any_type=True,
        ),
        when(
            lambda attempt: _got_list(attempt) == sorted(set(attempt.expected)) != attempt.expected,
            "you returned the distinct pieces, sorted: return every piece, in the order it appears",
        ),
    ],
    hint="regex.findall(r'\\w+|[^\\w\\s]+', text) returns every match, left to right, as a list",
)


def check_split_words(split_words: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``split_words(text) -> list[str]``; prints one report and returns the result."""
    return SPLIT_WORDS.check(split_words, record=record)
