"""The Sphinx extension: ``extensions = ["jaxwaits.sphinxext"]``.

At ``builder-inited`` it reads its inputs once (:mod:`~jaxwaits.sphinxext.state`): the checkout,
the claims registry, the ledger and the platform the snippets run on, and checks its
configuration. While pages are read, :mod:`~jaxwaits.sphinxext.collector` keeps each page's facts.
Every build, whatever it re-read, ends by judging the whole site: a claim that any page shows as
failing, a vendored piece that disagrees with its manifest or the ledger, or an unreadable ledger
file is a warning (an error under ``-W``), so a build that passes is one where every claim held.

- :mod:`~jaxwaits.sphinxext.kernels`: the Jupyter kernels the pages run in.
- :mod:`~jaxwaits.sphinxext.cells`: every executed snippet cell, judged as the tests judge it.
- :mod:`~jaxwaits.sphinxext.claim_pages`: the ``{claim}`` directive and role, a page per claim,
  the claims index; a claim's status line (:mod:`~jaxwaits.sphinxext.claim_status`) and its
  page's body (:mod:`~jaxwaits.sphinxext.claim_page_body`).
- :mod:`~jaxwaits.sphinxext.verification_matrix`: the ledger as a table, claims and pieces
  against releases; :mod:`~jaxwaits.sphinxext.release_pages`: a page per column, in words.
- :mod:`~jaxwaits.sphinxext.elsewhere`: the runs on other backends (a GPU), on the matrix page
  and each claim's page.
- :mod:`~jaxwaits.sphinxext.sorted_claims`: every claim sorted by what it rests on, each with
  its verdict on a run on another backend.
- :mod:`~jaxwaits.sphinxext.review_rules`: the review's rules, from their modules' documentation.
- :mod:`~jaxwaits.sphinxext.changes`: what changed, release by release, and the
  ``{changed-in}`` role that ties a boundary named in prose to the ledger.
- :mod:`~jaxwaits.sphinxext.annotated`: the vendored pieces with their notes.
- :mod:`~jaxwaits.sphinxext.terms`: the site's own words defined, and linked from every mark.
- :mod:`~jaxwaits.sphinxext.shown_code`: Python blocks without the linters' suppressions.
- :mod:`~jaxwaits.sphinxext.quiet`: a log of progress and problems.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ConfigError
from sphinx.util import logging

from jaxwaits.chain import cite, facts, problems
from jaxwaits.errors import JaxwaitsError
from jaxwaits.evidence import checkout
from jaxwaits.project import find_project
from jaxwaits.sphinxext import (
    annotated,
    cells,
    changes,
    claim_pages,
    elsewhere,
    kernels,
    quiet,
    release_pages,
    review_rules,
    shown_code,
    sorted_claims,
    state,
    terms,
    verification_matrix,
)
from jaxwaits.sphinxext.collector import Collector
from jaxwaits.sphinxext.state import Inputs, inputs, site

logger = logging.getLogger(__name__)
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_config(app: Sphinx) -> None:
    """``jaxwaits_kernels`` maps kernel names to environment variables, all strings."""
    for name, env in app.config.jaxwaits_kernels.items():
        if not isinstance(name, str) or not isinstance(env, dict):
            raise ConfigError(f"jaxwaits_kernels: {name!r} must map to a dict of variables")
        for key, value in env.items():
            if not (isinstance(key, str) and _ENV_NAME.match(key) and isinstance(value, str)):
                raise ConfigError(f"jaxwaits_kernels[{name!r}]: {key!r}: {value!r} is no variable")


def _read_inputs(app: Sphinx) -> None:
    """Read the checkout once per build, before the other handlers, and judge every claim on
    every release; each ledger file that cannot be read is a warning naming it."""
    project = find_project(Path(app.srcdir))
    found = facts.load(project)
    try:
        # pinned to the release only in a build made from its tag; else to the newest build
        pinned = cite.from_tag(project)
        links_to = project.release_url if pinned else project.site_url
    except JaxwaitsError as error:
        logger.warning("%s: so the claims' permanent links cannot be given", error)
        pinned, links_to = False, ""
    site(app.env).inputs = Inputs(found, cells.built_on(app), links_to, pinned)


def _publishable(app: Sphinx, exception: Exception | None) -> None:
    """The site's verdict at the end of every build, as warnings: the judge's problems
    (:mod:`jaxwaits.chain.problems`) with what this build saw — each failing claim, each claim
    no page rendered, each release boundary a page names that the ledger does not stand
    behind."""
    if exception is not None:
        return
    found = inputs(app)
    state = site(app.env)
    seen = problems.Built(
        found.platform,
        state.ran(),
        frozenset(state.declared()),
        tuple(_boundaries(app)),
        tuple(_notes(app)),
    )
    every = problems.built(found.facts, seen) + problems.evidence(found.facts, sys.executable)
    for problem in every:
        logger.warning(
            problem.message, location=problem.where or None, type="jaxwaits", subtype=problem.kind
        )


def _pages(app: Sphinx) -> Iterator[tuple[str, state.PageFacts]]:
    """Each page's facts, with the file it was read from."""
    for doc, page in sorted(site(app.env).pages.items()):
        yield (str(app.env.doc2path(doc)) if doc in app.env.all_docs else doc), page


