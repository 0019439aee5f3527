"""JAX releases on the package index, and the interpreter to verify each one with.

Yanked releases count: they were published, people installed them, and the ledger verifies them
like any other (marked yanked). Only "the newest release" skips them.
"""

from __future__ import annotations

import json
import os
import urllib.request
from functools import cache

from packaging.utils import parse_wheel_filename
from packaging.version import InvalidVersion, Version

from jaxwaits.errors import JaxwaitsError
from jaxwaits.releases.interpreters import find_python

PYTHONS = ("3.13", "3.12", "3.11", "3.10")  # newest first: prefer the newest a release supports
_ACCEPT = "application/vnd.pypi.simple.v1+json"


def index_url() -> str:
    """The package index uv and pip use here, PyPI unless configured otherwise."""
    for variable in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        if os.environ.get(variable):
            return os.environ[variable].rstrip("/")
    return "https://pypi.org/simple"


@cache
def index_files(project: str) -> tuple[dict, ...]:
    """Every file of ``project`` on the index (PEP 691 JSON), yanked ones included."""
    request = urllib.request.Request(f"{index_url()}/{project}/", headers={"Accept": _ACCEPT})
    with urllib.request.urlopen(request, timeout=120) as response:
        return tuple(json.load(response)["files"])


def _wheels(project: str) -> list[tuple[dict, Version]]:
    """Every wheel of ``project`` with a final-release version, yanked ones included."""
    found = []
    for file in index_files(project):
        if not file["filename"].endswith(".whl"):
            continue
        try:
            version = parse_wheel_filename(file["filename"])[1]
        except InvalidVersion:
            continue
        if not version.is_prerelease and not version.is_devrelease:
            found.append((file, version))
    return found


def _linux_wheels(project: str, version: Version) -> list[str]:
    """The CPython tags ("cp312") of a release's Linux x86-64 wheels."""
    tags = set()
    for file, wheel_version in _wheels(project):
        if wheel_version != version:
            continue
        for tag in parse_wheel_filename(file["filename"])[3]:
            if "x86_64" in tag.platform and "linux" in tag.platform:
                tags.add(tag.interpreter)
            elif tag.platform == "any":
                tags.add("any")
    return sorted(tags)


def published(project: str = "jax", *, yanked: bool = False) -> list[Version]:
    """Every final release of ``project`` with a wheel, oldest first (yanked ones if asked)."""
    return sorted(
        {version for file, version in _wheels(project) if yanked or not file.get("yanked")}
    )


def released_on(project: str, version: Version) -> str:
    """When the last file of a release was uploaded (ISO 8601)."""
    return max(file["upload-time"] for file, v in _wheels(project) if v == version)


def newest_jax() -> Version:
    return published("jax")[-1]


def require(text: str) -> Version:
    """The JAX release ``text`` names; an error if it is no version, or no release on the index."""
    try:
        version = Version(text)
    except InvalidVersion:
        raise JaxwaitsError(f"{text!r} is not a version number (e.g. 0.4.30)") from None
    known = published("jax", yanked=True)
    if version not in known:
        near = [str(v) for v in known if v.major == version.major and v.minor == version.minor]
        hint = (
            f"releases of {version.major}.{version.minor}: {', '.join(near)}"
            if near
            else f"releases run from {known[0]} to {known[-1]}"
        )
        raise JaxwaitsError(f"jax {text} is not a release on {index_url()} ({hint})")
    return version


def has_jaxlib(version: Version) -> bool:
    """Whether jaxlib was released with the same number (not every jax release was)."""
    return version in published("jaxlib", yanked=True)


def interpreter_for(version: Version) -> tuple[str, str]:
    """(Python version, interpreter path) to verify JAX ``version`` with: the newest Python that
    has a jaxlib wheel for it and is installed here. Raises if there is none."""
    jaxlibs = published("jaxlib", yanked=True)
    jaxlib = version if version in jaxlibs else max(v for v in jaxlibs if v <= version)
    supported = [f"3.{tag[3:]}" for tag in _linux_wheels("jaxlib", jaxlib) if tag.startswith("cp3")]
    for python in PYTHONS:
        if python in supported and (path := find_python(python)):
            return python, path
    raise JaxwaitsError(
        f"no interpreter here for jax {version}: jaxlib {jaxlib} has Linux wheels for Python "
        f"{', '.join(sorted(supported)) or 'none'}, and none of those is installed"
    )
