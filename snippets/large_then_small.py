"""Dispatch a large product, then a small one, and block on the small one only."""

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a)
small, large = jnp.ones((64, 64)), jnp.ones((2000, 2000))
matmul(small).block_until_ready()  # warm-up: compile both shapes first
matmul(large).block_until_ready()

b = matmul(large)
s = matmul(small)  # dispatched after b
print("large ready right after dispatch:", b.is_ready())
s.block_until_ready()
print("large ready after blocking on small:", b.is_ready())
