"""Checkers for lesson 06 (byte-level BPE): build the vocabulary from merges, decode ids to text.

Both exercises are about the same fact: a token is a run of BYTES, and a character may be split
between two tokens. The cases are small and hand-checkable (``"café"`` whose ``é`` straddles two
tokens, an emoji cut after two of its four bytes), then one real tokenizer trained on a paragraph.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from bpelab.byte_level import BPETokenizer
from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, on_error, same_as, when
from bpelab.exercises.samples import MIXED_SCRIPTS, PARAGRAPH
from bpelab.exercises.text_changes import NORMAL_FORMS, crlf_made_lf, normal_form, whitespace_lost

Merges = dict[tuple[int, int], int]
Vocab = dict[int, bytes]


def build_vocab(merges: Merges) -> Vocab:
    """Every id and its bytes: the 256 byte values, then each merge's two parents joined, in order."""
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def decode_ids(vocab: Vocab, ids: list[int]) -> str:
    """Join all the bytes first, then read them as UTF-8 once; a cut character becomes U+FFFD."""
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


# ---- build_vocab ------------------------------------------------------------------------------

_THE = {(116, 104): 256, (256, 101): 257, (32, 257): 258}  # "th", "the", " the"
_GAP = {(104, 105): 256, (33, 33): 300, (256, 33): 301}  # "hi", "!!", "hi!": ids with a gap


def _trained(text: str, vocab_size: int) -> BPETokenizer:
    return BPETokenizer().train(text, vocab_size)


def _vocab_cases() -> list[Case]:
    return [
        Case(({},), note="no merges: only the 256 byte values"),
        Case(({(104, 105): 256},), note="one merge: 'h' + 'i'"),
        Case((dict(_THE),), note="a merge whose parent is itself a merged token"),
        Case(
            (dict(_GAP),),
            note="new ids that do not follow each other (256, then 300 and 301): each new id is the merge's value",
        ),
        Case((dict(_trained(PARAGRAPH, 300).merges),), note="the merges of a tokenizer trained on a paragraph"),
    ]


def _base() -> Vocab:
    return {i: bytes([i]) for i in range(256)}


def _pairs_as_byte_values(merges: Merges) -> Vocab:
    return {**_base(), **{new: bytes([a, b]) for (a, b), new in merges.items()}}


def _right_then_left(merges: Merges) -> Vocab:
    vocab = _base()
    for (a, b), new in merges.items():
        vocab[new] = vocab[b] + vocab[a]
    return vocab


def _merges_only(merges: Merges) -> Vocab:
    vocab = _base()
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return {i: v for i, v in vocab.items() if i >= 256}


BYTEARRAY = (
    "bytes expected (bytearray is another type): your {what} bytearray objects, which compare equal to bytes but "
    "are not bytes"
)
"""The start of the hint for bytearray where bytes belong: lesson 06's build_vocab and lesson 07's find_parents."""


def _bytearray_values(attempt: Attempt) -> str | None:
    got = attempt.got
    if not isinstance(got, dict) or not any(isinstance(v, bytearray) for v in got.values()):
        return None
    key = next(k for k, v in got.items() if isinstance(v, bytearray))
    return (
        BYTEARRAY.format(what="values are")
        + f" (vocab[{key!r}] is {got[key]!r}; a bytearray start, bytearray([i]), makes every value joined from it "
        "one too). Start from bytes: {i: bytes([i]) for i in range(256)}, and vocab[a] + vocab[b] stays bytes"
    )


def _chr_encoded(merges: Merges) -> Vocab:
    vocab = {i: chr(i).encode() for i in range(256)}
    for (a, b), new in merges.items():
        vocab[new] = vocab[a] + vocab[b]
    return vocab


def _renumbered(attempt: Attempt) -> str | None:
    """The right tokens, each under an id the learner counted (len(vocab), 256 + k), not the merge's new id."""
    got, merges = attempt.got, attempt.args[0]
    if not isinstance(got, dict) or not isinstance(merges, dict) or got == attempt.expected:
        return None
    counted = list(range(256, 256 + len(merges)))
    if sorted(k for k in got if isinstance(k, int) and k >= 256) != counted or sorted(merges.values()) == counted:
        return None
    return (
        "your new tokens have the ids 256, 257, 258, … counted by you (vocab[len(vocab)] or vocab[256 + k]), but "
        f"the ids here are {sorted(merges.values())}: each merge gives its own new id, the value of the dict. "
        "Read it from the merge: for (a, b), new in merges.items(): vocab[new] = vocab[a] + vocab[b]"
    )


