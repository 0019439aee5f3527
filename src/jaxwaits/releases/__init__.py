"""Releases: JAX releases on the package index (:mod:`~jaxwaits.releases.index`), their wheels
(:mod:`~jaxwaits.releases.wheels`), one environment per release
(:mod:`~jaxwaits.releases.environments`), the vendored pieces' history across the wheels
(:mod:`~jaxwaits.releases.provenance`), verification of one release or many
(:mod:`~jaxwaits.releases.verify`, :mod:`~jaxwaits.releases.matrix`), and the ledger of what each
showed (:mod:`~jaxwaits.releases.ledger`)."""
