"""Claims: the MyST pages read once, into typed claims and references
(:mod:`~jaxwaits.claims.reader`), the registry that checks every link between claims, snippets
and vendored notes (:mod:`~jaxwaits.claims.registry`), and each claim's scope
(:mod:`~jaxwaits.claims.scope`)."""
