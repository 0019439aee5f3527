"""A claim as the pages show it: its badge and copy link, its status line (standing, declared
releases, scope, verdicts across releases, evidence), and the note that says once, before a
page's claims, what most of them share."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx

from jaxwaits.chain import cite, verdicts
from jaxwaits.chain.marks import standing_id
from jaxwaits.chain.standing import ClaimStanding, Standing, standing
from jaxwaits.claims import scope
from jaxwaits.claims.registry import Claim
from jaxwaits.sphinxext import terms, verification_matrix
from jaxwaits.sphinxext.state import inputs, site


def badge(seen: ClaimStanding, small: bool = False) -> nodes.inline:
    """The standing as a badge: a shape and its words, white on a colour of its own (so neither
    the colour nor the shape alone carries it)."""
    text = f"{seen.shape} {seen.headline}"
    return nodes.inline(
        text, text, classes=["jaxwaits-badge", *(["small"] if small else []), seen.css]
    )


def copy_link(app: Sphinx, claim_id: str) -> nodes.reference:
    """The claim's link, as ``cite`` gives it (pinned to this site release only in a build made
    from its tag); the site's script turns a click on it into a copy to the clipboard (without
    script it is a plain link)."""
    found = inputs(app)
    return nodes.reference(
        "copy link",
        "copy link",
        refuri=cite.pinned(found.links_to, claim_id),
        reftitle=f"Copy the {'permanent ' if found.pinned else ''}link to claim {claim_id}",
        classes=["jaxwaits-copy-link"],
    )


def claim_standing(app: Sphinx, claim: Claim) -> ClaimStanding:
    """What this build (its pages read now or before) showed about a claim."""
    others = inputs(app).facts.elsewhere[claim.id]
    return standing(claim, site(app.env).ran(), inputs(app).platform, others)


def doc_uri(app: Sphinx, fromdoc: str, todoc: str, anchor: str = "") -> str:
    uri = app.builder.get_relative_uri(fromdoc, todoc)
    return f"{uri}#{anchor}" if anchor else uri


def doc_link(
    app: Sphinx, fromdoc: str, todoc: str, anchor: str, text: str, code: bool = False
) -> nodes.reference:
    ref = nodes.reference("", "", internal=True, refuri=doc_uri(app, fromdoc, todoc, anchor))
    ref += nodes.literal(text, text) if code else nodes.Text(text)
    return ref


def declared_in(app: Sphinx, claim: Claim) -> str:
    return app.env.path2doc(str(claim.file)) or ""


@dataclass(frozen=True)
class Shared:
    """What most claims on one page have in common, said once, in a note before the first:
    per scope axis, the values they were limited to; and the oldest releases none of them was
    verified on."""

    scope: dict[str, tuple[str, ...]]
    unverified: tuple[str, ...]
    stamped: bool  # the page says at its top which platform its snippets ran on


NO_SHARED = Shared({}, (), stamped=False)


def shared(app: Sphinx, claims: list[Claim], stamped: bool) -> Shared:
    """What ``claims`` share: per axis, the values more than half of them were limited to (a
    claim that differs says so on its own line), and the oldest run of releases that none was
    verified on."""
    scope_shared = {}
    for axis in scope.AXES:
        counted = Counter(claim.scope.of(axis.name) for claim in claims)
        values, count = counted.most_common(1)[0] if counted else ((), 0)
        if values and 2 * count > len(claims) and set(values) != set(axis.values):
            scope_shared[axis.name] = values
    found = inputs(app).verdicts
    unverified = verification_matrix.unverified_first([found[claim.id] for claim in claims])
    return Shared(scope_shared, unverified, stamped)


def shared_note(app: Sphinx, fromdoc: str, said: Shared, whose: str) -> nodes.paragraph:
    """``Unless a claim says otherwise, the claims on this page are limited to …``."""
    note = nodes.paragraph(classes=["jaxwaits-claims-note"])
    if said.scope:
        note += nodes.Text(
            f"Unless {whose} says otherwise, these claims are limited to what their snippets "
            "tried: "
        )
        axes = [axis for axis in scope.AXES if axis.name in said.scope]
        for i, axis in enumerate(axes):
            note += [nodes.Text(", " if i < len(axes) - 1 else " and ")] if i else []
            note += terms.scope_words(app, fromdoc, axis, said.scope[axis.name])
        note += nodes.Text(". ")
    if said.unverified:
        shown = verification_matrix.span_words(said.unverified)
        note += nodes.Text("None of these claims was verified on ")
        uri = verification_matrix.release_uri(app, fromdoc, said.unverified[0])
        note += nodes.reference("", f"jax {shown}", internal=True, refuri=uri)
        pages = "its page says" if len(said.unverified) == 1 else "their pages say"
        note += nodes.Text(f" ({pages} why). ")
    if not said.stamped:
        note += nodes.Text(f"This build ran their snippets on {inputs(app).platform.describe()}.")
    return note


def scope_parts(
    app: Sphinx, fromdoc: str, claim: Claim, said: Shared
) -> list[tuple[str, nodes.strong]]:
    """``limited to …``, naming each axis the claim is limited on that the page's note does not
    say (or says otherwise), and ``covers …``, naming each axis it covers that the note limits."""
    limited, covers = [], []
    for axis in scope.AXES:
        values = claim.scope.of(axis.name)
        if not values or said.scope.get(axis.name) == values:
            continue
        if not claim.scope.covered(axis):
            limited.append((axis, values))
        elif axis.name in said.scope:
            covers.append((axis, values))
    out = []
    for words, axes, joiner in (("limited to", limited, " or "), ("covers", covers, " and ")):
        if not axes:
            continue
        shown = nodes.strong(classes=["jaxwaits-limits"])
        for i, (axis, values) in enumerate(axes):
            shown += [nodes.Text(", ")] if i else []
            shown += terms.scope_words(app, fromdoc, axis, values, joiner)
        out.append((words, shown))
    return out


def status_paragraph(
    app: Sphinx, fromdoc: str, claim: Claim, said: Shared = NO_SHARED
) -> nodes.paragraph:
    """The claim's status line: its standing, then only what ``said`` (the page's note) does not
    say already."""
    seen = claim_standing(app, claim)
    para = nodes.paragraph(classes=["jaxwaits-claim-status", seen.css])
    para += terms.link(app, fromdoc, standing_id(seen.standing), badge(seen))
    if said is NO_SHARED or seen.standing is not Standing.VERIFIED:
        para += nodes.Text(seen.rest)
    if claim.since or claim.until:
        para += nodes.Text(" · ")
        para += nodes.strong("", f"declared to hold {claim.releases}")
    for words, shown in scope_parts(app, fromdoc, claim, said):
        para += [nodes.Text(f" · {words} "), shown]
    found = inputs(app)
    on = {r: v for r, v in found.verdicts[claim.id].items() if r not in said.unverified}
    held = verdicts.summary(on, found.facts.elsewhere[claim.id])
    para += nodes.Text(" · across releases: ")
    para += doc_link(app, fromdoc, verification_matrix.MATRIX, "", held)
    # in the order the claim lists its evidence, whatever order the pages were read in
    cells = sorted(
        (c for c in site(app.env).cells() if c.snippet in claim.evidence),
        key=lambda c: (claim.evidence.index(c.snippet), c.docname, c.anchor),
    )
    if cells:
        para += nodes.Text(" · evidence: ")
        for i, cell in enumerate(cells):
            if i:
                para += nodes.Text(", ")
            para += doc_link(app, fromdoc, cell.docname, cell.anchor, cell.snippet, code=True)
    return para
