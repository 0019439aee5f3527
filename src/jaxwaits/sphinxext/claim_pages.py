"""Claims on the site: the ``{claim}`` directive and role, a page per claim, the claims index.

The claims themselves are :mod:`jaxwaits.claims.registry`'s, read from the pages once before the
build reads them: the directive renders the typed claim it finds there, and the static checks
(IDs, evidence, references, citations) are the same code the tests run. This module shows what
only a build can know — did each snippet run and pass here — as each claim's standing
(:mod:`jaxwaits.chain.standing`).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.writers.html5 import HTML5Translator

from jaxwaits.chain import cite, problems, verdicts
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import MARKS, standing_id, verdict_id
from jaxwaits.chain.standing import ClaimStanding, Standing, standing
from jaxwaits.chain.verdicts import BACKEND_WORDS
from jaxwaits.claims import registry, scope  # docs/claim/<id>.md, generated for every claim
from jaxwaits.claims.registry import Claim
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known
from jaxwaits.files import inside, write_atomic, write_folder
from jaxwaits.sphinxext import elsewhere, ledger_table, terms
from jaxwaits.sphinxext.state import Citation, Context, inputs, site

logger = logging.getLogger(__name__)
APIDOCS = "apidocs/"  # sphinx-autodoc2's pages: the package's API, read from its source


class claim_status(nodes.General, nodes.Element):
    """Placeholder for a claim's standing, filled in once every page has run."""


class claim_reference(nodes.Inline, nodes.Element):
    """Placeholder for a ``{claim}`` reference, resolved once every claim is known."""


class claim_mark(nodes.Inline, nodes.TextElement):
    """A reference to a claim as a reader meets it: a short mark after the phrase it backs (the
    claim's standing), linking the claim, and the claim's sentence beside it, shown while the
    mark is hovered, focused or (on a touch screen) tapped. Drawn by :func:`_visit_mark`."""


class claim_copy_link(nodes.Inline, nodes.Element):
    """Placeholder for a claim box's copy-link control, filled in as each build links."""


class claim_page(nodes.General, nodes.Element):
    """Placeholder for the body of a claim's own page."""


class claims_index(nodes.General, nodes.Element):
    """Placeholder for the table of all claims."""


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


class ClaimDirective(SphinxDirective):
    """```{claim} <id>``: renders the claim the registry read here, with its status line."""

    required_arguments = 1
    has_content = True
    option_spec = {key: directives.unchanged for key in registry.OPTIONS}  # noqa: RUF012

    def run(self) -> list[nodes.Node]:
        if not registry.ID.fullmatch(self.arguments[0]):
            return []  # not read as a claim: the registry's problems say why, at this line
        claim = inputs(self.env.app).registry.claims.get(self.arguments[0])
        here = Path(self.env.doc2path(self.env.docname)).resolve()
        if claim is None or claim.file.resolve() != here:
            raise self.error(
                f"claim {self.arguments[0]!r} is not the one jaxwaits.claims read from this page; "
                "declare claims only in docs/*.md, in a fenced ```{claim} block"
            )
        box = nodes.container(classes=["jaxwaits-claim"], claim_id=claim.id)
        box["ids"] = [f"claim-{claim.id}", *(f"claim-{old}" for old in claim.renamed_from)]
        self.set_source_info(box)
        head = nodes.paragraph(classes=["jaxwaits-claim-id"])
        head += nodes.inline("claim", "claim", classes=["jaxwaits-claim-word"])
        head += nodes.Text(" ")
        head += terms.page_link(self.env.docname, f"/{PAGES}/{claim.id}", claim.id)
        head += claim_copy_link(claim_id=claim.id)
        box += head
        box += nodes.container("", *self.parse_content_to_nodes(), classes=["jaxwaits-statement"])
        box += claim_status(claim_id=claim.id)
        return [box]


