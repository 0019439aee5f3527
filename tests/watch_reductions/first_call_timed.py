# No warm-up (mesh-transformer-jax device_sample.py, many notebooks): the first call of the
# jitted function compiles inside the timed region.
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.tanh(a @ a).sum(axis=0))
x = jnp.ones((200, 200))
t0 = time.perf_counter()
f(x).block_until_ready()
elapsed = time.perf_counter() - t0  # <- JW102
print("elapsed is a float:", isinstance(elapsed, float))