_START_FROM_BYTES = "start from the 256 byte values, {i: bytes([i]) for i in range(256)}, then add one entry per merge"


def _parent_used_too_soon(attempt: Attempt) -> str | None:
    """A KeyError for an id that a merge creates: the learner's vocab reached that merge's child too early."""
    error, merges = attempt.error, attempt.args[0]
    if not isinstance(error, KeyError) or not error.args or not isinstance(merges, dict):
        return None
    missing = error.args[0]
    if missing not in merges.values():
        return None
    return (
        f"id {missing!r} was used before it was made: it is the result of a merge, so it exists only once that "
        "merge has been added. Add the merges one at a time, in the order they were learned (the order of the "
        "dict, which is also the order of the new ids): for (a, b), new in merges.items(): "
        "vocab[new] = vocab[a] + vocab[b]. (sorted(merges.items()) sorts by the pair, and a comprehension inside "
        "vocab.update(...) reads vocab before any new entry is in it.)"
    )


BUILD_VOCAB = Exercise(
    name="build_vocab",
    call="build_vocab(merges)",
    reference=build_vocab,
    cases=_vocab_cases,
    diagnosers=[
        on_error(
            ValueError,
            "bytes([a, b]) reads the two ids as byte values, but an id above 255 stands for several bytes: "
            "look the parents up instead, vocab[a] + vocab[b]",
            contains="range(0, 256)",
        ),
        same_as(
            _pairs_as_byte_values,
            "bytes([a, b]) only works while both parents are single bytes: use vocab[a] + vocab[b]",
        ),
        same_as(_right_then_left, "the left token's bytes come first: vocab[new] = vocab[a] + vocab[b]"),
        same_as(_merges_only, "the merged tokens are right, but the 256 byte tokens are missing: " + _START_FROM_BYTES),
        _renumbered,
        _bytearray_values,
        same_as(
            _chr_encoded,
            "chr(i).encode() is the UTF-8 of the character number i: one byte below 128, but two from 128 on "
            "(chr(233).encode() is b'\\xc3\\xa9'). Token i is the single byte i: bytes([i])",
        ),
        _parent_used_too_soon,
        on_error(
            TypeError,
            "merges is a dict, {(a, b): new}, and a loop over a dict gives its keys only, the pairs (a, b): "
            "`for (a, b), new in merges:` tries to unpack the id a as a pair. Loop over its items: "
            "`for (a, b), new in merges.items():`",
            contains="cannot unpack non-iterable int",
        ),
        on_error(KeyError, "a parent id is missing from your vocab: " + _START_FROM_BYTES),
        when(
            lambda attempt: isinstance(attempt.got, dict) and any(isinstance(v, str) for v in attempt.got.values()),
            "the values must be bytes, not str: bytes([i]) for a byte value (chr(i) gives a character)",
        ),
        when(
            lambda attempt: isinstance(attempt.got, dict) and len(attempt.got) < len(attempt.expected),
            "some ids are missing: " + _START_FROM_BYTES,
        ),
    ],
    hint="for each merge, in order: vocab[new] = vocab[a] + vocab[b]",
)


def check_build_vocab(build_vocab: Callable[..., object], *, record: bool = True) -> CheckResult:
    """Check ``build_vocab(merges) -> {id: bytes}``."""
    return BUILD_VOCAB.check(build_vocab, record=record)


# ---- decode_ids -------------------------------------------------------------------------------

_CAFE = build_vocab({(99, 97): 256, (256, 102): 257, (257, 0xC3): 258})  # "ca", "caf", "caf" + first byte of é


