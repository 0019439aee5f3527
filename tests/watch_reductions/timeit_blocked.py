# The timeit micro-benchmark done right: warmed up, and each call blocked.
import timeit

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ a)
x = jnp.ones((300, 300))
f(x).block_until_ready()
seconds = min(timeit.repeat(lambda: f(x).block_until_ready(), number=20, repeat=3))
print("timed:", seconds > 0)
