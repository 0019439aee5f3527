"""The Sphinx extension: ``extensions = ["jaxwaits.sphinxext"]``.

- :mod:`~jaxwaits.sphinxext.kernels` gives pages the kernels their snippets' ``# env:`` needs.
- :mod:`~jaxwaits.sphinxext.evidence` compares every executed snippet cell with its recorded
  output and fails the build on a difference.
- :mod:`~jaxwaits.sphinxext.claims` provides the ``{claim}`` directive and role, one page per
  claim, and the claims index.
- :mod:`~jaxwaits.sphinxext.matrix` renders the ledger: claims and pieces against releases.
- :mod:`~jaxwaits.sphinxext.annotated` renders the vendored pieces with their notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from jaxwaits import claims as registry
from jaxwaits import ledger
from jaxwaits.project import find_project
from jaxwaits.sphinxext import annotated, claims, evidence, kernels, matrix


def _load_project(app: Sphinx) -> None:
    """Read the checkout once per build, before the other handlers: its claims registry
    (``app.jaxwaits_registry``) and its ledger (``app.jaxwaits_ledger``)."""
    app.jaxwaits_project = find_project(Path(app.srcdir))
    app.jaxwaits_registry = registry.scan(app.jaxwaits_project)
    app.jaxwaits_ledger = ledger.load(app.jaxwaits_project.verified)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _load_project, priority=400)  # before the modules' handlers
    kernels.setup(app)
    evidence.setup(app)
    claims.setup(app)
    matrix.setup(app)
    annotated.setup(app)
    app.add_css_file("jaxwaits.css")  # annotated.setup adds the package's static folder
    return {"version": "0.1", "parallel_read_safe": False, "parallel_write_safe": True}
