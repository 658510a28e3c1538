"""WordPiece: training against scores computed by hand, encoding against Hugging Face ``tokenizers``."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers

from bpelab.paths import data_dir
from bpelab.patterns import split_text
from bpelab.wordpiece import (
    MAX_CHARS_PER_WORD,
    encode_wordpiece,
    encode_wordpiece_word,
    get_wordpiece_frequencies,
    merged_symbol,
    spell_word,
    symbol_counts,
    train_wordpiece,
    wordpiece_scores,
)
from bpelab.words import count_pairs, learn_merges

CLASSIC = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
HUGS = "hug hug hug pug hugs"
WORDS = r"\w+|[^\w\s]+"  # words and runs of punctuation, like tokenizers' Whitespace pre-tokenizer


def merges_of(result):
    return [f"{a}+{b}" for (a, b), _ in result.merges]


# ---- spelling and scores ----------------------------------------------------------------------


def test_words_are_spelled_with_continuation_prefixes():
    assert spell_word("hug") == ("h", "##u", "##g")
    assert spell_word("a") == ("a",)
    assert get_wordpiece_frequencies("hug hugs hug") == {("h", "##u", "##g"): 2, ("h", "##u", "##g", "##s"): 1}
    assert get_wordpiece_frequencies(" \n ") == {}


def test_merged_symbol_drops_the_second_prefix_only():
    assert merged_symbol(("h", "##u")) == "hu"
    assert merged_symbol(("##u", "##g")) == "##ug"
    assert merged_symbol(("hu", "##g")) == "hug"


def test_scores_on_hugs_are_all_one_fifth():
    # hug x3 = h ##u ##g, pug x1 = p ##u ##g, hugs x1 = h ##u ##g ##s
    # symbols: h 4, ##u 5, ##g 5, p 1, ##s 1
    # (h,##u) 4/(4*5) = 1/5; (##u,##g) 5/(5*5) = 1/5; (p,##u) 1/(1*5) = 1/5; (##g,##s) 1/(5*1) = 1/5
    word_freq = get_wordpiece_frequencies(HUGS)
    assert symbol_counts(word_freq) == {"h": 4, "##u": 5, "##g": 5, "p": 1, "##s": 1}
    scores = wordpiece_scores(count_pairs(word_freq), word_freq)
    assert scores == {
        ("h", "##u"): Fraction(1, 5),
        ("##u", "##g"): Fraction(1, 5),
        ("p", "##u"): Fraction(1, 5),
        ("##g", "##s"): Fraction(1, 5),
    }
    assert all(isinstance(s, Fraction) for s in scores.values())


# ---- training ---------------------------------------------------------------------------------


def test_hugs_merges_by_hand():
    # 1. all four pairs tie at 1/5 (above): the first seen, h+##u, wins -> hu
    # 2. hu ##g x3, p ##u ##g, hu ##g ##s: hu 4, ##g 5, p 1, ##u 1, ##s 1
    #    (hu,##g) 4/20 = 1/5; (p,##u) 1/(1*1) = 1; (##u,##g) 1/5; (##g,##s) 1/5 -> p+##u = pu
    # 3. (hu,##g) 1/5, (pu,##g) 1/(1*5) = 1/5, (##g,##s) 1/5: a tie, first seen -> hug
    # 4. hug 4, pu 1, ##g 1, ##s 1: (pu,##g) 1/1 = 1, (hug,##s) 1/4 -> pug
    # 5. (hug,##s) 1/4 -> hugs; then every word is one symbol
    result = train_wordpiece(HUGS, 10)
    assert merges_of(result) == ["h+##u", "p+##u", "hu+##g", "pu+##g", "hug+##s"]
    assert [s.count for s in result.steps] == [Fraction(1, 5), 1, Fraction(1, 5), 1, Fraction(1, 4)]
    assert result.stopped_early
    assert result.word_freq == {("hug",): 3, ("pug",): 1, ("hugs",): 1}


def test_lexicographic_ties_take_the_smallest_pair():
    # the same four-way tie at 1/5: '#' sorts before letters, so ('##g', '##s') is the smallest pair
    result = train_wordpiece(HUGS, 1, tie_break="lexicographic")
    assert merges_of(result) == ["##g+##s"]


def test_classic_corpus_prefers_rare_parts():
    # low x5, lower x2, newest x3, widest x2. Symbols: l 7, ##o 7, ##w 10, ##e 10, ##r 2, n 3, ##s 5, ##t 5,
    # w 2, ##i 2, ##d 2. Scores: (l,##o) 7/49 = 1/7, (##o,##w) 7/70 = 1/10, (##s,##t) 5/25 = 1/5,
    # (w,##i) 2/4 = 1/2, (##i,##d) 2/4 = 1/2, (##e,##s) 5/50 = 1/10, (##w,##e) 5/100 = 1/20, ...
    # 1. w+##i (1/2, seen before ##i+##d)   2. wid: (wi,##d) 2/(2*2) = 1/2
    # 3. (wid,##e) 2/(2*10) = 1/10, so (##s,##t) 1/5 is best   4. (l,##o) 1/7
    # BPE's first merge here is l+o (7 times): WordPiece starts with the rare 'widest'.
    result = train_wordpiece(CLASSIC, 4)
    assert merges_of(result) == ["w+##i", "wi+##d", "##s+##t", "l+##o"]
    assert [s.count for s in result.steps] == [Fraction(1, 2), Fraction(1, 2), Fraction(1, 5), Fraction(1, 7)]
    first = result.steps[0]
    assert first.pair_counts[("l", "##o")] == Fraction(1, 7)  # the step records every score
    assert first.pair_counts[("##w", "##e")] == Fraction(1, 20)


def test_score_option_leaves_bpe_alone_and_records_scores():
    word_freq = get_wordpiece_frequencies(CLASSIC)
    counted = next(learn_merges(word_freq, 1, new_symbol=merged_symbol))
    scored = next(learn_merges(word_freq, 1, new_symbol=merged_symbol, score=wordpiece_scores))
    assert (counted.pair, counted.count) == (("l", "##o"), 7)
    assert counted.pair_counts == count_pairs(word_freq)
    assert (scored.pair, scored.count) == (("w", "##i"), Fraction(1, 2))


def test_vocabulary_has_unk_alphabet_and_merges_once():
    result = train_wordpiece(HUGS, 10)
    assert list(result.vocab) == ["[UNK]", "h", "##u", "##g", "p", "##s", "hu", "pu", "hug", "pug", "hugs"]
    assert list(result.vocab.values()) == list(range(11))


def test_vocab_size_stops_training_at_that_size():
    assert len(train_wordpiece(CLASSIC, vocab_size=15).vocab) == 15
    smallest = len(train_wordpiece(CLASSIC, 0).vocab)
    assert train_wordpiece(CLASSIC, vocab_size=smallest).merges == []
    assert train_wordpiece(HUGS, vocab_size=50).stopped_early
    with pytest.raises(ValueError, match="at least"):
        train_wordpiece(CLASSIC, vocab_size=3)
    with pytest.raises(ValueError, match="either num_merges or vocab_size"):
        train_wordpiece(CLASSIC, 3, vocab_size=30)
    with pytest.raises(ValueError, match="either num_merges or vocab_size"):
        train_wordpiece(CLASSIC)
    with pytest.raises(TypeError, match="str"):
        train_wordpiece(b"low", 3)


# ---- encoding ---------------------------------------------------------------------------------


def test_greedy_longest_match_first():
    vocab = {"un", "##aff", "##able", "a", "##b", "##c", "ab", "##bc"}
    assert encode_wordpiece_word("unaffable", vocab) == ["un", "##aff", "##able"]
    assert encode_wordpiece_word("abc", vocab) == ["ab", "##c"]  # 'ab' is longer than 'a', so '##bc' is never tried


def test_greedy_gives_unk_even_when_another_split_exists():
    # 'a' + '##bcd' would cover "abcd", but greedy takes 'ab' first and then nothing fits
    assert encode_wordpiece_word("abcd", {"ab", "a", "##bcd"}) == ["[UNK]"]


def test_unknown_characters_and_long_words_become_one_unk():
    vocab = {"hug", "##s", "h", "##u", "##g"}
    assert encode_wordpiece("hugs hug!", vocab) == ["hug", "##s", "[UNK]"]
    assert encode_wordpiece_word("h" + "u" * 100, vocab) == ["[UNK]"]  # 101 characters
    assert encode_wordpiece_word("h" + "u" * 99, vocab) == ["h"] + ["##u"] * 99
    assert encode_wordpiece("hugs", list(vocab)) == ["hug", "##s"]
    assert encode_wordpiece("hugs", vocab, unk_token="<unk>") == ["hug", "##s"]
    assert encode_wordpiece("zz", vocab, unk_token="<unk>") == ["<unk>"]
    with pytest.raises(TypeError, match="collection"):
        encode_wordpiece("hugs", "hug")


def test_longest_word_is_hugging_faces_default():
    """The limit follows ``tokenizers``' WordPiece default (BERT's own code allows 200: see the constant's docstring)."""
    assert MAX_CHARS_PER_WORD == models.WordPiece().max_input_chars_per_word == 100


