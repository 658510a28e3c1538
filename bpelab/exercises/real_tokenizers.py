"""Checkers for lesson 07 (regex pre-tokenization and the real tokenizers).

``split_pieces``: cut a text with a GPT-style pattern, as the real tokenizers do before BPE.
``find_parents``: given only a production vocabulary (bytes -> rank), find the two tokens a token
was merged from: the parts that merging its bytes lowest rank first, with only the ranks below its own, reaches.
For a token that rank-order merging never builds (Llama 3 has 678) those are three or more parts, and the answer
is all of them. The toy vocabularies are small enough to check by hand; the real cases use GPT-4's (cl100k_base)
and Llama 3's ranks, cut down to the tokens that can take part (the token's substrings).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable

import regex

from bpelab.exercises.byte_level import BYTEARRAY
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.samples import MIXED_SCRIPTS
from bpelab.exercises.text_changes import NORMAL_FORMS, normal_form, whitespace_lost
from bpelab.patterns import PATTERNS, split_text
from bpelab.production import load_encoding, shared_ranks
from bpelab.token_build import merge_below_rank

Ranks = dict[bytes, int]


def split_pieces(text: str, pattern: str) -> list[str]:
    """Every match of ``pattern`` in ``text``, in order, with the `regex` module (it knows ``\\p{L}``)."""
    return split_text(text, pattern)


def find_parents(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """Where BPE on ``token``'s bytes stops with only the ranks below its own: its two parents, or, for a token
    rank-order merging never builds (Llama 3's 678), the three or more parts it stops at."""
    table = substring_ranks(token, ranks)  # only these can take part; keeps a 128,000-token table fast
    return tuple(merge_below_rank(token, ranks[token], table.get))


def substring_ranks(token: bytes, ranks: Ranks) -> Ranks:
    """The ranks of ``token``'s multi-byte substrings (lowest rank first), then of the 256 single bytes.

    BPE on ``token``'s bytes only ever meets its substrings, so this small table gives the same merges.
    """
    inside = {token[i:j] for i in range(len(token)) for j in range(i + 2, len(token) + 1)}
    kept = sorted((ranks[t], t) for t in inside if t in ranks)
    return {**{t: r for r, t in kept}, **{bytes([i]): ranks[bytes([i])] for i in range(256)}}


# ---- split_pieces -----------------------------------------------------------------------------


def _split_cases() -> list[Case]:
    return [
        Case(("don't stop", PATTERNS["gpt2"]), note="GPT-2: a contraction"),
        Case(("  hello world", PATTERNS["gpt2"]), note="GPT-2: two spaces before a word"),
        Case(("I paid 1234567 dollars", PATTERNS["cl100k"]), note="GPT-4 (cl100k): digits in runs of at most three"),
        Case(("x = foo(a,b);\n    return x", PATTERNS["cl100k"]), note="GPT-4 (cl100k): a line of code"),
        Case(("getHTTPResponseCode", PATTERNS["o200k"]), note="GPT-4o (o200k): CamelCase"),
        Case(
            ("the cat and the dog and the end", PATTERNS["gpt2"]), note="GPT-2: ' the' and ' and' occur more than once"
        ),
        Case((MIXED_SCRIPTS, PATTERNS["llama3"]), note="Llama 3: several scripts and an emoji"),
        Case(
            ("THE END   ", PATTERNS["gpt2"]), note="GPT-2: spaces at the very end of the text (its \\s++$ alternative)"
        ),
        Case(("    return x\n  ", PATTERNS["llama3"]), note="Llama 3: a text that ends in a new, indented line"),
        Case(
            ("a" * 100 + " " + "b" * 70, PATTERNS["gpt2"]),
            note="GPT-2: a word of 100 letters is one piece, however long (no slicing of the text first)",
        ),
        Case(("a\n\n\nb\n\n    y = 2", PATTERNS["cl100k"]), note="GPT-4 (cl100k): blank lines are one piece"),
        Case(
            ("a" * 30_000 + " b", PATTERNS["llama3"]),
            note="Llama 3: a word of 30,000 letters is one piece (Meta's tokenizer.py cuts runs longer than 25,000 "
            "before tiktoken sees them; the pattern does not)",
        ),
        Case(
            ("a" * 400_001 + " b", PATTERNS["gpt2"]),
            note="GPT-2: a word of 400,001 letters is one piece, longer than any slice a tokenizer cuts the text into "
            "first (Meta's are at most 400,000 characters)",
        ),
        Case(
            ("cafe\u0301 ﬁnal ½ Ｈｅｌｌｏ", PATTERNS["o200k"]),
            note="GPT-4o: an accent written as its own character, a ligature, a fraction, full-width letters",
        ),
        Case(("first line\r\nsecond line\r\n", PATTERNS["cl100k"]), note="GPT-4 (cl100k): Windows line breaks, \\r\\n"),
        Case(("\tdef f():\n\t\treturn 1", PATTERNS["gpt2"]), note="GPT-2: tabs"),
        Case(("the last line\n", PATTERNS["llama3"]), note="Llama 3: a text that ends in a line break"),
        Case(
            ("100\xa0km,\u2009fast\u3000ok\u2028end", PATTERNS["o200k"]),
            note="GPT-4o: a no-break space (U+00A0), a thin space, an ideographic space, a line separator",
        ),
        Case(("x\n\ny", PATTERNS["gpt2"]), note="GPT-2: two line breaks before a word, two equal pieces side by side"),
        Case(("000000 and 100100", PATTERNS["cl100k"]), note="GPT-4 (cl100k): two equal groups of digits side by side"),
        Case(("", PATTERNS["gpt2"]), note="an empty text: no pieces at all"),
        Case(("   ", PATTERNS["gpt2"]), note="GPT-2: a text of only spaces is one piece (its \\s++$ alternative)"),
        Case((" \n\t", PATTERNS["o200k"]), note="GPT-4o: a text of only whitespace, a line break among it"),
    ]


def _one_pattern_for_all(attempt: Attempt) -> str | None:
    """The learner split every text with one pattern of ``PATTERNS`` and ignored the ``pattern`` argument."""
    if attempt.error is not None or not isinstance(attempt.got, list):
        return None
    text, pattern = attempt.args
    for name, fixed in PATTERNS.items():
        if fixed == pattern or attempt.got != split_text(text, fixed):
            continue
        if all(got == split_text(args[0], fixed) for args, got in attempt.history()):
            return (
                f"you split every text with PATTERNS[{name!r}] and ignored the `pattern` argument: each case hands "
                "you the pattern to use (GPT-2's, GPT-4's, GPT-4o's or Llama 3's). Split with the one you are "
                "given: regex.findall(pattern, text)"
            )
    return None


def _pieces_text(attempt: Attempt) -> str | None:
    """The learner's pieces joined, when they are a list of str and the function returned."""
    got = attempt.got
    if attempt.error is not None or not isinstance(got, list) or not all(isinstance(p, str) for p in got):
        return None
    return "".join(got)


def _lines_lost(text: str, pattern: str) -> list[str]:
    """The text split into lines first (text.split('\\n')), the pattern run on each: the line breaks are gone."""
    return [piece for line in text.split("\n") for piece in regex.findall(pattern, line)]


def _lines_put_back(text: str, pattern: str) -> list[str]:
    """The text split into lines first, the pattern run on each, and each '\\n' put back as a piece of its own."""
    lines = text.split("\n")
    pieces: list[str] = []
    for number, line in enumerate(lines):
        pieces += regex.findall(pattern, line)
        if number < len(lines) - 1:
            pieces.append("\n")
    return pieces


_LINES_FIRST = (
    "you split the text into lines first (text.split('\\n')) and ran the pattern on each line: the line breaks are "
    "text, and the pattern puts them into pieces (');\\n' keeps its line break, and a run of line breaks with the "
    "spaces after it is one piece)"
)
_LINES_LOST_HINT = (
    _LINES_FIRST + ", so splitting lines first lost them: the pieces joined no longer give back the text. Run the "
    "pattern on the whole text: " + "regex.findall(pattern, text)"
)
_LINES_PUT_BACK_HINT = (
    _LINES_FIRST + ", so putting each '\\n' back between the lines moves it into pieces of their own, not the "
    "pieces the pattern makes. Run the pattern on the whole text: regex.findall(pattern, text)"
)


_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The characters str.splitlines ends a line at."""


def _piece_cuts(pieces: list[str]) -> set[int]:
    """Where the pieces start and end, as positions in the text they spell."""
    return {sum(map(len, pieces[:k])) for k in range(len(pieces) + 1)}


def _cut_at_line_breaks(attempt: Attempt) -> str | None:
    """The pieces spell the text and are the right ones cut further, every extra cut just after a line break: the
    text was split into lines first, however the line breaks were kept (line + '\\n', splitlines(keepends=True))."""
    text = attempt.args[0]
    if _pieces_text(attempt) != text or not isinstance(attempt.expected, list):
        return None
    extra = _piece_cuts(attempt.got) - _piece_cuts(attempt.expected)
    if not extra or not (_piece_cuts(attempt.expected) < _piece_cuts(attempt.got)):
        return None
    if not all(text[c - 1] in _LINE_ENDS for c in extra):
        return None
    return (
        _LINES_FIRST + ", so a piece the pattern makes across a line break comes back cut after that break: "
        f"{len(extra)} of your cuts fall just after a line break, inside a piece. Run the pattern on the whole text: "
        "regex.findall(pattern, text)"
    )


def _cut_in_slices(attempt: Attempt) -> str | None:
    """The pieces spell the text, but some right piece comes back in parts: the text was cut into slices first."""
    if _pieces_text(attempt) != attempt.args[0] or not isinstance(attempt.expected, list):
        return None
    cuts = {sum(map(len, attempt.got[:k])) for k in range(len(attempt.got) + 1)}
    right = {sum(map(len, attempt.expected[:k])) for k in range(len(attempt.expected) + 1)}
    if not (right < cuts):
        return None
    starts = sorted(right)
    cut = max(
        (p for p, start in zip(attempt.expected, starts) if any(start < c < start + len(p) for c in cuts)), key=len
    )
    text = attempt.args[0]
    if all(text[c - 1].isspace() != text[c].isspace() for c in cuts - right):
        return (
            "every piece is right but some come in parts, each cut where whitespace begins or ends: you cut the "
            "text at whitespace first (e.g. regex.split(r'(\\s+)', text), then the pattern on each part). The "
            f"pattern's pieces take the space before a word with them: {cut!r} keeps its leading space, so a cut "
            "at the whitespace splits it. Run the pattern on the whole text: regex.findall(pattern, text)"
        )
    return (
        f"every piece is right but some come in parts: a piece longer than the slices you ran the pattern on (one of "
        f"{len(cut):,} characters here) was cut where a slice ended. Slicing the text first, as Meta's Llama 3 "
        "tokenizer.py does to keep tiktoken from failing, changes the pieces wherever a cut falls inside one. Run "
        "the pattern on the whole text: regex.findall(pattern, text)"
    )


def _edge_whitespace_lost(attempt: Attempt) -> str | None:
    """The pieces spell the text less whitespace at its start or end: .strip(), or a last piece of spaces dropped."""
    joined, text = _pieces_text(attempt), attempt.args[0]
    where = None if joined is None else whitespace_lost(text, joined)
    if where is None:
        return None
    return (
        f"the whitespace at the {where} of the text is missing from your pieces (.strip() or .rstrip() on the "
        "text, or a piece of only whitespace dropped): it is text too, and makes pieces of its own (GPT-2's and "
        "GPT-4's \\s++$ alternative matches whitespace at the very end). Joined together, the pieces must give "
        "back the text exactly"
    )


def _normalised(attempt: Attempt) -> str | None:
    """The pieces spell the text after unicodedata.normalize: split the text as it is, not a normalised copy."""
    joined, text = _pieces_text(attempt), attempt.args[0]
    form = None if joined is None else normal_form(text, joined)
    if form is None:
        return None
    return (
        f"your pieces spell the text after unicodedata.normalize('{form}', ...): {NORMAL_FORMS}. "
        f"{_code_points(attempt)}Split the text as it is: joined together, the pieces must give it back exactly"
    )


def _code_points(attempt: Attempt) -> str:
    """The first piece that differs, written with escapes: 'cafe\\u0301' and 'caf\\xe9' print alike as text."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(expected, list):
        return ""
    for want, have in zip(expected, got):
        if want != have:
            return f"Written as code points, the text has {want!a} where your piece is {have!a}. "
    return ""


def _through_a_set(attempt: Attempt) -> bool:
    """The answer holds each right piece once, not in the text's order: what a set makes of the matches."""
    got, expected = attempt.got, attempt.expected
    return len(set(got)) == len(got) and set(got) == set(expected) and got != expected


_FINDALL = "use the `regex` module's findall, which returns the matches in order: regex.findall(pattern, text)"

SPLIT_PIECES = Exercise(
    name="split_pieces",
    call="split_pieces(text, pattern)",
    reference=split_pieces,
    course_functions=(split_text,),
    cases=_split_cases,
    diagnosers=[
        _one_pattern_for_all,
        same_as(
            lambda text, pattern: regex.findall(pattern, text.replace("\r\n", "\n")),
            "you turned each '\\r\\n' (a Windows line break) into '\\n': split the text as it is; '\\r' is a "
            "character of the text too, and the pieces joined must give it back exactly",
        ),
        same_as(
            lambda text, pattern: regex.findall(pattern, text.expandtabs()),
            "you turned the tabs into spaces (.expandtabs()): a tab is a character of its own, and the pattern "
            "makes pieces of it as it is",
        ),
        same_as(
            lambda text, pattern: regex.findall(pattern, text.rstrip("\n")),
            "you dropped the line break at the end of the text (.rstrip('\\n')): it is text too and makes a piece of "
            "its own; the pieces joined must give back the text exactly",
        ),
        same_as(
            lambda text, pattern: regex.findall(pattern, text.replace("\xa0", " ")),
            "you turned the no-break space ('\\xa0') into a plain space: it is another character, with other bytes "
            "and other tokens, so split the text as it is; the pieces joined must give it back exactly",
        ),
        when(
            lambda attempt: attempt.args[0] == "" and attempt.got == [""],
            "an empty text has no pieces: return [] (regex.findall gives [] by itself; `or [text]` adds an empty "
            "piece that is no match)",
        ),
        when(
            lambda attempt: attempt.args[0] != "" and not attempt.args[0].strip() and attempt.got == [],
            "a text of only whitespace still has pieces: you returned [] for it (a test such as `if text.strip()` "
            "or `if not text.strip(): return []`), but its spaces are text too, and the pattern makes pieces of "
            "them. Only the empty text has none: return regex.findall(pattern, text) for every text",
        ),
        same_as(
            lambda text, pattern: [p for line in text.splitlines(keepends=True) for p in regex.findall(pattern, line)],
            "you split the text into lines first: run the pattern on the whole text, where a run of line breaks (and "
            "the spaces after them) is one piece",
        ),
        on_error(
            re.error,
            "the standard `re` module does not know \\p{L} (any letter): `import regex` and " + _FINDALL,
            contains="bad escape",
        ),
        same_as(
            lambda text, pattern: text.split(),
            "str.split() throws the spaces away and ignores the pattern: " + _FINDALL,
        ),
        same_as(
            lambda text, pattern: regex.split(pattern, text),
            "regex.split gives what lies BETWEEN the matches; the pieces are the matches themselves: " + _FINDALL,
        ),
        same_as(
            lambda text, pattern: [p.strip() for p in regex.findall(pattern, text)],
            "keep the spaces: ' hello' (with its space) and 'hello' are different pieces",
        ),
        same_as(
            lambda text, pattern: [p for p in regex.findall(pattern, text) if p.strip()],
            "keep the pieces made only of whitespace: every character of the text must be in some piece",
        ),
        same_as(
            lambda text, pattern: list(dict.fromkeys(regex.findall(pattern, text))),
            "a piece that occurs twice in the text must be in the list twice: you kept each piece once "
            "(dict.fromkeys, or skipping pieces already seen, drops the repeats). Return every match, repeats "
            "included",
        ),
        same_as(
            lambda text, pattern: [piece for piece, _ in itertools.groupby(regex.findall(pattern, text))],
            "two equal pieces side by side are two pieces: you dropped a piece equal to the one before it "
            "(itertools.groupby, or comparing each piece with the previous one). Return every match",
        ),
        same_as(
            lambda text, pattern: sorted(regex.findall(pattern, text)),
            "you sorted the pieces: keep them in the order they occur in the text, as findall returns them",
        ),
        when(
            _through_a_set,
            "the right pieces in another order: list(set(...)) loses the order of the text (a set keeps none), "
            "and it keeps a piece that occurs twice only once. Return the matches as a list, as they come",
            any_type=False,
        ),
        same_as(
            lambda text, pattern: regex.findall(pattern, text, regex.IGNORECASE),
            "you passed regex.IGNORECASE: the pattern decides about case itself (GPT-4o's tells upper from lower "
            "case to split CamelCase; GPT-2's knows contractions only in lower case). Call "
            "regex.findall(pattern, text) with no flags",
        ),
        same_as(_lines_lost, _LINES_LOST_HINT),
        same_as(_lines_put_back, _LINES_PUT_BACK_HINT),
        _edge_whitespace_lost,
        _cut_at_line_breaks,
        _cut_in_slices,
        _normalised,
        when(
            lambda attempt: (
                isinstance(attempt.got, list)
                and bool(attempt.got)
                and all(isinstance(piece, (bytes, bytearray)) for piece in attempt.got)
            ),
            "your pieces are bytes, not str (p.encode(), or the pattern run on text.encode()): split_pieces cuts the "
            "text itself, so each piece is a str, the characters of the text; the bytes come later, when BPE encodes "
            "each piece. Return the matches as they are: regex.findall(pattern, text)",
        ),
        when(
            lambda attempt: isinstance(attempt.got, list) and "".join(map(str, attempt.got)) != attempt.args[0],
            "joined together, the pieces must give back the text exactly: " + _FINDALL,
        ),
    ],
    hint=_FINDALL,
)


def check_split_pieces(split_pieces: Callable[..., object], *, record: bool = True) -> CheckResult:
    """Check ``split_pieces(text, pattern) -> list[str]``."""
    return SPLIT_PIECES.check(split_pieces, record=record)


# ---- find_parents -----------------------------------------------------------------------------


def _toy(*tokens: bytes) -> Ranks:
    """A vocabulary with the given multi-byte tokens at ranks 256, 257, ... (listed first, so they
    show in messages) and the 256 single bytes at ranks 0 to 255."""
    return {**{t: 256 + i for i, t in enumerate(tokens)}, **{bytes([i]): i for i in range(256)}}


class _RealRanks:
    """GPT-4's (or another encoding's) ranks, cut down to the tokens that can occur while BPE builds a token.

    Each encoding is loaded once and held while the cases are built: ``load_encoding`` shares an encoding only
    while something holds it, and loading one again for every case cost a check most of its time."""

    def __init__(self) -> None:
        self._held: dict[str, Ranks] = {}

    def __call__(self, token: bytes, encoding: str = "cl100k_base") -> Ranks:
        if encoding not in self._held:
            self._held[encoding] = shared_ranks(load_encoding(encoding))
        return substring_ranks(token, self._held[encoding])


def _listed_out_of_order(ranks: Ranks, seed: int) -> Ranks:
    """The same ranks, the multi-byte tokens listed in a shuffled order (still first, so they show in messages):
    a dict's order is not its ranks' order, and an answer must read the rank values."""
    multi = [(t, r) for t, r in ranks.items() if len(t) >= 2]
    random.Random(seed).shuffle(multi)
    return {**dict(multi), **{t: r for t, r in ranks.items() if len(t) < 2}}


def _parents_cases() -> list[Case]:
    _real = _RealRanks()
    return [
        Case((b"aaa", _toy(b"aa", b"aaa")), (b"aa", b"a"), "two equal pairs: the leftmost merges first"),
        Case(
            (b"abc", _toy(b"bc", b"ab", b"abc")), (b"a", b"bc"), "'bc' has a lower rank than 'ab', so it merged first"
        ),
        Case(
            (b" the", _toy(b"he", b" t", b"the", b" the")),
            (b" t", b"he"),
            "' ' and 'the' are both tokens, but BPE never builds ' the' from them",
        ),
        Case((b" hello", _real(b" hello")), note="GPT-4's ' hello'"),
        Case((b" strawberry", _real(b" strawberry")), note="GPT-4's ' strawberry'"),
        Case((b".onreadystatechange", _real(b".onreadystatechange")), note="GPT-4's '.onreadystatechange'"),
        Case((b" out", _real(b" out")), note="GPT-4's ' out': ' ' + 'out', though ' o' + 'ut' are both older too"),
        Case((b"quest", _real(b"quest")), note="GPT-4's 'quest'"),
        Case((b"ield", _real(b"ield")), note="GPT-4's 'ield'"),
        Case(
            (b"abc", _toy(b"abc", b"ab")),
            (b"a", b"b", b"c"),
            "'abc' (rank 256) is older than 'ab' (rank 257): no pair below its rank is left, so the merging stops "
            "at three parts, a token rank-order merging never builds",
        ),
        Case(
            (b"abc", {b"abc": 258, b"ab": 257, b"bc": 256, **{bytes([i]): i for i in range(256)}}),
            (b"a", b"bc"),
            "the same vocabulary as check 2, listed youngest first: read the ranks, not the order of the keys",
        ),
        Case(
            (b" hello", _listed_out_of_order(_real(b" hello"), 1)),
            note="GPT-4's ' hello', its tokens listed in a shuffled order: the ranks decide, not where a key stands",
        ),
        Case(
            (" температу".encode(), _real(" температу".encode(), "llama3")),
            note="Llama 3's ' температу': its part 'ерату' (rank 102530) is older than its own part 'ату' (103457), "
            "so replaying the merges once in rank order passes 'ерату' before 'ату' exists; merge the lowest-ranked "
            "pair again and again instead",
        ),
        Case(
            (b"aaaa", _toy(b"aaa", b"aa", b"aaaa")),
            (b"aaa", b"a"),
            "one merge at a time: 'a' + 'a' (rank 257) at the left first, then 'aa' + 'a' makes 'aaa' (rank 256, "
            "lower than the 257 of the 'a' + 'a' still left)",
        ),
        Case(
            (b".:.:", _real(b".:.:", "llama3")),
            note="Llama 3's '.:.:' (rank 100421), which rank-order merging never builds: '.:.' is younger (105051)",
        ),
        Case(
            (" vi\u1ec7c".encode(), _real(" vi\u1ec7c".encode(), "llama3")),
            note="Llama 3's ' vi\u1ec7c', which rank-order merging never builds (section 7)",
        ),
        Case(
            (b"\xc3\xa9", _real(b"\xc3\xa9")),
            (b"\xc3", b"\xa9"),
            "GPT-4's 'é', one character of two bytes: its parents are those two bytes, each half a character",
        ),
        Case(
            (b" \xe2\x80\x9c", _real(b" \xe2\x80\x9c")),
            (b" \xe2\x80", b"\x9c"),
            "GPT-4's ' “': the cut between its parents falls inside the three bytes of '“'",
        ),
        Case(
            (b"\xe2\x80", _real(b"\xe2\x80")),
            (b"\xe2", b"\x80"),
            "GPT-4's b'\\xe2\\x80', the first two bytes of a three-byte character: no text decodes to it",
        ),
    ]


def _rightmost_on_ties(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """The lowest rank below the token's first, as it should be, but of two equal pairs the rightmost merges."""
    parts, limit = [token[i : i + 1] for i in range(len(token))], ranks[token]
    while True:
        best: tuple[int, int] | None = None
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and rank < limit and (best is None or rank <= best[0]):
                best = (rank, i)
        if best is None:
            return tuple(parts)
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


def _first_split(token: bytes, ranks: Ranks) -> tuple[bytes, bytes]:
    for i in range(1, len(token)):
        if token[:i] in ranks and token[i:] in ranks:
            return token[:i], token[i:]
    raise ValueError("no split")


def _leftmost_pair_first(token: bytes, ranks: Ranks) -> tuple[bytes, bytes]:
    parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        for i in range(len(parts) - 1):
            if ranks.get(parts[i] + parts[i + 1], limit) < limit:
                parts[i : i + 2] = [parts[i] + parts[i + 1]]
                break
        else:
            break
    return tuple(parts)  # type: ignore[return-value]


def _no_limit(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """The lesson's loop without ``ranks[token]``: any pair that is a token merges, the younger ones too."""
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        candidates = [
            (ranks[parts[i] + parts[i + 1]], i) for i in range(len(parts) - 1) if parts[i] + parts[i + 1] in ranks
        ]
        if not candidates:
            break
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def _in_dict_order(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """Never reads a rank: walks the dict in its own order up to the token's key, merging the first multi-byte key
    that stands as an adjacent pair; right only where the dict lists its tokens lowest rank first."""
    parts = [bytes([b]) for b in token]
    merged = True
    while merged and len(parts) > 2:
        merged = False
        for key in ranks:
            if key == token:
                break
            pairs = [i for i in range(len(parts) - 1) if len(key) >= 2 and parts[i] + parts[i + 1] == key]
            if pairs:
                parts[pairs[0] : pairs[0] + 2] = [key]
                merged = True
                break
    return tuple(parts)


def _every_occurrence_at_once(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """Each step merges every occurrence of the lowest-ranked pair below the token's (left to right, no overlaps),
    as a merge is applied to a whole word in training: here it skips the pairs a merge just made."""
    parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        ranked = [ranks[a + b] for a, b in zip(parts, parts[1:]) if ranks.get(a + b, limit) < limit]
        if not ranked:
            break
        lowest, merged, i = min(ranked), [], 0
        while i < len(parts):
            if i + 1 < len(parts) and ranks.get(parts[i] + parts[i + 1]) == lowest:
                merged.append(parts[i] + parts[i + 1])
                i += 2
            else:
                merged.append(parts[i])
                i += 1
        parts = merged
    return tuple(parts)


def _highest_rank_first(token: bytes, ranks: Ranks, *, leftmost_on_ties: bool) -> tuple[bytes, ...]:
    """The lesson's loop with ``max`` where ``min`` belongs: the youngest pair below the token's rank first."""
    parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        candidates = [
            (ranks[a + b], -i if leftmost_on_ties else i)
            for i, (a, b) in enumerate(zip(parts, parts[1:]))
            if ranks.get(a + b, limit) < limit
        ]
        if not candidates:
            break
        _, i = max(candidates)
        i = abs(i)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


_HIGHEST_RANK_HINT = (
    "you merged the pair with the HIGHEST rank (max): the lowest rank was learned first, so take min, and on a tie "
    "the leftmost pair (min over (rank, position) gives both)"
)


def _parts_are_ints(attempt: Attempt) -> bool:
    """Parts that are ints: ``list(token)`` or a loop over the bytes gives one int per byte, 97 for b'a'."""
    got, token = attempt.got, attempt.args[0]
    if not isinstance(got, (tuple, list)) or not any(isinstance(part, int) for part in got):
        return False
    if not all(isinstance(p, bytes) or (isinstance(p, int) and 0 <= p < 256) for p in got):
        return False
    spelled = b"".join(bytes([p]) if isinstance(p, int) else p for p in got)
    return spelled == token  # the token's bytes, some or all as ints (not ranks, which _as_ranks names)


def _none_where_merging_stops_early(attempt: Attempt) -> str | None:
    """None (a ``return None``, or a path with no ``return``) where the answer is three or more parts."""
    if attempt.error is not None or attempt.got is not None:
        return None
    if not isinstance(attempt.expected, tuple) or len(attempt.expected) <= 2:
        return None
    return (
        "this token is one that merging in rank order never builds (Llama 3 has 678 such): with only the ranks "
        "below ranks[token] the merging stops at more than two parts, and those parts are the answer, not None. "
        "Where no adjacent pair has a rank below ranks[token], return tuple(parts), all of them (your function "
        "returned None here: a `return None`, or a path that ends without reaching `return`)"
    )


def _raised_where_merging_stops_early(attempt: Attempt) -> str | None:
    """The function raised on a token rank-order merging never builds (the answer there is three or more parts)."""
    if attempt.error is None or not isinstance(attempt.expected, tuple) or len(attempt.expected) <= 2:
        return None
    return (
        "this token is one that merging in rank order never builds (Llama 3 has 678 such): with only the ranks "
        "below ranks[token], the merging stops at more than two parts. Stop when no adjacent pair has a rank below "
        "ranks[token] and return the parts you have, all of them"
    )


def _as_ranks(token: bytes, ranks: Ranks) -> tuple[int, int]:
    a, b = find_parents(token, ranks)
    return ranks[a], ranks[b]


def _one_merge_then_return(token: bytes, ranks: Ranks) -> tuple[bytes, ...]:
    """The lesson's loop with its ``return`` inside: the parts after one merge, the lowest-ranked below the token's."""
    parts = [bytes([b]) for b in token]
    limit = ranks[token]
    candidates = [
        (ranks[parts[i] + parts[i + 1]], i)
        for i in range(len(parts) - 1)
        if ranks.get(parts[i] + parts[i + 1], limit) < limit
    ]
    if len(parts) > 2 and candidates:
        _, i = min(candidates)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def _parts_misspell_token(attempt: Attempt) -> bool:
    """Bytes parts that, joined, are not the token: a merge that dropped, doubled or moved bytes."""
    got, token = attempt.got, attempt.args[0]
    return (
        isinstance(got, (tuple, list))
        and all(isinstance(part, bytes) for part in got)
        and isinstance(token, bytes)
        and b"".join(got) != token
    )


_MISSPELLED_HINT = (
    "joined together, your parts are not the token: a merge must replace two neighbours by their joined bytes, "
    "in their place, and keep every other part (parts[i : i + 2] = [parts[i] + parts[i + 1]])"
)


def _from_characters(token: bytes, ranks: Ranks, *, bytes_when_undecodable: bool = False) -> tuple[bytes, ...]:
    """The lesson's loop started from the token's characters (``token.decode("utf-8")``), not its bytes; with
    ``bytes_when_undecodable``, from its single bytes only where ``.decode()`` raises."""
    try:
        parts = [c.encode("utf-8") for c in token.decode("utf-8")]
    except UnicodeDecodeError:
        if not bytes_when_undecodable:
            raise
        parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        ranked = [
            (ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:])) if ranks.get(a + b, limit) < limit
        ]
        if not ranked:
            break
        _, i = min(ranked)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


_FROM_CHARACTERS_HINT = (
    "you started from the token's characters (token.decode('utf-8')): BPE here starts from single bytes, "
    "[bytes([b]) for b in token], and a merge can join half a character to its neighbour. GPT-4's 'é' "
    "(b'\\xc3\\xa9') has the parents b'\\xc3' and b'\\xa9', and some tokens, such as b'\\xe2\\x80', are no "
    "whole characters at all, so .decode() raises UnicodeDecodeError on them"
)

_CHARACTERS_THEN_BYTES_HINT = (
    "you started from the token's characters (token.decode('utf-8')), and from its bytes only when .decode() "
    "fails: BPE starts from single bytes for every token, [bytes([b]) for b in token], those that decode too. A "
    "merge can join half a character to its neighbour: GPT-4's 'é' (b'\\xc3\\xa9') decodes to one character, "
    "yet its parents are b'\\xc3' and b'\\xa9'"
)

_LOWEST_RANK = (
    "start from the single bytes; again and again merge the adjacent pair whose joined bytes have the "
    "LOWEST rank (below the token's own rank), until two parts are left: those are the parents. When no pair "
    "below the token's rank is left sooner, return the parts you have"
)

FIND_PARENTS = Exercise(
    name="find_parents",
    call="find_parents(token, ranks)",
    reference=find_parents,
    # merge_by_rank is the lowest-rank loop the lesson shows (section 7's parts_below calls it): a find_parents that
    # gives it a rank function of its own, allowing only ranks below the token's, wrote the answer's idea itself
    course_functions=(merge_below_rank,),
    cases=_parents_cases,
    runaway_hint="probably an endless loop: when no adjacent pair has a rank below ranks[token] (a token that merging "
    "in rank order never builds stops at three or more parts), your while loop looks at the same parts again and "
    "again: break there (or return tuple(parts)); and a loop over positions must move its counter on (i += 1)",
    diagnosers=[
        when(
            lambda attempt: (
                isinstance(attempt.got, (tuple, list))
                and any(isinstance(part, bytearray) for part in attempt.got)
                and all(isinstance(part, (bytes, bytearray)) for part in attempt.got)
            ),
            BYTEARRAY.format(what="parts are")
            + " (and, mutable, cannot be a key of ranks). Return each part as bytes, "
            "bytes(part), or build the parts as bytes from the start: [bytes([b]) for b in token]",
        ),
        when(
            _parts_are_ints,
            "your parts are ints, not bytes: list(token), or a loop over a bytes object, gives one int per byte "
            "(97 for b'a'), and adding two ints gives their sum, never a key of ranks. Start from one-byte bytes "
            "objects: [bytes([b]) for b in token] (or token[i : i + 1])",
        ),
        _none_where_merging_stops_early,
        same_as(_from_characters, _FROM_CHARACTERS_HINT),
        same_as(
            lambda token, ranks: _from_characters(token, ranks, bytes_when_undecodable=True),
            _CHARACTERS_THEN_BYTES_HINT,
        ),
        on_error(UnicodeDecodeError, _FROM_CHARACTERS_HINT),
        same_as(
            _in_dict_order,
            "you took the tokens in the order the dict lists them: a dict's order is the order its keys were put "
            "in, not the order of the ranks. Read each rank's value, ranks[parts[i] + parts[i + 1]], and merge the "
            "pair whose value is lowest (and below ranks[token])",
        ),
        same_as(
            _no_limit,
            "you merged pairs of any rank, the limit ranks[token] left out: when this token was created only the "
            "tokens ranked below it existed, so merge only pairs whose joined bytes have a rank below ranks[token] "
            "(a younger token such as Llama 3's '.:.' for '.:.:' must not take part)",
        ),
        _raised_where_merging_stops_early,
        on_error(
            KeyError,
            "a KeyError: ranks[parts[i] + parts[i + 1]] fails for a pair that is no token, and most adjacent pairs "
            "are none. Look the pair up with ranks.get(joined) (None when it is no token), or test `joined in ranks` "
            "first, and skip those pairs",
        ),
        same_as(
            _every_occurrence_at_once,
            "you merged every occurrence of the lowest-ranked pair at once: BPE on a token makes one merge at a "
            "time (the leftmost on a tie), then looks at the pairs again, so a pair the merge just made can go "
            "next. In b'aaaa', 'a' + 'a' (rank 257) at the left gives aa|a|a, and then 'aa' + 'a' (rank 256) "
            "merges, not the other 'a' + 'a'",
        ),
        same_as(
            _rightmost_on_ties,
            "of two equal pairs (the same bytes, so the same rank) you merged the rightmost: BPE merges the LEFTMOST "
            "on a tie, as it met them, so b'aaa' becomes aa|a, not a|aa. Take a pair only when its rank is strictly "
            "lower than the best so far (<, not <=), or scan from the left and keep the first",
        ),
        same_as(lambda token, ranks: _highest_rank_first(token, ranks, leftmost_on_ties=False), _HIGHEST_RANK_HINT),
        same_as(lambda token, ranks: _highest_rank_first(token, ranks, leftmost_on_ties=True), _HIGHEST_RANK_HINT),
        same_as(
            _first_split,
            "you took the first split whose two halves are both tokens; several splits can be, "
            "but only one is the way BPE built it: " + _LOWEST_RANK,
        ),
        same_as(
            _leftmost_pair_first,
            "you merged the leftmost pair that is a token; BPE merges the pair with the lowest rank first "
            "(it was learned earliest), wherever it is",
        ),
        same_as(
            _as_ranks, "you returned the parents' ranks; return their bytes, e.g. (b' th', b'e') for GPT-4's b' the'"
        ),
        when(
            lambda attempt: (
                isinstance(attempt.got, tuple)
                and all(isinstance(part, str) for part in attempt.got)
                and tuple(part.encode("utf-8") for part in attempt.got) == attempt.expected
            ),
            "you returned the parents as str: return them as bytes, as they are in ranks (leave out the "
            ".decode()); a part can be half a character, which no str can hold",
        ),
        when(
            lambda attempt: attempt.got in ((attempt.args[0],), [attempt.args[0]], attempt.args[0]),
            "you merged all the way back to the token itself: when it was created, only tokens of lower rank existed. "
            "Stop when no adjacent pair has a rank below ranks[token]",
        ),
        when(_parts_misspell_token, _MISSPELLED_HINT),
        same_as(
            _one_merge_then_return,
            "you stopped after the first merge: is your `return` indented inside the `while` loop? Merge again and "
            "again until two parts are left",
        ),
        when(
            lambda attempt: (
                isinstance(attempt.got, (tuple, list))
                and len(attempt.got) > 2
                and isinstance(attempt.expected, tuple)
                and len(attempt.expected) == 2
            ),
            "more than two parts are left: keep merging while some adjacent pair has a rank below ranks[token]",
        ),
        when(
            lambda attempt: (
                isinstance(attempt.got, (tuple, list))
                and len(attempt.got) == 2
                and isinstance(attempt.expected, tuple)
                and len(attempt.expected) > 2
            ),
            "this token is one that merging in rank order never builds: with only the ranks below ranks[token] the "
            "merging stops at more than two parts, and the answer is those parts. You went on past the limit, or "
            "joined parts into two another way",
        ),
    ],
    hint=_LOWEST_RANK,
)


def check_find_parents(find_parents: Callable[..., object], *, record: bool = True) -> CheckResult:
    """Check ``find_parents(token, ranks) -> (left_bytes, right_bytes)``, or the three or more parts where
    rank-order merging stops short of the token."""
    return FIND_PARENTS.check(find_parents, record=record)


__all__ = [
    "FIND_PARENTS",
    "SPLIT_PIECES",
    "check_find_parents",
    "check_split_pieces",
    "find_parents",
    "split_pieces",
    "substring_ranks",
]
