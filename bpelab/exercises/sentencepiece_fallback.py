"""Lesson 16's second checker: SentencePiece's byte fallback.

``check_byte_fallback(fn)``: ``byte_fallback(pieces, vocab) -> list of str``, the pieces a model with
``byte_fallback=True`` emits: a piece of the vocabulary as itself, any other as the pieces ``<0xNN>`` of its UTF-8
bytes, two upper-case hex digits each (``sentencepiece_processor.cc``, ``PopulateSentencePieceText``). An item of
another type than str (a byte's value, a ``bytes``, a nested list) is named by its type. The wrong answers below
are each a way to get that wrong, with the hint that names it.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from bpelab.exercises.core import Attempt, Case, CheckResult, Exercise, same_as
from bpelab.exercises.sentencepiece_states import long_fallback_case, real_fallback_cases
from bpelab.wording import a_or_an

SPACE = "\u2581"


def byte_fallback(pieces: list[str], vocab: set[str]) -> list[str]:
    """Each piece of ``vocab`` as itself; any other as ``<0xNN>``, one for each byte of its UTF-8 form."""
    out: list[str] = []
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
        else:
            out += [f"<0x{byte:02X}>" for byte in piece.encode("utf-8")]
    return out


_NORMAL_FORMS: tuple[Literal["NFC", "NFD", "NFKC", "NFKD"], ...] = ("NFC", "NFKC", "NFD", "NFKD")


def _falling_back_normalised(form: Literal["NFC", "NFD", "NFKC", "NFKD"]) -> Any:
    """A wrong ``byte_fallback`` that looks a piece up in a normalised form, and spells it as it is."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        known = [unicodedata.normalize(form, piece) in vocab for piece in pieces]
        return [
            out for piece, kept in zip(pieces, known) for out in ([piece] if kept else byte_fallback([piece], set()))
        ]

    return wrong


def _falling_back(spell: Any) -> Any:
    """A wrong ``byte_fallback`` that spells an unknown piece with ``spell(piece) -> list of str``."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return [out for piece in pieces for out in ([piece] if piece in vocab else spell(piece))]

    return wrong


_lower_case = _falling_back(lambda piece: [f"<0x{b:02x}>" for b in piece.encode("utf-8")])
_unpadded = _falling_back(lambda piece: [f"<0x{b:X}>" for b in piece.encode("utf-8")])
_code_points = _falling_back(lambda piece: [f"<0x{ord(c):02X}>" for c in piece])
_utf16 = _falling_back(lambda piece: [f"<0x{b:02X}>" for b in piece.encode("utf-16-be")])
_upper_x = _falling_back(lambda piece: [f"<0X{b:02X}>" for b in piece.encode("utf-8")])
_decimal = _falling_back(lambda piece: [f"<0x{b}>" for b in piece.encode("utf-8")])
_decimal_padded = _falling_back(lambda piece: [f"<0x{b:02d}>" for b in piece.encode("utf-8")])


def _every_piece(pieces: list[str], vocab: set[str]) -> list[str]:
    return [f"<0x{b:02X}>" for p in pieces for b in p.encode("utf-8")]


def _known_first(pieces: list[str], vocab: set[str]) -> list[str]:
    """All the known pieces, then all the byte pieces: the order of the text is lost."""
    return [p for p in pieces if p in vocab] + byte_fallback([p for p in pieces if p not in vocab], set())


def _per_character(pieces: list[str], vocab: set[str]) -> list[str]:
    """An unknown piece spelled character by character, keeping the characters that are pieces."""
    return [out for piece in pieces for out in ([piece] if piece in vocab else byte_fallback(list(piece), vocab))]


def _all_characters_known(pieces: list[str], vocab: set[str]) -> list[str]:
    """A piece kept whole when each of its characters is a piece, though the piece itself is not."""
    return [out for p in pieces for out in ([p] if all(ch in vocab for ch in p) else byte_fallback([p], vocab))]


def _normalized_first(form: Literal["NFC", "NFD", "NFKC", "NFKD"]) -> Any:
    """Each piece passed through ``form`` before it is looked up and its bytes written: with NFC an accent and its
    letter become one character, with NFKC or NFKD a ligature 'ﬁ' becomes 'fi' too."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return byte_fallback([unicodedata.normalize(form, p) for p in pieces], vocab)

    return wrong


def _returned_in_the_loop(pieces: list[str], vocab: set[str]) -> list[str] | None:
    """A ``return out`` indented into the loop: the first piece's output only, None when there is no piece."""
    return byte_fallback(pieces[:1], vocab) if pieces else None


def _stripped(pieces: list[str], vocab: set[str]) -> list[str]:
    """``piece.strip() in vocab``: a piece with a newline or a space at an end passes as the piece without it."""
    return [out for p in pieces for out in ([p] if p.strip() in vocab else byte_fallback([p], set()))]


def _case_insensitive(pieces: list[str], vocab: set[str]) -> list[str]:
    """The vocabulary looked up without case: 'The' passes because 'the' is a piece."""
    lowered = {v.lower() for v in vocab}
    return [out for p in pieces for out in ([p] if p.lower() in lowered else byte_fallback([p], set()))]


SPACED_PAIRS = {True: "'the' and '▁the'", False: "'of' and 'of▁'"}


