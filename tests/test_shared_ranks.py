"""One copy of a production vocabulary in Python, and none while a lesson only encodes (the memory budget).

``load_encoding`` drops the Python dict tiktoken keeps beside its Rust core; the ranks read back from the core
must be the vocabulary file itself, rank for rank and in the file's order, which tiktoken's own loader reads here
independently.
"""

import gc
import pickle
import weakref

import pytest
import tiktoken
from tiktoken_ext import openai_public

from bpelab import production
from bpelab.production import (
    RanksInCore,
    from_tiktoken,
    llama3_encoding,
    load_encoding,
    mergeable_ranks,
    read_tiktoken_file,
    require,
    shared_ranks,
)


def test_the_ranks_read_back_from_the_core_are_the_files_in_order():
    for name, in_file in [
        ("r50k_base", openai_public.r50k_base()["mergeable_ranks"]),
        ("cl100k_base", openai_public.cl100k_base()["mergeable_ranks"]),
    ]:
        encoding = load_encoding(name)
        assert isinstance(encoding._mergeable_ranks, RanksInCore), "the Python dict was released"
        assert list(mergeable_ranks(encoding).items()) == list(in_file.items()), name
    assert list(shared_ranks(llama3_encoding()).items()) == list(read_tiktoken_file(require("llama3")).items())


def test_tokenizers_from_one_encoding_share_one_table_and_release_it_together():
    first, second = from_tiktoken("r50k_base"), from_tiktoken("r50k_base")
    assert first.ranks is second.ranks
    copy = mergeable_ranks("r50k_base")
    assert copy == first.ranks and copy is not first.ranks
    assert all(a is b for a, b in zip(copy, first.ranks)), "a copy holds the same token bytes, not new ones"
    holder = load_encoding("r50k_base")._mergeable_ranks
    del first, second, copy
    gc.collect()
    assert holder._held is None or holder._held() is None, "no table is kept once nothing holds it"


def test_an_encoding_with_released_ranks_still_pickles_with_a_real_dict():
    encoding = llama3_encoding()  # not in tiktoken's registry, so pickled whole (a registered one by its name)
    assert isinstance(encoding._mergeable_ranks, RanksInCore)
    again = pickle.loads(pickle.dumps(encoding))
    assert isinstance(again._mergeable_ranks, dict) and len(again._mergeable_ranks) == 128_000
    text = "Pickled encodings encode as before."
    assert again.encode(text) == encoding.encode(text)
    registered = load_encoding("r50k_base")
    assert pickle.loads(pickle.dumps(registered)).encode(text) == tiktoken.get_encoding("r50k_base").encode(text)


def test_an_encoding_is_shared_while_held_and_freed_once_nothing_holds_it(monkeypatch):
    """A lesson that compares four models in one table must not carry their vocabularies to its end
    (tiktoken's own get_encoding keeps every encoding it made until the kernel ends)."""
    monkeypatch.setattr(production, "_LOADED", weakref.WeakValueDictionary())  # not one another test still holds
    first = load_encoding("o200k_base")
    assert load_encoding("o200k_base") is first
    assert from_tiktoken("o200k_base").encoding is first
    gone = weakref.ref(first)
    del first
    gc.collect()
    assert gone() is None, "the encoding outlived everything that held it"
    again = load_encoding("o200k_base")
    assert again.encode("hello world") == tiktoken.get_encoding("o200k_base").encode("hello world")


@pytest.mark.skipif(
    "o200k_harmony" not in tiktoken.list_encoding_names(), reason="this tiktoken predates o200k_harmony"
)
def test_o200k_harmony_loads_offline_as_tiktoken_builds_it_and_is_freed_after_use():
    harmony = load_encoding("o200k_harmony")
    theirs = tiktoken.get_encoding("o200k_harmony")
    assert harmony._special_tokens == theirs._special_tokens and harmony.n_vocab == theirs.n_vocab
    text = "<|start|>user<|message|>hello<|end|>"
    assert harmony.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    gone = weakref.ref(harmony)
    del harmony
    gc.collect()
    assert gone() is None


def test_an_unknown_encoding_names_the_ones_there_are():
    with pytest.raises(ValueError, match="choose from r50k_base, cl100k_base, o200k_base, llama3, o200k_harmony"):
        load_encoding("p50k_base")
