"""The one exception type the checker raises for bad input; the command line turns it into a
message and an exit code."""

from __future__ import annotations


class ReviewError(Exception):
    """Something the user can fix: the message names the file (and line) and says what is wrong."""
