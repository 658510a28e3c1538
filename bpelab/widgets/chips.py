"""Tokens drawn as coloured chips, as HTML strings (used by the stepper and the explorer).

A chip shows what a token stands for. Four choices make the picture honest:

- neighbours never share a colour, so a boundary is always visible. The palette keeps black text
  at a contrast of at least 4.5:1 and stays distinct for readers with a colour-vision deficiency;
  a caller may colour by symbol instead (``colours=``), and then a chip that would repeat its
  neighbour's colour is striped, so the boundary still shows;
- whitespace is drawn (space ``⋅``, tab ``→``, newline ``↵``), because a leading space is part of
  a token and invisible text hides exactly the detail a learner needs;
- a chip never cuts a character. Byte-level tokens can split the bytes of one character (an emoji
  is often two tokens), and any tokenizer can keep apart the code points of one character as you
  see it (👍🏽 is 👍 plus a skin tone); those tokens are drawn as ONE chip, at grapheme boundaries
  (the regex module's ``\\X``). Word-level tokens end a word with ``</w>``, which is not text:
  pass ``word_end="</w>"`` and no chip reaches across the end of a word;
- screen readers get the same facts: the chips are a list, each item says its text and ids.

Everything here is a pure function returning a string, so it can be tested without a browser.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import regex

from bpelab.widgets.encoders import UNKNOWN_ID
from bpelab.widgets.esm import STATIC_DIR

PALETTE: tuple[str, ...] = ("#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#44BB99")
"""Paul Tol's "light" qualitative scheme (six of its colours): black text on each has a contrast of
8:1 or more, and neighbours in this order stay apart under simulated protanopia, deuteranopia and
tritanopia (tests/test_chips.py checks both): https://personal.sron.nl/~pault/"""

TEXT_COLOUR = "#000"
ID_COLOUR = "#333"

WHITESPACE_SIGNS: dict[str, str] = {" ": "⋅", "\t": "→", "\n": "↵", "\r": "␍"}
WHITESPACE_WORDS: dict[str, str] = {" ": "space", "\t": "tab", "\n": "new line", "\r": "carriage return"}

MARK_STYLES: dict[str, str] = {
    "merged": "outline:3px solid #222;outline-offset:-1px;font-weight:bold;",
    "next": "border-bottom:3px dashed #000;",
}
"""How a marked chip is drawn. Marks use outlines and weight, never colour alone."""

MARK_WORDS: dict[str, str] = {
    "merged": "just merged",
    "next": "merges next",
    "special": "special token",
    "trained": "trained on",
}
"""How a mark is said to a screen reader."""


def _text_fonts() -> str:
    """The views' font list, ``TEXT_FONTS`` of ``static/chips.js``: written once, there, where every view reads it."""
    source = (STATIC_DIR / "chips.js").read_text(encoding="utf-8")
    found = regex.search(r"^export const TEXT_FONTS = `([^`]+)`;", source, flags=regex.MULTILINE)
    if found is None:
        raise RuntimeError(f"{STATIC_DIR / 'chips.js'} no longer defines TEXT_FONTS as a `...` string")
    return " ".join(found.group(1).split())


TEXT_FONTS = _text_fonts()
"""Monospace fonts, then a font for each script the course shows (Tamil, Devanagari, Thai, CJK, emoji ...)."""

CHIP_CSS = (
    "<style>"
    f".bpe-chips{{line-height:2.4;font-family:{TEXT_FONTS};font-size:14px}}"
    f".bpe-chip{{display:inline-flex;flex-direction:column;align-items:center;color:{TEXT_COLOUR};"
    "border-radius:4px;padding:0 4px;margin:1px 1px;white-space:pre;line-height:1.3;vertical-align:top;"
    "position:relative}"
    f".bpe-chip-id{{font-size:10px;color:{ID_COLOUR}}}"
    ".bpe-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;"
    "clip:rect(0 0 0 0);white-space:nowrap}"
    "</style>"
)
"""The chips' style sheet. ``.bpe-sr`` is text for screen readers only (visually hidden)."""

