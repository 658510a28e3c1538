"""The `regex` range in pyproject.toml admits only releases whose Unicode tables hold Unicode 16's letters.

tiktoken's Rust engine reads Unicode 16 letters (Todhri, Garay, Gurung Khema, Sunuwar, Ol Onal) as `\\p{L}`.
`regex` 2024.7.24 (module version 2.5.146) does not, so the course's split of "𐗀/A" is ['𐗀/', 'A'] where
tiktoken's is ['𐗀', '/A'] and the ids differ (measured: [.., 14, 32] against [.., 10576]); 2024.9.11 (2.5.147), the
next release, is the first that knows them. These tests fail on a range that lets an older release in, and on an
installed release that lacks the letters.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import regex
from packaging.requirements import Requirement
from packaging.version import Version

from bpelab.patterns import PATTERNS, split_text
from bpelab.production import load_encoding

FIRST_WITH_UNICODE_16 = Version("2024.9.11")
# one letter (category Lo) from each of five scripts Unicode 16 added
UNICODE_16_LETTERS = ["\U000105c0", "\U00010d50", "\U00016100", "\U00011bc0", "\U0001e5d0"]
ENCODING_OF = {"gpt2": "r50k_base", "cl100k": "cl100k_base", "o200k": "o200k_base", "llama3": "llama3"}


def regex_requirements() -> list[Requirement]:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    found = [Requirement(line) for line in pyproject["project"]["dependencies"] if Requirement(line).name == "regex"]
    assert found, "no regex requirement in pyproject.toml"
    return found


@pytest.mark.parametrize("python", ["3.11", "3.12", "3.13", "3.14"])
def test_every_allowed_regex_release_knows_unicode_16(python):
    environment = {"python_version": python, "python_full_version": python + ".0"}
    applying = [r for r in regex_requirements() if r.marker is None or r.marker.evaluate(environment)]
    assert len(applying) == 1, applying
    lowest = min(Version(s.version) for s in applying[0].specifier if s.operator == ">=")
    assert lowest >= FIRST_WITH_UNICODE_16, (
        f"on Python {python} pyproject.toml allows regex {lowest}, older than {FIRST_WITH_UNICODE_16}, the first "
        "release with Unicode 16's letters: the course's split would differ from tiktoken's on them"
    )


@pytest.mark.parametrize("char", UNICODE_16_LETTERS)
def test_the_installed_regex_reads_unicode_16_letters_as_letters(char):
    assert regex.fullmatch(r"\p{L}", char), f"U+{ord(char):04X} is not \\p{{L}} for regex {regex.__version__}"


@pytest.mark.parametrize("name", list(PATTERNS))
@pytest.mark.parametrize("char", UNICODE_16_LETTERS)
def test_unicode_16_letters_split_as_tiktoken_splits_them(name, char):
    encoding = load_encoding(ENCODING_OF[name])
    for text in (char + "/A", "/" + char + "A", "a" + char + "1"):
        joined = [i for piece in split_text(text, name) for i in encoding.encode_ordinary(piece)]
        assert joined == encoding.encode_ordinary(text), f"{text!r}: {split_text(text, name)}"
