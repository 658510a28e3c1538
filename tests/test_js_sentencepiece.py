"""The static pages' SentencePiece encoder (``static/sentencepiece.js``) gives the Python's ids, tokens and builds.

The page runs Mistral 7B through the very script ``make html`` writes from the course's verified offline model and
the module the explorer calls (``production.js``), under Node. It is held to ``bpelab.sentencepiece`` (itself held
to the ``sentencepiece`` library by tests/test_sentencepiece_agreement.py, and checked here against it again) on
the agreement corpus, on every code point, on generated text across scripts, and piece by piece for the builds.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.course.sentencepiece_script import (
    PAGE_MODELS,
    install_sentencepiece_scripts,
    model_script,
    page_data,
    score_runs,
)
from bpelab.sentencepiece import load_sentencepiece
from bpelab.sentencepiece_build import build_piece
from bpelab.vocab_files import require_sentencepiece
from bpelab.widgets.encoders import sentencepiece_token_bytes
from tests.agreement_corpus import TRICKY, agreement_corpus
from tests.test_sentencepiece_agreement import GENERATED, code_points

NODE = shutil.which("node")
DRIVER = Path(__file__).parent / "js" / "encode_with_js_sentencepiece.mjs"
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
NAME = "mistral_v1"


@pytest.fixture(scope="module")
def static_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    static = tmp_path_factory.mktemp("site") / "_static"
    assert install_sentencepiece_scripts(static) == [model_script(NAME)]
    return static


def in_js(static: Path, mode: str, items: list[object], tmp_path: Path) -> list[dict[str, object]]:
    in_path, out_path = tmp_path / f"{mode}-in.json", tmp_path / f"{mode}-out.json"
    in_path.write_text(json.dumps(items), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run(
        [NODE, str(DRIVER), str(static), NAME, mode, str(in_path), str(out_path)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result: list[dict[str, object]] = json.loads(out_path.read_text(encoding="utf-8"))
    return result


def assert_page_equals_python(static: Path, texts: list[str], tmp_path: Path) -> None:
    """Ids equal to ours and to the sentencepiece library's; each token's bytes equal, and together the text."""
    model = load_sentencepiece(NAME)
    library = spm.SentencePieceProcessor(model_file=str(require_sentencepiece(NAME)))
    expected = library.encode(texts)
    for text, want, got in zip(texts, expected, in_js(static, "encode", list(texts), tmp_path), strict=True):
        assert got["ids"] == want, f"the page's ids differ from sentencepiece's on {text[:60]!r}"
        assert model.encode(text) == want
        pieces = sentencepiece_token_bytes(model, want, text)
        assert got["pieces"] == [p.hex() for p in pieces], f"the page's token bytes differ on {text[:60]!r}"
        assert b"".join(pieces) == text.encode("utf-8")


def test_the_page_equals_python_on_the_agreement_corpus(static_dir: Path, tmp_path: Path) -> None:
    docs = agreement_corpus() + TRICKY
    assert sum(len(d.encode()) for d in docs) >= 1_000_000
    assert_page_equals_python(static_dir, docs, tmp_path)


def test_the_page_equals_python_on_every_code_point(static_dir: Path, tmp_path: Path) -> None:
    """1,112,064 code points, 1,024 consecutive ones a text, then each one below U+20000 after a space."""
    points = code_points(0, 0x110000)
    chunks = ["".join(map(chr, points[i : i + 1024])) for i in range(0, len(points), 1024)]
    spaced = [" ".join(map(chr, points[i : i + 1024])) for i in range(0, 0x2_0000 - 2048, 1024)]
    assert_page_equals_python(static_dir, chunks + spaced, tmp_path)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(batch=st.lists(GENERATED, min_size=100, max_size=100))
def test_the_page_equals_python_on_generated_text(
    static_dir: Path, tmp_path_factory: pytest.TempPathFactory, batch: list[str]
) -> None:
    """Whitespace runs, leading and trailing spaces, digits, emoji with ZWJ, combining marks, any character."""
    assert_page_equals_python(static_dir, batch, tmp_path_factory.mktemp("generated"))


def test_the_page_on_hand_checked_texts(static_dir: Path, tmp_path: Path) -> None:
    """Known answers: the dummy prefix alone before a digit (no piece is ▁ and a digit), a space run, byte fallback."""
    got = in_js(static_dir, "encode", ["2024", "a  b", "\n"], tmp_path)
    model = load_sentencepiece(NAME)
    assert [model.pieces[i] for i in got[0]["ids"]] == ["▁", "2", "0", "2", "4"]  # type: ignore[union-attr]
    assert got[0]["pieces"][0] == ""  # type: ignore[index]  # the dummy prefix stands for no byte of the text
    assert [model.pieces[i] for i in got[2]["ids"]] == ["▁", "<0x0A>"]  # type: ignore[union-attr]
    assert got[1]["pieces"] == [b"a".hex(), b" ".hex(), b" b".hex()]


def test_the_page_builds_every_piece_as_python(static_dir: Path, tmp_path: Path) -> None:
    """All 32,000 ids: the same steps, scores, tree and note; control and unknown pieces refused by both."""
    model = load_sentencepiece(NAME)
    got = in_js(static_dir, "build", list(range(len(model))), tmp_path)
    refused = 0
    for piece_id, page in enumerate(got):
        try:
            expected = build_piece(model, piece_id).as_dict()
        except ValueError:
            assert "error" in page, f"the page builds {model.pieces[piece_id]!r}, which Python refuses"
            refused += 1
            continue
        assert page == expected, f"the page builds {model.pieces[piece_id]!r} (id {piece_id}) otherwise"
    assert refused == 3  # <unk>, <s>, </s>


def test_the_script_is_compact_and_loaded_alone(static_dir: Path) -> None:
    """Pieces and runs of scores: about a third of a megabyte, a few runs, no tiktoken needed."""
    script = (static_dir / model_script(NAME)).read_text(encoding="utf-8")
    assert len(script.encode()) < 400_000
    assert len(score_runs(load_sentencepiece(NAME).scores)) < 40
    assert "bpelabTiktoken" not in script and "define(" not in script


def test_score_runs_give_back_every_score() -> None:
    for scores in ([0.0, 0.0, -1e9, -2.0, -3.0, -1e9, -4.0], load_sentencepiece(NAME).scores, [-1.5, -2.5]):
        back = [first + k * step for count, first, step in score_runs(list(scores)) for k in range(int(count))]
        assert back == list(scores)


def test_a_model_the_page_cannot_run_is_refused_naming_why() -> None:
    """Mistral's v3 model has user-defined pieces ([REFERENCE_DOC_n]), which the page's encoder does not cut out."""
    with pytest.raises(ValueError, match="user_defined pieces"):
        page_data(load_sentencepiece("mistral_v3"))


def test_make_htmls_assets_include_mistral(tmp_path: Path) -> None:
    from bpelab.course.site_assets import install_assets

    problems = install_assets(tmp_path)
    assert not [p for p in problems if "Mistral" in p]
    for name in PAGE_MODELS:
        assert (tmp_path / model_script(name)).is_file()
