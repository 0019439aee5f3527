"""JAX releases on the package index, and the interpreter to verify each one with."""

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


def _files(project: str) -> list[dict]:
    return [f for f in index_files(project) if not f.get("yanked")]


def _linux_wheels(project: str, version: Version) -> list[str]:
    """The CPython tags ("cp312") of a release's Linux x86-64 wheels."""
    tags = set()
    for file in _files(project):
        if not file["filename"].endswith(".whl"):
            continue
        _, wheel_version, _, wheel_tags = parse_wheel_filename(file["filename"])
        if wheel_version != version:
            continue
        for tag in wheel_tags:
            if "x86_64" in tag.platform and "linux" in tag.platform:
                tags.add(tag.interpreter)
            elif tag.platform == "any":
                tags.add("any")
    return sorted(tags)


def published(project: str = "jax") -> list[Version]:
    """Every final release of ``project`` with a wheel, oldest first."""
    found = set()
    for file in _files(project):
        if file["filename"].endswith(".whl"):
            try:
                version = parse_wheel_filename(file["filename"])[1]
            except InvalidVersion:
                continue
            if not version.is_prerelease and not version.is_devrelease:
                found.add(version)
    return sorted(found)


def released_on(project: str, version: Version) -> str:
    """When the last file of a release was uploaded (ISO 8601)."""
    times = [
        f["upload-time"]
        for f in _files(project)
        if f["filename"].endswith(".whl") and parse_wheel_filename(f["filename"])[1] == version
    ]
    return max(times)


def newest_jax() -> Version:
    return published("jax")[-1]


def chosen(asked: list[str]) -> list[Version]:
    """The releases named in ``asked`` (each one checked), and the newest, oldest first."""
    return sorted({require(text) for text in asked} | {newest_jax()})


def require(text: str) -> Version:
    """The JAX release ``text`` names; an error if it is no version, or no release on the index."""
    try:
        version = Version(text)
    except InvalidVersion:
        raise JaxwaitsError(f"{text!r} is not a version number (e.g. 0.4.30)") from None
    known = published("jax")
    if version not in known:
        near = [str(v) for v in known if v.major == version.major and v.minor == version.minor]
        hint = (
            f"releases of {version.major}.{version.minor}: {', '.join(near)}"
            if near
            else (f"releases run from {known[0]} to {known[-1]}")
        )
        raise JaxwaitsError(f"jax {text} is not a release on {index_url()} ({hint})")
    return version


def has_jaxlib(version: Version) -> bool:
    """Whether jaxlib was released with the same number (not every jax release was)."""
    return version in published("jaxlib")


def interpreter_for(version: Version) -> tuple[str, str]:
    """(Python version, interpreter path) to verify JAX ``version`` with: the newest Python that
    has a jaxlib wheel for it and is installed here. Raises if there is none."""
    jaxlib = version if has_jaxlib(version) else max(v for v in published("jaxlib") if v <= version)
    supported = [f"3.{tag[3:]}" for tag in _linux_wheels("jaxlib", jaxlib) if tag.startswith("cp3")]
    for python in PYTHONS:
        if python in supported and (path := find_python(python)):
            return python, path
    raise LookupError(
        f"no interpreter here for jax {version}: jaxlib {jaxlib} has Linux wheels for Python "
        f"{', '.join(sorted(supported)) or 'none'}, and none of those is installed"
    )
