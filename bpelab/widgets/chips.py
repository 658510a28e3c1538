"""Tokens drawn as coloured chips, as HTML strings (used by the stepper and the explorer).

A chip shows what a token stands for. Three choices make the picture honest:

- neighbours never share a colour, so a boundary is always visible (colours cycle through a short
  palette that colour-blind readers can tell apart);
- whitespace is drawn (space ``⋅``, tab ``→``, newline ``↵``), because a leading space is part of
  a token and invisible text hides exactly the detail a learner needs;
- a chip never cuts a character. Byte-level tokens can split the bytes of one character (an emoji
  is often two tokens); those tokens are drawn as ONE chip spanning both, at grapheme boundaries
  (what a reader sees as one character: the regex module's ``\\X``).

Everything here is a pure function returning a string, so it can be tested without a browser.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import regex

PALETTE: tuple[str, ...] = ("#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99")
"""Paul Tol's "light" qualitative scheme (six of its colours), chosen to stay distinct for
colour-blind readers and to keep black text readable: https://personal.sron.nl/~pault/"""

WHITESPACE_SIGNS: dict[str, str] = {" ": "⋅", "\t": "→", "\n": "↵", "\r": "␍"}

MARK_STYLES: dict[str, str] = {
    "merged": "outline:3px solid #222;outline-offset:-1px;font-weight:bold;",
    "next": "border-bottom:3px dashed #000;",
}
"""How a marked chip is drawn. Marks use outlines and weight, never colour alone."""

CHIP_CSS = (
    "<style>"
    ".bpe-chips{line-height:2.4;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px}"
    ".bpe-chip{display:inline-flex;flex-direction:column;align-items:center;color:#000;"
    "border-radius:4px;padding:0 4px;margin:1px 1px;white-space:pre;line-height:1.3;vertical-align:top}"
    ".bpe-chip-id{font-size:10px;color:#333}"
    "</style>"
)

Piece = str | bytes


@dataclass(frozen=True)
class Chip:
    """One drawn chip: the tokens it covers (usually one) and the text they spell together."""

    tokens: tuple[int, ...]
    """Positions in the token sequence; more than one when tokens cut a character."""
    raw: bytes
    text: str


def show_whitespace(text: str) -> str:
    """Make whitespace visible: ``"a b\\n"`` becomes ``"a⋅b↵"``."""
    return "".join(WHITESPACE_SIGNS.get(ch, ch) for ch in text)


def _as_bytes(piece: Piece) -> bytes:
    if isinstance(piece, bytes):
        return piece
    if isinstance(piece, str):
        return piece.encode("utf-8", "surrogateescape")
    raise TypeError(f"a token must be shown as str or bytes, got {type(piece).__name__}")


def group_at_graphemes(pieces: Sequence[Piece]) -> list[tuple[int, ...]]:
    """Group token positions so that no group boundary falls inside a grapheme.

    Bytes that are not valid UTF-8 are decoded with ``surrogateescape``: each stray byte becomes
    one stand-in character, so it ends up as a grapheme (and a chip) of its own.
    """
    raw = [_as_bytes(p) for p in pieces]
    text = b"".join(raw).decode("utf-8", "surrogateescape")
    boundaries = {0}
    offset = 0
    for cluster in regex.findall(r"\X", text):
        offset += len(cluster.encode("utf-8", "surrogateescape"))
        boundaries.add(offset)
    groups: list[tuple[int, ...]] = []
    current: list[int] = []
    end = 0
    for position, piece in enumerate(raw):
        current.append(position)
        end += len(piece)
        if end in boundaries:
            groups.append(tuple(current))
            current = []
    if current:
        groups.append(tuple(current))
    return groups


def make_chips(pieces: Sequence[Piece]) -> list[Chip]:
    """The chips for a token sequence given as each token's text (str) or bytes."""
    raw = [_as_bytes(p) for p in pieces]
    chips = []
    for group in group_at_graphemes(raw):
        data = b"".join(raw[i] for i in group)
        chips.append(Chip(group, data, data.decode("utf-8", "replace")))
    return chips


def chip_colours(count: int, start: int = 0) -> list[str]:
    """Background colours for ``count`` chips in a row: cycling, so neighbours always differ."""
    return [PALETTE[(start + i) % len(PALETTE)] for i in range(count)]


def _hover(chip: Chip, pieces: Sequence[bytes], ids: Sequence[object] | None) -> str:
    lines = []
    for position in chip.tokens:
        data = pieces[position]
        who = f"id {ids[position]}" if ids is not None else f"token {position + 1}"
        lines.append(f"{who} · bytes {data.hex(' ') or '(none)'} · text {data.decode('utf-8', 'replace')!r}")
    if len(chip.tokens) > 1:
        lines.append(f"{len(chip.tokens)} tokens drawn as one chip: a character in {chip.text!r} is split between them")
    return "\n".join(lines)


def chips_html(
    pieces: Sequence[Piece],
    ids: Sequence[object] | None = None,
    *,
    show_ids: bool = False,
    marks: Mapping[int, str | Collection[str]] | None = None,
    break_lines: bool = False,
    css: bool = True,
) -> str:
    """HTML for a token sequence as chips.

    ``pieces`` are the tokens' text or bytes; ``ids`` (optional) are shown under the chips when
    ``show_ids`` and always in the hover title. ``marks`` maps a token position to "merged",
    "next" or both; a chip carries the marks of all its tokens. ``break_lines`` starts a new line
    after a chip that ends in a newline. Every chip is one ``<span class="bpe-chip">``.
    """
    raw = [_as_bytes(p) for p in pieces]
    if ids is not None and len(ids) != len(raw):
        raise ValueError(f"got {len(raw)} tokens but {len(ids)} ids; pass one id per token")
    kinds_at = {i: {kind} if isinstance(kind, str) else set(kind) for i, kind in (marks or {}).items()}
    unknown = set().union(*kinds_at.values()) - set(MARK_STYLES)
    if unknown:
        raise ValueError(f"unknown mark {sorted(unknown)}; use one of {sorted(MARK_STYLES)}")
    chips = make_chips(raw)
    parts = [CHIP_CSS] if css else []
    parts.append('<span class="bpe-chips">')
    for chip, colour in zip(chips, chip_colours(len(chips))):
        kinds = sorted(set().union(*(kinds_at.get(i, set()) for i in chip.tokens)))
        classes = " ".join(["bpe-chip", *(f"bpe-chip-{kind}" for kind in kinds)])
        style = f"background:{colour};" + "".join(MARK_STYLES[kind] for kind in kinds)
        title = html.escape(_hover(chip, raw, ids), quote=True)
        label = html.escape(show_whitespace(chip.text)) or "&nbsp;"
        body = f"<span>{label}</span>"
        if show_ids and ids is not None:
            shown = " ".join(str(ids[i]) for i in chip.tokens)
            body += f'<span class="bpe-chip-id">{html.escape(shown)}</span>'
        parts.append(f'<span class="{classes}" style="{style}" title="{title}">{body}</span>')
        if break_lines and chip.text.endswith("\n"):
            parts.append("<br>")
    parts.append("</span>")
    return "".join(parts)


def chips_text(pieces: Sequence[Piece], separator: str = " | ") -> str:
    """The chips as plain text (whitespace visible), for text fallbacks and printing."""
    return separator.join(show_whitespace(chip.text) for chip in make_chips(pieces))
