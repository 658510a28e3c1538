"""Byte-level BPE: known answers, round trips, the training/encoding agreement, saving and loading."""

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import BPETokenizer, TokenizerFileError, count_pretokens
from bpelab.words import count_pairs, learn_merges

CATS = "the cat sat on the mat the cat ate the rat"


def test_first_merge_is_a_t_not_t_h():
    counts = count_pairs({tuple(CATS.encode()): 1})
    assert counts[(ord("a"), ord("t"))] == 6
    assert counts[(ord("t"), ord("h"))] == 4
    tok = BPETokenizer().train(CATS, 257)
    assert list(tok.merges) == [(ord("a"), ord("t"))]
    assert tok.vocab[256] == b"at"


def test_training_stops_when_no_pair_occurs_twice():
    with pytest.warns(UserWarning, match="short of the 266 asked for"):
        tok = BPETokenizer().train(CATS, 266)
    assert len(tok.merges) == 7
    assert tok.vocab_size == 263
    assert len(tok.encode(CATS)) == 15
    assert tok.decode(tok.encode(CATS)) == CATS


def test_byte_level_pair_counts_by_hand():
    counts = count_pairs({tuple(b"aab aab ab"): 1})
    a, b, space = ord("a"), ord("b"), ord(" ")
    assert counts == {(a, a): 2, (a, b): 3, (b, space): 2, (space, a): 2}


def test_vocab_entries_are_their_parents_bytes_joined():
    tok = BPETokenizer().train("hello hello help helmet " * 20, 300, pattern="gpt2")
    for (a, b), new in tok.merges.items():
        assert tok.vocab[new] == tok.vocab[a] + tok.vocab[b]
    assert list(tok.merges.values()) == list(range(256, 256 + len(tok.merges)))


def _final_segmentation(text, pattern):
    """Run the training loop itself and keep the corpus it ends with: pre-token -> ids."""
    counts = count_pretokens(text, pattern)
    word_freq = {tuple(piece): n for piece, n in counts.items()}
    ids = iter(range(256, 10**9))
    steps = list(learn_merges(word_freq, 150, new_symbol=lambda _p: next(ids), min_count=2))
    final = steps[-1].word_freq
    return dict(zip(counts, final))


@pytest.mark.parametrize("pattern", [None, "gpt2", "cl100k"])
def test_encoding_the_training_text_gives_the_segmentation_training_ended_with(pattern, english_sample):
    text = english_sample[:6000]
    tok = BPETokenizer().train(text, 256 + 150, pattern=pattern)
    final = _final_segmentation(text, pattern)
    for piece, ids in final.items():
        assert tok.encode_piece(piece) == list(ids), piece
    if pattern is None:
        assert tok.encode(text) == list(final[text.encode()])


def test_merges_apply_by_rank_not_left_to_right():
    """The trap the test above guards against: merging greedily from the left is not BPE."""
    tok = BPETokenizer()
    tok.merges = {(ord("b"), ord("c")): 256, (ord("a"), ord("b")): 257}  # b+c was learned first
    tok.vocab.update({256: b"bc", 257: b"ab"})
    assert tok.encode("abc") == [ord("a"), 256]  # a greedy left-to-right scan would give [257, ord("c")]
    assert tok.encode("abab") == [257, 257]


def test_special_tokens_stay_outside_the_merges():
    text = "hello world<|endoftext|>hello there<|endoftext|>" * 5
    tok = BPETokenizer().train(text, 280, special_tokens=["<|endoftext|>"])
    eot = tok.special_tokens["<|endoftext|>"]
    assert eot == tok.vocab_size - 1
    assert all(b"<|" not in tok.vocab[new] for new in tok.merges.values())
    assert tok.encode("hi<|endoftext|>", allowed_special="all")[-1] == eot
    assert eot not in tok.encode("hi<|endoftext|>", disallowed_special=())  # ordinary text
    with pytest.raises(ValueError, match="allowed_special=\\{'<\\|endoftext\\|>'\\}"):
        tok.encode("hi<|endoftext|>")  # neither allowed nor released: refused, as tiktoken refuses
    assert tok.decode(tok.encode("a<|endoftext|>b", allowed_special={"<|endoftext|>"})) == "a<|endoftext|>b"


def test_decode_replaces_a_cut_multibyte_character():
    tok = BPETokenizer()  # no merges: one id per byte
    ids = tok.encode("é")
    assert ids == [0xC3, 0xA9]
    assert tok.decode(ids[:1]) == "\ufffd"
    assert tok.decode(ids) == "é"


