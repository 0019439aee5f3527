"""The site's problems: every broken link in the chain of evidence that the facts alone show, in
one list, which ``jaxwaits claims`` prints and the build reports as warnings. (The build adds
only what a build alone knows: a claim no page rendered, a cell that failed, a release boundary
a page names in prose.)"""

from __future__ import annotations

from dataclasses import dataclass

from jaxwaits.chain.facts import Facts
from jaxwaits.claims import registry
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence.snippets import load_snippets, orphans
from jaxwaits.pieces import drift, manifest
from jaxwaits.releases import ledger, verdicts


@dataclass(frozen=True)
class Problem:
    """One problem, with where it is (``file:line``, or '' when it is a whole file's or the
    site's) and what kind it is (the build's warning subtype)."""

    message: str
    where: str
    kind: str  # claims, ledger, releases, known, pieces

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def links(facts: Facts) -> list[Problem]:
    """Claims, references, snippets and files that do not hold together."""
    names = {s.name for s in load_snippets(facts.project.snippets)}
    found = [Problem(p.message, p.where, "claims") for p in registry.check(facts.registry, names)]
    releases = {v.platform.jax for v in facts.ledger}
    found += [Problem(p, "", "claims") for p in orphans(facts.project.snippets, releases)]
    return found


def judged(facts: Facts, python: str) -> list[Problem]:
    """What the ledger, the known differences and the vendored pieces (checked against the JAX
    that ``python`` has) say is wrong."""
    found = [Problem(p, "", "ledger") for p in facts.unreadable]
    for claim in sorted(facts.registry.claims.values(), key=lambda c: c.id):
        where = registry.Problem(claim.file, claim.line, "").where
        found += [
            Problem(p, where, "releases")
            for p in verdicts.release_problems(claim, facts.verdicts[claim.id])
        ]
    found += [
        Problem(p, "", "known")
        for p in verdicts.unclassified(facts.judge, facts.registry.claims.values())
    ]
    pieces = drift.audit(facts.project, python)
    try:
        recorded = manifest.load(facts.project.annotated_src)
    except JaxwaitsError:
        recorded = None  # the audit has named the file already
    if recorded is not None:
        folder = facts.project.relative(facts.project.verified)
        pieces += ledger.disagreements(recorded, facts.ledger, folder)
    return found + [Problem(p, "", "pieces") for p in pieces]
