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

from typing import Any

from sphinx.application import Sphinx

from jaxwaits.sphinxext import annotated, claims, evidence, kernels, matrix


def setup(app: Sphinx) -> dict[str, Any]:
    kernels.setup(app)
    evidence.setup(app)
    claims.setup(app)
    matrix.setup(app)
    annotated.setup(app)
    app.add_css_file("jaxwaits.css")  # annotated.setup adds the package's static folder
    return {"version": "0.1", "parallel_read_safe": False, "parallel_write_safe": True}