class ClaimRole(SphinxRole):
    """{claim}`id` or {claim}`text <id>`: a link to the claim."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        text, _, target = self.text.partition("<")
        claim_id = target.rstrip(">").strip() if target else text.strip()
        label = text.strip() if target else claim_id
        node = claim_reference(claim_id=claim_id, label=label, explicit=bool(target))
        self.set_source_info(node)
        return [node], []


class ClaimPageDirective(SphinxDirective):
    """The body of ``claim/<id>``: statement, standing, where it is stated and cited."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [claim_page(claim_id=self.arguments[0])]


class ClaimsIndexDirective(SphinxDirective):
    """A table of every claim with its standing."""

    def run(self) -> list[nodes.Node]:
        return [claims_index()]


def declared_claims(doctree: nodes.document) -> dict[str, list[nodes.Node]]:
    """The claims a page declares, by ID, each with a copy of its rendered statement."""
    found = {}
    for box in doctree.findall(nodes.container):
        if box.get("claim_id"):
            statement = next(c for c in box.children if "jaxwaits-statement" in c["classes"])
            found[box["claim_id"]] = [child.deepcopy() for child in statement.children]
    return found


def contexts(doctree: nodes.document) -> dict[str, Context]:
    """Where each claim the page declares is stated: its section, and the paragraphs just
    before its box (at most two, back to the previous cell, claim or list)."""
    found = {}
    for box in doctree.findall(nodes.container):
        if not box.get("claim_id"):
            continue
        section = box.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        title, anchor = "", ""
        if section is not None:
            title, anchor = section[0].astext(), section["ids"][0] if section["ids"] else ""
        leading: list[nodes.Node] = []
        siblings = box.parent.children[: box.parent.index(box)]
        for node in reversed(siblings):
            if not isinstance(node, nodes.paragraph) or len(leading) == 2:
                break
            leading.insert(0, _flattened(node))
        found[box["claim_id"]] = Context(title, anchor, leading)
    return found


def _flattened(paragraph: nodes.paragraph) -> nodes.paragraph:
    """A copy of a paragraph to show on another page: links within its own page, and links
    still to be resolved there, become their text (the claim page links the place itself)."""
    copy = paragraph.deepcopy()
    for ref in list(copy.findall(addnodes.pending_xref)):
        ref.replace_self(ref.children)
    for ref in list(copy.findall(nodes.reference)):
        if ref.get("refid"):
            ref.replace_self(ref.children)
    return copy


def citations(doctree: nodes.document) -> list[Citation]:
    """Where each reference sits: the nearest enclosing anchor (an annotated line's, say)."""
    found = []
    for node in doctree.findall(claim_reference):
        anchor, label = "", ""
        parent = node.parent
        while parent is not None:
            if parent.get("cite_anchor"):
                anchor, label = parent["cite_anchor"], parent.get("cite_label", "")
                break
            if parent.get("ids"):
                anchor = parent["ids"][0]
                break
            parent = parent.parent
        found.append(Citation(node["claim_id"], anchor, label))
    return found


def _standing(app: Sphinx, claim: Claim) -> ClaimStanding:
    """What this build (its pages read now or before) showed about a claim."""
    others = inputs(app).facts.elsewhere[claim.id]
    return standing(claim, site(app.env).ran(), inputs(app).platform, others)


def _uri(app: Sphinx, fromdoc: str, todoc: str, anchor: str = "") -> str:
    uri = app.builder.get_relative_uri(fromdoc, todoc)
    return f"{uri}#{anchor}" if anchor else uri


def _link(
    app: Sphinx, fromdoc: str, todoc: str, anchor: str, text: str, code: bool = False
) -> nodes.reference:
    ref = nodes.reference("", "", internal=True, refuri=_uri(app, fromdoc, todoc, anchor))
    ref += nodes.literal(text, text) if code else nodes.Text(text)
    return ref


def _docname(app: Sphinx, claim: Claim) -> str:
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
    unverified = ledger_table.unverified_first([found[claim.id] for claim in claims])
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
        shown = ledger_table.span_words(said.unverified)
        note += nodes.Text("None of these claims was verified on ")
        uri = ledger_table.release_uri(app, fromdoc, said.unverified[0])
        note += nodes.reference("", f"jax {shown}", internal=True, refuri=uri)
        pages = "its page says" if len(said.unverified) == 1 else "their pages say"
        note += nodes.Text(f" ({pages} why). ")
    if not said.stamped:
        note += nodes.Text(f"This build ran their snippets on {inputs(app).platform.describe()}.")
    return note


