"""Word-level BPE against answers checked by hand."""

import pytest

from bpelab import count_pairs, decode_words, encode_word, get_word_frequencies, merge_pair, train_bpe
from bpelab.words import best_pair, merge_symbols

CLASSIC = "low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2
CLASSIC_FIRST_SEEN_MERGES = [
    "l+o",
    "lo+w",
    "low+</w>",
    "e+s",
    "es+t",
    "est+</w>",
    "n+e",
    "ne+w",
    "new+est</w>",
    "low+e",
]
"""The classic corpus's first ten merges, counted by hand; the last: lower's three pairs and widest's three
all occur twice, and low+e is met first. The fast trainer's tests check against the same list."""


def test_word_frequencies_spell_words_with_end_marker_in_first_seen_order():
    assert get_word_frequencies("cat cat dog") == {("c", "a", "t", "</w>"): 2, ("d", "o", "g", "</w>"): 1}
    assert list(get_word_frequencies("b a b")) == [("b", "</w>"), ("a", "</w>")]
    assert get_word_frequencies("  \n\t ") == {}


def test_count_pairs_on_the_classic_corpus():
    counts = count_pairs(get_word_frequencies(CLASSIC))
    assert counts[("l", "o")] == 7
    assert counts[("o", "w")] == 7
    assert counts[("e", "s")] == 5
    assert counts[("s", "t")] == 5
    assert counts[("w", "e")] == 5  # lower (2) + newest (3)
    assert list(counts)[:3] == [("l", "o"), ("o", "w"), ("w", "</w>")]  # first-seen order


def test_merge_is_left_to_right_and_never_overlaps():
    assert merge_symbols(("a", "b", "b"), ("a", "b")) == ("ab", "b")
    assert merge_symbols(("a", "a", "a"), ("a", "a")) == ("aa", "a")
    assert merge_symbols(("a", "a", "a", "a"), ("a", "a")) == ("aa", "aa")
    corpus = {("a", "a", "a", "</w>"): 2}
    assert merge_pair(corpus, ("a", "a")) == {("aa", "a", "</w>"): 2}
    assert corpus == {("a", "a", "a", "</w>"): 2}  # the input is left alone


def test_train_bpe_classic_merges_with_first_seen_ties():
    result = train_bpe(CLASSIC, 10)
    joined = [f"{a}+{b}" for (a, b), _ in result.merges]
    assert joined == CLASSIC_FIRST_SEEN_MERGES
    assert encode_word("slowly", result.merges) == ["s", "low", "l", "y", "</w>"]


def test_steps_record_counts_before_and_corpus_after_each_merge():
    result = train_bpe(CLASSIC, 3)
    first = result.steps[0]
    assert (first.number, first.pair, first.count) == (1, ("l", "o"), 7)
    assert first.pair_counts == count_pairs(get_word_frequencies(CLASSIC))
    assert ("lo", "w", "</w>") in first.word_freq
    assert result.steps[-1].word_freq == result.word_freq
    assert [s.new_symbol for s in result.steps] == ["lo", "low", "low</w>"]


def test_lexicographic_ties_pick_the_smallest_pair():
    # ('e','s'), ('s','t'), ('t','</w>'), ('w','e') and ('low','</w>') all tie at 5 after two merges.
    assert best_pair({("s", "t"): 5, ("e", "s"): 5, ("a", "z"): 4}, "lexicographic") == ("e", "s")
    assert best_pair({("s", "t"): 5, ("e", "s"): 5}, "first") == ("s", "t")
    result = train_bpe(CLASSIC, 3, tie_break="lexicographic")
    assert [p for p, _ in result.merges] == [("l", "o"), ("lo", "w"), ("e", "s")]


def test_training_stops_early_when_no_pair_is_left():
    result = train_bpe("ab ab", 10)
    assert [new for _, new in result.merges] == ["ab", "ab</w>"]
    assert result.stopped_early
    assert train_bpe("", 5).merges == []


