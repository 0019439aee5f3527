"""Claims on the site: the ``{claim}`` directive and role, a page per claim, the claims index.

The static checks (IDs, evidence, references) are :func:`jaxwaits.claims.registry.check`, the same
code the tests run; this module adds what only a build can know (did each snippet run and match
here) and renders each claim with its status.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxwaits.claims import registry as registry_
from jaxwaits.claims.cite import PAGES  # docs/claim/<id>.md, generated for every claim
from jaxwaits.evidence.snippets import load_snippets
from jaxwaits.files import write_atomic
from jaxwaits.releases import ledger
from jaxwaits.sphinxext import ledger_table
from jaxwaits.sphinxext.cells import CellResult, cell_results

logger = logging.getLogger(__name__)


class claim_status(nodes.General, nodes.Element):
    """Placeholder for a claim's status, filled in once every page has run."""


class claim_reference(nodes.Inline, nodes.Element):
    """Placeholder for a ``{claim}`` reference, resolved once every claim is known."""


class claim_page(nodes.General, nodes.Element):
    """Placeholder for the body of a claim's own page."""


class claims_index(nodes.General, nodes.Element):
    """Placeholder for the table of all claims."""


@dataclass(frozen=True)
class Status:
    """A claim's standing in this build: ``verified``, ``failing`` or ``needs-<backend>``."""

    kind: str
    text: str