def _scope_parts(
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


def _status_paragraph(
    app: Sphinx, fromdoc: str, claim: Claim, said: Shared = NO_SHARED
) -> nodes.paragraph:
    """The claim's status line: its standing, then only what ``said`` (the page's note) does not
    say already."""
    seen = _standing(app, claim)
    para = nodes.paragraph(classes=["jaxwaits-claim-status", seen.css])
    para += terms.link(app, fromdoc, standing_id(seen.standing), badge(seen))
    if said is NO_SHARED or seen.standing is not Standing.VERIFIED:
        para += nodes.Text(seen.rest)
    if claim.since or claim.until:
        para += nodes.Text(" · ")
        para += nodes.strong("", f"declared to hold {claim.releases}")
    for words, shown in _scope_parts(app, fromdoc, claim, said):
        para += [nodes.Text(f" · {words} "), shown]
    found = inputs(app)
    on = {r: v for r, v in found.verdicts[claim.id].items() if r not in said.unverified}
    held = verdicts.summary(on, found.facts.elsewhere[claim.id])
    para += nodes.Text(" · across releases: ")
    para += _link(app, fromdoc, ledger_table.MATRIX, "", held)
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
            para += _link(app, fromdoc, cell.docname, cell.anchor, cell.snippet, code=True)
    return para


def _note_shared(app: Sphinx, doctree: nodes.document, fromdoc: str) -> Shared:
    """Say once, before the page's first claim, what its claims share (on a page of two or
    more), and return it for their status lines."""
    statuses = list(doctree.findall(claim_status))
    if len(statuses) < 2:
        return NO_SHARED
    claims = [inputs(app).registry.claims[node["claim_id"]] for node in statuses]
    stamped = any("jaxwaits-built-with" in p["classes"] for p in doctree.findall(nodes.paragraph))
    said = shared(app, claims, stamped)
    note = shared_note(app, fromdoc, said, "a claim")
    box = statuses[0].parent
    if len(note):
        box.parent.insert(box.parent.index(box), note)
    return said


def _resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    claims = inputs(app).registry
    # Pages and the index copy claims' statements in, so they go first; the copies' status lines
    # and references are then resolved with everything else.
    for node in list(doctree.findall(claim_page)):
        node.replace_self(_page_body(app, fromdoc, node["claim_id"]))
    for node in list(doctree.findall(claims_index)):
        node.replace_self(_index_table(app, fromdoc))
    for node in list(doctree.findall(claim_copy_link)):
        node.replace_self(copy_link(app, node["claim_id"]))
    said = _note_shared(app, doctree, fromdoc)
    for node in list(doctree.findall(claim_status)):
        node.replace_self(_status_paragraph(app, fromdoc, claims.claims[node["claim_id"]], said))
    tips = itertools.count(1)  # each mark's sentence has an ID of its own on the page
    for node in list(doctree.findall(claim_reference)):
        claim = claims.resolve(node["claim_id"])
        if claim is None:  # reported by jaxwaits.claims.registry.check with file and line
            node.replace_self(nodes.problematic(node["label"], node["label"]))
            continue
        seen = _standing(app, claim)
        uri = _uri(app, fromdoc, _docname(app, claim), f"claim-{claim.id}")
        tip = f"tip-{claim.id}-{next(tips)}"
        mark = claim_mark("", "", uri=uri, shape=seen.shape, css=seen.css, tip=tip)
        mark += terms.link(app, fromdoc, standing_id(seen.standing), badge(seen, small=True))
        mark += [nodes.Text(" "), nodes.literal(claim.id, claim.id), nodes.Text(": ")]
        mark += ledger_table.why_nodes(claim.statement)
        if node["explicit"]:  # {claim}`words <id>`: the words link the claim too
            words = nodes.reference("", node["label"], internal=True, refuri=uri)
            node.replace_self([words, mark])
        else:
            node.replace_self(mark)


def _visit_mark(self: HTML5Translator, node: claim_mark) -> None:
    self.body.append(
        '<span class="jaxwaits-claim-ref">'
        f'<a class="jaxwaits-claim-link {node["css"]}" href="{self.attval(node["uri"])}"'
        f' aria-describedby="{node["tip"]}">{node["shape"]}</a>'
        f'<span class="jaxwaits-claim-tip" role="tooltip" id="{node["tip"]}">'
    )


def _depart_mark(self: HTML5Translator, node: claim_mark) -> None:
    self.body.append("</span></span>")


def _statement(app: Sphinx, claim: Claim) -> list[nodes.Node]:
    """A copy of the claim's statement as rendered where it is declared."""
    declared = site(app.env).declared().get(claim.id)
    if declared is None:
        return [nodes.paragraph(text=claim.statement)]
    return [node.deepcopy() for node in declared[1]]


def _page_body(app: Sphinx, fromdoc: str, claim_id: str) -> list[nodes.Node]:
    claim = inputs(app).registry.claims.get(claim_id)
    if claim is None:
        return [nodes.paragraph(text=f"No claim {claim_id} is declared.")]
    statement = nodes.container(classes=["jaxwaits-claim-statement"])
    statement += _statement(app, claim)
    where = _docname(app, claim)
    title = app.env.titles[where].astext() if where in app.env.titles else where
    context = site(app.env).context(claim_id)
    stated = nodes.paragraph()
    stated += nodes.Text("Stated in ")
    stated += _link(app, fromdoc, where, f"claim-{claim_id}", title)
    if context is not None and context.title and context.title != title:
        stated += nodes.Text(", section ")
        stated += _link(app, fromdoc, where, context.anchor, context.title)
    body: list[nodes.Node] = [statement, _status_paragraph(app, fromdoc, claim)]
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
        item += _link(app, fromdoc, doc, "", app.env.titles[doc].astext())
        labelled = [c for c in places if c.label]
        for i, place in enumerate(labelled):
            item += nodes.Text(": " if i == 0 else ", ")
            item += _link(app, fromdoc, doc, place.anchor, place.label)
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
    intro += _link(app, fromdoc, "how-it-works", "scope-axes", "axis JAX's waiting varies on")
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
            refuri=ledger_table.release_uri(app, fromdoc, span.first),
        )
        verdict = span.verdict.verdict
        mark = nodes.inline("", MARKS[verdict], classes=[terms.css(verdict)])
        word = terms.link(app, fromdoc, verdict_id(verdict), mark, nodes.Text(f" {verdict.words}"))
        why = nodes.inline("", "", *ledger_table.why_nodes(span.verdict.why))
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


