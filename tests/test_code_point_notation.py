"""Code points are written in the Unicode Standard's notation everywhere in the course: ``U+4E2D``, not ``U+04E2D``.

The Standard writes a code point as "U+" and its value in upper-case hexadecimal, with leading zeros only up to
four digits (U+0041, U+4E2D, U+1F642, U+10FFFF). Lesson 01 once printed 中 as U+04E2D and 한 as U+0D55C, a form
no reference uses, in the very lesson that teaches the notation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.widgets.chips import chip_label, is_invisible

ROOT = Path(__file__).resolve().parents[1]
WRITTEN = re.compile(r"\bU\+([0-9A-Fa-f]+)")
STANDARD = re.compile(r"[0-9A-F]{4}|[1-9A-F][0-9A-F]{4}|10[0-9A-F]{4}")
"""Four digits (zeros in front where needed), or five or six with none in front; at most 10FFFF."""


def course_texts() -> list[tuple[str, str]]:
    """(where, text) for every lesson cell (source and stored outputs), notebooks/*.md, the README, bpelab's code."""
    found = []
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            parts = ["".join(cell["source"])]
            for output in cell.get("outputs", []):
                parts.append("".join(output.get("text", "")))
                parts += ["".join(v) for k, v in output.get("data", {}).items() if k.startswith("text/")]
            found.append((f"{path.name} cell {i}", "\n".join(parts)))
    paths = [ROOT / "README.md", *sorted((ROOT / "notebooks").glob("*.md"))]
    paths += sorted((ROOT / "bpelab").rglob("*.py")) + sorted((ROOT / "bpelab").rglob("*.js"))
    found += [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in paths]
    return found


def test_the_standard_form_is_what_the_standard_says():
    assert all(STANDARD.fullmatch(form) for form in ["0041", "00E9", "4E2D", "FFFF", "1F642", "20000", "10FFFF"])
    assert not any(STANDARD.fullmatch(form) for form in ["41", "04E2D", "0D55C", "01F642", "4e2d", "110000"])


def test_every_code_point_the_course_writes_is_in_the_standard_form():
    wrong = [
        f"{where}: U+{m.group(1)} (write U+{int(m.group(1), 16):04X})"
        for where, text in course_texts()
        for m in WRITTEN.finditer(text)
        if not STANDARD.fullmatch(m.group(1))
    ]
    assert not wrong, "\n".join(wrong)


def test_a_chip_of_invisible_characters_names_them_in_the_standard_form():
    assert chip_label("\u200d") == "U+200D ZERO WIDTH JOINER"
    assert chip_label("\u00ad") == "U+00AD SOFT HYPHEN"  # four digits, two of them zeros
    assert chip_label("\U000e0001") == "U+E0001 LANGUAGE TAG"  # five digits, no zero in front


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(categories=["Cf"]), min_size=1, max_size=4).filter(is_invisible))
def test_any_run_of_format_characters_is_labelled_in_the_standard_form(text: str):
    """A chip of invisible characters writes each "U+XXXX NAME" (or "U+XXXX" where Unicode gives it no name),
    joined by " + " (visible format characters such as U+0600 are drawn as themselves)."""
    forms = [WRITTEN.match(part) for part in chip_label(text).split(" + ")]
    assert all(forms), chip_label(text)
    assert [chr(int(form.group(1), 16)) for form in forms] == list(text)
    assert all(STANDARD.fullmatch(form.group(1)) for form in forms)
