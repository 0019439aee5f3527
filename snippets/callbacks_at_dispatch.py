"""On CPU, a computation with a host callback runs during the call unless work dispatched
earlier from the same thread is still running.

Each kind of callback is dispatched three times: with nothing else running; queued behind a large
product this thread dispatched, still running on the same device; and while a large product that
another thread dispatched is running on that device.
"""

import threading
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
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
big = jnp.ones((n, n))
busy_work(big).block_until_ready()  # warm-up: compile
kinds = {
    "debug.callback": with_debug_callback,
    "io_callback ordered": with_ordered_io_callback,
    "io_callback unordered": with_unordered_io_callback,
}


def busy_from_another_thread():
    """A large product dispatched by another thread, still running when this returns."""
    theirs = []
    other = threading.Thread(target=lambda: theirs.append(busy_work(big)))
    other.start()
    other.join()
    return theirs[0]


devices = {
    "idle device": lambda: None,
    "device busy with this thread's work": lambda: busy_work(big),
    "device busy with another thread's work": busy_from_another_thread,
}
for kind, f in kinds.items():
    jax.block_until_ready(f(x))  # warm-up: compile
    jax.effects_barrier()
    for device, start in devices.items():
        effects.clear()
        running = start()
        y = f(x)
        done, ready = len(effects) == 1, y.is_ready()
        y.block_until_ready()
        if jax.default_backend() != "cpu":  # the callback ran during the call: what is left of
            ready = "not asked"  # it races with the poll
        print(f"{kind}, {device}, at return: effect done {done}, output ready {ready}")
        print(f"{kind}, {device}, after blocking on the output: effect done", len(effects) == 1)
        jax.effects_barrier()
        jax.block_until_ready(running)