def _decode_cases() -> list[Case]:
    tok = _trained(PARAGRAPH + " " + MIXED_SCRIPTS, 320)
    mixed = tok.encode(MIXED_SCRIPTS)
    cut = next(k for k in range(1, len(mixed)) if decode_ids(tok.vocab, mixed[:k]).endswith("\ufffd"))
    return [
        Case((_base(), [104, 105]), "hi", "two byte tokens"),
        Case((dict(_CAFE), [258, 0xA9]), "café", "the two bytes of 'é' are in two different tokens"),
        Case((dict(_CAFE), [258]), "caf\ufffd", "the ids stop after the first byte of 'é'"),
        Case((_base(), [0xF0, 0x9F, 0x91, 0x8B, 33]), "👋!", "an emoji written as its four bytes"),
        Case((_base(), [72, 0xF0, 0x9F]), "H\ufffd", "an emoji cut after two of its four bytes"),
        Case(
            (_base(), [0x9F, 0x91, 0x8B, 33]),
            "\ufffd\ufffd\ufffd!",
            "the ids start inside '👋': its last three bytes, each a '\ufffd' of its own, then '!'",
        ),
        Case((dict(_CAFE), [258, 32, 111, 107]), "caf\ufffd ok", "'é' cut in the middle of the text, which goes on"),
        Case((_base(), [0x80, 0xBF, 104, 105]), "\ufffd\ufffdhi", "two stray continuation bytes before the text"),
        Case(
            (_base(), [0xE4, 0xB8, 0xE4, 0xB8, 0xAD]),
            "\ufffd中",
            "'中' (E4 B8 AD) cut after two bytes, then a whole '中': the cut one is one '\ufffd', the next comes whole",
        ),
        Case(
            (_base(), [0x80, 0x80, 0xE4, 0xB8, 0xAD]),
            "\ufffd\ufffd中",
            "two stray continuation bytes, then a whole '中' (E4 B8 AD)",
        ),
        Case((_base(), [32, 104, 105, 10]), " hi\n", "whitespace at both ends: text too"),
        Case((_base(), list(b"a\r\nb")), "a\r\nb", "a Windows line break, '\\r\\n'"),
        Case((_base(), list("ﬁ½".encode())), "ﬁ½", "a ligature and a fraction, given back as they are"),
        Case(
            (_base(), list("cafe\u0301".encode())),
            "cafe\u0301",
            "'café' written with 'e' and a combining acute accent (U+0301, decomposed): two characters, given back "
            "as two (NFC would make them one 'é')",
        ),
        Case(
            (_base(), list("\ufeffhi".encode())),
            "\ufeffhi",
            "ids whose bytes start with EF BB BF, the UTF-8 of U+FEFF (a byte order mark), then 'hi': those bytes "
            "are text the ids hold, and decoding gives them back",
        ),
        Case((_base(), []), "", "no ids at all"),
        Case((dict(tok.vocab), mixed)),
        Case((dict(tok.vocab), mixed[:cut]), note="a real tokenizer's ids, stopped inside a character"),
    ]


def _prefix_then_one(vocab: Vocab, ids: list[int]) -> str:
    data = b"".join(vocab[i] for i in ids)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        return data[: error.start].decode("utf-8") + "\ufffd"


def _ignore_then_one(vocab: Vocab, ids: list[int]) -> str:
    data = b"".join(vocab[i] for i in ids)
    text = data.decode("utf-8", errors="ignore")
    return text + "\ufffd" if text.encode() != data else text


def _last_byte_dropped(vocab: Vocab, ids: list[int]) -> str:
    data = b"".join(vocab[i] for i in ids)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data[:-1].decode("utf-8", errors="ignore") + "\ufffd"


def _never_flushed(vocab: Vocab, ids: list[int]) -> str:
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    return "".join(decoder.decode(vocab[i]) for i in ids)


def _flushed_after_four_bytes(vocab: Vocab, ids: list[int]) -> str:
    """Byte by byte into a buffer, decoded strictly; a buffer still failing at 4 bytes is flushed with 'replace'."""
    out, buffer = "", b""
    for byte in b"".join(vocab[i] for i in ids):
        buffer += bytes([byte])
        try:
            out += buffer.decode("utf-8")
            buffer = b""
        except UnicodeDecodeError:
            if len(buffer) >= 4:
                out += buffer.decode("utf-8", errors="replace")
                buffer = b""
    return out + buffer.decode("utf-8", errors="replace")


