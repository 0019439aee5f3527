"""Reading upstream text from the wheel cache in tests, offline, failing with how to fill it."""

from pathlib import Path

import pytest

from jaxwaits.pieces import upstream
from jaxwaits.pieces.manifest import Entry
from jaxwaits.project import Project
from jaxwaits.releases import wheels


def release(project: Project, version: str) -> wheels.Release:
    cache = wheels.cache_folder(project.root)
    try:
        listed = wheels.listed(cache, version, offline=True)
    except wheels.CacheMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    return next(r for r in listed if r.version == version)


def wheel(project: Project, version: str) -> Path:
    try:
        return wheels.wheel(
            wheels.cache_folder(project.root), release(project, version), offline=True
        )
    except wheels.CacheMissing as missing:
        pytest.fail(str(missing), pytrace=False)


def piece_text(
    project: Project, entry: Entry, version: str
) -> tuple[upstream.LineSpan, str] | None:
    """The span and text of ``entry``'s function in jax ``version``, from the cached wheel."""
    source = wheels.read_member(wheel(project, version), entry.file)
    if source is None:
        return None
    span = upstream.locate(upstream.parse(source, entry.file), entry.qualname)
    return (span, span.text(source)) if span else None
