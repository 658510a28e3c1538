"""Your tokenizer in the production libraries (lesson 13): tiktoken's ``Encoding`` and Hugging Face's ``tokenizer.json``.

A ``BPETokenizer`` is already what both libraries run: a split pattern, byte-level tokens ranked by the
order they were learned, and special tokens beside them. Exporting is mostly renaming:

- **tiktoken** wants ``mergeable_ranks`` (each token's bytes -> its rank; here the rank is the id, since
  merges were learned in id order) and the pattern. tiktoken keeps only what the pattern matches, while
  bpelab also keeps the stretches between matches (``split_text(..., keep_gaps=True)``), so a pattern
  that can leave a gap gets one more alternative that matches the gap itself. ``bpelab.tiktoken_file``
  writes the same as a ``.tiktoken`` file.
- **Hugging Face** ``tokenizers`` wants a JSON file: a ``Split`` pre-tokenizer with the pattern
  (``behavior: Isolated`` keeps the gaps as pieces, as bpelab does), a ``ByteLevel`` step that turns
  bytes into printable characters (GPT-2's table: byte 32, the space, becomes ``Ġ``), the vocabulary and
  merges in those characters, special tokens as added tokens, and a ``ByteLevel`` decoder. Merges are
  written as the installed ``tokenizers`` writes them (``bpelab.hugging_face.merges_as_written``): pairs
  ``["Ġ", "t"]`` from 0.20 on, one string ``"Ġ t"`` for 0.19, which cannot read pairs.

The two libraries read regexes with engines other than Python's ``regex`` (Rust's fancy-regex for
tiktoken, Oniguruma for ``tokenizers``), and the engines do not read every pattern alike: Oniguruma reads
GPT-4's ``\\p{N}{1,3}+`` otherwise (``bpelab.regex_engines``), so the ``tokenizer.json`` gets it rewritten in
a form Oniguruma reads as the others do. No pattern is trusted: every export splits generated probe texts
in bpelab and in the other library's engine and is refused, naming the first text they cut apart, if the
pieces differ; then it encodes a probe text in many scripts and is refused if one id differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bpelab.files import write_text_atomically
from bpelab.hugging_face import byte_level_text, byte_to_char, merges_as_written
from bpelab.patterns import PATTERNS
from bpelab.regex_engines import Engine, first_disagreement, for_oniguruma
from bpelab.tokenizer_tables import ByteLevelTokenizer

if TYPE_CHECKING:  # tiktoken is only imported when an export is asked for
    import tiktoken


PROBE_TEXT = (
    "Hello world! It's 2024, and we're testing: 12345 + 678 = 13023. In 1920 it cost $1,999.99.\n"
    "  Indented\tline\r\nwith CRLF, trailing spaces   \n\n"
    "Ünïcödé, naïve café, straße; ЁЛКА ёлка; Ελληνικά; עברית; العربية.\n"
    "中文分词测试，日本語のテキスト、한국어 문장. 😀👍🏽👨‍👩‍👧 e\u0301\u0301 x\u0308y\n"
    "def f(x):\n    return x**2  # comment\n"
    "URL https://example.com/a?b=c&d=e ... !!! ??? --- ___ '''\n"
)
"""Text the export's ids are checked on: many scripts, digits, code, whitespace runs, emoji and combining marks."""


class ExportError(ValueError):
    """A tokenizer that cannot be written in the other library's format; the message says why."""


# ---- what both exports share ----------------------------------------------------------------