def _stopped_at_the_first_cut(attempt: Attempt) -> bool:
    """One '\ufffd' where the first broken sequence starts, and nothing after it, where the text goes on."""
    got, want = attempt.got, attempt.expected
    if not isinstance(got, str) or not isinstance(want, str) or not got.endswith("\ufffd"):
        return False
    start = len(got) - 1
    return want[:start] == got[:start] and want[start : start + 1] == "\ufffd" and len(want) > len(got)


def _text_changed(attempt: Attempt) -> str | None:
    """The right text, then changed: stripped, normalised, its '\r\n' made '\n'."""
    got, want = attempt.got, attempt.expected
    where = whitespace_lost(want, got)
    if where is not None:
        return (
            f"the whitespace at the {where} of the text is missing (.strip() or .rstrip() on the decoded text): "
            "spaces and line breaks are text too, and decoding gives back every byte's character: " + _JOIN_THEN_DECODE
        )
    form = normal_form(want, got)
    if form is not None:
        return (
            f"your text is the decoded text after unicodedata.normalize('{form}', ...): {NORMAL_FORMS}. Written as "
            f"code points, the text is {want!a} and yours {got!a}. Decoding gives back the characters the bytes "
            "spell, as they are: " + _JOIN_THEN_DECODE
        )
    if crlf_made_lf(want, got):
        return (
            "you turned each '\\r\\n' (a Windows line break) into '\\n': '\\r' is a character of the text too, "
            "and decoding gives back every one: " + _JOIN_THEN_DECODE
        )
    return None


def _byte_order_mark_dropped(attempt: Attempt) -> bool:
    """The text started with U+FEFF (bytes EF BB BF), and the answer is the text without it."""
    got, want = attempt.got, attempt.expected
    return isinstance(got, str) and isinstance(want, str) and want.startswith("\ufeff") and got == want[1:]


def _one_per_bad_byte(attempt: Attempt) -> bool:
    """The right text, but more '\ufffd' than errors='replace' gives: one per broken byte, not per maximal invalid
    sequence (a hand-written decoder that steps one byte after a failed character)."""
    got, want = attempt.got, attempt.expected
    return (
        isinstance(got, str)
        and isinstance(want, str)
        and got.count("\ufffd") > want.count("\ufffd")
        and got.replace("\ufffd", "") == want.replace("\ufffd", "")
    )


def _one_token_at_a_time(vocab: Vocab, ids: list[int]) -> str:
    return "".join(vocab[i].decode("utf-8", errors="replace") for i in ids)


def _ignore(vocab: Vocab, ids: list[int]) -> str:
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="ignore")


def _latin1(vocab: Vocab, ids: list[int]) -> str:
    return b"".join(vocab[i] for i in ids).decode("latin-1")


def _backslashes(vocab: Vocab, ids: list[int]) -> str:
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="backslashreplace")


_JOIN_THEN_DECODE = (
    "join the bytes of all the tokens first, then decode once: b''.join(...).decode('utf-8', errors='replace')"
)

