"""Issue 21 item 5: no static page (``make html``) says a widget needs ``make lab`` or a kernel where it
works without one.

On a page with no kernel the merge steppers step and train typed text, and the encode explorer encodes
typed text with GPT-2, GPT-4, GPT-4o and Llama 3; running the code and widgets saved without state need
Python. The whole site is written from the committed lessons and every sentence of every page's text is
read: one that makes a widget, a stepper, the explorer or "your own text" depend on ``make lab``, a
kernel or Python is a false claim, unless what it names is one of the things that truly need Python.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

from bpelab.course.html_export import NOTEBOOKS_DIR, lesson_paths, write_site
from bpelab.course.site_notes import page_abilities, page_note

REQUIREMENT = re.compile(r"\b(?:needs?|open|opens)\b", re.IGNORECASE)
PYTHON_SIDE = re.compile(r"make lab|kernel|\bPython\b", re.IGNORECASE)
WIDGET_WORDS = re.compile(r"widget|stepper|explorer|own text|\btrain", re.IGNORECASE)
TRULY_NEED_PYTHON = re.compile(r"Llama 3 in the explorer|the (?:\d+ )?widgets? shown as text", re.IGNORECASE)


def page_sentences(page: Path) -> list[str]:
    """The page's visible text (no scripts, styles or saved widget state), cut into sentences."""
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return re.split(r"(?<=[.!?:;])\s+", re.sub(r"\s+", " ", text))


def false_claims(sentences: list[str]) -> list[str]:
    """Sentences that make a widget, the explorer, a stepper or training typed text need Python."""
    found = []
    for sentence in sentences:
        rest = TRULY_NEED_PYTHON.sub("", sentence)
        if REQUIREMENT.search(rest) and PYTHON_SIDE.search(rest) and WIDGET_WORDS.search(rest):
            found.append(sentence)
    return found


def test_the_scan_finds_the_claims_the_pages_made_before() -> None:
    """The two sentences issue 21 found (every page's bar, and the index) are caught; true ones are not."""
    old = [
        "A copy to read, with the outputs as stored; to run the code and use the widgets, open the course with make lab.",
        "The merge steppers step here too; to run the code and try your own text, get the course and open it with make lab.",
    ]
    assert false_claims(old) == old
    assert not false_claims(
        [
            "Running the code and Llama 3 in the explorer need Python: open the course with make lab.",
            "Running the code and the widget shown as text need Python: open the course with make lab.",
            "make lab sets JupyterLab to save the widgets' state with the notebook.",
        ]
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(out, log=lambda *_: None)
    return out


def test_no_page_says_a_widget_needs_make_lab_where_it_works_without_one(site: Path) -> None:
    pages = sorted(site.glob("*.html"))
    assert len(pages) >= len(lesson_paths()) + 2  # every lesson, the index, the guide and the README
    wrong = {page.name: claims for page in pages if (claims := false_claims(page_sentences(page)))}
    assert not wrong, f"pages that say a widget needs Python where it works without: {wrong}"


def test_each_lessons_note_names_what_works_in_its_page(site: Path) -> None:
    """The note under the bar, computed from each lesson's saved widgets, is on its page."""
    for lesson in lesson_paths():
        nb = nbformat.read(lesson, as_version=4)
        note = html.unescape(re.sub(r"<[^>]+>", "", page_note(nb)))
        page = html.unescape(re.sub(r"<[^>]+>", "", (site / f"{lesson.stem}.html").read_text(encoding="utf-8")))
        assert note in re.sub(r"\s+", " ", page), lesson.name


def test_the_notes_say_what_each_kind_of_widget_does_without_a_kernel() -> None:
    """Known answers from the lessons' own widgets: lesson 04's three word-level steppers step and train;
    lesson 07's byte-level replay and lesson 11's WordPiece stepper step but do not train (stepper.js offers
    its form only for word-level runs scored by count), and lesson 07's explorer and side-by-side view encode in the
    page; lesson 05's explorer encodes with GPT-2/4/4o,
    Llama 3 and Mistral 7B in the page; a lesson with no widget only needs Python to run its code."""
    notes = {path.name[:2]: page_abilities(nbformat.read(path, as_version=4)) for path in lesson_paths()}
    here, python = notes["04"]
    assert here == [
        "the 3 merge steppers step through every merge, and each trains a text you type (click a stepper, then ← and → step it)"
    ]
    assert python == ["running the code"]
    stepper = "the merge stepper steps through every merge (click a stepper, then ← and → step it)"
    assert notes["11"][0] == [stepper]
    assert notes["07"][0] == [  # its replay stepper, the explorer of section 10 and the side-by-side view
        stepper,
        "the encode explorer encodes text you type with GPT-4o and GPT-2",
        "the side-by-side view lines up GPT-2, GPT-4, GPT-4o, Llama 3 and Mistral 7B on text you type",
    ]
    here, python = notes["05"]
    assert "GPT-2, GPT-4, GPT-4o, Llama 3 and Mistral 7B" in here[0]
    assert python == ["running the code"]
    assert (
        "the side-by-side view lines up your word-level BPE, GPT-2, GPT-4, GPT-4o, Llama 3 and Mistral 7B on text you type"
        in here
    )
    here, python = notes["09"]  # a side-by-side view of the five production tokenizers, no explorer
    assert here == ["the side-by-side view lines up GPT-2, GPT-4, GPT-4o, Llama 3 and Mistral 7B on text you type"]
    assert python == ["running the code"]
    assert notes["01"] == ([], ["running the code"])
    here, python = notes["10"]  # its explorer, then its chat view: harmony and ChatML at least, from js-tiktoken
    (chat,) = [phrase for phrase in here if phrase.startswith("the chat view renders turns you type as")]
    assert "harmony (gpt-oss)" in chat and "ChatML" in chat
    assert ("Llama 3" in chat) != ("new turns as Llama 3 tokens in the chat view" in python)
    assert (NOTEBOOKS_DIR / "01_text_is_numbers.ipynb").exists()


LLAMA3_NEEDS_PYTHON = re.compile(r"Llama 3\b[^.]*\b(?:needs?|except)\b[^.]*\b(?:notebook|Python|kernel|make lab)\b")


def test_no_page_says_llama3_needs_the_notebook_now_that_the_page_encodes_it(site: Path) -> None:
    """Llama 3 encodes in the page (issue 23): a sentence saying it needs the running notebook is stale."""
    assert LLAMA3_NEEDS_PYTHON.search("Llama 3 needs the running notebook for new text.")
    assert LLAMA3_NEEDS_PYTHON.search(
        "it encodes what you type, except with Llama 3, which needs the running notebook."
    )
    assert not LLAMA3_NEEDS_PYTHON.search("Llama 3 encodes in the page. Running the code needs Python.")
    stale = {
        page.name: hits
        for page in sorted(site.glob("*.html"))
        if (hits := [s for s in page_sentences(page) if LLAMA3_NEEDS_PYTHON.search(s)])
    }
    assert not stale, f"pages that say Llama 3 needs Python: {stale}"
