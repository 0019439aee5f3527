"""The verification matrix: every claim and vendored piece against every JAX release.

Columns are the releases of the universe, newest first, consecutive releases that agree on every
claim and piece folded into one range column; each cell is one verdict, with its own mark and
colour, and a cell that does not simply hold links to its release group's page,
``release/<first release>`` (:mod:`~jaxwaits.sphinxext.release_pages`), which says why. Also
the release picker and the summary, a line per claim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain import columns, verdicts
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import MARKS, MEANING, PIECE_MARKS, verdict_id
from jaxwaits.chain.verdicts import ClaimVerdict, Verdict
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.sphinxext import terms
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


def claim_link(docname: str, claim_id: str) -> nodes.Node:
    return terms.page_link(docname, f"/{PAGES}/{claim_id}", claim_id)


def to_page(app: Sphinx, docname: str, group: Group, *shown: nodes.Node) -> nodes.reference:
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
        cells.append(to_page(app, docname, group, nodes.Text(group.label)))
    return cells


def _claims_table(app: Sphinx, docname: str, found: Inputs, folded: list[Group]) -> nodes.Element:
    rows = []
    for claim_id in sorted(found.verdicts):
        row: list[nodes.Node] = [claim_link(docname, claim_id)]
        for group in folded:
            verdict = found.verdicts[claim_id][group.releases[0]].verdict
            mark = nodes.inline(MARKS[verdict], MARKS[verdict], classes=[css(verdict)])
            # a claim that holds has nothing more to say; any other links to why
            row.append(mark if verdict is Verdict.HOLDS else to_page(app, docname, group, mark))
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
            row.append(mark if same else to_page(app, docname, group, mark))
        rows.append(row)
    header = [nodes.Text("vendored piece"), *_header(app, docname, folded)[1:]]
    return grid(header, rows)


def setup(app: Sphinx) -> None:
    app.add_directive("release-picker", ReleasePickerDirective)
    app.add_directive("verification-matrix", MatrixDirective)
    app.add_directive("verification-summary", SummaryDirective)
