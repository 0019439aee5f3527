"""JW110 error-at-the-call: a runtime error is caught around a JAX call that is not waited on: a failure while the computation runs is raised at the wait, outside the try."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

try:
    y = step(x)  # <- JW110
except RuntimeError:
    y = None

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

try:
    y = jax.block_until_ready(step(x))
except RuntimeError:
    y = None
