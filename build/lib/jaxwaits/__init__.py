"""jax-waits: the machinery behind a site whose every claim is backed by a snippet that ran.

Four rooms, in the order the data flows, and the two doors to them:

- :mod:`jaxwaits.evidence`: the snippets, run in fresh interpreters and judged against their
  recorded output; reports and re-recording.
- :mod:`jaxwaits.claims`: the claims and references read from the pages, the registry that checks
  the chain between them, and links for a code review.
- :mod:`jaxwaits.pieces`: the vendored upstream pieces, their notes, their manifest and history
  over every JAX release, and the drift check.
- :mod:`jaxwaits.releases`: the JAX releases on the index, one environment per release,
  verification, the ledger of what each release showed, and the verdicts that follow.
- :mod:`jaxwaits.sphinxext` (the site) and :mod:`jaxwaits.cli` (``python -m jaxwaits``) call the
  rooms and hold no domain logic of their own.

Shared by all: :mod:`jaxwaits.project` (where the folders are), :mod:`jaxwaits.errors` (the one
exception type for bad input) and :mod:`jaxwaits.files` (writes that are whole or nothing).
Nothing here imports :mod:`jax`: JAX is only ever inspected in a subprocess or from files.
"""
