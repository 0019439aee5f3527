"""The project's facts, read once for whoever judges them: the command line, the build and the
tests read them the same way."""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxwaits.chain import verdicts
from jaxwaits.chain.verdicts import ClaimVerdict, Elsewhere, Judge
from jaxwaits.claims import registry as pages
from jaxwaits.claims.registry import Registry
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.pieces import cited, manifest
from jaxwaits.pieces.manifest import Manifest
from jaxwaits.project import Project
from jaxwaits.releases import ledger, universe
from jaxwaits.releases.ledger import Verification
from jaxwaits.releases.universe import Universe


@dataclass(frozen=True)
class Facts:
    """What the checkout holds, and every claim's verdict on every release of the universe."""

    project: Project
    registry: Registry
    ledger: list[Verification]
    unreadable: list[str]  # ledger files that cannot be read, each named with why
    universe: Universe
    judge: Judge
    verdicts: dict[str, dict[str, ClaimVerdict]]  # claim ID -> release -> verdict (CPU)
    manifest: Manifest | None  # None when there is none, or it cannot be read
    elsewhere: dict[str, list[Elsewhere]]  # claim ID -> its verdicts on other backends

    @property
    def releases(self) -> list[str]:
        """The releases every claim's verdicts run over (the universe's), oldest first."""
        return list(next(iter(self.verdicts.values()), {}))


def registry(project: Project) -> Registry:
    """The claims and references in the pages, with the vendored pieces' citations of them (and
    any piece that cannot be read, as a problem)."""
    found = pages.scan(project)
    citations, unreadable = cited.citations(project)
    return replace(found, citations=tuple(citations), problems=(*found.problems, *unreadable))


def load(project: Project) -> Facts:
    verifications, unreadable = ledger.read(project.verified)
    recorded = None
    if (project.annotated_src / manifest.FILE).exists():
        try:
            recorded = manifest.load(project.annotated_src)
        except JaxwaitsError:  # the vendored-pieces check names the manifest
            pass
    releases = universe.of(recorded)
    found = registry(project)
    judge = verdicts.judge_for(load_snippets(project.snippets))
    table = {
        claim.id: verdicts.per_release(judge, releases, verifications, claim)
        for claim in found.claims.values()
    }
    others = {
        claim.id: verdicts.elsewhere(judge, verifications, claim) for claim in found.claims.values()
    }
    return Facts(
        project,
        found,
        verifications,
        [str(p) for p in unreadable],
        releases,
        judge,
        table,
        recorded,
        others,
    )
