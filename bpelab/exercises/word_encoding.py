"""Lesson 05 checker: ``encode_word(word, merges)``, replaying the learned merges in order.

The word is spelled as characters plus ``'</w>'``; then every merge, first learned first, is
applied everywhere in the word (left to right, no overlaps). The answer is a list of symbols.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, same_as, when
from bpelab.exercises.pair_merging import STRING_REPLACE_HINT, concatenated_text_merge, string_replace_merge
from bpelab.exercises.samples import CLASSIC_TEXT, PARAGRAPH
from bpelab.exercises.word_frequencies import MARKER_SPLIT_HINT, marker_split_apart
from bpelab.words import END_OF_WORD, Merge, encode_word, merge_symbols, replace_pair, train_bpe


def _longest_match(word: str, merges: list[Merge]) -> list[str]:
    """Greedy longest known piece from the left: a plausible method, but not BPE."""
    known = {new for _, new in merges} | set(word) | {END_OF_WORD}
    text, pieces, i = word + END_OF_WORD, [], 0
    while i < len(text):
        piece = max((p for p in known if text.startswith(p, i)), key=len, default=text[i])
        pieces.append(piece)
        i += len(piece)
    return pieces


def _first_occurrence_only(word: str, merges: list[Merge]) -> list[str]:
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        for i in range(len(symbols) - 1):
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [new]
                break
    return symbols


def _by_string_replace(word: str, merges: list[Merge]) -> list[str]:
    symbols: tuple[str, ...] = (*word, END_OF_WORD)
    for pair, _ in merges:
        symbols = string_replace_merge(symbols, pair)
    return list(symbols)


def _by_joined_text(word: str, merges: list[Merge]) -> list[str]:
    """Tests each pair by the text it joins to: ('a', 'bc') and ('ab', 'c') both join to 'abc'."""
    symbols: tuple[str, ...] = (*word, END_OF_WORD)
    for pair, _ in merges:
        symbols = concatenated_text_merge(symbols, pair)
    return list(symbols)


def _marker_after_merging(word: str, merges: list[Merge]) -> list[str]:
    """The plain characters merged, and '</w>' appended only then: no merge can join a character with it."""
    symbols: tuple[str, ...] = tuple(word)
    for pair, _ in merges:
        symbols = merge_symbols(symbols, pair)
    return [*symbols, END_OF_WORD]


def _in_place_then_two_steps(word: str, merges: list[Merge]) -> list[str]:
    """Merges in place (symbols[i : i + 2] = [new]), then steps i += 2: the list got one shorter, so the step skips
    the symbol after the new one. It misses the same pairs as the padded str.replace below."""
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        i = 0
        while i < len(symbols) - 1:
            if (symbols[i], symbols[i + 1]) == (a, b):
                symbols[i : i + 2] = [new]
                i += 2
            else:
                i += 1
    return symbols


def _last_symbol_dropped(word: str, merges: list[Merge]) -> list[str]:
    """Builds a new list while i < len(symbols) - 1, and never appends the last symbol when it was not merged."""
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        merged, i = [], 0
        while i < len(symbols) - 1:
            if (symbols[i], symbols[i + 1]) == (a, b):
                merged.append(new)
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def _marker_read_in_word(word: str, merges: list[Merge]) -> list[str]:
    """Spelled with a pattern that reads every '</w>' as the marker, the characters '<', '/', 'w', '>' typed inside
    the word too: regex.findall(r"</w>|.", word + "</w>")."""
    symbols: tuple[str, ...] = tuple(re.findall(r"</w>|.", word + END_OF_WORD, re.DOTALL))
    for pair, _ in merges:
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


_MARKER_READ_IN_WORD_HINT = (
    "you read the characters '<', '/', 'w', '>' typed inside the word as the marker '</w>' (a pattern such as "
    'regex.findall(r"</w>|.", word + "</w>") does): inside the word they are four ordinary characters, four '
    "symbols, and only the marker added at the end is the one symbol '</w>'. Spell the word as it is: "
    "list(word) + ['</w>']"
)


def _normalised(attempt: Attempt) -> str | None:
    """The answer is the replay on the word after unicodedata.normalize: spell the word as it is."""
    word, merges = attempt.args
    for form in ("NFC", "NFKC", "NFD", "NFKD"):
        normal = unicodedata.normalize(form, word)
        if normal != word and attempt.got == encode_word(normal, merges):
            return (
                f"you spelled the word after unicodedata.normalize('{form}', word): NFC joins an 'e' and a combining "
                "accent (U+0301) into one 'é', NFD splits 'ü' into 'u' and U+0308, NFKC turns the ligature 'ﬁ' into "
                "'f' and 'i'. Spell the word as it is, one symbol per character: list(word) + ['</w>']"
            )
    return None


_WHITESPACE_REMOVED_HINT = (
    "you removed whitespace from the word (word.strip(), or a split() joined back): a word of a text split on spaces "
    "only, text.split(' '), keeps its line break, 'end\\n', and that '\\n' is a character of the word, a symbol "
    "like any other, which a merge may join with the marker. With no merges 'end\\n' is ['e', 'n', 'd', '\\n', "
    "'</w>']. Spell the word as it is, whitespace and all: list(word) + ['</w>']"
)


def _padded_replace(word: str, merges: list[Merge]) -> list[str]:
    """Each merge as one str.replace of ' a b ' by ' ab ' on the word spelled with spaces around every symbol:
    two matches side by side share the space between them, and replace skips the second."""
    text = " " + " ".join([*word, END_OF_WORD]) + " "
    for (a, b), new in merges:
        text = text.replace(f" {a} {b} ", f" {new} ")
    return text.split()


def _padded_replace_repeated(word: str, merges: list[Merge]) -> list[str]:
    """The padded str.replace above, repeated for each merge until the text stops changing: the second pass merges
    what the first skipped, but pairs the run differently ('aaaaa' gives 'aa a aa', not 'aa aa a')."""
    text = " " + " ".join([*word, END_OF_WORD]) + " "
    for (a, b), new in merges:
        while (replaced := text.replace(f" {a} {b} ", f" {new} ")) != text:
            text = replaced
    return text.split()


def _in_place_then_two_steps_repeated(word: str, merges: list[Merge]) -> list[str]:
    """The in-place merge with i += 2, its pass repeated for each merge until the word stops changing."""
    symbols = [*word, END_OF_WORD]
    for (a, b), new in merges:
        while True:
            before, i = list(symbols), 0
            while i < len(symbols) - 1:
                if (symbols[i], symbols[i + 1]) == (a, b):
                    symbols[i : i + 2] = [new]
                    i += 2
                else:
                    i += 1
            if symbols == before:
                break
    return symbols


_REPEATED_SKIPPING_STEP_HINT = (
    "your merge step skips a match (after a merge it steps past the next symbol: an in-place merge "
    "symbols[i : i + 2] = [new] followed by i += 2, or one str.replace of ' a b ' by ' ab ' on the spelled word), and "
    "you repeated it until nothing changed: the second pass merges what the first skipped, but pairs a run of equal "
    "symbols differently. 'aaaaa' with ('a', 'a') must give ['aa', 'aa', 'a', '</w>'], each pair taken as it is met; "
    "your repeat gives ['aa', 'a', 'aa', '</w>'], and a later merge such as ('aa', 'a') then builds other symbols. "
    "Apply each merge once over the word, left to right, without overlaps, in the order learned (after an in-place "
    "merge step i += 1; when building a new list, i += 2)"
)


def _split_on_any_whitespace(
    variant: Callable[[str, list[Merge]], list[str] | None],
) -> Callable[[str, list[Merge]], list[str] | None]:
    """A variant that spells the word with spaces and ends with split(' '), as the learner who ends with split()
    writes it: the same text cut at every whitespace, so a '\\n' or '\\t' of the word is dropped too."""

    def encode(word: str, merges: list[Merge]) -> list[str] | None:
        symbols = variant(word, merges)
        return None if symbols is None else [part for symbol in symbols for part in symbol.split()]

    return encode


_REGEX_SPECIAL = set(".^$*+?{}[]()|\\")


def _regex_special(merges: list[Merge]) -> bool:
    return any(_REGEX_SPECIAL & set(symbol) for pair, _ in merges for symbol in pair)


def _regex_merge(
    pattern_of: Callable[[str, str], str], replacement_of: Callable[[str, str], str]
) -> Callable[[str, list[Merge]], list[str] | None]:
    """A learner's merge by re.sub on the word spelled with spaces, with the pattern and the replacement built from
    the pair as given; a pattern that does not compile gives None (the learner's code raised there)."""

    def encode(word: str, merges: list[Merge]) -> list[str] | None:
        symbols = [*word, END_OF_WORD]
        for (a, b), _ in merges:
            try:
                symbols = re.sub(pattern_of(a, b), replacement_of(a, b), " ".join(symbols)).split(" ")
            except re.error:
                return None
        return symbols

    return encode


# rf"(?<!\S){a} {b}(?!\S)": whole symbols, but '.', '(', '+', '?', '*', '\\' in a symbol are read as regex syntax
_unescaped_regex = _regex_merge(lambda a, b: rf"(?<!\S){a} {b}(?!\S)", lambda a, b: a + b)
# pattern = a + " " + b: neither escaped nor bounded
_unescaped_plain_regex = _regex_merge(lambda a, b: a + " " + b, lambda a, b: a + b)
# the pattern escaped, but the replacement a + b given as a string, whose backslashes re.sub reads as escapes
_unescaped_replacement = _regex_merge(lambda a, b: rf"(?<!\S){re.escape(a)} {re.escape(b)}(?!\S)", lambda a, b: a + b)

_RE_ESCAPE = (
    "escape each symbol: rf'(?<!\\S){re.escape(a)} {re.escape(b)}(?!\\S)', and give re.sub the new symbol as a "
    "function, lambda m: a + b, since it reads backslashes in a replacement string as escapes too (or compare whole "
    "symbols in a list, with no regex at all)"
)

_UNESCAPED_REGEX_HINT = (
    "you built the regex from the pair without re.escape: a symbol is text, not a pattern, but '.' in ('.', '</w>') "
    "matches any character (so 'o' + '</w>' became '.</w>'), '?' makes the space before it optional, and '(', '+', "
    "'*' are regex syntax too (re.error, or a wrong match). " + _RE_ESCAPE[0].upper() + _RE_ESCAPE[1:]
)

_UNESCAPED_PLAIN_REGEX_HINT = (
    "you merged with re.sub(a + ' ' + b, ...) on the spelled word: two bugs. The pattern is not escaped (re.escape), "
    "so '.', '?', '(', '+', '*' in a symbol are read as regex syntax ('.' matches any character); and with no "
    "boundaries it also matches inside longer symbols ('es t' contains 's t'). Compare whole symbols in a list, or "
    "escape each symbol between boundaries, rf'(?<!\\S){re.escape(a)} {re.escape(b)}(?!\\S)', with lambda m: a + b "
    "as the replacement (re.sub reads backslashes in a replacement string as escapes)"
)

_UNESCAPED_REPLACEMENT_HINT = (
    "your pattern is escaped, but the replacement is the string a + b, and re.sub reads the backslashes in a "
    "replacement string as escapes: the new symbol '\\n' (a backslash and an 'n') became a line break. Give the "
    "new symbol as a function, re.sub(pattern, lambda m: a + b, text), or compare whole symbols in a list"
)


def _regex_error(attempt: Attempt) -> str | None:
    """The learner's code raised re.error on merges that hold regex syntax: a pattern built without re.escape (or a
    replacement string whose backslash starts an escape)."""
    if not isinstance(attempt.error, re.error) or not _regex_special(attempt.args[1]):
        return None
    return (
        f"re.error ({attempt.error}): you built a regex from the pair without escaping it. A symbol is text, not a "
        "pattern: '(' opens a group, '+', '*', '?' repeat what comes before them, '.' matches any character, a "
        "backslash starts an escape. " + _RE_ESCAPE[0].upper() + _RE_ESCAPE[1:]
    )


def _lowest_rank_first(word: str, merges: list[Merge]) -> list[str]:
    """Lesson 07's loop: again and again merge the adjacent pair listed earliest. Equal to the replay in order
    for a list as training learns it, not for one where a merge's parts are built only by a later merge."""
    rank: dict[tuple[str, str], int] = {}
    for position, (pair, _) in enumerate(merges):
        rank.setdefault(pair, position)
    symbols = [*word, END_OF_WORD]
    while True:
        ranked = [(rank[pair], i) for i, pair in enumerate(zip(symbols, symbols[1:])) if pair in rank]
        if not ranked:
            return symbols
        _, i = min(ranked)
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]


