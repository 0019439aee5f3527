"""The body of a claim's own page (``claim/<id>``: its statement, status line, scope, verdict on
each release, where it is stated and cited, its permanent link) and the table of every claim."""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from jaxwaits.chain import cite, verdicts
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import MARKS, standing_id, verdict_id
from jaxwaits.claims import scope
from jaxwaits.claims.registry import Claim
from jaxwaits.sphinxext import elsewhere, terms, verification_matrix
from jaxwaits.sphinxext.claim_status import (
    badge,
    claim_standing,
    copy_link,
    declared_in,
    doc_link,
    scope_parts,
    shared,
    shared_note,
    status_paragraph,
)
from jaxwaits.sphinxext.state import inputs, site

APIDOCS = "apidocs/"  # sphinx-autodoc2's pages: the package's API, read from its source


def _statement(app: Sphinx, claim: Claim) -> list[nodes.Node]:
    """A copy of the claim's statement as rendered where it is declared."""
    declared = site(app.env).declared().get(claim.id)
    if declared is None:
        return [nodes.paragraph(text=claim.statement)]
    return [node.deepcopy() for node in declared[1]]


def page_body(app: Sphinx, fromdoc: str, claim_id: str) -> list[nodes.Node]:
    claim = inputs(app).registry.claims.get(claim_id)
    if claim is None:
        return [nodes.paragraph(text=f"No claim {claim_id} is declared.")]
    statement = nodes.container(classes=["jaxwaits-claim-statement"])
    statement += _statement(app, claim)
    where = declared_in(app, claim)
    title = app.env.titles[where].astext() if where in app.env.titles else where
    context = site(app.env).context(claim_id)
    stated = nodes.paragraph()
    stated += nodes.Text("Stated in ")
    stated += doc_link(app, fromdoc, where, f"claim-{claim_id}", title)
    if context is not None and context.title and context.title != title:
        stated += nodes.Text(", section ")
        stated += doc_link(app, fromdoc, where, context.anchor, context.title)
    body: list[nodes.Node] = [statement, status_paragraph(app, fromdoc, claim)]
    body += _scope_table(app, fromdoc, claim)
    if context is not None and context.paragraphs:
        stated += nodes.Text(", after:")
        quoted = nodes.block_quote(classes=["jaxwaits-claim-context"])
        quoted += [node.deepcopy() for node in context.paragraphs]
        body += [stated, quoted]
    else:
        stated += nodes.Text(".")
        body.append(stated)
    permanent = nodes.paragraph(classes=["jaxwaits-permanent"])
    found = inputs(app)
    link = cite.pinned(found.links_to, claim_id)
    if found.pinned:
        permanent += nodes.Text("Permanent link, pinned to this site release: ")
    else:  # no release is published from what this build was made of
        permanent += nodes.Text(
            "Link to the newest build of the site, whose page changes as the site does (only "
            "a build made from a release's tag gives a link pinned to that release): "
        )
    permanent += nodes.reference(link, link, refuri=link)
    permanent += nodes.Text(" (")
    permanent += copy_link(app, claim_id)
    permanent += nodes.Text("; or ")
    command = f"python -m jaxwaits cite {claim_id}"
    permanent += nodes.literal(command, command)
    permanent += nodes.Text(" for a Markdown link with its verdicts).")
    body.append(permanent)
    body += _releases_table(app, fromdoc, claim)
    names = {claim_id, *claim.renamed_from}
    pages, api = nodes.bullet_list(), nodes.bullet_list()
    for doc, facts in sorted(site(app.env).pages.items()):
        places = [c for c in facts.citations if c.claim_id in names]
        if not places or doc == fromdoc:
            continue
        item = nodes.paragraph()
        item += doc_link(app, fromdoc, doc, "", app.env.titles[doc].astext())
        labelled = [c for c in places if c.label]
        for i, place in enumerate(labelled):
            item += nodes.Text(": " if i == 0 else ", ")
            item += doc_link(app, fromdoc, doc, place.anchor, place.label)
        (api if doc.startswith(APIDOCS) else pages).append(nodes.list_item("", item))
    # the site's pages first; the package's own API documentation after them, apart
    for said, citing in (("Cited from:", pages), ("Cited in the API documentation:", api)):
        if len(citing):
            body += [nodes.paragraph(text=said), citing]
    return body


