"""Lesson 05 checker: ``decode_words(symbols)``, word-level tokens back to text.

The symbols are joined; every ``'</w>'`` becomes a space, and every space at the very end of the text is dropped
(``.rstrip(' ')``), so the text never ends in a space. A ``'</w>'`` on its own is an empty word: at the start of the
symbols its space stays (``['</w>', 'low</w>']`` -> ``' low'``), at the end it leaves nothing, however many
there are (``['low</w>', '</w>', '</w>']`` -> ``'low'``), and one between two words keeps its space (``['low</w>', '</w>', 'x</w>']``
-> ``'low  x'``), as ``bpelab.decode_words`` does and lesson 05 says. No case holds a ``</w>`` typed inside the text
(``['a', '<', '/', 'w', '>']``): there a decoder that reads the marker at each symbol's end gives the text back while
joining first turns it into a space, and the exercise accepts both (lesson 05, section 5).
"""

from __future__ import annotations

import re
import string
import unicodedata
from types import GeneratorType
from typing import Any

from bpelab.exercises.cases import Attempt
from bpelab.exercises.core import Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH
from bpelab.words import END_OF_WORD, decode_words, encode_word, train_bpe


def _encoded(text: str, num_merges: int) -> list[str]:
    merges = train_bpe(text, num_merges).merges
    return [piece for word in text.split() for piece in encode_word(word, merges)]


def _lone_markers_at_the_end(symbols: list[str]) -> int:
    """How many ``'</w>'`` stand alone at the end of the symbols: empty words, each a space at the very end."""
    count = 0
    while count < len(symbols) and symbols[len(symbols) - 1 - count] == END_OF_WORD:
        count += 1
    return count


_DOLLAR_HINT = (
    "you dropped the spaces with re.sub(' +$', '', text): $ matches not only at the very end but also just before a "
    "line break that ends the text (and, with re.M, before every line break), so spaces before a '\\n' that belong "
    "to the text were dropped: ['end</w>', '\\n'] must give 'end \\n'. Drop only the spaces at the very end: "
    ".rstrip(' '), or anchor the pattern at the end of the text with \\Z, re.sub(' +\\Z', '', text)"
)


def _normalised(attempt: Attempt) -> str | None:
    """The learner normalised the text (NFC, NFKC, ...): the decomposed accent of a case came back composed."""
    got, expected = attempt.got, attempt.expected
    if attempt.error is not None or not isinstance(got, str) or not isinstance(expected, str) or got == expected:
        return None
    for form in ("NFC", "NFKC", "NFD", "NFKD"):
        if unicodedata.normalize(form, expected) == got:
            return (
                f"you normalised the text (unicodedata.normalize({form!r}, ...)): 'e' + U+0301 became one "
                "character, so the text is not the one that was encoded. Decoding gives back exactly the "
                "characters of the symbols: join them, turn '</w>' into a space, drop the spaces at the very end"
            )
    return None


