"""Token chips (bpelab/widgets/chips.py): grouping at graphemes, word ends, hover text, colours and
what a screen reader hears. Known answers are worked out by hand from the Unicode and UTF-8 facts
named beside them; the colour checks recompute WCAG contrast and colour-vision simulations here."""

from __future__ import annotations

import html
import math
import re

import pytest
import tiktoken

from bpelab.widgets.chips import ID_COLOUR, PALETTE, TEXT_COLOUR, chips_html, chips_text, group_at_graphemes, make_chips
from bpelab.words import END_OF_WORD, encode_word

ZWJ = "\u200d"
FAMILY = f"👩{ZWJ}👩{ZWJ}👧"  # woman, ZWJ, woman, ZWJ, girl: one character as you see it, five code points
THUMBS = "👍🏽"  # thumbs up + skin-tone modifier: one character as you see it, two code points


def titles(markup: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'title="([^"]*)"', markup)]


def backgrounds(markup: str) -> list[str]:
    return re.findall(r'class="bpe-chip[^"]*" style="background:([^;]*);', markup)


# ---- word ends: the marker is not text ------------------------------------------------------------


def test_a_zero_width_joiner_after_an_end_of_word_marker_gets_its_own_chip():
    # What a word-level tokenizer gives when its split makes the ZWJ a word of its own (regex's \w
    # includes Join_Control): ['👩', '</w>', ZWJ, '</w>', ...]. Read as text, '>' + ZWJ is one
    # grapheme (Unicode rule GB9: never break before ZWJ), which glued the joiner into a '</w>' chip.
    words = ["👩", ZWJ, "👩", ZWJ, "👧"]
    pieces = [s for w in words for s in encode_word(w, [])]
    assert pieces == ["👩", END_OF_WORD, ZWJ, END_OF_WORD, "👩", END_OF_WORD, ZWJ, END_OF_WORD, "👧", END_OF_WORD]
    assert group_at_graphemes(pieces, word_end=END_OF_WORD) == [(i,) for i in range(10)]
    chips = make_chips(pieces, word_end=END_OF_WORD)
    assert [c.text for c in chips] == pieces
    markup = chips_html(pieces, [0, 3, "?", 3, 0, 3, "?", 3, 1, 3], show_ids=True, word_end=END_OF_WORD)
    assert re.findall(r'class="bpe-chip-id"[^>]*>([^<]*)<', markup) == [
        "0",
        "3",
        "no id",  # the vocabulary lacks the joiner: said plainly, not "?"
        "3",
        "0",
        "3",
        "no id",
        "3",
        "1",
        "3",
    ]


def test_a_chip_of_invisible_characters_shows_their_code_points_and_names():
    pieces = ["👩", END_OF_WORD, ZWJ, END_OF_WORD]
    assert chips_text(pieces, word_end=END_OF_WORD) == "👩 | </w> | U+200D ZERO WIDTH JOINER | </w>"
    assert '<span aria-hidden="true">U+200D ZERO WIDTH JOINER</span>' in chips_html(pieces, word_end=END_OF_WORD)
    assert chips_text(["\u00ad", "\ufe0f"]) == "U+00AD SOFT HYPHEN | U+FE0F VARIATION SELECTOR-16"
    assert chips_text([FAMILY]) == FAMILY  # joined into an emoji, the joiner is drawn as part of it


def test_an_accent_starting_a_word_is_not_glued_to_the_previous_end_of_word():
    pieces = ["a", END_OF_WORD, "\u0301", END_OF_WORD]  # "a" then a lone combining acute accent
    assert group_at_graphemes(pieces, word_end=END_OF_WORD) == [(0,), (1,), (2,), (3,)]
    assert chips_text(pieces, word_end=END_OF_WORD).split(" | ")[1] == END_OF_WORD


def test_word_level_graphemes_are_still_one_chip():
    pieces = encode_word(THUMBS, []) + encode_word(FAMILY, [])  # code points, each its own token
    assert pieces == ["👍", "🏽", END_OF_WORD, "👩", ZWJ, "👩", ZWJ, "👧", END_OF_WORD]
    assert group_at_graphemes(pieces, word_end=END_OF_WORD) == [(0, 1), (2,), (3, 4, 5, 6, 7), (8,)]
    chips = make_chips(pieces, word_end=END_OF_WORD)
    assert [c.text for c in chips] == [THUMBS, END_OF_WORD, FAMILY, END_OF_WORD]
    assert not any(c.cuts_code_point for c in chips)  # whole code points, only kept apart


def test_a_chip_knows_whether_its_tokens_cut_a_code_point():
    # U+1F642 is f0 9f 99 82 in UTF-8: cutting after two bytes cuts the code point
    assert make_chips([b"\xf0\x9f", b"\x99\x82"])[0].cuts_code_point
    assert not make_chips(["👍", "🏽"])[0].cuts_code_point
    enc = tiktoken.get_encoding("cl100k_base")
    pieces = enc.decode_tokens_bytes(enc.encode(" " + THUMBS))
    (chip,) = make_chips(pieces)
    assert chip.cuts_code_point and chip.text == " " + THUMBS


# ---- the hover title ------------------------------------------------------------------------------


def test_the_tooltip_writes_bytes_with_a_marker():
    (title,) = titles(chips_html(["!"], [0]))
    assert "bytes \\x21" in title  # '!' is byte 0x21
    (title,) = titles(chips_html(["é"], [233]))
    assert "bytes \\xc3\\xa9" in title  # é is U+00E9: c3 a9 in UTF-8
    assert "bytes 21" not in titles(chips_html(["!"]))[0]


