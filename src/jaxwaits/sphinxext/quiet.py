"""A build log a person reads: progress and problems, without the lines other extensions print
for each item or setting.

Dropped, from the log only (never a warning): a line per module as autodoc2 analyses and writes
the API pages (about 110 a build where the output is not a terminal), and myst's and myst-nb's
one-line dumps of their whole configuration. The kernels the pages run in are started with their
own log at ERROR (see :mod:`jaxwaits.sphinxext.kernels`)."""

from __future__ import annotations

import logging

from sphinx.application import Sphinx

PER_ITEM = ("[Autodoc2] Analysing", "[Autodoc2] Writing")  # progress lines, one per module
SETTINGS = ("MdParserConfig(", "NbParserConfig(")  # a configuration, printed whole


class Quiet(logging.Filter):
    """Drops the records of a line that begins with one of :data:`PER_ITEM` (a line is made of
    records until one that ends it), and every record that prints :data:`SETTINGS`."""

    def __init__(self) -> None:
        super().__init__()
        self.in_dropped_line = False
        self.after_dropped_line = False  # the blank line that ends a run of progress lines

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        after, self.after_dropped_line = self.after_dropped_line, False
        if any(words in message for words in SETTINGS) or (after and not message):
            return False
        if any(words in message for words in PER_ITEM):
            self.in_dropped_line = True
        if self.in_dropped_line:
            # Sphinx marks a record that does not end its line with `nonl`
            self.in_dropped_line = bool(getattr(record, "nonl", False))
            self.after_dropped_line = not self.in_dropped_line
            return False
        return True


def setup(app: Sphinx) -> None:
    quiet = Quiet()
    for handler in logging.getLogger("sphinx").handlers:
        handler.addFilter(quiet)
