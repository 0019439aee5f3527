"""Each page's facts, collected once as the page is read and kept by Sphinx's rules for
per-page data (see :mod:`jaxwaits.sphinxext.state`)."""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.environment.collectors import EnvironmentCollector

from jaxwaits.sphinxext import cells, changes, claim_pages
from jaxwaits.sphinxext.state import PageFacts, site


class Collector(EnvironmentCollector):
    """Collects what a page declares, runs and cites: its claims, its judged snippet cells, its
    citations, the release boundaries it names. A page re-read or removed loses its old facts;
    parallel readers' facts merge."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        site(env).pages.pop(docname, None)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
    ) -> None:
        theirs = site(other).pages
        site(env).pages.update({doc: theirs[doc] for doc in docnames if doc in theirs})

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        markdown = app.env.doc2path(app.env.docname).suffix == ".md"
        site(app.env).pages[app.env.docname] = PageFacts(
            claims=claim_pages.declared_claims(doctree),
            contexts=claim_pages.contexts(doctree),
            cells=cells.judge_page(app, doctree),
            citations=claim_pages.citations(doctree),
            boundaries=changes.cited_boundaries(doctree),
            # The site's prose is its MyST pages; its reST pages are autodoc2's, from docstrings.
            plain_boundaries=changes.prose_boundaries(doctree) if markdown else [],
            notes=changes.release_notes(doctree),
        )