def _scope_table(app: Sphinx, fromdoc: str, claim: Claim) -> list[nodes.Node]:
    """Per scope axis, what the claim's evidence exercises, and whether that covers the axis
    or limits the claim to it."""
    rows = []
    for axis in scope.AXES:
        values = claim.scope.of(axis.name)
        said = "covered" if claim.scope.covered(axis) else "limited to"
        shown = nodes.Text(", ".join(axis.values[v] for v in values))
        rows.append([nodes.Text(axis.title), nodes.Text(said), shown])
    intro = nodes.paragraph(text="Where its evidence reaches, along each ")
    intro += doc_link(app, fromdoc, "how-it-works", "scope-axes", "axis JAX's waiting varies on")
    intro += nodes.Text(":")
    table = _table("jaxwaits-scope", {"axis": 3, "evidence": 2, "what ran": 7}, rows)
    return [intro, nodes.container("", table, classes=["jaxwaits-scroll"])]


def _releases_table(app: Sphinx, fromdoc: str, claim: Claim) -> list[nodes.Node]:
    """Every release, in runs of consecutive releases with one verdict: the claim's own answer
    to "does it hold on jax V?"."""
    said = claim.releases
    days = sorted({v.recorded_on for v in inputs(app).ledger if v.recorded_on})
    when = f" recorded on {days[0]}" if len(days) == 1 else ""
    when = f" recorded between {days[0]} and {days[-1]}" if len(days) > 1 else when
    intro = nodes.paragraph(
        text=f"On each JAX release (CPU), from the ledger{when}"
        + (f"; the claim declares that it holds {said}:" if said else ":")
    )
    rows = []
    for span in reversed(verdicts.spans(inputs(app).verdicts[claim.id])):
        releases = nodes.reference(
            span.releases,
            span.releases,
            internal=True,
            refuri=verification_matrix.release_uri(app, fromdoc, span.first),
        )
        verdict = span.verdict.verdict
        mark = nodes.inline("", MARKS[verdict], classes=[terms.css(verdict)])
        word = terms.link(app, fromdoc, verdict_id(verdict), mark, nodes.Text(f" {verdict.words}"))
        why = nodes.inline("", "", *verification_matrix.why_nodes(span.verdict.why))
        rows.append([releases, word, why])
    table = _table("jaxwaits-releases", {"jax": 3, "verdict": 3, "why": 8}, rows)
    found = [intro, nodes.container("", table, classes=["jaxwaits-scroll"])]
    others = elsewhere.claim_rows(app, fromdoc, claim)
    if others:
        found.append(
            nodes.paragraph(
                text="On other backends, from runs made where CI cannot run (their "
                "observations are committed, and judged again against today's snippets in "
                "every build):"
            )
        )
        table = _table("jaxwaits-releases", {"where": 4, "verdict": 3, "why": 7}, others)
        found.append(nodes.container("", table, classes=["jaxwaits-scroll"]))
    return found


def index_table(app: Sphinx, fromdoc: str) -> list[nodes.Node]:
    """What the claims share, said once, then a row per claim: its statement and what it does
    not share, and its standing."""
    claims = inputs(app).registry.claims
    said = shared(app, list(claims.values()), stamped=False)
    rows = []
    for claim_id in sorted(claims):
        seen = claim_standing(app, claims[claim_id])
        link = doc_link(app, fromdoc, f"{PAGES}/{claim_id}", "", claim_id, code=True)
        statement = _statement(app, claims[claim_id])
        for words, shown in scope_parts(app, fromdoc, claims[claim_id], said):
            limits = nodes.paragraph(classes=["jaxwaits-limits"])
            limits += [nodes.Text(f"{words[0].upper()}{words[1:]} "), shown, nodes.Text(".")]
            statement.append(limits)
        rows.append(
            [link, statement, terms.link(app, fromdoc, standing_id(seen.standing), badge(seen))]
        )
    table = _table("jaxwaits-claims-index", {"Claim": 3, "Statement": 6, "Status": 3}, rows)
    note = shared_note(app, fromdoc, said, "a row")
    return [note, table] if len(note) else [table]


def _table(
    css: str, columns: dict[str, int], rows: list[list[nodes.Node | list[nodes.Node]]]
) -> nodes.table:
    """A table of class ``css``: its columns' headings with their relative widths (kept by the
    browser, so that a long cell does not push the last column out of view), then rows."""
    table = nodes.table(classes=[css, "colwidths-given"])
    group = nodes.tgroup(cols=len(columns))
    table += group
    for width in columns.values():
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += _row([nodes.Text(heading) for heading in columns])
    group += head
    body = nodes.tbody()
    for cells in rows:
        body += _row(cells)
    group += body
    return table


def _row(cells: list[nodes.Node | list[nodes.Node]]) -> nodes.row:
    """A table row; a cell is inline content, or a list of body elements (paragraphs)."""
    row = nodes.row()
    for content in cells:
        entry = nodes.entry()
        if isinstance(content, list):
            entry += content
        else:
            entry += nodes.paragraph("", "", content)
        row += entry
    return row
