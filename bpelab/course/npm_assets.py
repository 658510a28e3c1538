"""Files the static site takes from npm packages, pinned and checked (``make html`` and its tests).

A page opened as ``file://`` loads nothing from the internet, so each script it needs is copied into
``site/_static/`` from the package's tarball, fetched once with ``npm pack`` from the npm registry
at a pinned version, checked against its published sha512 and cached in ``build/web-assets/``.
Which packages the site uses is ``site_assets.py`` (and ``tiktoken_scripts.py``); this is how.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bpelab.paths import REPO_ROOT

CACHE_DIR = REPO_ROOT / "build" / "web-assets"


@dataclass(frozen=True)
class NpmAsset:
    """Files taken from one pinned npm package: ``files`` maps a path in its tarball to a path under _static/."""

    package: str
    version: str
    integrity: str
    licence: str
    files: dict[str, str]
    folders: dict[str, str]
    """A folder in the tarball to a folder under _static/: the files directly inside are copied..."""
    folder_suffixes: tuple[str, ...] = ("",)
    """...when their names end with one of these."""

    @property
    def tarball_name(self) -> str:
        return f"{self.package.lstrip('@').replace('/', '-')}-{self.version}.tgz"


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode("ascii")


def fetch_tarball(asset: NpmAsset, cache_dir: Path = CACHE_DIR) -> Path:
    """The package's tarball from the cache, or from the npm registry with ``npm pack``; checked either way."""
    cached = cache_dir / asset.tarball_name
    if not cached.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is not installed (it fetches the page scripts once; e.g. apt-get install npm)")
        cache_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache_dir) as tmp:
            run = subprocess.run(
                [npm, "pack", f"{asset.package}@{asset.version}", "--pack-destination", tmp, "--silent"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            fetched = Path(tmp) / asset.tarball_name
            if run.returncode != 0 or not fetched.exists():
                tail = "\n".join((run.stderr or run.stdout).strip().splitlines()[-5:])
                raise RuntimeError(f"npm pack {asset.package}@{asset.version} failed:\n{tail}")
            fetched.replace(cached)
    found = _integrity(cached)
    if found != asset.integrity:
        cached.unlink()
        raise RuntimeError(f"{cached.name} is not the published file (sha512 differs); it was deleted, run again")
    return cached


def install_asset(asset: NpmAsset, static_dir: Path, cache_dir: Path = CACHE_DIR) -> None:
    """Copy the asset's files out of its (verified) tarball into ``static_dir``."""
    tarball = fetch_tarball(asset, cache_dir)
    with tarfile.open(tarball, "r:gz") as archive:
        wanted = dict(asset.files)
        for member in archive.getmembers():
            folder = str(Path(member.name).parent)
            if member.isfile() and folder in asset.folders and member.name.endswith(asset.folder_suffixes):
                wanted[member.name] = f"{asset.folders[folder]}/{Path(member.name).name}"
        for name, target in wanted.items():
            data = archive.extractfile(name)
            if data is None:
                raise RuntimeError(f"{tarball.name} has no file {name}")
            path = static_dir / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.read())
