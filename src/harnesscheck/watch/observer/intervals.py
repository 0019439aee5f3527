"""An interval the program measured, judged: the work dispatched in it and whether it was
waited on (JW101, JW103), the compilations in it (JW102), the copies to the host it started and
did not finish (JW111), the host arrays it copied to the device again (JW107)."""

from __future__ import annotations

from typing import Any

from .state import Read, State


def measured(state: State, start: Read, end: Read, seconds: float) -> None:
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
        tail, calls, covered = [], [], []
        for thread in {end.thread, *joined}:
            until = end.seq if thread == end.thread else joined[thread]
            mine = [d for d in state.calls.get(thread, []) if start.seq < d.seq < until]
            unknown = [s for s in state.unknown_waits.get(thread, []) if start.seq < s < end.seq]
            # A thread's work runs in the order it was dispatched: a wait on one call's results
            # (or on an array no watched call made, which may hold them) waits for those before.
            done = [
                d.seq for d in mine if 0 < d.waited < end.seq or any(d.seq < u for u in unknown)
            ]
            tail += [d for d in mine if d.seq > max(done, default=0)]
            calls += mine
            covered += done
    where = {"start": list(start.site), "end": list(end.site), "col": end.col, "clock": end.clock}
    if tail:
        # Work waited on at one line and not at another (two results of separate calls, one
        # blocked) is one output of several (JW103); the same line's later call left unwaited
        # (the last step of a loop), or nothing waited, is the timer read too early (JW101).
        waited_at = {d.path for d in calls if d.seq <= max(covered, default=0)}
        several = bool(covered) and not waited_at & {d.path for d in tail}
        state.write(
            {
                "rule": "JW103" if several else "JW101",
                **where,
                "calls": sorted({_apart(d.path, waited_at) if several else d.site for d in tail}),
                "running": any(not 0 < d.ready <= end.seq for d in tail),
                # a thread's last call whose output the program dropped unseen: it may have run
                "dropped": any(
                    max((d for d in tail if d.thread == t), key=lambda d: d.seq).dropped
                    for t in {d.thread for d in tail}
                ),
            }
        )
    if compiled > 0:
        state.write({"rule": "JW102", **where, "compile_s": compiled, "interval_s": seconds})
    with state.lock:
        started = [
            c for c in state.copies.values()
            if c[1] == end.thread and start.seq < c[0] < end.seq and not 0 < c[3] < end.seq
        ]  # fmt: skip
        again = {
            c[2] for c in state.copied_again if c[1] == end.thread and start.seq < c[0] < end.seq
        }
    if started:
        state.write({"rule": "JW111", **where, "calls": sorted({c[2] for c in started})})
    if again:
        state.write({"rule": "JW107", **where, "calls": sorted(again)})


def _apart(path: tuple[tuple[str, int], ...], others: set[Any]) -> tuple[str, int]:
    """The innermost line of a call's path where it parts from the other calls' (two calls
    through one helper's line are told apart by the lines that called the helper)."""
    for depth, place in enumerate(path):
        if all(len(other) <= depth or other[depth] != place for other in others):
            return place
    return path[0]