Piece = str | bytes


@dataclass(frozen=True)
class Chip:
    """One drawn chip: the tokens it covers (usually one) and the text they spell together."""

    tokens: tuple[int, ...]
    """Positions in the token sequence; more than one when tokens cut a character."""
    raw: bytes
    text: str
    joins: tuple[int, ...] = ()
    """Byte offsets inside ``raw`` where one of its tokens ends and the next begins."""

    @property
    def cuts_code_point(self) -> bool:
        """True when the tokens split the UTF-8 bytes of one code point (only byte-level tokens
        can); False when they only keep apart the code points of one grapheme, such as 👍 and 🏽."""
        return any(self.raw[offset] & 0xC0 == 0x80 for offset in self.joins)


def show_whitespace(text: str) -> str:
    """Make whitespace visible: ``"a b\\n"`` becomes ``"a⋅b↵"``."""
    return "".join(WHITESPACE_SIGNS.get(ch, ch) for ch in text)


INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}+")
"""Characters a font draws as nothing (joiners, variation selectors, direction marks, fillers)."""


def is_invisible(text: str) -> bool:
    """True when every character of ``text`` is drawn as nothing (U+FE0F, U+200D, U+00AD ...)."""
    return INVISIBLE.fullmatch(text) is not None


def name_invisible(text: str) -> str:
    """Invisible characters named so they can be seen: ``"U+FE0F VARIATION SELECTOR-16 + U+200D ZERO WIDTH JOINER"``."""
    return " + ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip() for ch in text)


def chip_label(text: str) -> str:
    """What a chip shows: its text with whitespace visible; a chip of invisible characters only (a
    zero-width joiner cut off by a word-level split) shows their code points and names, ``U+200D ZERO WIDTH JOINER``."""
    if is_invisible(text):
        return name_invisible(text)
    return show_whitespace(text)


def id_line(ids: Sequence[object]) -> str:
    """The ids under a chip; a chip whose symbols the vocabulary lacks says so, not "? ?"."""
    if ids and all(i == UNKNOWN_ID for i in ids):
        return "no id" if len(ids) == 1 else "no ids"
    return " ".join(str(i) for i in ids)


_LONE_SURROGATE = regex.compile("[\ud800-\udc7f\udd00-\udfff]")
"""Surrogates that stand for no byte under ``surrogateescape`` (U+DC80-U+DCFF do)."""


def _as_bytes(piece: Piece) -> bytes:
    if isinstance(piece, bytes):
        return piece
    if isinstance(piece, str):
        try:
            return piece.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            # a lone surrogate in the text (a pasted JSON "\ud800"): no UTF-8 exists for it; tiktoken encodes it
            # as U+FFFD, and so it is drawn here, in a word-level tokenizer's row too
            return _LONE_SURROGATE.sub("\ufffd", piece).encode("utf-8", "surrogateescape")
    raise TypeError(f"a token must be shown as str or bytes, got {type(piece).__name__}")


def _grapheme_ends(data: bytes, start: int) -> set[int]:
    """The byte offsets (from ``start``) where the graphemes of ``data`` end."""
    ends, offset = set(), start
    for cluster in regex.findall(r"\X", data.decode("utf-8", "surrogateescape")):
        offset += len(cluster.encode("utf-8", "surrogateescape"))
        ends.add(offset)
    return ends


def group_at_graphemes(pieces: Sequence[Piece], *, word_end: str | None = None) -> list[tuple[int, ...]]:
    """Group token positions so that no group boundary falls inside a grapheme.

    Bytes that are not valid UTF-8 are decoded with ``surrogateescape``: each stray byte becomes
    one stand-in character, so it ends up as a grapheme (and a chip) of its own. With
    ``word_end`` (``"</w>"`` for word-level tokens), a token ending with it ends its group, and
    graphemes are found word by word: the marker is not text, so a zero-width joiner or an accent
    that starts the next word must not be glued to it.
    """
    raw = [_as_bytes(p) for p in pieces]
    marker = _as_bytes(word_end) if word_end else None
    boundaries = {0}
    start = 0
    word: list[bytes] = []
    for piece in raw:
        word.append(piece)
        if marker is not None and piece.endswith(marker):
            boundaries |= _grapheme_ends(b"".join(word), start)
            start += sum(map(len, word))
            word = []
    boundaries |= _grapheme_ends(b"".join(word), start)
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


