"""Which fonts Chromium drew a view's text with, and whether those fonts hold that text's characters.

Chromium tells which fonts it drew an element's text with (the DevTools protocol's
``CSS.getPlatformFontsForNode``: family, PostScript name, glyph count), not which character went to which
font. fontTools reads each of those font files (found with ``fc-list`` by PostScript name) and its
character map. A text passes when:

1. every character it shows is in at least one of the fonts it was drawn with. A character no font holds
   is drawn as a box (Chromium then draws the whole cluster with the first font: Tamil வா in DejaVu Sans
   Mono, two boxes), or, for a precomposed letter, taken apart: HarfBuzz draws Vietnamese ế as ê and a
   combining acute the font never placed together (DejaVu Sans Mono lacks 47 of Vietnamese's letters;
   Noto Sans lacks ≠ and drew = with U+0338's slash beside it);
2. in a text whose letters are of one script (Tamil, Latin ...; Common characters such as digits,
   punctuation and ⋅ ↵ aside, and emoji), a font that drew some of its letters holds all of them; in the
   learner's text (chips, text boxes, <code>), it holds all the letters of that script the test shows too
   (``repertoire``): it is a font for that script. A font drew letters when it drew more glyphs than the
   text has signs it holds (in ⋅việc, DejaVu Sans Mono drew one glyph, the ⋅). So Noto Sans Grantha drawing
   ப (it holds two Tamil letters), or DejaVu Sans Mono drawing Latin (it lacks ế), fails even where the
   text at hand has no letter the font lacks. Texts of several scripts (a text box of every language) get
   rule 1 only: Chromium does not say which font drew which character, and a font of one script often
   holds a few letters of another (Noto Sans CJK holds Greek without its accented letters);
3. every emoji (a grapheme holding a pictograph, skin tone or flag: 👨‍👩‍👧‍👦, 👍🏽, 🇫🇷) is one glyph of the
   emoji font: a family or a skin tone that falls apart into several pictures fails.

Characters that need no glyph are left out: control characters (a text box's line breaks and tabs are
layout), and variation selectors, joiners and other Default_Ignorable code points (U+FE0F, U+200C, U+200D,
U+00AD ...). HarfBuzz, which shapes Chromium's text, replaces such a character with an invisible
zero-advance glyph (or deletes it) whether or not the font maps it (``hb_ot_hide_default_ignorables`` in
harfbuzz's src/hb-ot-shape.cc), so no box can come from it; Noto Color Emoji itself maps no U+FE0F. The one
exception is a zero-width joiner inside an emoji sequence (👨‍👩‍👧): the font draws the family as one picture
only through a ligature that reads the joiner's glyph, so there the font must hold it. Texts of ASCII alone
are not asked about: every font the views draw with holds ASCII, and they are half the calls.
"""

from __future__ import annotations

import functools
import subprocess
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex
from fontTools import unicodedata as ucd  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from playwright.sync_api import CDPSession, Page

from bpelab.corpora import load_parallel

IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]")
ZWJ = "\u200d"
EMOJI_SCRIPT = "emoji"
EMOJI_FONT = regex.compile(r"Emoji", regex.IGNORECASE)
COMMON = ("Zyyy", "Zinh", "Zzzz")


EXTRA_SAMPLES: dict[str, str] = {
    "vi": "Tiếng Việt: người, những, được, việc, ở, ữ, ẫ, ặ, ỹ, Đà Nẵng",
    "emoji": "family 👨\u200d👩\u200d👧\u200d👦, thumbs 👍🏽, flag 🇫🇷, heart ❤\ufe0f",
    "he": "שלום עולם",
    "bn": "বাংলা ভাষা",
    "hy": "Հայերեն լեզու",
}
"""Text the parallel corpus lacks: Vietnamese (lesson 15's `' việc'`), the emoji the lessons show, and the
scripts of the font list the corpus has no language of (Hebrew, Bengali, Armenian)."""


def script_samples() -> dict[str, str]:
    """The first sentence of each language of the course's parallel corpus (data/parallel), then ``EXTRA_SAMPLES``."""
    return {**{code: lines[0] for code, lines in load_parallel().items()}, **EXTRA_SAMPLES}


def in_emoji_sequence(text: str, k: int) -> bool:
    """True when ``text[k]`` is a zero-width joiner between two emoji (👨‍👩: the font needs it for the ligature)."""
    return (
        text[k] == ZWJ and 0 < k < len(text) - 1 and bool(EMOJI.match(text[k - 1])) and bool(EMOJI.match(text[k + 1]))
    )


