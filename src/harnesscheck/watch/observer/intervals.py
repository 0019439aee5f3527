"""An interval the program measured, judged: the work dispatched in it and whether it was
waited on (JW101, JW103), the compilations in it (JW102), the copies to the host it started and
did not finish (JW111), the host arrays it copied to the device again (JW107)."""

from __future__ import annotations

from typing import Any

from .state import Dispatch, Reading, State


def measured(state: State, start: Reading, end: Reading, seconds: float) -> None:
    """``end - start`` was computed: judge the interval between the two readings."""
    if start.clock != end.clock or start.thread != end.thread or start.seq >= end.seq:
        return
    with state.lock:
        # The reading thread's work, and that of the threads it joined in the interval: a join
        # waits for the thread, not for the work the thread dispatched.
        # (A pool's thread goes on to other work: only its calls before the join count.)
        joined: dict[int, int] = {}
        for q, t, j in state.joins:
            if t == end.thread and start.seq < q < end.seq and j is not None:
                joined[j] = max(q, joined.get(j, 0))
        compiled = sum(
            s for q, t, s in state.compiles if t == end.thread and start.seq < q < end.seq
        )
        calls: list[Dispatch] = []
        covered: set[int] = set()
        for thread in {end.thread, *joined}:
            until = end.seq if thread == end.thread else joined[thread]
            mine = [d for d in state.calls.get(thread, []) if start.seq < d.seq < until]
            unknown = [s for s in state.unknown_waits.get(thread, []) if start.seq < s < end.seq]
            covered |= _waited_for(mine, unknown, end.seq)
            calls += mine
        started = [
            c for c in state.copies.values()
            if c[1] == end.thread and start.seq < c[0] < end.seq and not 0 < c[3] < end.seq
        ]  # fmt: skip
        again = {
            c[2] for c in state.copied_again if c[1] == end.thread and start.seq < c[0] < end.seq
        }
    found: list[dict[str, Any]] = []
    left = [d for d in calls if d.seq not in covered]
    if left:
        # Work waited on at one line and not at another (results of separate calls, one
        # blocked, whichever was dispatched first) is one output of several (JW103); the same
        # line's later call left unwaited (the last step of a loop), or nothing waited, is the
        # timer read too early (JW101).
        waited_at = {d.path for d in calls if d.seq in covered}
        several = bool(waited_at) and not waited_at & {d.path for d in left}
        found.append(
            {
                "rule": "JW103" if several else "JW101",
                "calls": sorted({_apart(d.path, waited_at) if several else d.site for d in left}),
                "running": any(not 0 < d.ready <= end.seq for d in left),
                # a thread's last call whose output the program dropped unseen: it may have run
                "dropped": any(
                    max((d for d in left if d.thread == t), key=lambda d: d.seq).dropped
                    for t in {d.thread for d in left}
                ),
            }
        )
    if compiled > 0:
        found.append({"rule": "JW102", "compile_s": compiled, "interval_s": seconds})
    if started:
        found.append({"rule": "JW111", "calls": sorted({c[2] for c in started})})
    if again:
        found.append({"rule": "JW107", "calls": sorted(again)})
    if found:
        where = {"start": list(start.site), "end": list(end.site), "col": end.col}
        for entry in found:
            state.write({"rule": entry.pop("rule"), **where, "clock": end.clock, **entry})


def _waited_for(calls: list[Dispatch], unknown: list[int], before: int) -> set[int]:
    """The seqs of one thread's calls whose work was waited for before ``before``: a wait on a
    call's results waits for its own buffers only, and so for the work that made its inputs, not
    for other work dispatched before it (JW103's claims); a loop's earlier calls at the line of a
    call waited on are that one result's, as ``review`` sees them. A wait on an array no watched
    call made may hold the results of any of the thread's calls before it, and counts for them
    all (never a finding for that reason)."""
    last_unknown = max(unknown, default=0)
    covered: set[int] = set()
    paths: set[Any] = set()  # the lines of the calls found waited for (later ones come first)
    for d in sorted(calls, key=lambda d: d.seq, reverse=True):
        if d.seq in covered or 0 < d.waited < before or d.seq < last_unknown or d.path in paths:
            covered.add(d.seq)
            covered |= d.inputs
            paths.add(d.path)
    return covered


def _apart(path: tuple[tuple[str, int], ...], others: set[Any]) -> tuple[str, int]:
    """The innermost line of a call's path where it parts from the other calls' (two calls
    through one helper's line are told apart by the lines that called the helper)."""
    for depth, place in enumerate(path):
        if all(len(other) <= depth or other[depth] != place for other in others):
            return place
    return path[0]
