"""block_until_ready() returns the array itself, so a harness can block and bind in one line."""

import jax
import jax.numpy as jnp

double = jax.jit(lambda a: a * 2)
x = jnp.ones(3)

y = double(x)
print("y.block_until_ready() is y:", y.block_until_ready() is y)
z = double(x).block_until_ready()
print("bound in one expression, a ready jax.Array:", isinstance(z, jax.Array) and z.is_ready())
