"""Where the real tokenizers' vocabulary files are, and whether they are intact.

The four vocabularies the course compares with (GPT-2's r50k_base, cl100k_base, o200k_base and Llama 3)
are files tiktoken reads; Mistral's two SentencePiece models (``SENTENCEPIECE_SOURCES``) are ``.model``
files that ``bpelab.sentencepiece`` and the ``sentencepiece`` library read; Mistral's Tekken (``TEKKEN_SOURCE``) is
kept as a ``.tiktoken`` file of ranks that ``bpelab.tekken`` reads. ``bpelab.course.tokenizer_data`` builds them once from the package registry
(``python -m bpelab.setup_data``); this module only says where each one is, which sha256 it must have,
and, if it is missing or damaged, which command fixes it. ``bpelab.production`` asks it for a file
before opening one, so the algorithms never reach into the course's setup code.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bpelab.paths import tokenizer_store_dir

FIX_COMMAND = "make data   (or: python -m bpelab.setup_data)"

QUICKTOK = "quicktok-v1==0.4.0"
WHISPER = "openai-whisper==20250625"
MISTRAL_COMMON = "mistral-common==1.13.1"

LLAMA3_SHA256 = "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"
"""sha256 of Meta Llama 3's ``tokenizer.model`` (128,000 ranks in tiktoken's format)."""


@dataclass(frozen=True)
class Source:
    name: str
    package: str
    member: str
    kind: str  # "tiktoken" or "sentencepiece": the file as it is; "quicktok", "tekken": a file to convert
    licence: str


SOURCES: dict[str, Source] = {
    "r50k_base": Source(
        "r50k_base",
        WHISPER,
        "whisper/assets/gpt2.tiktoken",
        "tiktoken",
        "MIT (OpenAI's GPT-2 vocabulary, shipped in openai-whisper)",
    ),
    "cl100k_base": Source(
        "cl100k_base", QUICKTOK, "quicktok/data/cl100k.vocab", "quicktok", "MIT (OpenAI's tiktoken vocabulary)"
    ),
    "o200k_base": Source(
        "o200k_base", QUICKTOK, "quicktok/data/o200k.vocab", "quicktok", "MIT (OpenAI's tiktoken vocabulary)"
    ),
    "llama3": Source(
        "llama3", QUICKTOK, "quicktok/data/llama3.vocab", "quicktok", "Meta Llama 3 Community License Agreement"
    ),
}


SENTENCEPIECE_SOURCES: dict[str, Source] = {
    "mistral_v1": Source(
        "mistral_v1",
        MISTRAL_COMMON,
        "mistral_common/data/tokenizer.model.v1",
        "sentencepiece",
        "Apache-2.0 (Mistral 7B v0.1's tokenizer, shipped in mistral-common)",
    ),
    "mistral_v3": Source(
        "mistral_v3",
        MISTRAL_COMMON,
        "mistral_common/data/mistral_instruct_tokenizer_240323.model.v3",
        "sentencepiece",
        "Apache-2.0 (Mistral's v3 instruct tokenizer, shipped in mistral-common)",
    ),
}
"""Mistral's SentencePiece models, copied byte for byte from the mistral-common wheel."""

SENTENCEPIECE_SHA256 = {
    "mistral_v1": "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
    "mistral_v3": "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
}
"""sha256 of each ``.model`` file as mistral-common 1.13.1 ships it (32,000 and 32,768 pieces)."""

TEKKEN_SOURCE = Source(
    "tekken",
    MISTRAL_COMMON,
    "mistral_common/data/tekken_240911.json",
    "tekken",
    "Apache-2.0 (Mistral's Tekken vocabulary, shipped in mistral-common)",
)
"""Tekken (``bpelab.tekken``): a 19 MB JSON in the wheel, of which the course keeps the ranks as a ``.tiktoken`` file."""
TEKKEN_JSON_SHA256 = "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316"
"""sha256 of ``tekken_240911.json`` as mistral-common 1.13.1 ships it."""
TEKKEN_RANKS_SHA256 = "64a081edb3cbb8639a4eea9a7135ab9a0467c50676c672b217ba655f4d50e127"
"""sha256 of the ``tekken.tiktoken`` file built from it: the 130,072 ranks mistral-common keeps."""


class TokenizerDataError(RuntimeError):
    """A vocabulary file is missing or damaged; the message says which command fixes it."""


# ---- what tiktoken expects --------------------------------------------------------------


@cache
def tiktoken_recipe(name: str) -> dict:
    """tiktoken's own definition of an encoding (pattern, special tokens), plus the URL and sha256
    it would download, captured without downloading anything."""
    import tiktoken_ext.openai_public as openai_public

    seen: dict[str, str] = {}

    def capture(url: str, expected_hash: str | None = None) -> dict:
        seen["url"], seen["sha256"] = url, expected_hash or ""
        return {}

    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = capture
    try:
        recipe = openai_public.ENCODING_CONSTRUCTORS[name]()
    finally:
        openai_public.load_tiktoken_bpe = original
    return {**recipe, **seen}


