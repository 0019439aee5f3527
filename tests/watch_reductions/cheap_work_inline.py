# Cheap work that CPU runs inline, in the dispatching thread: it has finished before the timer
# is read, but nothing waited for it, so the time is right only by chance.
import time

import jax
import jax.numpy as jnp

add = jax.jit(lambda a: a + 1)
x = jnp.ones(4)
add(x).block_until_ready()
t0 = time.perf_counter()
y = add(x)
elapsed = time.perf_counter() - t0  # <- JW101 by chance
print(int(y.sum()))
