"""Mistral 7B's SentencePiece model for pages without Python (``make html`` puts it in the site).

The static pages encode typed text with ``static/sentencepiece.js``, the course's SentencePiece BPE encoder for
the browser. What it needs of the model, written here from the course's verified offline file
(``data/tokenizers/mistral_v1.model``, made by ``python -m bpelab.setup_data`` from the mistral-common wheel and
checked against its sha256), is a classic script, loaded only when a learner picks Mistral (a file:// page cannot
``fetch()`` or ``import()``; ``bpelab/course/tiktoken_scripts.py`` says why):

    _static/sentencepiece/<name>.js    window.bpelabSentencePiece["<name>"] = {pieces, scores, types, …}

``pieces``: every piece in id order; ``scores``: runs ``[count, first score, step]`` (Mistral's scores fall by 1
from id to id, so 32,000 scores are a few runs); ``types``: one letter per id (``n`` normal, ``u`` unknown, ``c``
control, ``b`` byte); and the normalizer's switches. The page's encoder implements the 'identity' normalizer
only (no character map) and no user-defined or unused pieces: a model that needs more is refused here, by name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_model import PieceType

FOLDER = "sentencepiece"
GLOBAL = "bpelabSentencePiece"
PAGE_MODELS = ("mistral_v1",)
"""The SentencePiece models a static page runs."""
TYPE_LETTERS = {PieceType.NORMAL: "n", PieceType.UNKNOWN: "u", PieceType.CONTROL: "c", PieceType.BYTE: "b"}


def model_script(name: str) -> str:
    """The path under _static/ of one model's script."""
    if name not in PAGE_MODELS:
        raise ValueError(f"no page script for {name!r}; choose from {', '.join(PAGE_MODELS)}")
    return f"{FOLDER}/{name}.js"


def score_runs(scores: list[float]) -> list[list[float]]:
    """Scores as runs ``[count, first, step]``, step 0 or -1: score k of a run is ``first + k * step``."""
    runs: list[list[float]] = []
    for score in scores:
        if runs:
            count, first, step = runs[-1]
            if count == 1 and score - first in (0, -1):
                runs[-1] = [2, first, score - first]
                continue
            if count > 1 and score == first + count * step:
                runs[-1][0] += 1
                continue
        runs.append([1, score, 0])
    return [[int(c), int(f) if float(f).is_integer() else f, int(s)] for c, f, s in runs]


def page_data(model: SentencePieceBPE) -> dict[str, Any]:
    """What ``static/sentencepiece.js`` reads of ``model``; a model it cannot run raises ValueError saying why."""
    spec, trainer = model.normalizer, model.model.trainer
    problems = []
    if model.charsmap is not None:
        problems.append(f"its normalizer {spec.name!r} rewrites characters (the page runs 'identity' only)")
    other = sorted({kind.name.lower() for kind in model.types if kind not in TYPE_LETTERS})
    if other:
        problems.append(f"it has {' and '.join(other)} pieces")
    if trainer.treat_whitespace_as_suffix or spec.remove_extra_whitespaces or not spec.escape_whitespaces:
        problems.append("its whitespace rules are not Mistral 7B's (▁ in front, spaces kept)")
    if problems:
        raise ValueError(f"the page's SentencePiece encoder cannot run this model: {'; '.join(problems)}")
    return {
        "pieces": model.pieces,
        "scores": score_runs(model.scores),
        "types": "".join(TYPE_LETTERS[kind] for kind in model.types),
        "addDummyPrefix": spec.add_dummy_prefix,
        "byteFallback": model.byte_fallback,
    }


def sentencepiece_script(name: str, model: SentencePieceBPE) -> str:
    """One model's classic script."""
    data = json.dumps(page_data(model), ensure_ascii=False, separators=(",", ":"))
    return (
        f"/* {name}: Mistral 7B v0.1's SentencePiece model (Apache-2.0, from the mistral-common wheel), written by\n"
        "   bpelab from its verified offline file for static/sentencepiece.js; see bpelab/course/sentencepiece_script.py */\n"
        f"(window.{GLOBAL} = window.{GLOBAL} || {{}})[{json.dumps(name)}] = {data};\n"
    )


def install_sentencepiece_scripts(static_dir: Path) -> list[str]:
    """Write every page model's script under ``static_dir``; return their paths under _static/. Raises
    TokenizerDataError (a RuntimeError) naming the command to run when the offline data is missing."""
    written = []
    for name in PAGE_MODELS:
        relative = model_script(name)
        path = static_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(sentencepiece_script(name, load_sentencepiece(name)), encoding="utf-8")
        written.append(relative)
    return written
