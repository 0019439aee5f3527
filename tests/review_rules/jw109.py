"""JW109 dispatch-made-synchronous: timing code runs with dispatch made synchronous (or tries to, through an environment variable that does nothing): a missing block does not show."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

jax.config.update("jax_cpu_enable_async_dispatch", False)  # <- JW109
step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x).block_until_ready()
elapsed = time.perf_counter() - t0

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x).block_until_ready()
elapsed = time.perf_counter() - t0
