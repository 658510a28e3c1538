"""bpelab: learn Byte-Pair Encoding by building it, then hold it against GPT-2, GPT-4, GPT-4o and Llama 3.

The algorithms come first (``words``, ``byte_level``, ``patterns``, ``merging``, ``production``);
the course layers (widgets, plots, exercises) sit on top and import them, never the reverse.
"""

from bpelab.byte_level import BPETokenizer, TokenizerFileError, count_pretokens
from bpelab.corpora import load_parallel, read_corpus
from bpelab.patterns import PATTERNS, split_text
from bpelab.production import ENCODING_NAMES, from_tiktoken, llama3_encoding, load_encoding, recover_merges
from bpelab.text import CharTokenizer, byte_count
from bpelab.tokenizer_data import TokenizerDataError
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
    "BPETokenizer",
    "CharTokenizer",
    "END_OF_WORD",
    "ENCODING_NAMES",
    "PATTERNS",
    "TokenizerDataError",
    "TokenizerFileError",
    "byte_count",
    "count_pairs",
    "count_pretokens",
    "decode_words",
    "encode_word",
    "from_tiktoken",
    "get_word_frequencies",
    "llama3_encoding",
    "load_encoding",
    "load_parallel",
    "merge_pair",
    "read_corpus",
    "recover_merges",
    "split_text",
    "train_bpe",
]