def _stops_when_whole(word: str, merges: list[Merge]) -> list[str]:
    """Stops replaying once the word is one symbol plus '</w>', as if nothing could merge any more: a later merge
    ('low', '</w>') joins the two."""
    symbols: tuple[str, ...] = (*word, END_OF_WORD)
    for pair, _ in merges:
        if len(symbols) <= 2:
            break
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def _until_nothing_changes(word: str, merges: list[Merge]) -> list[str]:
    """The whole list replayed again and again until the word stops changing."""
    symbols: tuple[str, ...] = (*word, END_OF_WORD)
    while True:
        before = symbols
        for pair, _ in merges:
            symbols = merge_symbols(symbols, pair)
        if symbols == before:
            return list(symbols)


_ONCE_IN_ORDER = (
    "replay the list once, in order: a merge whose parts do not exist yet when its turn comes does nothing, "
    "even if a later merge builds those parts (with ('ab', 'c') listed before ('a', 'b'), 'abc' never forms)"
)


def _joined(attempt: Any) -> bool:
    return isinstance(attempt.got, str) and attempt.got.replace(" ", "") == "".join(attempt.expected)


_SKIPPED_AFTER_A_MERGE_HINT = (
    "after each merge your loop skips the symbol that follows the new one, so a pair starting there is never "
    "looked at: 'aaaa' with ('a', 'a') gives ['aa', 'a', 'a', '</w>'], not ['aa', 'aa', '</w>']. Two ways this "
    "happens: you merged in place (symbols[i : i + 2] = [new]) and then stepped i += 2, though the list just got "
    "one shorter (after an in-place merge, step i += 1); or you merged with one str.replace of ' a b ' by ' ab ' on "
    "the word spelled with spaces, where two matches side by side share the space between them and replace looks "
    "on only after the end of the first. Compare whole symbols in a list"
)

