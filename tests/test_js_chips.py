"""The page's chips (``bpelab/widgets/static/chips.js``) name invisible characters as Python's do.

A chip of characters drawn as nothing (a zero-width joiner, a variation selector, a soft hyphen) shows
their code points and Unicode names instead of a blank. Python takes the names from ``unicodedata``;
the page has a table and two rules (variation selectors). Over every default-ignorable code point both
must agree, except that the page writes only the code point of a tag character (U+E0020 to U+E007F).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import regex

from bpelab.paths import REPO_ROOT
from bpelab.widgets.chips import chip_label, chips_html, make_chips
from bpelab.widgets.explorer import why_fewer_chips

NODE = shutil.which("node")
CHIPS_JS = REPO_ROOT / "bpelab" / "widgets" / "static" / "chips.js"
INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
TAGS = range(0xE0020, 0xE0080)


def test_fe0f_and_zwj_are_named_and_have_no_id_under_a_word_level_tokenizer() -> None:
    """Issue 21: a blank chip with ids "? ?", and a note reading "such as , whose"."""
    pieces, ids = ["\ufe0f", "\u200d", "</w>"], ["?", "?", 0]
    drawn = chips_html(pieces, ids, show_ids=True, word_end="</w>", css=False)
    assert ">U+FE0F VARIATION SELECTOR-16 + U+200D ZERO WIDTH JOINER</span>" in drawn
    assert '<span class="bpe-chip-id" aria-hidden="true">no ids</span>' in drawn
    assert "? ?" not in drawn
    note = why_fewer_chips(make_chips(pieces, word_end="</w>"))
    assert "such as U+FE0F VARIATION SELECTOR-16 + U+200D ZERO WIDTH JOINER, whose" in note


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_page_names_every_invisible_character_as_python_does() -> None:
    points = [cp for cp in range(0x110000) if INVISIBLE.match(chr(cp))]
    script = (
        f"import {{ chipLabel }} from {json.dumps(CHIPS_JS.as_uri())};\n"
        f"const points = {json.dumps(points)};\n"
        "console.log(JSON.stringify(points.map((cp) => chipLabel(String.fromCodePoint(cp)))));\n"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    page = dict(zip(points, json.loads(done.stdout), strict=True))
    differ = {}
    for cp, label in page.items():
        python = chip_label(chr(cp))
        expected = f"U+{cp:04X}" if cp in TAGS else python
        if label != expected:
            differ[f"U+{cp:04X}"] = (label, python)
    assert not differ, f"{len(differ)} labels differ (page, Python): {dict(list(differ.items())[:5])}"
    assert page[0x200D] == "U+200D ZERO WIDTH JOINER"