def _kept_for_its_spaced_form(before: bool) -> Any:
    """``if piece in vocab or "▁" + piece in vocab`` (or ``piece + "▁"``): a piece kept as it is because the piece
    with a '▁' is in the vocabulary."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        spaced = [SPACE + p if before else p + SPACE for p in pieces]
        return [
            out
            for p, s in zip(pieces, spaced)
            for out in ([p] if p in vocab or s in vocab else byte_fallback([p], set()))
        ]

    return wrong


def _part_of_a_piece(attempt: Attempt) -> str | None:
    """A piece kept as it is though it is only part of a piece of the vocabulary: its start, its end, or inside."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    for piece in pieces:
        if piece in vocab or piece not in attempt.got or piece in attempt.expected:
            continue
        for where, test in [
            ("the start of", str.startswith),
            ("the end of", str.endswith),
            ("inside", str.__contains__),
        ]:
            holder = next((v for v in sorted(vocab) if v != piece and test(v, piece)), None)
            if holder is not None:
                return (
                    f"{piece!r} is {where} the piece {holder!r} but is no piece itself: test `piece in vocab`, the "
                    "set, not a string made of the pieces, nor a piece's start or end"
                )
    return None


def _byte_like_text(attempt: Attempt) -> str | None:
    """Text that looks like a byte piece ('<0x41>', six characters) kept as it is: it is no piece of the vocabulary."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    text = next((p for p in pieces if p.startswith("<0x") and p not in vocab and p in attempt.got), None)
    if text is None:
        return None
    return (
        f"{text!r} here is text, {len(text)} characters, not a piece of this vocabulary: it falls back to its bytes "
        f"like any other ({' '.join(byte_fallback([text], set()))}); test `piece in vocab` only, whatever it looks like"
    )


def _bytes_left_out(attempt: Attempt) -> str | None:
    """Every piece in its place, but the byte pieces of NUL (``if b``, ``b"\\x00"`` filtered, a cut at the first
    NUL as C strings end) or of control characters and spaces (``isprintable``, ``strip``, ``split``) left out."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, list) or attempt.error is not None or not all(isinstance(p, str) for p in got):
        return None
    remaining = iter(expected)
    if len(got) >= len(expected) or not all(piece in remaining for piece in got):  # in order, some left out
        return None
    missing = list(expected)
    for piece in got:
        missing.remove(piece)
    if "<0x00>" in missing:
        after = "" if set(missing) == {"<0x00>"} else f" and what follows it ({' '.join(missing)} missing)"
        return (
            f"your answer leaves out <0x00>{after}: the NUL character (U+0000) is one "
            "byte, 00, and falls back to <0x00> like any other byte (Mistral's id 3); a test `if b`, a filter of "
            "b'\\x00', a cut at the first NUL as C strings end, or a filter of control characters drops it: write "
            "every byte of piece.encode('utf-8')"
        )
    unusual = "".join(sorted({c for p in attempt.args[0] for c in p if not c.isprintable() or c.isspace()}))
    if not unusual or not set(missing) <= set(byte_fallback([unusual], set())):
        return None
    return (
        f"your answer leaves out {' '.join(missing)}, the bytes of control characters or spaces ({unusual!r}): "
        "they are bytes like any other; don't filter the piece (isprintable, strip, split): write every byte of "
        "piece.encode('utf-8')"
    )


def _repeats_dropped(pieces: list[str], vocab: set[str]) -> list[str]:
    """The right pieces, each kept once (``dict.fromkeys``, or a set in order): a byte that comes again is lost."""
    return list(dict.fromkeys(byte_fallback(pieces, vocab)))


def _each_piece_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A loop over ``dict.fromkeys(pieces)`` (or a set): a piece that comes again in ``pieces`` is skipped."""
    return byte_fallback(list(dict.fromkeys(pieces)), vocab)


def _bytes_spelled_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A ``seen`` set of the unknown pieces: an unknown piece's bytes written the first time it comes only."""
    seen: set[str] = set()
    out: list[str] = []
    for piece in pieces:
        if piece in vocab or piece not in seen:
            out += byte_fallback([piece], vocab)
        seen.add(piece)
    return out


COMES_AGAIN = (
    "a piece that comes again in pieces is written again every time it comes: '🤖' twice is its four bytes twice, "
    "'▁the' twice is '▁the' twice (the text says it twice); go through pieces itself, with no set of pieces seen"
)


def _pieces_grouped(pieces: list[str], vocab: set[str]) -> list[str]:
    """``for piece, _ in itertools.groupby(pieces)``: a piece right after itself is skipped."""
    return byte_fallback([piece for i, piece in enumerate(pieces) if i == 0 or pieces[i - 1] != piece], vocab)


def _unknown_after_itself_skipped(pieces: list[str], vocab: set[str]) -> list[str]:
    """An unknown piece equal to the one before it skipped (a test against the previous piece)."""
    return byte_fallback([p for i, p in enumerate(pieces) if p in vocab or i == 0 or pieces[i - 1] != p], vocab)


def _output_repeat_dropped(pieces: list[str], vocab: set[str]) -> list[str]:
    """An item of the output equal to the one before it dropped (``if out[-1] != item``, a groupby of the output)."""
    out = byte_fallback(pieces, vocab)
    return [item for i, item in enumerate(out) if i == 0 or out[i - 1] != item]


IN_A_ROW = (
    "something that comes twice in a row is written twice, every time it comes: '🤖' twice in a row is its four "
    "bytes twice (eight byte pieces), '▁ha' twice in a row is '▁ha' twice, 'aa' is <0x61> twice; no groupby, no "
    "test against the piece or item before: go through pieces and write each one in full"
)


