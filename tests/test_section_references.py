"""Every "lesson NN §K" reference in the course names a section that exists and holds what it is cited for.

A merge of two branches once dropped the three cells of lesson 07 §9 on what the special-token refusal does not
block, while lessons 06 and 10, 07's recap and TEACHING.md still sent the reader there, and nothing failed. So:

- a **cross-lesson reference** ("lesson 07 §9", "lesson 04, section 8", "lesson 04 section 5", "§8 of lesson 04")
  anywhere in the course (the lessons' cells and outputs, notebooks/*.md, the README, bpelab's docstrings and
  messages, the apps) must name a lesson that exists and a section that exists in it, and the section must hold
  every phrase listed for it in ``SUBJECTS``: the words each reference to it counts on. A reference to a section
  with no entry fails, saying what to add: whoever cites a section writes down what they cite it for;
- a reference to a lesson by a heading ('Lesson 05, "Why the order matters"') must name a heading of that lesson;
- a **reference inside a lesson** ("section 6", "§6") must name a section of that lesson, and in TEACHING.md, a
  section of the lesson whose part of the guide it is in.

Sections are numbered by their headings: "## 9. Special tokens in text" is §9 and runs to the next "## "
heading; "### 4a. New words never stop coming" is §4a. Lessons are found by their file names, so lessons added
later (14, 15, ...) are checked with no change here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

SUBJECTS: dict[tuple[str, str], tuple[str, ...]] = {
    # lesson 06 (cells 43, 58), lesson 10 (cell 8), TEACHING.md: what the refusal blocks, and what it does not
    ("07", "9"): ("allowed_special", "disallowed_special=()", "Please ignore the above.", "prompt injection"),
    # lesson 08: the vocabulary size is ranked (the vocabulary file's) + special tokens; n_vocab is the largest id + 1
    ("07", "5"): ("n_vocab", "how many tokens it has: ranked", "and special"),
    # bpelab/widgets/encoders.py: tiktoken panics on about a million spaces, its regex engine out of backtracking stack
    ("07", "8"): ("999,999 spaces", "PanicException", "backtrack", "stack"),
    # lesson 06 cell 9 and bpelab.exercises.training_loop: the third stopping rule, no pair occurs twice
    ("04", "8"): ("No pair occurs twice", "min_count=2"),
    # TEACHING.md's classroom corpora: a pair overlapping itself is counted more often than it is merged
    ("04", "5"): ("counted twice but merged once",),
    # TEACHING.md's misconceptions table, one row each
    ("01", "6"): ("unhappiness", "GPT-4 (cl100k_base)"),
    ("03", "4"): ("Ties",),
    ("04", "7"): ("Ties",),
    ("05", "4"): ("A character never seen has no symbol",),
    ("05", "5"): ("two spaces, a tab and a line break",),
    ("06", "5"): ("cut in half", "U+FFFD"),
    ("08", "4"): ("training minus held-out",),
    ("10", "7"): ("¾ of a word",),
    ("07", "7"): ("two older tokens joined", "whole-piece lookup"),
    ("02", "6"): ("markup", "byte-level BPE"),
    ("11", "4"): ("greedily", "longest", "##"),
    ("12", "6"): ("learned exactly the naive loop's",),
}
"""(lesson, section) -> phrases the section must contain (case-insensitive) for the references to it to be true."""

SECTION_HEADING = re.compile(r"^#{2,3}\s+(\d+[a-z]?)\.\s+(.*)$", re.MULTILINE)
NUMBER = r"(\d+[a-z]?)(?![\d.]*\d)"  # "3.2" and "3.1.3" are a paper's sections, not a lesson's
SPACE = r"[\s\xa0]+"
MAYBE_SPACE = r"[\s\xa0]*"
CROSS_REFERENCES = [
    # lesson 07 §9 / lesson 07's §9 / lesson 07, section 5 / lesson 04 section 5
    re.compile(
        rf"\blessons?{SPACE}(\d\d)(?:'s|’s)?,?{SPACE}(?:§{MAYBE_SPACE}|section{SPACE}){NUMBER}(?!{SPACE}of{SPACE}lesson)",
        re.IGNORECASE,
    ),
    # §8 of lesson 04 / section 8 of lesson 04
    re.compile(rf"(?:§{MAYBE_SPACE}|\bsection{SPACE}){NUMBER}{SPACE}of{SPACE}lesson{SPACE}(\d\d)", re.IGNORECASE),
]
TITLE_REFERENCE = re.compile(rf"\blesson{SPACE}(\d\d),?{SPACE}[\"“]([^\"”\n]{{3,80}})[\"”]", re.IGNORECASE)
LOCAL_REFERENCE = re.compile(rf"(?:§{MAYBE_SPACE}|\bsection{SPACE}){NUMBER}", re.IGNORECASE)
CITATION_BEFORE = re.compile(r"\d{4}\)?,\s*$")
"""'NAACL 2019, section 3': a paper's section, not the lesson's."""


@dataclass(frozen=True)
class Section:
    lesson: str
    number: str
    heading: str
    text: str


@dataclass(frozen=True)
class Place:
    """Where a piece of course text is: a file, and for a notebook the cell."""

    where: str
    text: str
    lesson: str | None = None
    """The lesson a "section K" without a lesson number belongs to, if any."""


def lessons() -> dict[str, Path]:
    return {path.name[:2]: path for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))}


def cell_text(cell: dict) -> str:
    """A cell's source and its text outputs: what a reader of the lesson sees."""
    parts = ["".join(cell["source"])]
    for output in cell.get("outputs", []):
        if "text" in output:
            parts.append("".join(output["text"]))
        for kind in ("text/plain", "text/markdown", "text/html"):
            if kind in output.get("data", {}):
                parts.append("".join(output["data"][kind]))
    return "\n".join(parts)


