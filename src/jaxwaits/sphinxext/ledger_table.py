"""The verification matrix: every claim and vendored piece against every JAX release.

Columns are the releases of the universe, newest first, consecutive releases that agree on every
claim and piece folded into one range column; each cell is one verdict, with its own mark and
colour, and a cell that does not simply hold links to its release group's page,
``release/<first release>``, which says why (every release in a group is an anchor there).
Made while the pages are read; they are read again whenever any verdict changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain import columns, verdicts
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import MARKS, MEANING, PIECE_MARKS, verdict_id
from jaxwaits.chain.verdicts import Verdict
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.files import write_folder
from jaxwaits.pieces.drift import PieceOutcome
from jaxwaits.releases.ledger import Verification
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


class MatrixDirective(SphinxDirective):
    """``{verification-matrix}``: a line per claim, the legend, the two tables, and a link to
    each release group's page."""

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        if not found.ledger:
            return [nodes.paragraph(text="No release has been verified yet: run nox -s matrix.")]
        folded = groups(found)
        app, here = self.env.app, self.env.docname
        return [
            _summary(found, here),
            _legend(app, here),
            _claims_table(app, here, found, folded),
            _pieces_table(app, here, found, folded),
            _pages_list(app, here, folded),
        ]


class ReleaseDirective(SphinxDirective):
    """``{release-section} <first release>``: one column of the matrix, on its own page: its
    releases, the claims that do not simply hold there and why, what printed otherwise."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        found = inputs(self.env.app)
        folded = groups(found) if found.ledger else []
        sections = _sections(self.env.app, self.env.docname, found, folded)
        for group, section in zip(folded, sections, strict=True):  # older ones: never made
            if group.releases[0] == self.arguments[0]:
                return [nodes.container("", *section.children[1:], ids=group.anchors)]
        return [nodes.paragraph(text=f"No column of the matrix starts at {self.arguments[0]}.")]


def _write_pages(app: Sphinx) -> None:
    """Write ``release/<first release>.md`` for every column (unchanged files stay put)."""
    found = inputs(app)
    matrix = (Path(app.srcdir) / f"{MATRIX}.md").is_file()
    wanted = {
        f"{group.releases[0]}.md": _page_source(group, matrix)
        for group in (groups(found) if found.ledger else [])
    }
    write_folder(Path(app.srcdir) / RELEASES, wanted)


def _page_source(group: Group, matrix: bool) -> str:
    named = f"[verification matrix](/{MATRIX}.md)" if matrix else "verification matrix"
    return "\n".join(
        [
            "---",
            "orphan: true",
            "---",
            "",
            f"# jax {group.label}",
            "",
            f"One column of the {named}: why each claim that does not",
            "simply hold there does not, and what its snippets printed otherwise.",
            "",
            f"```{{release-section}} {group.releases[0]}",
            "```",
            "",
        ]
    )


def _pages_list(app: Sphinx, docname: str, folded: list[Group]) -> nodes.Element:
    """A link to each column's page, which says why."""
    para = nodes.paragraph(text="Why, release by release: ")
    for i, group in enumerate(folded):
        para += [nodes.Text(" · ")] if i else []
        para += _to_page(app, docname, group, nodes.Text(f"jax {group.label}"))
    return para


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


def _summary(found: Inputs, docname: str) -> nodes.Element:
    """A line per claim, before the grid: where it holds and where not, every release named
    (each claim's page says why, range by range)."""
    items = nodes.bullet_list(classes=["jaxwaits-summary"])
    for claim_id in sorted(found.verdicts):
        para = nodes.paragraph()
        para += claim_link(docname, claim_id)
        said = verdicts.summary(found.verdicts[claim_id], found.facts.elsewhere[claim_id])
        para += nodes.Text(f": {said}")
        items += nodes.list_item("", para)
    return items


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