def test_the_tooltip_says_why_tokens_share_a_chip():
    (cut,) = titles(chips_html([b"\xf0\x9f", b"\x99\x82"]))
    assert "cut the UTF-8 bytes" in cut
    (kept,) = titles(chips_html(["👍", "🏽"]))
    assert "cut" not in kept and "code points" in kept


def test_the_tooltip_of_a_word_level_token_names_the_end_of_word():
    (title,) = titles(chips_html(["low" + END_OF_WORD], [7], word_end=END_OF_WORD))
    assert "text 'low' + </w> (end of word)" in title
    assert "bytes \\x6c\\x6f\\x77" in title  # l o w, the marker is not text


# ---- colours --------------------------------------------------------------------------------------


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(ch * 2 for ch in colour)
    r, g, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
    return r, g, b


def relative_luminance(colour: str) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour."""
    r, g, b = (linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter."""
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
"""Machado, Oliveira and Fernandes (2009), Table 1, severity 1.0 (dichromacy), on linear RGB."""


def simulate(colour: str, kind: str) -> tuple[float, float, float]:
    linear_rgb = [linear(c) for c in rgb(colour)]
    out = [sum(m * c for m, c in zip(row, linear_rgb)) for row in MACHADO_2009[kind]]
    return tuple(min(1.0, max(0.0, c)) for c in out)  # type: ignore[return-value]


def cielab(linear_rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear sRGB colour."""
    r, g, b = linear_rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


MIN_DELTA_E = 12.0
"""CIE76 colour difference every two neighbouring chip colours keep under each simulation: about
five times a just-noticeable difference (≈ 2.3)."""


@pytest.mark.parametrize("colour", PALETTE)
def test_chip_text_has_at_least_4_5_to_1_contrast_on_every_chip_colour(colour):
    assert contrast(TEXT_COLOUR, colour) >= 4.5
    assert contrast(ID_COLOUR, colour) >= 4.5


def test_the_contrast_formula_matches_wcags_known_values():
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#777777", "#fff") == pytest.approx(4.48, abs=0.01)  # WCAG's classic near miss


@pytest.mark.parametrize("kind", sorted(MACHADO_2009))
def test_neighbouring_palette_colours_stay_apart_under_colour_vision_deficiencies(kind):
    ring = list(PALETTE) + [PALETTE[0]]  # chip 6 is followed by chip 7, which takes colour 1 again
    for a, b in zip(ring, ring[1:]):
        delta = math.dist(cielab(simulate(a, kind)), cielab(simulate(b, kind)))
        assert delta >= MIN_DELTA_E, f"{a} and {b} are only {delta:.1f} apart under simulated {kind}"


def test_the_simulation_keeps_greys_and_confuses_red_with_green_as_expected():
    for kind in MACHADO_2009:  # each row sums to 1: greys are fixed points
        assert simulate("#808080", kind) == pytest.approx(tuple(linear(0x80) for _ in range(3)), abs=1e-3)
    red, green = cielab(simulate("#d62728", "deuteranopia")), cielab(simulate("#2ca02c", "deuteranopia"))
    assert math.dist(red, green) < math.dist(
        cielab(simulate("#d62728", "tritanopia")), cielab(simulate("#2ca02c", "tritanopia"))
    )


def test_chips_can_be_coloured_by_symbol():
    markup = chips_html(
        ["n", "e", "w", "e", "s", "t"], colours=["#77AADD", "#EE8866", "#EEDD88", "#EE8866", "#FFAABB", "#99DDFF"]
    )
    assert backgrounds(markup) == ["#77AADD", "#EE8866", "#EEDD88", "#EE8866", "#FFAABB", "#99DDFF"]  # both e's alike
    with pytest.raises(ValueError, match="one colour per chip"):
        chips_html(["a", "b"], colours=["#77AADD"])
    with pytest.raises(ValueError, match="one colour per chip"):
        chips_html(["a"], colours="#77AADD")


def test_neighbours_coloured_alike_by_the_caller_still_look_different():
    shown = backgrounds(chips_html(["l", "l", "l", "o"], colours=["#77AADD"] * 3 + ["#EE8866"]))
    assert len(shown) == 4 and all(a != b for a, b in zip(shown, shown[1:]))
    assert shown[0] == "#77AADD" and "#77AADD" in shown[1] and shown[1].startswith("repeating-linear-gradient")


# ---- screen readers -------------------------------------------------------------------------------


def test_chips_are_a_list_whose_items_say_their_text_and_ids():
    markup = chips_html([" the", "👍", "🏽"], ids=[279, 9, 10], show_ids=True, marks={0: "merged"})
    assert markup.count('role="list"') == 1 and markup.count('role="listitem"') == 2
    spoken = re.findall(r'<span class="bpe-sr">([^<]*)</span>', markup)
    assert spoken == ["space the, id 279, just merged", "👍🏽, 2 tokens, ids 9, 10"]
    # what is drawn is hidden from screen readers, so nothing is read twice
    visible = re.findall(r'<span( class="bpe-chip-id")? aria-hidden="true">', markup)
    assert len(visible) == 4


@pytest.mark.parametrize("surrogate", ["\ud800", "\udbff", "\udc00", "\udfff"])
def test_a_lone_surrogate_in_a_word_level_token_is_one_replacement_chip(surrogate):
    """Text can hold a lone surrogate (a JSON "\\ud800" pasted in); UTF-8 cannot: drawn as U+FFFD, as tiktoken
    encodes it, not an UnicodeEncodeError."""
    chips = make_chips(["a", surrogate, "b" + END_OF_WORD], word_end=END_OF_WORD)
    assert "\ufffd" in chips_text(["a", surrogate, "b" + END_OF_WORD], word_end=END_OF_WORD)
    assert any("\ufffd" in chip.text for chip in chips)