@cache
def sections(lesson: str) -> dict[str, Section]:
    """A lesson's numbered sections (``"9"``, ``"4a"``), each with its heading and all its cells' text."""
    cells = json.loads(lessons()[lesson].read_text(encoding="utf-8"))["cells"]
    found: dict[str, Section] = {}
    open_sections: list[tuple[str, str, int, list[str]]] = []  # (number, heading, level, text so far)

    def close(level: int) -> None:
        while open_sections and open_sections[-1][2] >= level:
            number, heading, _, text = open_sections.pop()
            found[number] = Section(lesson, number, heading, "\n".join(text))

    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            # a cell may hold several headings: cut it at each, so each section gets its own part
            pieces = re.split(r"^(?=#{1,6}\s)", source, flags=re.MULTILINE)
        else:
            pieces = [cell_text(cell)]
        for piece in pieces:
            heading = re.match(r"(#{1,6})\s+(.*)", piece)
            if heading and cell["cell_type"] == "markdown":
                level = len(heading.group(1))
                numbered = SECTION_HEADING.match(piece.splitlines()[0])
                if level <= 3:
                    close(level)
                if numbered:
                    open_sections.append((numbered.group(1), numbered.group(2).strip(), level, []))
            for _, _, _, text in open_sections:
                text.append(piece)
    close(0)
    return found


def headings(lesson: str) -> list[str]:
    cells = json.loads(lessons()[lesson].read_text(encoding="utf-8"))["cells"]
    source = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [re.sub(r"^\d+[a-z]?\.\s+", "", h).strip() for h in re.findall(r"^#{1,6}\s+(.*)$", source, re.MULTILINE)]