def make_chips(pieces: Sequence[Piece], *, word_end: str | None = None) -> list[Chip]:
    """The chips for a token sequence given as each token's text (str) or bytes."""
    raw = [_as_bytes(p) for p in pieces]
    chips = []
    for group in group_at_graphemes(raw, word_end=word_end):
        data = b"".join(raw[i] for i in group)
        joins, offset = [], 0
        for i in group[:-1]:
            offset += len(raw[i])
            joins.append(offset)
        chips.append(Chip(group, data, data.decode("utf-8", "replace"), tuple(joins)))
    return chips


def chip_colours(count: int, start: int = 0) -> list[str]:
    """Background colours for ``count`` chips in a row: cycling, so neighbours always differ."""
    return [PALETTE[(start + i) % len(PALETTE)] for i in range(count)]


def _backgrounds(colours: Sequence[str]) -> list[str]:
    """CSS backgrounds for chips coloured by the caller: a colour equal to its left neighbour's is
    drawn striped with white, so two neighbours never look the same."""
    out: list[str] = []
    for i, colour in enumerate(colours):
        if i > 0 and colour == colours[i - 1] and not out[-1].startswith("repeating"):
            out.append(f"repeating-linear-gradient(135deg,{colour} 0 6px,#fff 6px 9px)")
        else:
            out.append(colour)
    return out


def show_bytes(data: bytes) -> str:
    r"""Bytes as Python writes them in a bytes literal, every one escaped: ``b"!"`` is ``\x21``."""
    return "".join(f"\\x{byte:02x}" for byte in data) or "(none)"


def _split_marker(data: bytes, word_end: str | None) -> tuple[bytes, bool]:
    marker = _as_bytes(word_end) if word_end else b""
    if marker and data.endswith(marker):
        return data[: -len(marker)], True
    return data, False


def _hover(chip: Chip, pieces: Sequence[bytes], ids: Sequence[object] | None, word_end: str | None) -> str:
    lines = []
    for position in chip.tokens:
        data, ends_word = _split_marker(pieces[position], word_end)
        who = f"id {ids[position]}" if ids is not None else f"token {position + 1}"
        text = repr(data.decode("utf-8", "replace")) + (f" + {word_end} (end of word)" if ends_word else "")
        lines.append(f"{who} · text {text} · bytes {show_bytes(data)}")
    if len(chip.tokens) > 1:
        if chip.cuts_code_point:
            why = f"they cut the UTF-8 bytes of a character in {chip.text!r}"
        else:
            why = f"{chip.text!r} is one character as you see it, made of code points the tokens keep apart"
        lines.append(f"{len(chip.tokens)} tokens drawn as one chip: {why}")
    return "\n".join(lines)


def spoken(text: str) -> str:
    """A chip's text as a screen reader should say it: whitespace named, not skipped."""
    if is_invisible(text):
        return chip_label(text)
    words, run = [], ""
    for ch in text:
        if ch in WHITESPACE_WORDS:
            if run:
                words.append(run)
                run = ""
            words.append(WHITESPACE_WORDS[ch])
        else:
            run += ch
    if run:
        words.append(run)
    return " ".join(words) or "empty"