def _extra_in_front(attempt: Attempt) -> list | None:
    """What an answer has before the right output, when it ends with it (else None)."""
    got, expected = attempt.got, attempt.expected
    if not isinstance(got, list) or not isinstance(expected, list) or attempt.error is not None:
        return None
    if len(got) <= len(expected) or got[len(got) - len(expected) :] != expected:
        return None
    return got[: len(got) - len(expected)]


def _made_of_outputs(extra: list) -> bool:
    """Whether ``extra`` is what some calls on the exercise's cases return, one after another: what a list carried
    over from call to call holds before this call's pieces (calls of this check, or of an earlier run of it)."""
    outputs = [case.expected for case in BYTE_FALLBACK.build_cases() if case.expected]
    ends = {0}
    for end in range(1, len(extra) + 1):
        if any(end - len(out) in ends and extra[end - len(out) : end] == out for out in outputs):
            ends.add(end)
    return len(extra) in ends


ADDED_IN_FRONT = {
    ("<s>",): "'<s>', the sentence's start",
    (SPACE,): "'▁', the dummy prefix",
    ("<s>", SPACE): "'<s>' and '▁'",
    (SPACE, "<s>"): "'▁' and '<s>'",
}


def _added_in_front(attempt: Attempt) -> str | None:
    """'<s>' (or the dummy '▁') put before the output, though no call before this one left anything."""
    extra = _extra_in_front(attempt)
    if extra is None or tuple(extra) not in ADDED_IN_FRONT or _made_of_outputs(extra):
        return None
    return (
        f"your answer has {ADDED_IN_FRONT[tuple(extra)]}, added in front of the right pieces, {attempt.expected!r}: "
        "byte_fallback writes only the pieces it is given, each as itself or as its bytes; the dummy '▁' was put "
        "in the text by the normaliser before the pieces were made (it is in pieces already when it belongs), and "
        "<s> is a control piece the encoder adds around the ids only when asked (add_bos), never a piece of the text"
    )


def _output_carried_over(attempt: Attempt) -> str | None:
    """``def byte_fallback(pieces, vocab, out=[])``: the default list is made once, so every call adds to what the
    calls before it wrote; each answer ends with the right one, after what earlier calls returned."""
    extra = _extra_in_front(attempt)
    if extra is None or not _made_of_outputs(extra):
        return None
    got, expected = attempt.got, attempt.expected
    return (
        f"your answer has {len(got) - len(expected)} pieces before the right ones, {expected!r}: pieces left by the "
        "calls before this one: your list outlives the call. A default argument (out=[]) is made ONCE, when def "
        "runs, and every call adds to that same list (so does a list made outside the function); make a new list "
        "in the function's body, out = [], at each call"
    )


def _first_character_looked_up(pieces: list[str], vocab: set[str]) -> list[str]:
    """``piece[0] in vocab``: a piece kept whole when its first character is a piece."""
    return [out for p in pieces for out in ([p] if p[:1] in vocab else byte_fallback([p], set()))]


LONG_PIECES = 1_000
"""From this many pieces on, an answer that returns the right start only is one cut after some first pieces or
items (Python's default recursion limit too: a function that calls itself once for each piece fails there)."""


def _only_the_first_pieces(attempt: Attempt) -> str | None:
    """A long list answered as if cut after some first N pieces (``pieces[:N]``) or stopped after N items: name N."""
    got, expected = attempt.got, attempt.expected
    if attempt.error is not None or not isinstance(got, list) or not isinstance(expected, list):
        return None
    pieces, vocab = attempt.args
    if len(pieces) < LONG_PIECES or not got or len(got) >= len(expected) or got != expected[: len(got)]:
        return None
    written, count = 0, None
    for n, piece in enumerate(pieces, 1):
        written += len(byte_fallback([piece], vocab))
        if written == len(got):
            count = n
            break
    cut = (
        f"{count:,} pieces ({len(got):,} items out)"
        if count
        else f"{len(got):,} items (your list stops inside a piece's bytes)"
    )
    return (
        f"you handled only the first {cut} (a slice such as pieces[:N], a range or a count that stops at a fixed N, "
        f"or a stop once the list holds N items): this list holds {len(pieces):,} pieces, as lesson 09's Amharic "
        f"story gives, and its output {len(expected):,} items; go through every piece, for piece in pieces, however "
        "long the list"
    )


def _recursion(attempt: Attempt) -> str | None:
    """A RecursionError on a long list: a function that calls itself once for each piece."""
    if not isinstance(attempt.error, RecursionError):
        return None
    pieces = attempt.args[0]
    return (
        f"a RecursionError: your function calls itself once for each piece, and this list holds {len(pieces):,} "
        "pieces (lesson 09's Amharic story gives as many), deeper than Python lets calls go "
        "(sys.getrecursionlimit(), 1,000 by default); use a loop, for piece in pieces, adding each piece's output "
        "to one list"
    )


_hex_call = _falling_back(lambda piece: [f"<{hex(b)}>" for b in piece.encode("utf-8")])
_hex_call_upper = _falling_back(lambda piece: [f"<{hex(b).upper()}>" for b in piece.encode("utf-8")])


