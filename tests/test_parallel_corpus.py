"""Checks on the parallel corpus in data/parallel: one text in sixteen languages, sentence-aligned.

The lesson on the "multilingual tax" compares token counts line by line, so every file must have the same
number of lines, line i must be the same sentence in every language, and each line must really be written
in its language's script (a Hindi line in Urdu script or a Chinese line full of Latin letters would make the
comparison meaningless). Stdlib only.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from pathlib import Path

import pytest

PARALLEL_DIR = Path(__file__).resolve().parent.parent / "data" / "parallel"
LANGUAGES_TSV = PARALLEL_DIR / "languages.tsv"
HEADER = ["code", "name", "script", "spaces_between_words"]
MIN_LINES = 30
MIN_SCRIPT_SHARE = 0.90

_HAN = ("CJK UNIFIED IDEOGRAPH", "IDEOGRAPHIC ITERATION MARK")
# Script name in languages.tsv -> prefixes of the Unicode character names that belong to it.
SCRIPT_NAME_PREFIXES: dict[str, tuple[str, ...]] = {
    "Latin": ("LATIN",),
    "Cyrillic": ("CYRILLIC",),
    "Han": _HAN,
    # Japanese mixes kanji, hiragana and katakana; "KATAKANA-HIRAGANA PROLONGED SOUND MARK" is the 'ー' in ニーナ.
    "Japanese": _HAN + ("HIRAGANA", "KATAKANA"),
    "Hangul": ("HANGUL",),
    "Devanagari": ("DEVANAGARI",),
    "Arabic": ("ARABIC",),
    "Tamil": ("TAMIL",),
    "Ethiopic": ("ETHIOPIC",),
    "Myanmar": ("MYANMAR",),
    "Georgian": ("GEORGIAN",),
    "Greek": ("GREEK",),
    "Thai": ("THAI",),
}
ASCII_DIGIT_RUN = re.compile(r"[0-9]+")


def _read_languages() -> list[dict[str, str]]:
    with open(LANGUAGES_TSV, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _language_rows() -> list[dict[str, str]]:
    """Rows of languages.tsv, or none if it is missing (test_languages_tsv then fails with a clear message)."""
    return _read_languages() if LANGUAGES_TSV.is_file() else []


LANGUAGES = _language_rows()
CODES = [row["code"] for row in LANGUAGES]
SCRIPT_OF = {row["code"]: row["script"] for row in LANGUAGES}


def _lines(code: str) -> list[str]:
    """The file's lines split on "\\n" only (a missing final newline is reported by test_file_format)."""
    text = (PARALLEL_DIR / f"{code}.txt").read_text(encoding="utf-8")
    return text.removesuffix("\n").split("\n")


def _is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


def _char_name(ch: str) -> str:
    return unicodedata.name(ch, f"U+{ord(ch):04X}")


def _in_script(ch: str, script: str) -> bool:
    return _char_name(ch).startswith(SCRIPT_NAME_PREFIXES[script])


def _describe(chars: list[str]) -> str:
    """The distinct characters, each with its code point and Unicode name, for failure messages."""
    distinct = sorted(set(chars), key=chars.index)
    return ", ".join(f"{ch!r} U+{ord(ch):04X} {_char_name(ch)}" for ch in distinct)


def test_languages_tsv():
    assert LANGUAGES_TSV.is_file(), f"missing {LANGUAGES_TSV}"
    with open(LANGUAGES_TSV, encoding="utf-8", newline="") as f:
        header = next(csv.reader(f, delimiter="\t"))
    assert header == HEADER, f"languages.tsv: header is {header}, expected {HEADER}"
    rows = _read_languages()
    assert len(rows) == 16, f"languages.tsv: {len(rows)} languages, expected 16"
    assert rows[0]["code"] == "en", "languages.tsv: English (en) must be the first row"
    codes = [r["code"] for r in rows]
    assert len(set(codes)) == len(codes), f"languages.tsv: duplicate codes in {codes}"
    for lineno, row in enumerate(rows, start=2):
        assert all(row.get(k) for k in HEADER), f"languages.tsv line {lineno}: empty field in {row}"
        assert row["script"] in SCRIPT_NAME_PREFIXES, (
            f"languages.tsv line {lineno}: unknown script {row['script']!r}; known: {sorted(SCRIPT_NAME_PREFIXES)}"
        )
        assert row["spaces_between_words"] in ("yes", "no"), (
            f"languages.tsv line {lineno}: spaces_between_words must be yes or no, not {row['spaces_between_words']!r}"
        )


