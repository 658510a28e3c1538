"""Lessons 05-07, twentieth fresh read (fixBJ): decode_ids with a buffer flushed after four bytes; the explorer's
note quoting a whole chip for "one character as you see it"; TEACHING.md's count of lesson 05's tokenizations;
lesson 06's spell given a str or a bool; lesson 07's demo text printed whole however long.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Right answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess

import nbformat
import pytest

from bpelab import BPETokenizer
from bpelab.exercises import check_decode_ids
from bpelab.exercises.byte_level import DECODE_IDS
from bpelab.exercises.samples import PARAGRAPH
from bpelab.paths import REPO_ROOT
from bpelab.production import load_encoding
from bpelab.widgets.chips import make_chips
from bpelab.widgets.explorer import why_fewer_chips
from tests.shown_solutions import lesson_path, shown_solution

NODE = shutil.which("node")
STATIC = REPO_ROOT / "bpelab" / "widgets" / "static"


def hint_of(out: str) -> str:
    """The report, its lines joined (the report wraps long hints)."""
    return " ".join(out.split())


def _cell(lesson, cell_id):
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id)


# ---- finding 1: decode_ids reading one byte at a time, its buffer flushed once 4 bytes still fail ------------------


def flushed_after_four(vocab, ids):
    out, buf = "", b""
    for i in ids:
        for byte in vocab[i]:
            buf += bytes([byte])
            try:
                out += buf.decode("utf-8")
                buf = b""
            except UnicodeDecodeError:
                if len(buf) >= 4:
                    out += buf.decode("utf-8", "replace")
                    buf = b""
    return out + buf.decode("utf-8", "replace")


def test_the_cases_hold_a_cut_character_followed_by_a_multi_byte_one():
    byte_strings = [b"".join(case.args[0][i] for i in case.args[1]) for case in DECODE_IDS.build_cases()]
    assert b"\xe4\xb8\xe4\xb8\xad" in byte_strings
    assert b"\x80\x80\xe4\xb8\xad" in byte_strings
    for case in DECODE_IDS.build_cases():
        data = b"".join(case.args[0][i] for i in case.args[1])
        assert case.expected == data.decode("utf-8", "replace")


def test_a_buffer_flushed_after_four_bytes_is_refused_and_told_why(capsys):
    assert not check_decode_ids(flushed_after_four, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "4 bytes" in out and "next character" in out
    assert "decode the whole byte string once" in out


def test_the_shown_solution_and_the_incremental_decoder_still_pass():
    assert check_decode_ids(shown_solution("06", "36cc064b", "decode_ids"), record=False).passed

    def incremental(vocab, ids):
        import codecs

        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        return "".join(decoder.decode(vocab[i]) for i in ids) + decoder.decode(b"", final=True)

    assert check_decode_ids(incremental, record=False).passed


# ---- finding 2: the note quotes the one character the tokens split, not the whole chip ------------------------------

NOTE_CASES = [
    ("o200k café", None, "e\u0301"),
    ("o200k résumé", None, "e\u0301"),
    ("words café", "</w>", "e\u0301"),
    ("words zwj", "</w>", "👩\u200d👧"),
]


def _pieces(name):
    if name.startswith("o200k"):
        encoding = load_encoding("o200k_base")
        text = {"o200k café": "cafe\u0301", "o200k résumé": "re\u0301sume\u0301"}[name]
        return list(encoding.decode_tokens_bytes(encoding.encode_ordinary(text)))
    return {"words café": ["ca", "fe", "\u0301", "</w>"], "words zwj": ["hi👩", "\u200d", "👧", "</w>"]}[name]


@pytest.mark.parametrize("name, word_end, character", NOTE_CASES)
def test_the_note_quotes_the_character_the_tokens_split(name, word_end, character):
    note = why_fewer_chips(make_chips(_pieces(name), word_end=word_end))
    assert f"such as {character}, whose code points they keep apart" in note, note


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
def test_the_page_writes_the_same_note():
    cases = [
        {"pieces": [p if isinstance(p, str) else list(p) for p in _pieces(name)], "wordEnd": word_end}
        for name, word_end, _ in NOTE_CASES
    ]
    script = (
        f"import {{ makeChips }} from {json.dumps((STATIC / 'chips.js').as_uri())};\n"
        f"import {{ whyFewerChips }} from {json.dumps((STATIC / 'count_line.js').as_uri())};\n"
        f"const cases = {json.dumps(cases)};\n"
        "console.log(JSON.stringify(cases.map(({ pieces, wordEnd }) => "
        "whyFewerChips(makeChips(pieces, { wordEnd }), pieces, wordEnd))));\n"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    expected = [why_fewer_chips(make_chips(_pieces(name), word_end=word_end)) for name, word_end, _ in NOTE_CASES]
    assert json.loads(done.stdout) == expected


# ---- finding 3: TEACHING.md on lesson 05 section 3 -------------------------------------------------------------------


def test_teaching_notes_say_what_section_3_computes():
    text = " ".join((REPO_ROOT / "notebooks" / "TEACHING.md").read_text(encoding="utf-8").split())
    assert "three different tokenizations of every word" not in text
    assert "only `lower` gets three different tokenizations" in text


# ---- finding 4: lesson 06's spell refuses an id that is not an int ---------------------------------------------------


@pytest.fixture(scope="module")
def spell():
    namespace = {"tok": BPETokenizer().train(PARAGRAPH, 300)}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(_cell("06", "1d3c994b").source, namespace)
    return namespace["spell"]


@pytest.mark.parametrize("wrong, type_name", [("300", "str"), (True, "bool"), (3.0, "float")])
def test_spell_refuses_an_id_that_is_not_an_int(spell, wrong, type_name):
    with pytest.raises(TypeError) as error:
        spell(wrong)
    message = str(error.value)
    assert type_name in message and "int" in message and "spell(300)" in message
    assert "no token" not in message


def test_spell_still_spells_and_names_an_id_out_of_range(spell):
    assert spell(104) == "'h'"
    with pytest.raises(ValueError, match="has no token 9999"):
        spell(9999)


# ---- finding 5: lesson 07's demo text shown shortened when long ------------------------------------------------------


def _run_demo_cell(demo: str | None) -> str:
    from bpelab.patterns import ALTERNATIVES, explain_split

    source = _cell("07", "c0369275").source
    if demo is not None:
        first, rest = source.split("\n", 1)
        assert first.startswith("demo = ")
        source = f"demo = {demo!r}\n{rest}"
    namespace = {"ALTERNATIVES": ALTERNATIVES, "explain_split": explain_split, "pd": __import__("pandas")}
    namespace["spaces_shown"] = lambda frame, columns: frame
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(source, namespace)
    return printed.getvalue()


def test_a_long_demo_text_is_shown_shortened():
    out = _run_demo_cell("it's 2024, not 1999! " * 2500)
    assert len(out) < 1000
    assert "52,500 characters" in out and "\"it's 2024" in out


def test_the_lessons_demo_text_is_shown_whole():
    demo = _cell("07", "c0369275").source.split("\n", 1)[0].removeprefix("demo = ")
    assert _run_demo_cell(None).strip() == demo