def test_save_then_load_gives_identical_ids(tmp_path, english_sample):
    tok = BPETokenizer().train(english_sample[:5000], 330, pattern="gpt2", special_tokens=["<|endoftext|>"])
    path = tok.save(tmp_path / "mine.bpe")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("bpelab-tokenizer v2\n") and text.endswith("\nend\n")
    assert '"' in text and "merges 73" in text  # readable: counts and token text in comments
    again = BPETokenizer.load(path)
    sample = english_sample[5000:7000] + "<|endoftext|> ünïcödé 👍"
    assert again.encode(sample, allowed_special="all") == tok.encode(sample, allowed_special="all")
    assert again.merges == tok.merges and again.vocab == tok.vocab and again.pattern == tok.pattern


V2 = "bpelab-tokenizer v2\n"
MALFORMED = {
    "wrong header": ("hello\n", "does not start with 'bpelab-tokenizer v2'"),
    "truncated": (V2 + "pattern none\nspecial_tokens 0\nmerges 2\n97 98\n", "stops after line 5, where a merge should"),
    "no end line": (V2 + "pattern none\nspecial_tokens 0\nmerges 1\n97 98\n", "stops after line 5, where the 'end'"),
    "not ids": (V2 + "pattern none\nspecial_tokens 0\nmerges 1\n97 x\nend\n", "line 5: expected two token ids"),
    "id from the future": (
        V2 + "pattern none\nspecial_tokens 0\nmerges 1\n97 300\nend\n",
        "id 300 is used before it exists",
    ),
    "pattern not JSON": (
        V2 + "pattern [unclosed\nspecial_tokens 0\nmerges 0\nend\n",
        "line 2: the pattern must be a JSON",
    ),
    "pattern not a regex": (
        V2 + 'pattern "[unclosed"\nspecial_tokens 0\nmerges 0\nend\n',
        "bad.bpe, line 2: the pattern '\\[unclosed' is not a valid regex",
    ),
    "bad count": (V2 + "pattern none\nspecial_tokens many\nmerges 0\nend\n", "must be followed by a count"),
    "extra text": (V2 + "pattern none\nspecial_tokens 0\nmerges 0\nend\n1 2\n", "line 6: unexpected text"),
    "lone surrogate special": (
        V2 + 'pattern none\nspecial_tokens 1\n"\\ud800" 256\nmerges 0\nend\n',
        "line 4: the special token .* lone surrogate",
    ),
    "v1 truncated": ("bpelab-tokenizer v1\npattern none\nspecial_tokens 0\nmerges 2\n97 98\n", "stops after line 5"),
    "pickle": ("\x80\x04\x95", "does not start with"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_files_are_rejected_with_a_clear_message(tmp_path, name):
    content, words = MALFORMED[name]
    path = tmp_path / "bad.bpe"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(TokenizerFileError, match=words):
        BPETokenizer.load(path)


def test_binary_file_is_rejected(tmp_path):
    path = tmp_path / "bad.bpe"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(TokenizerFileError, match="not UTF-8"):
        BPETokenizer.load(path)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda t: t.train("abc", 100), ValueError, "at least 256"),
        (
            lambda t: t.train("abc", 256, special_tokens=["<s>"]),
            ValueError,
            "at least 257: .* plus one per special token \\(1\\)",
        ),
        (lambda t: t.train("abc", -5), ValueError, "at least 256: .* 256 byte values"),
        (lambda t: t.train(123, 300), TypeError, "must be a str"),
        (lambda t: t.train("abc", 300, pattern="[unclosed"), ValueError, "'\\[unclosed' is not a valid regex"),
        (lambda t: t.encode(123), TypeError, "must be a str"),
        (lambda t: t.decode([65, 999999]), ValueError, "unknown token id 999999 at position 1"),
        (lambda t: t.decode("65"), TypeError, "sequence of ints"),
        (lambda t: t.decode([65.0]), TypeError, "must be ints"),
        (lambda t: t.decode([65, True]), TypeError, "position 1 holds True, a bool"),
        (lambda t: t.encode("x", disallowed_special="<|nope|>"), TypeError, "read as its characters"),
        (lambda t: t.encode("x", allowed_special={"<|nope|>"}), ValueError, "not special tokens"),
        (lambda t: t.encode("x", allowed_special="<|nope|>"), TypeError, "allowed_special must be"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call(BPETokenizer())


@pytest.fixture(scope="module")
def trained_pair(english_sample):
    return (
        BPETokenizer().train(english_sample[:8000], 400),
        BPETokenizer().train(english_sample[:8000], 400, pattern="cl100k"),
    )


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_decode_encode_round_trips_any_text(trained_pair, s):
    for tok in trained_pair:
        assert tok.decode(tok.encode(s)) == s


def test_truncated_equals_training_to_the_smaller_size(english_sample):
    text = english_sample[:6000]
    big = BPETokenizer().train(text, 400, pattern="gpt2")
    small = BPETokenizer().train(text, 300, pattern="gpt2")
    cut = big.truncated(300)
    assert cut.merges == small.merges and cut.vocab == small.vocab
    assert cut.encode(text) == small.encode(text)
    with pytest.raises(ValueError, match="between 256 and 400"):
        big.truncated(401)


# ---- public names the lessons use (issue 9, item 25) ---------------------------------------


def test_train_bytes_naive_is_public_and_counts_by_hand():
    from bpelab.byte_level import train_bytes_naive

    # "abab": a+b occurs twice, b+a once; after merging a+b into 256 the pair 256+256 occurs once: stop.
    assert train_bytes_naive({b"abab": 1}, 5) == [((97, 98), 256)]
    # weights count: "ba" three times beats "ab" once
    assert train_bytes_naive({b"ab": 1, b"ba": 3}, 1) == [((98, 97), 256)]
    assert train_bytes_naive({b"abab": 1}, 0) == []
    with pytest.raises(ValueError, match="0 or more"):
        train_bytes_naive({b"ab": 2}, -1)
    assert not hasattr(BPETokenizer, "_train_naive")


def test_cache_size_and_clear_cache():
    tok = BPETokenizer().train(CATS, 260, pattern="gpt2")
    assert tok.cache_size == 0
    tok.encode("the cat the cat")  # pieces: "the", " cat", " the", " cat": three distinct ones
    assert tok.cache_size == 3
    tok.clear_cache()
    assert tok.cache_size == 0
    with pytest.raises(AttributeError):
        tok.cache_size = 5  # type: ignore[misc]  # read-only


def test_a_very_long_piece_is_encoded_but_not_remembered():
    """A run of 100,000 spaces is one piece: its ids are right, and it does not stay in the cache (lesson 07 encodes
    999,999 spaces with four tokenizers; remembered, those pieces and ids stayed for the kernel's life)."""
    tok = BPETokenizer().train(CATS, 260, pattern="gpt2")
    spaces = " " * 100_000
    assert tok.encode_ordinary(spaces) == tok.encode_piece(spaces.encode())
    assert tok.cache_size == 0
    tok.encode_ordinary("the cat " + " " * 256 + "x")  # "the", " cat", 256 spaces, " x"
    assert tok.cache_size == 4, "pieces up to 256 characters are remembered"


# ---- tiktoken's encode contract (issue 9, item 7) -------------------------------------------


@pytest.fixture(scope="module")
def with_specials():
    return BPETokenizer().train(
        "low lower lowest <|endoftext|> newer <|sep|>" * 3, 270, special_tokens=["<|endoftext|>", "<|sep|>"]
    )


def test_special_text_is_refused_unless_allowed_or_released(with_specials):
    tok = with_specials
    eot, sep = tok.special_tokens["<|endoftext|>"], tok.special_tokens["<|sep|>"]
    text = "a<|endoftext|>b<|sep|>"
    with pytest.raises(ValueError, match="contains '<\\|endoftext\\|>'"):
        tok.encode(text)
    with pytest.raises(ValueError, match="contains '<\\|sep\\|>'"):  # the one still disallowed
        tok.encode(text, allowed_special={"<|endoftext|>"})
    ids = tok.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=())
    assert eot in ids and sep not in ids
    assert tok.encode(text, allowed_special="all").count(sep) == 1
    assert tok.encode(text, disallowed_special=()) == tok.encode_ordinary(text)
    # only the named token is checked: <|sep|> released, <|endoftext|> still refused
    with pytest.raises(ValueError, match="endoftext"):
        tok.encode(text, disallowed_special={"<|endoftext|>"})
    assert tok.encode("a<|sep|>", disallowed_special={"<|endoftext|>"}) == tok.encode_ordinary("a<|sep|>")
    assert tok.encode("no specials here") == tok.encode_ordinary("no specials here")


def test_lone_surrogates_become_the_replacement_character_as_in_tiktoken():
    tok = BPETokenizer()  # one id per byte: the ids are the UTF-8 bytes
    assert tok.encode("a\udc80") == list("a\ufffd".encode())
    assert tok.encode("\ud83d\ude00") == list("😀".encode())  # two halves of a pair: the character
    assert tok.encode_ordinary("x\ud800") == list("x\ufffd".encode())


def test_decode_accepts_any_sequence_of_ints_including_numpy():
    import numpy as np

    tok = BPETokenizer().train(CATS, 266)
    ids = tok.encode(CATS)
    assert tok.decode(np.array(ids)) == CATS
    assert tok.decode(np.array(ids, dtype=np.uint32)) == CATS
    assert tok.decode(tuple(np.int64(i) for i in ids)) == CATS
    assert tok.decode_bytes(iter(ids)) == CATS.encode()
    with pytest.raises(TypeError, match="position 0 holds .*1.5"):
        tok.decode(np.array([1.5]))


def test_unknown_id_in_a_gap_is_named():
    tok = BPETokenizer()
    tok.vocab[300] = b"x"  # ids 256 to 299 are a gap
    with pytest.raises(ValueError, match="ids 256 to 299 are a gap .* 255 \\(b'\\\\xff'\\) and 300 \\(b'x'\\)"):
        tok.decode([97, 270])
    with pytest.raises(ValueError, match="ids run from 0 to 300"):
        tok.decode([301])


# ---- special tokens given as one string; pattern names; no text lost (issue 9, items 1-2) ----


def test_one_string_is_one_special_token_never_its_characters():
    tok = BPETokenizer().train("the end<|endoftext|>the end", 270, special_tokens="<|endoftext|>")
    assert list(tok.special_tokens) == ["<|endoftext|>"]
    ids = tok.encode("the end", allowed_special="all")
    assert ids == tok.encode_ordinary("the end")  # no "<", "e", "n", "d" special tokens in there
    assert count_pretokens("a<|x|>b", None, "<|x|>") == {b"a": 1, b"b": 1}
    with pytest.raises(TypeError, match="non-empty strings"):
        BPETokenizer().train("abc", 300, special_tokens=["<s>", ""])
    with pytest.raises(TypeError, match="list of strings"):
        BPETokenizer().train("abc", 300, special_tokens=5)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["GPT2", "cl100k_bse", "words", "abc"])
