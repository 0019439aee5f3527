# The transfer timed right: the copy started, then completed by np.asarray before the read.
import time

import jax
import jax.numpy as jnp
import numpy as np

f = jax.jit(lambda a: a @ a)
x = jnp.ones((300, 300))
f(x).block_until_ready()
t0 = time.perf_counter()
y = f(x)
y.copy_to_host_async()
host = np.asarray(y)
transfer = time.perf_counter() - t0
print(host.shape)
