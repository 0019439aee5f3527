"""JW101 timer-before-wait: the timer stops before the timed JAX work is waited on, so it measures the dispatch."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
elapsed = time.perf_counter() - t0  # <- JW101

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
total = float(y.sum())
elapsed = time.perf_counter() - t0
