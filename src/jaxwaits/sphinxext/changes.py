"""What changed, release by release, computed from the ledger and the manifest; and the
``{changed-in}`` role, with which a sentence that names a boundary release cites the ledger fact
it rests on.

``{changed-in}`0.4.32 <poll_after_dispatch>``` renders as a link to 0.4.32's entry on the
changes page. The target is a snippet (it must print something else on 0.4.32 than on the
release just before it, both verified), a claim (its verdict must change there) or a vendored
piece (its upstream text must change there). Every build checks every citation, and every
boundary named in plain prose (:func:`named_boundaries`), whatever pages it re-read.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxwaits.claims.registry import Claim
from jaxwaits.errors import JaxwaitsError
from jaxwaits.pieces import manifest
from jaxwaits.releases.ledger import Verification
from jaxwaits.releases.verdicts import Verdict
from jaxwaits.sphinxext.state import CitedBoundary, Inputs, PageFacts, inputs

PAGE = "changes"
UNSURE = {Verdict.NOT_RUN, Verdict.STALE, Verdict.FAILS}  # a change to or from these is no change


def entry_id(release: str) -> str:
    return nodes.make_id(f"changed-in-{release}")


@dataclass(frozen=True)
class Change:
    """What changed at one release, against the release before it."""

    release: str
    previous: str
    claims: tuple[tuple[str, str, str], ...]  # (claim ID, verdict before, verdict at release)
    snippets: tuple[str, ...]  # snippets that printed something else
    pieces: tuple[tuple[str, str], ...]  # (piece, how its upstream text changed)

    def __bool__(self) -> bool:
        return bool(self.claims or self.snippets or self.pieces)


def _by_release(found: Inputs) -> dict[str, Verification]:
    return {
        v.platform.jax: v
        for v in found.ledger
        if v.platform.backend == "cpu" and not v.not_installable
    }


def snippet_changed(found: Inputs, previous: str, release: str, name: str) -> bool | None:
    """Whether a snippet printed something else on ``release`` than on ``previous`` (None when
    the ledger cannot tell: a release not verified, a run that failed)."""
    entries = _by_release(found)
    before = entries.get(previous, None)
    after = entries.get(release, None)
    if before is None or after is None:
        return None
    one, two = before.snippets.get(name), after.snippets.get(name)
    if one is None or two is None or not one.printed or not two.printed:
        return None
    return one.printed != two.printed


def _piece_changes(found: Inputs) -> dict[str, list[tuple[str, str]]]:
    try:
        recorded = manifest.load(found.project.annotated_src)
    except JaxwaitsError:
        return {}  # the vendored-pieces check names the manifest
    changes: dict[str, list[tuple[str, str]]] = {}
    for name, entry in recorded.pieces.items():
        for run in entry.history[1:]:
            if run.status is manifest.TextState.IDENTICAL:
                how = "its upstream text became the vendored one"
            elif run.status is manifest.TextState.DIFFERS:
                how = f"its upstream text changed ({run.change} against the vendored text)"
            else:
                how = run.change or "absent"
            changes.setdefault(run.first, []).append((name, how))
    return changes


def changes(found: Inputs) -> list[Change]:
    """Every release of the universe but the first, with what changed there: a claim's verdict
    counts only between two releases that were both judged (not "not verified" or "stale")."""
    releases = found.facts.releases
    pieces = _piece_changes(found)
    names = sorted({name for v in found.ledger for name in v.snippets})
    out = []
    for previous, release in itertools.pairwise(releases):
        claims = tuple(
            (cid, before.words, after.words)
            for cid in sorted(found.verdicts)
            for before, after in [
                (found.verdicts[cid][previous].verdict, found.verdicts[cid][release].verdict)
            ]
            if before is not after and not {before, after} & UNSURE
        )
        printed = tuple(n for n in names if snippet_changed(found, previous, release, n))
        out.append(Change(release, previous, claims, printed, tuple(pieces.get(release, []))))
    return out


class ReleaseChangesDirective(SphinxDirective):
    """``{release-changes}``: a section for each release at which anything changed."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for change in changes(inputs(self.env.app)):
            if not change:
                continue
            section = nodes.section(
                ids=[entry_id(change.release)], names=[entry_id(change.release)]
            )
            section += nodes.title("", f"jax {change.release}")
            section += nodes.paragraph(text=f"Against jax {change.previous}:")
            items = nodes.bullet_list()
            for claim_id, before, after in change.claims:
                para = nodes.paragraph()
                para += nodes.Text("claim ")
                para += nodes.literal(claim_id, claim_id)
                para += nodes.Text(f": {before} → {after}")
                items += nodes.list_item("", para)
            for name in change.snippets:
                para = nodes.paragraph()
                para += nodes.Text("snippet ")
                para += nodes.literal(name, name)
                para += nodes.Text(" prints something else")
                items += nodes.list_item("", para)
            for piece, how in change.pieces:
                para = nodes.paragraph()
                para += nodes.Text("vendored piece ")
                para += nodes.literal(piece, piece)
                para += nodes.Text(f": {how}")
                items += nodes.list_item("", para)
            section += items
            out.append(section)
        return out


class changed_in(nodes.Inline, nodes.Element):
    """A boundary release in prose and the fact it rests on, resolved into a link to its entry."""


