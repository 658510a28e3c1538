"""Lesson 09's measurements: the token tax (premium) and fertility."""

import math

import pytest
import tiktoken

from bpelab import CharTokenizer, from_tiktoken
from bpelab.analysis.tax import count_words, fertility, premium_table, token_tax


class SpaceSplitter:
    """Counts one token per whitespace-separated word: easy to count by hand."""

    def encode(self, text):
        return text.split()


# Two "languages", two parallel texts each; counts below are done by eye.
#   en: "ab cd" (5 chars, 2 words)   "e" (1 char, 1 word)      -> 6 chars, 3 words
#   xx: "äbc d" (5 chars, 6 bytes)   "ee ff" (5 chars, 2 words) -> 10 chars, 11 bytes, 4 words
TOY = {"en": ["ab cd", "e"], "xx": ["äbc d", "ee ff"]}


def test_hand_counted_premiums():
    tax = token_tax(TOY, {"chars": CharTokenizer(), "words": SpaceSplitter()})
    assert list(tax.columns) == ["language", "tokenizer", "chars", "bytes", "tokens", "tokens_per_char", "premium"]
    rows = {(r.language, r.tokenizer): r for r in tax.itertuples()}
    assert len(rows) == 4

    en_chars, xx_chars = rows[("en", "chars")], rows[("xx", "chars")]
    assert (en_chars.chars, en_chars.bytes, en_chars.tokens) == (6, 6, 6)
    assert (xx_chars.chars, xx_chars.bytes, xx_chars.tokens) == (10, 11, 10)
    assert en_chars.premium == 1.0
    assert xx_chars.premium == pytest.approx(10 / 6)
    assert xx_chars.tokens_per_char == 1.0

    en_words, xx_words = rows[("en", "words")], rows[("xx", "words")]
    assert (en_words.tokens, xx_words.tokens) == (3, 4)
    assert xx_words.premium == pytest.approx(4 / 3)
    assert xx_words.tokens_per_char == pytest.approx(4 / 10)


def test_premium_is_a_ratio_of_totals_not_a_mean_of_ratios():
    # per text: 2/1 and 1/4; mean of ratios 1.125, ratio of totals 3/5
    tax = token_tax({"en": ["a", "abcd"], "xx": ["ab", "a"]}, [CharTokenizer()])
    assert tax.set_index("language").loc["xx", "premium"] == pytest.approx(3 / 5)


def test_other_reference_language():
    tax = token_tax(TOY, [CharTokenizer()], reference="xx")
    premiums = tax.set_index("language")["premium"]
    assert premiums["xx"] == 1.0
    assert premiums["en"] == pytest.approx(6 / 10)


def test_against_tiktoken_counted_independently():
    texts = {
        "en": ["The river is wide.", "Nina woke up at 7."],
        "ja": ["その川は広い。", "ニーナは7時に目を覚ました。"],
        "ru": ["Река широкая.", "Нина проснулась в 7."],
    }
    names = ["r50k_base", "cl100k_base", "o200k_base"]
    tax = token_tax(texts, names)
    for name in names:
        enc = tiktoken.get_encoding(name)
        expected = {lang: sum(len(enc.encode(t)) for t in items) for lang, items in texts.items()}
        for lang, n in expected.items():
            row = tax[(tax.language == lang) & (tax.tokenizer == name)].iloc[0]
            assert row.tokens == n
            assert row.premium == pytest.approx(n / expected["en"])
            assert row.bytes == sum(len(t.encode("utf-8")) for t in texts[lang])


class OneTokenPerCall:
    """One token whatever the text: the count is the number of encode calls."""

    def encode(self, text):
        return [0]


def test_texts_are_encoded_separately():
    tax = token_tax({"en": ["a", "b", "c"], "xx": ["ab", "c", "d"]}, [OneTokenPerCall()])
    assert tax.set_index("language")["tokens"].to_dict() == {"en": 3, "xx": 3}


def test_special_token_text_is_counted_as_text():
    enc = tiktoken.get_encoding("cl100k_base")
    text = "end <|endoftext|> here"
    tax = token_tax({"en": [text]}, ["cl100k_base"])
    assert tax.tokens[0] == len(enc.encode(text, disallowed_special=()))


