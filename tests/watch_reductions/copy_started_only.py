# A transfer timed with copy_to_host_async and a block (device-to-host benchmarks): the copy
# is only started, and the block waits for the computation, not the copy.
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((300, 300))
f(x).block_until_ready()
t0 = time.perf_counter()
y = f(x)
y.copy_to_host_async()
y.block_until_ready()
transfer = time.perf_counter() - t0  # <- JW111
print("timed:", transfer > 0)
