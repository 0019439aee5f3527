"""What the observer knows of the program as it runs: one :class:`State`, made when it is
installed and reached by every wrapper it installs; the calls and readings it is made of; and
the log it writes, one JSON line a mistake."""

from __future__ import annotations

import collections
import itertools
import json
import sys
import threading
import types
import weakref
from typing import Any

from .places import ProgramCode, column

# Calls kept per thread (and open calls in all): an interval with more is judged on its last ones.
KEPT = 4096
PATH = 4  # program lines kept of each call's path


def kept() -> collections.deque[Any]:
    return collections.deque(maxlen=KEPT)


class Dispatch:
    """One watched call: its thread, when, the program lines it was made from, its first output
    (weakly), the calls whose outputs it was handed, and when it was first waited on and first
    seen ready (or its output seen gone)."""

    __slots__ = (
        "begun", "dropped", "effects", "first", "inputs", "path", "ready", "seq", "site",
        "thread", "waited",
    )  # fmt: skip

    def __init__(
        self, seq: int, begun: int, thread: int, path: tuple[tuple[str, int], ...], first: Any,
        effects: tuple[Any, ...], inputs: frozenset[int],
    ) -> None:  # fmt: skip
        self.seq, self.thread, self.path, self.site = seq, thread, path, path[0]
        self.begun = begun  # when the call was made (its seq is when it returned)
        self.first = weakref.ref(first)
        self.effects = effects  # the host callbacks staged in the function called (Effect)
        self.inputs = inputs  # the seqs of the calls whose outputs it was handed (not the calls:
        # a loop's chain of calls would be kept alive)
        self.waited = 0
        self.ready = 0
        self.dropped = False  # its output was gone before it was seen ready: not known


class Reading:
    """One clock reading by the program's code: which clock, when, where (the line, and the
    column of the call that read it), in which thread; judged by the state that made it."""

    __slots__ = ("clock", "code", "offset", "seq", "site", "state", "thread")

    def __init__(
        self, state: State, clock: str, seq: int, thread: int, site: tuple[str, int],
        code: types.CodeType, offset: int,
    ) -> None:  # fmt: skip
        self.state, self.clock, self.seq, self.thread, self.site = state, clock, seq, thread, site
        self.code, self.offset = code, offset  # the reading call's instruction, for its column

    @property
    def col(self) -> int:
        return column(self.code, self.offset)


class Log:
    """The JSON lines file the watch reads afterwards, opened at the first line written."""

    def __init__(self, path: str, lock: threading.RLock) -> None:
        self.path, self.lock = path, lock
        self.file: Any = None

    def write(self, entry: dict[str, Any]) -> None:
        if not self.path:
            return
        with self.lock:
            if self.file is None:
                self.file = open(self.path, "a", encoding="utf-8")  # open for the whole run
            self.file.write(json.dumps(entry) + "\n")
            self.file.flush()


class State:
    """Everything the observer notes, in every thread of the program, under one lock."""

    def __init__(self, log: str, program: ProgramCode) -> None:
        self.program = program
        self.lock = threading.RLock()
        self.log = Log(log, self.lock)
        self.seq = itertools.count(1)  # one order for calls, waits and readings in all threads
        # per thread: the watched functions it is inside, its last effects barrier, its window
        self.local = threading.local()
        self.calls: dict[int, collections.deque[Dispatch]] = collections.defaultdict(kept)
        self.open: collections.deque[Dispatch] = kept()  # neither waited on nor seen ready yet
        # id of an output array -> the array (weakly: an id is reused once its array is gone)
        self.outputs: dict[int, tuple[Any, Dispatch]] = {}
        self.unknown_waits: dict[int, collections.deque[int]] = collections.defaultdict(kept)
        self.compiles: collections.deque[tuple[int, int, float]] = kept()  # (seq, thread, s)
        self.joins: collections.deque[tuple[int, int, int | None]] = kept()  # (seq, by, joined)
        self.copies: dict[int, list[Any]] = {}  # id of an array -> [seq, thread, site, fetched]
        self.host_inputs: dict[int, Any] = {}  # id of a NumPy array handed to a call -> it
        self.copied_again: list[tuple[int, int, tuple[str, int]]] = []  # (seq, thread, site)
        self.computed_by: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
        self.array_type: type | None = None  # JAX's array, once the program imports JAX
        self.is_ready_original: Any = None
        self.observed: list[str] = []  # what this release lets the watch observe
        # a code -> its line -> what it loads: (offset, opname, name, the attribute loaded)
        self.loads: dict[types.CodeType, dict[int, list[tuple[int, str, str, str | None]]]] = {}

    def next(self) -> int:
        return next(self.seq)

    def write(self, entry: dict[str, Any]) -> None:
        self.log.write(entry)

    def not_followed(self, why: str) -> None:
        self.write({"not observed": "reads of what host callbacks change (JW108)", "why": why})

    def is_ready(self, array: Any) -> bool:
        try:
            return bool(self.is_ready_original(array))
        except Exception:  # deleted or donated: no longer pending
            return True

    def leaves(self, tree: Any) -> list[Any]:
        """The arrays in a tree (JAX flattens it)."""
        if type(tree) is self.array_type:
            return [tree]
        jax = sys.modules.get("jax")
        if jax is None or self.array_type is None or tree is None:
            return []
        if isinstance(tree, (int, float, str)):
            return []
        try:
            leaves = jax.tree_util.tree_leaves(tree)
        except Exception:  # a tree JAX cannot flatten holds no array it made
            return []
        return [a for a in leaves if type(a) is self.array_type]

    def see_ready(self, seq: int) -> None:
        """At a reading, note which open calls are done by now (a joined thread's work is judged
        at another thread's reading)."""
        with self.lock:
            still = []
            for d in self.open:
                first = d.first()
                if first is None or self.is_ready(first):
                    d.ready, d.dropped = seq, first is None
                else:
                    still.append(d)
            self.open.clear()
            self.open.extend(still)

    def join(self, thread: int | None) -> None:
        """This thread has waited for another (joined it, or got a result it computed)."""
        with self.lock:
            self.joins.append((self.next(), threading.get_ident(), thread))

    def calling(self) -> list[Any]:
        """The watched functions this thread is inside (a call within another is traced)."""
        calling = getattr(self.local, "calling", None)
        if calling is None:
            calling = self.local.calling = []
        return calling
