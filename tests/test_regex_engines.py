"""One pattern in three regex engines: Python's regex (bpelab), tiktoken's fancy-regex, tokenizers' Oniguruma.

The course's four patterns must cut every text alike in all three once written for Oniguruma; a pattern of
the learner's own on which they disagree is refused by the export, naming the first text they cut apart.
"""

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, pre_tokenizers

from bpelab import BPETokenizer
from bpelab.export import ExportError, split_regex
from bpelab.patterns import PATTERNS, split_text
from bpelab.regex_engines import (
    first_disagreement,
    for_oniguruma,
    probe_texts,
    split_with_tiktoken,
    split_with_tokenizers,
)
from tests.engine_characters import KNOWN_CHARACTERS


def oniguruma_split(pattern: str, text: str) -> list[str]:
    """Straight from tokenizers, independent of bpelab's helpers."""
    return [piece for piece, _ in pre_tokenizers.Split(Regex(pattern), "isolated").pre_tokenize_str(text)]


def test_oniguruma_reads_gpt4s_digits_otherwise_and_the_rewrite_fixes_it():
    """The bug itself, by hand: "1920" is "192" + "0" in Python's regex and in GPT-4's own tiktoken encoding."""
    cl100k = PATTERNS["cl100k"]
    assert regex.findall(cl100k, "1920") == ["192", "0"]
    assert oniguruma_split(cl100k, "1920") == ["1920"]  # Oniguruma: (\p{N}{1,3})+
    assert oniguruma_split(for_oniguruma(cl100k), "1920") == ["192", "0"]
    gpt4 = tiktoken.get_encoding("cl100k_base")
    assert [gpt4.decode([i]) for i in gpt4.encode("1920")] == ["192", "0"]


@pytest.mark.parametrize(
    ("pattern", "written"),
    [
        (r"\p{N}{1,3}+", r"(?>\p{N}{1,3})"),
        (r"a{2}+|b{2,}+", r"(?>a{2})|(?>b{2,})"),
        (r"[\]x{]{1,2}+", r"(?>[\]x{]{1,2})"),
        (r"(ab){1,2}+c", r"(?>(ab){1,2})c"),
        (r"\d{1,3}|x{2,3}?", r"\d{1,3}|x{2,3}?"),  # greedy and lazy intervals mean the same everywhere: kept
        (r"x{2}?", r"x{2}"),  # Oniguruma reads x{2}? as (x{2})?
        (r"\p{L}++|\s++|x*+y", r"\p{L}++|\s++|x*+y"),  # ++ and *+ are possessive in Oniguruma too: kept
    ],
)
def test_possessive_intervals_become_atomic_groups(pattern, written):
    assert for_oniguruma(pattern) == written
    for text in ["1920", "aaaaa bbb", "x]]{{x", "ababababc", "xxx 12345", "x xx xxx"]:
        assert oniguruma_split(for_oniguruma(split_regex(pattern)), text) == split_text(text, pattern, keep_gaps=True)


NASTY = [
    "1920", "19201920", "$1,999.99", "0123456789", "٣٤٥٦", "x²³",
    "\u200d", "👨\u200d👩\u200d👧", "👍🏽", "e\u0301\u0301", "\u0308", "a\u200db",
    "\r\n", "\r", "\n\n", "    ", "\t", "\u00a0", "\u3000",
    "don't", "DON'T", "CamelCase", "<|endoftext|>", "中文", "हिन्दी", "...", " ",
]  # fmt: skip
texts = st.lists(st.one_of(st.text(KNOWN_CHARACTERS, max_size=6), st.sampled_from(NASTY)), max_size=10).map("".join)


@pytest.mark.parametrize("name", list(PATTERNS))
@settings(max_examples=120, deadline=None)
@given(text=texts)
def test_the_three_engines_cut_any_text_alike_with_the_course_patterns(name, text):
    pattern = PATTERNS[name]
    ours = split_text(text, pattern, keep_gaps=True)
    assert split_with_tiktoken([text], split_regex(pattern)) == [ours]
    assert oniguruma_split(for_oniguruma(split_regex(pattern)), text) == ours


@pytest.mark.parametrize("name", list(PATTERNS))
def test_no_probe_text_is_cut_apart_by_the_course_patterns(name):
    pattern = PATTERNS[name]
    assert first_disagreement(pattern, split_regex(pattern), "tiktoken") is None
    assert first_disagreement(pattern, for_oniguruma(split_regex(pattern)), "tokenizers") is None


def test_the_probe_texts_hold_what_engines_disagree_on():
    joined = "".join(probe_texts())
    for needed in ["1920", "\u200d", "\u0301", "\r\n", "   ", "<|endoftext|>", "$12.50"]:
        assert needed in joined
    # a \w+ of the learner's own: Oniguruma's \w has no zero-width joiner; some probe text with one shows it
    with_joiner = [t for t in probe_texts() if "\u200d" in t]
    pattern = split_regex(r"\w+")
    assert any(split_with_tokenizers([t], pattern)[0] != split_text(t, r"\w+", keep_gaps=True) for t in with_joiner)


def test_a_custom_w_is_refused_by_save_hf_naming_the_text(tmp_path):
    tok = BPETokenizer().train("the cat sat on the mat, a\u200db " * 10, 270, pattern=r"\w+")
    with pytest.raises(ExportError, match=r"first probe text they split apart is '\\u200d") as caught:
        tok.save_hf(tmp_path / "tokenizer.json")
    assert "tokenizers into" in str(caught.value)
    assert not (tmp_path / "tokenizer.json").exists()
    assert tok.to_tiktoken().encode("a\u200db") == tok.encode("a\u200db")  # fancy-regex's \w agrees with regex's


def test_a_custom_pattern_with_a_possessive_interval_exports_with_the_same_ids(tmp_path):
    text = " ".join(f"{year} {year * 31}" for year in range(1900, 2000)) * 3
    tok = BPETokenizer().train(text, 400, pattern=r"\p{N}{1,2}+|\s+")
    hf = Tokenizer.from_file(str(tok.save_hf(tmp_path / "tokenizer.json")))
    for sample in ["1920", "19201920 1999", "1234567"]:
        assert hf.encode(sample).ids == tok.encode(sample) == tok.to_tiktoken().encode(sample)
