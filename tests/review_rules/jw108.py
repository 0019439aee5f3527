"""JW108 effects-after-block: what a host callback changed is read after a block on arrays, with no jax.effects_barrier(): the block waits for arrays, not for callbacks."""

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

calls = []

@jax.jit
def counted(a):
    jax.debug.callback(lambda: calls.append(1))
    return a + 1

counted(x).block_until_ready()
print(len(calls))  # <- JW108

# %% done right

import time
import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda a: a @ a)
x = jnp.ones((10, 10))

calls = []

@jax.jit
def counted(a):
    jax.debug.callback(lambda: calls.append(1))
    return a + 1

counted(x).block_until_ready()
jax.effects_barrier()
print(len(calls))