def _index_table(app: Sphinx, fromdoc: str) -> list[nodes.Node]:
    """What the claims share, said once, then a row per claim: its statement and what it does
    not share, and its standing."""
    claims = inputs(app).registry.claims
    said = shared(app, list(claims.values()), stamped=False)
    rows = []
    for claim_id in sorted(claims):
        seen = _standing(app, claims[claim_id])
        link = _link(app, fromdoc, f"{PAGES}/{claim_id}", "", claim_id, code=True)
        statement = _statement(app, claims[claim_id])
        for words, shown in _scope_parts(app, fromdoc, claims[claim_id], said):
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


def _write_pages(app: Sphinx) -> None:
    """Write ``claim/<id>.md`` for every claim the registry finds (unchanged files stay put),
    and warn about every broken link in the chain and every file nothing uses."""
    found = inputs(app)
    wanted = {
        f"{claim.id}.md": _page_source(claim, found.project.snippets)
        for claim in found.registry.claims.values()
    }
    write_folder(Path(app.srcdir) / PAGES, wanted)
    for problem in problems.links(found.facts):
        logger.warning(
            problem.message, location=problem.where or None, type="jaxwaits", subtype=problem.kind
        )


def _page_source(claim: Claim, snippets: Path) -> str:
    """The MyST of a claim's page: its body, and each snippet behind it with its recorded output
    (a file that does not exist is said so, the claims check having named it already)."""
    lines = [
        "---",
        "orphan: true",
        "---",
        "",
        f"# Claim `{claim.id}`",
        "",
        f"```{{claim-page}} {claim.id}",
        "```",
        "",
    ]
    for name in claim.evidence:
        lines += [f"## Evidence: `{name}`", ""]
        parts = ((".py", "python", []), (".out", "text", ["Its recorded output:"]))
        for suffix, language, intro in parts:
            if not (snippets / f"{name}{suffix}").is_file():
                lines += [f"No file `snippets/{name}{suffix}`.", ""]
                continue
            lines += [*intro, "", f"```{{literalinclude}} ../../snippets/{name}{suffix}"]
            lines += [f":language: {language}", "```", ""]
        lines += _printed_elsewhere(snippets, name)
    return "\n".join(lines)