def test_training_result_encodes_its_own_words():
    result = train_wordpiece(HUGS, 10)
    assert result.encode("hugs pug hu ug") == ["hugs", "pug", "hu", "[UNK]"]  # no word starts with 'u'


# ---- agreement with Hugging Face tokenizers ---------------------------------------------------


def hf_wordpiece(vocab: dict[str, int], pre_tokenizer) -> Tokenizer:
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tokenizer.pre_tokenizer = pre_tokenizer
    return tokenizer


@pytest.fixture(scope="module")
def trained():
    """400 WordPiece merges on 12,000 characters of the English corpus, punctuation split off."""
    text = (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:12_000]
    return train_wordpiece(" ".join(split_text(text, WORDS)), 400)


@pytest.fixture(scope="module")
def sample_text():
    heldout = (data_dir() / "english_heldout.txt").read_text(encoding="utf-8")[:6_000]
    return heldout + " Grüße naïve café 1974 KITCHEN " + "a" * 120 + " ##x #"


def test_encoding_agrees_with_tokenizers_on_whitespace_split_text(trained, sample_text):
    hf = hf_wordpiece(trained.vocab, pre_tokenizers.WhitespaceSplit())
    ours = encode_wordpiece(sample_text, trained.vocab)
    assert "[UNK]" in ours and any(t.startswith("##") for t in ours)
    assert ours == hf.encode(sample_text).tokens


def test_encoding_agrees_with_tokenizers_whitespace_pre_tokenizer(trained, sample_text):
    # tokenizers' Whitespace pre-tokenizer splits with \w+|[^\w\s]+: split the text the same way first
    hf = hf_wordpiece(trained.vocab, pre_tokenizers.Whitespace())
    ours = encode_wordpiece(" ".join(split_text(sample_text, WORDS)), trained.vocab)
    assert ours == hf.encode(sample_text).tokens


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="abc#", min_size=1, max_size=8), min_size=1, max_size=12),
    st.integers(min_value=0, max_value=15),
)
def test_encoding_agrees_with_tokenizers_on_made_up_words(words, num_merges):
    text = " ".join(words)
    vocab = train_wordpiece(" ".join(words[: len(words) // 2 + 1]), num_merges).vocab
    hf = hf_wordpiece(vocab, pre_tokenizers.WhitespaceSplit())
    assert encode_wordpiece(text, vocab) == hf.encode(text).tokens


def test_merge_stepper_shows_scores():
    from bpelab.widgets import MergeStepper

    stepper = MergeStepper(train_wordpiece(CLASSIC, 4))
    stepper.next()
    assert "'w' + '##i' -> 'wi' (score 1/2)" in stepper.render_text()