def _notes(app: Sphinx) -> Iterator[problems.ReleaseNote]:
    """The release notes the pages hold, each at its file and line."""
    for path, page in _pages(app):
        for release, cites, line in page.notes:
            yield problems.ReleaseNote(f"{path}:{line}", release, cites)


def _boundaries(app: Sphinx) -> Iterator[problems.Boundary]:
    """The release boundaries the pages name, each at its file and line."""
    for path, page in _pages(app):
        for cited in page.boundaries:
            yield problems.Boundary(f"{path}:{cited.line}", cited.release, cited.target)
        for words, line in page.plain_boundaries:
            yield problems.Boundary(f"{path}:{line}", words=words)


UNFINISHED = ".jaxwaits-build-unfinished"  # in the output folder while a build reads and writes


def _after_an_unfinished_build(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """A build stopped part-way (a kill, Ctrl-C, a crash) leaves pages written by two builds;
    the next one reads and writes every page again, whatever changed."""
    marker = Path(app.outdir) / UNFINISHED
    again = sorted(env.found_docs) if marker.exists() else []
    if again:
        logger.info("the last build did not finish: reading and writing every page again")
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text("a build is reading or writing this site\n", encoding="utf-8")
    return again


def _note_the_checkout(app: Sphinx) -> None:
    """The checkout as the build found it, once the files it generates are written."""
    site(app.env).checkout_before = checkout.snapshot(inputs(app).project.root)


def _checkout_unchanged(app: Sphinx, exception: Exception | None) -> None:
    """Nothing a page or a snippet ran changed the checkout (each snippet run is also checked
    on its own, in the kernel)."""
    before = site(app.env).checkout_before
    if exception is None and before is not None:
        for change in checkout.changes(before, checkout.snapshot(before.root)):
            logger.warning(
                "the checkout changed during the build: %s",
                change,
                type="jaxwaits",
                subtype="checkout",
            )


def _finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is None:
        (Path(app.outdir) / UNFINISHED).unlink(missing_ok=True)


def setup(app: Sphinx) -> dict[str, Any]:
    quiet.setup(app)
    kernels.setup(app)  # declares jaxwaits_kernels
    app.connect("builder-inited", _check_config, priority=300)
    app.connect("builder-inited", _read_inputs, priority=400)  # before the modules' handlers
    app.add_env_collector(Collector)
    cells.setup(app)
    claim_pages.setup(app)
    verification_matrix.setup(app)
    release_pages.setup(app)
    elsewhere.setup(app)
    sorted_claims.setup(app)
    review_rules.setup(app)
    changes.setup(app)
    annotated.setup(app)
    terms.setup(app)
    shown_code.setup(app)
    app.connect("build-finished", _publishable)
    app.connect("env-get-outdated", _after_an_unfinished_build)
    app.connect("builder-inited", _note_the_checkout, priority=900)  # after the files it writes
    app.connect("build-finished", _checkout_unchanged)
    app.connect("build-finished", _finished, priority=900)  # after everything else
    app.add_css_file("jaxwaits.css")  # annotated.setup adds the package's static folder
    app.add_js_file("jaxwaits.js")
    return {
        "version": "0.2",
        "env_version": state.VERSION,  # a saved environment of another version is read afresh
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
