"""Right after dispatch, is_ready() answers False at once; after blocking, True."""

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
x = jnp.ones((n, n))
matmul(x).block_until_ready()  # warm-up: compile now, so the call below only dispatches

y = matmul(x)  # returns as soon as the work is enqueued
print("ready right after dispatch:", y.is_ready())
print("block_until_ready() returns y itself:", y.block_until_ready() is y)
print("ready after blocking:", y.is_ready())