@pytest.mark.parametrize("code", CODES)
def test_every_language_has_a_file(code):
    path = PARALLEL_DIR / f"{code}.txt"
    assert path.is_file(), f"languages.tsv lists {code!r} but {path} does not exist"


def test_no_text_file_without_a_language():
    extra = sorted(p.name for p in PARALLEL_DIR.glob("*.txt") if p.stem not in CODES)
    assert not extra, f"data/parallel has text files not listed in languages.tsv: {extra}"


def test_same_number_of_lines():
    counts = {code: len(_lines(code)) for code in CODES}
    assert counts, "no languages"
    assert len(set(counts.values())) == 1, f"files differ in line count: {counts}"
    n = next(iter(counts.values()))
    assert n >= MIN_LINES, f"only {n} lines per file, expected at least {MIN_LINES}"


@pytest.mark.parametrize("code", CODES)
def test_file_format(code):
    path = PARALLEL_DIR / f"{code}.txt"
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf"), f"{path.name}: starts with a byte-order mark"
    text = raw.decode("utf-8")  # raises on invalid UTF-8
    assert "\r" not in text, f"{path.name}: has \\r (use Unix newlines)"
    assert text.endswith("\n"), f"{path.name}: no final newline"
    lines = text.removesuffix("\n").split("\n")
    assert text.splitlines() == lines, (
        f"{path.name}: str.splitlines() (what bpelab.load_parallel uses) sees other line breaks than \\n; "
        "remove characters such as U+2028, U+0085, \\x0b, \\x0c, \\x1c-\\x1e"
    )
    problems = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            problems.append(f"{path.name}:{lineno}: empty line")
            continue
        if line != line.strip():
            problems.append(f"{path.name}:{lineno}: leading or trailing whitespace: {line!r}")
        if not unicodedata.is_normalized("NFC", line):
            nfc = unicodedata.normalize("NFC", line)
            changed = [ch for ch in line if ch not in nfc]  # combining marks NFC folds in, excluded composites
            at = next((i for i, (a, b) in enumerate(zip(line, nfc)) if a != b), min(len(line), len(nfc)))
            problems.append(
                f"{path.name}:{lineno}: not NFC from column {at + 1} ({line[max(0, at - 3) : at + 3]!r}); "
                f"characters NFC replaces: {_describe(changed)}"
            )
        controls = [ch for ch in line if unicodedata.category(ch) == "Cc"]
        if controls:
            problems.append(f"{path.name}:{lineno}: control characters: {_describe(controls)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", CODES)
def test_letters_in_expected_script(code):
    script = SCRIPT_OF[code]
    problems = []
    for lineno, line in enumerate(_lines(code), start=1):
        letters = [ch for ch in line if _is_letter(ch)]
        inside = [ch for ch in letters if _in_script(ch, script)]
        outside = [ch for ch in letters if not _in_script(ch, script)]
        where = f"{code}.txt:{lineno}"
        if script != "Latin" and not inside:
            problems.append(f"{where}: no {script} letter at all; letters: {_describe(letters) or 'none'}")
        elif letters and len(inside) < MIN_SCRIPT_SHARE * len(letters):
            problems.append(
                f"{where}: only {len(inside)}/{len(letters)} letters are {script} "
                f"(need {MIN_SCRIPT_SHARE:.0%}); others: {_describe(outside)}"
            )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("code", [c for c in CODES if c != "en"])
def test_numbers_align_with_english(code):
    """Numbers written in digits are ASCII digits in every language, so each line has as many digit runs as the
    English line (numbers written as words are not compared)."""
    english = _lines("en")
    problems = []
    for lineno, (en_line, line) in enumerate(zip(english, _lines(code)), start=1):
        other_digits = [ch for ch in line if unicodedata.category(ch) == "Nd" and not ("0" <= ch <= "9")]
        if other_digits:
            problems.append(f"{code}.txt:{lineno}: non-ASCII digits: {_describe(other_digits)}")
        want, got = ASCII_DIGIT_RUN.findall(en_line), ASCII_DIGIT_RUN.findall(line)
        if len(want) != len(got):
            problems.append(
                f"{code}.txt:{lineno}: {len(got)} numbers {got} but en.txt:{lineno} has {len(want)} {want} "
                f"(lines shifted, merged or split?)"
            )
    assert not problems, "\n".join(problems)