def _check_exportable(tokenizer: ByteLevelTokenizer, target: str) -> None:
    """Only byte-level tokenizers built from merges, with ids 256, 257, ... in learning order."""
    if not isinstance(tokenizer, ByteLevelTokenizer):
        raise TypeError(
            f"cannot export to {target}: expected a BPETokenizer, got {type(tokenizer).__name__}. Train one first: "
            "yours = BPETokenizer().train(text, vocab_size), then export yours"
        )
    vocab = tokenizer.vocab
    if any(vocab.get(i) != bytes([i]) for i in range(256)):
        raise ExportError(f"cannot export to {target}: ids 0-255 must be the 256 byte values, as training makes them")
    for rank, ((a, b), new) in enumerate(tokenizer.merges.items(), start=256):
        if new != rank or vocab.get(new) != vocab.get(a, b"") + vocab.get(b, b""):
            raise ExportError(
                f"cannot export to {target}: merge {rank - 256} ({a}, {b}) -> {new} does not make id {rank} from its "
                "two parents' bytes; the production formats rank tokens by the order they were learned. Export a "
                "tokenizer made by BPETokenizer.train or BPETokenizer.load"
            )
    seen: dict[bytes, int] = {}
    for i in range(256 + len(tokenizer.merges)):
        if vocab[i] in seen:
            raise ExportError(
                f"cannot export to {target}: ids {seen[vocab[i]]} and {i} are both {vocab[i]!r}; tiktoken and "
                "Hugging Face give each byte string one id"
            )
        seen[vocab[i]] = i
    _check_special_tokens(tokenizer, target)


def _check_special_tokens(tokenizer: ByteLevelTokenizer, target: str) -> None:
    """Each special token a non-empty string with an id after the learned ones, as ``train`` makes them."""
    first_free = 256 + len(tokenizer.merges)
    for special, i in tokenizer.special_tokens.items():
        if not isinstance(special, str) or not special:
            raise ExportError(
                f"cannot export to {target}: the special token {special!r} is not a non-empty str. Special tokens "
                "are text, like '<|endoftext|>': pass them to train(..., special_tokens=['<|endoftext|>'])"
            )
        if not isinstance(i, int) or isinstance(i, bool) or i < first_free:
            raise ExportError(
                f"cannot export to {target}: the special token {special!r} has id {i!r}; special tokens take the "
                f"ids after the learned tokens ({first_free} and up), as train(..., special_tokens=...) gives them"
            )


def split_regex(pattern: str | None) -> str:
    """The regex the production libraries split with, cutting the same pieces as ``split_text(keep_gaps=True)``.

    No pattern: the whole text is one piece. One of the course's patterns leaves no gaps, so it is used as it
    is. Any other pattern gets a last alternative that matches a gap: the characters at which the pattern
    itself does not match.
    """
    if pattern is None:
        return r"[\s\S]+"
    if pattern in PATTERNS.values():
        return pattern
    return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])+"


def _check_split(tokenizer: ByteLevelTokenizer, regex_text: str, engine: Engine, target: str) -> None:
    """Refuse an export whose regex engine cuts a probe text otherwise than bpelab: its ids would differ there."""
    found = first_disagreement(tokenizer.pattern, regex_text, engine)
    if found is not None:
        text, ours, theirs = found
        raise ExportError(
            f"cannot export to {target}: its regex engine reads this tokenizer's pattern {tokenizer.pattern!r} "
            f"differently from Python's regex module. The first probe text they split apart is {text!r}: bpelab "
            f"cuts it into {ours}, {engine} into {theirs}, so the ids would differ there. Change the part of the "
            "pattern that matches this text (bpelab.regex_engines.probe_texts() lists every probe text), or train "
            f"with one of the course's patterns ({', '.join(PATTERNS)})"
        )


def _first_difference(ours: list[int], theirs: list[int]) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    return f"at token {at}: bpelab gives {ours[at : at + 5]}, the export gives {theirs[at : at + 5]}"


def _probe(tokenizer: ByteLevelTokenizer, encode: Any, target: str) -> None:
    """Refuse an export that gives other ids than bpelab on the probe text."""
    ours = tokenizer.encode(PROBE_TEXT, allowed_special="all")
    theirs = encode(PROBE_TEXT)
    if ours != theirs:
        raise ExportError(
            f"cannot export to {target}: the export gives other ids than bpelab ({_first_difference(ours, theirs)} "
            "on bpelab.export.PROBE_TEXT). Train with one of the course's patterns "
            f"({', '.join(PATTERNS)}), or with a simpler regex (letters, digits, \\s, classes like \\p{{L}})"
        )


# ---- tiktoken ---------------------------------------------------------------------------------


