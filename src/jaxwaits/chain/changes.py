"""What changed, release by release, from the ledger and the manifest; and whether a release
boundary named on the site (cited with ``{changed-in}``, in plain words, or in a claim's own
sentence) is one the ledger stands behind."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from jaxwaits.chain.facts import Facts
from jaxwaits.chain.verdicts import Verdict
from jaxwaits.claims.registry import Claim
from jaxwaits.pieces import manifest
from jaxwaits.releases.ledger import Verification

UNSURE = {Verdict.NOT_VERIFIED, Verdict.STALE, Verdict.FAILS}  # a change to or from these is none


@dataclass(frozen=True)
class Change:
    """What changed at one release, against the release before it."""

    release: str
    previous: str
    claims: tuple[tuple[str, Verdict, Verdict], ...]  # (claim ID, verdict before, at release)
    snippets: tuple[str, ...]  # snippets that printed something else
    pieces: tuple[tuple[str, str], ...]  # (piece, how its upstream text changed)

    def __bool__(self) -> bool:
        return bool(self.claims or self.snippets or self.pieces)


def _by_release(facts: Facts) -> dict[str, Verification]:
    return {
        v.platform.jax: v
        for v in facts.ledger
        if v.platform.backend == "cpu" and not v.not_installable
    }


def snippet_changed(facts: Facts, previous: str, release: str, name: str) -> bool | None:
    """Whether a snippet printed something else on ``release`` than on ``previous`` (None when
    the ledger cannot tell: a release not verified, a run that failed)."""
    entries = _by_release(facts)
    before = entries.get(previous, None)
    after = entries.get(release, None)
    if before is None or after is None:
        return None
    one, two = before.snippets.get(name), after.snippets.get(name)
    if one is None or two is None or not one.printed or not two.printed:
        return None
    return one.printed != two.printed


def piece_changes(facts: Facts) -> dict[str, list[tuple[str, str]]]:
    """Release -> each vendored piece whose upstream text changed there, and how."""
    changes: dict[str, list[tuple[str, str]]] = {}
    for name, entry in facts.manifest.pieces.items() if facts.manifest else ():
        for run in entry.history[1:]:
            if run.status is manifest.TextState.IDENTICAL:
                how = "its upstream text became the vendored one"
            elif run.status is manifest.TextState.DIFFERS:
                how = f"its upstream text changed ({run.change} against the vendored text)"
            else:
                how = run.change or "absent"
            changes.setdefault(run.first, []).append((name, how))
    return changes


def changes(facts: Facts) -> list[Change]:
    """Every release of the universe but the first, with what changed there: a claim's verdict
    counts only between two releases that were both judged (not "not verified" or "stale")."""
    pieces = piece_changes(facts)
    names = sorted({name for v in facts.ledger for name in v.snippets})
    out = []
    for previous, release in itertools.pairwise(facts.releases):
        claims = tuple(
            (cid, before, after)
            for cid in sorted(facts.verdicts)
            for before, after in [
                (facts.verdicts[cid][previous].verdict, facts.verdicts[cid][release].verdict)
            ]
            if before is not after and not {before, after} & UNSURE
        )
        printed = tuple(n for n in names if snippet_changed(facts, previous, release, n))
        out.append(Change(release, previous, claims, printed, tuple(pieces.get(release, []))))
    return out


# "from jax 0.4.32", "up to 0.4.31", "in 0.5.3": a release named as the edge of a behaviour.
# For the words that end a span ("up to", "until", "to") the boundary is the release after it.
_BOUNDARY = re.compile(
    r"\b(from|since|after|before|in|up to|until|through|to)\s+(?:jax\s+)?"
    r"(\d+\.\d+\.\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
_ENDS_A_SPAN = {"up to", "until", "through", "to", "after"}


def named_boundaries(text: str, releases: Sequence[str]) -> list[tuple[str, str]]:
    """Each boundary a sentence names in plain words, as (the words, the first release on the
    new side); a release the universe does not hold is its own boundary, and the universe's
    first release ("every release since 0.4.16") is none."""
    found = []
    for match in _BOUNDARY.finditer(text):
        word, release = match.group(1).lower(), match.group(2)
        if release in releases and word in _ENDS_A_SPAN:
            index = releases.index(release) + 1
            release = releases[index] if index < len(releases) else release
        if releases and release == releases[0]:
            continue
        found.append((match.group(0), release))
    return found


def boundary_problem(facts: Facts, release: str, target: str) -> str | None:
    """Why the ledger (or, for a vendored piece, the manifest) does not show ``target``
    changing at ``release``; None if it does."""
    releases = facts.releases
    if not target:
        return "name what changed: {changed-in}`<release> <snippet, claim or piece>`"
    if release not in releases or releases.index(release) == 0:
        return f"{release} is no release with one before it"
    previous = releases[releases.index(release) - 1]
    if target in facts.verdicts:
        before, after = facts.verdicts[target][previous], facts.verdicts[target][release]
        if before.verdict in UNSURE or after.verdict in UNSURE:
            return (
                f"claim {target} is {before.verdict.words} on jax {previous} and "
                f"{after.verdict.words} on {release}: the ledger does not establish a change"
            )
        if before.verdict is after.verdict:
            return f"claim {target} is {after.verdict.words} on both jax {previous} and {release}"
        return None
    pieces = piece_changes(facts)
    if any(name == target for names in pieces.values() for name, _ in names):
        if any(name == target for name, _ in pieces.get(release, [])):
            return None
        return f"the upstream text of piece {target} does not change at jax {release}"
    changed = snippet_changed(facts, previous, release, target)
    if changed is None:
        return (
            f"the ledger cannot tell whether {target} changed between jax {previous} and {release}"
        )
    if not changed:
        return f"{target} printed the same on jax {previous} and {release}"
    return None


def statement_problems(facts: Facts, claim: Claim) -> list[str]:
    """Each boundary a claim's own sentence names that neither its declared scope nor a change
    in its verdict or in what its evidence printed stands behind."""
    releases = list(facts.verdicts.get(claim.id, {}))
    problems = []
    for words, release in named_boundaries(claim.statement, releases):
        scope = {claim.since} | ({_after(releases, claim.until)} if claim.until else set())
        if release in scope:
            continue
        targets = (claim.id, *claim.evidence)
        if all(boundary_problem(facts, release, t) for t in targets):
            problems.append(
                f"claim {claim.id} says {words!r}, but the ledger shows no change at jax "
                f"{release} in its verdict or in what {', '.join(claim.evidence)} printed"
            )
    return problems


def _after(releases: list[str], release: str) -> str | None:
    index = releases.index(release) + 1 if release in releases else len(releases)
    return releases[index] if index < len(releases) else None
