"""jax-waits: the machinery behind a site whose every claim is backed by a snippet that ran.

Five rooms, in the order the data flows (each may import only those before it), and the two
doors to them:

- :mod:`jaxwaits.evidence`: the snippets, run in a template's child or a fresh interpreter and
  compared with their recorded output; known differences, reports and re-recording.
- :mod:`jaxwaits.claims`: the claims, scope axes and references read from the pages, and the
  registry that checks the links between them.
- :mod:`jaxwaits.pieces`: the vendored upstream pieces, their notes, the upstream locator, their
  manifest and the drift check.
- :mod:`jaxwaits.releases`: the JAX releases on the index and their wheels, one environment per
  release, verification, the matrix, the ledger, and the pieces' provenance across the wheels.
- :mod:`jaxwaits.chain`: the judge, with no Sphinx in it: the facts loaded once, verdicts, a
  claim's standing, release changes, ``cite``, release notes, the packaged claims index and the
  one list of the site's problems.
- :mod:`jaxwaits.sphinxext` (the site) and :mod:`jaxwaits.cli` (``python -m jaxwaits``) call the
  rooms and hold no judgement of their own; only they import Sphinx or the checker.

Shared by all: :mod:`jaxwaits.project` (where the folders are), :mod:`jaxwaits.errors` (the one
exception type for bad input), :mod:`jaxwaits.files` (writes that are whole or nothing) and
:mod:`jaxwaits.toml_writer`. The harness checker (``jaxwaits review``, ``jaxwaits watch``) is a
separate package, :mod:`harnesscheck`, which imports nothing of this one; the command line is
its door. Nothing here imports :mod:`jax`: JAX is only ever inspected in a subprocess or from
files.
"""