DECODE_WORDS = Exercise(
    name="decode_words",
    call="my_decode_words(symbols)",  # the name lesson 05's stub gives it: the report's input line shows it
    reference=decode_words,
    cases=lambda: [
        Case((["low", "</w>"],), "low", "one word, the marker on its own"),
        Case((["low</w>"],), "low", "one word, the marker inside the last symbol"),
        Case((["low</w>", "est</w>"],), "low est", "two words: the first marker becomes a space"),
        Case((["s", "low", "est</w>"],), "slowest", "pieces of one word are joined without spaces"),
        Case(([],), "", "no symbols: empty text"),
        Case((["</w>", "low</w>"],), " low", "a '</w>' alone at the start is an empty word: its space stays"),
        Case((["the</w>", "slow", "est</w>", "tra", "ins</w>"],), "the slowest trains"),
        Case((["s", "low"],), "slow", "a last word without '</w>' (a text cut mid-word): no space to drop"),
        Case((["the</w>", "slow"],), "the slow", "the last word is unfinished: its pieces are text too"),
        Case(
            (["low</w>", "</w>"],),
            "low",
            "a '</w>' alone at the end is an empty word: the text still ends without a space (drop them all)",
        ),
        Case(
            (["low</w>", "</w>", "x</w>"],),
            "low  x",
            "a '</w>' alone between two words is an empty word: its space stays, so two spaces come between them",
        ),
        Case(
            (["low</w>", "</w>", "</w>"],),
            "low",
            "two '</w>' alone at the end: two empty words, and the text still ends without a space (drop them all)",
        ),
        Case(
            (["low</w>", "</w>", "</w>", "</w>"],),
            "low",
            "three '</w>' alone at the end: every space at the very end goes, however many there are",
        ),
        Case((["</w>", "</w>"],), "", "only empty words: every space is at the very end, so nothing is left"),
        Case(
            (["</w>", "</w>", "low"],),
            "  low",
            "two '</w>' alone at the start: two empty words, and both their spaces stay",
        ),
        Case(
            (["end</w>", "of</w>", "record</w>", "\x1e</w>"],),
            "end of record \x1e",
            "'end of record\\x1e' cut by \\w+|[^\\w\\s]+: the record separator U+001E is a word of its own "
            "(split with the regex module, as split_text splits, whose \\s does not count it as a space; "
            "str.isspace() and re's \\s do), so the text ends in it, not in a space, and it stays",
        ),
        Case(
            (["the</w>", "end\n</w>"],),
            "the end\n",
            "'the end\\n' split on spaces only (text.split(' ')): its last word keeps its line break, which is "
            "text, not a space, so it stays",
        ),
        Case(
            (["name</w>", "age\tyears\t</w>"],),
            "name age\tyears\t",
            "'name age\\tyears\\t' split on spaces only: the last word holds a tab and ends in one, and both stay "
            "(only spaces go)",
        ),
        Case(
            (["100\xa0km</w>", "left\xa0</w>"],),
            note="'100\\xa0km left\\xa0' split on spaces only: its words hold no-break spaces (U+00A0), one at the "
            "very end: they are text, not the space '</w>' leaves, so they stay",
        ),
        Case(
            (["one\r</w>", "line\r</w>"],),
            "one\r line\r",
            "'one\\r line\\r' split on spaces only: each word ends in a carriage return (a Windows line end "
            "'\\r\\n' cut before its '\\n'), which is text, not a space, so it stays, the last one too",
        ),
        Case(
            (["cafe\u0301</w>", "au</w>", "lait</w>"],),
            "cafe\u0301 au lait",
            "'café au lait' with its accent typed as a character of its own (e + U+0301, decomposed): decoding "
            "gives back the characters it got; it does not normalise them (NFC would make 'e' + U+0301 one 'é')",
        ),
        Case(
            (["end</w>", "\n"],),
            note="a text cut just after a line break: the space before the '\\n' belongs to the text and stays; only "
            "spaces at the very end go",
        ),
        Case(
            (["one</w>", "\nline</w>", "two</w>"],),
            note="'one \\nline two' split on spaces only: the space that ends the first line belongs to the text",
        ),
        Case((_encoded(CLASSIC_TEXT, 10),), note="the classic corpus, encoded with 10 merges"),
        Case((_encoded(PARAGRAPH, 40),), note="a paragraph of English, encoded with 40 merges"),
    ],
    diagnosers=[
        when(
            lambda a: isinstance(a.got, GeneratorType),
            "you returned a generator, not the text: my_decode_words returns one string, so join the pieces "
            "with ''.join(...)",
        ),
        when(
            lambda a: isinstance(a.got, list),
            "return one string (the text), not a list: join the symbols",
            any_type=True,
        ),
        same_as(lambda symbols: "".join(symbols), "the marker '</w>' is still in the text: turn each one into a space"),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, ""),
            "the words run together: each '</w>' marks the end of a word, so it becomes a space, not nothing",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " "),
            "there is a space after the last word: remove it (e.g. with .rstrip(' '))",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ")[:-1],
            "you cut off the last character whatever it is: when the last word has no '</w>' (['s', 'low'], a "
            "text cut mid-word) there is no space to drop. Remove only a space at the end: .rstrip(' ')",
        ),
        same_as(
            lambda symbols: " ".join("".join(symbols).split(END_OF_WORD)[:-1]),
            "the last word has no '</w>' here (a text cut mid-word), and you dropped it: the pieces after the "
            "last marker are text too",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").removesuffix(" "),
            "you dropped one space at the end, but a '</w>' alone at the end (an empty word) leaves another: the "
            "text must not end in a space at all, so drop every space at the very end (.rstrip(' '))",
        ),
        when(
            lambda a: (
                isinstance(a.got, str)
                and a.got.endswith(" ")
                and a.got.rstrip(" ") == a.expected
                and _lone_markers_at_the_end(a.args[0]) >= 2
            ),
            "you dropped one or two spaces at the end, but not all of them: several '</w>' alone at the end (empty "
            "words) leave one space each, so ['low</w>', '</w>', '</w>'] ends in three spaces and must give 'low'. "
            "Drop every space at the very end, however many (.rstrip(' '), or a while loop)",
        ),
        _normalised,
        same_as(
            lambda symbols: decode_words([symbol.replace("\t", " ") for symbol in symbols]),
            "you turned each tab into a space (.replace('\\t', ' ') or .expandtabs()), so the tab at the end went "
            "with the spaces and the one inside a word became a space: a tab in a symbol is a character of the text "
            "and stays. Turn only '</w>' into a space, then drop the spaces at the very end (.rstrip(' '))",
        ),
        same_as(
            lambda symbols: decode_words([symbol.replace("\xa0", " ") for symbol in symbols]),
            "you turned each no-break space (U+00A0, '\\xa0') into a space, so the one at the end went with the "
            "spaces: a no-break space in a symbol is a character of the text and stays. Turn only '</w>' into a "
            "space, then drop the spaces at the very end (.rstrip(' '))",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").rstrip(" \xa0"),
            "you dropped the no-break spaces at the end too (.rstrip(' \\xa0')): only ' ' is the space '</w>' "
            "leaves; a no-break space (U+00A0) at the end is a character of the text, and it stays. Drop only "
            "spaces: .rstrip(' ')",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").rstrip(),
            "you dropped every whitespace character at the end (.rstrip() with no argument, or \\s+$ with re): "
            "str and re count more than the space (the record separator '\\x1e' is one, and \\w+|[^\\w\\s]+ makes it a word). "
            "Drop only spaces: .rstrip(' ')",
        ),
        when(
            lambda a: (
                isinstance(a.got, str)
                and isinstance(a.expected, str)
                and a.got != a.expected
                and a.expected.startswith(a.got)
                and a.expected[len(a.got) :].strip(string.whitespace) == ""
                and a.expected[len(a.got) :].strip(" ") != ""
            ),
            "you dropped other whitespace at the end as well, a tab, a line break or a carriage return "
            "(.rstrip(string.whitespace), .rstrip(' \\r'), or \\s+$ with the regex module): a symbol can hold one (a text split on spaces only keeps them in its "
            "words, 'end\\n'), and it is text. Only the spaces that '</w>' left go: .rstrip(' ')",
        ),
        same_as(
            lambda symbols: re.sub(" +$", "", "".join(symbols).replace(END_OF_WORD, " ")),
            _DOLLAR_HINT,
        ),
        same_as(
            lambda symbols: re.sub(" +$", "", "".join(symbols).replace(END_OF_WORD, " "), flags=re.MULTILINE),
            _DOLLAR_HINT,
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").strip(),
            "you stripped BOTH ends, with .strip() and no argument: a '</w>' at the start leaves a space that belongs "
            "to the text, and with no argument every whitespace character goes, the record separator '\\x1e' too. "
            "Drop only the spaces at the end: .rstrip(' ')",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").lstrip(" "),
            "you dropped the spaces at the START of the text (.lstrip): keep those, and drop the ones at the "
            "end (.rstrip(' '))",
        ),
        same_as(
            lambda symbols: " ".join(word for word in "".join(symbols).split(END_OF_WORD) if word),
            "you dropped the empty words (a '</w>' on its own): each '</w>' is a space even when no letters come "
            "before it, so ['</w>', 'low</w>'] gives ' low' and ['low</w>', '</w>', 'x</w>'] 'low  x'. Replace "
            "every '</w>' by a space, then drop only the spaces at the very end (.rstrip(' '))",
        ),
        same_as(
            lambda symbols: re.sub(" +", " ", "".join(symbols).replace(END_OF_WORD, " ")).rstrip(" "),
            "you made a run of spaces into one (re.sub(' +', ' ', ...) or .replace('  ', ' ')): an empty word (a "
            "'</w>' on its own) between two words leaves its own space, so ['low</w>', '</w>', 'x</w>'] gives "
            "'low  x', with two. Replace every '</w>' by a space and change no other space but those at the very end",
        ),
        same_as(
            lambda symbols: "".join(symbols).replace(END_OF_WORD, " ").strip(" "),
            "you stripped the spaces at BOTH ends: a '</w>' at the start leaves a space that belongs to the text; "
            "drop only those at the end (.rstrip(' '))",
        ),
        same_as(
            lambda symbols: " ".join(symbols).replace(END_OF_WORD, "").strip(),
            "you put a space between every two symbols: pieces of one word must be joined without spaces",
        ),
    ],
    hint="text = ''.join(symbols).replace('</w>', ' '); then drop every space at the very end (.rstrip(' '))",
)


def check_decode_words(decode_words: Any, *, record: bool = True) -> CheckResult:
    """Check ``decode_words(symbols) -> str``: join, ``'</w>'`` becomes a space, no space at the very end."""
    return DECODE_WORDS.check(decode_words, record=record)
