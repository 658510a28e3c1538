"""The chat view's JavaScript cuts a Llama 3 turn where Meta's Tokenizer.encode does, exactly as Python does.

``llama3Pieces`` (static/chat.js) and ``bpelab.chat_formats.llama3_pieces`` follow Meta's
``_split_whitespaces_or_nonwhitespaces``: windows of 400,000 characters, each cut where a run of whitespace, or of
other characters, passes 25,000. Only long turns reach the cut, too long for js-tiktoken to encode quickly in a test,
so here the pieces themselves are compared, on generated texts around both limits (code points outside the BMP
included: JavaScript counts UTF-16 units, Python code points; whitespace that only Python's isspace() knows).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from bpelab.chat_formats import LLAMA3_RUN, LLAMA3_WINDOW, llama3_pieces

NODE = shutil.which("node")
CHAT_JS = Path(__file__).resolve().parents[1] / "bpelab" / "widgets" / "static" / "chat.js"
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")

RUNS = ["1", "a", "😀", " ", "\n", "\x1c", "\u3000", "\x85", "日"]
"""Characters a run is made of: digits, letters, one outside the BMP, whitespace of several kinds (U+001C and U+0085
are whitespace to Python, U+0085 not to JavaScript's own \\s)."""


def generated_texts(seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    texts = ["", " ", "x" * LLAMA3_RUN, "x" * (LLAMA3_RUN + 1), " " * (2 * LLAMA3_RUN + 3), "😀" * (LLAMA3_RUN + 2)]
    for _ in range(12):
        parts = []
        for _ in range(rng.randrange(1, 5)):
            length = rng.choice([1, 7, LLAMA3_RUN - 1, LLAMA3_RUN, LLAMA3_RUN + 1, 2 * LLAMA3_RUN + 5, 60_000])
            parts.append(rng.choice(RUNS) * length)
        texts.append("".join(parts))
    texts.append("ab " * (LLAMA3_WINDOW // 3 + 10))  # more than one window, no long run
    texts.append("z" * (LLAMA3_WINDOW + 30_000))  # a run across the window's edge
    return texts


def test_javascript_cuts_long_turns_as_python_does(tmp_path: Path) -> None:
    texts = generated_texts()
    cases = tmp_path / "texts.json"
    cases.write_text(json.dumps(texts), encoding="utf-8")
    script = (
        f"import {{ llama3Pieces }} from {json.dumps(CHAT_JS.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const texts = JSON.parse(readFileSync(process.argv[1], 'utf8'));\n"
        "process.stdout.write(JSON.stringify(texts.map((t) => llama3Pieces(t))));\n"
    )
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--input-type=module", "-e", script, str(cases)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    from_js = json.loads(run.stdout)
    for text, pieces in zip(texts, from_js, strict=True):
        assert pieces == llama3_pieces(text), f"text of {len(text)} characters starting {text[:12]!r}"
    assert any(len(llama3_pieces(t)) > 2 for t in texts), "no generated text reached the cut"
