"""Our encoder with production vocabularies must give exactly tiktoken's ids."""

import weakref

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import ENCODING_NAMES, from_tiktoken, llama3_encoding, load_encoding, production
from bpelab.production import LLAMA3_SPECIAL_TOKENS, read_tiktoken_file, recover_merges

from .agreement_corpus import agreement_corpus


@pytest.fixture(scope="module", params=ENCODING_NAMES)
def pair(request):
    return from_tiktoken(request.param), load_encoding(request.param)


@pytest.fixture(scope="module")
def corpus():
    docs = agreement_corpus()
    assert sum(len(d.encode()) for d in docs) >= 1_000_000
    return docs


def test_agrees_with_tiktoken_on_a_megabyte_of_varied_text(pair, corpus):
    ours, theirs = pair
    for doc in corpus:
        expected = theirs.encode_ordinary(doc)
        got = ours.encode(doc, disallowed_special=())
        if got != expected:
            first = next(i for i, (a, b) in enumerate(zip(got, expected)) if a != b)
            pytest.fail(
                f"{theirs.name}: first difference at token {first}: {got[first : first + 5]} vs {expected[first : first + 5]}"
            )
        assert ours.decode(got) == doc


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_agrees_with_tiktoken_on_any_text(pair, s):
    ours, theirs = pair
    ids = ours.encode(s, disallowed_special=())
    assert ids == theirs.encode_ordinary(s)
    assert ours.decode(ids) == s


def test_allowed_special_matches_tiktoken(pair):
    ours, theirs = pair
    special = "<|endoftext|>" if "<|endoftext|>" in ours.special_tokens else "<|begin_of_text|>"
    text = f"Hello{special} world {special}!"
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    assert ours.encode(text, allowed_special={special}) == theirs.encode(text, allowed_special={special})
    assert ours.encode(text, disallowed_special=()) == theirs.encode(text, disallowed_special=())
    assert ours.decode(ours.encode(text, allowed_special="all")) == text


def test_end_of_text_is_one_token_or_seven():
    ours = from_tiktoken("cl100k_base")
    assert ours.encode("<|endoftext|>", allowed_special="all") == [100257]
    as_text = ours.encode("<|endoftext|>", disallowed_special=())
    assert len(as_text) == 7 == len(tiktoken.get_encoding("cl100k_base").encode("<|endoftext|>", disallowed_special=()))


def test_llama3_encoding_has_metas_shape():
    enc = llama3_encoding()
    assert len(enc._mergeable_ranks) == 128_000
    assert enc.n_vocab == 128_256
    assert len(LLAMA3_SPECIAL_TOKENS) == 256
    assert enc.encode("<|begin_of_text|>", allowed_special="all") == [128000]
    assert enc.encode("<|eot_id|>", allowed_special="all") == [128009]
    assert enc.decode(enc.encode("Hello, world!")) == "Hello, world!"


def test_recovered_merges_rebuild_every_token_of_gpt4():
    ranks = load_encoding("cl100k_base")._mergeable_ranks
    merges = recover_merges(ranks)
    assert len(merges) == len(ranks) - 256  # every multi-byte token has two parents
    vocab = {r: t for t, r in ranks.items()}
    for (a, b), new in list(merges.items())[:5000]:
        assert vocab[a] + vocab[b] == vocab[new]
        assert a < new and b < new  # parents are learned before their child


