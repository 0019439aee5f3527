"""The checker's own tests need only the checker (``harnesscheck``), pytest and what the tests
read (nbformat, jsonschema, markdown-it): no JAX, no Sphinx, nothing of the site's package.
``nox -s checker`` runs them alone (``--confcutdir`` keeps the site's conftest out), in an
environment without JAX or Sphinx; ``nox -s tests`` runs them with the rest."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

SITE = ("jaxwaits", "jax", "sphinx")  # what the checker's tests never import
_ALONE = not any(name in sys.modules for name in SITE)  # not under the site's conftest


@pytest.fixture(scope="session", autouse=True)
def imports_nothing_of_the_site() -> Iterator[None]:
    """Run alone, the checker's tests import nothing of the site's package, JAX or Sphinx."""
    yield
    if _ALONE:
        imported = sorted(name for name in sys.modules if name.split(".")[0] in SITE)
        assert not imported, f"the checker's tests imported {', '.join(imported)}"
