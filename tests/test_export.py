"""The learner's tokenizer exported to tiktoken and Hugging Face gives bpelab's ids, checked by those libraries."""

import json
import warnings
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from bpelab import BPETokenizer, load_parallel
from bpelab.export import ExportError, split_regex
from bpelab.hugging_face import byte_to_char, merge_pairs
from bpelab.paths import data_dir
from bpelab.text import replace_lone_surrogates
from tests.engine_characters import KNOWN_CHARACTERS

SPECIALS = ["<|endoftext|>", "<|fim_middle|>"]
PATTERNS = ["gpt2", "cl100k", "o200k", "llama3", None, r"\p{L}+| ?\p{N}"]
NUMBERS = " ".join(f"in {year}, ${year % 97}.{year % 89:02d} or {year * 7919}" for year in range(1890, 2030))
"""Years, prices and long numbers: merges inside digit runs, where engines that read `{1,3}+` otherwise part."""


def training_text(pattern):
    """English, code and the parallel sentences of lesson 09: merges inside many scripts' multi-byte characters."""
    parallel = "\n".join(s for sentences in load_parallel().values() for s in sentences)
    english = (data_dir() / "english_train.txt").read_text(encoding="utf-8")
    code = (data_dir() / "code.txt").read_text(encoding="utf-8")
    if pattern is None:  # one piece for the whole text: keep it small, the trainer's words are long
        return english[:6_000] + parallel[:3_000] + NUMBERS[:2_000]
    return english[:40_000] + code[:10_000] + parallel + NUMBERS


@pytest.fixture(scope="module", params=PATTERNS, ids=lambda p: str(p))
def exported(request, tmp_path_factory):
    tok = BPETokenizer().train(training_text(request.param), 700, pattern=request.param, special_tokens=SPECIALS)
    path = tok.save_hf(tmp_path_factory.mktemp("hf") / "tokenizer.json")
    return tok, tok.to_tiktoken(name="learner"), Tokenizer.from_file(str(path))


PIECES = [
    "<|endoftext|>",
    "<|fim_middle|>",
    "<|endoftext",
    "😀",
    "👨‍👩‍👧",
    "👍🏽",
    "机器学习非常神奇",
    "日本語",
    "e\u0301",
    "\u0308\u0308",
    "Ελληνικά",
    "  ",
    "\n\n",
    "\r\n",
    " the",
    "'s",
    "1234567",
    "1920",
    "In 1920, it cost $1,999.99",
    "2024-11-25",
    "0123456789",
    " 12345 ",
    "\u200d",
    "x\u200dy",
    "\u0301",
    "   ",
    "\r\n\r\n",
    "\ud83d",  # a lone high surrogate
    "\udc00",  # a lone low surrogate
]
digit_runs = st.from_regex(r"[0-9]{1,12}", fullmatch=True)
texts = st.lists(
    st.one_of(st.text(KNOWN_CHARACTERS), st.sampled_from(PIECES), digit_runs, st.characters(categories=["Cs"])),
    max_size=12,
).map("".join)


@settings(max_examples=150, deadline=None)
@given(texts)
def test_tiktoken_gives_the_same_ids_on_any_text(exported, text):
    tok, encoding, _ = exported
    assert encoding.encode(text, allowed_special="all") == tok.encode(text, allowed_special="all")
    assert encoding.encode(text, disallowed_special=()) == tok.encode(text, disallowed_special=())
    assert encoding.encode_ordinary(text) == tok.encode_ordinary(text)
    some = {"<|fim_middle|>"}
    assert encoding.encode(text, allowed_special=some, disallowed_special=()) == tok.encode(
        text, allowed_special=some, disallowed_special=()
    )


@settings(max_examples=150, deadline=None)
@given(texts)
def test_tiktoken_refuses_what_bpelab_refuses(exported, text):
    tok, encoding, _ = exported
    outcomes = []
    for encode in (tok.encode, encoding.encode):
        try:
            outcomes.append(encode(text))
        except ValueError:
            outcomes.append("refused")
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0] == "refused") == any(s in text for s in SPECIALS)


