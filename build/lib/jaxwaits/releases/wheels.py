"""The released ``jax`` wheels: the list of releases from PyPI, and a local cache of the wheels.

The wheels are pure Python (``py3-none-any``), a few MB each. They are kept under the project's
gitignored ``.cache/jax-wheels/``, checked against PyPI's SHA-256, and read without unpacking.
The release list is cached beside them and read from there when it is, so everything but a new
download works offline; ``refresh`` fetches it anew. A cache that cannot be written (read-only)
costs a warning, not the command.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import urllib.request
import warnings
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from packaging.version import Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.files import write_atomic
from jaxwaits.releases.index import index_files

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


class CacheMissing(JaxwaitsError):
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


def _cached(path: Path) -> list[Release]:
    try:
        return [Release(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError) as error:
        raise JaxwaitsError(
            f"{path}: not a release list ({error}); {FILL_COMMAND} --refresh fetches it anew"
        ) from None


def _keep(path: Path, content: str | bytes) -> bool:
    """Write into the cache; a cache that cannot be written is a warning, not a failure."""
    try:
        write_atomic(path, content)
    except OSError as error:
        warnings.warn(f"could not write {path} ({error.strerror}); not cached", stacklevel=3)
        return False
    return True


def listed(
    cache: Path, first: str, *, offline: bool = False, refresh: bool = False
) -> list[Release]:
    """Every release from ``first`` on, oldest first (yanked ones included, and marked).

    The cached list is used when there is one, unless ``refresh``; otherwise it is fetched from
    the package index and cached. ``offline`` never fetches.
    """
    path = cache / INDEX_FILE
    if path.exists() and not refresh:
        listed = _cached(path)
    elif offline:
        raise CacheMissing(f"no cached release list at {path}; fill it with: {FILL_COMMAND}")
    else:
        listed = _from_index(index_files("jax"))
        _keep(path, json.dumps([asdict(r) for r in listed], indent=1) + "\n")
    return [r for r in listed if r.key >= Version(first)]


def wheel(cache: Path, release: Release, *, offline: bool = False) -> Path:
    """The path of ``release``'s wheel in the cache, downloaded (and verified) if missing."""
    path = cache / release.filename
    if path.exists():
        return path
    if offline:
        raise CacheMissing(f"jax {release.version} is not in {cache}; fill it with: {FILL_COMMAND}")
    with urllib.request.urlopen(release.url, timeout=_TIMEOUT) as answer:
        data = answer.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != release.sha256:
        raise JaxwaitsError(f"{release.filename}: SHA-256 {digest} is not PyPI's {release.sha256}")
    if _keep(path, data):
        return path
    elsewhere = Path(tempfile.mkdtemp(prefix="jaxwaits-wheel-")) / release.filename
    elsewhere.write_bytes(data)
    return elsewhere


def read_member(wheel_path: Path, member: str) -> str | None:
    """The text of ``member`` (e.g. ``jax/_src/api.py``) in a wheel, or None if it has none."""
    with zipfile.ZipFile(wheel_path) as archive:
        try:
            data = archive.read(member)
        except KeyError:
            return None
    return data.decode("utf-8")
