"""The site's problems: every broken link in the chain of evidence that the facts alone show, in
one list, which ``jaxwaits claims`` prints and the build reports as warnings (:func:`links`,
:func:`evidence`); and what is wrong with what a build saw (:func:`built`), given as plain data:
a claim no page rendered, a cell that failed, a release boundary a page names."""

from __future__ import annotations

from dataclasses import dataclass

from jaxwaits.chain import backends, changes, links_out, verdicts
from jaxwaits.chain.facts import Facts
from jaxwaits.chain.notes import notes_place
from jaxwaits.chain.standing import Ran, Standing, standing
from jaxwaits.claims import registry
from jaxwaits.evidence.platform import Platform
from jaxwaits.evidence.snippets import load_snippets, orphans
from jaxwaits.pieces import drift
from jaxwaits.releases import ledger


@dataclass(frozen=True)
class Problem:
    """One problem, with where it is (``file:line``, or '' when it is a whole file's or the
    site's) and what kind it is (the build's warning subtype)."""

    message: str
    where: str
    kind: str  # claims, links, ledger, releases, boundary, backends, known, pieces

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def links(facts: Facts) -> list[Problem]:
    """Claims, references, snippets and files that do not hold together, and links to JAX's
    documentation that nobody checked."""
    names = {s.name for s in load_snippets(facts.project.snippets)}
    found = [Problem(p.message, p.where, "claims") for p in registry.check(facts.registry, names)]
    releases = {(v.platform.jax, v.platform.backend) for v in facts.ledger}
    found += [Problem(p, "", "claims") for p in orphans(facts.project.snippets, releases)]
    found += [
        Problem(message, where, "links") for where, message in links_out.problems(facts.project)
    ]
    return found


def evidence(facts: Facts, python: str | None) -> list[Problem]:
    """What the ledger, the known differences and the vendored pieces (checked against the JAX
    that ``python`` has; with None, not against any) say is wrong."""
    found = [Problem(p, "", "ledger") for p in facts.unreadable]
    for claim in sorted(facts.registry.claims.values(), key=lambda c: c.id):
        where = registry.BrokenLink(claim.file, claim.line, "").where
        found += [
            Problem(p, where, "releases")
            for p in verdicts.release_problems(claim, facts.verdicts[claim.id])
        ]
        found += [Problem(p, where, "boundary") for p in changes.statement_problems(facts, claim)]
        found += [
            Problem(p, where, "backends")
            for p in backends.problems(claim, facts.verdicts[claim.id], facts.elsewhere[claim.id])
        ]
    found += [
        Problem(p, "", "known")
        for p in verdicts.unclassified(facts.judge, facts.registry.claims.values())
    ]
    pieces = drift.audit(facts.project, python)
    if facts.manifest is not None:  # else the audit has named the file
        folder = facts.project.relative(facts.project.verified)
        pieces += ledger.disagreements(facts.manifest, facts.ledger, folder)
    return found + [Problem(p, "", "pieces") for p in pieces]


@dataclass(frozen=True)
class Boundary:
    """A release boundary a page names: cited as ``{changed-in}`release <target>``` (with a
    target) or in plain words (``target`` empty, ``words`` what the prose says)."""

    where: str  # file:line
    release: str = ""
    target: str = ""
    words: str = ""


@dataclass(frozen=True)
class ReleaseNote:
    """A release note in words: its release, the releases its ``{changed-in}`` roles cite."""

    where: str  # file:line
    release: str
    cites: tuple[str, ...]


@dataclass(frozen=True)
class Built:
    """What a build saw, which the facts alone cannot tell: the platform its snippets ran on,
    every snippet cell it ran, the claims its pages rendered, the boundaries its pages name,
    the release notes they hold."""

    platform: Platform
    ran: tuple[Ran, ...]
    rendered: frozenset[str]
    boundaries: tuple[Boundary, ...]
    notes: tuple[ReleaseNote, ...] = ()


def built(facts: Facts, seen: Built) -> list[Problem]:
    """Each claim the build shows failing or no page rendered, each boundary a page names that
    the ledger does not stand behind, and each release note that is missing (once a site has
    any), says nothing of its own release, or is written for a release where nothing changed."""
    found = []
    for claim in sorted(facts.registry.claims.values(), key=lambda c: c.id):
        where = f"{claim.file}:{claim.line}"
        shown = standing(claim, seen.ran, seen.platform, facts.elsewhere[claim.id])
        if shown.standing is Standing.FAILING:
            message = (
                f"claim {claim.id} is failing: {shown.detail}, so this site must not be published"
            )
            found.append(Problem(message, where, "claims"))
        if claim.id not in seen.rendered:
            message = (
                f"claim {claim.id} was read from its page, but no page of this build rendered it"
            )
            found.append(Problem(message, where, "claims"))
    for boundary in seen.boundaries:
        if boundary.words:
            if changes.named_boundaries(boundary.words, facts.releases):
                message = (
                    f"{boundary.words!r} names a release boundary in plain words: cite what "
                    "changed there with {changed-in}`<release> <snippet, claim or piece>`"
                )
                found.append(Problem(message, boundary.where, "boundary"))
            continue
        problem = changes.boundary_problem(facts, boundary.release, boundary.target)
        if problem:
            role = f"{{changed-in}}`{boundary.release} <{boundary.target}>`"
            found.append(Problem(f"{role}: {problem}", boundary.where, "boundary"))
    return found + _notes(facts, seen.notes)


def _notes(facts: Facts, notes: tuple[ReleaseNote, ...]) -> list[Problem]:
    said = {change.release: change for change in changes.changes(facts)}
    changed = {release for release, change in said.items() if change}
    found = []
    for note in notes:
        if note.release not in changed:
            message = f"a release note for jax {note.release}, where the ledger shows no change"
            found.append(Problem(message, note.where, "boundary"))
        elif note.release not in note.cites:
            message = (
                f"the release note for jax {note.release} cites nothing that changed there: "
                f"cite each change with {{changed-in}}`{note.release} <snippet, claim or piece>`"
            )
            found.append(Problem(message, note.where, "boundary"))
    if notes:
        written = {note.release for note in notes}
        where = notes_place(facts.project)
        for release in sorted(changed - written, key=facts.releases.index):
            change = said[release]
            what = [
                *(f"claim {cid} {a.words} → {b.words}" for cid, a, b in change.claims),
                *(f"snippet {name} prints something else" for name in change.snippets),
                *(f"piece {piece}: {how}" for piece, how in change.pieces),
            ]
            message = (
                f"jax {release}: the ledger shows changes against jax {change.previous} that no "
                f"release note says in words ({'; '.join(what)}): write a {{release-note}} "
                f"{release} above {{release-changes}} here; python -m jaxwaits release-note "
                f"{release} drafts one"
            )
            found.append(Problem(message, where, "boundary"))
    return found
