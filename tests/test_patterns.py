"""The split patterns are the real tokenizers' own, and they cut text exactly where tiktoken does.

tiktoken has no public "split" function, but its ids reveal its pieces: a BPE merge never crosses
a piece boundary, so encoding each of our pieces on its own and joining the ids must give the ids
of the whole text. If we cut anywhere tiktoken does not (or miss a cut it makes), some piece's
tokens change and the two lists differ.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.patterns import ALTERNATIVES, PATTERNS, explain_split, split_text
from bpelab.production import llama3_encoding, load_encoding
from bpelab.vocab_files import tiktoken_recipe

from .agreement_corpus import tricky_text

ENCODING_OF = {"gpt2": "r50k_base", "cl100k": "cl100k_base", "o200k": "o200k_base", "llama3": "llama3"}

# Meta's Llama 3 release, llama/tokenizer.py, ``Tokenizer.pat_str`` (typed in from there, so the
# check below does not compare our constant with itself).
META_LLAMA3_PAT_STR = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k"])
def test_pattern_is_tiktokens_own_pat_str(name):
    assert PATTERNS[name] == tiktoken_recipe(ENCODING_OF[name])["pat_str"]


def test_llama3_pattern_is_metas():
    assert PATTERNS["llama3"] == META_LLAMA3_PAT_STR
    assert llama3_encoding()._pat_str == PATTERNS["llama3"]


@pytest.mark.parametrize("name", list(PATTERNS))
def test_the_standard_re_module_cannot_compile_them(name):
    # \p{L} ("any letter") is a `regex` feature; `re` stops at it. This is why bpelab uses `regex`.
    with pytest.raises(re.error, match=r"bad escape \\p"):
        re.compile(PATTERNS[name])


# Hand-checked splits: what each alternative is for, on the smallest example that shows it.
KNOWN_SPLITS = [
    ("gpt2", "don't", ["don", "'t"]),
    ("gpt2", "DON'T", ["DON", "'", "T"]),  # GPT-2's contractions are lower case only
    ("cl100k", "DON'T", ["DON", "'T"]),
    ("o200k", "don't stop", ["don't", " stop"]),  # o200k keeps the contraction on its word
    ("gpt2", "  hello", [" ", " hello"]),  # the last space goes with the word
    ("cl100k", "  hello", [" ", " hello"]),
    ("gpt2", "1234567", ["1234567"]),
    ("cl100k", "1234567", ["123", "456", "7"]),
    ("o200k", "1234567", ["123", "456", "7"]),
    ("llama3", "1234567", ["123", "456", "7"]),
    ("o200k", "getHTTPResponseCode", ["get", "HTTPResponse", "Code"]),
    ("cl100k", "getHTTPResponseCode", ["getHTTPResponseCode"]),
    ("cl100k", "foo(a,b);\n", ["foo", "(a", ",b", ");\n"]),
    ("gpt2", "foo(a,b);\n", ["foo", "(", "a", ",", "b", ");", "\n"]),
    ("gpt2", "end   ", ["end", "   "]),
]


@pytest.mark.parametrize("name, text, pieces", KNOWN_SPLITS)
def test_known_splits(name, text, pieces):
    assert split_text(text, name) == pieces


@pytest.fixture(scope="module")
def varied_text(english_sample: str) -> str:
    from bpelab.paths import data_dir

    parallel = sorted((data_dir() / "parallel").glob("*.txt"))
    code = (data_dir() / "code.txt").read_text(encoding="utf-8")[:20_000]
    return "\n".join(
        [english_sample[:20_000], code, tricky_text(20_000), *(p.read_text(encoding="utf-8") for p in parallel)]
    )


def pieces_encoded_separately(text: str, name: str) -> tuple[list[int], list[int]]:
    encoding = load_encoding(ENCODING_OF[name])
    joined = [i for piece in split_text(text, name) for i in encoding.encode_ordinary(piece)]
    return joined, encoding.encode_ordinary(text)


@pytest.mark.parametrize("name", list(PATTERNS))
def test_split_agrees_with_tiktoken_on_varied_text(name, varied_text):
    joined, whole = pieces_encoded_separately(varied_text, name)
    assert joined == whole


@pytest.mark.parametrize("name", list(PATTERNS))
@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_split_agrees_with_tiktoken_on_any_text(name, text):
    joined, whole = pieces_encoded_separately(text, name)
    assert joined == whole


# Whether a character is a letter (\p{L}) comes from the regex engine's Unicode tables. The `regex`
# package is pinned to a release whose tables match the Rust regex inside tiktoken; newer releases
# know Unicode 17 and split these characters differently (U+3D000 was found by hypothesis).
UNICODE_17_LETTERS = ["\U0003d000", "\U00010940", "\U00011db0", "\U00016ea0"]


@pytest.mark.parametrize("name", list(PATTERNS))
@pytest.mark.parametrize("char", UNICODE_17_LETTERS)
def test_regex_unicode_tables_match_tiktokens(name, char):
    for text in (char + "/A", "/" + char + "A", "a" + char + "1"):
        joined, whole = pieces_encoded_separately(text, name)
        assert joined == whole, f"split of {text!r} differs from tiktoken's: is `regex` pinned as in requirements.txt?"


@pytest.mark.parametrize("name", list(PATTERNS))
@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_explain_split_pieces_join_back_to_the_text(name, text):
    explained = explain_split(text, name)
    assert "".join(piece for piece, _ in explained) == text
    assert [piece for piece, _ in explained] == split_text(text, name)
    assert all(piece for piece, _ in explained)  # no empty pieces


def test_explain_split_names_the_alternative_that_matched():
    explained = explain_split("don't 1234567", "cl100k")
    regexes = {piece: alt.regex for piece, alt in explained}
    assert regexes["'t"] == ALTERNATIVES["cl100k"][0].regex
    assert regexes["don"] == ALTERNATIVES["cl100k"][1].regex
    assert regexes["123"] == ALTERNATIVES["cl100k"][2].regex


# Each Alternative carries an example meant to show it at work: it must really be matched by it.
@pytest.mark.parametrize(
    "name, index", [(name, index) for name, alternatives in ALTERNATIVES.items() for index in range(len(alternatives))]
)
def test_each_alternatives_example_shows_that_alternative(name, index):
    alternative = ALTERNATIVES[name][index]
    assert any(alt is alternative for _, alt in explain_split(alternative.example, name))


# ---- names, regexes and gaps (issue 9, item 2) ----------------------------------------------


def test_keep_gaps_makes_the_pieces_join_back_to_the_text():
    assert split_text("hello, world!", r"\w+") == ["hello", "world"]  # a search finds the words only
    assert split_text("hello, world!", r"\w+", keep_gaps=True) == ["hello", ", ", "world", "!"]
    assert split_text("ab12", r"(\w)\d") == ["b1"]  # whole matches, not the group (findall would give "b")
    assert split_text("ab", r"x*", keep_gaps=True) == ["ab"]  # empty matches are no pieces
    assert split_text("", r"\w+", keep_gaps=True) == []


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(list(PATTERNS)), text=st.text(st.characters(codec="utf-8")))
def test_the_real_patterns_leave_no_gaps(name, text):
    pieces = split_text(text, name)
    assert "".join(pieces) == text
    assert split_text(text, name, keep_gaps=True) == pieces


def test_names_and_regexes_are_told_apart():
    from bpelab.patterns import resolve_pattern

    assert resolve_pattern("cl100k_base") == PATTERNS["cl100k"]
    assert resolve_pattern("llama3") == PATTERNS["llama3"]
    assert resolve_pattern(r"\w+") == r"\w+"
    assert resolve_pattern(" ") == " "  # not name-like: a regex
    for typo in ["GPT2", "cl100k_bse", "gpt_2"]:
        with pytest.raises(ValueError, match=f"unknown pattern name '{typo}'"):
            split_text("hello", typo)
