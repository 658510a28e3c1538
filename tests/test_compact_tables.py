"""A production tokenizer's ``vocab`` and ``merges`` read as the dicts a trained tokenizer keeps, in little memory.

The dicts they stand in for are built here independently: ``{rank: token}`` from tiktoken's own loader and
``recover_merges`` (the dict of pairs) on the same ranks; the memory figure is Python's own count (tracemalloc).
"""

import tracemalloc

from tiktoken_ext import openai_public

from bpelab.production import from_tiktoken, load_encoding, recover_merges, shared_ranks


def test_vocab_reads_like_the_dict_of_ids_to_bytes():
    tok = from_tiktoken("r50k_base")
    in_file = openai_public.r50k_base()["mergeable_ranks"]
    expected = {rank: token for token, rank in in_file.items()} | {50256: b"<|endoftext|>"}
    assert dict(tok.vocab) == expected and list(tok.vocab) == list(expected) and len(tok.vocab) == 50257
    assert tok.vocab[31373] == b"hello" and 50256 in tok.vocab
    for absent in (50257, -1, 10**9, "a", None):
        assert absent not in tok.vocab and tok.vocab.get(absent) is None  # type: ignore[arg-type]


def test_cl100k_ids_without_a_token_are_not_in_vocab():
    tok = from_tiktoken("cl100k_base")
    holes = [
        i for i in range(100_256, 100_257 + 20) if i not in set(shared_ranks(load_encoding("cl100k_base")).values())
    ]
    unnamed = [i for i in holes if i not in set(tok.special_tokens.values())]
    assert unnamed, "cl100k_base has ids between its ranks and its special tokens that name nothing"
    assert all(i not in tok.vocab for i in unnamed) and len(tok.vocab) == 100_256 + len(tok.special_tokens)


def test_merges_read_like_the_dict_of_recovered_pairs():
    tok = from_tiktoken("r50k_base")
    expected = recover_merges(dict(tok.ranks))
    merges = tok.merges
    assert len(merges) == len(expected) == 50_000
    assert list(merges.items()) == list(expected.items()), "the same pairs, in rank order"
    assert list(merges) == list(expected) and list(merges.values()) == list(expected.values())
    assert merges == expected and dict(merges) == expected
    pair = (tok.ranks[b" t"], tok.ranks[b"he"])  # " t" + "he" -> " the"
    assert merges[pair] == expected[pair] == tok.ranks[b" the"] and pair in merges
    for absent in [(pair[1], pair[0]), (tok.ranks[b" th"], tok.ranks[b"e"]), (0, 10**9), (-1, 0), ("a", "b"), 5]:
        assert absent not in merges and merges.get(absent) is None  # type: ignore[call-overload]
    assert tok.encode(" the other") == load_encoding("r50k_base").encode(" the other")


def test_a_gpt2_tokenizer_holds_little_beside_the_shared_ranks():
    encoding = load_encoding("r50k_base")
    ranks = shared_ranks(encoding)  # held here, so it is not counted below
    tracemalloc.start()
    try:
        tok = from_tiktoken(encoding)
        len(tok.merges)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tok.ranks is ranks
    # a dict of 50,257 ids and one of 50,000 pairs took about 8 MB; a list and two arrays take about 1 MB
    assert held < 2_000_000, f"{held / 1e6:.1f} MB held beside the ranks"
