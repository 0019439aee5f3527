"""The bound on computations in flight, shown with work where dispatch_is_paced holds a host
callback: one long computation keeps the device busy, and small ones are dispatched behind it
from the same thread, each return noting whether the long one still runs. (A GPU runs a
computation's host callbacks during its call, so no callback can be held pending there.)

The long computation is sized for the backend, a loop of products lasting a fraction of a second
or more; no time is printed.
"""

import jax
import jax.numpy as jnp

n, rounds = (256, 200) if jax.default_backend() == "cpu" else (8192, 100)


@jax.jit
def long(a):
    return jax.lax.fori_loop(0, rounds, lambda i, b: jnp.tanh(b @ a), a)


step = jax.jit(lambda a: a + 1)
a, small = jnp.ones((n, n)) / n, jnp.ones(4)
long(a).block_until_ready()  # warm-up: compile both
step(small).block_until_ready()

held = long(a)
results, returned_while_running = [], 0
for _ in range(40):
    results.append(step(small))
    returned_while_running += not held.is_ready()
print("dispatches that returned while the long computation ran:", returned_while_running)
print("computations in flight then, the long one included:", returned_while_running + 1)
print("the long computation had finished when the 40th dispatch returned:", held.is_ready())
jax.block_until_ready(results)
