"""JW106 barrier-in-trace: jax.effects_barrier() inside a traced function runs once, at tracing, and waits for nothing when the computation runs."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

def body(a):
    jax.debug.print("{}", a)
    jax.effects_barrier()  # <- JW106
    return a

jax.vmap(body)(x)

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

def body(a):
    jax.debug.print("{}", a)
    return a

jax.vmap(body)(x)
jax.effects_barrier()
