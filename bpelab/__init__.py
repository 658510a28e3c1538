"""bpelab: learn Byte-Pair Encoding by building it, then hold it against GPT-2, GPT-4, GPT-4o and Llama 3.

The algorithms the lessons build sit at the root (``words``, ``text``, ``byte_level``, ``saving``, ``patterns``,
``merging``, ``fast``, ``wordpiece``, ``production``, ``export``); the layers above them live in subpackages:
``analysis`` (compression, tax, replay), ``plots``, ``widgets``, ``exercises``, ``bench`` and ``course``
(paths, corpora, offline tokenizer data, the environment check, the static site). They import the
algorithms, never the reverse.

Importing it first checks the installed packages against the ranges bpelab declares, and warns once,
naming each one outside its range and the pip command that fixes it (``bpelab.course.versions``).
"""

from bpelab.course.versions import warn_if_out_of_range

warn_if_out_of_range()  # before the imports below, which may be what an out-of-range package breaks

# ruff: noqa: E402  (the version check above must run first)
from bpelab.analysis.compression import bytes_per_token, compression_curve
from bpelab.analysis.replay import replay_word
from bpelab.analysis.tax import token_tax
from bpelab.byte_level import BPETokenizer, count_pretokens
from bpelab.course.corpora import load_parallel, read_corpus
from bpelab.export import ExportError
from bpelab.patterns import PATTERNS, split_text
from bpelab.production import (
    ENCODING_NAMES,
    from_tiktoken,
    llama3_encoding,
    load_encoding,
    mergeable_ranks,
    recover_merges,
)
from bpelab.saving import TokenizerFileError
from bpelab.text import CharTokenizer, byte_count
from bpelab.vocab_files import TokenizerDataError
from bpelab.wordpiece import encode_wordpiece, train_wordpiece
from bpelab.words import (
    END_OF_WORD,
    count_pairs,
    decode_words,
    encode_word,
    get_word_frequencies,
    merge_pair,
    train_bpe,
)

__all__ = [
    "ENCODING_NAMES",
    "END_OF_WORD",
    "PATTERNS",
    "BPETokenizer",
    "CharTokenizer",
    "ExportError",
    "TokenizerDataError",
    "TokenizerFileError",
    "byte_count",
    "bytes_per_token",
    "compression_curve",
    "count_pairs",
    "count_pretokens",
    "decode_words",
    "encode_word",
    "encode_wordpiece",
    "from_tiktoken",
    "get_word_frequencies",
    "llama3_encoding",
    "load_encoding",
    "load_parallel",
    "merge_pair",
    "mergeable_ranks",
    "read_corpus",
    "recover_merges",
    "replay_word",
    "split_text",
    "token_tax",
    "train_bpe",
    "train_wordpiece",
]
