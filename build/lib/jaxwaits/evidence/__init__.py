"""Evidence: the snippets in ``snippets/``, run in fresh interpreters, judged against their
recorded output (:mod:`~jaxwaits.evidence.runner`), with the one reading of what they printed
(:mod:`~jaxwaits.evidence.output`), messages (:mod:`~jaxwaits.evidence.report`) and
re-recording (:mod:`~jaxwaits.evidence.record`). The docs build runs snippets through
:mod:`~jaxwaits.evidence.kernel`."""