def expected_sha256(name: str) -> str:
    return LLAMA3_SHA256 if name == "llama3" else tiktoken_recipe(name)["sha256"]


def tiktoken_cache_dir() -> Path:
    """Where tiktoken looks, by its own rule: $TIKTOKEN_CACHE_DIR, $DATA_GYM_CACHE_DIR, else <tmp>/data-gym-cache."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return Path(os.environ[variable])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def tiktoken_cache_path(name: str) -> Path:
    """The file tiktoken reads for ``name``: its cache key is the sha1 of the download URL."""
    url = tiktoken_recipe(name)["url"]
    return tiktoken_cache_dir() / hashlib.sha1(url.encode()).hexdigest()


def store_path(name: str) -> Path:
    """Our own verified copy: in a clone, the repository's data/tokenizers (ignored by git); in an installed
    package, the user's cache folder (see ``bpelab.paths.tokenizer_store_dir``)."""
    return tokenizer_store_dir() / f"{name}.tiktoken"


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_state(path: Path, sha256: str) -> str:
    """ "ok" when ``path`` holds the file whose sha256 is ``sha256``; else what is wrong with it."""
    if not path.exists():
        return f"missing ({path})"
    if sha256_of(path) != sha256:
        return f"corrupted: sha256 does not match ({path})"
    return "ok"


def status() -> dict[str, str]:
    """For each vocabulary, "ok" or what is wrong with it."""
    return {
        name: file_state(store_path(name) if name == "llama3" else tiktoken_cache_path(name), expected_sha256(name))
        for name in SOURCES
    }


def require(name: str) -> Path:
    """The verified file for ``name``, or an error that says what is wrong and how to fix it."""
    if name not in SOURCES:
        raise ValueError(f"unknown vocabulary {name!r}; known: {', '.join(SOURCES)}")
    problem = status()[name]
    if problem != "ok":
        raise TokenizerDataError(f"the {name} vocabulary is {problem}. Run: {FIX_COMMAND}")
    return store_path(name) if name == "llama3" else tiktoken_cache_path(name)


def read_tiktoken_file(path: str | Path, fix: str = f"the file is damaged: run {FIX_COMMAND}") -> dict[bytes, int]:
    """A vocabulary in tiktoken's text format: on each line, the token's bytes in base64, a space, its rank.

    Read here rather than with ``tiktoken.load.load_tiktoken_bpe``, which before tiktoken 0.12 opened
    a local file only through the optional ``blobfile`` package. ``fix``: what the error tells the reader to do.
    """
    ranks = {}
    for number, line in enumerate(Path(path).read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            token, rank = line.split()
            ranks[base64.b64decode(token, validate=True)] = int(rank)
        except (ValueError, binascii.Error) as err:
            raise ValueError(
                f"{Path(path).name}, line {number}: expected the token in base64, a space and its rank, "
                f"got {line[:40]!r}: {fix}"
            ) from err
    return ranks


# ---- SentencePiece models -------------------------------------------------------------------


def sentencepiece_path(name: str) -> Path:
    """Our verified copy of a SentencePiece model, beside the tiktoken files."""
    return tokenizer_store_dir() / f"{name}.model"


def sentencepiece_status() -> dict[str, str]:
    """For each SentencePiece model, "ok" or what is wrong with it."""
    return {name: file_state(sentencepiece_path(name), SENTENCEPIECE_SHA256[name]) for name in SENTENCEPIECE_SOURCES}


def require_sentencepiece(name: str) -> Path:
    """The verified ``.model`` file for ``name``, or an error that says what is wrong and how to fix it."""
    if name not in SENTENCEPIECE_SOURCES:
        raise ValueError(f"unknown SentencePiece model {name!r}; known: {', '.join(SENTENCEPIECE_SOURCES)}")
    path = sentencepiece_path(name)
    if not path.exists():
        raise TokenizerDataError(f"the {name} model is missing ({path}). Run: {FIX_COMMAND}")
    if sha256_of(path) != SENTENCEPIECE_SHA256[name]:
        raise TokenizerDataError(f"the {name} model is corrupted: sha256 does not match ({path}). Run: {FIX_COMMAND}")
    return path


# ---- Tekken -----------------------------------------------------------------------------------


def tekken_path() -> Path:
    """Our verified copy of Tekken's ranks, in tiktoken's format, beside the other vocabularies."""
    return tokenizer_store_dir() / "tekken.tiktoken"


def tekken_status() -> str:
    """ "ok", or what is wrong with the Tekken ranks file."""
    return file_state(tekken_path(), TEKKEN_RANKS_SHA256)


def require_tekken() -> Path:
    """The verified Tekken ranks file, or an error that says what is wrong and how to fix it."""
    problem = tekken_status()
    if problem != "ok":
        raise TokenizerDataError(f"the Tekken vocabulary is {problem}. Run: {FIX_COMMAND}")
    return tekken_path()
