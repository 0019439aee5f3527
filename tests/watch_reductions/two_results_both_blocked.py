# The two kernels both waited on, as one tree, before the read.
import time

import jax
import jax.numpy as jnp

nngp = jax.jit(lambda a: jnp.tanh(a @ a.T))
ntk = jax.jit(lambda a: jnp.tanh(a @ a.T) @ a)
x = jnp.ones((300, 300))
nngp(x).block_until_ready()
ntk(x).block_until_ready()
t0 = time.perf_counter()
k1 = nngp(x)
k2 = ntk(x)
jax.block_until_ready((k1, k2))
elapsed = time.perf_counter() - t0
print("kernels:", k1.shape, k2.shape)
