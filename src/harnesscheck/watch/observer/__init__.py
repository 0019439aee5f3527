"""What ``jaxwaits watch`` installs in the watched program, before the program's first line: a
copy of this package, which the ``sitecustomize`` the watch writes beside it installs (the pytest
plugin installs it from here). Standard library only, and it imports nothing outside itself (no
``harnesscheck``); JAX is never imported here: its callables are wrapped when the program itself
imports it.

It sees, in each thread: the clocks the program's own code reads; the arrays each jitted or
pmapped call returns, with the program line that called it; the waits on arrays (blocks, host
transfers, ``is_ready()`` that says True); JAX's compilations. A clock reading the program's code
makes is returned as a float (or int) that remembers when it was read, so that subtracting one
reading from a later one is the measurement, wherever that happens; it is then judged, and each
mistake is written as one JSON line to the log ``JAXWAITS_WATCH_LOG`` names.

Its modules, by job: :mod:`.places` (which code is the program's, and its lines),
:mod:`.state` (what it notes, and the log), :mod:`.clocks` (the readings), :mod:`.intervals`
(an interval judged), :mod:`.dispatches` (calls, waits, joins), :mod:`.effects` and
:mod:`.window` (host callbacks, JW108), :mod:`.hooks` (the wrapping, and the import hook).
"""

from __future__ import annotations

import os
import sys

from . import hooks
from .places import ProgramCode
from .state import PATH, State

# The folder the observer was loaded from (the watch's scratch folder, or harnesscheck/watch):
# on the program's path only for this import, and never the program's own code.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

installed: State | None = None  # the one observer of this process, once installed


def install(chain: bool = False) -> State:
    """Observe this process from now on (once); ``chain``: this is the program's
    ``sitecustomize``, and the program's own is run after it."""
    global installed
    if installed is None:
        installed = State(os.environ.pop("JAXWAITS_WATCH_LOG", ""), ProgramCode(HERE, PATH))
        hooks.install(installed)
    if chain:
        _chain()
    return installed


def _chain() -> None:
    """Leave the program the path and environment it would have had, and run the
    ``sitecustomize`` it would have run."""
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
    before = os.environ.pop("JAXWAITS_WATCH_PYTHONPATH", None)
    if before is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = before
    ours = sys.modules.pop("sitecustomize", None)
    try:
        import sitecustomize  # noqa: F401 (the program's own, if it has one)
    except ModuleNotFoundError as e:
        if e.name != "sitecustomize":
            raise
        if ours is not None:
            sys.modules["sitecustomize"] = ours
