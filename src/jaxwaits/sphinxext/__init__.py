"""The Sphinx extension: ``extensions = ["jaxwaits.sphinxext"]``.

Every build, whatever it re-read, ends by checking the whole site: a claim that any page shows as
failing, a vendored piece that disagrees with its manifest, or an unreadable ledger file is a
warning (an error under ``-W``), so a build that passes is one where every claim held.

- :mod:`~jaxwaits.sphinxext.kernels` gives pages the kernels their snippets' ``# env:`` needs.
- :mod:`~jaxwaits.sphinxext.cells` compares every executed snippet cell with its recorded
  output and fails the build on a difference.
- :mod:`~jaxwaits.sphinxext.claim_pages` provides the ``{claim}`` directive and role, one page per
  claim, and the claims index.
- :mod:`~jaxwaits.sphinxext.ledger_table` renders the ledger: claims and pieces against releases.
- :mod:`~jaxwaits.sphinxext.annotated` renders the vendored pieces with their notes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from jaxwaits.claims import registry as registry
from jaxwaits.pieces import drift
from jaxwaits.project import find_project
from jaxwaits.releases import ledger
from jaxwaits.sphinxext import annotated, cells, claim_pages, kernels, ledger_table

logger = logging.getLogger(__name__)


def _load_project(app: Sphinx) -> None:
    """Read the checkout once per build, before the other handlers: its claims registry
    (``app.jaxwaits_registry``) and its ledger (``app.jaxwaits_ledger``, the files that could be
    read; each one that could not is a warning naming it)."""
    app.jaxwaits_project = find_project(Path(app.srcdir))
    app.jaxwaits_registry = registry.scan(app.jaxwaits_project)
    app.jaxwaits_ledger, unreadable = ledger.read(app.jaxwaits_project.verified)
    for problem in unreadable:
        logger.warning(str(problem), type="jaxwaits", subtype="ledger")


def _publishable(app: Sphinx, exception: Exception | None) -> None:
    """The site's verdict at the end of every build: each claim that is failing and each problem
    with the vendored pieces, as warnings."""
    if exception is not None:
        return
    for claim_id, claim, found in claim_pages.failing(app):
        logger.warning(
            "claim %s is %s, so this site must not be published",
            claim_id,
            found.text,
            location=(claim["docname"], claim["line"]),
            type="jaxwaits",
            subtype="claims",
        )
    project = app.jaxwaits_project
    for problem in drift.audit(project, sys.executable, app.jaxwaits_ledger):
        logger.warning(problem, type="jaxwaits", subtype="pieces")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _load_project, priority=400)  # before the modules' handlers
    kernels.setup(app)
    cells.setup(app)
    claim_pages.setup(app)
    ledger_table.setup(app)
    annotated.setup(app)
    app.connect("build-finished", _publishable)
    app.add_css_file("jaxwaits.css")  # annotated.setup adds the package's static folder
    return {"version": "0.1", "parallel_read_safe": False, "parallel_write_safe": True}
