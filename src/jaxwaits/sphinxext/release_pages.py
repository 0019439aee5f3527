"""A page for each column of the verification matrix, ``release/<first release>``, that says in
words what holds on its releases: how many claims hold, which do not and why (a reason several
claims share said once), when they were recorded, and (folded) what printed otherwise; a reason
or difference a newer page said already is named with a link there.
``release/<any other release>.html`` leads to its anchor on its column's page. Made while the
pages are read; they are read again whenever any verdict changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain.marks import MARKS, verdict_id
from jaxwaits.chain.verdicts import ClaimVerdict, Verdict
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.files import inside, write_atomic, write_folder
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases.ledger import Verification
from jaxwaits.sphinxext import terms
from jaxwaits.sphinxext.annotated import details
from jaxwaits.sphinxext.state import Inputs, inputs
from jaxwaits.sphinxext.terms import css
from jaxwaits.sphinxext.verification_matrix import (
    MATRIX,
    RELEASES,
    Group,
    claim_link,
    groups,
    release_id,
    to_page,
    why_nodes,
)


class ReleaseDirective(SphinxDirective):
    """``{release-section} <first release>``: one column of the matrix, on its own page: a
    paragraph in words on what holds there, its releases, the claims that do not simply hold
    there and why, and (folded) what printed otherwise."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        folded = groups(found) if found.ledger else []
        for group, said in _sections(self.env.app, self.env.docname, found, folded):
            if group.releases[0] == self.arguments[0]:  # older ones: never made
                return [nodes.container("", *said, ids=group.anchors)]
        return [nodes.paragraph(text=f"No column of the matrix starts at {self.arguments[0]}.")]


def _write_pages(app: Sphinx) -> None:
    """Write ``release/<first release>.md`` for every column (unchanged files stay put)."""
    found = inputs(app)
    wanted = {
        f"{group.releases[0]}.md": _page_source(group)
        for group in (groups(found) if found.ledger else [])
    }
    write_folder(Path(app.srcdir) / RELEASES, wanted)


def _page_source(group: Group) -> str:
    return "\n".join(
        [
            "---",
            "orphan: true",
            "---",
            "",
            f"# jax {group.label}",
            "",
            f"```{{release-section}} {group.releases[0]}",
            "```",
            "",
        ]
    )


def _redirects(app: Sphinx, exception: Exception | None) -> None:
    """``release/<release>.html``, for every release that is not the first of its column, leads
    to its anchor on the column's page."""
    if exception or app.builder.format != "html" or not inputs(app).ledger:
        return
    for group in groups(inputs(app)):
        for release in group.releases[1:]:
            target = f"{group.releases[0]}.html#{release_id(release)}"
            write_atomic(
                inside(Path(app.outdir) / RELEASES, f"{release}.html"),
                f'<!DOCTYPE html><meta charset="utf-8"><title>jax {release}</title>'
                f'<meta http-equiv="refresh" content="0; url={target}">'
                f'<p>jax {release} is said on <a href="{target}">the page of jax '
                f"{group.label}</a>, the releases on which every claim fared alike.</p>",
            )


# The verdicts a release page lists, in this order (a plain hold is only counted).
LISTED = (
    Verdict.DOES_NOT_HOLD,
    Verdict.ABSENT,
    Verdict.NOT_OBSERVABLE,
    Verdict.HOLDS_OUTPUT_DIFFERS,
    Verdict.FAILS,
    Verdict.STALE,
    Verdict.NOT_VERIFIED,
)
UNSURE = (Verdict.FAILS, Verdict.STALE, Verdict.NOT_VERIFIED)
_BREAK = re.compile(r": |, so ")


@dataclass(frozen=True)
class Reason:
    """One claim's reason (``claim`` set); or the opening several claims' reasons share, said
    once, and what each says after it (``after``)."""

    words: str
    claim: str = ""
    so: bool = False  # what follows the shared opening is a consequence of it (", so ")
    after: tuple[Reason, ...] = ()

    @property
    def claims(self) -> list[str]:
        return [self.claim] if self.claim else [c for reason in self.after for c in reason.claims]


def _openings(why: str) -> list[str]:
    """The openings of a reason, shortest first, each up to a ': ' or ', so ' (and no code span
    left open), then the whole reason."""
    cut = [why[: m.start()] for m in _BREAK.finditer(why)]
    return [*(c for c in cut if c.count("`") % 2 == 0), why]


