"""The production tokenizers the explorer, the side-by-side view and the token-build panel offer by name.

tiktoken's family (GPT-2, GPT-4, GPT-4o, Llama 3: ``bpelab.production``) and SentencePiece's (Mistral 7B v0.1:
``bpelab.sentencepiece``). Each is loaded only when first used, and each is described to the page: its label,
its kind (how the page encodes it: js-tiktoken's ranks, or ``static/sentencepiece.js`` with a pieces script),
whether a page without Python can run it, and the sentence the explorer's note says of it.
"""

from __future__ import annotations

from typing import Any

from bpelab.model_table import models_sentence
from bpelab.production import ENCODING_NAMES, FRIENDLY_NAMES, load_encoding
from bpelab.sentencepiece import load_sentencepiece

SENTENCEPIECE_LABELS = {"mistral_v1": "Mistral 7B (SentencePiece)"}
"""SentencePiece models the views offer, by the course's name for their offline file (``load_sentencepiece``)."""
VIEW_TOKENIZERS = (*ENCODING_NAMES, *SENTENCEPIECE_LABELS)
"""Every production tokenizer the views offer, in the menu's order."""
LABELS = {**FRIENDLY_NAMES, **SENTENCEPIECE_LABELS}
BROWSER_TOKENIZERS = VIEW_TOKENIZERS
"""The ones a static page runs itself: js-tiktoken with its ranks (``bpelab/course/tiktoken_scripts.py``), and
``static/sentencepiece.js`` with Mistral's pieces (``bpelab/course/sentencepiece_script.py``)."""
SENTENCEPIECE_NOTES = {
    "mistral_v1": (
        "Mistral 7B (SentencePiece) writes a space as ▁ inside its pieces (drawn ⋅ here, as a space in the other "
        "tokenizers' chips) and puts a ▁ before the text, the dummy prefix: it stands for no character of your "
        "text, so it is not drawn, and where it is a token alone its chip is empty."
    ),
}
MODELS_CLAUSES = {
    "mistral_v1": "mistral_v1: Mistral 7B v0.1's SentencePiece model (mistral-common's tokenizer.model.v1), "
    "not in tiktoken's table",
}


def load_view_tokenizer(name: str) -> object:
    """The tokenizer the views run for ``name``: a tiktoken ``Encoding`` or a ``SentencePieceBPE``."""
    if name in SENTENCEPIECE_LABELS:
        return load_sentencepiece(name)
    if name in ENCODING_NAMES:
        return load_encoding(name)
    raise ValueError(f"unknown production tokenizer {name!r}; choose from {', '.join(VIEW_TOKENIZERS)}")


def page_entry(name: str) -> dict[str, Any]:
    """What the page knows of production tokenizer ``name`` (``tokenizers``, the widget's synced list)."""
    if name in SENTENCEPIECE_LABELS:
        return {
            "label": LABELS[name],
            "kind": "sentencepiece",
            "encoding": name,
            "browser": name in BROWSER_TOKENIZERS,
            "models": MODELS_CLAUSES[name],
            "note": SENTENCEPIECE_NOTES[name],
        }
    if name not in ENCODING_NAMES:
        raise ValueError(f"unknown production tokenizer {name!r}; choose from {', '.join(VIEW_TOKENIZERS)}")
    return {
        "label": LABELS[name],
        "kind": "tiktoken",
        "encoding": name,
        "browser": name in BROWSER_TOKENIZERS,
        "models": models_sentence(name),
    }
