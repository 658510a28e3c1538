"""Tekken through the course's byte-level encoder: the same ranks as tiktoken with Tekken's ranks and pattern.

mistral-common itself cannot be installed beside the course's pins (1.13.1 requires numpy < 2.4, the pins have
2.4.6), so the independent implementation is tiktoken, given the ranks and pattern mistral-common hands it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.corpora import load_parallel, read_corpus
from bpelab.course import tokenizer_data
from bpelab.tekken import (
    TEKKEN_PATTERN,
    TEKKEN_SPECIAL_TOKENS,
    TekkenFileError,
    check_pattern,
    load_tekken,
    mistral_ids,
    ranks_file,
    read_tekken_json,
    tekken_encoding,
)
from bpelab.vocab_files import (
    SENTENCEPIECE_SOURCES,
    TEKKEN_RANKS_SHA256,
    TEKKEN_SOURCE,
    TokenizerDataError,
    sentencepiece_path,
    sentencepiece_status,
    sha256_of,
    tekken_path,
)
from tests.agreement_corpus import TRICKY


def test_the_stored_ranks_are_the_pinned_file():
    assert sha256_of(tekken_path()) == TEKKEN_RANKS_SHA256
    encoding = tekken_encoding()
    assert encoding.n_vocab == 131_072 - TEKKEN_SPECIAL_TOKENS
    assert encoding._pat_str == TEKKEN_PATTERN


def test_hand_checked_pieces():
    """Tekken's pattern gives every digit a piece of its own, and keeps a space in front of a word."""
    tekken = load_tekken()
    pieces = [tekken.vocab[i] for i in tekken.encode_ordinary("Hello world 2024")]
    assert pieces == [b"Hello", b" world", b" ", b"2", b"0", b"2", b"4"]
    assert mistral_ids([0, 5]) == [1000, 1005]


def test_identical_ids_on_the_course_texts():
    tekken, reference = load_tekken(), tekken_encoding()
    texts = [line for lines in load_parallel().values() for line in lines] + TRICKY
    texts += [read_corpus(name) for name in ("english_heldout", "code")]
    for text in texts:
        assert tekken.encode_ordinary(text) == reference.encode_ordinary(text), text[:60]


SCRIPTS = "abcXYZ éñ日本語Жя한국ةع்கமுதி\u0301\u200d\u200c👍🏽🇫🇷"
PIECES = st.one_of(
    st.text(st.sampled_from(SCRIPTS + " \t\n\r0123456789٠١२'/-.,!?"), max_size=12),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=6),
    st.sampled_from([" " * 7, "\n\n  ", "I'M", "don't", "https://x.org/a/b", "1,234.50", "  \t\n"]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=8).map("".join))
def test_identical_ids_on_generated_text_in_every_script(text):
    tekken, reference = load_tekken(), tekken_encoding()
    ids = tekken.encode_ordinary(text)
    assert ids == reference.encode_ordinary(text)
    assert tekken.decode(ids) == text


def small_json(**config_changes) -> dict:
    """A Tekken JSON of 258 tokens (the 256 bytes, "ab", "abc") and 2 special tokens."""
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b"abc"]
    vocab = [{"rank": i, "token_bytes": base64.b64encode(t).decode(), "token_str": ""} for i, t in enumerate(tokens)]
    config = {"pattern": r"\w+| ", "default_vocab_size": 259, "default_num_special_tokens": 2, **config_changes}
    return {"config": config, "vocab": vocab}


def test_reading_keeps_the_ranks_the_config_keeps():
    vocab = read_tekken_json(json.dumps(small_json()).encode())
    assert len(vocab.ranks) == 257  # 259 - 2 special: "abc" is cut, as mistral-common cuts it
    assert vocab.ranks[b"ab"] == 256 and b"abc" not in vocab.ranks
    assert ranks_file(vocab).splitlines()[256] == b"YWI= 256"
    with pytest.raises(TekkenFileError, match="pinned"):
        check_pattern(vocab)


