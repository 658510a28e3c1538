"""The teacher's guide (notebooks/TEACHING.md) quotes the lessons; these tests keep the quotes true.

Every ``code span`` with a digit in it, in a lesson's section of the guide, must appear verbatim in
that lesson's stored outputs or its cells: a figure the guide quotes is one the lesson prints. If a
lesson's outputs change, this fails and names the quote to update (or to replace by "see the lesson").
"""

from __future__ import annotations

import re

import nbformat
import pytest

from bpelab.paths import REPO_ROOT

GUIDE = REPO_ROOT / "notebooks" / "TEACHING.md"
NOTEBOOKS = REPO_ROOT / "notebooks"


def guide_text() -> str:
    if not GUIDE.exists():
        pytest.fail("notebooks/TEACHING.md is missing")
    return GUIDE.read_text(encoding="utf-8")


def lesson_sections() -> dict[str, str]:
    """Lesson number ("04") -> the text of its "## Lesson 04: ..." section (up to the next "## ")."""
    sections = re.split(r"^(?=## )", guide_text(), flags=re.MULTILINE)
    found = (re.match(r"## Lesson (\d\d)\b", section) for section in sections)
    return {match.group(1): section for match, section in zip(found, sections) if match}


def notebook_text(number: str) -> str:
    """Everything a lesson shows: its cells' sources and the text of its stored outputs."""
    (path,) = NOTEBOOKS.glob(f"{number}_*.ipynb")
    parts = []
    for cell in nbformat.read(path, as_version=4).cells:
        parts.append(cell.source)
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def test_every_lesson_has_a_section():
    lessons = sorted(p.name[:2] for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert sorted(lesson_sections()) == lessons


@pytest.mark.parametrize("number", sorted(lesson_sections()))
def test_every_quoted_figure_is_printed_by_its_lesson(number: str):
    shown = notebook_text(number)
    quotes = [q for q in re.findall(r"`([^`]+)`", lesson_sections()[number]) if re.search(r"\d", q)]
    missing = [q for q in quotes if q not in shown]
    assert not missing, f"the guide's section on lesson {number} quotes what the lesson does not print: {missing}"


def test_links_in_the_guide_point_at_files_that_exist():
    for target in re.findall(r"\]\(([^)#\s]+)", guide_text()):
        if not target.startswith("http"):
            assert (GUIDE.parent / target).exists(), f"TEACHING.md links to {target}, which does not exist"


def test_the_classroom_limits_the_guide_names_are_the_apps():
    from bpelab.widgets.classroom import MAX_CHARACTERS, MAX_MERGES

    text = guide_text()
    assert f"{MAX_CHARACTERS:,} characters" in text and f"{MAX_MERGES} merges" in text
