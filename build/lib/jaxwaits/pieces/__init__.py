"""Vendored pieces: upstream JAX functions with notes between their lines
(:mod:`~jaxwaits.pieces.vendored`), found by qualified name (:mod:`~jaxwaits.pieces.upstream`),
their manifest and history over every release (:mod:`~jaxwaits.pieces.manifest`,
:mod:`~jaxwaits.pieces.provenance`), and the check against an installed JAX
(:mod:`~jaxwaits.pieces.drift`)."""
