"""The one exception type the library raises for bad input; the command line turns it into a
message and an exit code, the build into a warning, the tests into a failure."""

from __future__ import annotations


class JaxwaitsError(Exception):
    """Something the user can fix: the message names the file (and line) and says what is wrong."""
