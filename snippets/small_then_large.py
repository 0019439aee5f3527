"""Blocking on a small result does not wait for a large one dispatched after it."""

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
small, large = jnp.ones((64, 64)), jnp.ones((2000, 2000))
matmul(small).block_until_ready()  # warm-up: compile both shapes first
matmul(large).block_until_ready()

s = matmul(small)
b = matmul(large)  # dispatched after s
print("small block returns s:", s.block_until_ready() is s)
print("large ready after blocking on small:", b.is_ready())
print("large ready after blocking on large:", b.block_until_ready().is_ready())