def test_a_misspelled_pattern_name_is_refused(name):
    with pytest.raises(ValueError, match=f"unknown pattern name '{name}'; the names are gpt2, cl100k, o200k, llama3"):
        BPETokenizer().train("hello world", 270, pattern=name)


def test_encoding_names_are_pattern_names():
    text = "Hello world, it's 2024!"
    for encoding, name in [("r50k_base", "gpt2"), ("cl100k_base", "cl100k"), ("o200k_base", "o200k")]:
        tok = BPETokenizer().train(text * 3, 270, pattern=encoding)
        assert tok.pattern_name == name
        assert list(tok.merges) == list(BPETokenizer().train(text * 3, 270, pattern=name).merges)
    with pytest.raises(ValueError, match="Did you mean 'gpt2'"):
        BPETokenizer().train(text, 270, pattern="GPT2")


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(st.characters(codec="utf-8"), max_size=40),
    pattern=st.sampled_from([r"\w+", r"[a-z]", r"(\w)+", r"\d*", r"  #\w+|\w+|\s+", r"x|y", "gpt2", None]),
)
def test_no_pattern_loses_text(text, pattern):
    tok = BPETokenizer().train("hello, world! 12 abc  abc" * 2 + text, 280, pattern=pattern)
    assert tok.decode(tok.encode(text)) == text
    assert tok.decode(tok.encode(text + ", world!")) == text + ", world!"


