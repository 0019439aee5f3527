"""Claims on the site: the ``{claim}`` directive and role, a page per claim, the claims index.

The claims themselves are :mod:`jaxwaits.claims.registry`'s, read from the pages once before the
build reads them: the directive renders the typed claim it finds there, and the static checks
(IDs, evidence, references, citations) are the same code the tests run. This module shows what
only a build can know — did each snippet run and pass here — as each claim's standing
(:mod:`jaxwaits.chain.standing`). A claim's status line is
:mod:`~jaxwaits.sphinxext.claim_status`'s; the body of its page and the claims index are
:mod:`~jaxwaits.sphinxext.claim_page_body`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.writers.html5 import HTML5Translator

from jaxwaits.chain import problems
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import standing_id
from jaxwaits.chain.verdicts import BACKEND_WORDS
from jaxwaits.claims import registry  # docs/claim/<id>.md, generated for every claim
from jaxwaits.claims.registry import Claim
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import known
from jaxwaits.files import inside, write_atomic, write_folder
from jaxwaits.sphinxext import elsewhere, terms, verification_matrix
from jaxwaits.sphinxext.claim_page_body import index_table, page_body
from jaxwaits.sphinxext.claim_status import (
    NO_SHARED,
    Shared,
    badge,
    claim_standing,
    copy_link,
    declared_in,
    doc_uri,
    shared,
    shared_note,
    status_paragraph,
)
from jaxwaits.sphinxext.state import Citation, Context, inputs, site

logger = logging.getLogger(__name__)


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
        node.replace_self(page_body(app, fromdoc, node["claim_id"]))
    for node in list(doctree.findall(claims_index)):
        node.replace_self(index_table(app, fromdoc))
    for node in list(doctree.findall(claim_copy_link)):
        node.replace_self(copy_link(app, node["claim_id"]))
    said = _note_shared(app, doctree, fromdoc)
    for node in list(doctree.findall(claim_status)):
        node.replace_self(status_paragraph(app, fromdoc, claims.claims[node["claim_id"]], said))
    tips = itertools.count(1)  # each mark's sentence has an ID of its own on the page
    for node in list(doctree.findall(claim_reference)):
        claim = claims.resolve(node["claim_id"])
        if claim is None:  # reported by jaxwaits.claims.registry.check with file and line
            node.replace_self(nodes.problematic(node["label"], node["label"]))
            continue
        seen = claim_standing(app, claim)
        uri = doc_uri(app, fromdoc, declared_in(app, claim), f"claim-{claim.id}")
        tip = f"tip-{claim.id}-{next(tips)}"
        mark = claim_mark("", "", uri=uri, shape=seen.shape, css=seen.css, tip=tip)
        mark += terms.link(app, fromdoc, standing_id(seen.standing), badge(seen, small=True))
        mark += [nodes.Text(" "), nodes.literal(claim.id, claim.id), nodes.Text(": ")]
        mark += verification_matrix.why_nodes(claim.statement)
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
    tables = ("claims", verification_matrix.MATRIX, "changes")
    generated = (f"{PAGES}/", f"{verification_matrix.RELEASES}/", f"{elsewhere.RUNS}/")
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