def _spaces_kept(attempt: Attempt) -> str | None:
    """A piece made only of '▁' kept as it is though the vocabulary lacks it (``or piece == '▁'``)."""
    if not isinstance(attempt.got, list) or attempt.error is not None:
        return None
    pieces, vocab = attempt.args
    kept = next((p for p in pieces if p and not p.strip(SPACE) and p not in vocab and p in attempt.got), None)
    if kept is None:
        return None
    return (
        f"{kept!r} is not in vocab here, yet you kept it: '▁' is a character like any other, three bytes E2 96 81, "
        f"so {kept!r} falls back to {' '.join(byte_fallback([kept], set()))}; test `piece in vocab` only, with no "
        "exception for '▁'"
    )


def _crash_on_no_pieces(attempt: Attempt) -> str | None:
    if not isinstance(attempt.error, IndexError) or attempt.args[0]:
        return None
    return (
        "your function raised IndexError on an empty list of pieces (pieces == []): no pieces give no pieces, []; "
        "don't look at pieces[0] or pieces[-1] before you know there is one"
    )


def _none_for_no_pieces(attempt: Attempt) -> str | None:
    """None for an empty list of pieces (``return out or None``, or ``if not pieces: return None``)."""
    if attempt.error is not None or attempt.got is not None or attempt.args[0] or attempt.expected != []:
        return None
    return (
        "you returned None for an empty list of pieces (pieces == []): no pieces in, an empty list out, [], not None "
        "(`return out or None`, or `if not pieces: return None`, gives None); return out, even when it is empty"
    )


def _unknown(pieces: list[str], vocab: set[str]) -> list[str]:
    return [p if p in vocab else "<unk>" for p in pieces]


def _as_id(piece: str) -> str | int:
    """A byte piece as its id in Mistral's model (the byte + 3); any other piece as it is."""
    is_byte = len(piece) == 6 and piece.startswith("<0x") and piece.endswith(">")
    return int(piece[3:5], 16) + 3 if is_byte else piece


def _item_of_another_type(attempt: Attempt) -> str | None:
    """A list that holds something other than pieces (str): named by its type, with what to write instead."""
    if not isinstance(attempt.got, list):
        return None
    item = next((item for item in attempt.got if not isinstance(item, str)), None)
    if item is None:
        return None
    if isinstance(item, int) and not isinstance(item, bool):
        if isinstance(attempt.expected, list) and attempt.got == [_as_id(p) for p in attempt.expected]:
            byte = item - 3
            return (
                f"your list holds ids ({item!r} is the id of '<0x{byte:02X}>', byte + 3: in Mistral's model bytes "
                "00 to FF are ids 3 to 258): return the byte pieces themselves, the string f'<0x{b:02X}>' for b in "
                f"piece.encode('utf-8'), '<0x{byte:02X}>' here, not their ids"
            )
        written = f", {item} is written '<0x{item:02X}>'" if 0 <= item < 256 else f"; {item} is no byte"
        return (
            f"your list holds ints ({item!r}): each UTF-8 byte becomes a piece, the string f'<0x{{b:02X}}>' for b "
            f"in piece.encode('utf-8'){written}"
        )
    if isinstance(item, bytes):
        return (
            f"your list holds bytes objects ({item!r}): each byte becomes a piece, the string f'<0x{{b:02X}}>' for b "
            "in piece.encode('utf-8')"
        )
    if isinstance(item, list | tuple):
        return (
            f"your list holds {type(item).__name__}s ({item!r}): out.append([...]) puts a whole list in as one item; "
            "add the byte pieces one by one, out += [...] or out.extend(...)"
        )
    return f"your list holds {a_or_an(type(item).__name__)} ({item!r}): every item must be a piece, a str"


def _characters_dropped(drop: Any) -> Any:
    """The reference, after the characters for which ``drop(c)`` is true are taken out of each piece."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        kept = ["".join(c for c in piece if not drop(c)) for piece in pieces]
        return byte_fallback([piece for piece in kept if piece], vocab)

    return wrong


def _kept_only_if(test: Any) -> Any:
    """``if piece in vocab and test(piece)``: a known piece whose characters fail ``test`` spelled as its bytes."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return [out for p in pieces for out in ([p] if p in vocab and test(p) else byte_fallback([p], set()))]

    return wrong


def _stripped_of(chars: str) -> Any:
    """The reference, after ``chars`` are stripped from both ends of each piece (``piece.strip('\\ufeff')``)."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        return byte_fallback([kept for piece in pieces if (kept := piece.strip(chars))], vocab)

    return wrong


INVISIBLE = {
    "\ufeff": "U+FEFF (ZERO WIDTH NO-BREAK SPACE, the byte-order mark: EF BB BF)",
    "\u200b": "U+200B (ZERO WIDTH SPACE: E2 80 8B)",
    "\u200c": "U+200C (ZERO WIDTH NON-JOINER: E2 80 8C)",
    "\u200d": "U+200D (ZERO WIDTH JOINER: E2 80 8D)",
}
"""Characters a learner may clean out of a piece, each named with its bytes."""
DROPPED_TOGETHER = (*INVISIBLE, "\u200b\ufeff", "\u200b\u200c\u200d\ufeff")
"""The single characters, a zero-width space with the byte-order mark, and all four."""


def _invisible_dropped(chars: str) -> str:
    names = " and ".join(INVISIBLE[c] for c in chars)
    return (
        f"you dropped {names}: invisible, but a character like any other, with its bytes; a piece that holds one is "
        "looked up whole, and written byte by byte with it when it is no piece. Don't clean the pieces "
        "(.replace, .strip): test `piece in vocab` as it is, and write every byte of piece.encode('utf-8')"
    )


def _bytes_of_a_piece_once(unique: Any) -> Any:
    """A piece not in vocab written with ``unique(piece.encode('utf-8'))``: a set, sorted or not, or dict.fromkeys."""

    def wrong(pieces: list[str], vocab: set[str]) -> list[str]:
        out: list[str] = []
        for piece in pieces:
            out += [piece] if piece in vocab else [f"<0x{byte:02X}>" for byte in unique(piece.encode("utf-8"))]
        return out

    return wrong


BYTES_ONCE_PER_PIECE = (dict.fromkeys, set, lambda data: sorted(set(data)))


def _byte_pieces_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A byte piece appended only when it is not in the output yet (``if ... not in out``); known pieces always."""
    out: list[str] = []
    for piece in pieces:
        if piece in vocab:
            out.append(piece)
            continue
        for byte_piece in byte_fallback([piece], set()):
            if byte_piece not in out:
                out.append(byte_piece)
    return out