def reasons(whys: Sequence[tuple[str, str]]) -> list[Reason]:
    """Claims (ID, reason) grouped by the shortest opening of their reasons that another claim's
    reason opens with too, in the order they come, and what is left of their reasons grouped the
    same way: so a reason several claims share is said once. A reason that shares no opening
    stands alone."""
    grouped: dict[str, list[tuple[str, str, str, str]]] = {}  # opening -> claims, reasons, rests
    for claim_id, why in whys:
        others = [_openings(w) for c, w in whys if c != claim_id]
        opening = next((o for o in _openings(why) if any(o in t for t in others)), why)
        rest = why[len(opening) :]
        separator = next((s for s in (": ", ", so ") if rest.startswith(s)), "")
        rest = rest[len(separator) :]
        for repeated in (f"{opening}: ", f"{opening}, so "):  # two reasons joined, one opening
            rest = rest.replace(repeated, "")
        grouped.setdefault(opening, []).append((claim_id, why, rest, separator))
    found = []
    for opening, given in grouped.items():
        if len(given) == 1:
            found.append(Reason(given[0][1], claim=given[0][0]))
            continue
        bare = [Reason("", claim=claim_id) for claim_id, _, rest, _ in given if not rest]
        more = reasons([(claim_id, rest) for claim_id, _, rest, _ in given if rest])
        so = all(separator == ", so " for _, _, rest, separator in given if rest)
        found.append(Reason(opening, so=so, after=(*bare, *more)))
    return found