def _check_special_prefixes(tokenizer: ByteLevelTokenizer) -> None:
    """tiktoken joins its special tokens into one regex in hash-map order: where one special token begins
    another ("<|a" and "<|a|>"), which one it finds depends on that order, not on the text."""
    specials = sorted(tokenizer.special_tokens)
    for short in specials:
        longer = next((s for s in specials if s != short and s.startswith(short)), None)
        if longer is not None:
            raise ExportError(
                f"cannot export to tiktoken: the special token {short!r} is the start of another, {longer!r}. "
                "tiktoken joins its special tokens into one regex in no fixed order, so in a text holding "
                f"{longer!r} it may find {short!r} instead and the ids would differ from bpelab's (which takes the "
                "longest). Use special tokens none of which begins another, e.g. '<|a|>' and '<|b|>'"
            )


def tiktoken_parts(tokenizer: ByteLevelTokenizer) -> dict[str, Any]:
    """What ``tiktoken.Encoding`` is built from: the split regex, the ranks, the special tokens (checked)."""
    _check_exportable(tokenizer, "tiktoken")
    _check_special_prefixes(tokenizer)
    return {
        "pat_str": split_regex(tokenizer.pattern),
        "mergeable_ranks": {tokenizer.vocab[i]: i for i in range(256 + len(tokenizer.merges))},
        "special_tokens": dict(tokenizer.special_tokens),
    }


def to_tiktoken(tokenizer: ByteLevelTokenizer, name: str = "bpelab") -> tiktoken.Encoding:
    """A ``tiktoken.Encoding`` that gives the same ids as ``tokenizer.encode`` (and refuses what it refuses)."""
    import tiktoken

    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, e.g. 'my_tokenizer', got {name!r}")
    parts = tiktoken_parts(tokenizer)
    try:
        encoding = tiktoken.Encoding(name, **parts)
    except ValueError as err:  # tiktoken's regex engine (fancy-regex) could not compile the pattern
        raise ExportError(
            f"cannot export to tiktoken: its regex engine (Rust fancy-regex) rejects this tokenizer's pattern "
            f"{tokenizer.pattern!r} ({err}). Train with one of the course's patterns ({', '.join(PATTERNS)})"
        ) from None
    _check_split(tokenizer, parts["pat_str"], "tiktoken", "tiktoken")
    _probe(tokenizer, lambda text: encoding.encode(text, allowed_special="all"), "tiktoken")
    return encoding


# ---- Hugging Face tokenizers ------------------------------------------------------------------


def hf_json(tokenizer: ByteLevelTokenizer) -> dict[str, Any]:
    """The content of a Hugging Face ``tokenizer.json`` for ``tokenizer`` (what ``save_hf`` writes)."""
    _check_exportable(tokenizer, "Hugging Face")
    stand_ins = set(byte_to_char().values()) - {chr(b) for b in range(128)}
    for special in tokenizer.special_tokens:
        odd = sorted({c for c in special if c in stand_ins})
        if odd:
            raise ExportError(
                f"cannot export to Hugging Face: the special token {special!r} holds {''.join(odd)!r}, which "
                "Hugging Face's ByteLevel decoder reads as stand-ins for single bytes (U+00A1 to U+0143), so it "
                "would decode garbled. Use special tokens in ASCII, like '<|endoftext|>', or other scripts"
            )
    vocab = tokenizer.vocab
    added = [
        {
            "id": i,
            "content": special,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for special, i in tokenizer.special_tokens.items()
    ]
    split_step: dict[str, Any] = {
        "type": "Split",
        # Oniguruma's reading of the pattern: GPT-4's possessive \p{N}{1,3}+ as an atomic group
        "pattern": {"Regex": for_oniguruma(split_regex(tokenizer.pattern))},
        "behavior": "Isolated",  # matches AND the stretches between them are pieces, as in bpelab
        "invert": False,
    }
    byte_step = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [split_step, byte_step]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": False,  # apply the merges by rank, as bpelab does, even to a piece that is a token
            "vocab": {byte_level_text(vocab[i]): i for i in range(256 + len(tokenizer.merges))},
            "merges": merges_as_written(
                [(byte_level_text(vocab[a]), byte_level_text(vocab[b])) for a, b in tokenizer.merges]
            ),
        },
    }