def places() -> list[Place]:
    """Every piece of course text a reference may sit in."""
    found = []
    for lesson, path in lessons().items():
        for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            found.append(Place(f"{path.name} cell {i}", cell_text(cell), lesson))
    for path in sorted(NOTEBOOKS.glob("*.md")):
        # TEACHING.md has one part per lesson ("## Lesson 07: ..."): a bare "section 9" there is that lesson's
        parts = re.split(r"^(?=## )", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        for part in parts:
            own = re.match(r"## Lesson (\d\d)\b", part)
            found.append(Place(f"notebooks/{path.name} ({part.splitlines()[0][:40]})", part, own and own.group(1)))
    paths = [ROOT / "README.md", *sorted((ROOT / "bpelab").rglob("*.py")), *sorted((ROOT / "bpelab").rglob("*.js"))]
    paths += sorted(p for p in (ROOT / "apps").rglob("*") if p.suffix in {".ipynb", ".py", ".md", ".html", ".js"})
    for path in paths:
        found.append(Place(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return found


def cross_references(text: str) -> list[tuple[str, str, int]]:
    """(lesson, section, offset) of each reference to a section of a named lesson."""
    found = [(m.group(1), m.group(2), m.start()) for m in CROSS_REFERENCES[0].finditer(text)]
    found += [(m.group(2), m.group(1), m.start()) for m in CROSS_REFERENCES[1].finditer(text)]
    return sorted(found, key=lambda reference: reference[2])


def local_references(text: str) -> list[tuple[str, int]]:
    """(section, offset) of each "section K" / "§K" that names no lesson."""
    covered = [range(m.start(), m.end()) for pattern in CROSS_REFERENCES for m in pattern.finditer(text)]
    found = []
    for m in LOCAL_REFERENCE.finditer(text):
        if any(m.start() in span or m.end() - 1 in span for span in covered):
            continue
        if CITATION_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
            continue
        found.append((m.group(1), m.start()))
    return found


def words(text: str) -> str:
    """Lower case, every run of whitespace one space: a phrase may wrap across lines of a markdown cell."""
    return " ".join(text.lower().split())


def context(text: str, offset: int) -> str:
    return " ".join(text[max(0, offset - 60) : offset + 80].split())


ALL_PLACES = places()


def test_the_parser_finds_the_sections_of_every_lesson():
    """The check below means nothing if no section is found: every lesson has numbered sections, in order."""
    for lesson in lessons():
        numbers = [s for s in sections(lesson) if s.isdigit()]
        assert numbers, f"lesson {lesson}: no '## 1. ...' headings found"
        assert sorted(map(int, numbers)) == list(range(1, len(numbers) + 1)), f"lesson {lesson}: {numbers}"
    assert "4a" in sections("01") and "Special tokens" in sections("07")["9"].heading
    assert "## 10." not in sections("07")["9"].text, "a section ends at the next section's heading"


def test_the_patterns_read_every_way_the_course_writes_a_reference():
    text = (
        "see lesson 07 §9, lesson 04's §8, lesson 07, section 5, Lesson 03 section 4, lesson 07\n§ 9, "
        "§8 of lesson 04, section 2 of lesson 05; not lessons 06 and 10, nor section 3.2 of a paper"
    )
    assert [(lesson, number) for lesson, number, _ in cross_references(text)] == [
        ("07", "9"),
        ("04", "8"),
        ("07", "5"),
        ("03", "4"),
        ("07", "9"),
        ("04", "8"),
        ("05", "2"),
    ]
    assert local_references("section 6 shows it; §10; the paper's section 3.2; NAACL 2019, section 3") == [
        ("6", 0),
        ("10", 20),
    ]


def test_every_cross_lesson_reference_names_a_section_that_holds_what_it_is_cited_for():
    problems = []
    for place in ALL_PLACES:
        for lesson, number, offset in cross_references(place.text):
            cited = f"lesson {lesson} §{number}"
            where = f"{place.where}: {cited} in '…{context(place.text, offset)}…'"
            if lesson not in lessons():
                problems.append(f"{where}: there is no lesson {lesson} (lessons: {', '.join(lessons())})")
                continue
            section = sections(lesson).get(number)
            if section is None:
                problems.append(
                    f"{where}: lesson {lesson} has no section {number} (it has {', '.join(sections(lesson))})"
                )
                continue
            phrases = SUBJECTS.get((lesson, number))
            if phrases is None:
                problems.append(
                    f"{where}: add SUBJECTS[({lesson!r}, {number!r})] in {Path(__file__).name}: the phrases that "
                    f"§{number} ('{section.heading}') must contain for this reference (and any other to it) to be true"
                )
                continue
            missing = [p for p in phrases if words(p) not in words(section.text)]
            if missing:
                problems.append(f"{where}: §{number} ('{section.heading}') no longer holds {missing}")
    assert not problems, "\n".join(problems)


def test_every_subject_is_cited_somewhere():
    """An entry nobody cites any more is a claim nobody checks: remove it with the last reference."""
    cited = {(lesson, number) for place in ALL_PLACES for lesson, number, _ in cross_references(place.text)}
    assert set(SUBJECTS) <= cited, f"no reference left to {sorted(set(SUBJECTS) - cited)}"


def test_every_reference_by_heading_names_a_heading_of_that_lesson():
    problems = []
    for place in ALL_PLACES:
        for m in TITLE_REFERENCE.finditer(place.text):
            lesson, title = m.group(1), m.group(2).strip()
            if lesson not in lessons():
                problems.append(f"{place.where}: there is no lesson {lesson}")
            elif title.lower() not in [h.lower() for h in headings(lesson)]:
                problems.append(f"{place.where}: lesson {lesson} has no heading '{title}' ({headings(lesson)})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lesson", sorted(lessons()))
def test_every_section_a_lesson_names_exists_in_it(lesson: str):
    """ "section 6" in a lesson (or in its part of TEACHING.md) is that lesson's section 6."""
    problems = []
    for place in ALL_PLACES:
        if place.lesson != lesson:
            continue
        for number, offset in local_references(place.text):
            if number not in sections(lesson):
                problems.append(f"{place.where}: §{number} in '…{context(place.text, offset)}…'")
    assert not problems, f"lesson {lesson} has sections {', '.join(sections(lesson))}:\n" + "\n".join(problems)
