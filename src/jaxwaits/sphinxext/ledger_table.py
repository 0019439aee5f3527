"""The verification matrix: every claim and vendored piece against every JAX release, and a page
for each release that says in words what holds there.

Columns are the releases of the universe, newest first, consecutive releases that agree on every
claim and piece folded into one range column; each cell is one verdict, with its own mark and
colour, and a cell that does not simply hold links to its release group's page,
``release/<first release>``, which says why (every release in a group is an anchor there, and
``release/<any other release>.html`` leads to it). Made while the pages are read; they are read
again whenever any verdict changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain import columns, verdicts
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import MARKS, MEANING, PIECE_MARKS, verdict_id
from jaxwaits.chain.verdicts import ClaimVerdict, Verdict
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.files import inside, write_atomic, write_folder
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases.ledger import Verification
from jaxwaits.sphinxext import terms
from jaxwaits.sphinxext.annotated import details
from jaxwaits.sphinxext.state import Inputs, inputs
from jaxwaits.sphinxext.terms import css

RELEASES = "release"  # docs/release/<first release>.md, generated for every column
MATRIX = "matrix"  # the page that holds {verification-matrix}, where there is one


def why_nodes(why: str) -> list[nodes.Node]:
    """A maintainer's one-line reason, its `code spans` shown as code."""
    parts = why.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: show the text as written
        return [nodes.Text(why)]
    return [
        nodes.literal(part, part) if i % 2 else nodes.Text(part)
        for i, part in enumerate(parts)
        if part
    ]


def release_id(release: str) -> str:
    return nodes.make_id(f"release-{release}")


@dataclass(frozen=True)
class Group:
    """Consecutive releases that agree on every claim's verdict and every piece's outcome."""

    releases: tuple[str, ...]

    @property
    def label(self) -> str:
        first, last = self.releases[0], self.releases[-1]
        return first if first == last else f"{first} – {last}"

    @property
    def anchor(self) -> str:
        return release_id(self.releases[0])

    @property
    def anchors(self) -> list[str]:
        return [release_id(release) for release in self.releases]

    @property
    def page(self) -> str:
        return f"{RELEASES}/{self.releases[0]}"


def groups(found: Inputs) -> list[Group]:
    """The matrix's columns (:func:`jaxwaits.chain.columns.folded`), newest first."""
    return [Group(run) for run in columns.folded(found.verdicts, found.ledger)]


def release_uri(app: Sphinx, fromdoc: str, release: str) -> str:
    """Where ``release`` is said, from page ``fromdoc``: its anchor on its group's page."""
    for group in groups(inputs(app)) if inputs(app).ledger else []:
        if release in group.releases:
            uri = app.builder.get_relative_uri(fromdoc, group.page)
            return f"{uri}#{release_id(release)}"
    return app.builder.get_relative_uri(fromdoc, MATRIX)


def unverified_first(claims: Sequence[Mapping[str, ClaimVerdict]]) -> tuple[str, ...]:
    """The oldest releases, in an unbroken run, on which none of ``claims`` (each: release ->
    verdict) was verified: said once above them, not on every claim's line."""
    releases = list(claims[0]) if claims else []
    found: list[str] = []
    for release in releases:
        if any(c[release].verdict is not Verdict.NOT_VERIFIED for c in claims):
            break
        found.append(release)
    return tuple(found)


def span_words(releases: Sequence[str]) -> str:
    """``0.4.16 – 0.4.17`` (or the one release)."""
    first, last = releases[0], releases[-1]
    return first if first == last else f"{first} – {last}"


class ReleasePickerDirective(SphinxDirective):
    """``{release-picker}``: every release the site answers for, newest first, a line per series
    (``jax 0.4``), each linked to the page that says what holds on it."""

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        if not found.ledger:
            return []
        series: dict[str, list[str]] = {}
        for release in reversed(found.facts.releases):
            series.setdefault(".".join(release.split(".")[:2]), []).append(release)
        items = nodes.bullet_list(classes=["jaxwaits-release-picker"])
        for name, releases in series.items():
            para = nodes.paragraph()
            para += nodes.strong("", f"jax {name}: ")
            for i, release in enumerate(releases):
                para += [nodes.Text(" ")] if i else []
                uri = release_uri(self.env.app, self.env.docname, release)
                para += nodes.reference("", release, internal=True, refuri=uri)
            items += nodes.list_item("", para)
        return [items]


class MatrixDirective(SphinxDirective):
    """``{verification-matrix}``: the legend, then the two grids (claims, vendored pieces)."""

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        if not found.ledger:
            return [nodes.paragraph(text="No release has been verified yet: run nox -s matrix.")]
        folded = groups(found)
        app, here = self.env.app, self.env.docname
        return [
            _legend(app, here),
            _claims_table(app, here, found, folded),
            _pieces_table(app, here, found, folded),
        ]