@settings(max_examples=150, deadline=None)
@given(texts)
def test_hugging_face_gives_the_same_ids_and_text(exported, text):
    tok, _, hf = exported
    text = replace_lone_surrogates(text)  # tokenizers refuses a str holding a lone surrogate (TypeError)
    ids = tok.encode(text, allowed_special="all")  # tokenizers always treats added tokens as special
    assert hf.encode(text).ids == ids
    assert hf.decode(ids, skip_special_tokens=False) == tok.decode(ids) == text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 699), max_size=10))
def test_hugging_face_decodes_any_ids_as_bpelab_does(exported, ids):
    """Cut multi-byte characters included: both put U+FFFD in the same places."""
    tok, encoding, hf = exported
    assert hf.decode(ids, skip_special_tokens=False) == tok.decode(ids)
    ordinary = [i for i in ids if i < 698]
    assert encoding.decode(ordinary) == tok.decode(ordinary)


def test_held_out_text_gives_identical_ids(exported):
    tok, encoding, hf = exported
    held_out = (data_dir() / "english_heldout.txt").read_text(encoding="utf-8")[:20_000]
    ids = tok.encode(held_out)
    assert len(ids) < len(held_out.encode())  # the merges are in use
    assert encoding.encode(held_out) == ids
    assert hf.encode(held_out).ids == ids


def test_the_tokenizer_json_is_byte_level_bpe_with_pairs_of_merges(exported, tmp_path):
    tok, _, _ = exported
    content = json.loads(tok.save_hf(tmp_path).read_text(encoding="utf-8"))  # a folder gets tokenizer.json
    assert (tmp_path / "tokenizer.json").is_file()
    model = content["model"]
    assert model["type"] == "BPE" and len(model["vocab"]) == 256 + len(tok.merges)
    (a, b) = next(iter(tok.merges))
    shown = byte_to_char()
    assert merge_pairs(model["merges"])[0] == (
        "".join(shown[x] for x in tok.vocab[a]),
        "".join(shown[x] for x in tok.vocab[b]),
    )
    assert [(t["content"], t["id"], t["special"]) for t in content["added_tokens"]] == [
        (s, i, True) for s, i in tok.special_tokens.items()
    ]
    assert content["decoder"]["type"] == "ByteLevel"


def test_the_byte_table_is_gpt2s():
    """Hand-checkable entries of GPT-2's table: printable ASCII is itself, the space is Ġ, the newline Ċ."""
    table = byte_to_char()
    assert table[ord("a")] == "a" and table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[0] == "Ā"
    assert len(set(table.values())) == 256


def test_a_pattern_with_gaps_keeps_them_as_pieces():
    tok = BPETokenizer().train("cat, cat; cat!! dog... dog" * 5, 270, pattern=r"\w+")
    text = "cat,, ;dog  !"
    assert tok.to_tiktoken().encode(text) == tok.encode(text)
    assert tok.decode(tok.encode(text)) == text
    assert split_regex(None) == r"[\s\S]+"


