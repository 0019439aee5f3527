"""The released ``jax`` wheels: the list of releases from PyPI, and a local cache of the wheels.

The wheels are pure Python (``py3-none-any``), a few MB each. They are kept under the project's
gitignored ``.cache/jax-wheels/``, checked against PyPI's SHA-256, and read without unpacking.
The release list is cached beside them, so everything but a new download works offline.
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from packaging.version import Version

from jaxwaits.releases import index_files

INDEX_FILE = "index.json"
FILL_COMMAND = "python -m jaxwaits provenance"
_TIMEOUT = 120


@dataclass(frozen=True)
class Release:
    """One ``jax`` release on PyPI and its wheel."""

    version: str
    filename: str
    url: str
    sha256: str
    yanked: bool

    @property
    def key(self) -> Version:
        return Version(self.version)


class CacheMissing(RuntimeError):
    """The cache lacks something and the network was not to be used."""


def cache_folder(root: Path) -> Path:
    """Where a checkout at ``root`` keeps its wheels."""
    return root / ".cache" / "jax-wheels"


def _from_index(files: tuple[dict, ...]) -> list[Release]:
    found: dict[str, Release] = {}
    for entry in files:
        name = entry["filename"]
        if not name.endswith("-py3-none-any.whl"):
            continue
        version = name.split("-")[1]
        found[version] = Release(
            version, name, entry["url"], entry["hashes"]["sha256"], bool(entry.get("yanked"))
        )
    return sorted(found.values(), key=lambda r: r.key)


def releases(cache: Path, first: str, *, offline: bool = False) -> list[Release]:
    """Every release from ``first`` on, oldest first (yanked ones included, and marked).

    Online, the list is fetched from PyPI and cached; offline, the cached list is used.
    """
    path = cache / INDEX_FILE
    if offline:
        if not path.exists():
            raise CacheMissing(f"no cached release list at {path}; fill it with: {FILL_COMMAND}")
        listed = [Release(**entry) for entry in json.loads(path.read_text())]
    else:
        listed = _from_index(index_files("jax"))
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([asdict(r) for r in listed], indent=1) + "\n")
    return [r for r in listed if r.key >= Version(first)]


def wheel(cache: Path, release: Release, *, offline: bool = False) -> Path:
    """The path of ``release``'s wheel in the cache, downloaded (and verified) if missing."""
    path = cache / release.filename
    if path.exists():
        return path
    if offline:
        raise CacheMissing(f"jax {release.version} is not in {cache}; fill it with: {FILL_COMMAND}")
    cache.mkdir(parents=True, exist_ok=True)
    with urllib.request.urlopen(release.url, timeout=_TIMEOUT) as answer:
        data = answer.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != release.sha256:
        raise RuntimeError(f"{release.filename}: SHA-256 {digest} is not PyPI's {release.sha256}")
    partial = path.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def read_member(wheel_path: Path, member: str) -> str | None:
    """The text of ``member`` (e.g. ``jax/_src/api.py``) in a wheel, or None if it has none."""
    with zipfile.ZipFile(wheel_path) as archive:
        try:
            data = archive.read(member)
        except KeyError:
            return None
    return data.decode("utf-8")