def _sections(
    app: Sphinx, docname: str, found: Inputs, folded: list[Group]
) -> Iterator[nodes.section]:
    """A section per column, newest first: its releases, when they were recorded, each claim that
    does not simply hold there and why, and what printed otherwise. A reason or a difference is
    said once, in the newest section it applies to; an older section that shares it says so in a
    line and links there. Made newest first, so that a page can stop at its own section."""
    by_release = {v.platform.jax: v for v in found.ledger if v.platform.backend == "cpu"}
    said_in: dict[object, Group] = {}  # a claim's verdict and reason, or a difference -> where
    for group in folded:
        section = nodes.section(ids=group.anchors, names=[group.anchor])
        section += nodes.title("", f"jax {group.label}")
        count = len(group.releases)
        yanked = [r for r in group.releases if r in found.universe.yanked]
        said = (f"{count} releases: {', '.join(group.releases)}" if count > 1 else "1 release") + (
            f"; yanked from PyPI: {', '.join(yanked)}" if yanked else ""
        )
        section += nodes.paragraph(text=said + ".")
        section += _recorded(by_release, group)
        first = by_release.get(group.releases[0])
        if first is None or first.not_installable:
            why = first.not_installable if first else "The ledger has no entry for it"
            section += nodes.paragraph(text=f"{why}: no claim is verified on it.")
            yield section
            continue
        notable = nodes.bullet_list()
        again: dict[Group, list[nodes.Node]] = {}  # a newer section -> the claims it said
        for claim_id in sorted(found.verdicts):
            verdict = found.verdicts[claim_id][group.releases[0]]
            if verdict.verdict is Verdict.HOLDS:
                continue
            anchor = verdict_id(verdict.verdict)
            mark = MARKS[verdict.verdict]
            shown = nodes.inline(mark, mark, classes=["jaxwaits-mark", css(verdict.verdict)])
            newer = said_in.setdefault(("claim", claim_id, verdict), group)
            if newer is not group:  # the same verdict and reason: named, not said again
                again.setdefault(newer, []).append(claim_link(docname, claim_id))
                continue
            para = nodes.paragraph()
            para += terms.link(app, docname, anchor, shown)
            para += nodes.Text(" ")
            para += claim_link(docname, claim_id)
            para += nodes.Text(": ")
            para += terms.link(app, docname, anchor, nodes.Text(verdict.verdict.words))
            para += nodes.Text(". " if verdict.why else "")
            para += why_nodes(verdict.why)
            notable += nodes.list_item("", para)
        for newer, claims in again.items():
            para = nodes.paragraph(classes=["jaxwaits-as-above"])
            para += nodes.Text("As on ")
            para += _to_page(app, docname, newer, nodes.Text(f"jax {newer.label}"))
            para += nodes.Text(", with the same verdict and reason: ")
            for i, claim in enumerate(claims):
                para += [nodes.Text(", ")] if i else []
                para += claim
            notable += nodes.list_item("", para)
        if len(notable):
            section += notable
        else:
            section += nodes.paragraph(text="Every claim holds as recorded.")
        section += differences(app, docname, first, group, said_in)
        yield section


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
    """What the first release of a group printed where it differs, and each piece's change; a
    difference a newer section showed already is named with a link there (``group`` None: a
    run on another backend, which shows every difference)."""
    out: list[nodes.Node] = []
    entries = [
        *(
            (name, e.outcome.words, e.detail)
            for name, e in sorted(verification.snippets.items())
            if e.outcome is not Outcome.MATCHED
        ),
        *(
            (name, e.outcome.words, e.detail)
            for name, e in sorted(verification.pieces.items())
            if e.outcome is not PieceOutcome.IDENTICAL
        ),
    ]
    again: dict[Group, list[tuple[str, str]]] = {}  # a newer section -> what it showed
    for name, outcome, detail in entries:
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
    return out


def setup(app: Sphinx) -> None:
    app.add_directive("verification-matrix", MatrixDirective)
    app.add_directive("release-section", ReleaseDirective)
    app.connect("builder-inited", _write_pages)