def test_learner_bpe_object_and_labels():
    cl100k = from_tiktoken("cl100k_base")
    tax = token_tax(TOY, [cl100k, "cl100k_base", CharTokenizer(), CharTokenizer()])
    assert list(dict.fromkeys(tax.tokenizer)) == [
        "cl100k_base",
        "cl100k_base (2)",
        "CharTokenizer",
        "CharTokenizer (2)",
    ]
    a = tax[tax.tokenizer == "cl100k_base"].tokens.tolist()
    b = tax[tax.tokenizer == "cl100k_base (2)"].tokens.tolist()
    assert a == b


def test_single_name_and_llama3():
    tax = token_tax({"en": ["Hello world"], "de": ["Hallo Welt"]}, "llama3")
    assert set(tax.tokenizer) == {"llama3"}
    assert len(tax) == 2


def test_premium_table_keeps_input_order():
    tax = token_tax({"xx": ["abc"], "en": ["ab"]}, {"c": CharTokenizer(), "w": SpaceSplitter()})
    grid = premium_table(tax)
    assert list(grid.index) == ["xx", "en"]
    assert list(grid.columns) == ["c", "w"]
    assert grid.loc["xx", "c"] == pytest.approx(1.5)


def test_errors():
    with pytest.raises(ValueError, match="reference language 'en' is not among the languages given"):
        token_tax({"fr": ["a"], "de": ["b"]}, [CharTokenizer()])
    with pytest.raises(ValueError, match=r"not parallel.*en: 2, xx: 1"):
        token_tax({"en": ["a", "b"], "xx": ["a"]}, [CharTokenizer()])
    with pytest.raises(ValueError, match="texts_by_language is empty"):
        token_tax({}, [CharTokenizer()])
    with pytest.raises(ValueError, match="language 'xx' has no texts"):
        token_tax({"en": ["a"], "xx": []}, [CharTokenizer()])
    with pytest.raises(ValueError, match="no tokenizers given"):
        token_tax(TOY, [])
    with pytest.raises(ValueError, match="unknown tokenizer name 'gpt5'.*r50k_base, cl100k_base, o200k_base, llama3"):
        token_tax(TOY, ["gpt5"])
    with pytest.raises(TypeError, match="object with an encode.*got int, which has no encode method"):
        token_tax(TOY, [42])
    with pytest.raises(TypeError, match="expected a list of texts, got str"):
        token_tax({"en": "one text"}, [CharTokenizer()])
    with pytest.raises(TypeError, match="text 1: expected a str, got int"):
        token_tax({"en": ["a", 3]}, [CharTokenizer()])
    with pytest.raises(ValueError, match="0 tokens"):
        token_tax({"en": [""], "xx": ["a"]}, [CharTokenizer()])


def test_count_words_and_fertility_by_hand():
    assert count_words("  two   words\n") == 2
    fert = fertility(TOY, {"chars": CharTokenizer()}, spaced=["en", "xx"])
    assert list(fert.columns) == ["language", "tokenizer", "words", "tokens", "fertility"]
    rows = fert.set_index("language")
    assert (rows.loc["en", "words"], rows.loc["en", "tokens"]) == (3, 6)
    assert rows.loc["xx", "fertility"] == pytest.approx(10 / 4)


def test_fertility_skips_unspaced_languages():
    fert = fertility(TOY, [SpaceSplitter()], spaced=["en"])
    assert fert.language.tolist() == ["en"]
    assert fert.fertility[0] == 1.0
    with pytest.raises(ValueError, match="none of the languages given"):
        fertility(TOY, [SpaceSplitter()], spaced=["ja"])
    with pytest.raises(TypeError, match="list of language codes"):
        fertility(TOY, [SpaceSplitter()], spaced="en")


def test_tokens_per_char_is_nan_for_no_characters():
    tax = token_tax({"en": ["a"], "xx": [""]}, [CharTokenizer()])
    assert math.isnan(tax.set_index("language").loc["xx", "tokens_per_char"])
