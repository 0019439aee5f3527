"""On CPU, a computation with a host callback runs during the call only while the device is idle.

Each kind of callback is dispatched twice: once with nothing else running, once queued behind a
large product still running on the same device.
"""

import time

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

effects = []


def record(v):
    time.sleep(0.2)  # a slow side effect
    effects.append(v)


@jax.jit
def with_debug_callback(a):
    y = a @ a
    jax.debug.callback(record, y[0, 0])
    return y


@jax.jit
def with_ordered_io_callback(a):
    y = a @ a
    io_callback(record, None, y[0, 0], ordered=True)
    return y


@jax.jit
def with_unordered_io_callback(a):
    y = a @ a
    io_callback(record, None, y[0, 0], ordered=False)
    return y


busy_work = jax.jit(lambda a: a @ a @ a)
x = jnp.ones((300, 300))
big = jnp.ones((2000, 2000))
busy_work(big).block_until_ready()  # warm-up: compile
kinds = {
    "debug.callback": with_debug_callback,
    "io_callback ordered": with_ordered_io_callback,
    "io_callback unordered": with_unordered_io_callback,
}
for kind, f in kinds.items():
    jax.block_until_ready(f(x))  # warm-up: compile
    jax.effects_barrier()
    for device in ("idle", "busy"):
        effects.clear()
        running = busy_work(big) if device == "busy" else None
        y = f(x)
        done, ready = len(effects) == 1, y.is_ready()
        y.block_until_ready()
        print(f"{kind}, {device} device, at return: effect done {done}, output ready {ready}")
        print(
            f"{kind}, {device} device, after blocking on the output: effect done", len(effects) == 1
        )
        jax.effects_barrier()
        jax.block_until_ready(running)