class SummaryDirective(SphinxDirective):
    """``{verification-summary}``: a line per claim, naming every release where it holds and
    where not (the releases none was verified on said once, above them)."""

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        if not found.ledger:
            return []
        app, here = self.env.app, self.env.docname
        unverified = unverified_first(list(found.verdicts.values()))
        out: list[nodes.Node] = []
        if unverified:
            para = nodes.paragraph(text="No claim was verified on ")
            uri = release_uri(app, here, unverified[0])
            para += nodes.reference("", f"jax {span_words(unverified)}", internal=True, refuri=uri)
            pages = "its page says" if len(unverified) == 1 else "their pages say"
            para += nodes.Text(f" ({pages} why); the lines below leave those releases out.")
            out.append(para)
        items = nodes.bullet_list(classes=["jaxwaits-summary"])
        for claim_id in sorted(found.verdicts):
            para = nodes.paragraph()
            para += claim_link(here, claim_id)
            on = {r: v for r, v in found.verdicts[claim_id].items() if r not in unverified}
            said = verdicts.summary(on, found.facts.elsewhere[claim_id])
            para += nodes.Text(f": {said}")
            items += nodes.list_item("", para)
        return [*out, items]


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


def claim_link(docname: str, claim_id: str) -> nodes.Node:
    return terms.page_link(docname, f"/{PAGES}/{claim_id}", claim_id)


def _to_page(app: Sphinx, docname: str, group: Group, *shown: nodes.Node) -> nodes.reference:
    uri = app.builder.get_relative_uri(docname, group.page)
    return nodes.reference("", "", *shown, internal=True, refuri=uri)


def _legend(app: Sphinx, docname: str) -> nodes.Element:
    """Each mark, its verdict (linked to its definition) and what it means."""
    items = nodes.bullet_list(classes=["jaxwaits-legend"])
    for verdict, mark in MARKS.items():
        para = nodes.paragraph()
        para += terms.link(
            app,
            docname,
            verdict_id(verdict),
            nodes.inline(mark, mark, classes=["jaxwaits-mark", css(verdict)]),
            nodes.strong(f" {verdict.words}", f" {verdict.words}"),
        )
        para += nodes.Text(f": {MEANING[verdict]}.")
        items += nodes.list_item("", para)
    return items


def grid(header: list[nodes.Node], rows: list[list[nodes.Node]]) -> nodes.container:
    table = nodes.table(classes=["jaxwaits-matrix"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for i in range(len(header)):
        group += nodes.colspec(colwidth=4 if i == 0 else 1)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    for target, cells in ((head, header), *((body, r) for r in rows)):
        row = nodes.row()
        for content in cells:
            # No paragraph per cell (a grid of 900 cells stays light); a link needs a parent
            # that holds text, which a mark already is.
            plain = isinstance(content, nodes.inline)
            row += nodes.entry("", content if plain else nodes.inline("", "", content))
        target += row
    return nodes.container("", table, classes=["jaxwaits-scroll"])


def _header(app: Sphinx, docname: str, folded: list[Group]) -> list[nodes.Node]:
    cells: list[nodes.Node] = [nodes.Text("claim")]
    for group in folded:
        cells.append(_to_page(app, docname, group, nodes.Text(group.label)))
    return cells


def _claims_table(app: Sphinx, docname: str, found: Inputs, folded: list[Group]) -> nodes.Element:
    rows = []
    for claim_id in sorted(found.verdicts):
        row: list[nodes.Node] = [claim_link(docname, claim_id)]
        for group in folded:
            verdict = found.verdicts[claim_id][group.releases[0]].verdict
            mark = nodes.inline(MARKS[verdict], MARKS[verdict], classes=[css(verdict)])
            # a claim that holds has nothing more to say; any other links to why
            row.append(mark if verdict is Verdict.HOLDS else _to_page(app, docname, group, mark))
        rows.append(row)
    return grid(_header(app, docname, folded), rows)


def _pieces_table(app: Sphinx, docname: str, found: Inputs, folded: list[Group]) -> nodes.Element:
    names = sorted({name for v in found.ledger for name in v.pieces})
    rows = []
    for name in names:
        row: list[nodes.Node] = [nodes.literal(name, name)]
        for group in folded:
            outcome = columns.pieces_on(found.ledger, group.releases[0]).get(name)
            mark = nodes.inline("", PIECE_MARKS[outcome] if outcome else "?")
            same = outcome is PieceOutcome.IDENTICAL
            row.append(mark if same else _to_page(app, docname, group, mark))
        rows.append(row)
    header = [nodes.Text("vendored piece"), *_header(app, docname, folded)[1:]]
    return grid(header, rows)


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
            para += _to_page(app, docname, newer, nodes.Text(f"jax {newer.label}"))
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
            para += _to_page(app, docname, folded[j], nodes.Text(f"jax {folded[j].label}"))
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
        para += _to_page(app, docname, newer, nodes.Text(f"jax {newer.label}"))
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
    app.add_directive("release-picker", ReleasePickerDirective)
    app.add_directive("verification-matrix", MatrixDirective)
    app.add_directive("verification-summary", SummaryDirective)
    app.add_directive("release-section", ReleaseDirective)
    app.connect("builder-inited", _write_pages)
    app.connect("build-finished", _redirects)
