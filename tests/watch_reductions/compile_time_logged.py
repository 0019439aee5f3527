# A first step timed on purpose to log the compile time (maxdiffusion's trainers): the words
# say it is meant, so nothing is reported.
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda a: jnp.cos(a @ a))
x = jnp.ones((200, 200))
t0 = time.perf_counter()
step(x).block_until_ready()
compile_time = time.perf_counter() - t0
print("compiled:", compile_time > 0)