def test_words_only_pattern_keeps_the_punctuation_as_pieces():
    tok = BPETokenizer().train("hello, world! " * 4, 270, pattern=r"\w+")
    assert tok.decode(tok.encode("hello, world!")) == "hello, world!"  # was "helloworld"


# ---- saving and loading: every file save writes loads back (issue 9, items 3-4) -------------


def _same(a: BPETokenizer, b: BPETokenizer) -> None:
    assert list(a.merges.items()) == list(b.merges.items())
    assert a.vocab == b.vocab
    assert a.special_tokens == b.special_tokens
    assert (a.pattern, a.pattern_name) == (b.pattern, b.pattern_name)


def test_comment_marks_inside_specials_and_patterns_survive(tmp_path):
    tok = BPETokenizer().train("ab ab #x #x  #y", 262, pattern=r"  #\w+|\w+|\s+", special_tokens=["<|a  #b|>"])
    _same(BPETokenizer.load(tok.save(tmp_path / "t.bpe")), tok)


_special = st.one_of(st.just("<|a  #b|>"), st.text(st.characters(codec="utf-8"), min_size=1, max_size=8))
_pattern = st.one_of(
    st.sampled_from([None, "gpt2", "o200k", r"  #\w+|\w+|\s+", r"\w+", "#", "\\d\n|x", '"|\\s']),
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=6).map(lambda t: regex.escape(t) + "|."),
)


