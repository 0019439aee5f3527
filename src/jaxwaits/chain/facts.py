"""The project's facts, read once for whoever judges them."""

from __future__ import annotations

from dataclasses import replace

from jaxwaits.claims import registry as pages
from jaxwaits.claims.registry import Registry
from jaxwaits.pieces import cited
from jaxwaits.project import Project


def registry(project: Project) -> Registry:
    """The claims and references in the pages, with the vendored pieces' citations of them (and
    any piece that cannot be read, as a problem)."""
    found = pages.scan(project)
    citations, unreadable = cited.citations(project)
    return replace(found, citations=tuple(citations), problems=(*found.problems, *unreadable))
