# The block handed a NumPy copy (blog posts): np.asarray already waited, and the block is
# given no JAX array at all.
import time

import jax
import jax.numpy as jnp
import numpy as np

f = jax.jit(lambda a: a * 2)
x = jnp.ones((100, 100))
f(x).block_until_ready()
t0 = time.perf_counter()
y = np.asarray(f(x))
jax.block_until_ready(y)  # <- JW105
elapsed = time.perf_counter() - t0
print(y.shape)