def must_draw(text: str) -> list[tuple[str, str]]:
    """The characters a font must hold, each with its script: all but the Default_Ignorable ones (a joiner
    inside an emoji sequence excepted); marks (Inherited) take their letter's script, emoji are "emoji"."""
    found: list[tuple[str, str]] = []
    for k, ch in enumerate(text):
        if (IGNORABLE.match(ch) and not in_emoji_sequence(text, k)) or unicodedata.category(ch) == "Cc":
            continue  # drawn as nothing, or (a line break, a tab) as layout, not as a glyph
        script = ucd.script(ch)
        if EMOJI.match(ch) or ch == ZWJ:
            script = EMOJI_SCRIPT
        elif script == "Zinh" and found:
            script = found[-1][1]
        found.append((ch, script))
    return found


def letter_scripts(text: str) -> set[str]:
    """The scripts of ``text``'s letters: Common (digits, punctuation, ⋅ ↵) and emoji aside."""
    return {s for _, s in must_draw(text) if s not in (*COMMON, EMOJI_SCRIPT)}


@functools.cache
def font_file(postscript_name: str) -> tuple[str, int]:
    """The file (and face index, for a .ttc) that fontconfig has for a PostScript name."""
    found = subprocess.run(
        ["fc-list", f":postscriptname={postscript_name}", "file", "index"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if not found:
        raise AssertionError(f"Chromium drew with {postscript_name!r}, which fc-list does not know")
    path, _, rest = found[0].partition(": ")
    index = rest.split("index=")[1].strip() if "index=" in rest else "0"
    return path.rstrip(":"), int(index)


@functools.cache
def font_characters(postscript_name: str) -> frozenset[int]:
    """The code points a font maps to a glyph (its best cmap)."""
    path, index = font_file(postscript_name)
    font = TTFont(path, fontNumber=index, lazy=True)
    try:
        return frozenset(font.getBestCmap())
    finally:
        font.close()


def glyph_problems(text: str, fonts: Sequence[dict[str, Any]], repertoire: Mapping[str, set[str]] = {}) -> list[str]:
    """What is wrong with ``text`` drawn in ``fonts`` (CSS.getPlatformFontsForNode's list), by the three rules;
    ``repertoire`` holds each script's letters that a font of that script must hold besides the text's own."""
    held = {f["postScriptName"]: font_characters(f["postScriptName"]) for f in fonts}
    needed = must_draw(text)
    problems = [
        f"U+{ord(ch):04X} {ch!r} is in none of {sorted(held)}"
        for ch, _ in dict.fromkeys(needed)
        if not any(ord(ch) in chars for chars in held.values())
    ]
    scripts = letter_scripts(text)
    if len(scripts) == 1:
        script = scripts.pop()
        wanted = {ch for ch, s in needed if s == script} | repertoire.get(script, set())
        for font in fonts:
            chars = held[name := font["postScriptName"]]
            others = sum(1 for ch, s in needed if s != script and ord(ch) in chars)
            if font["glyphCount"] <= others:
                continue  # it drew no more glyphs than the text's signs and digits it holds: no letter
            has = {ch for ch in wanted if ord(ch) in chars}
            if has != wanted:
                lacks = " ".join(f"U+{ord(ch):04X} {ch}" for ch in sorted(wanted - has)[:12])
                problems.append(f"{name} draws {script} letters but lacks {len(wanted - has)} of them: {lacks}")
    pictures = [g for g in regex.findall(r"\X", text) if EMOJI.search(g)]
    emoji_fonts = [f for f in fonts if EMOJI_FONT.search(f["familyName"])]
    whole = all(not g.endswith(ZWJ) and not g.startswith(ZWJ) for g in pictures)
    if pictures and whole and emoji_fonts and sum(f["glyphCount"] for f in emoji_fonts) != len(pictures):
        drawn = sum(f["glyphCount"] for f in emoji_fonts)
        problems.append(f"{len(pictures)} emoji drawn as {drawn} pictures: a sequence fell apart")
    return problems


def repertoire_of(texts: Iterable[str]) -> dict[str, set[str]]:
    """Each script's letters in ``texts``: what a font drawing that script must hold."""
    found: dict[str, set[str]] = {}
    for text in texts:
        for ch, script in must_draw(text):
            if script not in (*COMMON, EMOJI_SCRIPT):
                found.setdefault(script, set()).add(ch)
    return found


@dataclass(frozen=True)
class DrawnText:
    """One element's text and the fonts Chromium drew it with; ``learner``: the learner's text (a chip, a text
    box, a symbol), whose fonts must hold every letter of its script the samples have, not just its own."""

    where: str
    text: str
    fonts: tuple[dict[str, Any], ...]
    learner: bool = True

    def problems(self, repertoire: Mapping[str, set[str]] = {}) -> list[str]:
        return glyph_problems(self.text, self.fonts, repertoire if self.learner else {})

    def describe(self, repertoire: Mapping[str, set[str]] = {}) -> str:
        used = ", ".join(f"{f['familyName']} ({f['glyphCount']} glyphs)" for f in self.fonts)
        shown = self.text if len(self.text) <= 80 else self.text[:60] + f"… ({len(self.text)} characters)"
        return f"{self.where} {shown!r} drawn with {used}: " + "; ".join(self.problems(repertoire))


_COLLECT_JS = """([selector, skipped]) => {
    // every element of the views, in document order (CDP's DOM.querySelectorAll lists the same), with the text
    // Chromium counts for it: its own text and its child elements' (getPlatformFontsForNode looks two element
    // levels down: Chromium's inspector_css_agent.cc, "Iterate upto two layers deep")
    const own = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join("");
    const name = (el) => el.tagName.toLowerCase() + (el.classList[0] ? "." + el.classList[0] : "");
    return [...document.querySelectorAll(`${selector}, ${selector} *`)].map((el) => {
        if (el.closest(skipped) || (!own(el).trim() && !["TEXTAREA", "SELECT"].includes(el.tagName))) return null;
        let text = own(el) + [...el.children].map(own).join("");
        if (el.tagName === "TEXTAREA") text = el.value;  // drawn in its user-agent shadow root
        if (el.tagName === "SELECT") text = el.selectedOptions[0]?.text ?? "";  // likewise
        const learner = ["TEXTAREA", "CODE"].includes(el.tagName) || !!el.parentElement?.closest("code")
            || (!!el.parentElement?.classList.contains("bpe-chip") && el.parentElement.firstElementChild === el);
        const where = [el.parentElement?.parentElement, el.parentElement, el].filter(Boolean).map(name).join(" > ");
        return [where, text, learner];
    });
}"""
SKIPPED = ".bpe-sr, .bpe-sr-only, style, script, option"
"""Text for screen readers only (1 px, clipped: never seen), style sheets, scripts, and a select's options
(the system's menu draws them when it opens; the select itself is checked)."""


def cdp_session(page: Page) -> CDPSession:
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    return session


def _editor_of(session: CDPSession, textarea: int) -> int:
    """The element of a textarea's user-agent shadow root that holds its text: Chromium reports the fonts
    for it, and none for the textarea itself."""
    node = session.send("DOM.describeNode", {"nodeId": textarea, "depth": -1, "pierce": True})["node"]
    editors = [  # the other element there is the placeholder (attribute pseudo="-webkit-input-placeholder")
        c
        for root in node.get("shadowRoots", [])
        for c in root.get("children", [])
        if c["nodeName"] == "DIV" and "pseudo" not in c.get("attributes", [])[::2]
    ]
    assert editors, "the textarea has no editor element in its shadow root"
    pushed = session.send("DOM.pushNodesByBackendIdsToFrontend", {"backendNodeIds": [editors[0]["backendNodeId"]]})
    return int(pushed["nodeIds"][0])


def drawn_texts(page: Page, session: CDPSession, selector: str) -> list[DrawnText]:
    """Every text drawn inside the elements ``selector`` matches, with the fonts Chromium used for it. Texts of
    ASCII only are left out: every font the views draw with holds ASCII, and they are most of the calls."""
    elements = page.evaluate(_COLLECT_JS, [selector, SKIPPED])
    document = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node_ids = session.send("DOM.querySelectorAll", {"nodeId": document, "selector": f"{selector}, {selector} *"})
    assert len(node_ids["nodeIds"]) == len(elements), f"{selector}: the page changed while it was read"
    found = []
    for node_id, element in zip(node_ids["nodeIds"], elements, strict=True):
        if element is None or not element[1].strip() or element[1].isascii():
            continue
        where, text, learner = element
        if where.endswith("textarea"):
            node_id = _editor_of(session, node_id)
        fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]
        if fonts:  # not drawn (display:none, a closed panel): nothing to see
            found.append(DrawnText(where, text, tuple(fonts), learner))
    return found


def text_scripts(text: str) -> set[str]:
    """The scripts of ``text``'s letters, and "emoji" if it has any."""
    return {s for _, s in must_draw(text) if s not in COMMON}


def scripts_in(texts: Sequence[DrawnText]) -> set[str]:
    return {s for t in texts for s in text_scripts(t.text)}


def expected_scripts(samples: dict[str, str]) -> set[str]:
    return {s for text in samples.values() for s in text_scripts(text)}
