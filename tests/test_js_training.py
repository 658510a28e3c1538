"""The browser's word-level training (``bpelab/widgets/static/bpe.js``) is held to ``train_bpe``.

A page without Python trains a learner's text in JavaScript; these tests generate 600 texts
(Latin, Cyrillic, Greek, CJK, Devanagari, Arabic, Thai, Hangul, combining marks, emoji with skin
tones, ZWJ sequences and flags, digits of several scripts, punctuation, and every kind of
whitespace Python's ``str.split`` cuts at, plus characters it does NOT cut at such as U+FEFF and
U+200B), train each with both tie rules in Python and in Node, and compare: the words, lesson 02's
pre-tokenization ``split_text(text, r"\\w+|[^\\w\\s]+")`` (regex's Unicode ``\\w`` against the JavaScript
classes written to match it), every merge and its count (on the text as typed, and on it cut with
that split, as lesson 04 trains its real text), where training stops (with the forms' "stop when no
pair occurs twice" too: ``minCount: 2`` against ``train_bpe``'s run cut by ``form_training``), the
punctuation-only test behind "pieces (words and punctuation)", and the whole trace the stepper draws.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess

import pytest
import regex

from bpelab import split_text, train_bpe
from bpelab.paths import REPO_ROOT
from bpelab.widgets.form_training import train_for_form
from bpelab.widgets.trace import training_trace
from bpelab.words import TrainingResult, learn_merges

NODE = shutil.which("node")
RUNNER = REPO_ROOT / "tests" / "js" / "train_with_bpe_js.mjs"
PUNCTUATION_ONLY = regex.compile(r"^[^\w\s]+$")
LESSON_02_SPLIT = r"\w+|[^\w\s]+"

PIECES = [
    *"abcdeélnorstuw",
    "ñ",
    *"абвгдеж",
    *"αβγδ",
    *"中文字本",
    "न",
    "म",
    "स्",
    "ते",
    "ि",
    *"مرحبا",
    "ส",
    "วั",
    "ดี",
    *"한국어",
    "e\u0301",
    "a\u0308",
    "\u0301",
    "👍",
    "👍🏽",
    "👩\u200d💻",
    "👨\u200d👩\u200d👧",
    "🇫🇷",
    "\u200d",
    "\u200c",
    *"0123",
    "٣",
    "५",
    *".,!?;:",
    "—",
    "…",
    "«",
    "»",
    "¿",
    "$",
    "€",
    "+",
    "_",
    "'",
    "\ufeff",
    "\u200b",
    "\u180e",
    "𝔘",
    "Ⅻ",
]
SPACES = [" ", " ", " ", "  ", "\t", "\n", "\u3000", "\xa0", "\x1c", "\x1f", "\x85", "\u2028", "\u2009", "\r\n"]


def generated_texts(count: int, seed: int = 14) -> list[str]:
    """Texts of a few repeated words, so that pairs repeat and ties happen."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        vocabulary = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(1, 9))]
        words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 30))]
        text = rng.choice(["", " ", "\n"]) + "".join(w + rng.choice(SPACES) for w in words)
        texts.append(text.rstrip(" ") if rng.random() < 0.5 else text)
    return texts


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    rng = random.Random(2026)
    out = []
    for text in generated_texts(600):
        merges = rng.choice([0, 1, 3, 10, 30, 200])  # 200: most texts stop early, no pair left
        split = rng.random() < 0.3  # some as lesson 04 trains its real text: punctuation cut off first
        single = rng.random() < 0.4  # some with the forms' stop rule: no merge of a pair seen once
        out += [
            {"text": text, "merges": merges, "tieBreak": rule, "splitPunctuation": split, "stopAtSingle": single}
            for rule in ("first", "lexicographic")
        ]
    return out


@pytest.fixture(scope="module")
def answers(cases: list[dict]) -> list[dict]:
    if NODE is None:
        pytest.fail("node is needed for the JavaScript tests (Node 20: apt-get install nodejs)")
    run = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps(cases), capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    found: list[dict] = json.loads(run.stdout)
    assert len(found) == len(cases)
    return found


def test_the_texts_cover_the_hard_cases(cases: list[dict]) -> None:
    texts = {case["text"] for case in cases}
    assert len(texts) >= 500
    for needle in ("\u200d", "\u0301", "🏽", "🇫🇷", "\x85", "\u3000", "\ufeff", "中", "न"):
        assert any(needle in text for text in texts), needle
    assert sum(1 for c in cases if c["tieBreak"] == "lexicographic") >= 500
    assert sum(1 for c in cases if c["splitPunctuation"]) >= 100
    assert sum(1 for c in cases if c["stopAtSingle"]) >= 300


def python_run(case: dict) -> TrainingResult:
    """What Python trains for the case: train_bpe, on the text as typed or cut, stopped at single pairs if asked."""
    return train_for_form(
        case["text"],
        case["merges"],
        tie_break=case["tieBreak"],
        split_punctuation=case["splitPunctuation"],
        stop_at_single=case["stopAtSingle"],
    )