def transformers_config(tokenizer: ByteLevelTokenizer, end_of_text: str | None, padding: str | None) -> dict[str, Any]:
    """The ``tokenizer_config.json`` that makes ``transformers`` load the folder as a fast tokenizer with its
    end-of-text and padding roles set. ``None``: ``"<|endoftext|>"`` if the tokenizer has it (and padding takes
    the end-of-text token, as GPT-2's users do)."""
    specials = tokenizer.special_tokens
    if end_of_text is None and "<|endoftext|>" in specials:
        end_of_text = "<|endoftext|>"
    if padding is None:
        padding = end_of_text
    for role, special in (("end_of_text", end_of_text), ("padding", padding)):
        if special is not None and special not in specials:
            raise ExportError(
                f"cannot give {role} to {special!r}: it is not one of this tokenizer's special tokens "
                f"({sorted(specials) or 'it has none'}). Train with special_tokens=[{special!r}], or pass one of them"
            )
    config: dict[str, Any] = {"tokenizer_class": "PreTrainedTokenizerFast", "clean_up_tokenization_spaces": False}
    if end_of_text is not None:
        config["eos_token"] = end_of_text
    if padding is not None:
        config["pad_token"] = padding
    return config


def _unreadable(tokenizer: ByteLevelTokenizer, err: Exception) -> str:
    """Why ``tokenizers`` could not read the file: the pattern (Oniguruma rejects it), or something else."""
    import tokenizers

    try:
        tokenizers.pre_tokenizers.Split(tokenizers.Regex(for_oniguruma(split_regex(tokenizer.pattern))), "isolated")
    except Exception as regex_err:
        return (
            f"cannot export to Hugging Face: its regex engine (Oniguruma) rejects this tokenizer's pattern "
            f"{tokenizer.pattern!r} ({regex_err}). Train with one of the course's patterns ({', '.join(PATTERNS)})"
        )
    return (
        f"cannot export to Hugging Face: tokenizers {tokenizers.__version__} could not read the tokenizer.json "
        f"bpelab wrote ({err}); please report it, with that version"
    )


def hf_path(path: str | Path) -> tuple[Path, bool]:
    """Where ``save_hf`` writes, and whether it writes into a folder: a name ending in ``.json`` is the file;
    anything else (``"my_tokenizer"``, ``"out/"``, an existing folder) is a folder, as in ``transformers``."""
    if not isinstance(path, str | Path) or str(path) == "":
        raise ValueError(
            f"save_hf needs a folder or a .json file name, e.g. save_hf('my_tokenizer') or "
            f"save_hf('tokenizer.json'), got {path!r}"
        )
    folder = not str(path).lower().endswith(".json") or Path(path).is_dir()
    return (Path(path) / "tokenizer.json" if folder else Path(path)), folder


def save_hf(
    tokenizer: ByteLevelTokenizer, path: str | Path, *, end_of_text: str | None = None, padding: str | None = None
) -> Path:
    """Write ``tokenizer`` as a Hugging Face ``tokenizer.json`` that ``tokenizers.Tokenizer.from_file`` reads;
    returns the file's path.

    ``path`` ending in ``.json`` is the file (its folder is made if needed). Any other path is a folder (made if
    needed): it gets ``tokenizer.json`` and a ``tokenizer_config.json`` naming the end-of-text and padding tokens
    (``transformers_config``), so ``transformers.AutoTokenizer.from_pretrained(folder)`` loads it with those
    roles set. The file is checked first, by loading it back with ``tokenizers``, splitting the probe texts and
    encoding ``PROBE_TEXT``; a tokenizer it cannot represent is refused and nothing is written. The write is
    atomic: a write that fails midway (a full disk) leaves the file that was there before.
    """
    from tokenizers import Tokenizer  # imported here: only this export needs it

    target, folder = hf_path(path)
    content = json.dumps(hf_json(tokenizer), ensure_ascii=False, indent=2)
    config = transformers_config(tokenizer, end_of_text, padding) if folder else None
    try:
        loaded = Tokenizer.from_str(content)
    except Exception as err:  # tokenizers raises a plain Exception, whatever it could not read
        raise ExportError(_unreadable(tokenizer, err)) from None
    _check_split(tokenizer, for_oniguruma(split_regex(tokenizer.pattern)), "tokenizers", "Hugging Face")
    _probe(tokenizer, lambda text: loaded.encode(text).ids, "Hugging Face")
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(target, content + "\n")
    if config is not None:
        write_text_atomically(target.parent / "tokenizer_config.json", json.dumps(config, indent=2) + "\n")
    return target