def test_llama3_has_tokens_no_merge_reaches():
    ranks = llama3_encoding()._mergeable_ranks
    merges = recover_merges(ranks)
    unreachable = len(ranks) - 256 - len(merges)
    assert 400 < unreachable < 1000  # a public issue counted about 588 such tokens
    # ... yet tiktoken emits them, and so do we: a whole piece that is such a token is one id
    reached = set(merges.values()) | {ranks[bytes([b])] for b in range(256)}
    orphan = next(t for t, r in sorted(ranks.items(), key=lambda x: x[1]) if r not in reached)
    text = orphan.decode("utf-8", errors="ignore")
    if text and text.encode() == orphan:
        assert from_tiktoken("llama3").encode(text) == llama3_encoding().encode_ordinary(text)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: from_tiktoken("gpt5_base"), ValueError, "unknown encoding 'gpt5_base'"),
        (lambda: from_tiktoken(42), TypeError, "needs a tiktoken.Encoding"),
        (lambda: from_tiktoken("cl100k_base").decode([100261]), ValueError, "unknown token id 100261"),
    ],
)
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_mergeable_ranks_is_tiktokens_table():
    from bpelab import mergeable_ranks

    enc = load_encoding("cl100k_base")
    ranks = mergeable_ranks("cl100k_base")
    assert len(ranks) == 100_256  # n_vocab 100,277 minus the specials and the gap
    for rank in range(0, 100_256, 997):  # tiktoken's own public lookup, rank by rank
        assert ranks[enc.decode_single_token_bytes(rank)] == rank
    assert mergeable_ranks(enc) == ranks
    ranks[b"!"] = 5  # a copy: changing it leaves tiktoken's table alone
    assert mergeable_ranks(enc)[b"!"] == 0
    assert len(mergeable_ranks("llama3")) == 128_000
    with pytest.raises(TypeError, match="tiktoken.Encoding"):
        mergeable_ranks(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown encoding"):
        mergeable_ranks("gpt4")


def test_unknown_id_in_cl100ks_gap_is_named():
    ours = from_tiktoken("cl100k_base")
    with pytest.raises(KeyError):
        load_encoding("cl100k_base").decode([100256])  # tiktoken has no token there either
    with pytest.raises(ValueError, match="id 100256 is a gap .* 100255 .* 100257 \\(b'<\\|endoftext\\|>'\\)"):
        ours.decode([100256])
    with pytest.raises(ValueError, match="ids 100261 to 100275 are a gap"):
        ours.decode([100270])


def _outcome(encode, text, **kwargs):
    """The ids, or the exception type: refusals must match too."""
    try:
        return encode(text, **kwargs)
    except ValueError:
        return ValueError


# Text with everything that tests the contract: lone surrogates (hypothesis leaves them out unless
# asked), surrogate pairs written as two halves, special tokens' text and near misses of it.
_surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
_anything = st.text(st.characters(exclude_categories=()), max_size=12)
_specialish = st.sampled_from(
    ["<|endoftext|>", "<|fim_prefix|>", "<|begin_of_text|>", "<|eot_id|>", "<|endoftext", "<|"]
)


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(st.one_of(_anything, _surrogates, _specialish), max_size=6),
    allowed=st.sampled_from(["none", "all", "first"]),
    disallowed=st.sampled_from(["all", "none", "first"]),
)
def test_encode_contract_equals_tiktoken(pair, parts, allowed, disallowed):
    ours, theirs = pair
    text = "".join(parts)
    first = {sorted(theirs.special_tokens_set)[0]}
    allowed_special = {"none": set(), "all": "all", "first": first}[allowed]
    disallowed_special = {"none": (), "all": "all", "first": first}[disallowed]
    kwargs = {"allowed_special": allowed_special, "disallowed_special": disallowed_special}
    assert _outcome(ours.encode, text, **kwargs) == _outcome(theirs.encode, text, **kwargs)
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


# ---- long single pieces: cut where no token can cross, ids unchanged (issue 9, item 8) ------

# Letters only, so that the whole text is one piece under every pattern; alphabets whose letters
# often join into tokens (Russian words, Chinese words, accented Latin), so that many points
# cannot be cut, mixed with emoji (a symbol run, also one piece when alone) kept apart below.
_LETTERS = "приветмирсловоязык中国人的是一不了学生éèàüçñabcdefghijklmnopqrst"


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from(_LETTERS), min_size=600, max_size=1500))
def test_long_pieces_of_letters_equal_tiktoken(pair, text):
    ours, theirs = pair
    ours.clear_cache()
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


