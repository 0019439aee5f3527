"""The Sphinx extension: ``extensions = ["jaxwaits.sphinxext"]``.

- :mod:`~jaxwaits.sphinxext.kernels` gives pages the kernels their snippets' ``# env:`` needs.
- :mod:`~jaxwaits.sphinxext.evidence` compares every executed snippet cell with its recorded
  output and fails the build on a difference.
- :mod:`~jaxwaits.sphinxext.claims` provides the ``{claim}`` directive and role, one page per
  claim, and the claims index.
- :mod:`~jaxwaits.sphinxext.matrix` renders the ledger: claims and pieces against releases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from jaxwaits.sphinxext import claims, evidence, kernels, matrix


def _add_static(app: Sphinx) -> None:
    app.config.html_static_path.append(str(Path(__file__).parent.parent / "static"))


def setup(app: Sphinx) -> dict[str, Any]:
    kernels.setup(app)
    evidence.setup(app)
    claims.setup(app)
    matrix.setup(app)
    app.connect("builder-inited", _add_static)
    app.add_css_file("jaxwaits.css")
    return {"version": "0.1", "parallel_read_safe": False, "parallel_write_safe": True}
