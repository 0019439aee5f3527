"""What the build knows, in one typed place.

- :class:`Inputs`: what is read once per build, at ``builder-inited`` (the checkout, the claims
  registry, the ledger, the platform the snippets run on).
- :class:`PageFacts`: what each page contributed while it was read (the claims it declares, the
  snippet cells it ran and how they were judged, the claims it cites), kept per page by
  :class:`jaxwaits.sphinxext.collector.Collector`.

Everything lives on the environment under one name (:data:`ATTRIBUTE`), read through
:func:`site`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from jaxwaits.chain.facts import Facts
from jaxwaits.chain.standing import Ran
from jaxwaits.chain.verdicts import ClaimVerdict
from jaxwaits.claims.registry import Registry
from jaxwaits.evidence.checkout import Snapshot
from jaxwaits.evidence.outcomes import Outcome
from jaxwaits.evidence.platform import Platform
from jaxwaits.project import Project
from jaxwaits.releases.ledger import Verification
from jaxwaits.releases.universe import Universe

ATTRIBUTE = "jaxwaits_site"
VERSION = 15  # of these classes as pickled with the environment: bump it when they change


@dataclass(frozen=True)
class Inputs:
    """Read once per build, before any page: the project's facts as the judge reads them
    (:mod:`jaxwaits.chain.facts`), the platform the snippets run on, and where this site
    release is published."""

    facts: Facts
    platform: Platform
    links_to: str  # the site claims' links point to, as `cite` gives them ("" if unknown)
    pinned: bool  # links_to is this site release's, in a build made from its tag

    @property
    def project(self) -> Project:
        return self.facts.project

    @property
    def registry(self) -> Registry:
        return self.facts.registry

    @property
    def ledger(self) -> list[Verification]:
        return self.facts.ledger

    @property
    def universe(self) -> Universe:
        return self.facts.universe

    @property
    def verdicts(self) -> dict[str, dict[str, ClaimVerdict]]:
        """Claim ID -> release -> verdict."""
        return self.facts.verdicts


@dataclass(frozen=True)
class CellResult:
    """One executed snippet cell, and how it was judged."""

    docname: str
    anchor: str
    snippet: str
    outcome: Outcome
    message: str  # the tests' message for it: one line when it passed


@dataclass(frozen=True)
class Citation:
    """A reference to a claim, and the nearest place on its page that can be linked."""

    claim_id: str
    anchor: str
    label: str  # e.g. "L645" for a line of an annotated piece; empty for a plain anchor


@dataclass(frozen=True)
class CitedBoundary:
    """A ``{changed-in}`` role: a release named in prose, and what changed there."""

    release: str
    target: str  # a snippet, a claim ID or a vendored piece
    line: int | None


@dataclass(frozen=True)
class Context:
    """Where a claim is stated: its section's title and anchor, and the paragraphs that lead to
    it (as rendered there, with their cross-references flattened to text)."""

    title: str
    anchor: str
    paragraphs: list[nodes.Node]


@dataclass
class PageFacts:
    """What one page contributed: its claims' rendered statements (by ID) and the context each
    is stated in, its snippet cells, its citations of claims, and the release boundaries its
    prose names (cited with ``{changed-in}``, or in plain words: the words and their line)."""

    claims: dict[str, list[nodes.Node]] = field(default_factory=dict)
    contexts: dict[str, Context] = field(default_factory=dict)
    cells: list[CellResult] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    boundaries: list[CitedBoundary] = field(default_factory=list)
    plain_boundaries: list[tuple[str, int | None]] = field(default_factory=list)
    # each release note: its release, the releases it cites, its line
    notes: list[tuple[str, tuple[str, ...], int | None]] = field(default_factory=list)


@dataclass
class Site:
    """The build's state: its inputs and every page's facts."""

    inputs: Inputs | None = None
    pages: dict[str, PageFacts] = field(default_factory=dict)
    verdicts_seen: str = ""  # the verdicts the pages were last read with
    checkout_before: Snapshot | None = None  # the checkout as this build found it

    def page(self, docname: str) -> PageFacts:
        return self.pages.setdefault(docname, PageFacts())

    def cells(self) -> Iterator[CellResult]:
        for facts in self.pages.values():
            yield from facts.cells

    def ran(self) -> tuple[Ran, ...]:
        """Every snippet cell the pages ran, as the judge takes them."""
        return tuple(Ran(cell.snippet, cell.outcome) for cell in self.cells())

    def declared(self) -> dict[str, tuple[str, list[nodes.Node]]]:
        """Claim ID -> the page that declares it and its rendered statement."""
        return {cid: (doc, f.claims[cid]) for doc, f in self.pages.items() for cid in f.claims}

    def context(self, claim_id: str) -> Context | None:
        """Where a claim is stated, if a page declared it."""
        found = (f.contexts[claim_id] for f in self.pages.values() if claim_id in f.contexts)
        return next(found, None)

    def read(self) -> Inputs:
        assert self.inputs is not None, "the jaxwaits inputs are read at builder-inited"
        return self.inputs


def site(env: BuildEnvironment) -> Site:
    """The build's state, made on first use."""
    found = getattr(env, ATTRIBUTE, None)
    if found is None:
        found = Site()
        setattr(env, ATTRIBUTE, found)
    return found


def inputs(app: Sphinx) -> Inputs:
    return site(app.env).read()
