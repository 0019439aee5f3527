# timeout: 60
"""On CPU at most 32 computations can be in flight per device and dispatching thread: the 33rd
dispatch waits for one to finish.

A computation held by a host callback waiting on an event occupies the device; a second thread
dispatches small computations behind it and this thread counts how many of those dispatches have
returned before it sets the event. No time is printed.
"""

import threading
import time

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

gate = threading.Event()
ran_during_call = []


def wait_for_gate(v):
    if threading.current_thread() is dispatcher:  # run during the call: waiting would never end
        ran_during_call.append(True)
    else:
        gate.wait(30)
    return v


held = jax.jit(lambda a: io_callback(wait_for_gate, jax.ShapeDtypeStruct(a.shape, a.dtype), a))
busy = jax.jit(lambda a: a @ a)
step = jax.jit(lambda a: a + 1)
big, small = jnp.ones((1000, 1000)), jnp.ones(4)
returned = []
holding = threading.Event()


def dispatch():
    for f, a in ((held, small), (busy, big), (step, small)):
        f(a).block_until_ready()  # warm-up: compile
    # A computation with a host callback runs during the call when the device is idle, so queue
    # it behind a busy one. Should the busy one have finished first (a loaded machine), retry.
    for _ in range(5):
        ran_during_call.clear()
        running = busy(big)
        in_flight = held(small)  # noqa: F841 (kept until the end of the loop)
        running.block_until_ready()  # from here on exactly one computation is in flight
        if not ran_during_call:
            break
    holding.set()
    if ran_during_call:  # jaxwaits: ignore[JW108] asks whether the callback has run yet
        return
    for _ in range(40):  # dispatched from the same thread, so each is queued behind `hold`
        returned.append(step(small))
    jax.block_until_ready(returned)


dispatcher = threading.Thread(target=dispatch, daemon=True)
dispatcher.start()
holding.wait(60)
if ran_during_call:
    dispatcher.join(30)  # exiting while it still runs JAX code can abort the interpreter
    print("the held computation ran during its call: dispatch is synchronous here")
    raise SystemExit
seen = -1
while seen != len(returned):  # each dispatch takes microseconds: 2 s without one means blocked
    seen = len(returned)
    time.sleep(2.0)
print("dispatches that returned while the held computation ran:", len(returned))
print("computations in flight then, the held one included:", len(returned) + 1)
print("the dispatching thread was waiting in its next dispatch:", dispatcher.is_alive())
gate.set()
dispatcher.join(30)
print("dispatches that returned once the held computation finished:", len(returned))
