"""Blocking on a small result does not wait for a large one dispatched after it."""

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
# A product still running when the next line looks: 2000x2000 on CPU; a GPU does that in
# microseconds, so there it is 16384x16384.
n = 2000 if jax.default_backend() == "cpu" else 16384
small, large = jnp.ones((64, 64)), jnp.ones((n, n))
matmul(small).block_until_ready()  # warm-up: compile both shapes first
matmul(large).block_until_ready()

s = matmul(small)
b = matmul(large)  # dispatched after s
print("small block returns s:", s.block_until_ready() is s)
print("large ready after blocking on small:", b.is_ready())
print("large ready after blocking on large:", b.block_until_ready().is_ready())
