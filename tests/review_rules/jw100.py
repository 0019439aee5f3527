"""JW100 unused-suppression: a suppression comment silences nothing: no rule it names finds anything there."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

y = step(x).block_until_ready()  # jaxwaits: ignore[JW101] nothing to silence  # <- JW100

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

y = step(x)
jax.block_until_ready(np.asarray(y))  # jaxwaits: ignore[JW105] shown on purpose