DECODE_IDS = Exercise(
    name="decode_ids",
    call="decode_ids(vocab, ids)",
    reference=decode_ids,
    # the course's BPETokenizer decodes ids itself (lesson 06, section 5): handed a vocab, it is the answer
    course_functions=(BPETokenizer.decode, BPETokenizer),
    cases=_decode_cases,
    diagnosers=[
        same_as(
            _one_token_at_a_time,
            "you decoded each token on its own, which breaks a character split between two tokens: "
            + _JOIN_THEN_DECODE,
        ),
        on_error(
            UnicodeDecodeError,
            "these ids cut a character, and errors='strict' (the default) refuses it: use errors='replace', and "
            + _JOIN_THEN_DECODE,
        ),
        same_as(
            _never_flushed,
            "your incremental decoder holds back the bytes of a character not finished at the end of the ids, "
            "waiting for the rest, and you never told it the ids were over: finish with "
            "decoder.decode(b'', final=True), which turns those bytes into '\ufffd' (or " + _JOIN_THEN_DECODE + ")",
        ),
        same_as(
            _flushed_after_four_bytes,
            "you decode a buffer of bytes and, while it fails, wait until it holds 4 bytes before flushing it with "
            "errors='replace': after a cut character, a buffer flushed only after 4 bytes swallows the next "
            "character's lead bytes too (E4 B8 then E4 B8 AD, a cut '中' and a whole one, give three '\ufffd' "
            "instead of '\ufffd中'). Don't guess where a broken sequence ends: decode the whole byte string once with "
            "errors='replace': " + _JOIN_THEN_DECODE,
        ),
        same_as(
            _prefix_then_one,
            "on a UnicodeDecodeError you kept the text up to the first broken byte and put one '\ufffd' for all the "
            "rest (data[:e.start] + '\ufffd'): a cut can come anywhere, and the text goes on after it. "
            "errors='replace' puts a '\ufffd' for each broken sequence, where it is, and decodes the rest: "
            + _JOIN_THEN_DECODE,
        ),
        same_as(
            _last_byte_dropped,
            "on a UnicodeDecodeError you dropped the last byte and put one '\ufffd' at the end: that holds only for a "
            "character cut at the very end of the ids, but a cut can come at the start or in the middle. "
            "errors='replace' puts a '\ufffd' for each broken sequence, where it is: " + _JOIN_THEN_DECODE,
        ),
        same_as(
            _ignore_then_one,
            "errors='ignore' drops the broken bytes, and the one '\ufffd' you add goes at the end of the text, not "
            "where the bytes were: errors='replace' puts a '\ufffd' for each broken sequence, where it is: "
            + _JOIN_THEN_DECODE,
        ),
        when(
            _stopped_at_the_first_cut,
            "your text stops at the first broken sequence, with one '\ufffd' for all the rest, but the text goes on "
            "after a cut: errors='replace' puts a '\ufffd' for each broken sequence, where it is, and decodes the "
            "rest (a byte that only continues a character is one '\ufffd' of its own): " + _JOIN_THEN_DECODE,
        ),
        when(
            _one_per_bad_byte,
            "your text has a '\ufffd' for each broken byte, and errors='replace' puts one for each maximal invalid "
            "sequence, not one per byte: the start of a character cut short (F0 9F, the first two of the emoji's "
            "four bytes) is a single '\ufffd', and a byte gets one of its own only when it can neither start a "
            "character nor continue the one before it (a stray continuation byte). Let Python find where a broken "
            "sequence ends: " + _JOIN_THEN_DECODE,
        ),
        _text_changed,
        when(
            _byte_order_mark_dropped,
            "the U+FEFF at the start is missing: .decode('utf-8-sig') (or .lstrip('\\ufeff'), .replace('\\ufeff', "
            "'')) drops a byte order mark, but here its bytes EF BB BF are ids' bytes like any others, and decoding "
            "gives back every character they spell. Decode with 'utf-8', not 'utf-8-sig': " + _JOIN_THEN_DECODE,
        ),
        same_as(
            _ignore,
            "errors='ignore' silently drops the bytes of a cut character: use errors='replace' so the cut shows as '\ufffd'",
        ),
        same_as(_latin1, "the bytes are UTF-8, not Latin-1: decode('utf-8', errors='replace')"),
        same_as(
            _backslashes,
            "errors='backslashreplace' writes a cut character's bytes as text like '\\xc3': use errors='replace', "
            "so the cut shows as one '\ufffd'",
        ),
        on_error(
            TypeError,
            "bytes(...) takes integers (byte values), and each vocab[i] is already a bytes object: "
            "join them with b''.join(vocab[i] for i in ids)",
            contains="cannot be interpreted as an integer",
        ),
        on_error(
            ValueError,
            "bytes(ids) reads each id as a byte value, but ids above 255 are tokens, not bytes: a merged token "
            "stands for several bytes. Look each id up in vocab, vocab[i], and " + _JOIN_THEN_DECODE,
            contains="range(0, 256)",
        ),
        when(
            lambda attempt: isinstance(attempt.got, (bytes, bytearray)),
            "you returned the bytes; finish with .decode('utf-8', errors='replace')",
        ),
    ],
    hint=_JOIN_THEN_DECODE,
)


def check_decode_ids(decode_ids: Callable[..., object], *, record: bool = True) -> CheckResult:
    """Check ``decode_ids(vocab, ids) -> str``."""
    return DECODE_IDS.check(decode_ids, record=record)


__all__ = ["BUILD_VOCAB", "DECODE_IDS", "build_vocab", "check_build_vocab", "check_decode_ids", "decode_ids"]
