"""Where tokenizers cut the same text, and where they cut it differently (the side-by-side view).

Every tokenizer that covers a text cuts it at byte offsets. Written as each token's length in
bytes, one row per tokenizer, the rows can be compared without looking at the tokens at all:

- a row's **cut positions** are the running sums of its lengths, from 0 to the text's length
  (``cut_positions([2, 3]) == [0, 2, 5]``);
- a **common cut** is a position where every row cuts (0 and the end always are);
- a **differing span** is the byte range between two neighbouring common cuts inside which some
  row cuts. Between two neighbouring common cuts either no row cuts (every row has one token
  there: the rows agree) or at least one does, and then the rows do not all cut alike, since a
  position cut by every row would be a common cut. So the differing spans are exactly the maximal
  byte ranges, ending at common cuts, inside which the rows' cut positions differ.

Example: ``[3, 2]`` ("the" + "⋅a") against ``[2, 1, 2]``: cuts {0, 3, 5} and {0, 2, 3, 5}; common
cuts 0, 3, 5; one differing span, (0, 3).

A word-level tokenizer does not cover the text: it drops whitespace and adds ``</w>``.
``covering_lengths`` finds each of its tokens in the text and the skipped bytes between them (gaps);
``compared_lengths`` then joins each gap to the token after it, which puts the cut between two
words before the whitespace, where GPT's tokenizers put it (``⋅word``). Otherwise every word after a
space would be marked, for a convention rather than a different cut.

**The tokens of a stretch.** Each stretch's count is the number of the row's tokens that
*overlap* it: the token at bytes [a, b) overlaps the stretch [start, end) when they share a byte,
``a < end and start < b``; a token that covers no byte (a bare ``</w>``, which ends the word before
it) sits at the end of the token before it, offset p, and counts when ``start < p <= end``. A token
that crossed a stretch's edge would count in every stretch it touches; none does, because a stretch
ends at common cuts, which every row cuts at (tests/test_cuts.py holds that on generated text). A
token is counted by its own bytes, never by its chip's: a chip groups the tokens that split one
character as you see it, and can run across two stretches.

``static/cuts.js`` is the same algorithm for the page, held equal by tests/test_cuts.py.
"""

from __future__ import annotations

from collections.abc import Sequence


def cut_positions(lengths: Sequence[int]) -> list[int]:
    """The byte offsets where a row of token lengths cuts the text, 0 and the end included."""
    positions = [0]
    for length in lengths:
        if not isinstance(length, int) or length <= 0:
            raise ValueError(f"a token's length in bytes must be a positive whole number, got {length!r}")
        positions.append(positions[-1] + length)
    return positions


def differing_spans(rows: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """The byte ranges (start, end) cut differently by the rows, in text order (see the module's docstring).

    ``rows``: one list of token byte lengths per tokenizer, each covering the same text."""
    if not rows:
        return []
    cut_sets = [set(cut_positions(row)) for row in rows]
    ends = {max(cuts) for cuts in cut_sets}
    if len(ends) > 1:
        raise ValueError(f"the rows cover texts of different lengths ({sorted(ends)} bytes): encode the same text")
    common = sorted(set.intersection(*cut_sets))
    anywhere = set.union(*cut_sets)
    inner = sorted(anywhere - set(common))
    spans: list[tuple[int, int]] = []
    k = 0  # inner cuts are visited once, in order, as the common cuts advance
    for start, end in zip(common, common[1:], strict=False):
        if k < len(inner) and inner[k] < end:
            spans.append((start, end))
            while k < len(inner) and inner[k] < end:
                k += 1
    return spans


def covering_lengths(
    text: str, pieces: Sequence[str | bytes], word_end: str | None = None
) -> list[tuple[int, int | None]]:
    """Each token of ``text`` and each stretch of text no token covers, as (length in bytes, token position or None).

    ``pieces``: the tokens' text (strings) or bytes in order; with ``word_end`` ("</w>"), a token's
    marker is not text. A byte-level tokenizer's tokens cover the text with no gap."""
    data = text.encode("utf-8", "surrogatepass")
    out: list[tuple[int, int | None]] = []
    at = 0
    for position, piece in enumerate(pieces):
        if isinstance(piece, str):
            if word_end and piece.endswith(word_end):
                piece = piece[: -len(word_end)]
            raw = piece.encode("utf-8", "surrogatepass")
        else:
            raw = bytes(piece)
        if not raw:
            continue  # a bare "</w>": it marks the word's end, it covers no text
        found = data.find(raw, at)
        if found < 0:
            raise ValueError(
                f"token {position + 1} ({piece!r}) is not in the text after byte {at}: encode the same text"
            )
        if found > at:
            out.append((found - at, None))
        out.append((len(raw), position))
        at = found + len(raw)
    if at < len(data):
        out.append((len(data) - at, None))
    return out


def compared_lengths(covering: Sequence[tuple[int, int | None]]) -> list[int]:
    """A row as ``differing_spans`` compares it: each gap (token None) joined to the token after
    it, a gap at the end to the token before it (see the module's docstring)."""
    lengths: list[int] = []
    waiting = 0
    for length, token in covering:
        if token is None:
            waiting += length
        else:
            lengths.append(waiting + length)
            waiting = 0
    if waiting:
        if lengths:
            lengths[-1] += waiting
        else:
            lengths.append(waiting)
    return lengths


def token_ranges(text: str, pieces: Sequence[str | bytes], word_end: str | None = None) -> list[tuple[int, int]]:
    """Each token's byte range (start, end) in ``text``, one per piece, in order.

    A token that covers no text (a bare ``</w>``) gets the empty range at the end of the token
    before it: it ends that word (see the module's docstring)."""
    found: dict[int, tuple[int, int]] = {}
    at = 0
    for length, token in covering_lengths(text, pieces, word_end):
        if token is not None:
            found[token] = (at, at + length)
        at += length
    ranges: list[tuple[int, int]] = []
    for position in range(len(pieces)):
        before = ranges[-1][1] if ranges else 0
        ranges.append(found.get(position, (before, before)))
    return ranges


def tokens_overlapping(ranges: Sequence[tuple[int, int]], start: int, end: int) -> list[int]:
    """The positions of the tokens (``token_ranges``) that overlap the stretch of bytes ``start:end``:
    those sharing a byte with it, and a token of no bytes at p when ``start < p <= end``."""
    if not 0 <= start < end:
        raise ValueError(f"a stretch is a byte range start < end, got {start}:{end}")
    return [
        position for position, (a, b) in enumerate(ranges) if (a < end and start < b) or (a == b and start < a <= end)
    ]