_BY_LENGTH_HINT = (
    "you replayed the merges sorted by the length of the symbol they make: a merge then runs before one learned "
    "earlier that competes for the same character, or before the merges that build its parts. Apply them in the "
    "order they were learned"
)

ENCODE_WORD = Exercise(
    name="encode_word",
    call="my_encode_word(word, merges)",  # the name lesson 05's stub gives it: the report's input line shows it
    reference=encode_word,
    solution=(replace_pair, merge_symbols, encode_word),
    cases=lambda: _cases(),
    diagnosers=[
        when(_joined, "return the list of symbols, e.g. ['low', '</w>'], not the text joined together"),
        when(
            lambda a: marker_split_apart(a.got),
            MARKER_SPLIT_HINT + ": start from list(word) + ['</w>'], not list(word + '</w>')",
            any_type=False,
        ),
        _normalised,
        same_as(lambda word, merges: encode_word(word.strip(), merges), _WHITESPACE_REMOVED_HINT),
        same_as(lambda word, merges: encode_word("".join(word.split()), merges), _WHITESPACE_REMOVED_HINT),
        same_as(_marker_read_in_word, _MARKER_READ_IN_WORD_HINT),
        _regex_error,
        same_as(_unescaped_regex, _UNESCAPED_REGEX_HINT),
        same_as(_split_on_any_whitespace(_unescaped_regex), _UNESCAPED_REGEX_HINT),
        same_as(_unescaped_plain_regex, _UNESCAPED_PLAIN_REGEX_HINT),
        same_as(_split_on_any_whitespace(_unescaped_plain_regex), _UNESCAPED_PLAIN_REGEX_HINT),
        same_as(_unescaped_replacement, _UNESCAPED_REPLACEMENT_HINT),
        same_as(_split_on_any_whitespace(_unescaped_replacement), _UNESCAPED_REPLACEMENT_HINT),
        same_as(_by_string_replace, STRING_REPLACE_HINT),
        same_as(_split_on_any_whitespace(_by_string_replace), STRING_REPLACE_HINT),
        same_as(
            _by_joined_text,
            "you compared the text two symbols join to (symbols[i] + symbols[i + 1] == new), not the pair: "
            "'a' + 'bc' joins to 'abc' too, though the merge is ('ab', 'c'). Compare the pair itself: "
            "(symbols[i], symbols[i + 1]) == (a, b)",
        ),
        same_as(_in_place_then_two_steps, _SKIPPED_AFTER_A_MERGE_HINT),
        same_as(
            _padded_replace,
            _SKIPPED_AFTER_A_MERGE_HINT,
        ),
        same_as(_padded_replace_repeated, _REPEATED_SKIPPING_STEP_HINT),
        same_as(_in_place_then_two_steps_repeated, _REPEATED_SKIPPING_STEP_HINT),
        same_as(
            _marker_after_merging,
            "the last symbol never merged with '</w>'. Three ways this happens: you skipped the merges that "
            "involve '</w>' (a test such as `if '</w>' in a or '</w>' in b: continue`), but ('0', '</w>') is a "
            "merge like any other and joins a last character with the marker; or you appended '</w>' after merging "
            "(the marker is a symbol of the word before merging, list(word) + ['</w>']); or your loop stops one "
            "pair short of the end (while i < len(symbols) - 1 looks at every pair, i < len(symbols) - 2 misses "
            "the last)",
        ),
        same_as(
            lambda word, merges: [*word, END_OF_WORD],
            "none of the merges was applied: you got back list(word) + ['</w>']. Two ways this happens: the "
            "loop does not unpack a merge, which is ((a, b), new_symbol) (write `for (a, b), new in merges:`), or "
            "what a merge returns is thrown away (merge_symbols returns a new tuple and leaves its "
            "input as it was: keep the result, `symbols = merge_symbols(symbols, (a, b))`)",
        ),
        when(
            lambda a: a.args[0] == "" and a.got == [],
            "an empty word is still a word that ends: its encoding is ['</w>'], the marker alone, so don't "
            "return [] for an empty word; list(word) + ['</w>'] already gives ['</w>']",
            any_type=False,
        ),
        same_as(
            _last_symbol_dropped,
            "your loop builds a new list while i < len(symbols) - 1, so the last symbol (at first the marker '</w>') "
            "is never appended when it was not merged: after the loop, append symbols[-1] if i == "
            "len(symbols) - 1, or loop while i < len(symbols) and merge only when i + 1 < len(symbols)",
        ),
        when(
            lambda a: END_OF_WORD not in "".join(a.got) and END_OF_WORD in "".join(a.expected),
            "the end-of-word marker '</w>' is missing: start from list(word) + ['</w>']",
            any_type=False,
        ),
        same_as(
            lambda word, merges: encode_word(word, merges[::-1]),
            "you replayed the merges in the wrong order (last learned first): apply them first to last, "
            "in the order they were learned",
        ),
        same_as(
            lambda word, merges: encode_word(word, sorted(merges)),
            "you replayed the merges in sorted order: apply them in the order they were learned",
        ),
        same_as(
            lambda word, merges: encode_word(word, sorted(merges, key=lambda m: len(m[1]))),
            _BY_LENGTH_HINT,
        ),
        same_as(
            lambda word, merges: encode_word(word, sorted(merges, key=lambda m: len(m[1]), reverse=True)),
            _BY_LENGTH_HINT,
        ),
        same_as(
            _stops_when_whole,
            "you stopped replaying once the word was one symbol plus '</w>', but the marker is a symbol too: a "
            "later merge such as ('low', '</w>') still joins them into 'low</w>'. Replay every merge in the list",
        ),
        same_as(
            _lowest_rank_first,
            "you merged, again and again, the pair that comes earliest in the list (lowest rank first): that equals the replay for a list in the order training learned it, but not for this "
            "one. " + _ONCE_IN_ORDER[0].upper() + _ONCE_IN_ORDER[1:],
        ),
        same_as(
            _until_nothing_changes,
            "you replayed the whole list again and again until the word stopped changing, so a merge got a second "
            "turn after a later one built its parts. " + _ONCE_IN_ORDER[0].upper() + _ONCE_IN_ORDER[1:],
        ),
        same_as(
            lambda word, merges: encode_word(word, merges[:1]),
            "only the first merge was applied: is your `return` indented inside the loop over the merges?",
        ),
        same_as(
            _longest_match,
            "you matched the longest known piece from the left; BPE instead replays the merges "
            "in the order they were learned, which can split a word differently",
        ),
        same_as(
            _first_occurrence_only,
            "each merge must be applied everywhere in the word, not just at its first occurrence",
        ),
    ],
    hint="symbols = list(word) + ['</w>']; for each merge in order, merge its pair everywhere (left to right); return symbols",
)


