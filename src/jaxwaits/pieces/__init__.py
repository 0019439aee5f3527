"""Vendored pieces: upstream JAX functions with notes between their lines
(:mod:`~jaxwaits.pieces.vendored`), found by qualified name (:mod:`~jaxwaits.pieces.upstream`),
their manifest (:mod:`~jaxwaits.pieces.manifest`; the history in it is computed across the
released wheels by :mod:`jaxwaits.releases.provenance`), and the check against an installed JAX
(:mod:`~jaxwaits.pieces.drift`)."""
