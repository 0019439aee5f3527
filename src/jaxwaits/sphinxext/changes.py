"""What changed, release by release (:mod:`jaxwaits.chain.changes`), as the changes page; and
the ``{changed-in}`` role, with which a sentence that names a boundary release cites the ledger
fact it rests on.

``{changed-in}`0.4.32 <poll_after_dispatch>``` renders as a link to 0.4.32's entry on the
changes page; inside the note of that same release, where the release goes without saying, as a
small mark after the phrase it backs, which links to the fact in the entry's list. The target is
a snippet (it must print something else on 0.4.32 than on the release just before it, both
verified), a claim (its verdict must change there) or a vendored piece (its upstream text must
change there). Every build checks every citation, and every
boundary named in plain prose, whatever pages it re-read (:func:`jaxwaits.chain.problems.built`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from jaxwaits.chain.changes import Change, changes, named_boundaries
from jaxwaits.chain.cite import PAGES
from jaxwaits.chain.marks import verdict_id
from jaxwaits.sphinxext import terms
from jaxwaits.sphinxext.claim_pages import claim_mark
from jaxwaits.sphinxext.state import CitedBoundary, inputs

PAGE = "changes"
QUIET = "source-only"  # the anchor of the list of releases where only the source changed


def entry_id(release: str) -> str:
    return nodes.make_id(f"changed-in-{release}")


def fact_id(release: str, kind: str, name: str) -> str:
    """The anchor of one fact in a release's entry: ``kind`` is claim, snippet or piece (a
    snippet and a claim may share a name once made an ID)."""
    return nodes.make_id(f"changed-in-{release}-{kind}-{name}")


class release_note(nodes.container):
    """A release's note in words, moved into its section by ``{release-changes}`` (rendered as
    the container it is)."""


class ReleaseNoteDirective(SphinxDirective):
    """```{release-note} 0.4.32``: what changed for waiting in that release, in sentences that
    cite each change with ``{changed-in}`` (checked against the ledger like every citation).
    Notes go above ``{release-changes}`` on the same page."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        note = release_note(release=self.arguments[0].strip(), classes=["jaxwaits-release-note"])
        self.set_source_info(note)
        note += self.parse_content_to_nodes()
        return [note]


def noticed(change: Change) -> bool:
    """Whether a harness would notice the change: a claim's verdict changed, or a snippet printed
    something else (not only a vendored piece's upstream source)."""
    return bool(change.claims or change.snippets)


class ReleaseChangesDirective(SphinxDirective):
    """``{release-changes}``: a section for each release at which anything changed, newest
    first: its note in words (a ``{release-note}`` above), then what the ledger shows, each
    item linked. A release where only the source of a vendored piece changed, which no snippet
    and no verdict shows, is folded into one line of a list at the end."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        found = inputs(self.env.app).facts
        notes = {note["release"]: note for note in self.state.document.findall(release_note)}
        quiet = nodes.bullet_list(classes=["jaxwaits-quiet-releases"])
        for change in reversed(changes(found)):
            if not change:
                continue
            note = notes.get(change.release)
            if note is not None:
                note.parent.remove(note)
            ledger = self._ledger(change)
            if noticed(change):
                section = nodes.section(
                    ids=[entry_id(change.release)], names=[entry_id(change.release)]
                )
                section += nodes.title("", f"jax {change.release}")
                section += [note] if note is not None else []
                section += nodes.paragraph(
                    text=f"What the ledger shows, against jax {change.previous}:"
                )
                section += ledger
                out.append(section)
                continue
            item = nodes.list_item(ids=[entry_id(change.release)])
            label = [nodes.strong("", f"jax {change.release}"), nodes.Text(": ")]
            first = note[0] if note is not None and len(note) else None
            if isinstance(first, nodes.paragraph):  # the release leads its note's first line
                first[0:0] = label
            else:
                item += nodes.paragraph("", "", *label[:1])
            item += [note] if note is not None else []
            item += ledger
            quiet += item
        if len(quiet):
            section = nodes.section(ids=[QUIET], names=[QUIET])
            section += nodes.title("", "Releases where only the source changed")
            section += nodes.paragraph(
                text="On these releases the source of a function this site annotates changed, "
                "but no snippet printed anything else and no claim's verdict changed: nothing a "
                "harness would notice."
            )
            section += quiet
            out.append(section)
        return out

    def _ledger(self, change: Change) -> nodes.bullet_list:
        """What the ledger shows at a release, an item per fact, each with an anchor a note's
        mark links to."""
        app, here = self.env.app, self.env.docname
        backs = inputs(app).facts.registry.backs()
        items = nodes.bullet_list(classes=["jaxwaits-ledger-changes"])
        for claim_id, before, after in change.claims:
            para = nodes.paragraph()
            para += nodes.Text("claim ")
            para += terms.page_link(here, f"/{PAGES}/{claim_id}", claim_id)
            para += nodes.Text(": ")
            para += terms.link(app, here, verdict_id(before), nodes.Text(before.words))
            para += nodes.Text(" → ")
            para += terms.link(app, here, verdict_id(after), nodes.Text(after.words))
            items += nodes.list_item("", para, ids=[fact_id(change.release, "claim", claim_id)])
        for name in change.snippets:
            para = nodes.paragraph()
            para += nodes.Text("snippet ")
            claims = backs.get(name, [])
            shown = terms.page_link(here, f"/{PAGES}/{claims[0]}", name) if claims else None
            para += shown if shown is not None else nodes.literal(name, name)
            para += nodes.Text(" prints something else")
            items += nodes.list_item("", para, ids=[fact_id(change.release, "snippet", name)])
        for piece, how in change.pieces:
            para = nodes.paragraph()
            para += nodes.Text("vendored piece ")
            para += terms.page_link(here, f"/source/{piece}", piece)
            para += nodes.Text(f": {how}")
            items += nodes.list_item("", para, ids=[fact_id(change.release, "piece", piece)])
        return items


def release_notes(doctree: nodes.document) -> list[tuple[str, tuple[str, ...], int | None]]:
    """Each release note on a page: its release, the releases its ``{changed-in}`` roles cite,
    and its line."""
    return [
        (note["release"], tuple(n["release"] for n in note.findall(changed_in)), note.line)
        for note in doctree.findall(release_note)
    ]


class changed_in(nodes.Inline, nodes.Element):
    """A boundary release in prose and the fact it rests on, resolved into a link to its entry."""


class ChangedInRole(SphinxRole):
    """``{changed-in}`0.4.32 <snippet, claim or piece>```: kept as the page is read, checked
    against the ledger at the end of every build
    (:func:`jaxwaits.chain.changes.boundary_problem`)."""

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


def _resolve(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    found = inputs(app).facts
    at = {change.release: change for change in changes(found)} if fromdoc == PAGE else {}
    tips = itertools.count(1)
    for node in list(doctree.findall(changed_in)):
        release, target = node["release"], node["target"]
        note = next((n for n in _ancestors(node) if isinstance(n, release_note)), None)
        said = _fact(at[release], target) if release in at else None
        if note is not None and note["release"] == release and said is not None:
            kind, words = said
            uri = f"#{fact_id(release, kind, target)}"
            mark = claim_mark("", "", uri=uri, shape="Δ", tip=f"tip-changed-{next(tips)}")
            mark["css"] = "jaxwaits-changed-mark"
            shown = "vendored piece" if kind == "piece" else kind
            mark += nodes.Text(f"In the ledger, against jax {at[release].previous}: {shown} ")
            mark += [nodes.literal(target, target), nodes.Text(f": {words}.")]
            node.replace_self(mark)
            continue
        uri = app.builder.get_relative_uri(fromdoc, PAGE) + f"#{entry_id(release)}"
        ref = nodes.reference("", "", internal=True, refuri=uri, classes=["jaxwaits-changed-in"])
        ref += nodes.Text(release)
        node.replace_self(ref)


def _fact(change: Change, target: str) -> tuple[str, str] | None:
    """The kind of fact ``target`` is in a release's entry, and what the entry says of it (None
    if the entry does not hold it: the build names that citation)."""
    for claim_id, before, after in change.claims:
        if claim_id == target:
            return "claim", f"{before.words} → {after.words}"
    if target in change.snippets:
        return "snippet", "prints something else"
    return next((("piece", how) for piece, how in change.pieces if piece == target), None)


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def setup(app: Sphinx) -> None:
    app.add_directive("release-changes", ReleaseChangesDirective)
    app.add_directive("release-note", ReleaseNoteDirective)
    app.add_node(release_note)
    app.add_role("changed-in", ChangedInRole())
    app.add_node(changed_in)
    app.connect("doctree-resolved", _resolve)
