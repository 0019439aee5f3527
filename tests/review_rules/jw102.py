"""JW102 compile-timed: the first call of a jitted function is timed: it compiles before it runs."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

t0 = time.perf_counter()
step(x).block_until_ready()  # <- JW102
elapsed = time.perf_counter() - t0

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step.lower(x).compile()
t0 = time.perf_counter()
step(x).block_until_ready()
elapsed = time.perf_counter() - t0