def test_a_pattern_the_other_engine_reads_differently_is_refused():
    """Rust's regex reads `&&` in a class as an intersection; Python's regex module reads it literally."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # regex's FutureWarning about nested sets
        english = (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:30_000]
        tok = BPETokenizer().train(english, 300, pattern=r"[a-z&&[^aeiou]]+|\s+")
        with pytest.raises(ExportError, match="differently from Python's regex"):
            tok.to_tiktoken()
        with pytest.raises(ExportError, match="differently from Python's regex"):
            tok.save_hf("unused.json")
    assert not Path("unused.json").exists()


def test_a_pattern_the_other_engine_cannot_compile_is_refused(tmp_path):
    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270, pattern=r"\X")
    with pytest.raises(ExportError, match="fancy-regex"):
        tok.to_tiktoken()
    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270, pattern=r"[\w--\d]+")
    with pytest.raises(ExportError, match="Oniguruma"):
        tok.save_hf(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_a_special_token_the_byte_level_decoder_would_garble_is_refused(tmp_path):
    tok = BPETokenizer().train("the cat sat " * 10, 270, special_tokens=["<|café|>"])
    with pytest.raises(ExportError, match="garbled"):
        tok.save_hf(tmp_path)
    assert tok.to_tiktoken().encode("<|café|>", allowed_special="all") == [tok.special_tokens["<|café|>"]]
    ok = BPETokenizer().train("the cat sat " * 10, 270, special_tokens=["<|中|>"])
    hf = Tokenizer.from_file(str(ok.save_hf(tmp_path)))
    assert hf.decode(hf.encode("a<|中|>").ids, skip_special_tokens=False) == "a<|中|>"


def test_a_tokenizer_not_built_from_merges_is_refused():
    tok = BPETokenizer().train("the cat sat on the mat", 260)
    tok.vocab[257] = b"zz"  # no longer its parents' bytes joined
    with pytest.raises(ExportError, match="parents"):
        tok.to_tiktoken()
    with pytest.raises(TypeError, match="name"):
        BPETokenizer().to_tiktoken(name="")


def test_an_untrained_tokenizer_exports_the_256_bytes(tmp_path):
    tok = BPETokenizer()
    assert isinstance(tok.to_tiktoken(), tiktoken.Encoding)
    assert tok.to_tiktoken().encode("hé") == [104, 195, 169]
    hf = Tokenizer.from_file(str(tok.save_hf(tmp_path)))
    assert hf.encode("hé").ids == [104, 195, 169]


def test_tokenizers_reads_merges_written_as_pairs_or_as_one_string(tmp_path):
    """tokenizers from 0.20 writes pairs; older ones wrote (and read only) "a b" strings. Stand-ins hold no space."""
    import tokenizers
    from packaging.version import Version

    from bpelab.export import hf_json

    tok = BPETokenizer().train(
        (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:20_000], 400, pattern="gpt2"
    )
    content = hf_json(tok)
    pairs = merge_pairs(content["model"]["merges"])
    assert all(" " not in left + right for left, right in pairs)
    text = (data_dir() / "english_heldout.txt").read_text(encoding="utf-8")[:5_000]
    forms = {"strings": [f"{left} {right}" for left, right in pairs]}
    if Version(tokenizers.__version__) >= Version("0.20"):
        forms["pairs"] = [[left, right] for left, right in pairs]
    for merges in forms.values():
        content["model"]["merges"] = merges
        assert Tokenizer.from_str(json.dumps(content)).encode(text).ids == tok.encode(text)


def test_merges_are_written_as_the_installed_tokenizers_reads_them(monkeypatch):
    """tokenizers 0.19 (the oldest the course supports) cannot read pairs: it gets "a b" strings."""
    import tokenizers

    from bpelab.export import hf_json

    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270, pattern="gpt2")
    monkeypatch.setattr(tokenizers, "__version__", "0.19.1")
    old = hf_json(tok)["model"]["merges"]
    monkeypatch.setattr(tokenizers, "__version__", "0.20.0")
    new = hf_json(tok)["model"]["merges"]
    assert old == [" ".join(pair) for pair in new] and all(isinstance(pair, list) for pair in new)
    assert old[0] == "a t"  # hand-checked: "at" is in cat, sat and mat, the most frequent pair


def test_a_file_tokenizers_cannot_read_is_not_blamed_on_the_pattern(tmp_path, monkeypatch):
    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270, pattern="gpt2")

    def cannot_read(_content: str) -> Tokenizer:
        raise Exception("data did not match any variant of untagged enum ModelWrapper")

    monkeypatch.setattr(Tokenizer, "from_str", cannot_read)
    with pytest.raises(ExportError, match="could not read the tokenizer.json") as caught:
        tok.save_hf(tmp_path / "tokenizer.json")
    assert "Oniguruma" not in str(caught.value) and "ModelWrapper" in str(caught.value)