class ChangedInRole(SphinxRole):
    """``{changed-in}`0.4.32 <snippet, claim or piece>```: kept as the page is read, checked
    against the ledger at the end of every build (:func:`boundary_problem`)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        release, _, target = self.text.partition("<")
        node = changed_in(release=release.strip(), target=target.rstrip(">").strip())
        self.set_source_info(node)
        node += nodes.Text(node["release"])
        return [node], []


def cited_boundaries(doctree: nodes.document) -> list[CitedBoundary]:
    return [
        CitedBoundary(node["release"], node["target"], node.line)
        for node in doctree.findall(changed_in)
    ]


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


_NOT_PROSE = (nodes.literal, nodes.literal_block, nodes.raw, nodes.comment, changed_in)


def prose_boundaries(doctree: nodes.document) -> list[tuple[str, int | None]]:
    """Boundaries named in a page's own prose without ``{changed-in}``: the words and the line.
    Code, claim statements (judged against their own evidence) and text made by directives
    (which has no line of its own) are not prose."""
    found = []
    for text in doctree.findall(nodes.Text):
        block = text.parent
        while block is not None and not isinstance(block, nodes.TextElement):
            block = block.parent
        if block is None or block.line is None or _inside_excluded(text):
            continue
        for words, _ in named_boundaries(text.astext(), ()):
            found.append((words, block.line))
    return found


def _inside_excluded(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _NOT_PROSE) or parent.get("claim_id"):
            return True
        parent = parent.parent
    return False


def boundary_problem(found: Inputs, release: str, target: str) -> str | None:
    """Why the ledger (or, for a vendored piece, the manifest) does not show ``target``
    changing at ``release``; None if it does."""
    releases = found.facts.releases
    if not target:
        return "name what changed: {changed-in}`<release> <snippet, claim or piece>`"
    if release not in releases or releases.index(release) == 0:
        return f"{release} is no release with one before it"
    previous = releases[releases.index(release) - 1]
    if target in found.verdicts:
        before, after = found.verdicts[target][previous], found.verdicts[target][release]
        if before.verdict in UNSURE or after.verdict in UNSURE:
            return (
                f"claim {target} is {before.verdict.words} on jax {previous} and "
                f"{after.verdict.words} on {release}: the ledger does not establish a change"
            )
        if before.verdict is after.verdict:
            return f"claim {target} is {after.verdict.words} on both jax {previous} and {release}"
        return None
    pieces = _piece_changes(found)
    if any(name == target for names in pieces.values() for name, _ in names):
        if any(name == target for name, _ in pieces.get(release, [])):
            return None
        return f"the upstream text of piece {target} does not change at jax {release}"
    changed = snippet_changed(found, previous, release, target)
    if changed is None:
        return (
            f"the ledger cannot tell whether {target} changed between jax {previous} and {release}"
        )
    if not changed:
        return f"{target} printed the same on jax {previous} and {release}"
    return None


def statement_problems(found: Inputs, claim: Claim) -> list[str]:
    """Each boundary a claim's own sentence names that neither its declared scope nor a change
    in its verdict or in what its evidence printed stands behind."""
    releases = list(found.verdicts.get(claim.id, {}))
    problems = []
    for words, release in named_boundaries(claim.statement, releases):
        scope = {claim.since} | ({_after(releases, claim.until)} if claim.until else set())
        if release in scope:
            continue
        targets = (claim.id, *claim.evidence)
        if all(boundary_problem(found, release, t) for t in targets):
            problems.append(
                f"claim {claim.id} says {words!r}, but the ledger shows no change at jax "
                f"{release} in its verdict or in what {', '.join(claim.evidence)} printed"
            )
    return problems


def problems(found: Inputs, pages: Mapping[str, PageFacts]) -> list[tuple[str, str, int | None]]:
    """Every boundary on the site that the ledger does not stand behind, as (message, page,
    line): a ``{changed-in}`` citation it contradicts, a boundary named in plain prose, a
    boundary in a claim's sentence that nothing shows."""
    releases = found.facts.releases
    out = []
    for doc, facts in sorted(pages.items()):
        for cited in facts.boundaries:
            problem = boundary_problem(found, cited.release, cited.target)
            if problem:
                role = f"{{changed-in}}`{cited.release} <{cited.target}>`"
                out.append((f"{role}: {problem}", doc, cited.line))
        for words, line in facts.plain_boundaries:
            if named_boundaries(words, releases):
                out.append(
                    (
                        f"{words!r} names a release boundary in plain words: cite what changed "
                        "there with {changed-in}`<release> <snippet, claim or piece>`",
                        doc,
                        line,
                    )
                )
    for claim in sorted(found.registry.claims.values(), key=lambda c: c.id):
        out += [(p, str(claim.file), claim.line) for p in statement_problems(found, claim)]
    return out


def _after(releases: list[str], release: str) -> str | None:
    index = releases.index(release) + 1 if release in releases else len(releases)
    return releases[index] if index < len(releases) else None


def _resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    for node in list(doctree.findall(changed_in)):
        uri = app.builder.get_relative_uri(fromdoc, PAGE) + f"#{entry_id(node['release'])}"
        ref = nodes.reference("", "", internal=True, refuri=uri, classes=["jaxwaits-changed-in"])
        ref += nodes.Text(node["release"])
        node.replace_self(ref)


def setup(app: Sphinx) -> None:
    app.add_directive("release-changes", ReleaseChangesDirective)
    app.add_role("changed-in", ChangedInRole())
    app.add_node(changed_in)
    app.connect("doctree-resolved", _resolve)
