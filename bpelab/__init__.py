"""bpelab: learn Byte-Pair Encoding by building it, then hold it against GPT-2, GPT-4, GPT-4o and Llama 3.

The algorithms the lessons build sit at the root (``words``, ``text``, ``byte_level``, ``saving``, ``patterns``,
``merging``, ``fast``, ``wordpiece``, ``production``, ``sentencepiece``, ``tekken``, ``export``, ``corpora``); the layers above them live in subpackages:
``analysis`` (compression, tax, replay), ``plots``, ``widgets``, ``exercises``, ``bench`` and ``course``
(offline tokenizer data, the environment check, progress, the static site). They import the
algorithms, never the reverse.

Importing it first checks the installed packages against the ranges bpelab declares, and warns once,
naming each one outside its range and the pip command that fixes it (``bpelab.course.versions``). In a
notebook it also hands freed memory back to the system after each cell (``bpelab.course.kernel_memory``).

The names below are imported when first used (``from bpelab import BPETokenizer`` works as ever): the
Jupyter server's save hook and the setup commands import ``bpelab.course`` without paying for pandas.
"""

from typing import TYPE_CHECKING

from bpelab.course.kernel_memory import trim_after_each_cell
from bpelab.course.versions import warn_if_out_of_range
from bpelab.lazy_names import lazy_names

warn_if_out_of_range()  # before any import below, which may be what an out-of-range package breaks
trim_after_each_cell()  # in a notebook: freed memory goes back to the system after each cell (a hub's limit)

if TYPE_CHECKING:  # mypy and editors see the names; Python imports each on first use (__getattr__)
    from bpelab.analysis.compression import bytes_per_token, compression_curve
    from bpelab.analysis.replay import replay_word
    from bpelab.analysis.tax import token_tax
    from bpelab.byte_level import BPETokenizer
    from bpelab.byte_training import count_pretokens
    from bpelab.corpora import load_parallel, read_corpus
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
    from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
    from bpelab.sentencepiece_training import train_sentencepiece_bpe
    from bpelab.tekken import load_tekken, tekken_encoding
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

_HOMES = {
    "bytes_per_token": "bpelab.analysis.compression",
    "compression_curve": "bpelab.analysis.compression",
    "replay_word": "bpelab.analysis.replay",
    "token_tax": "bpelab.analysis.tax",
    "BPETokenizer": "bpelab.byte_level",
    "count_pretokens": "bpelab.byte_training",
    "load_parallel": "bpelab.corpora",
    "read_corpus": "bpelab.corpora",
    "ExportError": "bpelab.export",
    "PATTERNS": "bpelab.patterns",
    "split_text": "bpelab.patterns",
    "ENCODING_NAMES": "bpelab.production",
    "from_tiktoken": "bpelab.production",
    "llama3_encoding": "bpelab.production",
    "load_encoding": "bpelab.production",
    "mergeable_ranks": "bpelab.production",
    "recover_merges": "bpelab.production",
    "TokenizerFileError": "bpelab.saving",
    "SentencePieceBPE": "bpelab.sentencepiece",
    "load_sentencepiece": "bpelab.sentencepiece",
    "train_sentencepiece_bpe": "bpelab.sentencepiece_training",
    "load_tekken": "bpelab.tekken",
    "tekken_encoding": "bpelab.tekken",
    "CharTokenizer": "bpelab.text",
    "byte_count": "bpelab.text",
    "TokenizerDataError": "bpelab.vocab_files",
    "encode_wordpiece": "bpelab.wordpiece",
    "train_wordpiece": "bpelab.wordpiece",
    "END_OF_WORD": "bpelab.words",
    "count_pairs": "bpelab.words",
    "decode_words": "bpelab.words",
    "encode_word": "bpelab.words",
    "get_word_frequencies": "bpelab.words",
    "merge_pair": "bpelab.words",
    "train_bpe": "bpelab.words",
}

__all__ = [
    "ENCODING_NAMES",
    "END_OF_WORD",
    "PATTERNS",
    "BPETokenizer",
    "CharTokenizer",
    "ExportError",
    "SentencePieceBPE",
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
    "load_sentencepiece",
    "load_tekken",
    "merge_pair",
    "mergeable_ranks",
    "read_corpus",
    "recover_merges",
    "replay_word",
    "split_text",
    "tekken_encoding",
    "token_tax",
    "train_bpe",
    "train_sentencepiece_bpe",
    "train_wordpiece",
]


__getattr__, __dir__ = lazy_names("bpelab", _HOMES, globals())
