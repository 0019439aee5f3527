"""The judge, with no Sphinx in it: what the project's facts (snippets and their outcomes, the
claims, the vendored pieces, the ledger) say about each claim, for readers and reviewers. It may
import every room below it and nothing above; nothing below imports it.

- :mod:`~jaxwaits.chain.facts`: the project's facts, read once (the claims with the vendored
  pieces' citations of them).
- :mod:`~jaxwaits.chain.verdicts`: each claim's verdict on each release, from the ledger.
- :mod:`~jaxwaits.chain.problems`: the site's problems, in one list.
- :mod:`~jaxwaits.chain.standing`: a claim's standing in one build, from the cells it ran.
- :mod:`~jaxwaits.chain.changes`: what changed per release, and the boundaries the site names.
- :mod:`~jaxwaits.chain.columns`: the version matrix's columns.
- :mod:`~jaxwaits.chain.marks`: each verdict's mark and meaning, as readers see them.
- :mod:`~jaxwaits.chain.links_out`: the links to JAX's own documentation, each checked by hand.
- :mod:`~jaxwaits.chain.cite`: links to claims for a code review, and a check that they resolve
  in a build.
- :mod:`~jaxwaits.chain.notes`: the release note of one verified release.
- :mod:`~jaxwaits.chain.packaged`: the claims index a wheel carries, so that ``cite`` and
  ``claims`` answer where there is no checkout.
"""
