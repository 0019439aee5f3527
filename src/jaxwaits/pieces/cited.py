"""The claims the vendored pieces' notes cite, each located by its upstream line's anchor."""

from __future__ import annotations

from jaxwaits.claims.registry import BrokenLink, PieceCitation
from jaxwaits.errors import JaxwaitsError
from jaxwaits.pieces import manifest, vendored
from jaxwaits.project import Project


def citations(project: Project) -> tuple[list[PieceCitation], list[BrokenLink]]:
    """Every claim cited in a vendored piece's notes, and each file that cannot be read."""
    if not project.annotated_src.is_dir():
        return [], []  # a checkout without vendored pieces
    try:
        recorded = manifest.load(project.annotated_src)
    except JaxwaitsError as error:
        return [], [BrokenLink(project.annotated_src / manifest.FILE, 1, str(error))]
    found, problems = [], []
    for name, entry in recorded.pieces.items():
        path = project.annotated_src / f"{name}{vendored.SUFFIX}"
        try:
            piece = vendored.read(path)
        except JaxwaitsError as error:
            problems.append(BrokenLink(path, 1, str(error)))
            continue
        found += [
            PieceCitation(c.claim, c.anchor, path, c.at)
            for c in vendored.citations(piece, entry.lines[0])
        ]
    return found, problems