def test_the_stop_rule_is_learn_merges_with_min_count_2(cases: list[dict]) -> None:
    """Python's cut of a train_bpe run is the training loop's own stop rule, ``min_count=2``."""
    from bpelab.words import get_word_frequencies

    stopped = 0
    for case in cases:
        if not case["stopAtSingle"]:
            continue
        cut = python_run(case)
        text = python_text(case)
        loop = list(
            learn_merges(
                get_word_frequencies(text),
                case["merges"],
                new_symbol=lambda p: p[0] + p[1],
                tie_break=case["tieBreak"],
                min_count=2,
            )
        )
        assert [(s.pair, s.count) for s in cut.steps] == [(s.pair, s.count) for s in loop], case
        full = train_bpe(text, case["merges"], tie_break=case["tieBreak"])
        stopped += len(cut.steps) < len(full.steps)
    assert stopped >= 100, f"only {stopped} runs were cut by the stop rule: the cases do not test it"


def test_javascript_splits_words_exactly_as_python(cases: list[dict], answers: list[dict]) -> None:
    wrong = [(c["text"], a["words"]) for c, a in zip(cases, answers) if a["words"] != c["text"].split()]
    assert not wrong, f"{len(wrong)} texts split differently, e.g. {wrong[:2]!r}"


def test_javascript_cuts_text_as_lesson_02s_split_text(cases: list[dict], answers: list[dict]) -> None:
    wrong = [
        (c["text"], a["pieces"])
        for c, a in zip(cases, answers)
        if a["pieces"] != split_text(c["text"], LESSON_02_SPLIT)
    ]
    assert not wrong, f"{len(wrong)} texts cut differently, e.g. {wrong[:2]!r}"


def python_text(case: dict) -> str:
    """The text train_bpe gets: as typed, or cut as lesson 04 cuts its real text."""
    return " ".join(split_text(case["text"], LESSON_02_SPLIT)) if case["splitPunctuation"] else case["text"]


def test_javascript_knows_punctuation_as_regexs_unicode_word_class_does(cases: list[dict], answers: list[dict]) -> None:
    wrong = []
    for case, answer in zip(cases, answers):
        for word, js in zip(case["text"].split(), answer["punctuationOnly"]):
            if js != bool(PUNCTUATION_ONLY.match(word)):
                wrong.append((word, js))
    assert not wrong, f"{len(wrong)} words judged differently, e.g. {wrong[:3]!r}"


def test_javascript_training_makes_every_merge_of_train_bpe_with_its_count(
    cases: list[dict], answers: list[dict]
) -> None:
    wrong = []
    for case, answer in zip(cases, answers):
        result = python_run(case)
        expected = [[*step.pair, step.count] for step in result.steps]
        if answer["merges"] != expected or answer["stoppedEarly"] != result.stopped_early:
            wrong.append((case, answer["merges"][:3], expected[:3]))
    assert not wrong, f"{len(wrong)} of {len(cases)} runs differ, e.g. {wrong[:1]!r}"


def test_the_trace_built_in_the_browser_equals_the_one_python_sends(cases: list[dict], answers: list[dict]) -> None:
    """What the page draws after training typed text is what the notebook draws for the same text."""
    wrong = []
    for case, answer in zip(cases, answers):
        result = python_run(case)
        expected = training_trace(result, top_words=40, top_pairs=10)
        if answer["trace"] != expected:
            keys = [key for key in expected if expected[key] != answer["trace"].get(key)]
            wrong.append((case, keys))
    assert not wrong, f"{len(wrong)} traces differ, e.g. {wrong[:2]!r}"


def long_text(characters: int = 50_000, seed: int = 21) -> str:
    """The page's own limit: 50,000 characters of 3,000 generated words in every script above, drawn
    with Zipf-like frequencies (a few words often, most rarely) as in real text, so that 500 merges
    meet long runs of ties on small counts."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 9))) for _ in range(3000)]
    weights = [1 / rank for rank in range(1, len(vocabulary) + 1)]
    out: list[str] = []
    size = 0
    while size < characters:
        word = rng.choices(vocabulary, weights)[0] + rng.choice(SPACES)
        out.append(word)
        size += len(word)
    return "".join(out)[:characters]


@pytest.mark.parametrize("tie_break", ["first", "lexicographic"])
def test_at_the_pages_limit_javascript_training_is_train_bpe_merge_for_merge(tie_break: str) -> None:
    """50,000 characters and 500 merges, as the page allows: every merge, count and the whole trace."""
    if NODE is None:
        pytest.fail("node is needed for the JavaScript tests (Node 20: apt-get install nodejs)")
    text = long_text()
    assert len(text) == 50_000 and len(set(text.split())) > 1000
    case = {"text": text, "merges": 500, "tieBreak": tie_break, "splitPunctuation": False}
    run = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps([case]), capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    [answer] = json.loads(run.stdout)
    result = train_bpe(text, 500, tie_break=tie_break)
    expected = [[*step.pair, step.count] for step in result.steps]
    assert len(expected) == 500
    first_wrong = next((i for i, (a, b) in enumerate(zip(answer["merges"], expected)) if a != b), None)
    assert answer["merges"] == expected, f"merge {first_wrong} differs: {answer['merges'][first_wrong or 0]}"
    trace = training_trace(result, top_words=40, top_pairs=10)
    # per step the page keeps the merge, ten pair rows and a total, never a copy of the corpus (the run
    # held 515 MB when every step kept one): the whole run written out is smaller than the text's words
    # written out once per step would be
    assert answer["resultSize"] < 2_000_000, answer["resultSize"]
    assert answer["trace"] == trace, [key for key in trace if trace[key] != answer["trace"].get(key)]