def _sections(
    app: Sphinx, docname: str, found: Inputs, folded: list[Group]
) -> Iterator[tuple[Group, list[nodes.Node]]]:
    """What each column's page says, newest first: a paragraph in words, its releases, when they
    were recorded, each claim that does not simply hold there and why, and (folded) what printed
    otherwise. A reason or a difference is said once, in the newest section it applies to; an
    older section that shares it says so in a line and links there. Made newest first, so that
    a page can stop at its own section."""
    by_release = {v.platform.jax: v for v in found.ledger if v.platform.backend == "cpu"}
    said_in: dict[object, Group] = {}  # a claim's verdict and reason, or a difference -> where
    for i, group in enumerate(folded):
        first = by_release.get(group.releases[0])
        on = {cid: found.verdicts[cid][group.releases[0]] for cid in sorted(found.verdicts)}
        said: list[nodes.Node] = [
            _lead(app, docname, group, on, first),
            _releases(found, group),
            _recorded(by_release, group),
        ]
        if first is not None and not first.not_installable:
            said += _claims_part(app, docname, group, on, said_in)
            said += differences(app, docname, first, group, said_in)
        said.append(_neighbours(app, docname, folded, i))
        yield group, said


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _claim_links(docname: str, claim_ids: Sequence[str]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, claim_id in enumerate(claim_ids):
        out += [nodes.Text(", ")] if i else []
        out.append(claim_link(docname, claim_id))
    return out


def _lead(
    app: Sphinx,
    docname: str,
    group: Group,
    on: Mapping[str, ClaimVerdict],
    first: Verification | None,
) -> nodes.paragraph:
    """What a harness writer on these releases should know, in words: how many claims hold,
    which do not, which cannot be shown there and why (a shared reason said once)."""
    those = "this release" if len(group.releases) == 1 else "these releases"
    lead = nodes.paragraph(classes=["jaxwaits-release-lead"])
    if first is None or first.not_installable:
        why = first.not_installable if first else "the ledger has no entry for it"
        lead += nodes.Text(f"No claim is verified on {those} — {why}.")
        return lead
    by: dict[Verdict, list[str]] = {}
    for claim_id, verdict in on.items():
        by.setdefault(verdict.verdict, []).append(claim_id)
    holds, differs = len(by.get(Verdict.HOLDS, [])), len(by.get(Verdict.HOLDS_OUTPUT_DIFFERS, []))
    lead += nodes.Text(
        f"On {those}, {holds} of the site's {len(on)} claims "
        f"{'holds' if holds == 1 else 'hold'} as stated"
    )
    if differs:
        lead += nodes.Text(
            f", and {_count(differs, 'more holds', 'more hold')} although a snippet behind "
            f"{'it' if differs == 1 else 'each'} prints something other than its recorded output"
        )
    lead += nodes.Text(".")
    contradicted = by.get(Verdict.DOES_NOT_HOLD, [])
    if contradicted:
        lead += nodes.Text(f" {_count(len(contradicted), 'does', 'do')} not hold: ")
        lead += _claim_links(docname, contradicted)
        whose = "its" if len(contradicted) == 1 else "each one's"
        lead += nodes.Text(f"; {whose} page says what holds instead.")
    else:
        lead += nodes.Text(" None was seen not to hold.")
    absent = by.get(Verdict.ABSENT, [])
    if absent:
        lead += nodes.Text(
            f" {_count(len(absent), 'is', 'are')} about an API that {those} "
            f"{'lacks' if len(group.releases) == 1 else 'lack'}: "
        )
        lead += _claim_links(docname, absent)
        lead += nodes.Text(".")
    hidden = by.get(Verdict.NOT_OBSERVABLE, [])
    if hidden:
        count = len(hidden)
        its, it = ("its", "it holds") if count == 1 else ("their", "they hold")
        lead += nodes.Text(
            f" {count} cannot be shown on {those}: {its} snippets cannot tell whether {it} there, "
            f"which is not to say that {'it does' if count == 1 else 'they do'} not apply"
        )
        found = reasons([(claim_id, on[claim_id].why) for claim_id in hidden])
        if count == 1:
            lead += [nodes.Text(": "), *why_nodes(found[0].words)] if found[0].words else []
        shared = [reason for reason in found if not reason.claim]
        for i, reason in enumerate(shared):
            lead += nodes.Text(": " if i == 0 else "; ")
            lead += nodes.Text(f"{len(reason.claims)} because ")
            lead += why_nodes(reason.words)
        alone = count - sum(len(reason.claims) for reason in shared)
        if alone and shared:
            lead += nodes.Text(f"; {alone} for {'a reason' if alone == 1 else 'reasons'} of ")
            lead += nodes.Text(f"{'its' if alone == 1 else 'their'} own, said below")
        lead += nodes.Text(".")
    unsure = [claim_id for verdict in UNSURE for claim_id in by.get(verdict, [])]
    if unsure:
        lead += nodes.Text(f" {_count(len(unsure), 'is', 'are')} not verified here: ")
        lead += _claim_links(docname, unsure)
        lead += nodes.Text(" (why: below).")
    return lead


def _releases(found: Inputs, group: Group) -> nodes.paragraph:
    """The releases the page is about, and which of them were yanked."""
    count = len(group.releases)
    yanked = [r for r in group.releases if r in found.universe.yanked]
    said = (
        f"This page covers {count} releases, on which every claim fared alike: "
        f"{', '.join(group.releases)}"
        if count > 1
        else f"This page covers jax {group.releases[0]}"
    )
    said += f"; yanked from PyPI: {', '.join(yanked)}." if yanked else "."
    return nodes.paragraph(text=said, classes=["jaxwaits-releases"])


def _mark(verdict: Verdict) -> nodes.inline:
    return nodes.inline(MARKS[verdict], MARKS[verdict], classes=["jaxwaits-mark", css(verdict)])


def _claims_part(
    app: Sphinx,
    docname: str,
    group: Group,
    on: Mapping[str, ClaimVerdict],
    said_in: dict[object, Group],
) -> list[nodes.Node]:
    """Each claim that does not simply hold, by verdict, a reason shared by several said once;
    a verdict and reason a newer page said already, named with a link there."""
    out: list[nodes.Node] = [nodes.rubric("", "Claim by claim")]
    again: dict[Group, list[tuple[str, Verdict]]] = {}  # a newer section -> what it said
    for verdict in LISTED:
        here = []
        for claim_id, given in on.items():
            if given.verdict is not verdict:
                continue
            newer = said_in.setdefault(("claim", claim_id, given), group)
            if newer is not group:
                again.setdefault(newer, []).append((claim_id, verdict))
            else:
                here.append((claim_id, given.why))
        if not here:
            continue
        head = nodes.paragraph(classes=["jaxwaits-verdict-head"])
        words = nodes.Text(f" {verdict.words}")
        head += terms.link(app, docname, verdict_id(verdict), _mark(verdict), words)
        head += nodes.Text(f" ({len(here)}):")
        items = nodes.bullet_list()
        for reason in reasons(here):
            items += _reason_item(docname, reason)
        out += [head, items]
    if again:
        items = nodes.bullet_list()
        for newer, claims in again.items():
            para = nodes.paragraph(classes=["jaxwaits-as-above"])
            para += nodes.Text("As on ")
            para += to_page(app, docname, newer, nodes.Text(f"jax {newer.label}"))
            para += nodes.Text(", with the same verdict and reason: ")
            for i, (claim_id, verdict) in enumerate(claims):
                mark = terms.link(app, docname, verdict_id(verdict), _mark(verdict))
                para += [nodes.Text(", " if i else ""), mark, nodes.Text(" ")]
                para += claim_link(docname, claim_id)
            items += nodes.list_item("", para)
        out.append(items)
    if len(out) == 1:
        out.append(nodes.paragraph(text="Every claim holds as recorded."))
    return out


def _reason_item(docname: str, reason: Reason) -> nodes.list_item:
    """One claim and its reason; or a reason several share, said once, and under it the claims
    and what each says after it."""
    para = nodes.paragraph()
    if reason.claim:
        para += claim_link(docname, reason.claim)
        para += [nodes.Text(": "), *why_nodes(reason.words)] if reason.words else []
        return nodes.list_item("", para)
    para += why_nodes(reason.words)
    if all(r.claim and not r.words for r in reason.after):
        para += nodes.Text(": " if reason.words else "")
        para += _claim_links(docname, reason.claims)
        return nodes.list_item("", para)
    para += nodes.Text(", so:" if reason.so else ":")
    items = nodes.bullet_list()
    for after in reason.after:
        items += _reason_item(docname, after)
    return nodes.list_item("", para, items)


def _neighbours(app: Sphinx, docname: str, folded: list[Group], i: int) -> nodes.paragraph:
    """Links to the newer and the older page, and to the matrix."""
    para = nodes.paragraph(classes=["jaxwaits-neighbours"])
    for words, j in (("Newer: ", i - 1), ("Older: ", i + 1)):
        if 0 <= j < len(folded):
            para += nodes.Text(f"{' · ' if len(para) else ''}{words}")
            para += to_page(app, docname, folded[j], nodes.Text(f"jax {folded[j].label}"))
    if MATRIX in app.env.found_docs:
        para += nodes.Text(" · " if len(para) else "")
        uri = app.builder.get_relative_uri(docname, MATRIX)
        para += nodes.reference("", "every release", internal=True, refuri=uri)
    return para


def _recorded(by_release: dict[str, Verification], group: Group) -> nodes.paragraph:
    """When the ledger's results for these releases were recorded, and on which Python."""
    runs: dict[tuple[str, str], list[str]] = {}
    for release in group.releases:
        verification = by_release.get(release)
        if verification is not None and not verification.not_installable:
            day = verification.recorded_on or "an unknown day"
            runs.setdefault((day, verification.platform.python), []).append(release)
    if not runs:
        return nodes.paragraph()
    said = "; ".join(
        f"on {day} with Python {python}: {', '.join(releases)}"
        for (day, python), releases in sorted(runs.items())
    )
    return nodes.paragraph(text=f"Results recorded {said}.", classes=["jaxwaits-recorded"])


def differences(
    app: Sphinx,
    docname: str,
    verification: Verification,
    group: Group | None,
    said_in: dict[object, Group | None],
) -> list[nodes.Node]:
    """What the first release of a group printed where it differs, and each piece's change,
    folded under a line that says how many; a difference a newer section showed already is
    named with a link there (``group`` None: a run on another backend, which shows every
    difference)."""
    out: list[nodes.Node] = []
    snippets = [
        (name, e.outcome.words, e.detail)
        for name, e in sorted(verification.snippets.items())
        if e.outcome is not Outcome.MATCHED
    ]
    pieces = [
        (name, e.outcome.words, e.detail)
        for name, e in sorted(verification.pieces.items())
        if e.outcome is not PieceOutcome.IDENTICAL
    ]
    again: dict[Group, list[tuple[str, str]]] = {}  # a newer section -> what it showed
    for name, outcome, detail in [*snippets, *pieces]:
        newer = said_in.setdefault(("difference", name, outcome, detail), group)
        if newer is not group and newer is not None:
            again.setdefault(newer, []).append((name, outcome))
            continue
        para = nodes.paragraph()
        para += nodes.literal(name, name)
        on = (
            "" if verification.platform.backend == "cpu" else f" on {verification.platform.backend}"
        )
        para += nodes.Text(f": {outcome} on jax {verification.platform.jax}{on}")
        out.append(para)
        if detail:
            out.append(nodes.literal_block(detail, detail, language="diff"))
    for newer, shown in again.items():
        para = nodes.paragraph(classes=["jaxwaits-as-above"])
        para += nodes.Text("As on ")
        para += to_page(app, docname, newer, nodes.Text(f"jax {newer.label}"))
        para += nodes.Text(": ")
        for i, (name, outcome) in enumerate(shown):
            para += [nodes.Text("; ")] if i else []
            para += [nodes.literal(name, name), nodes.Text(f" {outcome}")]
        out.append(para)
    if not out:
        return []
    counted = [
        _count(len(snippets), "snippet", "snippets") + " printed something other than the "
        "recorded output"
        if snippets
        else "",
        f"the upstream source of {_count(len(pieces), 'vendored piece', 'vendored pieces')} "
        "differs from the vendored text"
        if pieces
        else "",
    ]
    intro = nodes.paragraph(
        text=f"On jax {verification.platform.jax}, {' and '.join(filter(None, counted))}; "
        "the verdicts above are what that means for the claims. The raw text, for those who want "
        "it, is folded below."
    )
    folded = details(
        summary="Show what was printed, as differences from the recorded text",
        classes=["jaxwaits-raw"],
    )
    folded += out
    return [nodes.rubric("", "What the snippets printed"), intro, folded]


def setup(app: Sphinx) -> None:
    app.add_directive("release-section", ReleaseDirective)
    app.connect("builder-inited", _write_pages)
    app.connect("build-finished", _redirects)
