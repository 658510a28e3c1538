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


# ---- minute-by-minute plans (issue 30, item 7) -------------------------------------------------------------

MINUTE_PLAN = re.compile(r"^\*\*Minute by minute\*\* \(one session of (\d+)\b", re.MULTILINE)
"""A lesson's plan for one session: ``**Minute by minute** (one session of 50; ...):`` then a numbered list."""
TIMED_STEP = re.compile(r"\*\*(\d+)\s*[–-]\s*(\d+)\b")
"""A step of a minute-by-minute plan: ``3. **3–14, section 1:** ...`` (from minute 3 to minute 14)."""
PROJECT_PLAN = re.compile(r"^### Lesson (\d\d) as a class project \((\w+) sessions of (\d+) minutes\)", re.MULTILINE)
SESSION_STEP = re.compile(r"\*\*Session (\d+), (\d+) minutes\b")
"""A step of a project plan: ``2. **Session 1, 30 minutes:** ...``."""
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4}
LESSONS_WITH_MINUTE_PLANS = {"13", "14", "15"}


def numbered_list_after(text: str, start: int) -> list[str]:
    """The first line of each item (``1. ...``) of the first numbered list after ``start`` and before the next
    heading (none there: empty). Continuation lines are indented; the list ends at the first other unindented line."""
    lines = text[start:].splitlines()[1:]
    while lines and not re.match(r"\d+\. ", lines[0]):  # the plan's own words, before its steps
        if lines.pop(0).startswith("#"):
            return []
    items = []
    for line in lines:
        if re.match(r"\d+\. ", line):
            items.append(line)
        elif line.strip() and not line.startswith(" "):
            break
    return items


def minute_plans() -> dict[str, list[tuple[int, list[str]]]]:
    """Lesson number -> its minute-by-minute plans: (stated length, the list's items)."""
    return {
        number: [(int(m.group(1)), numbered_list_after(section, m.start())) for m in MINUTE_PLAN.finditer(section)]
        for number, section in lesson_sections().items()
        if MINUTE_PLAN.search(section)
    }


def in_class_minutes(number: str) -> int:
    """The length the guide gives the lesson: ``- **In class:** 50 minutes``."""
    match = re.search(r"^- \*\*In class:\*\* (\d+) minutes", lesson_sections()[number], flags=re.MULTILINE)
    assert match, f"the guide's section on lesson {number} states no length ('- **In class:** N minutes')"
    return int(match.group(1))


def timing_problems(length: int, items: list[str]) -> list[str]:
    """What is wrong with a minute-by-minute plan: a step without minutes, a gap or overlap between steps, a
    step that does not move forward, a start other than 0 or an end other than ``length``."""
    if not items:
        return ["the plan has no numbered steps"]
    problems, reached = [], 0
    for item in items:
        match = TIMED_STEP.search(item)
        if not match:
            problems.append(f"a step gives no minutes ('**a–b:**'): {item[:60]!r}")
            continue
        start, end = int(match.group(1)), int(match.group(2))
        if start != reached:
            problems.append(f"step {item[:12]!r} starts at minute {start}, the step before ended at {reached}")
        if end <= start:
            problems.append(f"step {item[:12]!r} ends at minute {end}, not after its start {start}")
        reached = end
    if reached != length:
        problems.append(f"the steps end at minute {reached}, the plan is for {length}")
    return problems


def test_lessons_13_to_15_have_a_minute_by_minute_plan():
    missing = sorted(LESSONS_WITH_MINUTE_PLANS - set(minute_plans()))
    assert not missing, f"TEACHING.md has no '**Minute by minute** (one session of N...)' plan for lessons {missing}"


@pytest.mark.parametrize("number", sorted(minute_plans()))
def test_a_minute_by_minute_plan_fills_its_session_exactly(number: str):
    """Every step follows the one before without a gap, from minute 0 to the session's stated length, which is the
    lesson's length in class."""
    for length, items in minute_plans()[number]:
        problems = timing_problems(length, items)
        assert not problems, f"lesson {number}'s minute-by-minute plan: {problems}"
        assert length == in_class_minutes(number), (
            f"lesson {number}'s plan is for a session of {length} minutes, the lesson's 'In class' says"
            f" {in_class_minutes(number)}"
        )


def test_a_project_plans_steps_add_up_to_each_session():
    """``### Lesson 13 as a class project (two sessions of 50 minutes)``: each session's steps sum to 50."""
    plans = list(PROJECT_PLAN.finditer(guide_text()))
    assert plans, "TEACHING.md has no class-project plan ('### Lesson NN as a class project (...)')"
    for plan in plans:
        sessions, length = NUMBER_WORDS[plan.group(2)], int(plan.group(3))
        minutes = dict.fromkeys(range(1, sessions + 1), 0)
        for item in numbered_list_after(guide_text(), plan.start()):
            step = SESSION_STEP.search(item)
            assert step, f"lesson {plan.group(1)}'s project plan: a step gives no session and minutes: {item[:60]!r}"
            session = int(step.group(1))
            assert session in minutes, f"lesson {plan.group(1)}'s project plan has a session {session} of {sessions}"
            minutes[session] += int(step.group(2))
        assert all(total == length for total in minutes.values()), (
            f"lesson {plan.group(1)}'s project plan: minutes per session {minutes}, each should add up to {length}"
        )
