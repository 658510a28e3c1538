"""Your tokenizer as tiktoken's files (lesson 13): a ``.tiktoken`` file of ranks and a small JSON beside it.

A ``.tiktoken`` file is what tiktoken downloads for GPT-4's vocabulary: one line per token, its bytes in
base64, a space, its rank (``tiktoken.load.load_tiktoken_bpe`` reads it). The ranks alone do not make an
``Encoding``: it also needs the split pattern and the special tokens, which tiktoken keeps in Python code
(``tiktoken_ext/openai_public.py``). Here they go in a JSON file beside the ranks, with the ranks file's
SHA-256, so that ``load_tiktoken`` rebuilds the same ``Encoding`` and tiktoken itself checks the ranks are the
ones written. Nothing is ever read with pickle or eval.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bpelab.export import ExportError, tiktoken_parts, to_tiktoken
from bpelab.files import write_text_atomically
from bpelab.tokenizer_tables import ByteLevelTokenizer
from bpelab.vocab_files import read_tiktoken_file

if TYPE_CHECKING:
    import tiktoken

FORMAT = "bpelab tiktoken export v1"


def tiktoken_paths(path: str | Path) -> tuple[Path, Path]:
    """The ranks file and the JSON beside it: ``my.tiktoken`` and ``my.json`` (``.tiktoken`` is added if missing)."""
    if not isinstance(path, str | Path) or str(path) == "":
        raise ValueError(f"give a file name such as 'my_tokenizer.tiktoken', got {path!r}")
    path = Path(path)
    ranks = path if path.suffix == ".tiktoken" else path.with_name(path.name + ".tiktoken")
    return ranks, ranks.with_suffix(".json")


def save_tiktoken(tokenizer: ByteLevelTokenizer, path: str | Path, name: str = "bpelab") -> Path:
    """Write ``tokenizer`` as ``path`` (a ``.tiktoken`` file of ranks) and its JSON (``name``, the pattern, the
    special tokens, the ranks file's SHA-256); returns the ``.tiktoken`` path. Checked first, as ``to_tiktoken``
    checks an export; both files are written atomically."""
    to_tiktoken(tokenizer, name)  # refuses, with the reason, what tiktoken cannot run as bpelab does
    parts = tiktoken_parts(tokenizer)
    ranks_path, json_path = tiktoken_paths(path)
    ranks = "".join(
        f"{base64.b64encode(token).decode('ascii')} {rank}\n" for token, rank in parts["mergeable_ranks"].items()
    )
    about = {
        "format": FORMAT,
        "name": name,
        "pat_str": parts["pat_str"],
        "special_tokens": parts["special_tokens"],
        "ranks_file": ranks_path.name,
        "ranks_sha256": hashlib.sha256(ranks.encode("ascii")).hexdigest(),
    }
    ranks_path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(ranks_path, ranks)
    write_text_atomically(json_path, json.dumps(about, ensure_ascii=False, indent=2) + "\n")
    return ranks_path


def _read_about(json_path: Path) -> dict[str, Any]:
    if not json_path.is_file():
        raise FileNotFoundError(
            f"{json_path} is missing: it holds the pattern and special tokens that the .tiktoken file lacks. "
            "Keep the two files save_tiktoken wrote together"
        )
    try:
        about = json.loads(json_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ExportError(
            f"{json_path} is not the JSON save_tiktoken writes ({err}); save the tokenizer again"
        ) from None
    wanted = {
        "format": str,
        "name": str,
        "pat_str": str,
        "special_tokens": dict,
        "ranks_file": str,
        "ranks_sha256": str,
    }
    wrong = [key for key, kind in wanted.items() if not isinstance(about, dict) or not isinstance(about.get(key), kind)]
    if (
        wrong
        or about["format"] != FORMAT
        or not all(isinstance(s, str) and isinstance(i, int) for s, i in about["special_tokens"].items())
    ):
        raise ExportError(
            f"{json_path} is not the JSON save_tiktoken writes ({FORMAT!r}; missing or damaged: "
            f"{', '.join(wrong) or 'format or special_tokens'}); save the tokenizer again"
        )
    return about


def load_tiktoken(path: str | Path) -> tiktoken.Encoding:
    """The ``tiktoken.Encoding`` saved by ``save_tiktoken`` at ``path`` (the ``.tiktoken`` file or its JSON).

    The ranks file must have the SHA-256 its JSON names (as tiktoken checks its own downloads), and is read
    with ``read_tiktoken_file``: tiktoken's ``load_tiktoken_bpe`` reads the same format, but before tiktoken
    0.12 it opened a local file only through the optional ``blobfile`` package.
    """
    import tiktoken

    ranks_path, json_path = tiktoken_paths(Path(path).with_suffix(".tiktoken") if str(path).endswith(".json") else path)
    about = _read_about(json_path)
    ranks_path = json_path.with_name(about["ranks_file"])
    if not ranks_path.is_file():
        raise FileNotFoundError(
            f"{ranks_path}, the ranks {json_path.name} names, is missing: keep the two files together"
        )
    found = hashlib.sha256(ranks_path.read_bytes()).hexdigest()
    if found != about["ranks_sha256"]:
        raise ExportError(
            f"{ranks_path} is not the file save_tiktoken wrote beside {json_path.name} (its SHA-256 is {found}, "
            f"not {about['ranks_sha256']}): it was changed or damaged. Save the tokenizer again"
        )
    ranks = read_tiktoken_file(ranks_path, fix="it is not a ranks file save_tiktoken wrote: save the tokenizer again")
    return tiktoken.Encoding(
        about["name"], pat_str=about["pat_str"], mergeable_ranks=ranks, special_tokens=about["special_tokens"]
    )
