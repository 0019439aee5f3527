# A timeit micro-benchmark of a jitted function after a warm-up (jax benchmarks, blog posts):
# the lambda returns the array without waiting, so timeit measures the dispatch.
import timeit

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ a)
x = jnp.ones((300, 300))
f(x).block_until_ready()
seconds = timeit.timeit(lambda: f(x), number=20)  # <- JW101
print("timed:", seconds > 0)
