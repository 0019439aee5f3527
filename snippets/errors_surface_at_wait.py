# timeout: 60
"""A computation that fails while running asynchronously raises where it is waited for, not at
the call.

The computation's host callback raises once an event is set, so it fails after its call returned.
"""

import threading
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

gate = threading.Event()
main = threading.main_thread()
ran_during_call = []


def failing(*args):
    if threading.current_thread() is main:  # run during the call (see the retries below)
        ran_during_call.append(True)
        return args[0] if args else None
    gate.wait(30)
    raise ValueError("the callback failed")


def raised(call):
    """What a call raised: the runtime's error class is JaxRuntimeError, XlaRuntimeError before
    jax 0.8, so it is named by what it is."""
    try:
        call()
    except RuntimeError as e:
        runtime = type(e).__name__ in ("JaxRuntimeError", "XlaRuntimeError")
        return "the runtime's error (a RuntimeError)" if runtime else type(e).__name__
    except Exception as e:
        return type(e).__name__
    return "nothing"


busy = jax.jit(lambda a: a @ a)
kinds = {
    "io_callback": jax.jit(
        lambda a: io_callback(failing, jax.ShapeDtypeStruct(a.shape, a.dtype), a)
    ),
    "debug.callback": jax.jit(lambda a: (jax.debug.callback(failing, a), a + 1)[1]),
}
big, small = jnp.ones((1000, 1000)), jnp.ones(4)
busy(big).block_until_ready()  # warm-up: compile (the callbacks run in this thread: no failure)
for f in kinds.values():
    f(small).block_until_ready()
jax.effects_barrier()

for kind, f in kinds.items():
    # A computation with a host callback runs during the call when the device is idle, so queue
    # it behind a busy one. Should the busy one have finished first (a loaded machine), retry.
    for _ in range(5):
        ran_during_call.clear()
        gate.clear()
        running = busy(big)
        y = f(small)  # the call returns: the callback has not run yet
        if not ran_during_call:
            break
        jax.effects_barrier()
    if ran_during_call:
        print(f"{kind}: the callback ran during the call: dispatch is synchronous here")
        continue
    print(f"{kind}: ready right after the call:", y.is_ready())
    gate.set()
    for _ in range(3000):  # up to 30 s for the callback to fail; is_ready() never waits
        if y.is_ready():
            break
        time.sleep(0.01)
    print(f"{kind}: ready once the callback has failed, without raising:", y.is_ready())
    print(f"{kind}: block_until_ready() raises:", raised(y.block_until_ready))
    print(f"{kind}: a second block_until_ready() raises:", raised(y.block_until_ready))
    print(f"{kind}: np.asarray() raises:", raised(lambda y=y: np.asarray(y)))
    print(f"{kind}: effects_barrier() raises:", raised(jax.effects_barrier))
    print(f"{kind}: a second effects_barrier() raises:", raised(jax.effects_barrier))

# Contrast: with nothing else running, a computation with a host callback runs during its call.
main = None  # the callback now fails in any thread
gate.set()
print("device idle: the call itself raises:", raised(lambda: kinds["io_callback"](small)))