def _known_pieces_once(pieces: list[str], vocab: set[str]) -> list[str]:
    """A known piece appended only when it is not in the output yet (``if piece not in out``); bytes always."""
    out: list[str] = []
    for piece in pieces:
        if piece in vocab:
            if piece not in out:
                out.append(piece)
        else:
            out.extend(byte_fallback([piece], set()))
    return out


LESSON_OUTPUT = ["▁I", "▁love", "▁", "<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"]
"""What the lesson's cell 10 prints for mistral.encode_as_pieces("I love 🤖")."""


def _same_output_everywhere(attempt: Attempt) -> str | None:
    """One list for every input: an answer written for the lesson's example, not computed from the pieces."""
    got = attempt.got
    if not isinstance(got, list) or attempt.error is not None or got == attempt.expected:
        return None
    answers = [answer for _, answer in attempt.history()]
    if len(answers) < 5 or any(answer != got for answer in answers):
        return None
    which = " (the lesson's output for 'I love 🤖', written out)" if got == LESSON_OUTPUT else ""
    return (
        f"your function returns {got!r}{which} whatever the pieces and vocab: compute the list from them, each piece "
        "in vocab as it is and each other piece as its bytes, [f'<0x{b:02X}>' for b in piece.encode('utf-8')]"
    )


WRITTEN_EVERY_TIME = (
    "a byte is written every time it comes, twice when it comes twice, in the order of piece.encode('utf-8'): "
    "'€' and '▁' both start with E2, and two U+200B are E2 80 8B twice; write [f'<0x{b:02X}>' for b in "
    "piece.encode('utf-8')] for each piece not in vocab, whatever came before"
)

KEPT_WHOLE = "a piece in the vocabulary is kept whole, whatever its characters: "
KNOWN_PIECE_TESTS: tuple[tuple[Any, str], ...] = (
    (
        str.isprintable,
        "'\\r' (Mistral's id 28801), the control characters 0B, 0C, 1B, 7F, 1C, 1F, U+00A0, U+200B and U+200D are "
        "pieces of Mistral's vocabulary though str.isprintable() refuses them; test `piece in vocab` only, with no "
        "isprintable test",
    ),
    (
        lambda piece: not piece.isspace(),
        "'\\r' (id 28801), U+00A0 (the no-break space, id 29000) and U+3000 (the ideographic space) are pieces of "
        "Mistral's vocabulary though str.isspace() calls them spaces; test `piece in vocab` only, with no isspace test",
    ),
    (
        lambda piece: all(ord(c) <= 0xFFFF for c in piece),
        "'😂' (U+1F602, outside the BMP, above U+FFFF) is a piece of Mistral's vocabulary, id 29196, kept whole; only "
        "a piece NOT in vocab becomes bytes, whatever its code points; test `piece in vocab` only, with no test of "
        "ord(c) <= 0xFFFF",
    ),
)
"""Tests a learner adds to ``piece in vocab``, each with what its hint names; Mistral holds pieces that fail each."""


def _is_variation_selector(char: str) -> bool:
    return 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF


BYTE_FALLBACK = Exercise(
    name="byte_fallback",
    call="byte_fallback(pieces, vocab)",
    reference=byte_fallback,
    cases=lambda: [
        Case(([SPACE + "caf", "é"], {SPACE + "caf"}), [SPACE + "caf", "<0xC3>", "<0xA9>"], "é is two bytes, C3 A9"),
        Case(([SPACE, "€"], {SPACE}), [SPACE, "<0xE2>", "<0x82>", "<0xAC>"], "€ is three bytes"),
        Case((["\n"], {SPACE}), ["<0x0A>"], "a newline: one byte, written with two hex digits"),
        Case(([SPACE + "e", "\u0301"], {SPACE + "e"}), [SPACE + "e", "<0xCC>", "<0x81>"], "a combining accent"),
        Case((["🤖"], {SPACE}), ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"], "an emoji outside the BMP: four bytes"),
        Case(
            ([SPACE + "the", SPACE + "cat"], {SPACE + "the", SPACE + "cat"}),
            [SPACE + "the", SPACE + "cat"],
            "all known",
        ),
        Case(([], {SPACE}), [], "no pieces"),
        Case(
            (["é", SPACE + "caf", "€"], {SPACE + "caf"}),
            ["<0xC3>", "<0xA9>", SPACE + "caf", "<0xE2>", "<0x82>", "<0xAC>"],
            "a known piece between unknown ones: every piece keeps its place",
        ),
        Case(
            ([SPACE + "€"], {SPACE}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0xE2>", "<0x82>", "<0xAC>"],
            "'▁€' is no piece: all its bytes, those of '▁' (E2 96 81) too",
        ),
        Case((["ab"], {"a", "b"}), ["<0x61>", "<0x62>"], "'ab' is no piece, though 'a' and 'b' are: its bytes"),
        Case(
            (["e\u0301"], set()), ["<0x65>", "<0xCC>", "<0x81>"], "an e and a combining accent: the bytes as they are"
        ),
        Case(
            (["e\u0301", "\u00e9"], {"\u00e9"}),
            ["<0x65>", "<0xCC>", "<0x81>", "\u00e9"],
            "'e' + U+0301 looks like the piece 'é' (U+00E9) but is other characters: no piece, its three bytes",
        ),
        Case(
            (["\ufb01", "fi"], {"fi"}),
            ["<0xEF>", "<0xAC>", "<0x81>", "fi"],
            "the ligature 'ﬁ' (U+FB01) is no piece, though NFKC makes it 'fi': the vocabulary is looked up as it is",
        ),
        Case(
            (["a\n"], {"a"}),
            ["<0x61>", "<0x0A>"],
            "'a\\n' is no piece, though 'a' is: all its bytes, the newline's too",
        ),
        Case(
            ([SPACE + "The", SPACE + "the"], {SPACE + "the"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x54>", "<0x68>", "<0x65>", SPACE + "the"],
            "'▁the' is a piece, '▁The' is not: the vocabulary is looked up as it is, case and all",
        ),
        Case(
            (["x"], set()), ["<0x78>"], "'x' is no piece of this vocabulary: even a plain ASCII letter becomes its byte"
        ),
        Case(
            ([SPACE + "the"], {"the"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x74>", "<0x68>", "<0x65>"],
            "'the' is a piece, '▁the' is not: the '▁' is part of the piece, looked up with it",
        ),
        Case((["ca"], {SPACE + "caf"}), ["<0x63>", "<0x61>"], "'ca' is inside '▁caf', but is no piece itself"),
        Case(
            ([SPACE + "ca"], {SPACE + "caf"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0x63>", "<0x61>"],
            "'▁ca' is how '▁caf' starts, but is no piece itself: all its bytes",
        ),
        Case((["af"], {SPACE + "caf"}), ["<0x61>", "<0x66>"], "'af' is how '▁caf' ends, but is no piece itself"),
        Case(
            (["<0x41>"], {SPACE}),
            ["<0x3C>", "<0x30>", "<0x78>", "<0x34>", "<0x31>", "<0x3E>"],
            "the text '<0x41>' (six characters) is no piece of this vocabulary: its six bytes, like any text",
        ),
        Case(
            (["a\x00b"], {"a", "b"}),
            ["<0x61>", "<0x00>", "<0x62>"],
            "'a\\x00b' holds a NUL character (U+0000): its byte 00 is a byte like any other, <0x00> (id 3 in "
            "Mistral's model)",
        ),
        Case(
            (["\x00", SPACE, "x\x00"], {SPACE}),
            ["<0x00>", SPACE, "<0x78>", "<0x00>"],
            "a NUL alone, and a NUL at the end of a piece: <0x00> each time",
        ),
        Case(
            (["\t", "\r", "\x0b\x0c", "\x1b", "\x7f", "\x1c\x1f"], {SPACE}),
            ["<0x09>", "<0x0D>", "<0x0B>", "<0x0C>", "<0x1B>", "<0x7F>", "<0x1C>", "<0x1F>"],
            "control characters (tab, carriage return, vertical tab, form feed, escape, delete, the separators "
            "1C and 1F): in this case's vocabulary, which holds none of them, every one is a byte, written like any "
            "other (Mistral's vocabulary holds all of them but the tab as pieces: '\\r' is id 28801)",
        ),
        Case(
            ([SPACE + "x", "\x85\xa0"], {SPACE + "x"}),
            [SPACE + "x", "<0xC2>", "<0x85>", "<0xC2>", "<0xA0>"],
            "U+0085 (next line) and U+00A0 (no-break space), which str.strip() and str.split() take for spaces: "
            "in this case's vocabulary, which holds neither, two bytes each (Mistral's vocabulary holds both as "
            "pieces: U+00A0 is id 29000)",
        ),
        *(case for _, case in real_fallback_cases()),
        Case(([SPACE + "Ж", "ę", SPACE + "日本"], {SPACE + "Ж"})),
        Case(([SPACE], set()), ["<0xE2>", "<0x96>", "<0x81>"], "'▁' alone, not in this vocabulary: its three bytes"),
        Case(
            ([SPACE * 2, "a"], {"a"}),
            ["<0xE2>", "<0x96>", "<0x81>", "<0xE2>", "<0x96>", "<0x81>", "a"],
            "'▁▁' is no piece of this vocabulary: the bytes of both '▁'",
        ),
        Case(
            (["🤖", SPACE + "the", "🤖", SPACE + "the"], {SPACE + "the"}),
            ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>", SPACE + "the"] * 2,
            "'🤖' and '▁the' twice each, as a text that says 'the' twice gives: a piece is written each time it comes",
        ),
        Case(
            ([SPACE + "I", SPACE + "love", SPACE, "🤖", "🤖"], {SPACE + "I", SPACE + "love", SPACE}),
            [SPACE + "I", SPACE + "love", SPACE] + ["<0xF0>", "<0x9F>", "<0xA4>", "<0x96>"] * 2,
            "'🤖' twice in a row, an unknown piece right after itself: its four bytes, twice",
        ),
        Case(
            ([SPACE + "ha", SPACE + "ha"], {SPACE + "ha"}),
            [SPACE + "ha", SPACE + "ha"],
            "'▁ha' twice in a row, a known piece right after itself: written twice",
        ),
        Case((["aa"], set()), ["<0x61>", "<0x61>"], "'aa' is no piece: the byte 61 twice in a row, <0x61> twice"),
        Case(
            (["the"], {SPACE + "the"}),
            ["<0x74>", "<0x68>", "<0x65>"],
            "'the' is no piece: '▁the' is another, so 'the' falls back to its three bytes",
        ),
        Case(
            ([SPACE, "👨", "\u200d", "👩", "\u200d", "👧"], {SPACE}),
            [SPACE] + byte_fallback(["👨\u200d👩\u200d👧"], set()),
            "a family emoji: 👨, 👩 and 👧 joined by U+200D (ZERO WIDTH JOINER), none of them a piece: 4 + 3 + 4 + 3 + "
            "4 = 18 byte pieces, E2 80 8D for each joiner in this case's vocabulary, which holds none of them (Mistral's "
            "vocabulary holds the joiner as a piece, id 29274, so there each joiner stays whole)",
        ),
        Case(
            ([SPACE + "I", "❤", "\ufe0f"], {SPACE + "I"}),
            [SPACE + "I", "<0xE2>", "<0x9D>", "<0xA4>", "<0xEF>", "<0xB8>", "<0x8F>"],
            "'❤' and U+FE0F (VARIATION SELECTOR-16, which asks for the emoji form), neither a piece: three bytes each",
        ),
        Case(
            (["<unk>", SPACE + "a"], {SPACE + "a"}),
            ["<0x3C>", "<0x75>", "<0x6E>", "<0x6B>", "<0x3E>", SPACE + "a"],
            "the text '<unk>' (five characters) is no piece of this vocabulary: its five bytes, like any text",
        ),
        Case(
            ([" ", SPACE], {SPACE}),
            ["<0x20>", SPACE],
            "' ' (U+0020, a plain space, not '▁') is no piece of this vocabulary: its byte, 20",
        ),
        Case(
            ([SPACE, SPACE, "a"], {SPACE, "a"}),
            [SPACE, SPACE, "a"],
            "'▁' twice in a row, a known piece right after itself: written twice",
        ),
        Case(
            (["of"], {"of" + SPACE}),
            ["<0x6F>", "<0x66>"],
            "'of' is no piece: 'of▁' (treat_whitespace_as_suffix=True) is another, so 'of' falls back to its two bytes",
        ),
        long_fallback_case(),
    ],
    diagnosers=[
        _item_of_another_type,
        _crash_on_no_pieces,
        _none_for_no_pieces,
        _recursion,
        _only_the_first_pieces,
        *(same_as(_kept_only_if(test), KEPT_WHOLE + what) for test, what in KNOWN_PIECE_TESTS),
        *(
            same_as(
                _falling_back_normalised(form),
                f"you looked each piece up after unicodedata.normalize('{form}', ...): the normaliser ran before "
                "the pieces were made, and the vocabulary is looked up with each piece as it is ('e' + U+0301 is "
                "not the piece 'é')",
            )
            for form in _NORMAL_FORMS
        ),
        _added_in_front,
        _output_carried_over,
        _same_output_everywhere,  # after it: a list carried over (out=[]) is one list, the same every time
        _spaces_kept,
        same_as(
            _each_piece_once,
            f"you went through each piece once (dict.fromkeys(pieces), or a set of them): {COMES_AGAIN}",
        ),
        same_as(
            _bytes_spelled_once,
            f"you wrote an unknown piece's bytes only the first time it came (a set of pieces seen): {COMES_AGAIN}",
        ),
        same_as(_pieces_grouped, f"you skipped a piece right after itself (itertools.groupby(pieces)): {IN_A_ROW}"),
        same_as(
            _unknown_after_itself_skipped,
            f"you skipped an unknown piece right after itself (a test against the piece before): {IN_A_ROW}",
        ),
        same_as(
            _output_repeat_dropped,
            f"you dropped an item equal to the one before it (a test against out[-1], or a groupby): {IN_A_ROW}",
        ),
        same_as(
            _repeats_dropped,
            "you kept each piece once (a set, dict.fromkeys, or `if ... not in out`): a byte or a piece that comes "
            "again is written again "
            "('▁€' is E2 96 81 E2 82 AC, two <0xE2>)",
        ),
        same_as(
            _characters_dropped(lambda c: unicodedata.category(c) == "Cf"),
            "you dropped the format characters (category Cf, such as U+200D, the ZERO WIDTH JOINER that makes 👨 👩 👧 "
            "one family emoji): they are characters like any other, U+200D three bytes E2 80 8D; write every byte of "
            "piece.encode('utf-8')",
        ),
        same_as(
            _characters_dropped(_is_variation_selector),
            "you dropped the variation selectors (U+FE00 to U+FE0F, such as U+FE0F after '❤'): they are characters "
            "like any other, U+FE0F three bytes EF B8 8F; write every byte of piece.encode('utf-8')",
        ),
        *(
            same_as(_characters_dropped(lambda c, cs=chars: c in cs), _invisible_dropped(chars))
            for chars in DROPPED_TOGETHER
        ),
        *(same_as(_stripped_of(chars), _invisible_dropped(chars)) for chars in DROPPED_TOGETHER),
        *(
            same_as(
                _bytes_of_a_piece_once(unique),
                "you wrote each byte of a piece once (a set or dict.fromkeys of piece.encode('utf-8')): "
                + WRITTEN_EVERY_TIME,
            )
            for unique in BYTES_ONCE_PER_PIECE
        ),
        same_as(
            _byte_pieces_once,
            f"you wrote a byte piece only once (`if ... not in out`): {WRITTEN_EVERY_TIME}",
        ),
        same_as(
            _known_pieces_once,
            "you wrote a known piece only once (`if piece not in out`): a piece in vocab is written every time it "
            "stands in pieces, twice when it stands twice ('▁the' in 'the cat and the dog'); append each known piece "
            "as it comes, whatever came before",
        ),
        _bytes_left_out,
        same_as(
            _first_character_looked_up,
            "you looked up the piece's first character, piece[0]: a piece is kept only when the WHOLE piece is in "
            "vocab; test `piece in vocab`",
        ),
        same_as(
            _hex_call,
            "hex(b) writes lower-case digits and no leading zero ('0xa' for a newline, '0xc3'): write two upper-case "
            "digits, f'<0x{b:02X}>'",
        ),
        same_as(
            _hex_call_upper,
            "hex(b).upper() writes '0XC3' (an upper-case X) and no leading zero ('0XA'): write f'<0x{b:02X}>', "
            "a lower-case x and two upper-case digits",
        ),
        same_as(
            _known_first,
            "keep the order of the pieces: an unknown piece's byte pieces go where the piece stood",
        ),
        same_as(
            _per_character,
            "a piece not in vocab becomes the bytes of the WHOLE piece, even when some of its characters are pieces",
        ),
        same_as(
            _all_characters_known,
            "a piece not in vocab becomes the bytes of the WHOLE piece, even when each of its characters is a piece "
            "('ab' with 'a' and 'b' known): test `piece in vocab`",
        ),
        *(
            same_as(
                _normalized_first(form),
                f"you normalised the text first (unicodedata.normalize('{form}', ...)): byte fallback writes the "
                "bytes of the piece as it is, e + U+0301 as 65 CC 81",
            )
            for form in ("NFC", "NFKC", "NFKD")
        ),
        same_as(
            _stripped,
            "you looked up piece.strip(): 'a\\n' is not the piece 'a'; test the piece as it is, `piece in vocab`",
        ),
        same_as(
            _case_insensitive,
            "you looked the piece up without its case: '▁The' is not the piece '▁the'; test `piece in vocab` as it is",
        ),
        *(
            same_as(
                _kept_for_its_spaced_form(before),
                f"you kept a piece because the piece with a '▁' {'before' if before else 'after'} it is in the "
                f"vocabulary: {SPACED_PAIRS[before]} are two different pieces, and the first is none here, so it "
                "falls back to its bytes; test `piece in vocab` only, with no '▁' added",
            )
            for before in (True, False)
        ),
        _part_of_a_piece,
        _byte_like_text,
        same_as(_every_piece, "a piece that IS in the vocabulary stays as it is; only the others become byte pieces"),
        same_as(
            _unknown,
            "you wrote '<unk>' for each unknown piece: a model WITHOUT byte fallback writes no '<unk>' either; it "
            "shows one piece for each run of unknown text, written as the text itself ('🤖€' as one piece; the id is "
            "<unk>'s); with byte fallback, as here, each byte of an unknown piece becomes <0xNN>",
        ),
        same_as(_lower_case, "SentencePiece writes the hex digits in upper case: <0xC3>, not <0xc3>"),
        same_as(
            _upper_x,
            "you wrote an upper-case X, <0XC3> (.upper() on the whole string, or the format '#04X', upper-cases the "
            "prefix 0x too): SentencePiece writes a lower-case x and two upper-case digits, f'<0x{b:02X}>'",
        ),
        *(
            same_as(
                decimal,
                "you wrote each byte in decimal after '0x' (<0x195> for the byte 195, 0xC3): write it in hex, two "
                "upper-case digits, f'<0x{b:02X}>'",
            )
            for decimal in (_decimal, _decimal_padded)
        ),
        same_as(
            _returned_in_the_loop,
            "only the first piece's output came back: a return inside the loop ends the function in its first round; "
            "put `return out` after the loop (one indent less)",
        ),
        same_as(_unpadded, "every byte takes two hex digits: a newline is <0x0A>, not <0xA> (format with :02X)"),
        same_as(
            _code_points,
            "those are code points: byte fallback writes the UTF-8 BYTES, piece.encode('utf-8'), one piece each",
        ),
        same_as(_utf16, "those are UTF-16 bytes: SentencePiece uses UTF-8, piece.encode('utf-8')"),
    ],
    hint="for a piece not in vocab: [f'<0x{b:02X}>' for b in piece.encode('utf-8')]; keep the order of the pieces",
)


def check_byte_fallback(byte_fallback: Any, *, record: bool = True) -> CheckResult:
    """Check a learner's ``byte_fallback(pieces, vocab) -> list of pieces``; prints one report."""
    return BYTE_FALLBACK.check(byte_fallback, record=record)
