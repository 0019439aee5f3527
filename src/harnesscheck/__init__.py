"""The harness checker: ``jaxwaits review`` reads harness code (never imports or runs it) and
reports the mistakes of the jax-waits review checklist, each linked to its checklist item and the
claims that prove it; ``jaxwaits watch`` runs a program and reports the ones it makes. It needs
no checkout and no JAX, and imports nothing of the site's package. Its layers, in the order the
data flows (``tests/test_rooms.py`` keeps them):

- :mod:`~harnesscheck.errors`, :mod:`~harnesscheck.findings`: what every layer shares.
- :mod:`~harnesscheck.sources`: files, notebooks and Markdown fences as Python; suppressions.
- :mod:`~harnesscheck.model`: what the program's modules define and do, as the rules see it.
- :mod:`~harnesscheck.regions`: the timed regions, and what each does.
- :mod:`~harnesscheck.rules`: the rules, one module each, and the registry that finds them.
- :mod:`~harnesscheck.results`: what a review found; its formats and links.
- :mod:`~harnesscheck.review`: the review of files and folders as one project.
- :mod:`~harnesscheck.watch`: the run-time check, beside them.
- :mod:`~harnesscheck.measure`: scoring on the labelled corpus and whole repositories.
"""