def test_merge_pair_adds_counts_when_two_spellings_meet():
    # "abc" spelled a|b|c once and ab|c twice: merging a+b makes both ab|c, which occurs 3 times
    merged = merge_pair({("a", "b", "c", "</w>"): 1, ("ab", "c", "</w>"): 2}, ("a", "b"))
    assert merged == {("ab", "c", "</w>"): 3}


def test_get_word_frequencies_says_it_splits_on_whitespace_on_purpose():
    assert "on purpose" in (get_word_frequencies.__doc__ or "")
    assert get_word_frequencies("world! world") == {tuple("world!") + ("</w>",): 1, tuple("world") + ("</w>",): 1}


def test_encode_word_replays_merges_in_order():
    merges = [(("l", "o"), "lo"), (("lo", "w"), "low")]
    assert encode_word("low", merges) == ["low", "</w>"]
    assert encode_word("low", merges[::-1]) == ["lo", "w", "</w>"]  # order matters
    assert decode_words(["low", "</w>", "er", "</w>"]) == "low er"


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: get_word_frequencies(42), TypeError, "must be a str"),
        (lambda: train_bpe(["low"], 3), TypeError, "must be a str"),
        (lambda: train_bpe("low", -1), ValueError, "0 or more"),
        (lambda: train_bpe("low", 2.5), TypeError, "num_merges must be an int"),
        (lambda: train_bpe("low", 2, tie_break="random"), ValueError, "tie_break must be one of"),
        (lambda: train_bpe("low", 2, method="turbo"), ValueError, "method must be"),
        (lambda: encode_word(None, []), TypeError, "word must be a str"),
        # the mistakes learners make most (issue 9, item 6): each message names the mistake and the fix
        (lambda: encode_word("low", train_bpe(CLASSIC, 3)), TypeError, "whole training result: pass result.merges"),
        (
            lambda: encode_word("low", [pair for pair, _ in train_bpe(CLASSIC, 3).merges]),
            TypeError,
            r"merge 0 is \('l', 'o'\). That is a bare pair: pass result.merges itself",
        ),
        (lambda: encode_word("low", "lo"), TypeError, "needs the learned merges"),
        (lambda: count_pairs("low lower"), TypeError, r"corpus: .* count_pairs\(get_word_frequencies\(text\)\)"),
        (lambda: count_pairs(["low", "lower"]), TypeError, "It got a list"),
        (lambda: merge_pair(get_word_frequencies("low"), ("l",)), TypeError, r"two adjacent symbols.*got \('l',\)"),
        (lambda: merge_pair("low", ("l", "o")), TypeError, "merge_pair needs a corpus"),
        (lambda: decode_words(None), TypeError, r"list of symbols such as \['low', '</w>'\].*got None"),
        (lambda: decode_words(["low", 3]), TypeError, "position 1 holds 3"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_decode_words_reads_every_four_character_end_marker_as_the_marker():
    """The limit its docstring states: a word containing '</w>' itself does not come back (lesson 02, section 6)."""
    symbols = encode_word("<w>word</w>", train_bpe("<w>word</w> " * 10, 10).merges)
    assert symbols == ["<w>word</w></w>"]
    assert decode_words(symbols) == "<w>word"
    assert decode_words(["<", "/", "w", ">", "</w>"]) == ""
    # without the four characters in any word, the words come back, one space between each
    text = "low  lower\tnewest"
    assert decode_words([s for w in text.split() for s in encode_word(w, [])]) == "low lower newest"


def test_best_pair_on_an_empty_corpus_names_the_empty_text_not_only_single_symbols():
    """A learner's corpus of "" or "   " has no words at all: the message must not only say every word is one symbol."""
    for text in ("", "   \n\t"):
        with pytest.raises(ValueError, match=r"no words at all \(is the text empty or only whitespace\?\)"):
            best_pair(count_pairs(get_word_frequencies(text)))
