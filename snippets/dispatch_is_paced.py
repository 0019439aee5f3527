# timeout: 90
"""On CPU at most 32 computations can be in flight on a device, however many threads dispatch
them: the dispatch that would be the 33rd waits for one to finish.

A computation held by a host callback waiting on an event occupies the device. A first thread
holds one and dispatches 20 small computations behind it; then a second thread holds one of its
own and dispatches 40 behind that. The main thread counts how many of those dispatches have
returned before it sets the event. No time is printed.
"""

import threading
import time

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

gate = threading.Event()
dispatching = {threading.main_thread()}  # the threads that dispatch held computations
ran_during_call = []


def wait_for_gate(v):
    if threading.current_thread() in dispatching:  # run during the call: waiting never ends
        ran_during_call.append(True)
    else:
        gate.wait(30)
    return v


held = jax.jit(lambda a: io_callback(wait_for_gate, jax.ShapeDtypeStruct(a.shape, a.dtype), a))
busy = jax.jit(lambda a: a @ a)
step = jax.jit(lambda a: a + 1)
big, small = jnp.ones((1000, 1000)), jnp.ones(4)
for f, a in ((held, small), (busy, big), (step, small)):
    f(a).block_until_ready()  # warm-up: compile (held runs during its call here)


class Dispatcher(threading.Thread):
    """Holds one computation running, then dispatches ``count`` small ones behind it."""

    def __init__(self, count):
        super().__init__(daemon=True)
        self.count, self.returned, self.holding = count, [], threading.Event()
        self.in_flight = None

    def run(self):
        dispatching.add(self)
        # A computation with a host callback runs during the call when nothing dispatched
        # earlier from the same thread still runs, so queue it behind a busy one. Should the
        # busy one have finished first (a loaded machine), retry.
        for _ in range(5):
            ran_during_call.clear()
            running = busy(big)
            self.in_flight = held(small)  # kept until the gate opens
            running.block_until_ready()  # from here on, this thread's held one is in flight
            if not ran_during_call:
                break
        self.holding.set()
        if ran_during_call:  # jaxwaits: ignore[JW108] asks whether the callback has run yet
            return
        dispatching.discard(self)
        for _ in range(self.count):  # queued behind this thread's held computation
            self.returned.append(step(small))
        jax.block_until_ready(self.returned)


def settled(dispatcher):
    """How many of its dispatches have returned once no more return: each takes microseconds,
    so 2 s without one means the next is waiting in its call."""
    seen = -1
    while seen != len(dispatcher.returned):
        seen = len(dispatcher.returned)
        time.sleep(2.0)
    return seen


first = Dispatcher(40)
first.start()
first.holding.wait(60)
if ran_during_call:  # jaxwaits: ignore[JW108] asks whether the callback has run yet
    first.join(30)  # exiting while it still runs JAX code can abort the interpreter
    print("the held computation ran during its call: dispatch is synchronous here")
    raise SystemExit
alone = settled(first)
print("one thread: dispatches that returned while its held computation ran:", alone)
print("one thread: computations in flight then, the held one included:", alone + 1)
print("one thread: the dispatching thread was waiting in its next dispatch:", first.is_alive())
gate.set()
first.join(30)
print(
    "one thread: dispatches that returned once the held computation finished:",
    len(first.returned),
)

# Two threads: the first holds one and 20 behind it, the second one and as many as it can.
gate.clear()
first, second = Dispatcher(20), Dispatcher(40)
first.start()
first.holding.wait(60)
settled(first)
second.start()
second.holding.wait(60)
theirs = settled(second)
print("two threads: the first thread's dispatches that returned:", len(first.returned))
print("two threads: the second thread's dispatches that returned:", theirs)
print(
    "two threads: computations in flight then, both held ones included:",
    len(first.returned) + theirs + 2,
)
print("two threads: the second thread was waiting in its next dispatch:", second.is_alive())
gate.set()
first.join(30)
second.join(30)
print("two threads: the second thread's dispatches that returned at the end:", len(second.returned))
