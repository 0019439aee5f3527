"""``{claims-on} <backend> <release>``: the claims sorted by hand into lists, each list item led
by a ``{claim}`` reference and saying what the claim rests on; once the page is read, each item
is followed by the annotated upstream lines the claim lists (its ``:source:``) and by its verdict
on that run, read from the ledger, never typed, and each list goes in the order of its verdicts
(holds first). A block with no content shows how many claims have each verdict on the run.
Together the blocks of a page name every claim once: a claim left out, listed twice or unknown,
an item led by no claim, or a run the ledger does not hold is a warning."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from jaxwaits.chain.marks import MARKS, verdict_id
from jaxwaits.chain.verdicts import BACKEND_WORDS, Elsewhere, Verdict
from jaxwaits.sphinxext import elsewhere, terms, verification_matrix
from jaxwaits.sphinxext.claim_pages import claim_reference
from jaxwaits.sphinxext.state import inputs

logger = logging.getLogger(__name__)
ORDER = list(Verdict)


class claims_on(nodes.General, nodes.Element):
    """One ``{claims-on}`` block until its page is read; then its contents, filled in."""


def sorting_problems(listed: Iterable[str], claims: Iterable[str]) -> list[str]:
    """Each claim listed twice or never, each listed ID that is no claim: what keeps a sorting
    from holding every claim once."""
    counts = Counter(listed)
    known = set(claims)
    return [
        *(f"claim {c} is listed {n} times" for c, n in sorted(counts.items()) if n > 1),
        *(f"{c} is no claim" for c in sorted(set(counts) - known)),
        *(f"claim {c} is not listed" for c in sorted(known - set(counts))),
    ]


class ClaimsOnDirective(SphinxDirective):
    """A list of claims, or the counts, for one run on another backend."""

    required_arguments = 2
    has_content = True

    def run(self) -> list[nodes.Node]:
        box = claims_on(run=tuple(self.arguments))
        self.set_source_info(box)
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


class _Page:
    """One page's blocks for one run, filled in."""

    def __init__(self, app: Sphinx, run: tuple[str, str], on_run: dict[str, Elsewhere]) -> None:
        self.app, self.docname, self.run, self.on_run = app, app.env.docname, run, on_run
        self.where = BACKEND_WORDS.get(run[0], run[0])  # "GPU"

    def warn(self, message: str, node: nodes.Node) -> None:
        logger.warning(message, location=node, type="jaxwaits", subtype="claims-on")

    def fill(self, box: claims_on) -> list[str]:
        """The claims the block lists, each item given its lines and verdict, in order."""
        if not box.children:
            box += self.counts()
        listed = []
        registry = inputs(self.app).registry
        for bullets in box.findall(nodes.bullet_list):
            order = []
            for item in bullets.children:
                ref = next(item.findall(claim_reference), None)
                claim = registry.resolve(ref["claim_id"]) if ref is not None else None
                if claim is None or claim.id not in self.on_run:
                    self.warn("each item names one claim first, with {claim}", item)
                    order.append((len(ORDER), item))
                    continue
                listed.append(claim.id)
                verdict = self.on_run[claim.id]
                item += self.verdict(verdict, claim.sources)
                order.append((ORDER.index(verdict.verdict.verdict), item))
            bullets.children = [item for _, item in sorted(order, key=lambda pair: pair[0])]
        return listed

    def shown(self, verdict: Verdict, words: str) -> nodes.Element:
        """A verdict's mark and words, linked to its definition."""
        mark = nodes.inline(MARKS[verdict], MARKS[verdict], classes=[terms.css(verdict)])
        return terms.link(self.app, self.docname, verdict_id(verdict), mark, nodes.Text(words))

    def verdict(self, other: Elsewhere, sources: Iterable[str]) -> nodes.paragraph:
        verdict = other.verdict
        para = nodes.paragraph(classes=["jaxwaits-claims-on-verdict"])
        for i, anchor in enumerate(sources):
            para += nodes.Text(", " if i else "Annotated lines: ")
            para += self.line(anchor)
        para += nodes.Text(f"{'. ' if sources else ''}On the {self.where}: ")
        para += self.shown(verdict.verdict, f" {verdict.verdict.words}")
        if verdict.why:
            para += nodes.Text(": ")
            para += verification_matrix.why_nodes(verdict.why)
        para += nodes.Text(".")
        return para

    def line(self, anchor: str) -> nodes.Element:
        """``api.block_until_ready-L2796`` as ``api.block_until_ready`` line 2796, linking the
        line on its annotated page."""
        piece, _, number = anchor.rpartition("-L")
        shown = [nodes.literal(piece, piece), nodes.Text(f" line {number}")]
        page = f"source/{piece}"
        if page not in self.app.env.found_docs:
            return nodes.inline("", "", *shown)
        uri = self.app.builder.get_relative_uri(self.docname, page)
        return nodes.reference("", "", *shown, internal=True, refuri=f"{uri}#{anchor}")

    def counts(self) -> nodes.paragraph:
        first = next(iter(self.on_run.values()))
        uri = self.app.builder.get_relative_uri(self.docname, elsewhere.page(*self.run))
        para = nodes.paragraph(classes=["jaxwaits-claims-on-counts"])
        para += nodes.Text(f"The {len(self.on_run)} claims on the ")
        para += nodes.reference("", first.where, internal=True, refuri=uri)
        para += nodes.Text(": ")
        counts = Counter(o.verdict.verdict for o in self.on_run.values())
        for i, verdict in enumerate(v for v in ORDER if counts[v]):
            para += nodes.Text(" · " if i else "")
            para += self.shown(verdict, f" {verdict.words}: {counts[verdict]}")
        para += nodes.Text(".")
        return para


def _fill(app: Sphinx, doctree: nodes.document) -> None:
    """Fill in a page's blocks once it is read, and check that those of each run name every
    claim once."""
    boxes: dict[tuple[str, str], list[claims_on]] = {}
    for box in doctree.findall(claims_on):
        boxes.setdefault(box["run"], []).append(box)
    for run, found in boxes.items():
        on_run = {
            claim_id: other
            for claim_id, others in inputs(app).facts.elsewhere.items()
            for other in others
            if (other.backend, other.release) == run
        }
        page = _Page(app, run, on_run)
        if not on_run:
            page.warn(f"no run on {run[0]} with jax {run[1]} is in the ledger", found[0])
            continue
        listed = [claim_id for box in found for claim_id in page.fill(box)]
        for problem in sorting_problems(listed, on_run):
            page.warn(problem, found[0])
    for box in list(doctree.findall(claims_on)):
        box.replace_self(box.children or [])


def setup(app: Sphinx) -> None:
    app.add_node(claims_on)
    app.add_directive("claims-on", ClaimsOnDirective)
    app.connect("doctree-read", _fill)