def _spoken_chip(chip: Chip, ids: Sequence[object] | None, kinds: Sequence[str]) -> str:
    parts = [spoken(chip.text)]
    if ids is not None:
        own = [ids[i] for i in chip.tokens]
        shown = ", ".join(str(i) for i in own)
        if all(i == UNKNOWN_ID for i in own):
            parts.append("not in this vocabulary: " + id_line(own))
        else:
            parts.append(f"id {shown}" if len(chip.tokens) == 1 else f"{len(chip.tokens)} tokens, ids {shown}")
    elif len(chip.tokens) > 1:
        parts.append(f"{len(chip.tokens)} tokens")
    parts.extend(MARK_WORDS[kind] for kind in kinds)
    return ", ".join(parts)


def chips_html(
    pieces: Sequence[Piece],
    ids: Sequence[object] | None = None,
    *,
    show_ids: bool = False,
    marks: Mapping[int, str | Collection[str]] | None = None,
    break_lines: bool = False,
    css: bool = True,
    colours: Sequence[str] | None = None,
    word_end: str | None = None,
) -> str:
    """HTML for a token sequence as chips.

    ``pieces`` are the tokens' text or bytes; ``ids`` (optional) are shown under the chips when
    ``show_ids`` and always in the hover title. ``marks`` maps a token position to "merged",
    "next" or both; a chip carries the marks of all its tokens. ``break_lines`` starts a new line
    after a chip that ends in a newline. ``colours``: one CSS colour per chip (for example one per
    symbol) instead of the cycling palette. ``word_end``: the end-of-word marker of word-level
    tokens (see ``group_at_graphemes``). Every chip is one ``<span class="bpe-chip">``, a list item
    whose text a screen reader hears with its ids and marks.
    """
    raw = [_as_bytes(p) for p in pieces]
    if ids is not None and len(ids) != len(raw):
        raise ValueError(f"got {len(raw)} tokens but {len(ids)} ids; pass one id per token")
    kinds_at = {i: {kind} if isinstance(kind, str) else set(kind) for i, kind in (marks or {}).items()}
    unknown = set().union(*kinds_at.values()) - set(MARK_STYLES)
    if unknown:
        raise ValueError(f"unknown mark {sorted(unknown)}; use one of {sorted(MARK_STYLES)}")
    chips = make_chips(raw, word_end=word_end)
    if colours is None:
        backgrounds = chip_colours(len(chips))
    elif isinstance(colours, str) or len(colours) != len(chips):
        got = "one string" if isinstance(colours, str) else f"{len(colours)} colours"
        raise ValueError(
            f"got {got} for {len(chips)} chips; pass one colour per chip (make_chips(pieces) gives the chips)"
        )
    else:
        backgrounds = _backgrounds(list(colours))
    parts = [CHIP_CSS] if css else []
    parts.append('<span class="bpe-chips" role="list">')
    for chip, background in zip(chips, backgrounds):
        kinds = sorted(set().union(*(kinds_at.get(i, set()) for i in chip.tokens)))
        classes = " ".join(["bpe-chip", *(f"bpe-chip-{kind}" for kind in kinds)])
        style = f"background:{html.escape(background, quote=True)};" + "".join(MARK_STYLES[kind] for kind in kinds)
        title = html.escape(_hover(chip, raw, ids, word_end), quote=True)
        label = html.escape(chip_label(chip.text)) or "&nbsp;"
        body = f'<span aria-hidden="true">{label}</span>'
        if show_ids and ids is not None:
            shown = id_line([ids[i] for i in chip.tokens])
            body += f'<span class="bpe-chip-id" aria-hidden="true">{html.escape(shown)}</span>'
        body += f'<span class="bpe-sr">{html.escape(_spoken_chip(chip, ids, kinds))}</span>'
        parts.append(f'<span class="{classes}" style="{style}" title="{title}" role="listitem">{body}</span>')
        if break_lines and chip.text.endswith("\n"):
            parts.append('<br aria-hidden="true">')
    parts.append("</span>")
    return "".join(parts)


def chips_text(pieces: Sequence[Piece], separator: str = " | ", *, word_end: str | None = None) -> str:
    """The chips as plain text (whitespace visible), for text fallbacks and printing."""
    return separator.join(chip_label(chip.text) for chip in make_chips(pieces, word_end=word_end))