@pytest.mark.parametrize(
    "damage, words",
    [
        (lambda d: d.pop("config"), "needs 'config'"),
        (lambda d: d["vocab"][3].update(rank=4), "in order"),
        (lambda d: d["vocab"][256].update(token_bytes="!!"), "base64"),
        (lambda d: d["vocab"].__delitem__(slice(200, None)), "fewer than"),
    ],
)
def test_a_damaged_json_is_refused_with_the_reason(damage, words):
    data = small_json()
    damage(data)
    with pytest.raises(TekkenFileError, match=words):
        read_tekken_json(json.dumps(data).encode())


def test_setup_refuses_a_json_that_is_not_the_pinned_one(tmp_path, monkeypatch):
    wheel = tmp_path / "mistral_common-1.13.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(TEKKEN_SOURCE.member, json.dumps(small_json()))
    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(tokenizer_data, "_pip_download", lambda requirement, folder, binary: wheel)
    with pytest.raises(TokenizerDataError, match="not the pinned"):
        tokenizer_data.prepare_tekken(log=lambda line: None)
    assert not list(tmp_path.rglob("tekken.tiktoken"))  # nothing written


def test_setup_builds_the_pinned_ranks_from_the_pinned_json(tmp_path, monkeypatch):
    """The real JSON is not kept; rebuild the part of it the course reads from the stored ranks and check the
    ranks file comes out byte for byte (the JSON's own sha256 check is bypassed for this rebuilt file)."""
    ranks = tekken_path().read_bytes().splitlines()
    vocab = [{"rank": i, "token_bytes": line.split()[0].decode(), "token_str": ""} for i, line in enumerate(ranks)]
    config = {"pattern": TEKKEN_PATTERN, "default_vocab_size": 131_072, "default_num_special_tokens": 1_000}
    rebuilt = json.dumps({"config": config, "vocab": vocab}).encode()
    wheel = tmp_path / "mistral_common-1.13.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(TEKKEN_SOURCE.member, rebuilt)
    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(tokenizer_data, "_pip_download", lambda requirement, folder, binary: wheel)
    monkeypatch.setattr(tokenizer_data, "TEKKEN_JSON_SHA256", hashlib.sha256(rebuilt).hexdigest())
    said: list[str] = []
    tokenizer_data.prepare_tekken(log=said.append)
    assert sha256_of(Path(tmp_path / "data" / "tokenizers" / "tekken.tiktoken")) == TEKKEN_RANKS_SHA256
    said.clear()
    tokenizer_data.prepare_tekken(log=said.append)  # a second run only checks
    assert said == ["Tekken ready: ok"]


def test_one_setup_run_downloads_mistral_common_once(tmp_path, monkeypatch):
    """The SentencePiece models and Tekken live in one wheel: a first `make data` fetches it once, then removes it."""
    ranks = tekken_path().read_bytes().splitlines()
    vocab = [{"rank": i, "token_bytes": line.split()[0].decode(), "token_str": ""} for i, line in enumerate(ranks)]
    config = {"pattern": TEKKEN_PATTERN, "default_vocab_size": 131_072, "default_num_special_tokens": 1_000}
    rebuilt = json.dumps({"config": config, "vocab": vocab}).encode()
    wheel = tmp_path / "mistral_common-1.13.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(TEKKEN_SOURCE.member, rebuilt)
        for name, source in SENTENCEPIECE_SOURCES.items():
            archive.writestr(source.member, sentencepiece_path(name).read_bytes())
    asked: list[str] = []

    def download(requirement: str, folder: Path, binary: bool) -> Path:
        asked.append(requirement)
        assert folder.is_dir()
        return wheel

    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(tokenizer_data, "_pip_download", download)
    monkeypatch.setattr(tokenizer_data, "prepare", lambda log=print: None)  # the tiktoken files are not this test's
    monkeypatch.setattr(tokenizer_data, "TEKKEN_JSON_SHA256", hashlib.sha256(rebuilt).hexdigest())
    assert tokenizer_data.main() == 0
    assert asked == ["mistral-common==1.13.1"]
    assert sentencepiece_status() == {name: "ok" for name in SENTENCEPIECE_SOURCES}
    assert sha256_of(tmp_path / "data" / "tokenizers" / "tekken.tiktoken") == TEKKEN_RANKS_SHA256
    assert not (tmp_path / "data" / "tokenizers" / "downloads").exists()
