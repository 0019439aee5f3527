"""When does a callback's side effect happen, relative to dispatch, the output, and the barrier?"""

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
def with_io_callback(a):
    y = a @ a
    io_callback(record, None, y[0, 0], ordered=True)
    return y


x = jnp.ones((300, 300))  # enough work to be dispatched asynchronously
for f in (with_debug_callback, with_io_callback):
    jax.block_until_ready(f(x))  # warm-up: compile
    jax.effects_barrier()
    effects.clear()
    y = f(x)
    print(f"{f.__name__}: effect done when dispatch returned:", len(effects) == 1)
    backend = jax.default_backend()
    if backend == "cpu":
        print(f"{f.__name__}: output ready when dispatch returned:", y.is_ready())
    else:  # the callback ran during the call: what is left of it races with this line
        print(f"{f.__name__}: output ready when dispatch returned: not asked on", backend)
    y.block_until_ready()
    print(f"{f.__name__}: effect done after blocking on the output:", len(effects) == 1)
    jax.effects_barrier()
    print(f"{f.__name__}: effect done after effects_barrier():", len(effects) == 1)
