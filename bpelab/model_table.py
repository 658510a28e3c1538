"""Which models use which encoding, read from tiktoken's own model table (never typed by hand).

tiktoken maps model names to encodings in ``tiktoken.model``: exact names (``MODEL_TO_ENCODING``:
"gpt-4o" → o200k_base) and name prefixes (``MODEL_PREFIX_TO_ENCODING``: "gpt-5" → o200k_base,
"gpt-oss-" → o200k_harmony). The explorer's note is built from them, so it follows the tiktoken
version installed. Llama 3 is Meta's tokenizer: tiktoken's table does not list it.
"""

from __future__ import annotations

import tiktoken
import tiktoken.model

FINE_TUNED = "ft:"
"""Prefixes for fine-tuned models ("ft:gpt-4o"): the same encoding as their base model, left out."""
HARMONY = "o200k_harmony"
"""gpt-oss's encoding: o200k_base's ranks and split pattern, with harmony's special tokens added."""


def models_using(encoding: str) -> list[str]:
    """The model names tiktoken maps to ``encoding``, in the table's order (newest first there), each
    prefix without its trailing "-", and a name dropped when a shorter kept one already begins it."""
    names = [model for model, enc in tiktoken.model.MODEL_TO_ENCODING.items() if enc == encoding]
    names += [
        prefix.rstrip("-")
        for prefix, enc in tiktoken.model.MODEL_PREFIX_TO_ENCODING.items()
        if enc == encoding and not prefix.startswith(FINE_TUNED)
    ]
    kept: list[str] = []
    for name in names:
        if name not in kept and not any(name.startswith(other + "-") for other in names if other != name):
            kept.append(name)
    return kept


def models_sentence(encoding: str, most: int = 8) -> str:
    """One clause for the explorer's note: "o200k_base: gpt-5, gpt-4.1, … (tiktoken's table)"."""
    if encoding == "llama3":
        return "llama3: Meta's own tokenizer, not in tiktoken's table"
    names = models_using(encoding)
    if not names:
        return f"{encoding}: no model in tiktoken {tiktoken.__version__}'s table"
    shown = ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")
    clause = f"{encoding}: {shown}"
    if encoding == "o200k_base" and models_using(HARMONY):
        clause += (
            f"; {', '.join(models_using(HARMONY))} use{'s' if len(models_using(HARMONY)) == 1 else ''} "
            f"{HARMONY}, the same ranks with harmony's special tokens"
        )
    return clause
