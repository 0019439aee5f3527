"""jax-waits: the machinery behind a site whose every claim is backed by a snippet that ran.

Modules, one job each:

- :mod:`jaxwaits.project` finds the project's folders.
- :mod:`jaxwaits.snippets` reads the experiments in ``snippets/`` and their recorded output.
- :mod:`jaxwaits.runner` runs snippets, each in a fresh interpreter, in parallel.
- :mod:`jaxwaits.platform` asks an interpreter which JAX, jaxlib, Python and backend it has.
- :mod:`jaxwaits.report` turns results into messages that name the snippet, claim and fix.
- :mod:`jaxwaits.record` re-records outputs.
- :mod:`jaxwaits.cli` is the command line, ``python -m jaxwaits``.

Nothing here imports :mod:`jax`: JAX is only ever inspected in a subprocess or from files.
"""