def _claims(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    if not hasattr(env, "jaxwaits_claims"):
        env.jaxwaits_claims = {}
    return env.jaxwaits_claims


class ClaimDirective(SphinxDirective):
    """```{claim} <id>`` with ``:evidence:``, ``:needs:``, ``:rests-on:``, ``:renamed-from:``."""

    required_arguments = 1
    has_content = True
    option_spec = {  # noqa: RUF012 (docutils reads this class attribute)
        "evidence": str,
        "needs": str,
        "rests-on": str,
        "renamed-from": str,
        "source": str,
    }

    def run(self) -> list[nodes.Node]:
        claim_id = self.arguments[0]
        renamed = self.options.get("renamed-from", "").replace(",", " ").split()
        box = nodes.container(classes=["jaxwaits-claim"])
        box["ids"] = [f"claim-{claim_id}", *(f"claim-{old}" for old in renamed)]
        self.set_source_info(box)
        head = nodes.paragraph(classes=["jaxwaits-claim-id"])
        head += nodes.inline("claim", "claim", classes=["jaxwaits-claim-word"])
        head += nodes.Text(" ")
        head += addnodes.pending_xref(
            "",
            nodes.literal(claim_id, claim_id),
            refdomain="std",
            reftype="doc",
            reftarget=f"/{PAGES}/{claim_id}",
            refexplicit=True,
            refdoc=self.env.docname,
        )
        box += head
        statement = self.parse_content_to_nodes()
        box += statement
        box += claim_status(claim_id=claim_id)
        _claims(self.env)[claim_id] = {
            "docname": self.env.docname,
            "line": self.lineno,
            "statement": " ".join("\n".join(self.content).split()),
            "rendered": [node.deepcopy() for node in statement],  # for its page and the index
            "evidence": self.options.get("evidence", "").replace(",", " ").split(),
            "needs": self.options.get("needs"),
            "rests_on": self.options.get("rests-on"),
            "renamed_from": renamed,
        }
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
    """The body of ``claim/<id>``: statement, status, where it is stated and cited."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        return [claim_page(claim_id=self.arguments[0])]


class ClaimsIndexDirective(SphinxDirective):
    """A table of every claim with its status."""

    def run(self) -> list[nodes.Node]:
        return [claims_index()]


def status(app: Sphinx, claim: dict[str, Any]) -> Status:
    """What this build showed about a claim."""
    cells: dict[str, list[CellResult]] = {}
    for cell in cell_results(app.env):
        cells.setdefault(cell.snippet, []).append(cell)
    platform = app.jaxwaits_platform
    for name in claim["evidence"]:
        if not cells.get(name):
            return Status("failing", f"failing: its evidence {name} did not run in this build")
        failed = next((cell for cell in cells[name] if not cell.passed), None)
        if failed is not None:
            return Status("failing", f"failing: its evidence {name} {failed.status.value} here")
    if not claim["evidence"]:
        return Status("failing", "failing: no evidence")
    if claim["needs"] and claim["needs"] != platform.backend:
        return Status(
            f"needs-{claim['needs']}",
            f"needs {claim['needs']}: not observable on {platform.backend}, so not verified "
            f"here; rests on {claim['rests_on']}",
        )
    return Status("verified", f"verified in this build on {platform.describe()}")


def _uri(app: Sphinx, fromdoc: str, todoc: str, anchor: str = "") -> str:
    uri = app.builder.get_relative_uri(fromdoc, todoc)
    return f"{uri}#{anchor}" if anchor else uri


def _link(
    app: Sphinx, fromdoc: str, todoc: str, anchor: str, text: str, code: bool = False
) -> nodes.reference:
    ref = nodes.reference("", "", internal=True, refuri=_uri(app, fromdoc, todoc, anchor))
    ref += nodes.literal(text, text) if code else nodes.Text(text)
    return ref


def _status_paragraph(app: Sphinx, fromdoc: str, claim_id: str) -> nodes.paragraph:
    claim = _claims(app.env)[claim_id]
    found = status(app, claim)
    para = nodes.paragraph(classes=["jaxwaits-claim-status", f"jaxwaits-{found.kind}"])
    para += nodes.strong(found.text.split(":")[0], found.text.split(":")[0])
    para += nodes.Text(found.text[len(found.text.split(":")[0]) :])
    held = ledger.summary(app.jaxwaits_ledger, claim["evidence"], claim["needs"])
    para += nodes.Text(" · across releases: ")
    para += _link(app, fromdoc, "matrix", "", held)
    cells = [c for c in cell_results(app.env) if c.snippet in claim["evidence"]]
    if cells:
        para += nodes.Text(" · evidence: ")
        for i, cell in enumerate(cells):
            if i:
                para += nodes.Text(", ")
            para += _link(app, fromdoc, cell.docname, cell.anchor, cell.snippet, code=True)
    return para


def _resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    claims = _claims(app.env)
    # Pages and the index copy claims' statements in, so they go first; the copies' status lines
    # and references are then resolved with everything else.
    for node in list(doctree.findall(claim_page)):
        node.replace_self(_page_body(app, fromdoc, node["claim_id"]))
    for node in list(doctree.findall(claims_index)):
        node.replace_self(_index_table(app, fromdoc))
    for node in list(doctree.findall(ledger_table.verification_matrix)):
        node.replace_self(ledger_table.build(app, fromdoc, claims))
    for node in list(doctree.findall(claim_status)):
        node.replace_self(_status_paragraph(app, fromdoc, node["claim_id"]))
    aliases = {old: cid for cid, c in claims.items() for old in c["renamed_from"]}
    for node in list(doctree.findall(claim_reference)):
        claim_id = aliases.get(node["claim_id"], node["claim_id"])
        if claim_id not in claims:  # reported by jaxwaits.claims.registry.check with file and line
            node.replace_self(nodes.problematic(node["label"], node["label"]))
            continue
        label = node["label"] if node["explicit"] else claim_id
        target = claims[claim_id]["docname"]
        ref = _link(app, fromdoc, target, f"claim-{claim_id}", label, code=not node["explicit"])
        ref["classes"].append("jaxwaits-claim-ref")
        ref["reftitle"] = claims[claim_id]["statement"]
        node.replace_self(ref)


def _page_body(app: Sphinx, fromdoc: str, claim_id: str) -> list[nodes.Node]:
    claim = _claims(app.env).get(claim_id)
    if claim is None:
        return [nodes.paragraph(text=f"No claim {claim_id} is declared.")]
    statement = nodes.container(classes=["jaxwaits-claim-statement"])
    statement += [node.deepcopy() for node in claim["rendered"]]
    stated = nodes.paragraph()
    stated += nodes.Text("Stated in ")
    title = app.env.titles[claim["docname"]].astext()
    stated += _link(app, fromdoc, claim["docname"], f"claim-{claim_id}", title)
    stated += nodes.Text(f"; permanent anchor #claim-{claim_id}.")
    body: list[nodes.Node] = [statement, _status_paragraph(app, fromdoc, claim_id), stated]
    names = {claim_id, *claim["renamed_from"]}
    citing = nodes.bullet_list()
    for doc, citations in sorted(getattr(app.env, "jaxwaits_refs", {}).items()):
        places = [c for c in citations if c.claim_id in names]
        if not places or doc == fromdoc:
            continue
        item = nodes.paragraph()
        item += _link(app, fromdoc, doc, "", app.env.titles[doc].astext())
        labelled = [c for c in places if c.label]
        for i, place in enumerate(labelled):
            item += nodes.Text(": " if i == 0 else ", ")
            item += _link(app, fromdoc, doc, place.anchor, place.label)
        citing += nodes.list_item("", item)
    if len(citing):
        body += [nodes.paragraph(text="Cited from:"), citing]
    return body


def _index_table(app: Sphinx, fromdoc: str) -> nodes.table:
    claims = _claims(app.env)
    table = nodes.table(classes=["jaxwaits-claims-index"])
    group = nodes.tgroup(cols=3)
    table += group
    for width in (3, 6, 3):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += _row([nodes.Text("Claim"), nodes.Text("Statement"), nodes.Text("Status")])
    group += head
    body = nodes.tbody()
    for claim_id in sorted(claims):
        found = status(app, claims[claim_id])
        link = _link(app, fromdoc, f"{PAGES}/{claim_id}", "", claim_id, code=True)
        mark = nodes.inline(found.kind, found.kind, classes=[f"jaxwaits-{found.kind}"])
        statement = [node.deepcopy() for node in claims[claim_id]["rendered"]]
        body += _row([link, statement, mark])
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
    """Write ``claim/<id>.md`` for every claim the registry finds (unchanged files stay put)."""
    project, registry = app.jaxwaits_project, app.jaxwaits_registry
    folder = Path(app.srcdir) / PAGES
    folder.mkdir(exist_ok=True)
    wanted = {
        f"{claim.id}.md": _page_source(claim, project.snippets)
        for claim in registry.claims.values()
    }
    for stale in set(p.name for p in folder.glob("*.md")) - set(wanted):
        (folder / stale).unlink()
    for name, text in wanted.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)
    problems = registry_.check(registry, {s.name for s in load_snippets(project.snippets)})
    for problem in problems:
        logger.warning(problem.message, location=problem.where, type="jaxwaits", subtype="claims")


def _page_source(claim: registry_.Claim, snippets: Path) -> str:
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
    return "\n".join(lines)


def failing(app: Sphinx) -> list[tuple[str, dict[str, Any], Status]]:
    """Every claim that this build (its pages read now or before) does not show as holding."""
    found = []
    for claim_id, claim in sorted(_claims(app.env).items()):
        found_status = status(app, claim)
        if found_status.kind == "failing":
            found.append((claim_id, claim, found_status))
    return found


def _consistency(app: Sphinx, env: BuildEnvironment) -> None:
    """The site's claims and what ran: what the registry and the build disagree on."""
    seen = set(_claims(env))
    declared = set(app.jaxwaits_registry.claims)
    for claim_id in sorted(seen ^ declared):
        logger.warning(
            "claim %s is seen by %s but not by %s; declare claims only in docs/*.md "
            "with a fenced ```{claim} block",
            claim_id,
            "Sphinx" if claim_id in seen else "the claims registry",
            "the registry" if claim_id in seen else "Sphinx",
            type="jaxwaits",
            subtype="claims",
        )
    ran = {cell.snippet for cell in cell_results(env)}
    for claim_id, claim in sorted(_claims(env).items()):
        for name in claim["evidence"]:
            if name not in ran:
                logger.warning(
                    "claim %s: its evidence snippet %s was not executed in this build",
                    claim_id,
                    name,
                    location=(claim["docname"], claim["line"]),
                    type="jaxwaits",
                    subtype="claims",
                )


@dataclass(frozen=True)
class Citation:
    """A reference to a claim, and the nearest place on its page that can be linked."""

    claim_id: str
    anchor: str
    label: str  # e.g. "L645" for a line of an annotated piece; empty for a plain anchor


def _collect_citations(app: Sphinx, doctree: nodes.document) -> None:
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
    refs = getattr(app.env, "jaxwaits_refs", {})
    refs[app.env.docname] = found
    app.env.jaxwaits_refs = refs


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    for claim_id in [k for k, v in _claims(env).items() if v["docname"] == docname]:
        del _claims(env)[claim_id]
    getattr(env, "jaxwaits_refs", {}).pop(docname, None)


def _also_reread(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages showing claims depend on every page that runs evidence, and on the ledger: when
    either changed, rewrite them too."""
    ledger_state = [v.to_json() for v in app.jaxwaits_ledger]
    ledger_changed = getattr(env, "jaxwaits_ledger_state", None) != ledger_state
    env.jaxwaits_ledger_state = ledger_state
    if not (added or changed or removed or ledger_changed):
        return []
    return sorted(set(_pages_with_claims(env)))


def _pages_with_claims(env: BuildEnvironment) -> Iterator[str]:
    yield from (c["docname"] for c in _claims(env).values())
    yield from getattr(env, "jaxwaits_refs", {})
    yield from (d for d in env.found_docs if d.startswith(f"{PAGES}/") or d in ("claims", "matrix"))


def _redirects(app: Sphinx, exception: Exception | None) -> None:
    """``claim/<old>.html`` leads to the renamed claim's page."""
    if exception or app.builder.format != "html":
        return
    for claim_id, claim in _claims(app.env).items():
        for old in claim["renamed_from"]:
            target = Path(app.outdir) / PAGES / f"{old}.html"
            write_atomic(
                target,
                f'<!DOCTYPE html><meta charset="utf-8"><title>Moved to {claim_id}</title>'
                f'<meta http-equiv="refresh" content="0; url={claim_id}.html">'
                f'<p>Claim <code>{old}</code> is now <a href="{claim_id}.html">{claim_id}</a>.</p>',
            )


def setup(app: Sphinx) -> None:
    app.add_directive("claim", ClaimDirective)
    app.add_role("claim", ClaimRole())
    app.add_directive("claim-page", ClaimPageDirective)
    app.add_directive("claims-index", ClaimsIndexDirective)
    for node in (claim_status, claim_reference, claim_page, claims_index):
        app.add_node(node)
    app.connect("builder-inited", _write_pages)
    app.connect("doctree-read", _collect_citations)
    app.connect("env-purge-doc", _purge)
    app.connect("env-get-outdated", _also_reread)
    app.connect("env-check-consistency", _consistency)
    app.connect("doctree-resolved", _resolve)
    app.connect("build-finished", _redirects)