@settings(max_examples=120, deadline=None)
@given(
    specials=st.lists(_special, max_size=4, unique=True),
    pattern=_pattern,
    text=st.text(st.sampled_from("ab #\n\u2028é"), max_size=40),
)
def test_every_saved_tokenizer_loads_back_identically(tmp_path_factory, specials, pattern, text):
    tok = BPETokenizer().train(text * 3, 270 + len(specials), pattern=pattern, special_tokens=specials)
    path = tok.save(tmp_path_factory.mktemp("save") / "t.bpe")
    _same(BPETokenizer.load(path), tok)


def test_a_file_cut_inside_the_last_id_is_refused(tmp_path):
    tok = BPETokenizer().train(CATS, 266)
    full = tok.save(tmp_path / "t.bpe").read_text(encoding="utf-8")
    last = full.splitlines()[-2]  # the last merge line, before "end"
    cut = full[: full.rindex(last) + len(last.split("  #")[0]) - 1]  # "32 113" becomes "32 11"
    path = tmp_path / "cut.bpe"
    path.write_text(cut, encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="cut off") as err:
        BPETokenizer.load(path)
    assert "save" not in str(err.value).lower()  # saving again cannot mend a damaged copy


def test_a_byte_order_mark_is_accepted(tmp_path):
    tok = BPETokenizer().train(CATS, 266, special_tokens=["<s>"])
    path = tok.save(tmp_path / "t.bpe")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    _same(BPETokenizer.load(path), tok)


def test_a_version_1_file_written_by_hand_still_loads(tmp_path):
    # The old format: no end line, and "  #" comments allowed on any line.
    v1 = "\n".join(
        [
            "bpelab-tokenizer v1",
            "# Byte-level BPE saved by bpelab.",
            'pattern "\\\\w+|\\\\s+"',
            "special_tokens 1",
            '"<|endoftext|>" 258',
            "merges 2",
            '97 98  # 256: "a" + "b" = "ab"',
            '256 99  # 257: "ab" + "c" = "abc"',
            "",
        ]
    )
    path = tmp_path / "old.bpe"
    path.write_text(v1, encoding="utf-8")
    tok = BPETokenizer.load(path)
    assert tok.merges == {(97, 98): 256, (256, 99): 257}
    assert tok.vocab[257] == b"abc"
    assert tok.special_tokens == {"<|endoftext|>": 258}
    assert tok.pattern == r"\w+|\s+"
    assert tok.encode("abc abc<|endoftext|>", allowed_special="all") == [257, 32, 257, 258]


def test_training_that_stops_short_says_so():
    """ "abab cd": one merge (a+b occurs twice), then no pair occurs twice: 257 ids, not the 300 asked for."""
    with pytest.warns(UserWarning, match=r"stopped at 257 ids, short of the 300 asked for"):
        tok = BPETokenizer().train("abab cd", 300)
    assert tok.vocab_size == 257 and list(tok.merges) == [(ord("a"), ord("b"))]
    assert tok.requested_vocab_size == 300 and tok.stopped_early
    assert "stopped early: 300 asked for" in repr(tok)


def test_training_that_reaches_its_size_says_nothing(recwarn):
    tok = BPETokenizer().train(CATS, 257)
    assert not tok.stopped_early and tok.requested_vocab_size == 257
    assert repr(tok) == "BPETokenizer(vocab_size=257, merges=1, pattern=none, special_tokens=0)"
    assert not [w for w in recwarn if "short of" in str(w.message)]


@pytest.mark.parametrize("parameter", ["allowed_special", "disallowed_special"])
def test_none_for_a_special_tokens_parameter_is_named(parameter):
    tok = BPETokenizer().train("abab cd", 257, special_tokens=["<|endoftext|>"])
    with pytest.raises(TypeError, match=rf"{parameter} must be .*got None"):
        tok.encode("abab", **{parameter: None})