def _printed_elsewhere(snippets: Path, name: str) -> list[str]:
    """What the snippet printed on other backends, where that was not its recorded output (an
    unreadable known-differences file is the claims check's to name)."""
    try:
        found = known.load(snippets, name)
    except JaxwaitsError:
        return []
    lines = []
    for output in found.outputs:
        if output.backend == known.CPU:
            continue
        on = (
            f"{BACKEND_WORDS.get(output.backend, output.backend)}, jax {', '.join(output.releases)}"
        )
        fence = "````" if "```" in output.text else "```"
        lines += [f"What it printed on {on}:", "", f"{fence}text", output.text.rstrip("\n")]
        lines += [fence, ""]
    return lines


def _also_reread(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages showing claims depend on every page that runs evidence, and on the verdicts (the
    ledger, the snippets' fingerprints, the known outputs' classifications): when any of them
    changed, read them again."""
    state = site(env)
    found = inputs(app).facts
    verdicts_now = repr((sorted(found.verdicts.items()), sorted(found.elsewhere.items())))
    verdicts_changed = state.verdicts_seen != verdicts_now
    state.verdicts_seen = verdicts_now
    if not (added or changed or removed or verdicts_changed):
        return []
    return sorted(set(_pages_with_claims(env)))


def _pages_with_claims(env: BuildEnvironment) -> Iterator[str]:
    for doc, facts in site(env).pages.items():
        if facts.claims or facts.citations:
            yield doc
    # read from the verdicts as the page is read
    tables = ("claims", ledger_table.MATRIX, "changes")
    generated = (f"{PAGES}/", f"{ledger_table.RELEASES}/", f"{elsewhere.RUNS}/")
    yield from (d for d in env.found_docs if d.startswith(generated) or d in tables)


def _redirects(app: Sphinx, exception: Exception | None) -> None:
    """``claim/<old>.html`` leads to the renamed claim's page."""
    if exception or app.builder.format != "html":
        return
    for claim in inputs(app).registry.claims.values():
        for old in claim.renamed_from:
            target = inside(Path(app.outdir) / PAGES, f"{old}.html")
            write_atomic(
                target,
                f'<!DOCTYPE html><meta charset="utf-8"><title>Moved to {claim.id}</title>'
                f'<meta http-equiv="refresh" content="0; url={claim.id}.html">'
                f'<p>Claim <code>{old}</code> is now <a href="{claim.id}.html">{claim.id}</a>.</p>',
            )


def setup(app: Sphinx) -> None:
    app.add_directive("claim", ClaimDirective)
    app.add_role("claim", ClaimRole())
    app.add_directive("claim-page", ClaimPageDirective)
    app.add_directive("claims-index", ClaimsIndexDirective)
    for node in (claim_status, claim_copy_link, claim_reference, claim_page, claims_index):
        app.add_node(node)
    app.add_node(claim_mark, html=(_visit_mark, _depart_mark))
    app.connect("builder-inited", _write_pages)
    app.connect("env-get-outdated", _also_reread)
    # before cells' handler resolves {evidence} links: a claim page quotes paragraphs holding them
    app.connect("doctree-resolved", _resolve, priority=400)
    app.connect("build-finished", _redirects)
