"""Writes ``bpelab/sentencepiece_scripts.py`` from SentencePiece's own script table.

SentencePiece does not ask Unicode (or ``regex``) which script a character belongs to: it carries its own table,
``src/unicode_script_map.h`` (Apache-2.0, Copyright 2016 Google Inc.), a list of ``(*smap)[c] = U_Name;``
assignments, one code point or one ``for`` range each; a later assignment wins, and a code point the table does not
name is Common (``GetScript`` in ``src/unicode_script.cc``). That table is older than the Unicode that ``regex``
knows, so the two disagree on thousands of code points (Georgian Mtavruli U+1C90–U+1CBF is Common in it).

Run it on the header of the pinned release, e.g. from the sdist ``sentencepiece-0.2.3.tar.gz`` (PyPI)::

    python -m bpelab.sentencepiece_scripts_generate sentencepiece-0.2.3/sentencepiece/src/unicode_script_map.h

It writes the ranges of every script but Common, merged where they touch.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

LAST_CODE_POINT = 0x10FFFF
_RANGE = re.compile(r"for \(char32_t c = 0x([0-9A-F]+); c <= 0x([0-9A-F]+); \+\+c\)\s*\(\*smap\)\[c\] = U_(\w+);")
_ONE = re.compile(r"\(\*smap\)\[0x([0-9A-F]+)\] = U_(\w+);")


def read_table(header: str) -> list[str]:
    """The script of every code point (index = code point), as the header's assignments leave it."""
    scripts = ["Common"] * (LAST_CODE_POINT + 1)
    found = 0
    for match in re.finditer(f"{_RANGE.pattern}|{_ONE.pattern}", header):
        if match.group(1) is not None:
            first, last, name = int(match.group(1), 16), int(match.group(2), 16), match.group(3)
        else:
            first = last = int(match.group(4), 16)
            name = match.group(5)
        scripts[first : last + 1] = [name] * (last - first + 1)
        found += 1
    if found < 1000:
        raise ValueError(f"only {found} assignments found: is this SentencePiece's src/unicode_script_map.h?")
    return scripts


def ranges(scripts: list[str]) -> list[tuple[int, int, str]]:
    """(first, last, script) for every run of one script other than Common."""
    runs: list[tuple[int, int, str]] = []
    for code_point, name in enumerate(scripts):
        if name == "Common":
            continue
        if runs and runs[-1][2] == name and runs[-1][1] == code_point - 1:
            runs[-1] = (runs[-1][0], code_point, name)
        else:
            runs.append((code_point, code_point, name))
    return runs


def module_text(header_bytes: bytes) -> str:
    """The source of ``bpelab/sentencepiece_scripts.py``."""
    runs = ranges(read_table(header_bytes.decode("utf-8")))
    names = sorted({name for _, _, name in runs})
    rows = "\n".join(f"    (0x{a:04X}, 0x{b:04X}, {names.index(n)})," for a, b, n in runs)
    name_rows = "\n".join(f'    "{n}",' for n in names)
    digest = hashlib.sha256(header_bytes).hexdigest()
    return f'''"""SentencePiece's own script of each character, as ``IsValidSentencePiece`` looks it up (generated: do not edit).

Made by ``bpelab/sentencepiece_scripts_generate.py`` from ``src/unicode_script_map.h`` of sentencepiece 0.2.3
(the PyPI sdist; sha256 of the header {digest}), Copyright 2016 Google Inc., Apache License 2.0
(http://www.apache.org/licenses/LICENSE-2.0): the table's facts, rewritten as ranges. A code point in no range is
Common, as in ``GetScript`` (``src/unicode_script.cc``).
"""

from __future__ import annotations

from bisect import bisect_right

SCRIPT_NAMES: tuple[str, ...] = (
{name_rows}
)

RANGES: tuple[tuple[int, int, int], ...] = (
{rows}
)
"""(first code point, last code point, index into ``SCRIPT_NAMES``), sorted, not overlapping."""

_FIRSTS = [first for first, _, _ in RANGES]


def sentencepiece_script(char: str) -> str:
    """The script SentencePiece's table gives ``char`` ("Common" where the table names none)."""
    i = bisect_right(_FIRSTS, ord(char)) - 1
    if i >= 0 and RANGES[i][0] <= ord(char) <= RANGES[i][1]:
        return SCRIPT_NAMES[RANGES[i][2]]
    return "Common"
'''


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        raise SystemExit("usage: python -m bpelab.sentencepiece_scripts_generate PATH/TO/unicode_script_map.h")
    text = module_text(Path(argv[0]).read_bytes())
    target = Path(__file__).with_name("sentencepiece_scripts.py")
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.name}: {text.count(chr(10))} lines")


if __name__ == "__main__":
    main(sys.argv[1:])