@settings(max_examples=30, deadline=None)
@given(st.text(st.sampled_from("😀👍🎉的🙂"), min_size=300, max_size=600), st.integers(100, 200))
def test_long_repeated_pieces_equal_tiktoken(pair, text, times):
    ours, theirs = pair
    ours.clear_cache()
    for piece in (text, text[:3] * times, "的" * (times * 10)):
        assert ours.encode_ordinary(piece) == theirs.encode_ordinary(piece)


def test_decode_takes_a_numpy_array_as_tiktoken_does(pair):
    import numpy as np

    ours, theirs = pair
    text = "Tokens in an array: 😀 的 naïve"
    ids = np.array(theirs.encode(text), dtype=np.uint32)  # what tiktoken's encode_to_numpy returns (from 0.9)
    if hasattr(theirs, "encode_to_numpy"):
        assert np.array_equal(theirs.encode_to_numpy(text), ids) and theirs.encode_to_numpy(text).dtype == ids.dtype
    assert ours.decode(ids) == theirs.decode(ids) == text
    assert ours.decode_bytes(ids.astype(np.int64)) == theirs.decode_bytes(list(ids)) == text.encode()
    with pytest.raises(TypeError, match="must be ints"):
        ours.decode(ids.astype(np.float64))


def test_a_tiktoken_file_is_read_line_by_line(tmp_path):
    """The format by hand: the token's bytes in base64, a space, its rank (" t" is "IHQ=", "hé" is "aMOp")."""
    path = tmp_path / "tiny.tiktoken"
    path.write_bytes(b"IHQ= 0\naMOp 1\n\n")
    assert read_tiktoken_file(path) == {b" t": 0, "hé".encode(): 1}


def test_a_damaged_tiktoken_file_names_its_line(tmp_path):
    path = tmp_path / "broken.tiktoken"
    path.write_bytes(b"IHQ= 0\nnot-a-rank\n")
    with pytest.raises(ValueError, match=r"broken.tiktoken, line 2.*base64.*rank"):
        read_tiktoken_file(path)


def test_llama3_does_not_need_tiktokens_file_loader(monkeypatch):
    """Before tiktoken 0.12 its loader opened local paths only through blobfile, which a learner rarely has."""

    def old_loader(*args, **kwargs):
        raise ImportError("blobfile is not installed. Please install it by running `pip install blobfile`.")

    monkeypatch.setattr(tiktoken.load, "load_tiktoken_bpe", old_loader)
    monkeypatch.setattr(production, "load_tiktoken_bpe", old_loader, raising=False)  # a name imported from it
    monkeypatch.setattr(production, "_LOADED", weakref.WeakValueDictionary())  # built again, not the one held
    enc = llama3_encoding()
    assert enc.n_vocab == 128_256
    # Llama 3's first 100,000 ranks are cl100k_base's: tiktoken's own GPT-4 encoder is the known answer
    assert enc.encode("Hello, world!") == tiktoken.get_encoding("cl100k_base").encode("Hello, world!")


def test_a_released_encodings_ranks_answer_one_lookup_without_rebuilding_the_table(monkeypatch):
    """``encoding._mergeable_ranks[token]`` (tiktoken's habit) reads the core: the same rank as tiktoken's own table,
    KeyError for a special token or a non-token, and no table rebuilt (it cost a tenth of a second per lookup)."""
    import tiktoken

    from bpelab.production import RanksInCore, load_encoding

    encoding = load_encoding("r50k_base")
    held = encoding._mergeable_ranks
    assert isinstance(held, RanksInCore)
    monkeypatch.setattr(RanksInCore, "_read_core", lambda self: pytest.fail("the whole table was rebuilt"))
    theirs = tiktoken.get_encoding("r50k_base")
    for token in (b" the", b"ing", b"\x00", b" strawberry"):
        assert held[token] == theirs._mergeable_ranks[token]
        assert token in held and held.get(token) == theirs._mergeable_ranks[token]
    for missing in (b"<|endoftext|>", b"\x00\x00\x00 no such token", "a str"):
        assert missing not in held and held.get(missing) is None