def _cases() -> list[Case]:
    classic = train_bpe(CLASSIC_TEXT, 10).merges
    paragraph = train_bpe(PARAGRAPH, 40).merges
    return [
        Case(("low", [(("l", "o"), "lo"), (("lo", "w"), "low")]), ["low", "</w>"], "the example from the lesson"),
        Case(("low", []), ["l", "o", "w", "</w>"], "no merges: the characters plus the marker"),
        Case(
            ("abc", [(("b", "c"), "bc"), (("a", "b"), "ab")]),
            ["a", "bc", "</w>"],
            "order matters: ('b', 'c') was learned first, so 'ab' can no longer form",
        ),
        Case(
            ("20", [(("0", "</w>"), "0</w>"), (("2", "0"), "20")]),
            ["2", "0</w>"],
            "order matters: '0</w>' was learned before the shorter '20', and took the '0'",
        ),
        Case(
            ("ab", [(("a", "b"), "ab"), (("b", "</w>"), "b</w>")]),
            ["ab", "</w>"],
            "order matters: 'ab' was learned before the longer 'b</w>', and took the 'b'",
        ),
        Case(("aaa", [(("a", "a"), "aa")]), ["aa", "a", "</w>"], "left to right, without overlaps"),
        Case(
            ("aaaa", [(("a", "a"), "aa")]),
            note="left to right, without overlaps: the pair after a merge is looked at too, so four a's make two 'aa'",
        ),
        Case(
            ("aaaaa", [(("a", "a"), "aa")]),
            note="one pass, left to right: each pair is taken as it is met, so the lone 'a' is the last one",
        ),
        Case(
            ("aaaaa", [(("a", "a"), "aa"), (("aa", "a"), "aaa")]),
            note="each merge once, in order: ('a', 'a') leaves 'aa', 'aa', 'a', and only then ('aa', 'a') joins the "
            "last two",
        ),
        Case(
            ("aaaaaa", [(("a", "a"), "aa"), (("aa", "aa"), "aaaa")]),
            note="each merge once, in order: three 'aa', then ('aa', 'aa') joins the first two",
        ),
        Case(
            ("abcab", [(("a", "b"), "ab")]),
            ["ab", "c", "ab", "</w>"],
            "a merge is applied everywhere in the word, at each place its pair stands, not only the first",
        ),
        Case(
            ("banana", [(("a", "n"), "an"), (("an", "a"), "ana")]),
            ["b", "an", "ana", "</w>"],
            "a later merge builds on an earlier one",
        ),
        Case(
            ("abc", [(("ab", "c"), "abc"), (("a", "b"), "ab")]),
            ["ab", "c", "</w>"],
            "once, in order: when ('ab', 'c') has its turn there is no 'ab' yet, and it gets no second turn",
        ),
        Case(
            ("abcd", [(("ab", "c"), "abc"), (("a", "b"), "ab"), (("c", "d"), "cd")]),
            ["ab", "cd", "</w>"],
            "once, in order: ('ab', 'c') has its turn before 'ab' exists, and ('c', 'd') then takes the 'c' "
            "(merging the earliest-listed pair again and again would build 'abc' first)",
        ),
        Case(
            ("abc", [(("b", "c"), "bc"), (("ab", "c"), "abc")]),
            ["a", "bc", "</w>"],
            "compare the pair, not the joined text: 'a' + 'bc' joins to 'abc' too, but ('ab', 'c') finds no 'ab'",
        ),
        Case(("", [(("a", "b"), "ab")]), ["</w>"], "the empty word is just the marker"),
        Case(
            ("hello", [((".", "</w>"), ".</w>")]),
            note="a symbol is text: ('.', '</w>') joins only a real full stop with the marker (as an unescaped regex, "
            "'.' matches any character)",
        ),
        Case(
            ("f(x)", [(("(", "x"), "(x"), (("(x", ")"), "(x)")]),
            note="'(' and ')' are symbols like any other (as an unescaped regex, '(' opens a group)",
        ),
        Case(
            ("c++", [(("+", "+"), "++"), (("c", "++"), "c++")]),
            note="'+' is a symbol like any other (in a regex it repeats what comes before it)",
        ),
        Case(
            ("a?", [(("a", "?"), "a?")]),
            note="'?' is a symbol like any other (in a regex it makes what comes before it optional)",
        ),
        Case(("x*y", [(("*", "y"), "*y")]), note="'*' is a symbol like any other (in a regex it repeats)"),
        Case(
            ("a\\nb", [(("\\", "n"), "\\n")]),
            note="a backslash and an 'n' are two characters, and the merge makes the two-character symbol '\\\\n' "
            "(not a line break)",
        ),
        Case(
            ("low", [(("l", "o"), "lo"), (("lo", "w"), "low"), (("low", "</w>"), "low</w>")]),
            ["low</w>"],
            "'low' plus '</w>' is still two symbols: the later merge ('low', '</w>') joins them",
        ),
        Case(
            ("The", [(("T", "h"), "Th"), (("t", "h"), "th")]),
            ["Th", "e", "</w>"],
            "'T' is not 't': the word is spelled as it is, capitals and all",
        ),
        Case(
            ("\ufb01ü👍🏽", [(("ü", "👍"), "ü👍")]),
            ["\ufb01", "ü👍", "🏽", "</w>"],
            "one symbol per character as Python counts them: the ligature ﬁ, ü, the thumbs-up and its skin tone "
            "(not bytes, not one symbol per emoji as drawn; NFKC would make 'ﬁ' two letters, NFD 'ü' two characters)",
        ),
        Case(("lower", classic), note="a word of the classic corpus, 10 merges learned from it"),
        Case(("slowly", classic), note="an unseen word falls back to smaller pieces"),
        Case(("flowing", classic), note="another unseen word"),
        Case(("widest", classic), note="a word whose ending was learned with its marker"),
        Case(("lighthouses", paragraph), note="40 merges learned from a paragraph of English"),
        Case(
            ("lower", classic[::-1]),
            note="section 3's reversed list: ('lo', 'w') comes before ('l', 'o') builds 'lo', so 'low' never forms",
        ),
        Case(
            ("cafe\u0301", [(("c", "a"), "ca")]),
            ["ca", "f", "e", "\u0301", "</w>"],
            "'cafe' and a combining acute accent (U+0301): five characters, so 'e' and the accent are two symbols "
            "(NFC would join them into one 'é')",
        ),
        Case(
            ("x</w>y", [(("y", "</w>"), "y</w>")]),
            ["x", "<", "/", "w", ">", "y</w>"],
            "'<', '/', 'w', '>' typed inside a word are four characters, four symbols: only the marker added at "
            "the end is '</w>'",
        ),
        Case(
            ("end\n", [(("e", "n"), "en"), (("\n", "</w>"), "\n</w>")]),
            ["en", "d", "\n</w>"],
            "a text split on spaces only (text.split(' ')) leaves its line break in the last word, 'end\\n': the "
            "'\\n' is a character of the word, a symbol like any other, and ('\\n', '</w>') joins it with the marker",
        ),
        Case(
            ("a\tb", [(("a", "\t"), "a\t")]),
            ["a\t", "b", "</w>"],
            "a tab inside a word is a character too: 'a', '\\t', 'b' are three symbols",
        ),
    ]


def check_encode_word(encode_word: Any, *, record: bool = True) -> CheckResult:
    """Check ``encode_word(word, merges) -> list[str]``: merges replayed in the order they were learned."""
    return ENCODE_WORD.check(encode_word, record=record)
