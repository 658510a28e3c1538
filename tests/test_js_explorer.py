"""The static explorer's own encoding (``bpelab/widgets/static/explorer.js``) is held to Python's.

Without a kernel the page encodes typed text with the lesson's word-level tokenizers itself: it
cuts words as ``split_text`` (or ``str.split``) does, with the split ``js_pattern`` wrote for
JavaScript, spells each word and replays the merges as ``encode_word`` does. Over 600 generated
texts (many scripts, combining marks, emoji with skin tones and ZWJ sequences, every whitespace),
the JavaScript split, ids and pieces must equal Python's ``encoder_for``, and the count line must
say what Python's numbers and ``why_fewer_chips`` say.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from bpelab import BPETokenizer, train_bpe
from bpelab.paths import REPO_ROOT
from bpelab.patterns import split_text
from bpelab.production import load_encoding
from bpelab.widgets import EncodeExplorer
from bpelab.widgets.chips import make_chips
from bpelab.widgets.explorer import encoder_for, why_fewer_chips
from bpelab.widgets.fallback import counted, counted_unit
from bpelab.widgets.js_regex import js_pattern
from tests.test_js_training import generated_texts

NODE = shutil.which("node")
RUNNER = REPO_ROOT / "tests" / "js" / "encode_with_explorer_js.mjs"
WORDS = r"\w+|[^\w\s]+"  # lesson 05's split
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

TRAINING = " ".join(generated_texts(200, seed=5))
BYTE_TEXTS = ["plain words only", "low 👩\u200d👩\u200d👧 👍🏽 lower", "東京 naïve 🙂", "e\u0301 and \u200d alone"]


@pytest.fixture(scope="module")
def run() -> dict[str, Any]:
    result = train_bpe(TRAINING, 300)
    explorers = [
        EncodeExplorer({"words": result}, production=()),
        EncodeExplorer({"words": result}, production=(), word_split=WORDS),
    ]
    texts = generated_texts(600, seed=41)
    encoding = load_encoding("cl100k_base")
    byte_cases = []
    for text in BYTE_TEXTS:
        ids = encoding.encode_ordinary(text)
        byte_cases.append({"text": text, "pieces": [list(p) for p in encoding.decode_tokens_bytes(ids)]})
    payload = {"tokenizers": [e.tokenizers[0] for e in explorers], "texts": texts, "byteCases": byte_cases}
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(RUNNER)], input=json.dumps(payload), capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {"result": result, "texts": texts, "byte_cases": byte_cases, "answers": json.loads(done.stdout)}


def test_lessons_word_split_is_written_for_javascript_and_possessive_ones_are_refused() -> None:
    assert js_pattern(WORDS) is not None
    assert js_pattern(r"\p{L}++") is None and js_pattern(r"(?>a)") is None and js_pattern(r"\bword") is None


@pytest.mark.parametrize("which, split", [(0, None), (1, WORDS)])
def test_javascript_splits_and_encodes_every_text_as_python(run: dict[str, Any], which: int, split: str | None) -> None:
    encode = encoder_for(run["result"], split)
    for text, answer in zip(run["texts"], run["answers"]["words"][which], strict=True):
        expected_split = text.split() if split is None else split_text(text, split)
        assert answer["split"] == expected_split, f"split differs on {text!r}"
        ids, pieces = encode(text)
        assert answer["pieces"] == pieces, f"pieces differ on {text!r}"
        assert answer["ids"] == ids, f"ids differ on {text!r}"


def test_the_count_line_says_what_python_counts(run: dict[str, Any]) -> None:
    explorer = EncodeExplorer({"words": run["result"]}, production=(), word_split=WORDS)
    for text, answer in list(zip(run["texts"], run["answers"]["words"][1], strict=True))[:100]:
        explorer.text = text
        head, *notes = answer["summary"]
        words = explorer.word_count
        assert head.startswith(
            f"{counted(explorer.token_count, 'token')} for {counted_unit(words, 'pieces (words and punctuation)')} · "
        )
        assert f" · {counted(explorer.chip_count, 'chip')} · " in head
        expected_note = explorer.note
        assert (f"({expected_note})" in notes) == bool(expected_note), text


def test_byte_level_notes_say_bytes_are_cut_as_python_does(run: dict[str, Any]) -> None:
    for case, (head, *notes) in zip(run["byte_cases"], run["answers"]["bytes"], strict=True):
        pieces = [bytes(p) for p in case["pieces"]]
        chips = make_chips(pieces)
        assert head.startswith(
            f"{counted(len(pieces), 'token')} · {counted(len(chips), 'chip')} · {counted(len(case['text'].encode()), 'byte')}"
        )
        note = why_fewer_chips(chips)
        assert notes == ([f"({note})"] if note else []), case["text"]


def test_a_learners_byte_level_tokenizer_is_left_to_python_on_a_static_page() -> None:
    tok = BPETokenizer().train("the cat sat on the mat", 260)
    assert EncodeExplorer({"bytes": tok}, production=()).tokenizers[0] == {"label": "bytes", "kind": "other"}


def test_the_bundled_module_the_page_loads_is_valid_javascript(tmp_path) -> None:
    """esm.bundle joins the files into one module: a top-level name declared twice (two files
    exporting the same name) would stop the explorer from drawing at all."""
    module = tmp_path / "explorer_bundle.mjs"
    module.write_text(EncodeExplorer(production=["cl100k_base"], text="hi")._esm, encoding="utf-8")
    assert NODE is not None
    probe = f"import({json.dumps(module.as_uri())}).then((m) => console.log(typeof m.default.render))"
    run = subprocess.run([NODE, "-e", probe], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0 and run.stdout.strip() == "function", run.stderr[-1500:]
